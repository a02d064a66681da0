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

Every walk asks the deadline at every step (a step of a large tower can take milliseconds: asking every few
hundred steps let a 200 x 200 tower run seconds past its limit), with Python's full cyclic collections paused
(`cycle_collection_paused`); one that runs out says "unknown" (or, for the best route, gives the best route
found so far as unproved), never a guess.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any, TypeVar, cast

from twisty.limits import cycle_collection_paused
from twisty.rules.passages import (
    PURCHASES,
    Decision,
    PassagesLevel,
    Stats,
    arrive,
    buy,
    consume_blocker,
    fight_damage,
    signature_entry,
    take_items,
)
from twisty.rules.passages_combat import DRAIN
from twisty.rules.passages_graph import LevelGraph, build_graph
from twisty.rules.passages_tower import UNSAFE, stat_classes, tower_start_hp_upper_bound
from twisty.solver.passages_verdict import (
    SOLVABLE,
    UNKNOWN,
    UNSOLVABLE,
    BestRoute,
    Deadline,
    MinStartHp,
    SolutionCount,
    witnesses_kept,
)

NAME = "reference"

NO_GOAL = -1
_Walk = TypeVar("_Walk", bound=Callable[..., Any])


def _paused(search: _Walk) -> _Walk:
    """The search with Python's full cyclic collections paused (twisty.limits.cycle_collection_paused)."""

    @functools.wraps(search)
    def paused(*arguments: Any, **options: Any) -> Any:
        with cycle_collection_paused():
            return search(*arguments, **options)

    return cast(_Walk, paused)


# The features with which the least starting hp is found by bisection over the starting hp (min_start_hp).
_BISECTED = frozenset({"shop", "drain", "boss"})


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
        self._free: dict[tuple[int, int, int], int] = {}
        # A tower's shop (docs/mota.md): purchases are moves, and the stats then vary within one consumed set.
        self.shop = level.shop
        self.guarded = bool(level.guards)
        # Whether a purchase may wait: only when it can raise a stat that can hurt (twisty.rules.passages_tower).
        # Otherwise buying as soon as the hero can afford it is never worse (docs/mota.md, "Shops"), and a
        # position that can buy only buys.
        classes = stat_classes(level) if self.shop is not None else {}
        self.purchases_wait = self.shop is not None and any(
            choice and classes[PURCHASES[choice]] == UNSAFE for choice in self.shop.choices
        )

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

    def key(self, at: Position) -> object:
        """What a position's future depends on besides its life. Without a shop the consumed set fixes the
        rest: the areas reached, hence the items taken, and the keys and money (each door opened spent one,
        each fight paid its money). With a shop, the stats bought and the purchases made so far too."""
        if self.shop is None:
            return at.consumed
        stats = at.stats
        return at.consumed, stats.atk, stats.defense, stats.mdef, stats.purchases

    def purchases(self, at: Position) -> list[tuple[Position, Decision]]:
        """The positions one purchase away (the rules' buy), each with its decision."""
        if self.shop is None or not at.stats.shopping:
            return []
        out = []
        for choice in self.shop.choices:
            stats = buy(self.shop, at.stats, choice)
            if stats is not None:
                out.append((replace(at, stats=stats), ("buy", choice)))
        return out

    def moves(self, at: Position, *, survive: bool = True) -> Iterator[tuple[Position, int, Decision]]:
        """Every move from a position: the purchases it can make, then the blockers it can consume, each as
        (the position after, the life lost, the decision). A position that can buy and need not wait only
        buys (the purchase can be made now at no loss)."""
        bought = self.purchases(at)
        for position, decision in bought:
            yield position, 0, decision
        if bought and not self.purchases_wait:
            return
        for b in _bits(at.frontier):
            moved = self.step(at, b, survive=survive)
            if moved is not None:
                yield moved[0], moved[1], self.decision(b)

    def goals_near(self, at: Position) -> set[int]:
        """Every goal next to what the position reached (a route may end at any of them)."""
        return {g for a in _bits(at.areas) for g in self.area_goals[a]} | {
            g for b in _bits(at.consumed) for g in self.blocker_goals[b]
        }

    def arrival(self, at: Position) -> tuple[int, int] | None:
        """The most life with which the route can end from here, and the goal: any goal near when none is
        guarded; else the best of arriving at each (a guarded goal is the boss's fight, the rules' arrive)."""
        if not self.guarded:
            return None if at.goal == NO_GOAL else (at.stats.hp, at.goal)
        if at.goal == NO_GOAL:
            return None
        best = None
        for goal in sorted(self.goals_near(at)):
            arrived = arrive(self.level, goal, at.stats)
            if arrived is not None and (best is None or arrived[0].hp > best[0]):
                best = (arrived[0].hp, goal)
        return best

    def free_fights(self, at: Position, decisions: list[Decision]) -> Position:
        """Fight every frontier enemy that costs nothing, again and again, lowest number first: such a fight
        spends no life and no key and only adds reach (and money), so the position after it is at least as
        good."""
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
        """The enemies that cost nothing at these stats (asked of the rules once per attack, defence and
        magic defence). An enemy that drains life is never counted: its cost depends on the life."""
        key = (stats.atk, stats.defense, stats.mdef)
        if key not in self._free:
            self._free[key] = _mask(
                b
                for b, thing in enumerate(self.things)
                if thing.enemy is not None
                and not (DRAIN in thing.enemy.specials and thing.enemy.drain)
                and fight_damage(thing.enemy, stats.atk, stats.defense, stats.mdef) == 0
            )
        return self._free[key]

    def decision(self, b: int) -> Decision:
        kind = self.things[b].kind
        return ("open" if kind == "door" else "fight" if kind == "enemy" else "take", self.objects[b])

    def follow(self, stats: Stats, decisions: Iterable[Decision]) -> Position:
        """The position a list of decisions (purchases and blockers, no goal) leads to from the start."""
        number = {obj: b for b, obj in enumerate(self.objects)}
        position = self.start(stats)
        for action, index in decisions:
            if action == "buy":
                assert self.shop is not None
                bought = buy(self.shop, position.stats, index)
                assert bought is not None, "a stored purchase does not replay"
                position = replace(position, stats=bought)
                continue
            moved = self.step(position, number[index])
            assert moved is not None, "a stored way does not replay"
            position = moved[0]
        return position


def _mask(members: Iterable[int]) -> int:
    return sum(1 << m for m in set(members))


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


# Per key of a position (RegionWalk.key): the key it was reached from and the decisions on the way.
CameFrom = dict[object, tuple[object | None, tuple[Decision, ...]]]


@_paused
def best_route(level: PassagesLevel, deadline: Deadline) -> BestRoute:
    """The most life with which a goal can be reached (module docstring), with a route that reaches it."""
    walk = RegionWalk(level)
    opening: list[Decision] = []
    start = walk.free_fights(walk.start(level.player), opening)
    start_key = walk.key(start)
    best = {start_key: start.stats.hp}
    came_from: CameFrom = {start_key: (None, tuple(opening))}
    # The key of the most life at an end, and that life.
    arrived = walk.arrival(start)
    winner, winner_hp = (start_key, arrived[0]) if arrived is not None else (None, 0)
    queue = deque([start])
    # A level of the rulebook's own kind (no shop, no boss's end) keys a position by its consumed set and
    # ends it at any goal near: the genre's standard algorithm as it always was, without the tower's calls.
    plain = walk.shop is None and not walk.guarded
    while queue:
        at = queue.popleft()
        at_key = at.consumed if plain else walk.key(at)
        if best[at_key] != at.stats.hp:
            continue  # a better way to this set came later
        if deadline.expired():
            if winner is None:
                return BestRoute(UNKNOWN)
            route, hp = _route(walk, level, came_from, winner)
            return BestRoute(SOLVABLE, hp, route, proved=False)
        if plain:
            moves = []
            for b in _bits(at.frontier):
                stepped = walk.step(at, b)
                if stepped is not None:
                    moves.append((stepped[0], walk.decision(b)))
        else:
            moves = [(moved, decision) for moved, _, decision in walk.moves(at)]
        for moved, decision in moves:
            decisions = [decision]
            child = walk.free_fights(moved, decisions)
            child_key = child.consumed if plain else walk.key(child)
            if best.get(child_key, 0) >= child.stats.hp:
                continue
            best[child_key] = child.stats.hp
            came_from[child_key] = (at_key, tuple(decisions))
            queue.append(child)
            if plain:
                if child.goal != NO_GOAL and (winner is None or child.stats.hp > winner_hp):
                    winner, winner_hp = child_key, child.stats.hp
                continue
            arrived = walk.arrival(child)
            if arrived is not None and (winner is None or arrived[0] > winner_hp):
                winner, winner_hp = child_key, arrived[0]
    if winner is None:
        return BestRoute(UNSOLVABLE, proved=True)
    route, hp = _route(walk, level, came_from, winner)
    return BestRoute(SOLVABLE, hp, route, proved=True)


def _route(
    walk: RegionWalk,
    level: PassagesLevel,
    came_from: dict[object, tuple[object | None, tuple[Decision, ...]]],
    winner: object,
) -> tuple[tuple[Decision, ...], int]:
    """The decisions that led to the winner's key, and the life they end with, walked again from the start
    (a key's way in is the one of its most life; out of time, the walk may not have passed that on yet)."""
    pieces = []
    at: object | None = winner
    while at is not None:
        at, piece = came_from[at]
        pieces.append(piece)
    decisions = tuple(d for piece in reversed(pieces) for d in piece)
    position = walk.follow(level.player, decisions)
    arrived = walk.arrival(position)
    assert arrived is not None, "a stored way does not end near a goal"
    return decisions + (("goal", arrived[1]),), arrived[0]


@_paused
def min_start_hp(level: PassagesLevel, deadline: Deadline) -> MinStartHp:
    """The least starting hp with which a goal can be reached (module docstring)."""
    if level.features & _BISECTED:
        return _bisected_min_start_hp(level, deadline)
    walk = RegionWalk(level)
    start = walk.free_fights(walk.start(replace(level.player, hp=0)), [])
    # Per set, the (need, position) pairs that no other beats on both need and net life (position.stats.hp).
    fronts: dict[int, list[tuple[int, Position]]] = {start.consumed: [(1, start)]}
    queue = deque([(1, start)])
    least: int | None = None
    while queue:
        need, at = queue.popleft()
        if (need, at) not in fronts[at.consumed]:
            continue  # beaten since it was queued
        if deadline.expired():
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


def _bisected_min_start_hp(level: PassagesLevel, deadline: Deadline) -> MinStartHp:
    """The least starting hp by bisection over the starting hp, each probe a best_route: with a shop, a
    boss's fight at the end or life drained in proportion to itself, life counted from 0 says too little.
    Exact because winning only gets easier with more starting life: every fight leaves no less life after it
    when there was more before (drain takes floor(v x life) with v < 1), and nothing else reads the life.
    The upper end is the rules' tower_start_hp_upper_bound: if it does not win, no starting hp does."""
    high = tower_start_hp_upper_bound(level)

    def wins(hp: int) -> bool | None:
        # (a probe after the deadline would still find a winning route quickly on a large tower, and the
        # bisection would go on for seconds past the limit, one probe after another)
        if deadline.expired():
            return None
        status = best_route(level.with_start_hp(hp), deadline).status
        return None if status == UNKNOWN else status == SOLVABLE

    top = wins(high)
    if top is None:
        return MinStartHp(UNKNOWN)
    if not top:
        return MinStartHp("none")
    low = 1
    while low < high:
        middle = (low + high) // 2
        answer = wins(middle)
        if answer is None:
            return MinStartHp(UNKNOWN)
        if answer:
            high = middle
        else:
            low = middle + 1
    return MinStartHp("proved", low)


@_paused
def winning_signatures(level: PassagesLevel, deadline: Deadline) -> tuple[dict, bool]:
    """Every winning signature with the most life it reaches and a route that reaches it, and whether the
    walk finished before the deadline (module docstring). A boss's fight at the end is part of the
    signature like any other."""
    walk = RegionWalk(level)
    wins: dict = {}
    seen = set()
    stack: list[tuple[Position, frozenset, tuple[Decision, ...]]] = [(walk.start(level.player), frozenset(), ())]
    while stack:
        if deadline.expired():
            return wins, False
        at, fights, route = stack.pop()
        if (walk.key(at), fights) in seen:
            continue
        seen.add((walk.key(at), fights))
        if at.goal != NO_GOAL:
            doors = frozenset(walk.objects[b] for b in _bits(at.consumed & walk.door_mask))
            for hp, goal, fought in _endings(walk, at, fights):
                signature = (doors, fought)
                if signature not in wins or wins[signature][0] < hp:
                    wins[signature] = (hp, route + (("goal", goal),))
        for child, cost, decision in walk.moves(at):
            entry = None if decision[0] == "buy" else signature_entry(level, decision[1], at.stats, cost)
            stack.append((child, fights | {entry} if entry else fights, route + (decision,)))
    return wins, True


def _endings(walk: RegionWalk, at: Position, fights: frozenset) -> list[tuple[int, int, frozenset]]:
    """The ways a route can end from a position next to a goal: (the life at the end, the goal, the costly
    fights of its signature), one per goal near, or only the first goal near when no goal is guarded (the
    others end the same)."""
    if not walk.guarded:
        return [(at.stats.hp, at.goal, fights)]
    out = []
    for goal in sorted(walk.goals_near(at)):
        arrived = arrive(walk.level, goal, at.stats)
        if arrived is None:
            continue
        guard = walk.level.guard(goal)
        entry = None if guard is None else signature_entry(walk.level, guard, at.stats, arrived[1])
        out.append((arrived[0].hp, goal, fights | {entry} if entry else fights))
    return out


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
        tuple(decisions for _, decisions in ranked[: witnesses_kept(cap)]),
    )
