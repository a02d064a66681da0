"""The Temple Twist portfolio engine: the search engine and the SAT engine run in turn on each question, and
the first proof counts.

Neither engine is the faster everywhere (docs/bench-temple.md): the search walks the states one by one and
wins where there are few (short plans, turning cards), the SAT engine reasons about the turns all at once and
wins on long plans and proofs that no plan exists. A question's steps run in slices (the engines pause after
a few milliseconds of work), and the next slice always goes to the engine that has had the less processor
time so far, so the race costs at most about twice the faster engine, and the slower one is never waited for.
The search takes the first slice: on a small round it is done before the SAT engine would have built its
formula.

Both engines keep what they learn across the questions of a round (the SAT engine its formula and learnt
clauses, the search its tables), and the portfolio passes what a question proved (the fewest turns) to the
next, whichever engine proved it.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator
from typing import Any

from twisty.limits import Deadline
from twisty.rules.temple.model import Round
from twisty.solver import temple_sat, temple_search
from twisty.solver.temple_answers import (
    UNKNOWN,
    Answer,
    PlanAnswer,
    PlanSteps,
    SecondAnswer,
    SecondSteps,
    run_steps,
)

NAME = "race"
AVAILABLE = True
ENGINES = (temple_search, temple_sat)


class RoundSolver:
    """Both engines on one round. `provers` names, per question asked so far, the engine whose proof counted."""

    def __init__(self, round_: Round, deadline: Deadline) -> None:
        self.engines: list[tuple[str, Any]] = [(module.NAME, module.solver(round_, deadline)) for module in ENGINES]
        self.spent = {name: 0.0 for name, _ in self.engines}
        self.provers: dict[str, str] = {}

    def fewest(self, *, bounce_safe: bool = False, at_least: int = 1, at_most: int | None = None) -> PlanSteps:
        question = "bounce" if bounce_safe else "win"
        return self._race(
            question, lambda engine: engine.fewest(bounce_safe=bounce_safe, at_least=at_least, at_most=at_most)
        )

    def second(self, first: PlanAnswer) -> SecondSteps:
        return self._race("unique", lambda engine: engine.second(first))

    def pooled(self, *, at_most: int | None = None) -> PlanSteps:
        return self._race("pooled", lambda engine: engine.pooled(at_most=at_most))

    def _race(
        self, question: str, steps_of: Callable[[Any], Generator[None, None, Answer]]
    ) -> Generator[None, None, Answer]:
        """The first answer that is not unknown; each slice to the engine with the less time spent (over the
        round, so that an engine behind on one question catches up on the next)."""
        running = [(name, steps_of(engine)) for name, engine in self.engines]
        unknown: Answer | None = None
        try:
            while running:
                index = min(range(len(running)), key=lambda at: self.spent[running[at][0]])
                name, steps = running[index]
                started = time.process_time()
                try:
                    next(steps)
                except StopIteration as finished:
                    answer: Answer = finished.value
                    if answer.status != UNKNOWN:
                        self.provers[question] = name
                        return answer
                    unknown = answer  # this engine gave up (a cap of its own): the other goes on
                    running.pop(index)
                finally:
                    self.spent[name] += time.process_time() - started
                yield
        finally:
            for _, steps in running:
                steps.close()
        assert unknown is not None
        return unknown

    def close(self) -> None:
        for _, engine in self.engines:
            engine.close()


def solver(round_: Round, deadline: Deadline) -> RoundSolver:
    return RoundSolver(round_, deadline)


def fewest_turns(round_: Round, deadline: Deadline, *, bounce_safe: bool = False, at_least: int = 1) -> PlanAnswer:
    engine = RoundSolver(round_, deadline)
    try:
        return run_steps(engine.fewest(bounce_safe=bounce_safe, at_least=at_least), deadline, PlanAnswer)
    finally:
        engine.close()


def pooled_turns(round_: Round, deadline: Deadline, *, at_most: int | None = None) -> PlanAnswer:
    engine = RoundSolver(round_, deadline)
    try:
        return run_steps(engine.pooled(at_most=at_most), deadline, PlanAnswer)
    finally:
        engine.close()


def second_plan(round_: Round, deadline: Deadline, first: PlanAnswer) -> SecondAnswer:
    engine = RoundSolver(round_, deadline)
    try:
        return run_steps(engine.second(first), deadline, SecondAnswer)
    finally:
        engine.close()
