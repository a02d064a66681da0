"""The grid engine (twisty/solver/passages_grid.py), the second opinion that never reads the region graph.

Held to the brute force (which walks the grid by the plain rules, sharing only them) on hundreds of small
random levels, to the reference engine on medium ones, and to the search engine on random levels of 20 to
120 blockers (the agreement table of docs/contributing.md is made by benchmarks/passages/grid_agreement.py
on the same families). Its moves are held to the plain rules step by step, its bound to the exhaustive
optimum from every position of small levels, and each of its rules to a hand-worked level.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from tests import sampling
from tests.large_random import SIZES, maze_level, suite_levels
from tests.passages_helpers import assert_agrees_with_the_reference_at_the_edge_of_solvability, level_from_toml
from tests.timing import CpuDeadline
from twisty.errors import UsageError
from twisty.games import GAMES
from twisty.generator.passages_random import random_level
from twisty.rules.passages import consume, frontier, initial_state, reachable_goals, replay
from twisty.solver import passages_brute, passages_grid, passages_search
from twisty.solver.passages_grid import GridWalk, Spot
from twisty.solver.passages_verdict import SOLVABLE, UNKNOWN, Deadline, witnesses_kept

ROOT_TOWERS = Path(__file__).resolve().parents[1] / "towers"


def limit(seconds: float | None) -> Deadline:
    return Deadline(None) if seconds is None else CpuDeadline(seconds)


def small_level(seed: int, max_blockers: int = 8):
    rng = random.Random(f"grid {seed}")
    return random_level(
        rng.randrange(1 << 30),
        cells_wide=rng.randint(3, 4),
        cells_high=rng.randint(3, 4),
        blockers=rng.randint(1, max_blockers),
        items=rng.randint(0, 6),
        loops=rng.choice([0.0, 0.1, 0.3]),
        door_share=rng.choice([0.2, 0.35, 0.5]),
    )


def assert_agrees_with_the_brute_force(level, what) -> bool:
    """The three questions by the grid engine and the brute force; returns whether the level is solvable."""
    expected = passages_brute.best_route(level, Deadline(None))
    found = passages_grid.best_route(level, Deadline(None))
    assert (found.status, found.final_hp, found.proved) == (expected.status, expected.final_hp, True), what
    if found.status == SOLVABLE:
        assert replay(level, found.decisions).final_hp == found.final_hp, what
    assert passages_grid.min_start_hp(level, Deadline(None)) == passages_brute.min_start_hp(level, Deadline(None)), what
    cap = 1 + hash(what) % 4
    want = passages_brute.count_solutions(level, Deadline(None), cap, expected.final_hp)
    got = passages_grid.count_solutions(level, Deadline(None), cap, expected.final_hp)
    assert (got.solutions, got.optimal, got.capped, got.complete) == (
        want.solutions,
        want.optimal,
        want.capped,
        True,
    ), what
    signatures = [replay(level, route).signature for route in got.witnesses]
    assert len(set(signatures)) == len(signatures) == min(witnesses_kept(cap), got.solutions + got.capped), what
    if not got.capped:
        assert set(signatures) == {replay(level, route).signature for route in want.witnesses}, what
    return found.status == SOLVABLE


@pytest.mark.parametrize("chunk", range(5))
def test_agrees_with_the_brute_force_on_small_levels(chunk):
    """250 random levels of 1 to 8 blockers (50 per chunk): verdict, best final hp (proved, the route replays
    with it), least starting hp, and solution counts with their witnesses."""
    solvable = sum(
        assert_agrees_with_the_brute_force(small_level(seed), seed) for seed in range(chunk * 50, chunk * 50 + 50)
    )
    assert 10 <= solvable <= 45  # (both kinds of level, in every chunk)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(20))
def test_agrees_with_the_brute_force_on_many_more_small_levels(chunk, slow_sample):
    """2,000 more, up to 10 blockers."""
    for seed in slow_sample(range(10_000 + chunk * 100, 10_000 + chunk * 100 + 100)):
        assert_agrees_with_the_brute_force(small_level(seed, 10), seed)


def medium_level(seed: int):
    rng = random.Random(f"grid medium {seed}")
    return random_level(
        rng.randrange(1 << 30),
        cells_wide=rng.randint(5, 6),
        cells_high=rng.randint(4, 5),
        blockers=rng.randint(10, 16),
        items=rng.randint(8, 14),
        loops=rng.choice([0.1, 0.25]),
        door_share=0.25,
    )


@pytest.mark.parametrize("chunk", range(3))
def test_agrees_with_the_reference_at_the_edge_of_solvability(chunk):
    """30 medium levels (10 to 16 blockers), where the reference engine still visits every consumed set: the
    same least starting hp, and at it and 15 above the same best final hp; one below, no route."""
    for seed in range(chunk * 10, chunk * 10 + 10):
        assert_agrees_with_the_reference_at_the_edge_of_solvability(passages_grid, medium_level(seed), seed)


def assert_agrees_with_the_search_engine(level, what, seconds: float | None = 30) -> bool:
    """The best route by both engines, and the least starting hp; returns whether the grid engine proved its
    answers within `seconds` of CPU each (when not, nothing is compared: the answer is "unknown", never a
    guess)."""
    found = passages_grid.best_route(level, limit(seconds))
    if not found.proved:
        assert found.status in (UNKNOWN, SOLVABLE), what
        return False
    expected = passages_search.best_route(level, Deadline(None))
    assert (found.status, found.final_hp) == (expected.status, expected.final_hp), what
    if found.status == SOLVABLE:
        assert replay(level, found.decisions).final_hp == found.final_hp, what
    least = passages_grid.min_start_hp(level, limit(seconds))
    if least.status == UNKNOWN:
        return False
    assert least == passages_search.min_start_hp(level, Deadline(None)), what
    return True


@pytest.mark.parametrize("blockers", SIZES)
def test_agrees_with_the_search_engine_on_random_mazes_of_every_size(blockers):
    """Mazes 0 and 1 of each size, 20 to 120 blockers, as drawn and with the least starting life that wins:
    the same best final hp and least starting hp, proved (each within a second here; the whole family,
    where some levels take the grid engine minutes or more, is the slow test's and the agreement table's)."""
    for seed in range(2):
        level = maze_level(seed, blockers)
        assert assert_agrees_with_the_search_engine(level, (blockers, seed), None)
        least = passages_search.min_start_hp(level, Deadline(None))
        if least.status == "proved":
            assert assert_agrees_with_the_search_engine(level.with_start_hp(least.value), (blockers, seed), None)


def test_agrees_with_the_search_engine_on_the_suite_levels_of_20_blockers():
    """The benchmark suite's six levels of 20 blockers (built like the genre's towers, life near the least)."""
    levels = [(name, level) for name, level in suite_levels(20) if name.startswith("b020")]
    assert len(levels) == 6
    for name, level in levels:
        assert assert_agrees_with_the_search_engine(level, name)


@pytest.mark.slow
@pytest.mark.parametrize("blockers", SIZES)
def test_agrees_with_the_search_engine_on_many_random_mazes(blockers, slow_sample):
    """30 more random mazes per size."""
    for seed in slow_sample(range(100, 130)):
        assert_agrees_with_the_search_engine(maze_level(seed, blockers), (blockers, seed))


@pytest.mark.slow
def test_agrees_with_the_search_engine_on_the_suite(slow_sample):
    """The benchmark suite's levels of 40 to 120 blockers, wherever the grid engine proves its answers within
    30 s of CPU each (docs/contributing.md gives which it does)."""
    proved = sum(assert_agrees_with_the_search_engine(level, name) for name, level in slow_sample(suite_levels(40)))
    if sampling.whole():
        assert proved >= 10  # (of the 24: most of those of 40 and 60 blockers)


# ------------------------------------------------------------------------------------ the moves and bound


def random_route_spots(level, walk: GridWalk, rng: random.Random):
    """The spots of one random route by the grid walk, with the rules' state after the same decisions."""
    state, _ = initial_state(level)
    at = walk.start(level.player)
    while True:
        yield at, state
        allowed = [(b, moved) for b in walk.frontier(at) if (moved := walk.step(at, b)) is not None]
        if not allowed:
            return
        b, (at, cost) = rng.choice(allowed)
        state, rules_cost, _ = consume(level, state, walk.blocker_objects[b])
        assert rules_cost == cost


@pytest.mark.parametrize("blockers", SIZES)
def test_the_grid_walk_moves_as_the_plain_rules(blockers):
    """Along random routes on random mazes of 20 to 120 blockers (large life): the same frontier, stats and
    goals in reach as the rules' own flood and consume after every step."""
    rng = random.Random(blockers)
    for seed in range(6):
        level = maze_level(seed, blockers).with_start_hp(10**6)
        walk = GridWalk(level)
        for _ in range(4):
            for at, state in random_route_spots(level, walk, rng):
                assert sorted(walk.blocker_objects[b] for b in walk.frontier(at)) == sorted(frontier(level, state))
                assert at.stats == state.stats
                goals = reachable_goals(level, state)
                assert walk.goal_near(at) == (min(goals) if goals else None)


def exhaustive_best(walk: GridWalk, at: Spot) -> int | None:
    """The most life at a goal over every route on from `at`, by the walk's single steps (no rule of the
    search): the definition the bound must never fall below."""
    best = at.stats.hp if walk.goal_near(at) is not None else None
    for b in walk.frontier(at):
        moved = walk.step(at, b)
        if moved is not None:
            further = exhaustive_best(walk, moved[0])
            if further is not None and (best is None or further > best):
                best = further
    return best


def test_the_bound_is_never_below_the_best_life_on_from_any_position():
    """Every position of 300 random levels of 4 to 7 blockers (reached by any order of steps): the bound is at least the
    exhaustive optimum from it, and says "no goal" only where no route on reaches one."""
    positions = 0
    for seed in range(300):
        rng = random.Random(f"bound {seed}")
        level = random_level(seed, cells_wide=4, cells_high=3, blockers=rng.randint(4, 7), items=rng.randint(2, 6))
        level = level.with_start_hp(rng.randint(10, 60))  # (life enough for many fights: many positions)
        walk = GridWalk(level, trim=True)
        plain = GridWalk(level)
        stack, seen = [walk.start(level.player)], set()
        while stack:
            at = stack.pop()
            if (at.cells, at.stats) in seen:
                continue
            seen.add((at.cells, at.stats))
            best, bound = exhaustive_best(plain, at), walk.bound(at)
            assert (bound is None and best is None) or (bound is not None and (best is None or bound >= best)), seed
            positions += 1
            stack += [moved[0] for b in walk.frontier(at) if (moved := walk.step(at, b)) is not None]
    assert positions >= 900, positions  # (about a thousand)


# ---------------------------------------------------------------------------------- each rule by hand


TREASURE = """
game = "passages"
map = \"\"\"
#######
#S..a+#
#.#####
#..b.G#
#######
\"\"\"
[player]
hp = 10
atk = 2
[legend]
a = { kind = "enemy", hp = 4, atk = 3, def = 0 }
b = { kind = "enemy", hp = 6, atk = 2, def = 0 }
"+" = { kind = "elixir", hp = 5 }
"""


def test_a_dead_end_with_an_item_is_kept_and_one_without_is_a_wall():
    """a: 2 strikes of 2, 1 hit of 3 = 3; b: 3 strikes, 2 hits of 2 = 4. With the elixir behind a,
    10 - 3 + 5 - 4 = 8; without it, a leads nowhere (rule 3: its corridor is a dead end, taken for wall)
    and the best is 10 - 4 = 6."""
    level = level_from_toml(TREASURE)
    assert passages_grid.best_route(level, Deadline(None)).final_hp == 8
    bare = level_from_toml(TREASURE.replace("a+#", "a.#"))
    found = passages_grid.best_route(bare, Deadline(None))
    assert found.final_hp == 6
    a = next(i for i, thing in enumerate(bare.things) if thing.symbol == "a")
    assert a not in GridWalk(bare, trim=True).blocker_objects and a in GridWalk(bare).blocker_objects
    assert ("fight", a) not in found.decisions


KEYS = """
game = "passages"
map = \"\"\"
#########
#S.D.+..#
#.#######
#.D.k.DG#
#########
\"\"\"
[player]
hp = 5
keys = 1
[legend]
D = { kind = "door" }
k = { kind = "key" }
"+" = { kind = "elixir", hp = 7 }
"""


def test_a_door_is_free_only_when_the_keys_cover_every_door_left():
    """Three doors: the upper one hides the elixir (+7), the lower one a key, the third the goal. With one
    key, the upper door spends the key the goal's door needs, so the best is 5 (lower door, key, goal's
    door); with two, 12 (lower door, key, then both others). With three keys every door is free at the start
    (rule 2: the keys cover every door left) and all three are opened at once; with two, none is."""
    level = level_from_toml(KEYS)
    assert passages_grid.best_route(level, Deadline(None)).final_hp == 5
    richer = level_from_toml(KEYS.replace("keys = 1", "keys = 2"))
    assert passages_grid.best_route(richer, Deadline(None)).final_hp == 12
    walk = GridWalk(richer, trim=True)
    decisions: list = []
    assert walk.free_steps(walk.start(richer.player), decisions).stats.hp == 5 and decisions == []
    richest = level_from_toml(KEYS.replace("keys = 1", "keys = 3"))
    walk = GridWalk(richest, trim=True)
    opened = walk.free_steps(walk.start(richest.player), decisions)
    assert [action for action, _ in decisions] == ["open", "open", "open"] and opened.stats.hp == 12


LOOP = """
game = "passages"
map = \"\"\"
#######
#S.a..#
#.###.#
#..b..#
###.###
###G###
#######
\"\"\"
[player]
hp = 20
atk = 3
[legend]
a = { kind = "enemy", hp = 9, atk = 4, def = 0 }
b = { kind = "enemy", hp = 4, atk = 9, def = 0 }
"""


def test_two_ways_into_one_area_merge_and_the_cheaper_one_wins():
    """a (3 strikes, 2 hits of 4 = 8) and b (2 strikes, 1 hit of 9 = 9) both lead from the start's area
    into the loop's far side; b alone also opens the cell before the goal: the best is 20 - 9 = 11 (b
    alone), and the only other solution fights both (20 - 8 - 9 = 3). a touches no other blocker and no
    goal, so once it is consumed its cell is left out of the position's key (rule 1)."""
    level = level_from_toml(LOOP)
    assert passages_grid.best_route(level, Deadline(None)).final_hp == 11
    walk = GridWalk(level)
    a = next(b for b, thing in enumerate(walk.blocker_things) if thing.symbol == "a")
    assert walk.lone_blockers & walk.blocker_bits[a]
    assert passages_grid.count_solutions(level, Deadline(None), 5, 11).solutions == 2  # b, or a then b


# ------------------------------------------------------------------------------- limits and the registry


def test_running_out_of_time_gives_unknown_never_a_guess():
    name, level = suite_levels(120)[1]
    best = passages_grid.best_route(level, Deadline(0))
    assert best.status == UNKNOWN or (best.status == SOLVABLE and not best.proved), name
    assert passages_grid.min_start_hp(level, Deadline(0)).status == UNKNOWN
    assert not passages_grid.count_solutions(level, Deadline(0), 1, None).complete


def test_the_registry_lists_it_as_a_baseline_for_the_rulebook_game_only():
    game = GAMES["passages"]
    engine = game.engine("grid")
    assert engine.baseline and engine.available() and "grid" not in game.engine_names()
    tower = level_from_toml((ROOT_TOWERS / "shop-atk.toml").read_text(encoding="utf-8"))
    with pytest.raises(UsageError, match="engine grid does not answer levels with"):
        game.chosen_engine("grid", tower.features)
    with pytest.raises(ValueError, match="rulebook's game only"):
        GridWalk(tower)
