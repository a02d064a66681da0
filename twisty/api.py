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
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType
from typing import Any

from twisty.checking import CheckOptions, CheckOutcome, SolveOutcome
from twisty.errors import LevelError, UsageError
from twisty.games import GAMES, game_named, level_games, resolve
from twisty.limits import Deadline
from twisty.report import tunnels
from twisty.rules.level import Level, level_within, load_level
from twisty.rules.source import LevelSource, parse_level_bytes, read_level, read_level_bytes
from twisty.rules.tunnels import ClashSide, Delver, FightRules, Monster


def checker_for(source: LevelSource) -> ModuleType:
    game = GAMES.get(source.game)
    if game is None or game.checker is None:
        known = ", ".join(sorted(game.name for game in level_games()))
        raise source.error(f'unknown game "{source.game}" (games with level files: {known})', key="game")
    checker = resolve(game.checker)
    assert isinstance(checker, ModuleType)
    return checker


def _run_checker(source: LevelSource, options: CheckOptions) -> tuple[ModuleType, Any]:
    """The game's checker and its verdict on the level (loading included, within options.deadline)."""
    checker = checker_for(source)
    return checker, checker.check(level_within(source, options.deadline), options)


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

        def unreadable(error: OSError, found: list[LevelFile] = found, given: str = given) -> None:
            folder = error.filename or given
            found.append(
                LevelFile(
                    str(folder), LevelError(f"cannot read the folder: {error.strerror or error}", path=str(folder))
                )
            )

        for folder, subfolders, names in os.walk(given, onerror=unreadable):
            subfolders.sort()
            found.extend(LevelFile(os.path.join(folder, name)) for name in names if name.endswith(".toml"))
        yield from sorted(found, key=lambda entry: entry.path)


def invalid_outcome(path: str, error: LevelError, game: str | None = None) -> CheckOutcome:
    data = {"level": path, "game": game, "valid": False, "errors": [error.as_json()], "expect_failures": []}
    return CheckOutcome(data, f"{'INVALID':<11}{error}")


@dataclass(frozen=True)
class LevelContents:
    """A level file as its check receives it: the path as given (for messages and the JSON record) and
    the file's bytes, or the error that reading it gave. A check task gets contents, never a path to open,
    so that workers on other machines need no shared disk."""

    path: str
    raw: bytes | None = None
    error: LevelError | None = None


def read_contents(entry: LevelFile) -> LevelContents:
    """The contents of a level file, read here (at most MAX_LEVEL_BYTES, regular files only)."""
    if entry.error is not None:
        return LevelContents(entry.path, error=entry.error)
    try:
        return LevelContents(entry.path, read_level_bytes(entry.path))
    except LevelError as error:
        return LevelContents(entry.path, error=error)


def check_contents(contents: LevelContents, options: CheckOptions) -> CheckOutcome:
    """Check one level within one deadline, made here as the check starts: parsing, loading and every
    question share it (the file was read before, at most MAX_LEVEL_BYTES of it). A pure function of its
    arguments, so that it runs the same in this process or on a worker."""
    started = time.perf_counter()
    options = replace(options, deadline=Deadline(options.timeout))
    path = contents.path
    game = None
    try:
        if contents.raw is None:
            raise contents.error or LevelError("nothing was read", path=path)
        source = parse_level_bytes(contents.raw, path)
        game = source.game
        _, verdict = _run_checker(source, options)
        outcome = CheckOutcome(verdict.to_json(), verdict.summary(), verdict.details())
    except LevelError as error:
        if error.path is None:
            error.path = path
        return invalid_outcome(path, error, game)
    except UsageError as error:  # an engine that refuses this level (too large for it): this level only
        return invalid_outcome(path, LevelError(str(error), path=path), game)
    outcome.data.setdefault("seconds", round(time.perf_counter() - started, 3))
    return outcome


def lost_outcome(path: str, reason: str) -> CheckOutcome:
    """The record of a level that was never checked (the cluster lost it): unknown, with the reason."""
    data: dict[str, Any] = {
        "level": path,
        "game": None,
        "valid": None,
        "not_checked": reason,
        "errors": [],
        "expect_failures": [],
    }
    return CheckOutcome(data, f"{'UNKNOWN':<11}{path}: not checked: {reason}")


def check_file(path: str, options: CheckOptions) -> CheckOutcome:
    """Read and check one level file."""
    return check_entry(LevelFile(path), options)


def check_entry(entry: LevelFile, options: CheckOptions) -> CheckOutcome:
    return check_contents(read_contents(entry), options)


def solve_file(path: str, options: CheckOptions) -> SolveOutcome:
    options = replace(options, deadline=Deadline(options.timeout))
    source = read_level(path)
    checker, verdict = _run_checker(source, options)
    return SolveOutcome(verdict.to_json(), checker.solve_text(verdict))


# The public API (re-exported by the package, twisty/__init__.py). -----------------------------------------


def load(path_or_text: str | Path | Level, *, timeout: float | None = None) -> Level:
    """A level from a file path or from TOML text, loaded by its game's rules within the input limits.

    Raises LevelError (with file, line and column) for anything invalid."""
    if isinstance(path_or_text, Level):
        return path_or_text
    return load_level(path_or_text, Deadline(timeout))


def check(
    level: str | Path | Level,
    *,
    questions: Iterable[str] | str | None = None,
    engine: str = "auto",
    timeout: float | None = None,
    max_solutions: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> Any:
    """The verdict on a level (a Level, a path or TOML text): every question of its game unless
    `questions` names some, answered by `engine` within `timeout` seconds, which cover everything,
    loading included. The verdict is the game's (twisty.report.passages.PassagesVerdict, ...): its
    `outcome` is an Outcome, and `to_json()` gives what `twisty check --json` prints."""
    deadline = Deadline(timeout)
    loaded = path_or_text_level(level, deadline)
    game = game_named(loaded.game)
    if engine != "auto":
        game.engine(engine)  # a UsageError naming the game's engines
    options = CheckOptions(
        engine=engine,
        timeout=timeout,
        max_solutions=max_solutions,
        questions=game.parse_questions(
            questions if isinstance(questions, str) or questions is None else ",".join(questions)
        ),
        progress=progress,
        deadline=deadline,
    )
    checker = resolve(game.checker) if game.checker else None
    if checker is None or not hasattr(checker, "solve_text"):
        raise UsageError(f"the {game.name} game has no checker with verdicts yet")
    return checker.check(loaded, options)


def solve(level: str | Path | Level, **options: Any) -> Any:
    """Like check(), and the verdict carries the route (or walk, or plan) to show; `solve_text(verdict)`
    of the game's checker is what `twisty solve` prints."""
    return check(level, **options)


def path_or_text_level(level: str | Path | Level, deadline: Deadline) -> Level:
    if isinstance(level, Level):
        return level
    return load_level(level, deadline)


def generate(game: str, *, seed: int = 1, timeout: float | None = None, engine: str = "auto", **params: Any) -> Level:
    """A new level of `game` for `seed` (the same parameters and seed give the same level), with its answer
    verified: the level is written as its file would be, read back, and checked by `engine` within what
    is left of `timeout` (`level.answer` holds that verdict; `level.source.text` the file). Parameters are
    the game's (passages: width, height or size="WxH", blockers, difficulty). Raises GenerationError when
    no level is found or the time runs out first."""
    entry = game_named(game)
    if entry.generator is None or entry.loader is None:
        raise UsageError(
            f"{game} has no level generator (games with one: "
            f"{', '.join(g.name for g in GAMES.values() if g.generator and g.loader)})"
        )
    deadline = Deadline(timeout)
    made = resolve(entry.generator)(params, seed, deadline, entry.chosen_engine(engine).load())
    level = load_level(made.text, deadline)
    level = replace(level, path=f"<generated {game} seed {seed}>")
    answer = check(level, engine=engine, timeout=deadline.remaining() if timeout is not None else None)
    return replace(level, answer=answer)


def odds(kind: str, **params: Any) -> Any:
    """Exact Twisted Tunnels odds (twisty.report.tunnels.Odds, with to_json()):

    - odds("save", rating=4, level=3) (or difficulty=D): a Saving Roll;
    - odds("clash", a=5, b=4, upper_hand="a", armour_b=2, flat_footed=None, luck=0, shield=False): one
      Clash of A dice against B;
    - odds("fight", delver=dict(combat=4, constitution=12), monster=dict(rating=10, dice=3), level=1,
      upper_hand=None, flat_footed=None, armour_use="absorb"): a whole fight.
    """

    def take(*names: str) -> dict[str, Any]:
        return {name: params.pop(name) for name in names if name in params}

    if kind == "save":
        chosen = take("rating", "level", "difficulty")
        if "rating" not in chosen:
            raise UsageError('odds("save") needs rating=')
        result = tunnels.save_odds(**chosen)
    elif kind == "clash":
        chosen = take("a", "b", "upper_hand", "armour_a", "armour_b", "flat_footed", "luck", "shield")
        if "a" not in chosen or "b" not in chosen:
            raise UsageError('odds("clash") needs a= and b= (the dice of each side)')
        upper, flat = chosen.get("upper_hand"), chosen.get("flat_footed")
        sides = [
            ClashSide(
                dice=chosen[name],
                upper_hand=upper == name,
                flat_footed=flat == name,
                luck=chosen.get("luck", 0) if flat == name else 0,
                shield=bool(chosen.get("shield")) and flat == name,
                armour=chosen.get(f"armour_{name}", 0),
            )
            for name in ("a", "b")
        ]
        result = tunnels.clash_odds(*sides)
    elif kind == "fight":
        chosen = take("delver", "monster", "level", "difficulty", "upper_hand", "flat_footed", "armour_use")
        if "delver" not in chosen or "monster" not in chosen:
            raise UsageError('odds("fight") needs delver= and monster=')
        delver, monster = chosen["delver"], chosen["monster"]
        delver = delver if isinstance(delver, Delver) else Delver(**delver)
        monster = monster if isinstance(monster, Monster) else Monster(**monster)
        rules = FightRules(
            difficulty=tunnels.difficulty_of(chosen.get("level"), chosen.get("difficulty"), 1),
            upper_hand=chosen.get("upper_hand"),
            flat_footed=chosen.get("flat_footed"),
            armour_use=chosen.get("armour_use", "absorb"),
        )
        result = tunnels.fight_odds(delver, monster, rules)
    else:
        raise UsageError(f'no odds of kind "{kind}" (kinds: save, clash, fight)')
    if params:
        raise UsageError(f"odds({kind!r}) takes no {', '.join(sorted(params))}")
    return result
