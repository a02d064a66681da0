"""Cheap proofs first: a relaxation of a tower, answered before the exact search, that can prove the tower
unwinnable, prove a route optimal, or cap the best final hp.

The relaxation here is "every door open, keys free": the level without its doors and its keys
(`doors_open`). Doors cost no life, so the relaxed level is the real one without its key management, which
is where most of a tower's states come from (on magic-tower-AI's 24-floor map the exact search ran past 900
s, the relaxed one proves it unwinnable in seconds).

Soundness (if the relaxed level cannot be won, the real one cannot; the relaxed best hp is at least the
real best). Let L be a level and L' the same level without its doors and keys. Take any winning route R of
L and let R' be R without its door openings. Step by step, with i the steps of R done:

- R' has consumed R's consumed set less the doors, so every cell R reaches R' reaches too: a path of R's
  reach goes through floor, items and consumed blockers, which in L' are floor or consumed (a door is
  floor), and goals are walked through by neither.
- So R' has taken every item R has taken, keys aside, and possibly more, taken earlier. Items that are
  decisions (an unsafe stat's, Thing.optional) R' takes exactly when R does. The classes of the stats
  (twisty.rules.passages_tower) are the same in L and L': they read the enemies, the equipment and the shop,
  none of which the relaxation changes. So each of atk, def, mdef is at least R's when monotone or
  gain-safe (a gain-safe stat was checked at every combination of the values the hero can hold, so taking
  its items earlier never makes a fight dearer) and equal when unsafe. Money and purchases are R's: the
  same fights pay the same, the same purchases cost the same (and the shop cell R steps on, R' reaches).
- Hence every fight of R is next to R''s reach, costs R' no more, and R' has at least R's life before it
  (more elixirs, no more damage; with drain, the life after a fight, hp - floor(v x hp) - rest, does not
  fall as hp rises): R' survives it with at least R's life after. The goal (or the boss) R reaches is next
  to R''s reach, and R' reaches it with at least R's life.

So R' wins L' with a final hp at least R's. The tests hold this against the exact engines on random towers
(tests/solver/test_passages_relax.py): the relaxed best is never below the real one.

The relaxed route may also be followed in L (`repair`): each fight is reached by opening the doors on the
way, with the keys held, and the items the relaxed route had taken by then are fetched the same way. If
that route replays in L with the relaxed best hp, it is optimal in L: nothing in L beats the relaxation.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace

from twisty.rules.passages import (
    Cell,
    Decision,
    PassagesLevel,
    RouteError,
    Stats,
    TowerStats,
    consume,
    initial_state,
    neighbours,
    purchase,
    replay,
)
from twisty.solver.passages_verdict import SOLVABLE, UNSOLVABLE, BestRoute, Deadline

# The relaxation is asked for at most this part of the time left, so that the exact search keeps the rest
# (the relaxed level has fewer blockers: where it does not settle the tower it is usually done in a
# fraction of this).
RELAXATION_SHARE = 0.5


@dataclass(frozen=True)
class Relaxed:
    """A relaxed level and, per object of it, the index of the same object in the real level."""

    level: PassagesLevel
    real_index: tuple[int, ...]


def doors_open(level: PassagesLevel) -> Relaxed | None:
    """The level with every door open and no keys (module docstring); None when it has no door."""
    if not any(thing.kind == "door" for thing in level.things):
        return None
    kept = tuple(index for index, thing in enumerate(level.things) if thing.kind not in ("door", "key"))
    new_index = {old: new for new, old in enumerate(kept)}
    player = level.player
    if isinstance(player, TowerStats):
        player = replace(player, keys=0, coloured=(0,) * len(player.coloured))
    else:
        player = Stats(player.hp, player.atk, player.defense, 0)
    relaxed = replace(
        level,
        things=tuple(level.things[index] for index in kept),
        player=player,
        guards=tuple(None if guard is None else new_index[guard] for guard in level.guards),
    )
    return Relaxed(relaxed, kept)


BestRouteOf = Callable[[PassagesLevel, Deadline], BestRoute]


def best_route_relaxed_first(level: PassagesLevel, deadline: Deadline, best_route: BestRouteOf) -> BestRoute:
    """The best route of `level` by `best_route` (an engine's), with the doors-open relaxation asked first:
    unwinnable relaxed means unwinnable; a relaxed best route that can be followed in the level with the
    same hp is optimal; otherwise the exact search answers, and an unproved answer carries the relaxed best
    as its cap (BestRoute.at_most)."""
    relaxed = doors_open(level)
    if relaxed is None:
        return best_route(level, deadline)
    left = deadline.remaining()
    share = Deadline(None if left is None else left * RELAXATION_SHARE, deadline.memory_bytes)
    bound = best_route(relaxed.level, _Shared(share, deadline))
    if bound.status == UNSOLVABLE and bound.proved:
        return BestRoute(UNSOLVABLE, proved=True)
    cap = bound.final_hp if bound.status == SOLVABLE and bound.proved else None
    if cap is not None and bound.decisions is not None:
        followed = repair(level, relaxed, bound.decisions)
        if followed is not None and followed[0] == cap:
            return BestRoute(SOLVABLE, cap, followed[1], proved=True)
    answer = best_route(level, deadline)
    return answer if answer.proved or cap is None else replace(answer, at_most=cap)


class _Shared(Deadline):
    """A part of the level's deadline: expired when its own share or the whole has run out."""

    def __init__(self, share: Deadline, whole: Deadline) -> None:
        super().__init__(share.seconds, share.memory_bytes)
        self.whole = whole

    def expired(self) -> bool:
        return super().expired() or self.whole.expired()


def repair(level: PassagesLevel, relaxed: Relaxed, decisions: tuple[Decision, ...]) -> tuple[int, tuple] | None:
    """The relaxed route followed in the real level (module docstring): before each step, the doors on the
    way to what it fights, and to each item the relaxed route had taken by then, are opened with the keys
    held, fewest doors first. (final hp, decisions) when that replays in the level, else None."""
    real = relaxed.real_index
    wanted: list[Decision] = []
    for action, index in decisions:
        wanted.append((action, real[index]) if action in ("fight", "take") else (action, index))
    items_by_step = _items_reached(relaxed, decisions)
    route: list[Decision] = []
    walker = _Walker(level)
    for number, decision in enumerate(wanted):
        for item in items_by_step[number]:
            _open_way(walker, level.things[real[item]].cell, route, stand_on=True)
        action, index = decision
        if action == "buy":
            route.append(decision)
            if not walker.buy(index):
                return None
            continue
        target = level.goals[index] if action == "goal" else level.things[index].cell
        _open_way(walker, target, route, stand_on=False)
        if action == "goal":
            route.append(decision)
            break
        route.append(decision)
        if not walker.consume(index):
            return None
    try:
        replayed = replay(level, route)
    except RouteError:
        return None
    return replayed.final_hp, tuple(route)


def _items_reached(relaxed: Relaxed, decisions: tuple[Decision, ...]) -> list[list[int]]:
    """For each step of the relaxed route, the items (relaxed indices) the relaxed route had taken before it."""
    level = relaxed.level
    walker = _Walker(level)
    seen: set[int] = set()
    out: list[list[int]] = []
    for action, index in decisions:
        taken = sorted(item for item in walker.items_taken() if item not in seen)
        seen.update(taken)
        out.append(taken)
        if action == "buy":
            walker.buy(index)
        elif action in ("fight", "take"):
            walker.consume(index)
    return out


class _Walker:
    """A position in a level, followed by the rules' own steps (the route is replayed by the plain rules
    afterwards too)."""

    def __init__(self, level: PassagesLevel) -> None:
        self.level = level
        self.state, _ = initial_state(level)

    @property
    def reach(self) -> frozenset[Cell]:
        return self.state.reached

    @property
    def blocked(self) -> set[Cell]:
        consumed = self.state.consumed
        return {
            thing.cell for index, thing in enumerate(self.level.things) if thing.is_blocker and index not in consumed
        }

    def items_taken(self) -> frozenset[int]:
        return self.state.taken

    def consume(self, index: int) -> bool:
        try:
            self.state, _, _ = consume(self.level, self.state, index)
        except ValueError:
            return False
        return True

    def buy(self, choice: int) -> bool:
        try:
            self.state = purchase(self.level, self.state, choice)
        except ValueError:
            return False
        return True


def _open_way(walker: _Walker, target: Cell, route: list[Decision], *, stand_on: bool) -> None:
    """Open, with the keys held, the doors of the way with the fewest doors from the reach to `target` (to
    stand on it, or to stand next to it). Leaves the way as far as the keys go."""
    level = walker.level
    follow = walker
    if (target in follow.reach) if stand_on else any(cell in follow.reach for cell in neighbours(target)):
        return
    door_at = {thing.cell: index for index, thing in enumerate(level.things) if thing.kind == "door"}
    blocked = follow.blocked
    goals = set(level.goals)
    links = level.link_map
    # 0-1 breadth-first search from the reach: a door costs 1, any other open cell 0.
    previous: dict[Cell, Cell | None] = {cell: None for cell in follow.reach}
    queue: deque[tuple[int, Cell]] = deque((0, cell) for cell in follow.reach)
    cost = dict.fromkeys(follow.reach, 0)
    found: Cell | None = None
    while queue:
        spent, cell = queue.popleft()
        if spent > cost.get(cell, spent):
            continue
        if (cell == target) if stand_on else (target in neighbours(cell) and cell in previous):
            found = cell
            break
        for nxt in (*neighbours(cell), *links.get(cell, ())):
            if level.is_wall(nxt) or nxt in goals:
                continue
            if nxt in blocked and nxt not in door_at and not (stand_on and nxt == target):
                continue
            step = spent + (1 if nxt in door_at and nxt in blocked else 0)
            if step < cost.get(nxt, step + 1):
                cost[nxt], previous[nxt] = step, cell
                (queue.appendleft if step == spent else queue.append)((step, nxt))
    if found is None:
        return
    way: list[Cell] = []
    at: Cell | None = found
    while at is not None and at not in follow.reach:
        way.append(at)
        at = previous[at]
    for cell in reversed(way):
        index = door_at.get(cell)
        if index is None or cell not in follow.blocked:
            continue
        if not walker.consume(index):
            return
        route.append(("open", index))
