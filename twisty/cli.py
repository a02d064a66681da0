"""The `twisty` command line: parse options, call the library, print. No game logic lives here."""

from __future__ import annotations

import importlib
import json
import sys
from dataclasses import replace
from typing import Callable

import click

from twisty import __version__
from twisty.games import ENGINES, CheckOptions, check_file, level_files, solve_file
from twisty.rules.source import LevelError

# Exit codes shared by every command.
EXIT_OK, EXIT_FAILED, EXIT_INVALID = 0, 1, 2


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="twisty")
def main() -> None:
    """Verify, solve and generate dungeon puzzle levels with constraint solvers.

    Levels are TOML files; the `game` key picks the rules (passages, book).
    """


def _engine_options(command):
    command = click.option("--max-solutions", type=click.IntRange(1), default=10, show_default=True,
                           help="Stop counting distinct solutions at this many.")(command)
    command = click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=None,
                           help="Seconds per level; when it runs out the answer is 'unknown'.")(command)
    command = click.option("--engine", type=click.Choice(ENGINES), default="auto", show_default=True,
                           help="Solver engine: auto picks by level features; brute is the reference enumeration (tiny levels only).")(command)
    return command


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="One JSON object per level, one per line.")
@_engine_options
def check(paths: tuple[str, ...], as_json: bool, engine: str, timeout: float | None,
          max_solutions: int) -> None:
    """Check level files (or folders of *.toml): validity, verdict, and every [expect] claim.

    Exit 0 when every level is valid and meets its expectations, 1 when an expectation fails,
    2 when any input is invalid.
    """
    options = CheckOptions(engine=engine, timeout=timeout, max_solutions=max_solutions)
    counts = {"ok": 0, "failed": 0, "invalid": 0}
    files = list(level_files(paths))
    if not files:
        click.echo(f"twisty: no level files (*.toml) under {' '.join(paths)}", err=True)
        sys.exit(EXIT_INVALID)
    for path in files:
        status = _status_line(path)
        try:
            outcome = check_file(path, replace(options, progress=status))
        finally:
            _clear_status_line(status)
        if not outcome.valid:
            counts["invalid"] += 1
        elif not outcome.expectations_met:
            counts["failed"] += 1
        else:
            counts["ok"] += 1
        if as_json:
            click.echo(json.dumps(outcome.data, sort_keys=True))
        else:
            click.echo(outcome.summary)
            for line in outcome.details:
                click.echo(f"    {line}")
    if not as_json:
        click.echo(f"{len(files)} levels: {counts['ok']} ok, {counts['failed']} failed expectations, "
                   f"{counts['invalid']} invalid")
    if counts["invalid"]:
        sys.exit(EXIT_INVALID)
    sys.exit(EXIT_FAILED if counts["failed"] else EXIT_OK)


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


@main.command()
@click.argument("level", type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print the verdict and route as JSON.")
@_engine_options
def solve(level: str, as_json: bool, engine: str, timeout: float | None, max_solutions: int) -> None:
    """Solve one level and print the walkthrough with the map."""
    options = CheckOptions(engine=engine, timeout=timeout, max_solutions=max_solutions,
                           progress=_status_line(level))
    try:
        try:
            outcome = solve_file(level, options)
        finally:
            _clear_status_line(options.progress)
    except LevelError as error:
        fail_invalid(error)
    click.echo(json.dumps(outcome.data, sort_keys=True) if as_json else outcome.text)


@main.group()
def generate() -> None:
    """Generate new levels (each one verified before it is written)."""


@main.group()
def bench() -> None:
    """Run the benchmark suites: engines against baselines, as tables or JSON."""


def fail_invalid(error: LevelError) -> None:
    """One clear message for bad input, exit code 2, never a traceback."""
    click.echo(f"twisty: {error}", err=True)
    sys.exit(EXIT_INVALID)


# Commands of other areas register themselves on `main`, `generate` or `bench` when imported.
COMMAND_MODULES: list[str] = [
    "twisty.commands.odds",
    "twisty.commands.book",
    "twisty.commands.bench_passages",
    "twisty.commands.generate_passages",
]

for _module in COMMAND_MODULES:
    importlib.import_module(_module)
