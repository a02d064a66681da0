"""Which game a level file belongs to, and the check run over many files.

A level file names its game (`game = "passages"`). Each game has a handler module with two functions:

    check(source: LevelSource, options: CheckOptions) -> CheckOutcome
    solve(source: LevelSource, options: CheckOptions) -> SolveOutcome

A handler raises `LevelError` for invalid input and nothing else; the run below turns that into an invalid
report. Handlers are imported only when a level of their game is met, so one game's heavy imports do not
slow another's.
"""

from __future__ import annotations

import importlib
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from twisty.limits import Deadline
from twisty.rules.source import LevelError, LevelSource, read_level

GAME_HANDLERS = {
    "passages": "twisty.solver.passages_check",
    "book": "twisty.solver.book_check",
}

ENGINES = ("auto", "cpsat", "search", "brute")


@dataclass(frozen=True)
class CheckOptions:
    engine: str = "auto"
    timeout: float | None = None
    max_solutions: int = 10
    # Told the name of each phase of a long answer as it starts ("best route", ...), for a status line.
    progress: Callable[[str], None] | None = None
    # The one deadline of the level being checked, made before it is read: loading, every question, every
    # reading and every engine share it (check_file and solve_file set it; a handler never makes its own).
    deadline: Deadline = field(default_factory=Deadline)


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


@dataclass
class SolveOutcome:
    data: dict[str, Any]
    text: str


def handler_for(source: LevelSource):
    module = GAME_HANDLERS.get(source.game)
    if module is None:
        known = ", ".join(sorted(GAME_HANDLERS))
        raise source.error(f'unknown game "{source.game}" (known games: {known})', key="game")
    return importlib.import_module(module)


def level_files(paths: Iterable[str]) -> Iterator[str]:
    """The level files named: files as given, folders searched recursively for *.toml in sorted order."""
    for given in paths:
        path = Path(given)
        if path.is_dir():
            for found in sorted(path.rglob("*.toml")):
                yield str(found)
        else:
            yield given


def invalid_outcome(path: str, error: LevelError, game: str | None = None) -> CheckOutcome:
    data = {"level": path, "game": game, "valid": False, "errors": [error.as_json()],
            "expect_failures": []}
    return CheckOutcome(data, f"INVALID  {error}")


def check_file(path: str, options: CheckOptions) -> CheckOutcome:
    started = time.perf_counter()
    options = replace(options, deadline=Deadline(options.timeout))
    game = None
    try:
        source = read_level(path)
        game = source.game
        outcome = handler_for(source).check(source, options)
    except LevelError as error:
        if error.path is None:
            error.path = path
        return invalid_outcome(path, error, game)
    outcome.data.setdefault("seconds", round(time.perf_counter() - started, 3))
    return outcome


def solve_file(path: str, options: CheckOptions) -> SolveOutcome:
    options = replace(options, deadline=Deadline(options.timeout))
    source = read_level(path)
    return handler_for(source).solve(source, options)
