"""The Temple Twist portfolio engine: the search engine and the SAT engine run in turn on each question, and
the first proof counts.

Neither engine is the faster everywhere (docs/bench-temple.md): the search walks the states one by one and
wins where there are few (short plans, turning cards), the SAT engine reasons about the turns all at once and
wins on long plans and proofs that no plan exists. A question's steps run in slices (the engines pause after
a few milliseconds of work). The search runs alone for its first SEARCH_HEAD_START seconds of the round: most
rounds are answered within them, and the SAT engine's formula would cost more than the whole answer. After
that the next slice goes to the engine that is behind its share of the processor time, the search's share
SEARCH_SHARE times the SAT engine's (the search wins on most rounds of the bench's family, and where the SAT
engine wins the search has a state space too big for the plain breadth-first search too), or half the SAT
engine's on big temples with few cards, where the SAT engine wins more often (search_share). So the race costs
at most about (1 + 1 / SEARCH_SHARE) times the search, or SEARCH_SHARE + 1 times the SAT engine plus the
head start, and the slower engine is never waited for.

Both engines keep what they learn across the questions of a round (the SAT engine its formula and learnt
clauses, the search its tables), and the portfolio passes what a question proved (the fewest turns) to the
next, whichever engine proved it.
"""

from __future__ import annotations

import math
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
    ask_once,
)

NAME = "race"
AVAILABLE = True
ENGINES = (temple_search, temple_sat)
# Processor seconds of a round the search runs alone, and its share of the time after that (docs/bench-temple.md:
# measured on the bench's random family against the plain breadth-first search).
SEARCH_HEAD_START = 0.05
SEARCH_SHARE = 2.0
# Big temples with few cards: the SAT engine's share is twice the search's there. Measured on the bench's
# 200 rounds (docs/bench-temple.md, "The share of the race"): of the rounds of at most 4 seats where the
# faster engine answers within 1 s and `auto` did not, most are of this shape with the SAT engine the faster
# (the search's states grow with the walls a big temple can hold, the SAT engine's formula with the cards).
SAT_SHAPE_ROOMS, SAT_SHAPE_CARDS, SAT_SHAPE_SHARE = 24, 10, 0.5


def search_share(round_: Round) -> float:
    """The search's share of the processor time after its head start, by the round's shape."""
    if round_.temple.room_count >= SAT_SHAPE_ROOMS and round_.card_total() <= SAT_SHAPE_CARDS:
        return SAT_SHAPE_SHARE
    return SEARCH_SHARE


class RoundSolver:
    """Both engines on one round. `provers` names, per question asked so far, the engine whose proof counted."""

    def __init__(self, round_: Round, deadline: Deadline) -> None:
        self.engines: list[tuple[str, Any]] = [(module.NAME, module.solver(round_, deadline)) for module in ENGINES]
        self.spent = {name: 0.0 for name, _ in self.engines}
        self.share = search_share(round_)
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
        """The first answer that is not unknown; each slice to the engine furthest behind its share of the time
        (over the round, so that an engine behind on one question catches up on the next)."""
        # An engine's steps are made when it first gets a slice: most rounds end in the search's head start.
        running: list[tuple[str, Any, Generator[None, None, Answer] | None]] = [
            (name, engine, None) for name, engine in self.engines
        ]
        unknown: Answer | None = None
        try:
            while running:
                index = min(range(len(running)), key=lambda at: self._counted(running[at][0]))
                name, engine, steps = running[index]
                if steps is None:
                    steps = steps_of(engine)
                    running[index] = (name, engine, steps)
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
            for _, _, made in running:
                if made is not None:
                    made.close()
        assert unknown is not None
        return unknown

    def _counted(self, name: str) -> float:
        """The time counted against an engine's share: the search's head start is free, and its share larger."""
        searched = self.spent[temple_search.NAME]
        if name == temple_search.NAME:
            return max(0.0, searched - SEARCH_HEAD_START) / self.share
        return self.spent[name] if searched >= SEARCH_HEAD_START else math.inf

    def close(self) -> None:
        for _, engine in self.engines:
            engine.close()


def solver(round_: Round, deadline: Deadline) -> RoundSolver:
    return RoundSolver(round_, deadline)


def fewest_turns(round_: Round, deadline: Deadline, *, bounce_safe: bool = False, at_least: int = 1) -> PlanAnswer:
    engine = RoundSolver(round_, deadline)
    return ask_once(engine, engine.fewest(bounce_safe=bounce_safe, at_least=at_least), deadline, PlanAnswer)


def pooled_turns(round_: Round, deadline: Deadline, *, at_most: int | None = None) -> PlanAnswer:
    engine = RoundSolver(round_, deadline)
    return ask_once(engine, engine.pooled(at_most=at_most), deadline, PlanAnswer)


def second_plan(round_: Round, deadline: Deadline, first: PlanAnswer) -> SecondAnswer:
    engine = RoundSolver(round_, deadline)
    return ask_once(engine, engine.second(first), deadline, SecondAnswer)
