"""Counting solutions and deciding uniqueness: one new signature at a time, by a search built for it.

passages.md fixes what a solution is: a route's signature, the doors it opens and, for each fight that costs
it life, the enemy with the player's (atk, def) at that fight, in canonical form (every item taken the
moment it is reachable). The counting engine finds distinct winning signatures one at a time. Given the
signatures S_1..S_k already found, it asks: is there a winning route (at least `at_least` hp at a goal)
whose signature is none of them? The answer is a route, or a proof that there is none.

A route prefix is *consistent* with S_i when it can still end with exactly S_i: every door it opened is a
door of S_i, every enemy it fought for life is one of S_i's fights at S_i's (atk, def), and every enemy it
fought for nothing is not in S_i (an enemy is fought once, so a fight missing from the signature, or
recorded with other stats, stays missing or wrong). Everything else about a prefix follows from it:

- A prefix consistent with no S_i has *deviated*: whatever it goes on with, its signature is new. Whether
  one of its continuations wins is then a plain decision question, with every dominance of the compiled
  search allowed (it cannot merge two signatures, since any win will do): the core's Decider answers it,
  keeping what fails for the next questions, and the core's first-win search gives the route.
- A prefix consistent with some S_i has its recorded fights fixed by its consumed set C and any such i (the
  fights of S_i among C), so a consistent prefix is stored as (C, the least such i), and its life follows.
  The walk goes over these depth first; a state from which no route reaches `at_least` hp at all (the
  Decider again) is dropped with everything below it. At a goal, a consistent prefix whose signature is
  not one of the S_i (it ends before it has all of some S_i's doors and fights) is a new solution too.

So each new signature costs one walk over the consistent prefixes that can still win plus decision
searches on their deviations; the Decider's tables are kept across walks (what fails with at least h hp
fails whatever was found). `unique` is the first two signatures: the best route's, then any other.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass
from types import ModuleType

from twisty.errors import EngineBug
from twisty.rules.passages import Decision, Signature, replay
from twisty.solver.passages_reference import Position
from twisty.solver.passages_search_graph import SearchGraph, bits
from twisty.solver.passages_verdict import Deadline, SolutionCount, witnesses_kept

# How many steps of a walk between two looks at the clock.
_CLOCK_EVERY = 256
PRICED = False
# A quick dive from a deviation looks at this many times 256 states before the full decision.
DIVE_CHECKS = 8
# The work a full decision counts for when the two walks of `another` share the time (a dive: DIVE_CHECKS).
DECIDE_WORK = 64


def follow_steps(sg: SearchGraph, root: Position, steps: list[int], goal: int, claimed_hp: int) -> tuple[Decision, ...]:
    """The core's route, a list of the blockers it consumed (free steps included), followed from `root` by
    the rules' own functions into decisions: every step must be legal, and the last must reach `goal` with
    `claimed_hp` (and the portfolio replays the decisions on the grid again before anything is printed)."""
    walk = sg.walk
    at = root
    decisions: list[Decision] = []
    for b in steps:
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
    core module; one Decider per threshold, kept across walks."""

    def __init__(self, sg: SearchGraph, core, deadline: Deadline) -> None:
        self.sg = sg
        self.core = core
        self.deadline = deadline
        self.deciders: dict[int, object] = {}
        self.steps = 0
        self.consistent = 0

    def _decider(self, at_least: int):
        if at_least not in self.deciders:
            self.deciders[at_least] = self.core.Decider(self.sg.compiled_graph(), at_least, PRICED)
        return self.deciders[at_least]

    def _wins(self, at: Position, at_least: int) -> bool:
        answer = self._decider(at_least).decide(self.sg.compiled_state(at), self.deadline)
        if answer is None:
            raise OutOfTime
        return bool(answer)

    def _tick(self) -> None:
        self.steps += 1
        if self.steps % _CLOCK_EVERY == 0 and self.deadline.expired():
            raise OutOfTime

    def _finish(self, at: Position, route: tuple[Decision, ...], at_least: int) -> tuple[Decision, ...]:
        """A winning route from the deviated position `at` (the Decider said there is one)."""
        best_hp, complete, _, steps, goal = self.core.search(
            self.sg.compiled_graph(),
            self.sg.compiled_state(at),
            self.deadline,
            True,
            False,
            True,
            at_least,
            False,
            False,
            -1,
        )
        if best_hp is None:
            if not complete:
                raise OutOfTime
            raise AssertionError("the Decider found a win that the search does not")
        return route + follow_steps(self.sg, at, steps, goal, best_hp)

    def _dive(self, at: Position, route: tuple[Decision, ...], at_least: int) -> tuple[Decision, ...] | None:
        """A quick look for a win from the deviated position `at`: the core's first-win search, deepest state
        first, for at most DIVE_CHECKS x 256 expansions (counted, not timed: the same answer on any
        machine). None when it found none in that budget (which proves nothing)."""
        budget = _Budget(self.deadline, DIVE_CHECKS)
        best_hp, _, _, steps, goal = self.core.search(
            self.sg.compiled_graph(), self.sg.compiled_state(at), budget, True, True, True, at_least, False, False, -1
        )
        if best_hp is None:
            if self.deadline.expired():
                raise OutOfTime
            return None
        return route + follow_steps(self.sg, at, steps, goal, best_hp)

    def another(self, known: list[Known], at_least: int) -> tuple[Decision, ...] | None:
        """A route that wins with at least `at_least` hp and whose signature is none of `known`, or None
        when there is none. Raises OutOfTime.

        Two walks over the consistent prefixes take turns, each a fair share of the work (counted in steps,
        not timed, so the same answer comes the same way on any machine), and the first to finish answers:
        one asks the Decider of every consistent prefix whether it can still win (good where many of them
        cannot), the other does not (good where that question is dear and most can). Both give each
        deviation a quick dive, and once their walk is done, the Decider's full decision, most life first."""
        root = self.sg.walk.start(self.sg.level.player)
        if not known:
            return self._finish(root, (), at_least) if self._wins(root, at_least) else None
        walks = [self._walk(known, at_least, prune) for prune in (False, True)]
        spent = [0, 0]
        while True:
            turn = 0 if spent[0] <= spent[1] else 1
            try:
                spent[turn] += next(walks[turn])
            except StopIteration as done:
                return done.value

    def _walk(
        self, known: list[Known], at_least: int, prune: bool
    ) -> Generator[int, None, tuple[Decision, ...] | None]:
        """One walk of `another` (its docstring); yields the work done since the last yield."""
        sg = self.sg
        walk = sg.walk
        root = walk.start(sg.level.player)
        door_mask = sg.door_mask
        seen: set[tuple[int, int]] = set()
        deviations: list[tuple[Position, tuple[Decision, ...]]] = []
        stack: list[tuple[Position, int, tuple[Decision, ...]]] = [(root, (1 << len(known)) - 1, ())]
        while stack:
            self._tick()
            yield 1
            at, alive, route = stack.pop()
            lowest = (alive & -alive).bit_length() - 1
            if (at.consumed, lowest) in seen:
                continue
            seen.add((at.consumed, lowest))
            self.consistent += 1
            if prune:
                yield DECIDE_WORK
                if not self._wins(at, at_least):
                    continue
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
                else:
                    yield DIVE_CHECKS
                    won = self._dive(child, route + (walk.decision(b),), at_least)
                    if won is not None:
                        return won
                    deviations.append((child, route + (walk.decision(b),)))
        deviations.sort(key=lambda deviation: -deviation[0].stats.hp)
        for child, route in deviations:
            yield DECIDE_WORK
            if self._wins(child, at_least):
                return self._finish(child, route, at_least)
        return None


class _Budget:
    """A deadline for a quick look: expired after `checks` looks (the core looks every 256 expansions), or
    when the level's own deadline has passed."""

    def __init__(self, deadline: Deadline, checks: int) -> None:
        self.deadline = deadline
        self.left = checks

    def expired(self) -> bool:
        self.left -= 1
        return self.left < 0 or self.deadline.expired()


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
