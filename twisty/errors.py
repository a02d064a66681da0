"""Every error twisty raises on purpose, under one base class.

The command line maps them to exit codes in one place (twisty.cli): `LevelError` and `UsageError` are bad
input (exit 2), `EngineBug` is a fault of ours (exit 3, with a request to report it). `LimitReached` never
reaches a user as an error: an engine or a walk that runs into a cap turns it into an "unknown" answer
that names the cap. Nothing here imports anything of twisty's, so every layer may use it.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import Any


class TwistyError(Exception):
    """The base of every error twisty raises on purpose."""


class LevelError(TwistyError):
    """A problem with a level file, positioned where possible (line and column count from 1)."""

    def __init__(
        self, message: str, *, path: str | None = None, line: int | None = None, column: int | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line
        self.column = column

    def located(self) -> str:
        parts = [self.path or "<level>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)

    def __str__(self) -> str:
        return f"{self.located()}: {self.message}"

    def as_json(self) -> dict[str, Any]:
        return {"line": self.line, "column": self.column, "message": self.message}


class UsageError(TwistyError):
    """A call that cannot be answered as asked: an unknown engine or question, parameters out of range."""


class LimitReached(TwistyError):
    """A search ran into one of its caps (time, memory, a count of states): what it has not decided is
    unknown. `cap` names the cap for the message ("time limit", "2,000,000 walkers", ...)."""

    def __init__(self, cap: str) -> None:
        super().__init__(f"{cap} reached")
        self.cap = cap


class EngineBug(TwistyError):
    """An engine reported something the plain rules refute. Never printed as an answer."""


class GenerationError(TwistyError):
    """A generator could not make a level with the parameters and seed given."""


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """' (did you mean "x"?)' when one of `choices` is close to `word`, else "": for messages about a name
    that is not known (a key, a parameter, a code, a rule)."""
    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    return f' (did you mean "{close[0]}"?)' if close else ""
