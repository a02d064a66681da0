"""What a check is asked and what it answers, for every game: the outcome of a question, the options of
a check (and the checks of their values that the command line and the API share), what every game's
verdict carries, and the record a check of one level leaves for the command line.

Base layer: nothing here imports anything of twisty's but the errors, the limits and the registry, so every
layer may use it.
"""

from __future__ import annotations

import enum
import math
import numbers
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from twisty.errors import TwistyError, UsageError, did_you_mean
from twisty.games import GAMES
from twisty.limits import MAX_TIMEOUT, Deadline

# --max-solutions: counting further than this is not a question a designer asks.
MAX_SOLUTIONS = 1_000_000

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


class GameVerdict(Protocol):
    """What every game's verdict carries (PassagesVerdict, BookVerdict, TempleVerdict, and a new game's):
    the outcome, the status that `twisty check` prints and exits by, the [expect] claims that fail, the
    record of `twisty check --json`, and the lines `twisty check` prints. The record holds at least the keys
    RECORD_KEYS and the game's headline keys (its registry entry's `headline`); record_gaps says what one
    lacks. VerdictBase gives `solvable`, `status` and the repr from the rest."""

    @property
    def outcome(self) -> Outcome: ...

    @property
    def solvable(self) -> bool | None: ...

    @property
    def status(self) -> str: ...

    @property
    def expect_failures(self) -> tuple[str, ...]: ...

    def to_json(self) -> dict[str, Any]: ...

    def summary(self) -> str: ...

    def details(self) -> list[str]: ...


# The keys every verdict's record (`to_json()`, what `twisty check --json` prints) carries, beside its game's
# headline keys (the registry's `headline`): what the status, the summary word, the page's badge and the
# parity of the surfaces are read from.
RECORD_KEYS = (
    "level",
    "game",
    "name",
    "valid",
    "errors",
    "solvable",
    "questions",
    "expected_solvable",
    "expect_failures",
)


def record_gaps(data: dict[str, Any]) -> list[str]:
    """What a verdict's record lacks of the contract (RECORD_KEYS and the game's headline keys), or holds
    of the wrong kind; empty when it keeps the contract."""
    game = GAMES.get(data.get("game") or "")
    gaps = [f"no {key}" for key in (*RECORD_KEYS, *(game.headline if game else ())) if key not in data]
    if game is None:
        gaps.append(f"game {data.get('game')!r} is not in the registry")
    kinds = {
        "level": str,
        "name": str,
        "valid": bool,
        "errors": list,
        "questions": list,
        "expect_failures": list,
    }
    gaps += [
        f"{key} is not a {kind.__name__}"
        for key, kind in kinds.items()
        if key in data and not isinstance(data[key], kind)
    ]
    for key in ("solvable", "expected_solvable"):
        if data.get(key) not in (True, False, None):
            gaps.append(f"{key} is not true, false or null")
    if game is not None and isinstance(data.get("questions"), list):
        gaps += [
            f"question {name!r} is not {game.name}'s" for name in data["questions"] if name not in game.question_names
        ]
    return gaps


class VerdictBase:
    """What a verdict derives from its outcome and its record, the same for every game: a mixin for the game's
    frozen dataclass (`@dataclass(frozen=True, repr=False)`), which gives `outcome`, `to_json()`,
    `summary()`, `details()` and `expect_failures` (twisty.checking.GameVerdict)."""

    def __repr__(self: GameVerdict) -> str:  # game, name, status and headline answers, not the whole level
        return verdict_repr(self)

    @property
    def solvable(self: GameVerdict) -> bool | None:
        return self.outcome.solvable

    @property
    def status(self: GameVerdict) -> str:
        return level_status(self.to_json())


def headline_of(data: dict[str, Any]) -> dict[str, Any]:
    """The headline answers of a check's record: solvable and the game's headline keys (registry)."""
    game = GAMES.get(data.get("game") or "")
    keys = ("solvable", *(game.headline if game is not None else ()))
    return {key: data.get(key) for key in keys}


def verdict_repr(verdict: GameVerdict) -> str:
    """A verdict as the REPL shows it: its class, game, name, status and headline numbers (the whole
    level and route are in its fields and in to_json())."""
    data = verdict.to_json()
    fields = {"game": data.get("game"), "name": data.get("name"), "status": level_status(data)}
    fields |= headline_of(data)
    if data.get("expect_failures"):
        fields["expect_failures"] = len(data["expect_failures"])
    return f"{type(verdict).__name__}({', '.join(f'{key}={value!r}' for key, value in fields.items())})"


@dataclass(frozen=True, repr=False)
class UnloadedVerdict(VerdictBase):
    """The verdict on a level whose loading the deadline stopped (its loader polls it, as the passages loader
    does while it infers stats from a printed table): no model, so every answer is unknown, naming the cap.
    A GameVerdict of any game, for checkers that do not answer such a level themselves."""

    path: str
    game: str
    cap: str
    questions: frozenset[str] | None
    expected_solvable: bool | None
    seconds: float

    outcome = Outcome.UNKNOWN
    expect_failures: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        game = GAMES.get(self.game)
        asked = self.questions if self.questions is not None else game.question_names if game else ()
        data: dict[str, Any] = {
            "level": self.path,
            "game": self.game,
            "name": "",
            "valid": True,
            "errors": [],
            "solvable": None,
            "questions": sorted(asked),
            "expected_solvable": self.expected_solvable,
            "expect_failures": [],
            "limit": self.cap,
            "not_loaded": f"the level could not be loaded within the {self.cap}",
            "seconds": round(self.seconds, 3),
        }
        for key in game.headline if game else ():
            data[key] = None
        return data

    def summary(self) -> str:
        return f"{summary_start(self.to_json())}unknown: the level could not be loaded within the {self.cap}"

    def details(self) -> list[str]:
        return []


# Checks of argument values, shared by the command line (click types call them) and the API, so that both
# refuse the same values with the same message (a UsageError, exit 2 on the command line).


def seconds_or_none(value: Any, name: str = "timeout") -> float | None:
    """A time limit: None (no limit) or a positive, finite number of seconds, at most MAX_TIMEOUT. The
    message names the parameter (`name`; the command line's option names itself)."""
    if value is None:
        return None
    prefix = f"{name}: " if name else ""
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, str)):
        raise UsageError(f"{prefix}{_shown(value)} is not a number of seconds")
    try:
        seconds = float(value)
    except (TypeError, ValueError, OverflowError):
        raise UsageError(f"{prefix}{_shown(value)} is not a number of seconds") from None
    if not math.isfinite(seconds) or seconds <= 0 or seconds > MAX_TIMEOUT:
        raise UsageError(f"{prefix}{_shown(value)} is not a number of seconds above 0 and at most {MAX_TIMEOUT:g}")
    return seconds


def whole_number(value: Any, name: str, low: int | None = None, high: int | None = None) -> int:
    """A whole number within low..high (either end open when None); bools and fractions are refused."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise UsageError(f"{name} must be a whole number, got {_shown(value)}")
    number = int(value)
    if (low is not None and number < low) or (high is not None and number > high):
        if low is not None and high is not None:
            bounds = f"in {low}..{high}"
        else:
            bounds = f"at least {low}" if low is not None else f"at most {high}"
        raise UsageError(f"{name} must be {bounds}, got {number}")
    return number


def one_of(value: Any, name: str, choices: Iterable[str]) -> str:
    """One of the words `choices` (a did-you-mean for a near miss)."""
    known = list(choices)
    if not isinstance(value, str) or value not in known:
        hint = did_you_mean(value, known) if isinstance(value, str) else ""
        raise UsageError(f"{name} must be one of {', '.join(known)}, got {_shown(value)}{hint}")
    return value


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


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
    """What `check` says of one level: a JSON-ready record and a one-line summary for people, with the
    lines under it; in this process also the game's verdict (None when the level is invalid, or when the
    record came from another process), the level as loaded and the error that made it invalid."""

    data: dict[str, Any]
    summary: str
    details: list[str] = field(default_factory=list)
    verdict: GameVerdict | None = field(default=None, repr=False, compare=False)
    error: TwistyError | None = field(default=None, repr=False, compare=False)
    # The level as loaded (a twisty.Level), for a picture or an editor; None when it did not load.
    level: Any = field(default=None, repr=False, compare=False)

    @property
    def headline(self) -> dict[str, Any]:
        """The headline answers (solvable and the game's headline keys) of the record."""
        return headline_of(self.data)

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


def summary_start(data: dict[str, Any]) -> str:
    """How every summary line of `twisty check` starts: the status word, padded so that the paths line up,
    and the level's path; the game's answers follow (the page shows them alone as the headline)."""
    return f"{status_word(data):<11}{data.get('level')}: "


@dataclass
class SolveOutcome:
    """What `solve` says of one level: the record (as `check --json`) and the walkthrough for people."""

    data: dict[str, Any]
    text: str

    @property
    def status(self) -> str:
        return level_status(self.data)
