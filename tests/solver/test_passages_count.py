"""The counting engine (twisty/solver/passages_count.py) against an independent witness, the grid-level
brute force, on random levels of up to 14 blockers (100 by default, 1,000 under `-m slow`); and against the
previous counting code (passages_count_walk, the walk it replaced) on the shipped benchmark suite and
puzzles. The previous walk is not independent: it asks the same compiled core (its Decider) which states
can still win, and walks the same region graph, so agreeing with it guards the new walk against changing
an answer (a change detector), not against a wrong one. Also the uniqueness question (cap 1): it stops at
the second signature and hands it over as the witness."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests.passages_helpers import level_from_toml
from twisty.generator.passages_random import random_level
from twisty.rules.passages import replay
from twisty.rules.passages_format import load_passages
from twisty.rules.source import read_level
from twisty.solver import passages_brute, passages_count, passages_count_walk, passages_search
from twisty.solver.passages_count import Known
from twisty.solver.passages_search_graph import SearchGraph
from twisty.solver.passages_verdict import SOLVABLE, Deadline, witnesses_kept

needs_core = pytest.mark.skipif(
    not passages_search.COMPILED_AVAILABLE, reason="the compiled core is not built (no C compiler at install time)"
)

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "twisty" / "bench" / "suites" / "passages"


def count_fields(count) -> tuple:
    return count.solutions, count.optimal, count.capped, count.complete


def solvable_levels(first_seed: int, count: int):
    """(seed, level, best route) for the next `count` random levels of 1 to 14 blockers, from `first_seed`
    on, that the brute force finds solvable."""
    seed = first_seed
    while count:
        seed += 1
        rng = random.Random(seed)
        wide, high = rng.randint(3, 5), rng.randint(3, 4)
        blockers = rng.randint(1, min(14, wide * high))  # a maze has about twice its cells as floor
        level = random_level(
            seed,
            cells_wide=wide,
            cells_high=high,
            blockers=blockers,
            items=rng.randint(0, min(6, wide * high - blockers)),
            loops=rng.choice([0.0, 0.1, 0.3, 0.5]),
            door_share=rng.choice([0.0, 0.25, 0.4]),
        )
        best = passages_brute.best_route(level, Deadline(None))
        if best.status == SOLVABLE:
            count -= 1
            yield seed, level, best


def assert_agrees_with_brute_force(first_seed: int, count: int) -> int:
    """The same counts and flags as the brute force at caps 1 to 12; witnesses of distinct signatures that
    replay, the first at the best hp; when not capped, exactly the brute force's solutions. Returns how
    many levels were not unique."""
    ambiguous = 0
    for seed, level, best in solvable_levels(first_seed, count):
        cap = 1 + seed % 12
        want = passages_brute.count_solutions(level, Deadline(None), cap, best.final_hp)
        got = passages_search.count_solutions(level, Deadline(None), cap, best.final_hp)
        assert count_fields(got) == count_fields(want), (seed, cap)
        found = [replay(level, route) for route in got.witnesses]
        signatures = [r.signature for r in found]
        assert len(set(signatures)) == len(signatures) == min(witnesses_kept(cap), got.solutions + got.capped), seed
        assert found[0].final_hp == best.final_hp, seed
        if not got.capped:
            assert set(signatures) == {replay(level, route).signature for route in want.witnesses}, seed
        ambiguous += got.solutions + got.capped > 1
    return ambiguous


@needs_core
@pytest.mark.parametrize("chunk", range(5))
def test_agrees_with_the_brute_force_on_random_levels(chunk):
    """100 random solvable levels of 1 to 14 blockers (20 per chunk), unique and not."""
    ambiguous = assert_agrees_with_brute_force(90_000 + chunk * 1000, 20)
    assert 0 < ambiguous < 20


@needs_core
@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(50))
def test_agrees_with_the_brute_force_on_a_thousand_random_levels(chunk):
    """1,000 random solvable levels of 1 to 14 blockers (20 per chunk)."""
    assert_agrees_with_brute_force(200_000 + chunk * 1000, 20)


def shipped_levels(max_blockers: int):
    paths = sorted(SUITE.glob("*.toml")) + sorted((ROOT / "puzzles" / "passages").rglob("*.toml"))
    for path in paths:
        level = load_passages(read_level(path))
        if len(level.blockers()) <= max_blockers:
            yield path.name, level


@needs_core
@pytest.mark.parametrize(
    ("cap", "max_blockers"),
    [(1, 40), (10, 20), pytest.param(10, 40, marks=[pytest.mark.slow, pytest.mark.change_detector])],
)
def test_agrees_with_the_previous_counting_code_on_the_suite_and_puzzles(cap, max_blockers):
    """Every shipped puzzle and suite level of up to 40 blockers (those the previous walk counts within a
    few seconds; counts to 10 beyond 20 blockers under `-m slow`): the same counts, flags and, when not
    capped, solutions as the walk it replaced."""
    solvable = 0
    for name, level in shipped_levels(max_blockers):
        best = passages_search.best_route(level, Deadline(None))
        if best.status != SOLVABLE:
            continue
        solvable += 1
        want = passages_count_walk.count_solutions(level, Deadline(None), cap, best.final_hp)
        got = passages_search.count_solutions(level, Deadline(None), cap, best.final_hp)
        assert count_fields(got) == count_fields(want), name
        if not got.capped:
            assert {replay(level, r).signature for r in got.witnesses} == {
                replay(level, r).signature for r in want.witnesses
            }, name
    assert solvable >= 20  # (the puzzles and suite levels it reads: never a run that compares none)


@needs_core
@pytest.mark.slow
@pytest.mark.change_detector
def test_agrees_with_the_previous_counting_code_on_the_larger_suite_levels():
    """Suite levels of 60 blockers and more, uniqueness and counts to 10, where the previous walk finishes
    within 300 s: the same answers."""
    compared = 0
    for name, level in shipped_levels(200):
        if len(level.blockers()) <= 40:
            continue
        best = passages_search.best_route(level, Deadline(300))
        if best.status != SOLVABLE or not best.proved:
            continue
        for cap in (1, 10):
            want = passages_count_walk.count_solutions(level, Deadline(300), cap, best.final_hp)
            if not want.complete:
                continue
            got = passages_search.count_solutions(level, Deadline(None), cap, best.final_hp)
            assert count_fields(got) == count_fields(want), (name, cap)
            compared += 1
    assert compared >= 10  # (the walk finishes uniqueness on most of them: never a run that compares none)


TWO_WAYS = """
game = "passages"
map = \"\"\"
#######
#S.a.G#
#.###.#
#..b..#
#######
\"\"\"
[player]
hp = 10
atk = 2
[legend]
a = { kind = "enemy", hp = 4, atk = 3, def = 0 }
b = { kind = "enemy", hp = 6, atk = 3, def = 0 }
"""


@needs_core
def test_uniqueness_stops_at_the_second_signature_and_returns_it():
    """Two ways to the goal, past a (2 strikes, 1 hit: 3 damage, 7 hp left) or past b (3 strikes, 2 hits:
    6 damage, 4 hp left), or past both (1 hp left): asked up to 1 solution, the count says "more than one"
    with two routes as witnesses, the best first, the second one of the other two; asked up to 10,
    exactly three, one optimal."""
    level = level_from_toml(TWO_WAYS)
    best = passages_search.best_route(level, Deadline(None))
    assert best.final_hp == 7
    unique = passages_search.count_solutions(level, Deadline(None), 1, 7)
    assert count_fields(unique) == (1, 1, True, True)
    first, second = (replay(level, r) for r in unique.witnesses)
    assert first.final_hp == 7 and second.final_hp in (4, 1)
    assert first.signature != second.signature
    full = passages_search.count_solutions(level, Deadline(None), 10, 7)
    assert count_fields(full) == (3, 1, False, True)
    assert sorted(replay(level, r).final_hp for r in full.witnesses) == [1, 4, 7]


@needs_core
def test_a_count_out_of_time_is_never_reported_complete():
    """With the deadline already passed, the count stops and says it is not complete."""
    name, level = next((n, lv) for n, lv in shipped_levels(60) if n == "b060-03.toml")
    best = passages_search.best_route(level, Deadline(None))
    got = passages_search.count_solutions(level, Deadline(0.0), 10, best.final_hp)
    assert not got.complete, name


SIX_POCKETS = """
game = "passages"
map = \"\"\"
###############
#+#+#+#+#+#+###
#a#a#a#a#a#a###
#S..........BG#
###############
\"\"\"
[player]
hp = 4
atk = 5
[legend]
"+" = { kind = "elixir", hp = 10 }
a = { kind = "enemy", name = "Guard", hp = 10, atk = 3, def = 0 }
B = { kind = "enemy", name = "Warden", hp = 30, atk = 9, def = 0 }
"""


@needs_core
def test_independent_fights_are_one_class_whatever_their_order():
    """Six pockets, each an elixir of 10 behind a guard that costs 3 (atk 5 against hp 10 and atk 3: one
    hit taken), and the warden before the goal costs 45 (six strikes, five hits of 9): from 4 hp only a
    route through all six pockets survives him, ending with 4 + 6 x 7 - 45 = 1, and every such route has one
    signature, so the level is unique (as the brute force finds too). The walk for another signature goes
    over the prefixes consistent with it: every set of pockets, in any of its orders, is one class, so
    2^6 = 64 classes and the one after the warden, where the 6! = 720 orders of the pockets would be 1,957
    prefixes; the previous walk in Python walks the same 65."""
    level = level_from_toml(SIX_POCKETS)
    best = passages_search.best_route(level, Deadline(None))
    assert best.final_hp == 1
    assert count_fields(passages_brute.count_solutions(level, Deadline(None), 10, 1)) == (1, 1, False, True)
    sg = SearchGraph(level, level.player.hp)
    known = [Known.of(sg, replay(level, best.decisions).signature)]
    compiled = passages_count.Counter(sg, passages_search._passages_core, Deadline(None))
    assert compiled.another(known, 1) is None
    assert compiled.walked == 65 and compiled.deviations == 0
    python = passages_count_walk.PythonWalk(sg, passages_search._passages_core, Deadline(None))
    assert python.another(known, 1) is None
    assert python.consistent == 65
