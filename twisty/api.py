"""Checking level files: which game a file belongs to, the check of one file within its one deadline, and
the files a command names.

A level file names its game (`game = "passages"`); the registry (twisty.games) gives the game's checker,
a module with two functions:

    check(source: LevelSource, options: CheckOptions) -> CheckOutcome
    solve(source: LevelSource, options: CheckOptions) -> SolveOutcome

A checker raises `LevelError` for invalid input and nothing else; the run below turns that into an invalid
report. Checkers are imported only when a level of their game is met, so one game's heavy imports do not
slow another's.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, replace
from types import ModuleType
from typing import Iterable, Iterator

from twisty.checking import CheckOptions, CheckOutcome, SolveOutcome, level_status
from twisty.errors import LevelError
from twisty.games import GAMES, level_games, resolve
from twisty.limits import Deadline
from twisty.rules.source import LevelSource, read_level

def checker_for(source: LevelSource) -> ModuleType:
    game = GAMES.get(source.game)
    if game is None or game.checker is None:
        known = ", ".join(sorted(game.name for game in level_games()))
        raise source.error(f'unknown game "{source.game}" (games with level files: {known})', key="game")
    checker = resolve(game.checker)
    assert isinstance(checker, ModuleType)
    return checker


@dataclass(frozen=True)
class LevelFile:
    """A file a command will read, or a folder it could not read (with the error to report for it)."""

    path: str
    error: LevelError | None = None


def level_files(paths: Iterable[str]) -> Iterator[LevelFile]:
    """The level files named: files as given, folders searched recursively for *.toml in sorted order.

    Nothing is skipped without a word: a folder that cannot be read, or a name that does not exist, is
    reported as an invalid entry. Entries named *.toml that are not regular files (a FIFO, a device) are
    listed too, and reading refuses them with a clear message. Symbolic links to folders are not
    followed, so a link cycle cannot make the walk endless."""
    for given in paths:
        if not os.path.isdir(given):
            yield LevelFile(given)
            continue
        found: list[LevelFile] = []

        def unreadable(error: OSError, found: list[LevelFile] = found) -> None:
            folder = error.filename or given
            found.append(LevelFile(str(folder), LevelError(
                f"cannot read the folder: {error.strerror or error}", path=str(folder))))

        for folder, subfolders, names in os.walk(given, onerror=unreadable):
            subfolders.sort()
            found.extend(LevelFile(os.path.join(folder, name)) for name in names if name.endswith(".toml"))
        yield from sorted(found, key=lambda entry: entry.path)


def invalid_outcome(path: str, error: LevelError, game: str | None = None) -> CheckOutcome:
    data = {"level": path, "game": game, "valid": False, "errors": [error.as_json()],
            "expect_failures": []}
    return CheckOutcome(data, f"INVALID  {error}")


def check_file(path: str, options: CheckOptions) -> CheckOutcome:
    """Read and check one level within one deadline (made here, before the file is read)."""
    started = time.perf_counter()
    options = replace(options, deadline=Deadline(options.timeout))
    game = None
    try:
        source = read_level(path)
        game = source.game
        outcome: CheckOutcome = checker_for(source).check(source, options)
    except LevelError as error:
        if error.path is None:
            error.path = path
        return invalid_outcome(path, error, game)
    outcome.data.setdefault("seconds", round(time.perf_counter() - started, 3))
    return outcome


def check_entry(entry: LevelFile, options: CheckOptions) -> CheckOutcome:
    if entry.error is not None:
        return invalid_outcome(entry.path, entry.error)
    return check_file(entry.path, options)


def solve_file(path: str, options: CheckOptions) -> SolveOutcome:
    options = replace(options, deadline=Deadline(options.timeout))
    source = read_level(path)
    outcome: SolveOutcome = checker_for(source).solve(source, options)
    return outcome
