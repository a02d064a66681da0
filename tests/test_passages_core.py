"""The compiled search (twisty/solver/_passages_core.c) against the Python search it ports.

The port is step for step: from the same graph and the same starting state both expand the same states in
the same order, so besides the answer they must report the same number of expansions; a difference in any
rule (closure, bound, dominance, order, pruning) shows up there first. Every route they return is
replayed by the plain rules."""

from __future__ import annotations

import random

import pytest

from twisty.generator.passages_random import random_level
from twisty.rules.passages import replay
from twisty.solver import passages_search
from twisty.solver.passages_search import NO_WIN, SearchGraph, search, start_hp_upper_bound
from twisty.solver.passages_verdict import Deadline
from tests.test_passages_search import load_suite_builder

pytestmark = pytest.mark.skipif(passages_search._passages_core is None,
                                reason="the compiled core is not built (no C compiler at install time)")


def random_levels(seed: int, count: int):
    """Random levels of 3 to 30 blockers with doors, keys, equipment and loops."""
    rng = random.Random(seed)
    for index in range(count):
        level_seed = seed * 1000 + index
        wide, high = rng.randint(3, 7), rng.randint(3, 5)
        room = wide * high      # a maze has about twice as many floor cells as maze cells
        yield level_seed, random_level(level_seed, cells_wide=wide, cells_high=high,
                                       blockers=rng.randint(3, min(30, room)), items=rng.randint(0, min(14, room - 2)),
                                       loops=rng.choice([0.0, 0.1, 0.3, 0.5]), door_share=rng.choice([0.0, 0.25, 0.4]))


def both_searches(sg: SearchGraph, start_hp: int, **options):
    options.setdefault("priced", True)
    compiled = search(sg, start_hp, Deadline(None), **options)
    plain = search(sg, start_hp, Deadline(None), compiled=False, **options)
    return compiled, plain


def assert_same_search(level, start_hp: int, what, **options):
    sg = SearchGraph(level, start_hp)
    assert sg.fits_compiled(), what
    compiled, plain = both_searches(sg, start_hp, **options)
    assert (compiled.best_hp, compiled.complete, compiled.expanded) == \
        (plain.best_hp, plain.complete, plain.expanded), what
    if compiled.route is not None:
        # Both routes end on a goal with the reported hp (they may differ where two ways tie).
        replayed = replay(level.with_start_hp(start_hp), compiled.route)
        assert replayed.final_hp == compiled.best_hp, what
    return compiled


@pytest.mark.parametrize("chunk", range(6))
def test_compiled_search_expands_the_same_states_as_the_python_search(chunk):
    """300 random levels, each searched eight ways: best route with the priced bound, with the Steiner
    bound instead, with the Steiner and chain bounds, with neither, without dominance, solvability, wins of
    at least the optimum + 1 (none) and the first witness of min_start_hp (dive, huge hp)."""
    solvable = 0
    for seed, level in random_levels(chunk, 50):
        hp = level.player.hp
        best = assert_same_search(level, hp, seed)
        assert_same_search(level, hp, seed, priced=False)
        assert_same_search(level, hp, seed, priced=False, steiner=True)
        assert_same_search(level, hp, seed, priced=False, steiner=True, chain_from=0)
        assert_same_search(level, hp, seed, use_dominance=False)
        assert_same_search(level, hp, seed, first_win=True)
        if best.best_hp is not None:
            solvable += 1
            assert assert_same_search(level, hp, seed, at_least=best.best_hp + 1).best_hp is None
        roomy = start_hp_upper_bound(SearchGraph(level))
        assert_same_search(level, roomy, seed, first_win=True, dive=True)
    assert 10 <= solvable <= 45


def test_compiled_steiner_bound_is_the_python_one():
    """The compiled Steiner bound ascends the same duals as SteinerGraph.bound: the same number at every
    state of random walks of the search's moves on 250 random levels (each move without the free steps
    after it, so that states the search never closes are compared too), NO_WIN included. So does the
    compiled chain bound as _Walker.chain_bound, at two floors (which decide what it skips)."""
    compared = below_tree = below_steiner = 0
    core = passages_search._passages_core
    for seed, level in random_levels(7, 250):
        rng = random.Random(seed)
        graph = SearchGraph(level)
        walker = passages_search._Walker(graph, level.player.hp, graph.useful_mask, closure=True)
        state, _ = walker.initial()
        for _ in range(12):
            python = walker.steiner_bound(state)
            compiled = core.steiner_bound(graph.compiled_graph(), graph.compiled_state(state))
            assert compiled == python, seed
            for floor in (NO_WIN, python - 5):
                chain = walker.chain_bound(state, python, floor)
                compiled = core.steiner_bound(graph.compiled_graph(), graph.compiled_state(state), True, floor)
                assert compiled == chain, seed
                below_steiner += chain < python
            compared += 1
            below_tree += python < walker.bound(state)
            moves = walker.moves(state)
            if not moves:
                break
            blocker, cost = rng.choice(moves)
            state = walker.consume(state, blocker, cost)
    assert compared > 700 and below_tree > 30 and below_steiner > 30, (compared, below_tree, below_steiner)


@pytest.mark.parametrize("chunk", range(3))
def test_compiled_least_need_search_expands_the_same_states_as_the_python_one(chunk):
    """min_start_hp's least-need search, compiled and in Python, from the same first witness, with and
    without the Steiner bound: the same least need and the same number of expansions, on 100 random levels
    and on benchmark-style ones."""
    from twisty.solver.passages_search import _least_need, _required_start_hp
    levels = [level for _, level in random_levels(100 + chunk, 34)]
    levels += [load_suite_builder().build_level(seed, seed // 1000, 21, 15) for seed in (30001 + chunk, 40002 + chunk)]
    found = 0
    for level in levels:
        sg = SearchGraph(level)
        witness = search(sg, start_hp_upper_bound(sg), Deadline(None), first_win=True, dive=True)
        if witness.route is None:
            continue
        known = _required_start_hp(sg, witness.route)
        for steiner in (True, False):
            compiled = _least_need(sg, known, Deadline(None), steiner=steiner)
            assert compiled == _least_need(sg, known, Deadline(None), compiled=False, steiner=steiner), level.name
            assert compiled[0] is not None and 1 <= compiled[0] <= known
        found += 1
    assert found >= 15


@pytest.mark.parametrize("chunk", range(3))
def test_compiled_decision_searches_count_as_the_python_ones(chunk):
    """The counting walk with its decision searches compiled (failures kept in the core, undone after a
    search that wins) finds the same winning signatures, with the same routes' hp, as with the Python
    searches: on random solvable levels and benchmark-style ones, for the optimum and for any win."""
    from twisty.solver.passages_search import _winning_signatures
    levels = [level for _, level in random_levels(200 + chunk, 30)]
    levels += [load_suite_builder().build_level(seed, seed // 1000, 21, 15) for seed in (20002 + chunk, 30001 + chunk)]
    counted = 0
    for level in levels:
        sg = SearchGraph(level)
        best = search(sg, level.player.hp, Deadline(None))
        if best.best_hp is None:
            continue
        for at_least in (best.best_hp, 1):
            compiled = _winning_signatures(sg, Deadline(None), at_least=at_least, limit=12)
            plain = _winning_signatures(sg, Deadline(None), at_least=at_least, limit=12, compiled=False)
            assert compiled[1] and plain[1], level.name
            assert {sig: hp for sig, (hp, _) in compiled[0].items()} == \
                {sig: hp for sig, (hp, _) in plain[0].items()}, (level.name, at_least)
            counted += len(compiled[0])
    assert counted > 100


def test_an_expired_deadline_stops_the_compiled_least_need_search():
    from twisty.solver.passages_search import _least_need, _required_start_hp
    level = load_suite_builder().build_level(40004, 40, 21, 15)
    sg = SearchGraph(level)
    witness = search(sg, start_hp_upper_bound(sg), Deadline(None), first_win=True, dive=True)
    known = _required_start_hp(sg, witness.route)
    assert _least_need(sg, known, Deadline(1e-9)) == (None, 256)
    assert passages_search.min_start_hp(level, Deadline(1e-9)).status == "unknown"


@pytest.mark.parametrize("seed", [20002, 30001, 40002, 40004])
def test_compiled_search_expands_the_same_states_on_benchmark_levels(seed):
    """Benchmark-style levels of 20 to 40 blockers (thousands of expansions), at the least starting hp
    that wins and with room to spare."""
    level = load_suite_builder().build_level(seed, seed // 1000, 21, 15)
    least = passages_search.min_start_hp(level, Deadline(None))
    assert least.status == "proved"
    tight = assert_same_search(level, least.value, seed)
    assert_same_search(level, least.value, seed, priced=False)
    assert tight.best_hp is not None
    if least.value > 1:
        assert assert_same_search(level, least.value - 1, seed).best_hp is None
    assert_same_search(level, least.value + 20, seed)


def test_an_expired_deadline_stops_the_compiled_search_unproven():
    """The compiled search asks the deadline every 256 expansions, as the Python one does."""
    level = load_suite_builder().build_level(40004, 40, 21, 15).with_start_hp(72)
    sg = SearchGraph(level, 72)
    stopped = search(sg, 72, Deadline(1e-9))
    assert not stopped.complete and stopped.expanded == 256
    assert search(sg, 72, Deadline(None)).complete


def test_levels_beyond_the_compiled_limits_run_the_python_search(monkeypatch):
    """More than 128 blockers do not fit the compiled core's sets: the Python search answers, and its
    route replays."""
    level = random_level(10, cells_wide=14, cells_high=12, blockers=140, items=10, loops=0.1).with_start_hp(5000)
    sg = SearchGraph(level, level.player.hp)
    assert sg.blocker_count > 128 and not sg.fits_compiled()

    class Refusing:
        @staticmethod
        def search(*args):
            raise AssertionError("the compiled core was asked to search a level it cannot hold")

    monkeypatch.setattr(passages_search, "_passages_core", Refusing)
    found = passages_search.best_route(level, Deadline(60))
    assert found.proved and found.status == "solvable"
    assert replay(level, found.decisions).final_hp == found.final_hp


@pytest.mark.parametrize("seed", [40002, 40004])
def test_the_race_of_two_searches_answers_as_one_search(seed):
    """best_route races the compiled search with the priced bound and the one with the Steiner bound from 40
    blockers on: at the least starting hp and one below, its answer is the Python search's, proven, and its
    route replays."""
    level = load_suite_builder().build_level(seed, seed // 1000, 21, 15)
    assert SearchGraph(level).blocker_count >= passages_search.RACE_BLOCKERS
    least = passages_search.min_start_hp(level, Deadline(None)).value
    for hp in (least, least - 1, least + 20):
        tried = level.with_start_hp(hp)
        raced = passages_search.best_route(tried, Deadline(None))
        alone = search(SearchGraph(tried, hp), hp, Deadline(None), compiled=False)
        assert raced.proved and raced.final_hp == alone.best_hp, (seed, hp)
        if raced.decisions:
            assert replay(tried, raced.decisions).final_hp == raced.final_hp


class _NoSpareCore(Deadline):
    """A deadline that never spares the second core (as the race's, while the priced search runs)."""

    def spare_core(self) -> bool:
        return False


def test_the_search_on_two_cores_answers_as_on_one():
    """The compiled search with the chain bound, bounding states on a second core too (threads=2): on the
    suite levels of 40 and 60 blockers and on 80 random levels, the same best final hp, proven, as on one
    core, no win with one hp more, and the route replays by the plain rules. Its expansions come in a
    slightly different order, so only the answers are compared. With a deadline that does not spare the
    second core, it stays on one, and expands exactly the states the one-core search expands."""
    from twisty.solver import passages_bench
    levels = list(passages_bench.load_suite(passages_bench.DEFAULT_SUITE, (40, 60)))
    levels += [(seed, level) for seed, level in random_levels(11, 80)]
    wins = reordered = 0
    for what, level in levels:
        hp = level.player.hp
        sg = SearchGraph(level, hp)
        options = dict(priced=False, steiner=True, chain_from=0)
        one = search(sg, hp, Deadline(None), **options)
        two = search(sg, hp, Deadline(None), threads=2, **options)
        assert one.complete and two.complete and two.best_hp == one.best_hp, what
        reordered += two.expanded != one.expanded       # (the sign that the second core took part)
        held = search(sg, hp, _NoSpareCore(None), threads=2, **options)
        assert (held.best_hp, held.expanded) == (one.best_hp, one.expanded), what
        if two.best_hp is not None:
            wins += 1
            assert replay(level, two.route).final_hp == two.best_hp, what
            beyond = search(sg, hp, Deadline(None), threads=2, at_least=two.best_hp + 1, **options)
            assert beyond.complete and beyond.best_hp is None, what
    assert wins >= 30 and reordered >= 3, (wins, reordered)


def test_compiled_search_turns_the_chain_bound_on_where_the_python_search_does():
    """The chain bound from the 50th expansion on (the race's Steiner search asks it from the first; here
    the switch is tested too): on the suite levels of 20 and 40 blockers that take the Steiner search 60
    to 1,400 expansions, the same answers and expansion counts compiled and in Python, and fewer
    expansions than without it (b040-05: 587 without, 50 with)."""
    from twisty.solver import passages_bench
    chosen = ("b020-01.toml", "b020-04.toml", "b040-00.toml", "b040-02.toml", "b040-04.toml", "b040-05.toml")
    for name, level in passages_bench.load_suite(passages_bench.DEFAULT_SUITE, (20, 40)):
        if name not in chosen:
            continue
        plain = assert_same_search(level, level.player.hp, name, priced=False, steiner=True)
        chained = assert_same_search(level, level.player.hp, name, priced=False, steiner=True, chain_from=50)
        assert plain.expanded > 50 and chained.expanded < plain.expanded, (name, plain.expanded, chained.expanded)
        assert chained.best_hp == plain.best_hp, name


def long_race_level():
    """Suite level b060-01: 17,618 expansions for the search with the Steiner and chain bounds, far more
    than the 256 between two looks at the clock, so that a racing search sees the other's end in time."""
    from twisty.solver import passages_bench
    return dict(passages_bench.load_suite(passages_bench.DEFAULT_SUITE, (60,)))["b060-01.toml"]


def test_an_error_in_the_other_racing_search_reaches_the_caller(monkeypatch):
    """When no search proves an answer, an error in the search on the other thread is raised to the caller
    (a deadline already passed stops the search that does not fail)."""
    level = long_race_level()
    real_search = passages_search.search

    def failing_with_the_steiner_bound(*args, steiner=False, **options):
        if steiner:
            raise MemoryError("no room")
        return real_search(*args, steiner=steiner, **options)

    monkeypatch.setattr(passages_search, "search", failing_with_the_steiner_bound)
    with pytest.raises(MemoryError):
        passages_search.best_route(level, Deadline(1e-9))


@pytest.mark.slow
def test_compiled_search_expands_the_same_states_on_the_benchmark_suite():
    """Every suite level up to 60 blockers but b060-01 (733,000 expansions, 40 s in Python), with the priced
    bound, with the Steiner bound and with neither: the same answers and expansion counts as the Python
    search."""
    from twisty.solver import passages_bench
    for name, level in passages_bench.load_suite(passages_bench.DEFAULT_SUITE, (10, 20, 40, 60)):
        if name == "b060-01.toml":
            continue
        for priced, steiner in ((True, False), (False, True), (False, False)):
            assert_same_search(level, level.player.hp, (name, priced, steiner), priced=priced, steiner=steiner)


def test_the_priced_search_gives_way_at_half_the_memory_budget(monkeypatch):
    """With this process already holding more than half the budget (and less than all of it), the priced
    search stops at its first look at the memory and the Steiner search goes on alone to the proof, the
    same optimum as without a budget."""
    from twisty.limits import _resident_bytes
    level = load_suite_builder().build_level(40004, 40, 21, 15).with_start_hp(90)      # > 256 expansions
    expected = passages_search.best_route(level, Deadline(None, memory_bytes=None))
    real_search = passages_search.search
    ended = {}

    def recording(*args, priced=None, **options):
        result = real_search(*args, priced=priced, **options)
        ended[priced] = result
        return result

    monkeypatch.setattr(passages_search, "search", recording)
    budget = _resident_bytes() * 3 // 2
    found = passages_search.best_route(level, Deadline(None, memory_bytes=budget))
    assert expected.proved and (found.proved, found.final_hp) == (True, expected.final_hp)
    assert not ended[True].complete and ended[True].expanded < ended[False].expanded
    assert ended[False].complete


def test_an_interrupt_in_one_racing_search_stops_the_other(monkeypatch):
    """Ctrl-C reaches one thread only: the race must stop the other search too (at its next look at the
    clock) instead of waiting for it, and raise the interrupt even if the other had found something."""
    level = long_race_level()
    real_search = passages_search.search
    finished = []

    def interrupted_with_the_priced_bound(*args, priced=None, **options):
        if priced:
            raise KeyboardInterrupt
        result = real_search(*args, priced=priced, **options)
        finished.append(result)
        return result

    monkeypatch.setattr(passages_search, "search", interrupted_with_the_priced_bound)
    with pytest.raises(KeyboardInterrupt):
        passages_search.best_route(level, Deadline(None))
    assert len(finished) == 1 and not finished[0].complete
