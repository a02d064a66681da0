"""What a Temple Twist engine answers, and the contract every engine module follows.

An engine module (named in the registry, twisty.games.temple) has NAME, AVAILABLE and `solver(round,
deadline)`, which returns the engine set up for one round (what it learns on one question may serve the
next), with three methods; each returns *steps*: a generator that pauses now and then (so that the
portfolio can run two engines in turn) and returns the answer. Steps raise LimitReached once the deadline
has passed (run_steps turns that into an UNKNOWN answer naming the cap).

    fewest(*, bounce_safe=False, at_least=1) -> steps of PlanAnswer
        the shortest winning plan (bounce_safe: no fall longer than the round's bounce), or UNSOLVABLE
        proved; `at_least` is a proven lower bound the engine may start from.
    second(first) -> steps of SecondAnswer
        a winning plan as short as `first` whose sequence of temple states differs, or NONE proved.
    pooled(*, at_most=None) -> steps of PlanAnswer
        the shortest plan with every card in one pool (no seats, no swap); `at_most`: the turns of a known
        plan in seat order (a pooled plan too), so none longer is looked for.
    close()
        frees what the engine holds (a SAT solver's memory).

The module also has the one-question functions fewest_turns(round, deadline, *, bounce_safe, at_least),
second_plan(round, deadline, first) and pooled_turns(round, deadline, *, at_most).

The portfolio (twisty.solver.temple_portfolio) replays every plan with the plain rules before it is used.
"""

from __future__ import annotations

import gc
from collections.abc import Generator
from dataclasses import dataclass
from typing import Protocol, TypeVar

from twisty.errors import LimitReached
from twisty.limits import Deadline
from twisty.rules.temple.model import TempleState
from twisty.rules.temple.replayer import PlanTurn

SOLVABLE, UNSOLVABLE, UNKNOWN = "solvable", "unsolvable", "unknown"
FOUND, NONE = "found", "none"


@dataclass(frozen=True)
class PlanAnswer:
    """A shortest plan (status SOLVABLE), a proof that there is none (UNSOLVABLE), or UNKNOWN with the cap
    that stopped the work. `states` is the engine's own account of the temple after each turn, which the
    replay must reproduce."""

    status: str
    plan: tuple[PlanTurn, ...] | None = None
    states: tuple[TempleState, ...] | None = None
    cap: str | None = None

    @property
    def turns(self) -> int | None:
        return None if self.plan is None else len(self.plan)


@dataclass(frozen=True)
class SecondAnswer:
    """Another plan of the same length with a different sequence of temple states (FOUND), a proof that
    there is none (NONE), or UNKNOWN."""

    status: str
    plan: tuple[PlanTurn, ...] | None = None
    states: tuple[TempleState, ...] | None = None
    cap: str | None = None


PlanSteps = Generator[None, None, PlanAnswer]
SecondSteps = Generator[None, None, SecondAnswer]
Answer = TypeVar("Answer", PlanAnswer, SecondAnswer)


def run_steps(steps: Generator[None, None, Answer], deadline: Deadline, kind: type[Answer]) -> Answer:
    """Run steps to their answer, looking at the deadline at every pause; UNKNOWN (naming the cap) when it
    passes first. Python's collector of reference cycles is off meanwhile: the engines make no cycles, and
    its full passes over their millions of states would take tenths of a second between two looks at the
    deadline."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        while True:
            deadline.check()
            next(steps)
    except StopIteration as finished:
        answer = finished.value
        assert isinstance(answer, kind)
        return answer
    except LimitReached:
        return kind(UNKNOWN, cap=deadline.cap)
    finally:
        steps.close()
        if collecting:
            gc.enable()


class Closable(Protocol):
    def close(self) -> None: ...


def ask_once(engine: Closable, steps: Generator[None, None, Answer], deadline: Deadline, kind: type[Answer]) -> Answer:
    """One question's steps run to their answer (run_steps) on an engine made for that question alone, which
    is closed after it (its SAT sessions, or the race's two engines, hold resources)."""
    try:
        return run_steps(steps, deadline, kind)
    finally:
        engine.close()
