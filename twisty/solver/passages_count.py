"""Counting solutions and deciding uniqueness: one new signature at a time, by a search built for it.

docs/passages.md fixes what a solution is, after the rulebook Twisty Little Passages: a route's
signature, the doors it opens and, for each fight that costs it life, the enemy with the player's (atk, def)
at that fight, in canonical form (every item taken the moment it is reachable). The counting engine finds
distinct winning signatures one at a time. Given the signatures S_1..S_k already found, it asks: is there a
winning route (at least `at_least` hp at a goal) whose signature is none of them? The answer is a route,
or a proof that there is none.

A route prefix is *consistent* with S_i when it can still end with exactly S_i: every door it opened is a
door of S_i, every enemy it fought for life is one of S_i's fights at S_i's (atk, def), and every enemy it
fought for nothing is not in S_i (an enemy is fought once, so a fight missing from the signature, or
recorded with other stats, stays missing or wrong). Everything else about a prefix follows from it:

- A prefix consistent with no S_i has *deviated*: whatever it goes on with, its signature is new. Whether
  one of its continuations wins is then a plain decision question, where every dominance of the compiled
  search is allowed (it cannot merge two signatures, since any win will do). All the deviations of a walk
  go to one first-win search of the core at once (first_win_any): one best-first search with the bound,
  the closure and the dominance of the best route's search, whichever deviation each state came from.
- A prefix consistent with some S_i has its recorded fights fixed by its consumed set C and any such i (the
  fights of S_i among C), so a consistent prefix is stored as (C, the least such i), and its life follows.
  The walk goes over these depth first, without the closure of the best route's search (a free fight
  taken early can change the stats, hence the signature, of later fights) but for the fights that cannot
  change a signature: a free fight that opens no equipment and is in no alive S_i (_neutral_fights; its
  docstring proves it). At a goal, a consistent prefix whose signature is none of the S_i (it ends before
  it has all of some S_i's doors and fights) is a new solution too.

So each new signature costs one walk over the consistent prefixes plus one decision search from all their
deviations. Uniqueness (count up to 1) is the best route's signature, then one walk for any other: the
second signature found is the witness.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from types import ModuleType

from twisty.errors import EngineBug
from twisty.rules.passages import PURCHASES, Decision, Signature, arrive, buy, replay
from twisty.solver.passages_reference import Position
from twisty.solver.passages_search_graph import SearchGraph, bits
from twisty.solver.passages_verdict import Deadline, SolutionCount, witnesses_kept

# How many steps of a walk between two looks at the clock.
_CLOCK_EVERY = 256


def follow_steps(sg: SearchGraph, root: Position, steps: list[int], goal: int, claimed_hp: int) -> tuple[Decision, ...]:
    """The core's route, a list of the blockers it consumed (free steps included), followed from `root` by
    the rules' own functions into decisions: every step must be legal, and the last must reach `goal` with
    `claimed_hp` (and the portfolio replays the decisions on the grid again before anything is printed)."""
    walk = sg.walk
    at = root
    decisions: list[Decision] = []
    for number, b in enumerate(steps, start=1):
        if b >= sg.purchase_base:
            # A purchase of the core's shop chains (SearchGraph._add_purchases): the rules' buy.
            choice = sg.purchase_choice[b - sg.purchase_base]
            shop = sg.level.shop
            bought = None if shop is None else buy(shop, at.stats, choice)
            if bought is None:
                raise EngineBug(f"the compiled search's route buys {PURCHASES[choice]} where the rules do not allow it")
            at = replace(at, stats=bought)
            decisions.append(("buy", choice))
            continue
        if b >= walk.blockers_count:
            return _boss_ending(sg, at, b, number == len(steps), goal, claimed_hp, tuple(decisions))
        moved = walk.step(at, b) if at.frontier >> b & 1 else None
        if moved is None:
            raise EngineBug(f"the compiled search's route takes blocker {b} where the rules do not allow it")
        at = moved[0]
        decisions.append(walk.decision(b))
    if at.stats.hp != claimed_hp or goal not in walk.goals_near(at):
        raise EngineBug(
            f"the compiled search's route ends with {at.stats.hp} hp next to goals "
            f"{sorted(walk.goals_near(at))}, not {claimed_hp} hp at goal {goal}"
        )
    return tuple(decisions) + (("goal", goal),)


def _boss_ending(
    sg: SearchGraph, at: Position, b: int, last: bool, goal: int, claimed_hp: int, decisions: tuple[Decision, ...]
) -> tuple[Decision, ...]:
    """The core's step over boss blocker b (SearchGraph._add_bosses): the route's end at the goal the boss
    guards, by the rules' arrive, which must be the core's last step and leave `claimed_hp`."""
    guarded = sg.boss_goal[b - sg.walk.blockers_count]
    arrived = arrive(sg.level, guarded, at.stats) if guarded in sg.walk.goals_near(at) else None
    if not last or guarded != goal or arrived is None or arrived[0].hp != claimed_hp:
        raise EngineBug(
            f"the compiled search's route ends at the boss of goal {guarded} "
            f"({'not ' if arrived is None else ''}allowed), not with {claimed_hp} hp at goal {goal} as its last step"
        )
    return decisions + (("goal", guarded),)


class OutOfTime(Exception):
    """The deadline passed during a walk: the answer is unknown."""


@dataclass(frozen=True)
class Known:
    """A signature already found, in the form the walk tests prefixes against: its doors and fought enemies
    as blocker masks, and the (atk, def) of each costly fight by blocker."""

    signature: Signature
    doors: int
    fights: int
    stats: dict[int, tuple[int, int]]

    @classmethod
    def of(cls, sg: SearchGraph, signature: Signature) -> Known:
        number = sg.graph.blocker_of_object
        doors, fights = signature
        return cls(
            signature,
            sum(1 << number[obj] for obj in doors),
            sum(1 << number[obj] for obj, _, _ in fights),
            {number[obj]: (atk, defense) for obj, atk, defense in fights},
        )


class Counter:
    """The walks of one level: new signatures one at a time (module docstring). `core` is the compiled
    core module."""

    def __init__(self, sg: SearchGraph, core: ModuleType, deadline: Deadline) -> None:
        self.sg = sg
        self.core = core
        self.deadline = deadline
        self.steps = 0
        self.consistent = 0

    def _tick(self) -> None:
        self.steps += 1
        if self.steps % _CLOCK_EVERY == 0 and self.deadline.expired():
            raise OutOfTime

    def another(self, known: list[Known], at_least: int) -> tuple[Decision, ...] | None:
        """A route that wins with at least `at_least` hp and whose signature is none of `known`, or None
        when there is none. Raises OutOfTime.

        A walk over the consistent prefixes (depth first, each (consumed set, least consistent signature)
        once) looks for a goal that ends a new signature and collects the deviations, the prefixes one
        blocker further that are consistent with none of `known`; then one first-win search of the core
        from all the deviations at once decides whether any of them wins, and how."""
        sg = self.sg
        walk = sg.walk
        root = walk.start(sg.level.player)
        door_mask = sg.door_mask
        seen: set[tuple[int, int]] = set()
        deviations: list[tuple[Position, tuple[Decision, ...]]] = []
        stack: list[tuple[Position, int, tuple[Decision, ...]]] = []
        if known:
            stack.append((root, (1 << len(known)) - 1, ()))
        else:
            deviations.append((root, ()))
        while stack:
            self._tick()
            at, alive, route = stack.pop()
            lowest = (alive & -alive).bit_length() - 1
            if (at.consumed, lowest) in seen:
                continue
            seen.add((at.consumed, lowest))
            closed, route = self._neutral_fights(at, route, alive, known)
            if closed is not at:
                if (closed.consumed, lowest) in seen:
                    continue
                seen.add((closed.consumed, lowest))
                at = closed
            self.consistent += 1
            if at.goal >= 0 and at.stats.hp >= at_least:
                doors = at.consumed & door_mask
                fought = at.consumed & ~door_mask
                if not any(doors == k.doors and fought & k.fights == k.fights for k in _members(known, alive)):
                    return route + (("goal", at.goal),)
            for b in bits(at.frontier):
                moved = walk.step(at, b)
                if moved is None:
                    continue
                child, cost = moved
                still = _still_consistent(known, alive, b, door_mask >> b & 1, cost, at)
                if still:
                    stack.append((child, still, route + (walk.decision(b),)))
                else:  # (with less life than at_least too: elixirs may come later)
                    deviations.append((child, route + (walk.decision(b),)))
        return self._first_win(deviations, at_least)

    def _neutral_fights(
        self, at: Position, route: tuple[Decision, ...], alive: int, known: list[Known]
    ) -> tuple[Position, tuple[Decision, ...]]:
        """Fight at once every frontier enemy that costs nothing, is a fight of no signature in `alive`, and
        opens no equipment: again and again, lowest number first. Any route from the prefix without such a
        fight f has a twin that fights f first and then goes on the same way: the stats at every later
        fight are the same (f opens no equipment), life and keys no less, and f, free, is in no signature;
        so the twin has the same signature, and the prefix with f loses no solution and no deviation."""
        sg = self.sg
        walk = sg.walk
        fights = 0
        for k in _members(known, alive):
            fights |= k.fights
        while True:
            for b in bits(at.frontier & ~sg.door_mask & ~fights):
                if any(sg.area_atk[a] or sg.area_def[a] for a in walk.blocker_areas[b] if not at.areas >> a & 1):
                    continue
                moved = walk.step(at, b)
                if moved is not None and moved[1] == 0:
                    at, route = moved[0], route + (walk.decision(b),)
                    break
            else:
                return at, route

    def _first_win(
        self, deviations: list[tuple[Position, tuple[Decision, ...]]], at_least: int
    ) -> tuple[Decision, ...] | None:
        """A winning route from one of the deviated positions (the core's first_win_any), or None."""
        if not deviations:
            return None
        sg = self.sg
        index, complete, _, steps, goal = self.core.first_win_any(
            sg.compiled_graph(), [sg.compiled_state(at) for at, _ in deviations], self.deadline, at_least
        )
        if index is None:
            if not complete:
                raise OutOfTime
            return None
        at, route = deviations[index]
        return route + follow_steps(sg, at, steps, goal, _final_hp(sg, at, steps))


def _final_hp(sg: SearchGraph, at: Position, steps: list[int]) -> int:
    """The life at the end of `steps` from `at`, by the rules (follow_steps checks the route against it)."""
    for b in steps:
        moved = sg.walk.step(at, b)
        if moved is None:
            raise EngineBug(f"the compiled search's route takes blocker {b} where the rules do not allow it")
        at = moved[0]
    return at.stats.hp


def _members(known: list[Known], alive: int) -> Iterator[Known]:
    for i in bits(alive):
        yield known[i]


def _still_consistent(known: list[Known], alive: int, b: int, is_door: int, cost: int, at: Position) -> int:
    """The members of `alive` that the prefix, one blocker further, can still end with exactly."""
    out = 0
    bit = 1 << b
    for i in bits(alive):
        k = known[i]
        if is_door:
            ok = bool(k.doors & bit)
        elif cost > 0:
            ok = k.stats.get(b) == (at.stats.atk, at.stats.defense)
        else:
            ok = not k.fights & bit
        if ok:
            out |= 1 << i
    return out


def count(
    sg: SearchGraph,
    core: ModuleType,
    deadline: Deadline,
    cap: int,
    final_hp: int,
    first: Callable[[], tuple[Decision, ...] | None] | None = None,
) -> SolutionCount:
    """Distinct winning signatures up to `cap` (more than `cap`: capped), and those that reach `final_hp`
    (the proven best), as passages_verdict.SolutionCount. First the signatures that reach final_hp, one
    walk each, up to cap + 1; then, when those are at most `cap`, the others (at least 1 hp) up to cap + 1
    in all. With cap 1 the question is uniqueness: the best signature, then one walk for any other (the
    second is the witness, optimal or not; the optimal count is then 1 either way, as capped at 1).
    `first`, when given, finds a route that reaches final_hp (the search engine's fastest best-route search;
    None when time runs out): it stands for the first walk, which would find one too."""
    counter = Counter(sg, core, deadline)
    found: list[tuple[int, tuple[Decision, ...]]] = []
    known: list[Known] = []
    complete = True

    def add(route: tuple[Decision, ...]) -> None:
        replayed = replay(sg.level, route)
        if any(k.signature == replayed.signature for k in known):
            raise EngineBug("the counting engine found a signature twice")
        known.append(Known.of(sg, replayed.signature))
        found.append((replayed.final_hp, route))

    optimal = 0
    try:
        if first is not None:
            route = first()
            if route is None:
                raise OutOfTime
            add(route)
        # With cap 1 (uniqueness) one optimal signature is enough: then any other, optimal or not.
        while len(known) <= cap and not (cap == 1 and known):
            route = counter.another(known, final_hp)
            if route is None:
                break
            add(route)
        optimal = len(known)
        while len(known) <= cap:
            route = counter.another(known, 1)
            if route is None:
                break
            add(route)
    except (OutOfTime, MemoryError) as stop:
        deadline.out_of_memory = deadline.out_of_memory or isinstance(stop, MemoryError)
        complete = False
        optimal = sum(1 for hp, _ in found if hp >= final_hp)
    ranked = sorted(found, key=lambda win: -win[0])
    total = len(found)
    return SolutionCount(
        min(total, cap),
        min(optimal, cap),
        total > cap,
        complete,
        tuple(route for _, route in ranked[: witnesses_kept(cap)]),
    )


__all__ = ["Counter", "Known", "OutOfTime", "count", "follow_steps"]
