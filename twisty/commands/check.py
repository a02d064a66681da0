"""`twisty check` and `twisty solve`: parse options, call the checker of each level's game, print."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from contextlib import closing
from dataclasses import replace
from functools import partial
from typing import Any

import click

from twisty.api import (
    check_contents,
    check_options,
    engines_help,
    level_files,
    lost_outcome,
    questions_help,
    read_contents,
    solve_file,
)
from twisty.batch import Lost, Tasks, map_tasks
from twisty.checking import FAILED, INVALID, MAX_SOLUTIONS, OK, UNKNOWN, UNSOLVABLE, CheckOptions
from twisty.commands.cluster import BatchProgress, cluster_options, where
from twisty.commands.common import EXIT_CODES_HELP, EXIT_FAILED, EXIT_INVALID, EXIT_OK, fail, timeout_option
from twisty.commands.registry import RegistryHelpOption
from twisty.errors import TwistyError, UsageError


def _engine_options(command: Callable[..., Any]) -> Callable[..., Any]:
    command = click.option(
        "--max-solutions",
        type=click.IntRange(1, MAX_SOLUTIONS),
        default=None,
        help="Count distinct solutions up to this many. Default: only as far as the level's claims need "
        "(passages: whether the level is unique, stopping at a second solution, which is shown; an [expect] "
        "solutions = N claim counts up to N).",
    )(command)
    command = click.option(
        "--questions",
        cls=RegistryHelpOption,
        default=None,
        metavar="LIST",
        help_of=lambda: (
            f"Comma-separated questions to answer (default: all). {questions_help()}. "
            "Counting solutions needs the best route, so it answers that too."
        ),
    )(command)
    command = timeout_option(
        "Seconds per level, covering everything: reading, every question, every "
        "engine and reading of the rules. When they run out, what is undecided is "
        "reported as unknown."
    )(command)
    command = click.option(
        "--engine",
        cls=RegistryHelpOption,
        default="auto",
        show_default=True,
        help_of=lambda: (
            f"Solver engine ({engines_help()}). auto picks the fastest available; a game "
            "without the engine named stays on auto."
        ),
    )(command)
    return command


def _options(engine: str, timeout: float | None, max_solutions: int | None, questions: str | None) -> CheckOptions:
    """The options of a run, read as the API reads them (twisty.api.check_options): --engine and --questions
    must name an engine or question of some game (a game that lacks the engine named stays on auto; each
    game answers the questions of its own named)."""
    return check_options(engine=engine, timeout=timeout, max_solutions=max_solutions, questions=questions)


@click.command(epilog=EXIT_CODES_HELP)
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="One JSON object per level, one per line.")
@_engine_options
@cluster_options
def check(
    paths: tuple[str, ...],
    as_json: bool,
    engine: str,
    timeout: float | None,
    questions: str | None,
    max_solutions: int | None,
    scheduler: str | None,
    workers: int | None,
) -> None:
    """Check level files (or folders, searched for *.toml): validity, verdict, and every [expect] claim.

    Every level is read within input limits (docs/limits.md): a file is at most 1 MiB, numbers lie
    within +-10^9, and anything else wrong is one message with its file, line and column.

    With --scheduler or --workers the levels are checked on a Dask cluster, each with its own --timeout;
    the lines printed are the same, in the same order (docs/cluster.md).
    """
    run_options = _options(engine, timeout, max_solutions, questions)
    place = where(scheduler, workers)
    counts = {status: 0 for status in (OK, FAILED, UNSOLVABLE, UNKNOWN, INVALID)}
    entries = list(level_files(paths))
    if not entries:
        fail(UsageError(f"no level files (*.toml) under {' '.join(paths)}"))
    progress = BatchProgress("levels", len(entries), label=lambda index: entries[index].path)
    if place.local and progress.terminal:
        run_options = replace(run_options, progress=progress.phase)
    batch = Tasks(
        partial(check_contents, options=run_options), map(read_contents, entries), "check", total=len(entries)
    )
    results = map_tasks(batch, place, progress)
    with closing(results):
        try:
            for entry, result in zip(entries, results, strict=True):
                outcome = lost_outcome(entry.path, result.reason) if isinstance(result, Lost) else result
                counts[outcome.status] += 1
                if as_json:
                    progress.echo(json.dumps(outcome.data, sort_keys=True))
                else:
                    progress.echo(outcome.summary)
                    for line in outcome.details:
                        progress.echo(f"    {line}")
        finally:
            progress.finish()
    if not as_json:
        click.echo(
            f"{len(entries)} levels: {counts[OK]} ok, {counts[FAILED]} failed expectations, "
            f"{counts[UNSOLVABLE]} unsolvable, {counts[UNKNOWN]} unknown, {counts[INVALID]} invalid"
        )
    if counts[INVALID]:
        sys.exit(EXIT_INVALID)
    sys.exit(EXIT_FAILED if counts[FAILED] + counts[UNSOLVABLE] + counts[UNKNOWN] else EXIT_OK)


def _status_line(path: str) -> Callable[[str], None] | None:
    """On a terminal, a line on stderr naming the question a level's check is working on (each can take
    minutes on a large level); nothing in a pipe or a log."""
    if not sys.stderr.isatty():
        return None

    def show(phase: str) -> None:
        click.echo(f"\r\033[K{path}: {phase}...", nl=False, err=True)

    return show


def _clear_status_line(status: Callable[[str], None] | None) -> None:
    if status is not None:
        click.echo("\r\033[K", nl=False, err=True)


@click.command(epilog=EXIT_CODES_HELP)
@click.argument("level", type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print the verdict and route as JSON.")
@_engine_options
def solve(
    level: str, as_json: bool, engine: str, timeout: float | None, questions: str | None, max_solutions: int | None
) -> None:
    """Solve one level and print the walkthrough with the map.

    Exits as `check` does: 0 when the level meets its [expect] claims (and is solvable unless it claims
    otherwise), 1 when it fails a claim, is unsolvable without claiming so, or is undecided within --timeout,
    2 for bad input.
    """
    options = replace(_options(engine, timeout, max_solutions, questions), progress=_status_line(level))
    try:
        try:
            outcome = solve_file(level, options)
        finally:
            _clear_status_line(options.progress)
    except TwistyError as error:
        fail(error)
    click.echo(json.dumps(outcome.data, sort_keys=True) if as_json else outcome.text)
    sys.exit(EXIT_OK if outcome.status == OK else EXIT_FAILED)
