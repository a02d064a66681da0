"""The region graph against the grid, at every size: the one structure the search engine, the reference engine
and CP-SAT all read (twisty.rules.passages_graph.build_graph, walked by passages_reference.RegionWalk) is
held here to what a plain walk over the grid's cells finds, on random levels of 20 to 120 blockers, the
benchmark suite and every shipped level.

Two checks. Structure: every open area of the graph is a connected set of floor cells on the grid with the
same items, the same blockers around it and the same goals next to it (areas are compared by what they hold
and touch, since their numbers are the graph's own), and so is every blocker's neighbourhood. Walks: along
random routes (life large enough that most fights are allowed), RegionWalk's position after each step has
the frontier, the stats and the goals in reach that the plain rules (twisty.rules.passages: a flood over
cells) give after the same step.
"""

from __future__ import annotations

import random
from collections import Counter, deque
from pathlib import Path

import pytest

from tests.large_random import SIZES, maze_level, suite_levels
from twisty.rules.passages import PassagesLevel, consume, frontier, initial_state, neighbours, reachable_goals
from twisty.rules.passages_format import load_passages
from twisty.rules.passages_graph import build_graph
from twisty.rules.source import read_level
from twisty.solver.passages_reference import NO_GOAL, RegionWalk

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = sorted((ROOT / "puzzles" / "passages").rglob("*.toml"))

Description = tuple[frozenset[int], frozenset[int], frozenset[int]]


def grid_areas(level: PassagesLevel) -> tuple[Counter[Description], Description]:
    """Every connected set of floor cells (open, no blocker, no goal) found by a breadth-first walk over the
    grid, described by (items on it, blockers next to it, goals next to it); and the start's."""
    blocker_at = {thing.cell: i for i, thing in enumerate(level.things) if thing.is_blocker}
    item_at = {thing.cell: i for i, thing in enumerate(level.things) if thing.is_item}
    goal_at = {cell: g for g, cell in enumerate(level.goals)}

    def floor(cell: tuple[int, int]) -> bool:
        return not level.is_wall(cell) and cell not in blocker_at and cell not in goal_at

    seen: set[tuple[int, int]] = set()
    found: Counter[Description] = Counter()
    start: Description | None = None
    cells = [(r, c) for r in range(level.height) for c in range(level.width)]
    for first in cells:
        if first in seen or not floor(first):
            continue
        seen.add(first)
        queue, area = deque([first]), [first]
        while queue:
            for nxt in neighbours(queue.popleft()):
                if nxt not in seen and floor(nxt):
                    seen.add(nxt)
                    queue.append(nxt)
                    area.append(nxt)
        around = {nxt for cell in area for nxt in neighbours(cell)}
        description = (
            frozenset(item_at[cell] for cell in area if cell in item_at),
            frozenset(blocker_at[cell] for cell in around if cell in blocker_at),
            frozenset(goal_at[cell] for cell in around if cell in goal_at),
        )
        found[description] += 1
        if level.start in area:
            start = description
    assert start is not None
    return found, start


def graph_areas(level: PassagesLevel) -> tuple[Counter[Description], Description]:
    graph = build_graph(level)
    described = [
        (frozenset(area.items), frozenset(graph.blockers[b] for b in blockers), frozenset(goals))
        for area, blockers, goals in zip(graph.areas, graph.area_blockers, graph.area_goals, strict=True)
    ]
    return Counter(described), described[graph.start_area]


def assert_structure_matches(level: PassagesLevel, name: str) -> None:
    assert graph_areas(level) == grid_areas(level), name
    graph = build_graph(level)
    for b, obj in enumerate(graph.blockers):
        cell = level.things[obj].cell
        around = set(neighbours(cell))
        blockers = {i for i, thing in enumerate(level.things) if thing.is_blocker and thing.cell in around}
        assert {graph.blockers[d] for d in graph.blocker_blockers[b]} == blockers, (name, obj)
        assert set(graph.blocker_goals[b]) == {g for g, goal in enumerate(level.goals) if goal in around}, (name, obj)
        touching = {a for a, blockers_of in enumerate(graph.area_blockers) if b in blockers_of}
        assert set(graph.blocker_areas[b]) == touching, (name, obj)
    # The sums the engines read per area are the items' own.
    for area in graph.areas:
        things = [level.things[i] for i in area.items]
        assert area.hp == sum(t.hp for t in things if t.kind == "elixir"), name
        assert area.atk == sum(t.atk for t in things if t.kind == "equipment"), name
        assert area.defense == sum(t.defense for t in things if t.kind == "equipment"), name
        assert area.keys == sum(1 for t in things if t.kind == "key"), name


def assert_walks_match(level: PassagesLevel, name: str, routes: int, seed: int) -> int:
    """RegionWalk against the plain rules, step by step along `routes` random routes; returns the steps."""
    level = level.with_start_hp(10**6)
    walk = RegionWalk(level)
    rng = random.Random(seed)
    steps = 0
    for _ in range(routes):
        state, _ = initial_state(level)
        position = walk.start(level.player)
        while True:
            objects = sorted(walk.objects[b] for b in range(walk.blockers_count) if position.frontier >> b & 1)
            assert objects == sorted(frontier(level, state)), (name, steps)
            assert position.stats == state.stats, (name, steps)
            goals = set(reachable_goals(level, state))
            assert walk.goals_near(position) == goals, (name, steps)
            assert (position.goal == NO_GOAL) == (not goals), (name, steps)
            allowed = [b for b in range(walk.blockers_count) if position.frontier >> b & 1 and walk.step(position, b)]
            if not allowed:
                break
            b = rng.choice(allowed)
            moved = walk.step(position, b)
            assert moved is not None
            position = moved[0]
            state, cost, _ = consume(level, state, walk.objects[b])
            assert cost == moved[1], (name, steps)
            steps += 1
    return steps


@pytest.mark.parametrize("blockers", SIZES)
def test_the_region_graph_is_the_grid_on_random_mazes(blockers):
    """12 random mazes per size, 20 to 120 blockers: areas, neighbourhoods and 5 random routes each."""
    steps = 0
    for seed in range(12):
        level = maze_level(seed, blockers)
        name = f"maze {blockers} {seed}"
        assert_structure_matches(level, name)
        steps += assert_walks_match(level, name, 5, seed)
    assert steps >= 12 * blockers // 2  # (routes go deep: large life, most fights allowed)


def test_the_region_graph_is_the_grid_on_the_suite_and_the_shipped_levels():
    """Every benchmark suite level (10 to 120 blockers) and every shipped level."""
    levels = suite_levels(0) + [(path.name, load_passages(read_level(path))) for path in SHIPPED]
    assert len(levels) >= 36 + 40
    for number, (name, level) in enumerate(levels):
        assert_structure_matches(level, name)
        assert_walks_match(level, name, 3, number)


@pytest.mark.slow
@pytest.mark.parametrize("blockers", SIZES)
def test_the_region_graph_is_the_grid_on_many_more_random_mazes(blockers, slow_sample):
    """200 more random mazes per size, 20 routes each."""
    for seed in slow_sample(range(100, 300)):
        level = maze_level(seed, blockers)
        assert_structure_matches(level, f"maze {blockers} {seed}")
        assert_walks_match(level, f"maze {blockers} {seed}", 20, seed)
