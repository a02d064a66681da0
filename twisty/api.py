"""The Python API (re-exported by the package, twisty/__init__.py), and the one check of a level that every
surface uses.

One verdict per level, whatever asks: `check_record` is the function that `twisty check` (each level, here or
on a cluster), `twisty.check` and the page call, with the same defaults: every question of the level's game,
solutions counted only as far as the level's claims need, engine "auto", and one deadline that covers
reading, loading and every question.

A level file names its game (`game = "..."`); the registry (twisty.games) names the game's checker, a
module with two functions (the engine contract, docs/contributing.md):

    check(level: Level, options: CheckOptions) -> verdict    (a twisty.checking.GameVerdict)
    solve_text(verdict) -> str                                (what `twisty solve` prints)

The verdict derives from twisty.checking.VerdictBase, its record (`to_json()`) carries RECORD_KEYS and the
game's headline keys, and its [expect] claims are compared by twisty.claims.Claims. A checker raises
`LevelError` for invalid input and `UsageError` when the engine asked for refuses the level (too large for
it, or a feature it does not answer); here that is an invalid record for that level alone. What a limit
stops is an unknown answer inside the verdict, never an exception. A level whose loading the deadline
stopped has no model (`level.stopped_by` names the cap): a checker that sets CHECKS_UNLOADED = True answers
it itself, any other gets an UnloadedVerdict (every answer unknown). Checkers are imported only when a
level of their game is met, so one game's heavy imports do not slow another's.

Every public function raises only the TwistyError kinds that docs/api.md names: a bad argument (a misspelt
parameter, a timeout that is not a positive finite number, a count that is not a whole number) is a
UsageError with the message the command line gives for the same value.
"""

from __future__ import annotations

import functools
import inspect
import os
import re
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from types import ModuleType
from typing import TYPE_CHECKING, Any, ParamSpec, TypeAlias, TypeVar, cast

from twisty.checking import (
    MAX_SOLUTIONS,
    CheckOptions,
    CheckOutcome,
    GameVerdict,
    Outcome,
    SolveOutcome,
    UnloadedVerdict,
    seconds_or_none,
    whole_number,
)
from twisty.errors import GenerationError, LevelError, TwistyError, UsageError, did_you_mean
from twisty.games import GAMES, Game, game_named, level_games, resolve
from twisty.limits import Deadline
from twisty.report.tunnels import Odds
from twisty.report.tunnels_params import odds_for
from twisty.rules.level import Level, level_of, level_within
from twisty.rules.source import LevelSource, parse_level_bytes, read_level, read_level_bytes

if TYPE_CHECKING:
    from twisty.report.book import BookVerdict
    from twisty.report.passages import PassagesVerdict
    from twisty.report.temple import TempleVerdict

# The verdict of one level: its game's verdict type (each a twisty.checking.GameVerdict).
Verdict: TypeAlias = "PassagesVerdict | BookVerdict | TempleVerdict"
# Anything that names a level: a path, TOML text, the bytes of a file, or a loaded Level.
LevelLike: TypeAlias = "str | os.PathLike[str] | bytes | Level"

Parameters = ParamSpec("Parameters")
Result = TypeVar("Result")


def _public(function: Callable[Parameters, Result]) -> Callable[Parameters, Result]:
    """A public function whose arguments that do not fit its signature (a misspelt or missing parameter)
    are a UsageError naming it, not Python's bare TypeError."""
    signature = inspect.signature(function)
    names = [name for name, parameter in signature.parameters.items() if parameter.kind is not parameter.VAR_KEYWORD]

    @functools.wraps(function)
    def checked(*args: Parameters.args, **kwargs: Parameters.kwargs) -> Result:
        try:
            signature.bind(*args, **kwargs)
        except TypeError as error:
            unknown = [key for key in kwargs if key not in signature.parameters]
            if unknown and not any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values()):
                raise UsageError(
                    f'{function.__name__}() takes no parameter "{unknown[0]}"{did_you_mean(unknown[0], names)} '
                    f"(it takes {', '.join(names)})"
                ) from None
            raise UsageError(f"{function.__name__}(): {str(error).partition('() ')[2] or error}") from None
        return function(*args, **kwargs)

    return checked


# Options, as the command line reads them. ------------------------------------------------------------------


def questions_help() -> str:
    return "; ".join(f"{game.name}: {', '.join(game.question_names)}" for game in level_games())


def engines_help() -> str:
    return "; ".join(f"{game.name}: auto, {', '.join(game.engine_names())}" for game in level_games())


def _question_names(questions: Iterable[str] | str | None) -> frozenset[str] | None:
    """Question names given as "a,b", ["a", "b"], "all" or None (None and "all": every question)."""
    if questions is None:
        return None
    if isinstance(questions, str):
        parts = questions.split(",")
    elif isinstance(questions, Iterable) and not isinstance(questions, (bytes, Mapping)):
        parts = list(questions)
        if not all(isinstance(part, str) for part in parts):
            raise UsageError(f"questions are names such as route or walk, not {parts!r:.60}")
    else:
        raise UsageError(f'questions are a list of names or "a,b", not {type(questions).__name__}')
    chosen = frozenset(part.strip() for part in parts if part.strip())
    return None if chosen in (frozenset(), frozenset({"all"})) else chosen


def check_options(
    *,
    questions: Iterable[str] | str | None = None,
    engine: str = "auto",
    timeout: float | None = None,
    max_solutions: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> CheckOptions:
    """The options of a check as `twisty check` reads them: an engine and questions that some game has
    (each game answers the questions of its own named, and a game without the engine named stays on
    auto), a timeout of positive finite seconds, a count of solutions from 1 to MAX_SOLUTIONS. A
    UsageError for anything else, with the command line's message."""
    seconds = seconds_or_none(timeout, "timeout")
    count = None if max_solutions is None else whole_number(max_solutions, "max_solutions", 1, MAX_SOLUTIONS)
    games = level_games()
    if not isinstance(engine, str):
        raise UsageError(f"engine is a name ({engines_help()}), not {type(engine).__name__}")
    if engine != "auto" and all(engine not in game.engine_names() for game in games):
        known = {name for game in games for name in game.engine_names()}
        raise UsageError(f'no engine "{engine}"{did_you_mean(engine, known)} ({engines_help()})')
    chosen = _question_names(questions)
    known_questions = {name for game in games for name in game.question_names}
    if chosen is not None and chosen - known_questions:
        unknown = sorted(chosen - known_questions)
        hint = did_you_mean(unknown[0], known_questions)
        raise UsageError(f"unknown question {', '.join(unknown)}{hint} ({questions_help()})")
    if progress is not None and not callable(progress):
        raise UsageError(f"progress is a function of one string (the phase), not {type(progress).__name__}")
    return CheckOptions(engine=engine, timeout=seconds, max_solutions=count, questions=chosen, progress=progress)


def _for_one_game(game: Game, options: CheckOptions) -> None:
    """A check of one level names its engine and questions for that level's game: an engine or question
    of another game is a UsageError here (the command line, checking many levels, lets each game take
    what is its own)."""
    if options.engine != "auto":
        game.engine(options.engine)
    if options.questions is not None and options.questions - set(game.question_names):
        unknown = sorted(options.questions - set(game.question_names))
        raise UsageError(
            f"{game.name} has no question {', '.join(unknown)}{did_you_mean(unknown[0], game.question_names)} "
            f"(questions: {', '.join(game.question_names)})"
        )


# Reading levels. --------------------------------------------------------------------------------------------

# TOML text rather than a path: more than one line, or a first key (a path holds neither `=` after a word).
_LOOKS_LIKE_TOML = re.compile(r"\s*[A-Za-z0-9_\"'-]+\s*=")


def level_source(level: str | os.PathLike[str] | bytes, name: str | None = None) -> LevelSource:
    """The parsed file of a level given as a path, as TOML text (a string holding a newline or starting
    with `key =`), or as a file's bytes; `name` names it in messages (default: the path, or "<text>")."""
    if isinstance(level, (bytes, bytearray)):
        return parse_level_bytes(bytes(level), name or "<text>")
    if isinstance(level, str) and ("\n" in level or _LOOKS_LIKE_TOML.match(level)):
        return parse_level_bytes(level.encode("utf-8", "surrogatepass"), name or "<text>")
    if isinstance(level, (str, os.PathLike)):
        path = os.fspath(level)
        if not isinstance(path, str) or not path or "\0" in path:
            raise UsageError(f"a level's path is a non-empty string without NUL characters, not {path!r:.60}")
        return parse_level_bytes(read_level_bytes(path), name or path)
    raise UsageError(f"a level is a path, TOML text, a file's bytes or a twisty.Level, not {type(level).__name__}")


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


# The one check of a level. -----------------------------------------------------------------------------------


def checker_for(source: LevelSource) -> ModuleType:
    game = GAMES.get(source.game)
    if game is None or game.checker is None:
        known = ", ".join(sorted(game.name for game in level_games()))
        raise source.error(f'unknown game "{source.game}" (games with level files: {known})', key="game")
    checker = resolve(game.checker)
    assert isinstance(checker, ModuleType)
    return checker


def invalid_outcome(
    path: str, error: LevelError, game: str | None = None, cause: TwistyError | None = None
) -> CheckOutcome:
    data = {"level": path, "game": game, "valid": False, "errors": [error.as_json()], "expect_failures": []}
    return CheckOutcome(data, f"{'INVALID':<11}{error}", error=cause or error)


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


def _record(level: LevelSource | Level, options: CheckOptions, path: str, started: float) -> CheckOutcome:
    """The record of one level (read and parsed, or loaded) checked by its game's checker with `options`,
    whose deadline was made before the level was read. Loading happens within that deadline; a level
    whose loading it stopped is checked as unknown."""
    return _checked(level, options, path, started)[1]


def _checked(
    level: LevelSource | Level, options: CheckOptions, path: str, started: float
) -> tuple[Level | None, CheckOutcome]:
    """The level as loaded (None when it did not load) and its record."""
    game = None
    loaded = None
    try:
        loaded = level if isinstance(level, Level) else level_within(level, options.deadline)
        game = loaded.game
        checker = checker_for(loaded.source)
        verdict: GameVerdict
        if loaded.stopped_by is not None and not getattr(checker, "CHECKS_UNLOADED", False):
            expected = loaded.source.data.get("expect")
            claimed = expected.get("solvable") if isinstance(expected, dict) else None
            verdict = UnloadedVerdict(
                path,
                game,
                loaded.stopped_by,
                options.questions,
                claimed if isinstance(claimed, bool) else None,
                time.perf_counter() - started,
            )
        else:
            verdict = checker.check(loaded, options)
    except LevelError as error:
        if error.path is None:
            error.path = path
        return loaded, invalid_outcome(path, error, game)
    except UsageError as error:  # an engine that refuses this level (too large for it): this level only
        return loaded, invalid_outcome(path, LevelError(str(error), path=path), game, cause=error)
    data = verdict.to_json()
    data.setdefault("seconds", round(time.perf_counter() - started, 3))
    return loaded, CheckOutcome(data, verdict.summary(), verdict.details(), verdict=verdict, level=loaded)


def check_contents(contents: LevelContents, options: CheckOptions) -> CheckOutcome:
    """`twisty check` of one level file, read before (at most MAX_LEVEL_BYTES of it), within one deadline
    made here as the check starts. A pure function of its arguments that returns the record alone, so
    that it runs the same in this process or on a worker."""
    started = time.perf_counter()
    options = replace(options, deadline=Deadline(options.timeout))
    if contents.raw is None:
        return invalid_outcome(contents.path, contents.error or LevelError("nothing was read", path=contents.path))
    try:
        source = parse_level_bytes(contents.raw, contents.path)
    except LevelError as error:
        return invalid_outcome(contents.path, error)
    return replace(_record(source, options, contents.path, started), verdict=None, error=None, level=None)


def check_file(path: str, options: CheckOptions) -> CheckOutcome:
    """Read and check one level file, as `twisty check` does."""
    return check_contents(read_contents(LevelFile(path)), options)


def check_record(
    level: LevelLike,
    *,
    name: str | None = None,
    questions: Iterable[str] | str | None = None,
    engine: str = "auto",
    timeout: float | None = None,
    max_solutions: int | None = None,
    progress: Callable[[str], None] | None = None,
    deadline: Deadline | None = None,
) -> CheckOutcome:
    """What `twisty check` says of one level, with the same defaults: `record.data` is the object `twisty
    check --json` prints, `record.status` its status (ok, failed, unsolvable, unknown, invalid),
    `record.summary` and `record.details` the lines it prints, `record.verdict` the game's verdict (None
    when the level is invalid) and `record.headline` the headline answers. The level is a path, TOML text,
    a file's bytes or a Level; `name` names it in messages (default: the path, or "<text>").

    Bad level input is an invalid record, never an exception; a UsageError is raised for bad arguments
    only (an engine or question the level's game does not have, a timeout that is not positive seconds).
    `deadline`, instead of `timeout`, is a twisty.limits.Deadline the caller made earlier (the page's one
    deadline for a whole view): reading, loading and every question share it. `record.level` is the level
    as loaded (None when it did not load)."""
    started = time.perf_counter()
    options = check_options(
        questions=questions, engine=engine, timeout=timeout, max_solutions=max_solutions, progress=progress
    )
    if name is not None and not isinstance(name, str):
        raise UsageError(f"name is a string, not {type(name).__name__}")
    if deadline is not None and (timeout is not None or not isinstance(deadline, Deadline)):
        raise UsageError("give a timeout in seconds or a twisty.limits.Deadline, not both")
    options = replace(options, deadline=deadline or Deadline(options.timeout))
    shown = name or (level.path if isinstance(level, Level) else "<text>")
    try:
        source = level if isinstance(level, Level) else level_source(level, name)
    except LevelError as error:
        return invalid_outcome(error.path or shown, error)
    shown = source.path
    game = GAMES.get(source.game)
    if game is not None:
        _for_one_game(game, options)
    return _record(source, options, shown, started)


def solve_file(path: str, options: CheckOptions) -> SolveOutcome:
    """`twisty solve` of one level file: the record and the walkthrough its game's checker writes; a
    LevelError for an invalid level."""
    started = time.perf_counter()
    options = replace(options, deadline=Deadline(options.timeout))
    source = read_level(path)
    record = _record(source, options, path, started)
    if record.verdict is None:
        assert record.error is not None
        raise record.error
    return SolveOutcome(record.data, checker_for(source).solve_text(record.verdict))


# The public API. -----------------------------------------------------------------------------------------------


@_public
def load(path_or_text: LevelLike, *, timeout: float | None = None) -> Level:
    """A level from a file path, TOML text or a file's bytes, loaded by its game's rules within the input
    limits (docs/limits.md) and within `timeout` seconds.

    Raises LevelError (with file, line and column) for anything invalid, LimitReached when the time runs
    out while loading, UsageError for an argument of the wrong kind."""
    seconds = seconds_or_none(timeout, "timeout")
    if isinstance(path_or_text, Level):
        return path_or_text
    deadline = Deadline(seconds)
    return level_of(level_source(path_or_text), deadline)


@_public
def check(
    level: LevelLike,
    *,
    questions: Iterable[str] | str | None = None,
    engine: str = "auto",
    timeout: float | None = None,
    max_solutions: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> Verdict:
    """The verdict on a level (a Level, a path, TOML text or a file's bytes), the one `twisty check` gives:
    every question of its game unless `questions` names some, answered by `engine` within `timeout`
    seconds, which cover everything, loading included; solutions counted as far as the level's claims need
    unless `max_solutions` says how far. The verdict is the game's (PassagesVerdict, BookVerdict,
    TempleVerdict): `outcome` is an Outcome, `status` what `twisty check` prints, `to_json()` what `twisty
    check --json` prints. What the time limit stops is unknown in the verdict, not an exception.

    Raises LevelError for an invalid level and UsageError for a bad argument."""
    record = check_record(
        level, questions=questions, engine=engine, timeout=timeout, max_solutions=max_solutions, progress=progress
    )
    if record.verdict is None:
        assert record.error is not None
        raise record.error
    return cast("Verdict", record.verdict)  # each game's verdict type is one of Verdict's


@_public
def solve(
    level: LevelLike,
    *,
    questions: Iterable[str] | str | None = None,
    engine: str = "auto",
    timeout: float | None = None,
    max_solutions: int | None = None,
    progress: Callable[[str], None] | None = None,
) -> Verdict:
    """The same verdict as check(): it carries the route (or walk, or plan) that `twisty solve` shows,
    and `solve_text(verdict)` of the game's checker is what `twisty solve` prints."""
    return check(
        level, questions=questions, engine=engine, timeout=timeout, max_solutions=max_solutions, progress=progress
    )


def _generator_params(entry: Game, params: Mapping[str, Any]) -> dict[str, Any]:
    """The generator parameters given, checked against the registry's list of them (names and kinds);
    values of None are left out (the generator's default)."""
    known = {param.name: param for param in entry.generator_params}
    chosen = {}
    for key, value in params.items():
        param = known.get(key)
        if param is None:
            raise UsageError(
                f'generate("{entry.name}") takes no parameter "{key}"{did_you_mean(key, known)} '
                f"(it takes {', '.join(known)})"
            )
        if value is not None:
            chosen[key] = param.checked(value)
    return chosen


@_public
def generate(game: str, *, seed: int = 1, timeout: float | None = None, engine: str = "auto", **params: Any) -> Any:
    """A new level of `game` for `seed` (the same parameters and seed give the same level), with its answer
    verified: the level is written as its file would be, read back, and checked by `engine` within what
    is left of `timeout` (`level.answer` holds that verdict; `level.source.text` the file). The parameters
    are the game's, as `twisty generate GAME` takes them (docs/api.md lists them; the registry's
    `generator_params`). Twisted Tunnels has no level files: its generator gives the monster whose exact
    odds come closest to a goal (a MonsterFound, with to_json()). Raises GenerationError when no level is
    found or the time runs out first, UsageError for a bad parameter."""
    if not isinstance(game, str):
        raise UsageError(f"game is a name ({', '.join(sorted(GAMES))}), not {type(game).__name__}")
    entry = game_named(game)
    seed = whole_number(seed, "seed", 0, None)
    seconds = seconds_or_none(timeout, "timeout")
    if not isinstance(engine, str):
        raise UsageError(f"engine is a name, not {type(engine).__name__}")
    if entry.generator is None:
        with_one = ", ".join(g.name for g in GAMES.values() if g.generator)
        raise UsageError(f"{game} has no generator (games with one: {with_one})")
    chosen = _generator_params(entry, params)
    deadline = Deadline(seconds)
    verifier = entry.chosen_engine(engine).load()
    made = resolve(entry.generator)(chosen, seed, deadline, verifier)
    if entry.loader is None:  # a game without level files: its generator's answer (tunnels: a MonsterFound)
        return made
    source = parse_level_bytes(made.text.encode("utf-8"), f"<generated {game} seed {seed}>")
    options = replace(check_options(engine=engine), deadline=deadline)
    level, record = _checked(source, options, source.path, time.perf_counter())
    if level is None or record.verdict is None:
        raise GenerationError(f"seed {seed}: the level made does not load: {record.error}")
    if record.verdict.outcome is Outcome.UNKNOWN or level.stopped_by is not None:
        raise GenerationError(f"seed {seed}: the time ran out while the level made was checked again")
    return replace(level, answer=record.verdict)


@_public
def odds(kind: str, **params: Any) -> Odds:
    """Exact Twisted Tunnels odds (twisty.report.tunnels.Odds: `result` exact, `to_json()` what `twisty odds
    --json` prints), with the keys the command line takes:

    - odds("save", rating=4, level=3) (or difficulty=D): a Saving Roll;
    - odds("clash", a=5, b=4, upper_hand="a", armour="b=2", flat_footed=None, luck=0, shield=False): one
      Clash of A dice against B (armour also as armour_a=, armour_b=);
    - odds("fight", delver="combat=4,con=12", monster="rating=10,dice=3", level=1, upper_hand=None,
      flat_footed=None, armour_use="absorb"): a whole fight; a fighter is also a mapping of the same keys.

    Raises UsageError for a parameter the command line would refuse, with its message."""
    return odds_for(kind, params)
