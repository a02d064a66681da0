"""The search engine against independent witnesses: the reference engine (best life per consumed set, by the
rules' own functions) and the grid-level brute force on hundreds of small random levels, CP-SAT on larger
ones (slow), and the plain rules for every route it reports. Also the reference engine against the brute
force, the search graph's dominator tree and walls against their definitions, and the engine's answers
where numbers are as large as a level may hold."""

from __future__ import annotations

import dataclasses
import importlib.util
import random
import weakref
from pathlib import Path

import pytest

from tests.passages_helpers import assert_agrees_with_the_reference_at_the_edge_of_solvability, level_from_toml
from twisty.generator.passages_random import random_level
from twisty.rules.passages import (
    RouteState,
    blocker_cost,
    consume,
    frontier,
    initial_state,
    reachable_goals,
    replay,
    start_hp_upper_bound,
)
from twisty.solver import passages_brute, passages_reference, passages_search
from twisty.solver.passages_search import SearchGraph
from twisty.solver.passages_verdict import SOLVABLE, Deadline, witnesses_kept

needs_core = pytest.mark.skipif(
    not passages_search.COMPILED_AVAILABLE, reason="the compiled core is not built (no C compiler at install time)"
)
# The engines held to the brute force: the reference engine, and the search engine when its compiled core is
# built. Without the core the search engine hands every question to the reference engine, and comparing the
# two would compare one engine with itself (tests/test_compiled_core.py fails the run where a C compiler is
# at hand and the core was not built).
HELD_TO_BRUTE_FORCE = (
    (passages_reference, passages_search) if passages_search.COMPILED_AVAILABLE else (passages_reference,)
)


def small_level(seed: int, max_blockers: int = 8):
    rng = random.Random(seed)
    return random_level(
        seed,
        cells_wide=rng.randint(3, 4),
        cells_high=rng.randint(3, 4),
        blockers=rng.randint(1, max_blockers),
        items=rng.randint(0, 5),
        loops=rng.choice([0.0, 0.1, 0.3]),
    )


def legal_moves_from(level, state: RouteState):
    """Every (state, blocker) move the plain rules allow from `state` on, each reachable state once."""
    stack = [state]
    seen = set()
    while stack:
        state = stack.pop()
        key = (state.consumed, state.stats)
        if key in seen:
            continue
        seen.add(key)
        yield state, None
        for index in frontier(level, state):
            if blocker_cost(level, index, state.stats) is not None:
                yield state, index
                stack.append(consume(level, state, index)[0])


# Per level, the best final hp from each (consumed set, stats) found so far by best_from.
_BEST_FROM: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def best_from(level, state: RouteState) -> int | None:
    """The best final hp of any continuation of `state`, by the plain rules, exhaustively (each state's
    answer kept for the next question on the same level: the largest of its own hp where a goal is in
    reach and the answers of the states its legal moves lead to)."""
    known = _BEST_FROM.setdefault(level, {})

    def best(state: RouteState) -> int | None:
        key = (state.consumed, state.stats)
        if key not in known:
            found = state.stats.hp if reachable_goals(level, state) else None
            for index in frontier(level, state):
                if blocker_cost(level, index, state.stats) is not None:
                    after = best(consume(level, state, index)[0])
                    if after is not None and (found is None or after > found):
                        found = after
            known[key] = found
        return known[key]

    return best(state)


def count_fields(count) -> tuple:
    return count.solutions, count.optimal, count.capped, count.complete


def assert_counts_agree(level, got, want, cap: int, what) -> None:
    """The same counts and flags; the witnesses distinct solutions that replay; when not capped, the same
    solutions."""
    assert count_fields(got) == count_fields(want), what
    found = [replay(level, route).signature for route in got.witnesses]
    assert len(set(found)) == len(found) == min(witnesses_kept(cap), got.solutions + got.capped), what
    if not got.capped:  # then the witnesses are every solution
        assert set(found) == {replay(level, route).signature for route in want.witnesses}, what


@pytest.mark.parametrize("chunk", range(11))
def test_agrees_with_the_reference_and_the_brute_force(chunk):
    """220 random levels up to 8 blockers, each asked the three questions by the search engine, the reference
    engine and the brute force: the same verdict, final hp (proven), min start hp and counts; every route
    and witness the search reports replays by the plain rules with the hp it claims. The brute force walks
    the grid and shares nothing with the other two but the rules (the other two share the region graph).
    Without the compiled core, the search engine is left out (HELD_TO_BRUTE_FORCE)."""
    for seed in range(chunk * 20, chunk * 20 + 20):
        level = small_level(seed)
        expected = passages_brute.best_route(level, Deadline(None))
        for engine in HELD_TO_BRUTE_FORCE:
            found = engine.best_route(level, Deadline(None))
            assert (found.status, found.final_hp, found.proved) == (expected.status, expected.final_hp, True), seed
            if found.status == SOLVABLE:
                assert replay(level, found.decisions).final_hp == found.final_hp, seed
        least = passages_brute.min_start_hp(level, Deadline(None))
        for engine in HELD_TO_BRUTE_FORCE:
            assert engine.min_start_hp(level, Deadline(None)) == least, (seed, engine.NAME)
        cap = 1 + seed % 4
        want = passages_brute.count_solutions(level, Deadline(None), cap, expected.final_hp)
        for engine in HELD_TO_BRUTE_FORCE:
            got = engine.count_solutions(level, Deadline(None), cap, expected.final_hp)
            assert_counts_agree(level, got, want, cap, (seed, engine.NAME))
            if got.witnesses:
                assert replay(level, got.witnesses[0]).final_hp == expected.final_hp, seed


@needs_core
@pytest.mark.parametrize("chunk", range(4))
def test_every_configuration_of_the_compiled_search_agrees_with_the_reference(chunk):
    """The compiled search's configurations (the race's two halves and the rest) on 160 random levels of 3 to
    30 blockers with doors, keys, equipment and loops: with the priced bound, with the Steiner bound, with
    the Steiner and chain bounds from the first expansion on (on one core and on two), with no lazy bound,
    without dominance, with the entry bound (on the nearest goal side, and on every side with the chain
    bound): the reference's best final hp, proven, and a route that replays with it; the first win is a
    win; no win with one hp more than the best."""
    for seed, level in random_levels(chunk, 40):
        hp = level.player.hp
        expected = passages_reference.best_route(level, Deadline(None)).final_hp
        sg = SearchGraph(level, hp)
        for options in (
            dict(),
            dict(priced=False, steiner=True),
            dict(priced=False, steiner=True, chain_from=0),
            dict(priced=False, steiner=True, chain_from=0, threads=2),
            dict(priced=False),
            dict(use_dominance=False),
            dict(entry=1),
            dict(priced=False, steiner=True, chain_from=0, entry=128),
        ):
            found = passages_search.search(sg, hp, Deadline(None), **options)
            assert found.complete and found.best_hp == expected, (seed, options)
            if found.route is not None:
                assert replay(level, found.route).final_hp == expected, (seed, options)
        first = passages_search.search(sg, hp, Deadline(None), first_win=True)
        assert (first.best_hp is None) == (expected is None), seed
        if first.route is not None:
            assert replay(level, first.route).final_hp == first.best_hp, seed
        if expected is not None:
            beyond = passages_search.search(sg, hp, Deadline(None), at_least=expected + 1)
            assert beyond.complete and beyond.best_hp is None, seed


@needs_core
@pytest.mark.parametrize("chunk", range(4))
def test_the_entry_bound_keeps_every_win_at_the_edge_of_solvability(chunk):
    """The entry bound drops states from which no route can enter the part of the map around the goals
    alive; its decision searches are the refutations of the least starting hp. On 160 random levels of 3
    to 30 blockers, at the reference's least starting hp m: the first-win search with the entry bound alone
    (on the nearest side, and on every side) finds a win that replays, and from m - 1 it proves there is
    none; from the level's own hp, its best final hp is the reference's."""
    for seed, level in random_levels(100 + chunk, 40):
        least = passages_reference.min_start_hp(level, Deadline(None))
        assert least.status in ("proved", "none"), seed
        if least.value is None:
            continue
        for entry in (passages_search.ENTRY_NEAREST, 128):
            options = dict(priced=False, steiner=False, entry=entry)
            at = SearchGraph(level, least.value)
            win = passages_search.search(at, least.value, Deadline(None), first_win=True, **options)
            assert win.complete and win.route is not None, (seed, entry)
            assert replay(level.with_start_hp(least.value), win.route).final_hp == win.best_hp >= 1, (seed, entry)
            if least.value > 1:
                below = SearchGraph(level, least.value - 1)
                none = passages_search.search(below, least.value - 1, Deadline(None), first_win=True, **options)
                assert none.complete and none.best_hp is None, (seed, entry)
        hp = level.player.hp
        best = passages_search.search(SearchGraph(level, hp), hp, Deadline(None), entry=passages_search.ENTRY_NEAREST)
        assert best.best_hp == passages_reference.best_route(level, Deadline(None)).final_hp, seed


def random_levels(seed: int, count: int):
    """Random levels of 3 to 30 blockers with doors, keys, equipment and loops."""
    rng = random.Random(seed)
    for index in range(count):
        level_seed = seed * 1000 + index
        wide, high = rng.randint(3, 7), rng.randint(3, 5)
        room = wide * high  # a maze has about twice as many floor cells as maze cells
        yield (
            level_seed,
            random_level(
                level_seed,
                cells_wide=wide,
                cells_high=high,
                blockers=rng.randint(3, min(30, room)),
                items=rng.randint(0, min(14, room - 2)),
                loops=rng.choice([0.0, 0.1, 0.3, 0.5]),
                door_share=rng.choice([0.0, 0.25, 0.4]),
            ),
        )


def solvable_random_levels(
    seed: int,
    count: int,
    *,
    wide: tuple[int, int],
    high: tuple[int, int],
    blockers: tuple[int, int],
    items: tuple[int, int],
    engine,
):
    """(seed, level, best route) for the next `count` random levels after `seed` that `engine` finds
    solvable."""
    while count:
        seed += 1
        rng = random.Random(seed)
        level = random_level(
            seed,
            cells_wide=rng.randint(*wide),
            cells_high=rng.randint(*high),
            blockers=rng.randint(*blockers),
            items=rng.randint(*items),
            loops=rng.choice([0.1, 0.3, 0.5]),
        )
        best = engine.best_route(level, Deadline(None))
        if best.status == SOLVABLE:
            count -= 1
            yield seed, level, best


def test_counts_agree_with_the_brute_force_on_larger_levels():
    """Solution counts on 40 random solvable levels of 9 to 14 blockers on wider mazes, where the walk
    leans on the core's decision searches to skip what cannot win: the same counts and flags as the brute
    force and the reference engine, and when not capped the same solutions as witnesses."""
    capped = 0
    for seed, level, best in solvable_random_levels(
        5000, 40, wide=(4, 5), high=(3, 4), blockers=(9, 14), items=(1, 6), engine=passages_brute
    ):
        cap = 1 + seed % 12
        want = passages_brute.count_solutions(level, Deadline(None), cap, best.final_hp)
        for engine in HELD_TO_BRUTE_FORCE:
            got = engine.count_solutions(level, Deadline(None), cap, best.final_hp)
            assert_counts_agree(level, got, want, cap, (seed, engine.NAME))
        capped += want.capped
    assert 5 < capped < 35


def medium_level(seed: int):
    rng = random.Random(seed)
    return random_level(
        seed,
        cells_wide=rng.randint(5, 6),
        cells_high=rng.randint(4, 5),
        blockers=rng.randint(10, 16),
        items=rng.randint(8, 14),
        loops=rng.choice([0.1, 0.25]),
        door_share=0.25,
    )


@needs_core
@pytest.mark.parametrize("chunk", range(4))
def test_agrees_with_the_reference_at_the_edge_of_solvability(chunk):
    """Medium levels (10 to 16 blockers), where the reference still visits every consumed set: the same least
    starting hp; at it, the same best final hp, and one hp less no route at all; the same with 15 hp to
    spare. This catches pruning that is only wrong on larger state spaces."""
    for seed in range(chunk * 10, chunk * 10 + 10):
        assert_agrees_with_the_reference_at_the_edge_of_solvability(passages_search, medium_level(seed), seed)


def load_suite_builder():
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "passages" / "make_suite.py"
    spec = importlib.util.spec_from_file_location("make_suite", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@needs_core
@pytest.mark.parametrize("seed", [40002, 40004, 30001, 30003])
def test_least_start_hp_is_consistent_with_best_routes_on_benchmark_levels(seed):
    """On benchmark-style levels (30 to 40 blockers) the two searches behind the answers must agree: at
    min_start_hp the best-first search finds a route that the rules replay, and one hp less it finds none
    (min_start_hp comes from the least-need search: another order, states kept by need and damage)."""
    builder = load_suite_builder()
    level = builder.build_level(seed, seed // 1000, 21, 15)
    least = passages_search.min_start_hp(level, Deadline(None))
    assert least.status == "proved"
    at_least = passages_search.best_route(level.with_start_hp(least.value), Deadline(None))
    assert replay(level.with_start_hp(least.value), at_least.decisions).final_hp == at_least.final_hp >= 1
    if least.value > 1:
        assert passages_search.best_route(level.with_start_hp(least.value - 1), Deadline(None)).status != SOLVABLE


AROUND_THE_DOOR = """
game = "passages"
map = '''
#########
#S.D+k..#
#.###.#.#
#.e...#D#
#######D#
#######G#
'''
[player]
hp = 10
atk = 5
keys = 1
[legend]
D = { kind = "door" }
k = { kind = "key" }
"+" = { kind = "elixir", hp = 4 }
e = { kind = "enemy", hp = 1, atk = 9, def = 0 }
"""


def test_the_same_areas_reached_around_a_door_are_not_worse_than_the_door():
    """Opening the first door takes the elixir and a key but spends the starting key; going around past
    the harmless enemy takes the same things and keeps it, and the goal needs two more keys. The door
    state has consumed more, has as much hp and no more damage, yet only the other state wins: a search
    that let the door state stand for the other (more areas for the same damage) would find no route.
    By the plain rules: 10 + 4 = 14 around, nothing through the door."""
    level = level_from_toml(AROUND_THE_DOOR)
    rules_start, _ = initial_state(level)
    through_door = consume(level, rules_start, level.thing_at[(1, 3)])[0]
    around = consume(level, rules_start, level.thing_at[(3, 2)])[0]
    assert best_from(level, through_door) is None and best_from(level, around) == 14
    for engine in (passages_search, passages_reference):
        found = engine.best_route(level, Deadline(None))
        assert found.final_hp == 14 and replay(level, found.decisions).final_hp == 14


ROUND_THE_BACK = """
game = "passages"
map = '''
##########
#Sf..#####
#.##.#####
#.c.b..gG#
##########
'''
[player]
hp = 20
atk = 10
[legend]
f = { kind = "enemy", hp = 15, atk = 3, def = 0 }
c = { kind = "enemy", hp = 15, atk = 2, def = 0 }
b = { kind = "enemy", hp = 15, atk = 2, def = 0 }
g = { kind = "enemy", hp = 15, atk = 2, def = 0 }
"""


def test_a_step_that_closes_to_the_state_itself_does_not_make_it_dominated():
    """Enemy b touches three areas: the corridor behind f, the room behind c and the way to g. A state
    that took f and c and then b records where the raw set {f, c, b} leads. The state that took c and b
    alone has reached the same areas, so that raw set is its own frontier step over f (now pointless),
    and it closes to its own key. The state stored under that key is itself; the dominance rule must not
    drop it for being as good as itself, or the only key from which g is fought is lost (every enemy here
    hits once for its attack: c, b, g cost 2 each): 20 - 6 = 14."""
    level = level_from_toml(ROUND_THE_BACK)
    assert best_from(level, initial_state(level)[0]) == 14
    assert passages_search.best_route(level, Deadline(None)).final_hp == 14


TWO_WAYS = """
game = "passages"
map = '''
############
#Gb..S.a+cG#
############
'''
[player]
hp = 10
atk = 10
[legend]
b = { kind = "enemy", hp = 15, atk = 5, def = 0 }
a = { kind = "enemy", hp = 15, atk = 9, def = 0 }
c = { kind = "enemy", hp = 15, atk = 15, def = 0 }
"+" = { kind = "elixir", hp = 20 }
"""


def test_least_need_takes_the_way_that_needs_less_though_it_ends_lower():
    """Every enemy here takes two strikes, so it hits once for its attack. Left: b costs 5, so it needs 6
    hp and ends with hp - 5. Right: a costs 9 (needs 10) and guards the elixir (+20); then c (15) or, back
    past the start, b (5). The best route from 10 hp fetches the elixir and goes left: 10 - 9 + 20 - 5 = 16.
    The least starting hp is 6, by the left way alone, which ends with 1."""
    level = level_from_toml(TWO_WAYS)
    for engine in (passages_search, passages_reference):
        assert engine.min_start_hp(level, Deadline(None)).value == 6
        assert engine.best_route(level, Deadline(None)).final_hp == 16
        assert engine.best_route(level.with_start_hp(6), Deadline(None)).final_hp == 1
        assert engine.best_route(level.with_start_hp(5), Deadline(None)).status != SOLVABLE


HUGE_NUMBERS = """
game = "passages"
map = '''
#########
#G.a.S+w#
####b####
####G####
#########
'''
[player]
hp = 1000000000
atk = 1
[legend]
"+" = { kind = "elixir", hp = 1000000000 }
w = { kind = "equipment", name = "great sword", atk = 1000000000 }
a = { kind = "enemy", hp = 1000000000, atk = 1000000000, def = 999999999 }
b = { kind = "enemy", hp = 1000000000, atk = 3, def = 0, first_strike = true }
"""


def test_numbers_as_large_as_a_level_holds_give_exact_answers():
    """Every stat at the input limit (10^9). The start's room holds an elixir (+10^9) and a sword (+10^9
    attack): 2 x 10^9 hp and attack 1,000,000,001. Enemy a (def 999,999,999) takes 2 damage a strike:
    500,000,000 strikes, 499,999,999 hits of 10^9, far beyond all the life there is (2 x 10^9). Enemy b
    falls at the first strike but strikes first: 3. So the best route goes by b with 1,999,999,997 hp,
    the least starting hp is 1 (the elixir comes first), and there is one solution. Without b's way, the
    only route fights a and needs 499,999,999 x 10^9 + 1 - 10^9 (the elixir taken): no route from 10^9.
    No OverflowError, no loop over the attack values, the reference engine's answers."""
    level = level_from_toml(HUGE_NUMBERS)
    for engine in (passages_search, passages_reference):
        best = engine.best_route(level, Deadline(60))
        assert (best.status, best.final_hp, best.proved) == (SOLVABLE, 1_999_999_997, True), engine.NAME
        assert replay(level, best.decisions).final_hp == 1_999_999_997
        assert engine.min_start_hp(level, Deadline(60)).value == 1, engine.NAME
        count = engine.count_solutions(level, Deadline(60), 10, best.final_hp)
        assert count_fields(count) == (1, 1, False, True), engine.NAME
    only_a = level_from_toml(HUGE_NUMBERS.replace("####b####", "#########").replace("####G####", "#########"))
    need = 499_999_999 * 10**9 + 1 - 10**9
    for engine in (passages_search, passages_reference):
        assert engine.min_start_hp(only_a, Deadline(60)).value == need, engine.NAME
        assert engine.best_route(only_a, Deadline(60)).status != SOLVABLE, engine.NAME
    # The worst fight with a is at the weakest attack the player can hold that harms it: the start's room's
    # sword is always taken first, so 1,000,000,001: 2 a strike, 500,000,000 strikes, 499,999,999 hits of 10^9.
    worst = 1 + 499_999_999 * 10**9
    assert passages_search.start_hp_upper_bound(SearchGraph(only_a)) == worst == start_hp_upper_bound(only_a)


def test_unsurvivable_enemies_are_walls_only_when_no_route_survives_them():
    """With a starting hp, SearchGraph turns into walls the enemies whose fight no route survives (the
    bound's relaxation of the life left after them is below 1). Every wall is checked against the plain
    rules: no legal sequence of moves from the start ever fights it. The optimum agrees with brute force."""
    walled_levels = 0
    for seed in range(300):
        base = small_level(seed)
        for hp in (1, 5, 15, 40):
            level = dataclasses.replace(base, player=dataclasses.replace(base.player, hp=hp))
            plain, walled = SearchGraph(level), SearchGraph(level, hp)
            walls = {
                plain.objects[b] for b in range(plain.blocker_count) if plain.defeatable[b] and not walled.defeatable[b]
            }
            if not walls:
                continue
            walled_levels += 1
            start, _ = initial_state(level)
            for _, index in legal_moves_from(level, start):
                assert index not in walls, (seed, hp, index)
            expected = passages_brute.best_route(level, Deadline(None))
            found = passages_search.best_route(level, Deadline(None))
            assert (found.status, found.final_hp, found.proved) == (expected.status, expected.final_hp, True)
    assert walled_levels >= 5


def _search_graph_steps(graph, node):
    """The nodes one step from `node` in the search graph: areas, defeatable blockers, goals."""
    areas, blockers = graph.areas_count, graph.blocker_count
    if node < areas:
        yield from (areas + b for b in graph.graph.area_blockers[node] if graph.defeatable[b])
        yield from (areas + blockers + g for g in graph.graph.area_goals[node])
    elif node < areas + blockers:
        b = node - areas
        yield from graph.graph.blocker_areas[b]
        yield from (areas + c for c in graph.graph.blocker_blockers[b] if graph.defeatable[c])
        yield from (areas + blockers + g for g in graph.graph.blocker_goals[b])


def _reachable_nodes(graph, without):
    """The nodes reachable from the start without passing through `without`."""
    start = graph.graph.start_area
    seen, stack = {start}, [start]
    while stack:
        for nxt in _search_graph_steps(graph, stack.pop()):
            if nxt != without and nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return seen


def test_dominator_tree_matches_the_definition():
    """d dominates x exactly when x cannot be reached from the start with d taken out of the map (goals
    are dead ends, enemies that can never be harmed are walls); the tree's ancestors of x must be exactly
    those nodes. Brute force over every pair, on small and medium levels with loops."""
    checked = 0
    for seed in range(80):
        level = small_level(seed) if seed % 2 else medium_level(seed)
        graph = SearchGraph(level)
        start = graph.graph.start_area

        everywhere = _reachable_nodes(graph, None)
        assert {n for n in range(graph.node_count) if graph.idom[n] is not None} == everywhere
        cut_off = {d: everywhere - _reachable_nodes(graph, d) for d in everywhere if d != start}
        for x in everywhere - {start}:
            ancestors, at = set(), graph.idom[x]
            while at != start:
                ancestors.add(at)
                at = graph.idom[at]
            assert ancestors == {d for d, lost in cut_off.items() if d != x and x in lost}, (seed, x)
            checked += 1
    assert checked > 1000


def test_running_out_of_time_gives_unknown_or_an_unproven_answer_never_a_guess():
    """A deadline that has already passed: the best route is unknown or unproved, the min start hp
    unknown, the counts flagged incomplete (on a level whose answers take far more than 256 steps); the
    same from the reference engine."""
    level = load_suite_builder().build_level(40004, 40, 21, 15).with_start_hp(72)
    for engine in (passages_search, passages_reference):
        expired = Deadline(1e-9)
        route = engine.best_route(level, expired)
        assert route.status == "unknown" or not route.proved, engine.NAME
        assert engine.min_start_hp(level, expired).status == "unknown", engine.NAME
        assert not engine.count_solutions(level, expired, 5, None).complete, engine.NAME
    proper = passages_search.best_route(level, Deadline(None))
    assert proper.proved and proper.status == SOLVABLE


def test_without_the_compiled_core_every_question_goes_to_the_reference(monkeypatch):
    """Built without a C compiler, the search engine says so (COMPILED_AVAILABLE) and answers every question
    by the reference engine: the same answers, on random levels."""
    monkeypatch.setattr(passages_search, "COMPILED_AVAILABLE", False)
    monkeypatch.setattr(passages_search, "_passages_core", None)
    for seed in range(30):
        level = small_level(seed)
        best = passages_reference.best_route(level, Deadline(None))
        assert passages_search.best_route(level, Deadline(None)) == best, seed
        assert passages_search.min_start_hp(level, Deadline(None)) == passages_reference.min_start_hp(
            level, Deadline(None)
        ), seed
        assert passages_search.count_solutions(
            level, Deadline(None), 3, best.final_hp
        ) == passages_reference.count_solutions(level, Deadline(None), 3, best.final_hp), seed


def test_levels_beyond_the_compiled_limits_go_to_the_reference(monkeypatch):
    """More than 128 blockers do not fit the compiled core's sets: the reference engine answers, and its
    route replays."""
    level = random_level(10, cells_wide=14, cells_high=12, blockers=140, items=10, loops=0.05).with_start_hp(5000)
    sg = SearchGraph(level, level.player.hp)
    assert sg.blocker_count > 128 and not sg.fits_compiled(level.player.hp)

    class Refusing:
        @staticmethod
        def search(*args):
            raise AssertionError("the compiled core was asked to search a level it cannot hold")

    monkeypatch.setattr(passages_search, "_passages_core", Refusing)
    found = passages_search.best_route(level, Deadline(60))
    assert found == passages_reference.best_route(level, Deadline(60))
    assert found.proved and found.status == "solvable"
    assert replay(level, found.decisions).final_hp == found.final_hp


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(10))
def test_agrees_with_cpsat(chunk, slow_sample):
    """500 random levels up to 25 blockers: CP-SAT and the search agree on solvable, final hp, min start hp."""
    passages_cpsat = pytest.importorskip("twisty.solver.passages_cpsat")
    for seed in slow_sample(range(chunk * 50, chunk * 50 + 50)):
        rng = random.Random(10_000 + seed)
        level = random_level(
            10_000 + seed,
            cells_wide=rng.randint(5, 7),
            cells_high=rng.randint(4, 6),
            blockers=rng.randint(1, 25),
            items=rng.randint(0, 10),
            loops=rng.choice([0.0, 0.1, 0.3]),
        )
        mine = passages_search.best_route(level, Deadline(None))
        theirs = passages_cpsat.best_route(level, Deadline(None))
        assert (mine.status, mine.final_hp) == (theirs.status, theirs.final_hp), seed
        assert mine.proved and theirs.proved, seed
        if mine.status == SOLVABLE:
            assert replay(level, mine.decisions).final_hp == mine.final_hp, seed
        assert passages_search.min_start_hp(level, Deadline(None)) == passages_cpsat.min_start_hp(
            level, Deadline(None)
        ), seed


@pytest.mark.slow
def test_counts_agree_with_cpsat_beyond_brute_force(slow_sample):
    """25 random solvable levels of 15 to 22 blockers, too large for brute force: the search's counts
    (the walk guided by its own decision searches) equal CP-SAT's (solve and block signatures)."""
    passages_cpsat = pytest.importorskip("twisty.solver.passages_cpsat")
    for seed, level, best in slow_sample(
        solvable_random_levels(
            20_000, 25, wide=(4, 6), high=(4, 5), blockers=(15, 22), items=(3, 8), engine=passages_search
        )
    ):
        cap = 1 + seed % 3
        mine = passages_search.count_solutions(level, Deadline(None), cap, best.final_hp)
        theirs = passages_cpsat.count_solutions(level, Deadline(None), cap, best.final_hp)
        assert count_fields(mine) == count_fields(theirs), seed
