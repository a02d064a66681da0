"""The grid engine: a second opinion on passages levels of any size that never builds the region graph.

Every other engine that scales (the search engine and its compiled core, the reference engine, CP-SAT) reads
the level through the region graph (twisty.rules.passages_graph: areas joined by blockers, walked by
passages_reference.RegionWalk and its Position). The brute force walks the grid itself, but only up to a
dozen blockers. This engine answers on the grid's own cells, with its own flood and its own bookkeeping, so
that an answer it shares with the search engine rests on two derivations that share nothing but the rules'
one-step functions (`consume_blocker` for a door or a fight, `take_items` for items, `fight_damage`): a
wrong area, adjacency, dominance or bound on the region graph's side shows up as a disagreement. (The ideas
of its rules 1 and 4 are the genre's, and the compiled core's too; the code that applies them is its own,
on cells.)

A position is the set of cells the player can stand on (a bit per cell of the grid, framed by one ring of
wall so that a neighbour is a shift) with the stats. Consuming a blocker makes its cell floor and floods
from it through open cells (not walls, not blockers left, not goals: "a goal is never walked through");
the items on newly reached cells are taken at once ("Taking an item never hurts"). The reached cells fix
the consumed blockers (a consumed blocker's cell is reached, a blocker left never is), hence the items
taken, the attack, the defence and the keys (each door opened spent one).

The best route (and with it solvability) is a best-first search on an upper bound of the final life, with
these rules, each sound by the argument given:

1. Dominance. Let a position's damage be its starting hp plus the elixirs it has taken less its life (the
   life its fights cost), and call a blocker lone when it touches no other blocker and no goal. Position A
   dominates position B when A's cells include B's (the cells of consumed lone blockers aside), A's damage
   is no more than B's, and A has opened no more doors than B or holds keys for every door left. Then A
   can copy any route on from B, skipping the blockers it has consumed already: each blocker B consumes is
   next to a cell B reached (A reached it too) or to a consumed blocker that is not lone (consumed by A
   too: a lone blocker touches no blocker), so it is next to A's cells; A's cells include B's at every step
   (a flood from more cells through no fewer open ones), so A holds every item B holds: no less attack and
   defence (no fight costs A more: damage only falls as they rise) and every elixir, so A's life exceeds
   B's by at least damage_B - damage_A >= 0 at every step, and every fight B survives A survives; A has
   found every key B found and opens no door B does not, so it never lacks a key B has; the goal B reaches
   is next to A's cells. Applied two ways. (a) One position per key: the cells without those of consumed
   lone blockers, and the keys held. Equal keys hold the same items and, keys being those found less the
   doors opened, the same doors, so the one with the most life dominates the others (with no lone
   blockers this is the genre's standard algorithm: most life per set of consumed blockers). (b) A
   position is dropped when the position one fight further on (over an enemy on its frontier, allowed now
   or not) is known already with no more damage: that position's cells include its cells, and a fight
   opens no door.
2. Free steps at once. A fight that costs no life (at the stats held, by the rules' damage) is taken the
   moment it is on the frontier, and so is a door when the keys held cover every door left: the position
   after the step dominates the one before (rule 1: more cells, the same damage, and the doors' clause).
3. Nothing for something. A cell that is not the start, not a goal, holds no item and has at most one open
   neighbour is a dead end: entering it reaches nothing, so it is taken for wall, again and again until
   none is left (a corridor with a blocker and nothing behind it goes). A blocker whose open neighbours are
   all reached already, that touches no blocker left and no goal, is never consumed either: consuming it
   adds only its own cell, which leads nowhere new.
4. The bound. The final life of any route on from a position is at most its life, plus the elixirs it
   takes, less the damage it takes. Let the least damage of an enemy be its damage at the attack and
   defence of every item joined to the start without passing the enemy's cell (when the player fights it,
   it has not passed it, and damage only falls as attack and defence rise), and let d(x) be the least
   damage of a path of cells from the position's cells to cell x, stepping onto an enemy left costing its
   least damage and onto anything else nothing. A route that takes elixirs on a set of cells and stands
   next to a goal consumes every blocker along a path to each of them, so it loses at least t, the largest
   d of them, and gains at most the elixirs with d up to t: the bound is the life plus the best of
   (elixirs with d <= t) - t over every t from d(goal) on. Positions are expanded highest bound first, ties
   to the most cells; the search ends when no bound left beats the best route found: the proof.

The least starting hp is found by bisection on solvability (more starting life never hurts: every fight
that was allowed still is). Solutions are counted by walking every (reached cells, costly fights) pair
depth first with no merging by life and none of the rules above (a fight of no damage taken early can
change a later fight's stats, hence the signature; a useless fight that costs life is a solution of its
own): exact, and only for small levels within the deadline.

The rulebook's game only: a level with tower features (docs/mota.md) is refused by the registry.
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterator
from dataclasses import dataclass, replace

from twisty.rules.passages import (
    OUTSIDE,
    WALL,
    Decision,
    PassagesLevel,
    Stats,
    Thing,
    consume_blocker,
    fight_damage,
    replay,
    signature_entry,
    start_hp_upper_bound,
    take_items,
)
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

NAME = "grid"
# How many positions between two looks at the clock.
_CLOCK_EVERY = 128
_ACTIONS = {"door": "open", "enemy": "fight"}


class _OutOfTime(Exception):
    pass


@dataclass(frozen=True, slots=True)
class Spot:
    """Where a route stands on the grid: the cells it can stand on (bits of the framed grid, the consumed
    blockers' cells among them) and its stats."""

    cells: int
    stats: Stats


# The decisions of a route as a chain (the decisions before, the decisions of the last move), so that every
# position in the search keeps its own route without copying it.
Trail = tuple["Trail | None", tuple[Decision, ...]] | None


class GridWalk:
    """The level's cells as bits of one integer, and the rules' moves on them. With `trim`, dead ends are
    taken for wall (rule 3 of the module docstring), which keeps the best route and solvability but not the
    count of solutions."""

    def __init__(self, level: PassagesLevel, *, trim: bool = False) -> None:
        if level.features:
            features = ", ".join(sorted(level.features))
            raise ValueError(f"the grid engine answers the rulebook's game only, not levels with {features}")
        self.level = level
        self.width = width = level.width + 2
        self.index = {cell: (cell[0] + 1) * width + cell[1] + 1 for cell in _cells(level)}
        bit = {cell: 1 << number for cell, number in self.index.items()}
        open_cells = sum(bit[cell] for cell in _cells(level) if level.char(cell) not in (WALL, OUTSIDE))
        self.goal_bits = tuple(bit[cell] for cell in level.goals)
        self.goal_cells = sum(set(self.goal_bits))
        self.start_bit = bit[level.start]
        item_cells = sum(bit[thing.cell] for thing in level.things if thing.is_item)
        if trim:
            open_cells = self._without_dead_ends(open_cells, self.start_bit | self.goal_cells | item_cells)
        # Cells one can stand on once nothing blocks them: open and not a goal.
        self.floor = open_cells & ~self.goal_cells
        blockers = [
            (i, thing) for i, thing in enumerate(level.things) if thing.is_blocker and bit[thing.cell] & open_cells
        ]
        self.blocker_objects = tuple(i for i, _ in blockers)
        self.blocker_things = tuple(thing for _, thing in blockers)
        self.blocker_bits = tuple(bit[thing.cell] for thing in self.blocker_things)
        self.blocker_at = {b_bit.bit_length() - 1: b for b, b_bit in enumerate(self.blocker_bits)}
        self.all_blockers = sum(self.blocker_bits)
        self.door_cells = sum(
            b_bit for b_bit, thing in zip(self.blocker_bits, self.blocker_things, strict=True) if thing.kind == "door"
        )
        self.item_at = {self.index[thing.cell]: thing for thing in level.things if thing.is_item}
        self.item_cells = item_cells
        # Blockers next to another blocker or a goal: a consumed one's cell is part of a position's key (rule 1).
        touching = self.all_blockers | self.goal_cells
        self.lone_blockers = sum(b_bit for b_bit in self.blocker_bits if not self.around(b_bit) & touching)
        # The cells a key keeps (rule 1): not those of lone blockers, nor dead ends (rule 3: nothing there).
        self.keyed = self.floor & ~self.lone_blockers
        self._free: dict[tuple[int, int], int] = {}
        self.least_damage: list[int | None] = [
            self._least_damage(thing, b_bit)
            for thing, b_bit in zip(self.blocker_things, self.blocker_bits, strict=True)
        ]

    def _without_dead_ends(self, open_cells: int, kept: int) -> int:
        """Rule 3: open cells less every dead end (an open cell with one open neighbour or none), again and
        again; cells of `kept` stay."""
        width = self.width
        while True:
            left, right, up, down = open_cells << 1, open_cells >> 1, open_cells << width, open_cells >> width
            two_or_more = (left & (right | up | down)) | (right & (up | down)) | (up & down)
            trimmed = open_cells & (two_or_more | kept)
            if trimmed == open_cells:
                return open_cells
            open_cells = trimmed

    def _least_damage(self, thing: Thing, b_bit: int) -> int | None:
        """Rule 4: an enemy's damage at the most attack and defence held when it is fought (every item joined
        to the start without passing its cell); 0 for a door; None when no such stats can harm it."""
        if thing.enemy is None:
            return 0
        before = self.flood(self.start_bit, self.floor & ~b_bit)
        gains = [item for number, item in self.item_at.items() if before >> number & 1 and item.kind == "equipment"]
        atk = self.level.player.atk + sum(item.atk for item in gains)
        defense = self.level.player.defense + sum(item.defense for item in gains)
        return fight_damage(thing.enemy, atk, defense)

    # ------------------------------------------------------------------------------------------ the grid

    def around(self, cells: int) -> int:
        """Every cell next to one of `cells` (the frame of wall keeps a shift from wrapping to another row)."""
        width = self.width
        return (cells << 1) | (cells >> 1) | (cells << width) | (cells >> width)

    def flood(self, cells: int, passable: int) -> int:
        """`cells` grown by every cell of `passable` joined to them: "you may move anywhere there is an
        unobstructed path"."""
        while True:
            grown = cells | (self.around(cells) & passable)
            if grown == cells:
                return cells
            cells = grown

    # ----------------------------------------------------------------------------------------- the moves

    def start(self, stats: Stats) -> Spot:
        cells = self.flood(self.start_bit, self.floor & ~self.all_blockers)
        return Spot(cells, take_items(stats, self._items_on(cells)))

    def _items_on(self, cells: int) -> list[Thing]:
        return [self.item_at[number] for number in _bits(cells & self.item_cells)]

    def frontier(self, at: Spot) -> list[int]:
        """Blockers left next to a reached cell, by number."""
        return [self.blocker_at[n] for n in _bits(self.around(at.cells) & self.all_blockers & ~at.cells)]

    def goal_near(self, at: Spot) -> int | None:
        """A goal next to a reached cell (the first of the level's goals), or None."""
        near = self.around(at.cells)
        for goal, goal_bit in enumerate(self.goal_bits):
            if near & goal_bit:
                return goal
        return None

    def step(self, at: Spot, b: int, *, survive: bool = True) -> tuple[Spot, int] | None:
        """Open or fight blocker b (the rules' consume_blocker) and take what is newly reached: the spot after
        and the life lost, or None when the rules do not allow it now."""
        after = consume_blocker(self.blocker_things[b], at.stats, survive=survive)
        if after is None:
            return None
        stats, cost = after
        opened = at.cells | self.blocker_bits[b]
        cells = self.flood(opened, self.floor & ~(self.all_blockers & ~opened))
        if cells & ~opened & self.item_cells:
            stats = take_items(stats, self._items_on(cells & ~opened))
        return Spot(cells, stats), cost

    def decision(self, b: int) -> Decision:
        return (_ACTIONS[self.blocker_things[b].kind], self.blocker_objects[b])

    def key(self, at: Spot) -> tuple[int, int]:
        """Rule 1a: what the future of a spot depends on besides its life."""
        return at.cells & self.keyed, at.stats.keys

    def pointless(self, at: Spot, b: int) -> bool:
        """Rule 3: consuming blocker b would add its cell only, next to nothing new."""
        around = self.around(self.blocker_bits[b])
        return not around & (self.goal_cells | (self.floor & ~at.cells))

    def free_steps(self, at: Spot, decisions: list[Decision]) -> Spot:
        """Rule 2: every free step, lowest cell first, again and again."""
        while True:
            near = self.around(at.cells) & self.all_blockers & ~at.cells
            free = near & self._free_enemies(at.stats)
            if at.stats.keys and at.stats.keys >= (self.door_cells & ~at.cells).bit_count():
                free |= near & self.door_cells
            if not free:
                return at
            b = self.blocker_at[(free & -free).bit_length() - 1]
            moved = self.step(at, b, survive=False)
            assert moved is not None, "a free step is always allowed"
            at = moved[0]
            decisions.append(self.decision(b))

    def _free_enemies(self, stats: Stats) -> int:
        key = (stats.atk, stats.defense)
        if key not in self._free:
            self._free[key] = sum(
                b_bit
                for b_bit, thing in zip(self.blocker_bits, self.blocker_things, strict=True)
                if thing.enemy is not None and fight_damage(thing.enemy, stats.atk, stats.defense) == 0
            )
        return self._free[key]

    # ----------------------------------------------------------------------------------------- the bound

    def bound(self, at: Spot) -> int | None:
        """Rule 4: no route on from `at` ends with more life than this; None when no goal can be reached."""
        goal_damage, elixirs = self.distances(at)
        if goal_damage is None:
            return None
        elixirs.sort()
        gained = sum(value for damage, value in elixirs if damage <= goal_damage)
        best = gained - goal_damage
        for damage, value in elixirs:
            if damage > goal_damage:
                gained += value
                best = max(best, gained - damage)
        return at.stats.hp + best

    def distances(self, at: Spot) -> tuple[int | None, list[tuple[int, int]]]:
        """Dijkstra over cells from the spot's, where stepping onto an enemy left costs its least damage and
        onto any other cell nothing: the least damage to stand next to a goal (None: no goal can be reached)
        and (least damage, hp) of every elixir not taken yet that can be reached."""
        left = self.all_blockers & ~at.cells
        walkable = self.floor & ~left
        best: dict[int, int] = {}
        heap: list[tuple[int, int]] = []
        settled = at.cells
        elixirs: list[tuple[int, int]] = []
        goal_damage: int | None = None
        region, damage = at.cells, 0
        while True:
            near = self.around(region)
            if goal_damage is None and near & self.goal_cells:
                goal_damage = damage
            for number in _bits(near & left & ~settled):
                cost = self.least_damage[self.blocker_at[number]]
                if cost is not None and damage + cost < best.get(number, 1 << 62):
                    best[number] = damage + cost
                    heapq.heappush(heap, (damage + cost, number))
            while heap:
                damage, number = heapq.heappop(heap)
                if not settled >> number & 1:
                    break
            else:
                return goal_damage, elixirs
            # The blocker's cell and every open cell joined to it, at the same damage.
            region = self.flood(1 << number, walkable & ~settled) | 1 << number
            settled |= region
            for item_number in _bits(region & self.item_cells):
                item = self.item_at[item_number]
                if item.kind == "elixir":
                    elixirs.append((damage, item.hp))


def _cells(level: PassagesLevel) -> Iterator[tuple[int, int]]:
    for row in range(level.height):
        for col in range(level.width):
            yield row, col


def _bits(mask: int) -> Iterator[int]:
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def _decisions(trail: Trail) -> tuple[Decision, ...]:
    pieces = []
    while trail is not None:
        trail, piece = trail
        pieces.append(piece)
    return tuple(decision for piece in reversed(pieces) for decision in piece)


class _Known:
    """What searches found about winning, per key (rule 1): the most life known to lose from it and the least
    known to win. Winning only gets easier with more life at the same key, so one number each says it all;
    the counting walk asks many searches, and each one's findings spare the next."""

    def __init__(self) -> None:
        self.losing: dict[tuple[int, int], int] = {}
        self.winning: dict[tuple[int, int], int] = {}

    def wins(self, key: tuple[int, int], hp: int) -> bool | None:
        if hp <= self.losing.get(key, 0):
            return False
        if hp >= self.winning.get(key, 1 << 62):
            return True
        return None


def _search(level: PassagesLevel, deadline: Deadline, *, first_win: bool = False) -> BestRoute:
    walk = GridWalk(level, trim=True)
    return _explore(walk, walk.start(level.player), deadline, first_win=first_win)


def _explore(
    walk: GridWalk, start: Spot, deadline: Deadline, *, first_win: bool = False, known: _Known | None = None
) -> BestRoute:
    """Rules 1 to 4 of the module docstring from `start`: the best route on, with its decisions; with
    `first_win`, the first route found that wins. `known` (with first_win): what earlier searches found,
    consulted and added to (a search that finds no win proves every position it met losing)."""
    opening: list[Decision] = []
    given = start
    start = walk.free_steps(start, opening)
    best_hp = {walk.key(start): start.stats.hp}
    winner: tuple[int, Trail, int] | None = None  # (hp, trail, goal)
    order = itertools.count()
    heap: list[tuple[int, int, int, Spot, Trail]] = []

    def offer(spot: Spot, trail: Trail) -> None:
        nonlocal winner
        goal = walk.goal_near(spot)
        if goal is not None and (winner is None or spot.stats.hp > winner[0]):
            winner = (spot.stats.hp, trail, goal)
        if known is not None and winner is None and known.wins(walk.key(spot), spot.stats.hp):
            winner = (spot.stats.hp, trail, -1)  # (a win known from an earlier search: no route here)
        bound = walk.bound(spot)
        if bound is None or (winner is not None and bound <= winner[0]):
            return
        if known is not None and known.wins(walk.key(spot), spot.stats.hp) is False:
            return
        heapq.heappush(heap, (-bound, -spot.cells.bit_count(), next(order), spot, trail))

    offer(start, (None, tuple(opening)))
    steps = 0
    while heap:
        negative_bound, _, _, at, trail = heapq.heappop(heap)
        if winner is not None and (first_win or -negative_bound <= winner[0]):
            break
        if best_hp[walk.key(at)] != at.stats.hp:
            continue  # a route with more life to the same key came later
        steps += 1
        if steps % _CLOCK_EVERY == 0 and deadline.expired():
            if winner is None:
                return BestRoute(UNKNOWN)
            return BestRoute(SOLVABLE, winner[0], _decisions(winner[1]) + (("goal", winner[2]),), proved=False)
        children = []
        for b in walk.frontier(at):
            if walk.pointless(at, b):
                continue
            moved = walk.step(at, b, survive=False)
            if moved is None:
                continue
            decisions = [walk.decision(b)]
            child = walk.free_steps(moved[0], decisions)
            child_key = walk.key(child)
            known_hp = best_hp.get(child_key, 0)
            if walk.blocker_things[b].kind == "enemy" and known_hp >= child.stats.hp + moved[1]:
                break  # rule 1b: a position one fight further on is known with no more damage
            if moved[1] < at.stats.hp and known_hp < child.stats.hp:
                children.append((child, child_key, decisions))
        else:
            for child, child_key, decisions in children:
                if best_hp.get(child_key, 0) < child.stats.hp:
                    best_hp[child_key] = child.stats.hp
                    offer(child, (trail, tuple(decisions)))
    if winner is None:
        if known is not None:
            for key, hp in [*best_hp.items(), (walk.key(given), given.stats.hp)]:
                known.losing[key] = max(known.losing.get(key, 0), hp)
        return BestRoute(UNSOLVABLE, proved=True)
    if known is not None:
        # Every position along the winning route wins with its life, the given one first.
        spots, at = [given, start], start
        number = {obj: b for b, obj in enumerate(walk.blocker_objects)}
        for _, index in _decisions(winner[1])[len(opening) :]:
            moved = walk.step(at, number[index])
            assert moved is not None, "a route the search found does not replay"
            at = moved[0]
            spots.append(at)
        for spot in spots:
            key = walk.key(spot)
            known.winning[key] = min(known.winning.get(key, 1 << 62), spot.stats.hp)
    return BestRoute(SOLVABLE, winner[0], _decisions(winner[1]) + (("goal", winner[2]),), proved=True)


def best_route(level: PassagesLevel, deadline: Deadline) -> BestRoute:
    return _search(level, deadline)


def min_start_hp(level: PassagesLevel, deadline: Deadline) -> MinStartHp:
    """Bisection on the starting hp (solvability only grows with it: every fight allowed with less life is
    allowed with more), where each winning probe also lowers the top to what its route needs."""

    def need_of_winner(hp: int) -> int | None:
        """The least starting hp the first winning route found at `hp` needs; None when none wins."""
        answer = _search(level.with_start_hp(hp), deadline, first_win=True)
        if answer.status == UNKNOWN:
            raise _OutOfTime
        if answer.status == UNSOLVABLE:
            return None
        assert answer.decisions is not None
        return route_need(level, answer.decisions)

    try:
        high = need_of_winner(start_hp_upper_bound(level))
        if high is None:
            return MinStartHp("none")
        low = 1  # every starting hp below low loses; high wins
        while low < high:
            middle = (low + high) // 2
            need = need_of_winner(middle)
            if need is None:
                low = middle + 1
            else:
                high = need
    except _OutOfTime:
        return MinStartHp(UNKNOWN)
    return MinStartHp("proved", low)


def route_need(level: PassagesLevel, decisions: tuple[Decision, ...]) -> int:
    """The least starting hp with which this route is legal: life counted from 0, each fight needs the life
    before it to exceed its damage ("the hero must survive with at least 1 hp"), and the route needs 1 at
    least."""
    walk = GridWalk(level)
    at = walk.start(replace(level.player, hp=0))
    number = {obj: b for b, obj in enumerate(walk.blocker_objects)}
    need = 1
    for action, index in decisions:
        if action == "goal":
            break
        moved = walk.step(at, number[index], survive=False)
        assert moved is not None, "a route found by the search does not replay"
        need = max(need, moved[1] - at.stats.hp + 1)
        at = moved[0]
    return need


def count_solutions(level: PassagesLevel, deadline: Deadline, cap: int, final_hp: int | None) -> SolutionCount:
    """Distinct winning signatures up to `cap`, and those that reach `final_hp` (the best when None).
    Uniqueness (cap 1) walks the prefixes of the best route's signature (_unique); a count further walks
    every signature (_every_signature)."""
    if cap == 1:
        return _unique(level, deadline, final_hp)
    return _every_signature(level, deadline, cap, final_hp)


def _unique(level: PassagesLevel, deadline: Deadline, final_hp: int | None) -> SolutionCount:
    """Whether the best route's signature S is the only winning one, and a second when not.

    A route prefix is consistent with S when it can still end with exactly S: every door it opened is one of
    S's, every enemy it fought for life is one of S's fights at S's attack and defence, and every enemy it
    fought for nothing is none of S's (an enemy is fought once). A prefix that is not has deviated for good:
    every route on from it has another signature, so whether one wins is a plain question of winning, which
    the search with rules 1 to 4 answers (first win). The walk goes over the consistent prefixes (by their
    cells, which fix the fights recorded and so the life), depth first, one blocker at a time; a goal next
    to one whose doors and fights are not all of S's is a second signature, and so is any deviation from
    which some route wins (the searches share what they find, _Known). None of either: the level is unique.
    (The optimal count is of signatures at `final_hp`: S's when that is the best life, else the walk of every
    signature counts them.)"""
    best = _search(level, deadline)
    if best.status == UNKNOWN or not best.proved:
        return SolutionCount(0, 0, False, False)
    if best.status == UNSOLVABLE:
        return SolutionCount(0, 0, False, True)
    if final_hp is not None and final_hp != best.final_hp:
        return _every_signature(level, deadline, 1, final_hp)
    assert best.decisions is not None
    doors, fights = replay(level, best.decisions).signature
    fought = {entry[0] for entry in fights}
    walk = GridWalk(level)
    oracle = GridWalk(level, trim=True)
    known = _Known()
    seen: set[int] = set()
    stack: list[tuple[Spot, tuple[Decision, ...]]] = [(walk.start(level.player), ())]
    steps = 0
    second: tuple[Decision, ...] | None = None
    try:
        while stack and second is None:
            steps += 1
            if steps % _CLOCK_EVERY == 0 and deadline.expired():
                raise _OutOfTime
            at, route = stack.pop()
            if at.cells in seen:
                continue
            seen.add(at.cells)
            goal = walk.goal_near(at)
            # A consistent prefix's doors and costly fights are some of S's: it ends with S only with all.
            if goal is not None and not (fought <= _fights_taken(walk, at) and doors <= _doors_opened(walk, at)):
                second = route + (("goal", goal),)
                break
            for b in walk.frontier(at):
                moved = walk.step(at, b)
                if moved is None:
                    continue
                child, cost = moved
                obj, thing = walk.blocker_objects[b], walk.blocker_things[b]
                decided = route + (walk.decision(b),)
                if thing.kind == "door":
                    consistent = obj in doors
                elif cost > 0:
                    consistent = signature_entry(level, obj, at.stats, cost) in fights
                else:
                    consistent = obj not in fought
                if consistent:
                    stack.append((child, decided))
                    continue
                answer = known.wins(oracle.key(child), child.stats.hp)
                if answer is None:
                    found = _explore(oracle, child, deadline, first_win=True, known=known)
                    if found.status == UNKNOWN:
                        raise _OutOfTime
                    answer = found.status == SOLVABLE
                if answer:
                    on = _explore(oracle, child, deadline, first_win=True)
                    if on.status == UNKNOWN or on.decisions is None:
                        raise _OutOfTime
                    second = decided + on.decisions
                    break
    except _OutOfTime:
        return SolutionCount(0, 0, False, False)
    witnesses = (best.decisions,) if second is None else (best.decisions, second)
    return SolutionCount(1, 1, second is not None, True, witnesses)


def _fights_taken(walk: GridWalk, at: Spot) -> set[int]:
    return {walk.blocker_objects[walk.blocker_at[n]] for n in _bits(at.cells & walk.all_blockers & ~walk.door_cells)}


def _doors_opened(walk: GridWalk, at: Spot) -> frozenset[int]:
    return frozenset(walk.blocker_objects[walk.blocker_at[n]] for n in _bits(at.cells & walk.door_cells))


def _every_signature(level: PassagesLevel, deadline: Deadline, cap: int, final_hp: int | None) -> SolutionCount:
    """Every winning signature, by a walk over (reached cells, costly fights) pairs, depth first, with no
    merging by life and none of the rules of the best route (module docstring): every move is a single
    blocker, so every route is walked in every order. A pair fixes the life (each costly fight's damage
    follows from the enemy and the stats recorded with it), so a pair is walked once. The walk enters only
    positions from which some route still wins, as a search with rules 1 to 4 decides (first win), those
    searches sharing what they found (_Known). It stops once both counts have passed their cap (with
    final_hp given: a signature's best life never falls as the walk goes on). Exact; "unknown" when the
    deadline comes first."""
    walk = GridWalk(level)
    oracle = GridWalk(level, trim=True)
    known = _Known()

    def winnable(at: Spot) -> bool:
        answer = known.wins(oracle.key(at), at.stats.hp)
        if answer is None:
            found = _explore(oracle, at, deadline, first_win=True, known=known)
            if found.status == UNKNOWN:
                raise _OutOfTime
            answer = found.status == SOLVABLE
        return answer

    wins: dict = {}
    seen = set()
    stack: list[tuple[Spot, frozenset, tuple[Decision, ...]]] = [(walk.start(level.player), frozenset(), ())]
    steps = 0
    try:
        while stack:
            steps += 1
            if steps % _CLOCK_EVERY == 0 and deadline.expired():
                raise _OutOfTime
            at, fights, route = stack.pop()
            if (at.cells, fights) in seen:
                continue
            seen.add((at.cells, fights))
            if not winnable(at):
                continue
            goal = walk.goal_near(at)
            if goal is not None:
                doors = frozenset(walk.blocker_objects[walk.blocker_at[n]] for n in _bits(at.cells & walk.door_cells))
                signature = (doors, fights)
                if signature not in wins or wins[signature][0] < at.stats.hp:
                    wins[signature] = (at.stats.hp, route + (("goal", goal),))
                    if final_hp is not None and len(wins) > cap:
                        if sum(1 for hp, _ in wins.values() if hp == final_hp) >= cap:
                            break  # both counts are at their cap: nothing more to learn
            for b in walk.frontier(at):
                moved = walk.step(at, b)
                if moved is None:
                    continue
                entry = signature_entry(level, walk.blocker_objects[b], at.stats, moved[1])
                stack.append((moved[0], fights | {entry} if entry else fights, route + (walk.decision(b),)))
    except _OutOfTime:
        return SolutionCount(0, 0, False, False)
    ranked = sorted(wins.values(), key=lambda win: -win[0])
    if final_hp is None and ranked:
        final_hp = ranked[0][0]
    optimal = sum(1 for hp, _ in ranked if hp == final_hp)
    return SolutionCount(
        min(len(ranked), cap),
        min(optimal, cap),
        len(ranked) > cap,
        True,
        tuple(decisions for _, decisions in ranked[: witnesses_kept(cap)]),
    )
