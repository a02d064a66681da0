"""The reference engine: the plainest exact search, the oracle of the tests and the engine to fall back on.

It answers the three questions with no bound and no dominance between different positions, so that each
answer follows from two facts anyone can check:

- On the region graph (twisty.rules.passages_graph) a route's position is the set of blockers it has
  consumed plus its stats: the set fixes which areas are reached, hence which items were taken, and so the
  attack, defence and keys (each door opened spent one). Two routes to one set differ only in life.
- Every change of the stats is made by the rules' own functions: `take_items` for the items of each area
  newly reached, `consume_blocker` for a door or a fight, `signature_entry` for what a fight adds to a
  solution's signature. This module shares nothing with the compiled search engine but those and the
  region graph.

The three walks:

- best_route: the genre's standard algorithm. Breadth first over every reachable set, keeping the most life
  per set (of two routes to one set the one with more life can take every later step the other takes, and
  ends with more), and fighting an enemy that costs nothing at once (it costs no life, spends no key, and
  only adds reach). The answer is the most life among the sets from which a goal is in reach.
- min_start_hp: the same walk with life counted from 0 (the net life: elixirs taken less damage taken). A
  route's need, the least starting hp with which it is legal, is the largest of 1 and (damage - net life
  before the fight + 1) over its fights. Per set it keeps every (need, net life) that no other beats on
  both (one with no more need and no less net life can take every step the other takes, from any starting
  hp). The answer is the least need among the sets from which a goal is in reach; "none" when there is no
  such set at all (then no starting hp suffices: the fights impossible at any life stay impossible).
- count_solutions: depth first over every (set, costly fights) pair, which fixes the life too (each fight's
  damage follows from the enemy and the stats recorded with it, and fights of no damage cost none). There
  is no shortcut here, not even for fights of no damage: taking one early can change the stats of a later
  fight, hence the signature (docs/passages.md, canonical form).

Every walk asks the deadline every few hundred steps; one that runs out says "unknown" (or, for the best
route, gives the best route found so far as unproved), never a guess.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from twisty.rules.passages import (
    Decision,
    PassagesLevel,
    Stats,
    consume_blocker,
    fight_damage,
    signature_entry,
    take_items,
)
from twisty.rules.passages_graph import LevelGraph, build_graph
from twisty.solver.passages_verdict import SOLVABLE, UNKNOWN, UNSOLVABLE, BestRoute, Deadline, MinStartHp, SolutionCount

NAME = "reference"

# How many steps between two looks at the clock.
_CLOCK_EVERY = 256
NO_GOAL = -1


@dataclass(frozen=True, slots=True)
class Position:
    """Where a route stands on the region graph: the blockers it consumed (bits by blocker number), the areas
    it reached (bits by area number), the blockers next to what it reached, and its stats."""

    consumed: int
    areas: int
    frontier: int
    stats: Stats
    goal: int  # a goal next to what it reached (the first it came next to), or NO_GOAL


class RegionWalk:
    """The moves of a level's region graph, every stat change made by the rules. (The search engine walks
    with it too, wherever it follows a route in Python.)"""

    def __init__(self, level: PassagesLevel, graph: LevelGraph | None = None) -> None:
        graph = build_graph(level) if graph is None else graph
        self.level = level
        self.objects = graph.blockers  # blocker number -> object index
        self.things = [level.things[obj] for obj in graph.blockers]
        self.area_items = [tuple(level.things[i] for i in area.items) for area in graph.areas]
        self.area_blockers = [_mask(blockers) for blockers in graph.area_blockers]
        self.blocker_areas = graph.blocker_areas
        self.blocker_blockers = [_mask(blockers) for blockers in graph.blocker_blockers]
        self.area_goals = graph.area_goals
        self.blocker_goals = graph.blocker_goals
        self.area_goal = [min(goals, default=NO_GOAL) for goals in graph.area_goals]
        self.blocker_goal = [min(goals, default=NO_GOAL) for goals in graph.blocker_goals]
        self.blockers_count = len(graph.blockers)
        self.start_area = graph.start_area
        self.door_mask = _mask(b for b, thing in enumerate(self.things) if thing.kind == "door")
        self._free: dict[tuple[int, int], int] = {}

    def start(self, stats: Stats) -> Position:
        """The position before any blocker, the start area's items taken."""
        area = self.start_area
        return Position(
            0, 1 << area, self.area_blockers[area], take_items(stats, self.area_items[area]), self.area_goal[area]
        )

    def step(self, at: Position, b: int, *, survive: bool = True) -> tuple[Position, int] | None:
        """Consume frontier blocker b, then take the items of every area it opens: the new position and the
        life lost, or None when the rules do not allow it (consume_blocker; `survive` as there)."""
        after = consume_blocker(self.things[b], at.stats, survive=survive)
        if after is None:
            return None
        stats, cost = after
        areas, frontier = at.areas, at.frontier | self.blocker_blockers[b]
        goal = self.blocker_goal[b] if at.goal == NO_GOAL else at.goal
        for a in self.blocker_areas[b]:
            if not areas >> a & 1:
                areas |= 1 << a
                frontier |= self.area_blockers[a]
                stats = take_items(stats, self.area_items[a])
                if goal == NO_GOAL:
                    goal = self.area_goal[a]
        consumed = at.consumed | 1 << b
        return Position(consumed, areas, frontier & ~consumed, stats, goal), cost

    def goals_near(self, at: Position) -> set[int]:
        """Every goal next to what the position reached (a route may end at any of them)."""
        return {g for a in _bits(at.areas) for g in self.area_goals[a]} | {
            g for b in _bits(at.consumed) for g in self.blocker_goals[b]
        }

    def free_fights(self, at: Position, decisions: list[Decision]) -> Position:
        """Fight every frontier enemy that costs nothing, again and again, lowest number first: such a fight
        spends no life and no key and only adds reach, so the position after it is at least as good."""
        while True:
            free = at.frontier & self._free_at(at.stats)
            if not free:
                return at
            b = (free & -free).bit_length() - 1
            moved = self.step(at, b, survive=False)
            assert moved is not None, "a fight that costs nothing is always allowed"
            at = moved[0]
            decisions.append(self.decision(b))

    def _free_at(self, stats: Stats) -> int:
        """The enemies that cost nothing at these stats (asked of the rules once per attack and defence)."""
        key = (stats.atk, stats.defense)
        if key not in self._free:
            self._free[key] = _mask(
                b
                for b, thing in enumerate(self.things)
                if thing.enemy is not None and fight_damage(thing.enemy, stats.atk, stats.defense) == 0
            )
        return self._free[key]

    def decision(self, b: int) -> Decision:
        return ("open" if self.things[b].kind == "door" else "fight", self.objects[b])


def _mask(members: Iterable[int]) -> int:
    return sum(1 << m for m in set(members))


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def best_route(level: PassagesLevel, deadline: Deadline) -> BestRoute:
    """The most life with which a goal can be reached (module docstring), with a route that reaches it."""
    walk = RegionWalk(level)
    opening: list[Decision] = []
    start = walk.free_fights(walk.start(level.player), opening)
    best = {start.consumed: start.stats.hp}
    came_from: dict[int, tuple[int | None, tuple[Decision, ...]]] = {start.consumed: (None, tuple(opening))}
    winner = start.consumed if start.goal != NO_GOAL else None  # the set of the most life by a goal
    queue = deque([start])
    steps = 0
    while queue:
        at = queue.popleft()
        if best[at.consumed] != at.stats.hp:
            continue  # a better way to this set came later
        steps += 1
        if steps % _CLOCK_EVERY == 0 and deadline.expired():
            if winner is None:
                return BestRoute(UNKNOWN)
            route, hp = _route(walk, level, came_from, winner)
            return BestRoute(SOLVABLE, hp, route, proved=False)
        for b in _bits(at.frontier):
            moved = walk.step(at, b)
            if moved is None:
                continue
            decisions = [walk.decision(b)]
            child = walk.free_fights(moved[0], decisions)
            if best.get(child.consumed, 0) >= child.stats.hp:
                continue
            best[child.consumed] = child.stats.hp
            came_from[child.consumed] = (at.consumed, tuple(decisions))
            queue.append(child)
            if child.goal != NO_GOAL and (winner is None or child.stats.hp > best[winner]):
                winner = child.consumed
    if winner is None:
        return BestRoute(UNSOLVABLE, proved=True)
    route, hp = _route(walk, level, came_from, winner)
    return BestRoute(SOLVABLE, hp, route, proved=True)


def _route(
    walk: RegionWalk, level: PassagesLevel, came_from: dict[int, tuple[int | None, tuple[Decision, ...]]], winner: int
) -> tuple[tuple[Decision, ...], int]:
    """The decisions that led to the winner's set, and the life they end with, walked again from the start
    (a set's way in is the one of its most life; out of time, the walk may not have passed that on yet)."""
    pieces = []
    at: int | None = winner
    while at is not None:
        at, piece = came_from[at]
        pieces.append(piece)
    decisions = tuple(d for piece in reversed(pieces) for d in piece)
    position = walk.start(level.player)
    number = {obj: b for b, obj in enumerate(walk.objects)}
    for _, obj in decisions:
        moved = walk.step(position, number[obj])
        assert moved is not None, "a stored way does not replay"
        position = moved[0]
    return decisions + (("goal", position.goal),), position.stats.hp


def min_start_hp(level: PassagesLevel, deadline: Deadline) -> MinStartHp:
    """The least starting hp with which a goal can be reached (module docstring)."""
    walk = RegionWalk(level)
    start = walk.free_fights(walk.start(Stats(0, level.player.atk, level.player.defense, level.player.keys)), [])
    # Per set, the (need, position) pairs that no other beats on both need and net life (position.stats.hp).
    fronts: dict[int, list[tuple[int, Position]]] = {start.consumed: [(1, start)]}
    queue = deque([(1, start)])
    least: int | None = None
    steps = 0
    while queue:
        need, at = queue.popleft()
        if (need, at) not in fronts[at.consumed]:
            continue  # beaten since it was queued
        steps += 1
        if steps % _CLOCK_EVERY == 0 and deadline.expired():
            return MinStartHp(UNKNOWN)
        if at.goal != NO_GOAL:
            least = need if least is None else min(least, need)
        for b in _bits(at.frontier):
            moved = walk.step(at, b, survive=False)
            if moved is None:
                continue
            child = walk.free_fights(moved[0], [])
            child_need = max(need, moved[1] - at.stats.hp + 1)
            front = fronts.setdefault(child.consumed, [])
            if any(other_need <= child_need and other.stats.hp >= child.stats.hp for other_need, other in front):
                continue
            front[:] = [
                (other_need, other)
                for other_need, other in front
                if not (other_need >= child_need and other.stats.hp <= child.stats.hp)
            ]
            front.append((child_need, child))
            queue.append((child_need, child))
    return MinStartHp("none") if least is None else MinStartHp("proved", least)


def winning_signatures(level: PassagesLevel, deadline: Deadline) -> tuple[dict, bool]:
    """Every winning signature with the most life it reaches and a route that reaches it, and whether the
    walk finished before the deadline (module docstring)."""
    walk = RegionWalk(level)
    wins: dict = {}
    seen = set()
    stack: list[tuple[Position, frozenset, tuple[Decision, ...]]] = [(walk.start(level.player), frozenset(), ())]
    steps = 0
    while stack:
        steps += 1
        if steps % _CLOCK_EVERY == 0 and deadline.expired():
            return wins, False
        at, fights, route = stack.pop()
        if (at.consumed, fights) in seen:
            continue
        seen.add((at.consumed, fights))
        if at.goal != NO_GOAL:
            doors = frozenset(walk.objects[b] for b in _bits(at.consumed & walk.door_mask))
            signature = (doors, fights)
            if signature not in wins or wins[signature][0] < at.stats.hp:
                wins[signature] = (at.stats.hp, route + (("goal", at.goal),))
        for b in _bits(at.frontier):
            moved = walk.step(at, b)
            if moved is None:
                continue
            child, cost = moved
            entry = signature_entry(level, walk.objects[b], at.stats, cost)
            stack.append((child, fights | {entry} if entry else fights, route + (walk.decision(b),)))
    return wins, True


def count_solutions(level: PassagesLevel, deadline: Deadline, cap: int, final_hp: int | None) -> SolutionCount:
    """Distinct winning signatures up to `cap`, and those that reach `final_hp` (the best when None)."""
    wins, complete = winning_signatures(level, deadline)
    ranked = sorted(wins.values(), key=lambda win: -win[0])
    if final_hp is None and complete and ranked:
        final_hp = ranked[0][0]
    optimal = sum(1 for hp, _ in ranked if hp == final_hp)
    # Out of time, the counts are what was found so far: lower bounds, flagged by complete=False.
    return SolutionCount(
        min(len(ranked), cap),
        min(optimal, cap),
        len(ranked) > cap,
        complete,
        tuple(decisions for _, decisions in ranked[:cap]),
    )
