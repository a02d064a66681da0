"""What a check is asked and what it answers, for every game: the outcome of a question, the options of
a check, and the record a check of one level leaves for the command line.

Base layer: nothing here imports anything of twisty's but the limits, so every layer may use it.
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from twisty.games import GAMES
from twisty.limits import Deadline

# What a level's check came to, for the summary and the exit code (twisty.commands.common).
OK, FAILED, UNSOLVABLE, UNKNOWN, INVALID = "ok", "failed", "unsolvable", "unknown", "invalid"


class Outcome(enum.Enum):
    """The answer to "can it be won?": proved either way, or unknown (a limit stopped the work)."""

    SOLVABLE = "solvable"
    UNSOLVABLE = "unsolvable"
    UNKNOWN = "unknown"

    @classmethod
    def of(cls, solvable: bool | None) -> Outcome:
        return cls.UNKNOWN if solvable is None else cls.SOLVABLE if solvable else cls.UNSOLVABLE

    @property
    def solvable(self) -> bool | None:
        """True, False, or None when unknown."""
        return {Outcome.SOLVABLE: True, Outcome.UNSOLVABLE: False}.get(self)


@dataclass(frozen=True)
class CheckOptions:
    """How one level is checked. `questions`: the names of the questions to answer (None: every question
    the game knows; twisty.games lists them per game). `engine`: an engine name of the game's registry
    entry, or "auto". The deadline is the level's one deadline: loading, every question, every reading
    and every engine share it (the caller makes it before the level is read; a checker never makes its
    own)."""

    engine: str = "auto"
    timeout: float | None = None
    # How far to count distinct solutions; None: only as far as the level's claims need (uniqueness, and
    # an [expect] solutions = N or optimal_solutions = N claim counts up to N).
    max_solutions: int | None = None
    questions: frozenset[str] | None = None
    # Told the name of each phase of a long answer as it starts ("best route", ...), for a status line.
    progress: Callable[[str], None] | None = None
    deadline: Deadline = field(default_factory=Deadline)

    def asks(self, question: str) -> bool:
        return self.questions is None or question in self.questions

    def tell(self, phase: str) -> None:
        if self.progress is not None:
            self.progress(phase)


@dataclass
class CheckOutcome:
    """What `check` says of one level: a JSON-ready record and a one-line summary for people."""

    data: dict[str, Any]
    summary: str
    details: list[str] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return bool(self.data.get("valid"))

    @property
    def expectations_met(self) -> bool:
        return not self.data.get("expect_failures")

    @property
    def status(self) -> str:
        return level_status(self.data)


def level_status(data: dict[str, Any]) -> str:
    """What a check's record comes to: ok; failed (an [expect] claim fails); unsolvable or unknown when
    whether it can be won was asked and no claim says so (or the level was never checked); or invalid."""
    if data.get("not_checked"):
        return UNKNOWN
    if not data.get("valid"):
        return INVALID
    if data.get("expect_failures"):
        return FAILED
    game = GAMES.get(data.get("game") or "")
    asked = data.get("questions")
    if game is not None and asked is not None and not game.solving & set(asked):
        return OK  # whether it can be won was not asked
    solvable = data.get("solvable")
    if solvable is None:
        return UNKNOWN
    if solvable is False and data.get("expected_solvable") is not False:
        return UNSOLVABLE
    return OK


def status_word(data: dict[str, Any]) -> str:
    """The status as the first word of a summary line: ok in lower case, anything else shouted."""
    status = level_status(data)
    return status if status == OK else status.upper()


@dataclass
class SolveOutcome:
    data: dict[str, Any]
    text: str
