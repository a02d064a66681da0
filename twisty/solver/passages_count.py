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
  go to one first-win search at once: one best-first search with the bound, the closure and the dominance
  of the best route's search, whichever deviation each state came from.
- A prefix consistent with some S_i has its recorded fights fixed by its consumed set C and any such i (the
  fights of S_i among C), so a consistent prefix is a class (C, the least such i), and its life follows:
  prefixes that differ only in the order of independent fights are one class, walked once. The walk goes
  over the classes depth first, without the closure of the best route's search (a free fight taken early
  can change the stats, hence the signature, of later fights) but for the fights that cannot change a
  signature: a free fight that opens no equipment and is in no alive S_i (neutral fights; any route
  without one has a twin that fights it first with the same signature). At a goal, a consistent prefix
  whose signature is none of the S_i (it ends before it has all of some S_i's doors and fights) is a new
  solution too.

The walk and the search run in the compiled core (_passages_core.c, Walker: its comment there says the
same at the level of the code); this module asks them, follows the route the core reports by the rules'
own functions and keeps the signatures found. So each new signature costs one walk over the consistent
classes plus one decision search from all their deviations. Uniqueness (count up to 1) is the best
route's signature, then one walk for any other: the second signature found is the witness. The same walk
in Python, the counting engine before its walk moved into the core, is passages_count_walk: the tests and
the counting benchmark hold the two to the same answers.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from types import ModuleType
from typing import Protocol

from twisty.errors import EngineBug
from twisty.rules.passages import PURCHASES, Decision, Signature, arrive, buy, replay
from twisty.solver.passages_reference import Position
from twisty.solver.passages_search_graph import SearchGraph, set_bytes
from twisty.solver.passages_verdict import Deadline, SolutionCount, witnesses_kept


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


# The decision search from the deviations: first a dive of at most DIVE_EXPANSIONS expansions (a count, so
# that the answer is the same on every machine), then the best-first search, with the priced bound when
# PRICED and with the Steiner and chain bounds when STEINER.
DIVE_EXPANSIONS = 10_000
PRICED = False
STEINER = False


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

    @property
    def packed(self) -> tuple[bytes, bytes, tuple[tuple[int, int, int], ...]]:
        """As the compiled walk reads it: the masks as set bytes, and (blocker, atk, def) per costly fight."""
        return (
            set_bytes(self.doors),
            set_bytes(self.fights),
            tuple((b, atk, defense) for b, (atk, defense) in sorted(self.stats.items())),
        )


class Counter:
    """The walks of one level in the compiled core (its Walker: module docstring). `core` is the compiled
    core module; the level must fit it (passages_search.fits) and have no tower feature that
    passages_search.COUNTED_BY_REFERENCE lists."""

    def __init__(self, sg: SearchGraph, core: ModuleType, deadline: Deadline) -> None:
        self.sg = sg
        self.deadline = deadline
        # The walk may take every blocker a route can (a signature may fight in a dead end); the decision
        # search only those worth taking.
        self.walker = core.Walker(sg.compiled_graph(sg.all_mask), sg.compiled_graph(), PRICED, STEINER, DIVE_EXPANSIONS)
        self.root = sg.walk.start(sg.level.player)
        self.root_state = sg.compiled_state(self.root)
        # Totals over the questions asked: classes walked, deviations queued, states the searches expanded.
        self.walked = self.deviations = self.expanded = 0

    def another(self, known: list[Known], at_least: int) -> tuple[Decision, ...] | None:
        """A route that wins with at least `at_least` hp and whose signature is none of `known`, or None
        when there is none. Raises OutOfTime (MemoryError when the core runs out of memory)."""
        # (a question the core answers within its first look at the clock must not outlive the deadline)
        if self.deadline.expired():
            raise OutOfTime
        complete, steps, goal = self.walker.another(self.root_state, [k.packed for k in known], at_least, self.deadline)
        walked, deviations, expanded, _ = self.walker.counts()
        self.walked += walked
        self.deviations += deviations
        self.expanded += expanded
        if steps is None:
            if not complete:
                raise OutOfTime
            return None
        return follow_steps(self.sg, self.root, steps, goal, final_hp_of(self.sg, self.root, steps))


def final_hp_of(sg: SearchGraph, at: Position, steps: list[int]) -> int:
    """The life at the end of `steps` from `at`, by the rules (follow_steps checks the route against it)."""
    for b in steps:
        moved = sg.walk.step(at, b)
        if moved is None:
            raise EngineBug(f"the compiled search's route takes blocker {b} where the rules do not allow it")
        at = moved[0]
    return at.stats.hp


class Walks(Protocol):
    """What count asks of a level's walks (Counter here, the Python walk of passages_count_walk)."""

    sg: SearchGraph

    def another(self, known: list[Known], at_least: int) -> tuple[Decision, ...] | None: ...


def count(
    counter: Walks,
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
    level = counter.sg.level
    found: list[tuple[int, tuple[Decision, ...]]] = []
    known: list[Known] = []
    complete = True

    def add(route: tuple[Decision, ...]) -> None:
        replayed = replay(level, route)
        if any(k.signature == replayed.signature for k in known):
            raise EngineBug("the counting engine found a signature twice")
        known.append(Known.of(counter.sg, replayed.signature))
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


__all__ = ["Counter", "Known", "OutOfTime", "Walks", "count", "final_hp_of", "follow_steps"]
