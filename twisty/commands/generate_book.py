"""`twisty generate book`: books whose only walk is a corridor, each teaching the rules named.

Parse options, call twisty.generator.book, write files (as twisty.commands.writing writes them: an
interrupted run leaves only complete books, and nothing is replaced without --force).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from typing import Any

import click

from twisty.batch import interrupts_held
from twisty.commands.common import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, timeout_option
from twisty.commands.writing import (
    batch_output_options,
    file_mode,
    prepare_output,
    require_folder_for_several,
    write_atomically,
)
from twisty.encodings.book_circuit import BACKENDS, PYSAT
from twisty.errors import GenerationError, LimitReached, UsageError
from twisty.games import GAMES
from twisty.generator.book import GeneratedBook, generate_book
from twisty.generator.book_families import family_names
from twisty.generator.book_params import BookParams, parse_rules, parse_size
from twisty.limits import Deadline

GAME = GAMES["book"]


def solver_options(what: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """--solver (the SAT backend) and --engine (the Book engine that checks the result before it is
    written), shared by `generate book` and `complete`."""

    def add(command: Callable[..., Any]) -> Callable[..., Any]:
        command = click.option(
            "--engine",
            type=click.Choice(("auto", *GAME.engine_names())),
            default="auto",
            show_default=True,
            help=f"Engine that checks {what} before it is written.",
        )(command)
        return click.option(
            "--solver", type=click.Choice(BACKENDS), default=PYSAT, show_default=True, help="SAT backend."
        )(command)

    return add


def book_file_name(params: BookParams, seed: int) -> str:
    last = params.first_page + params.pages - 1
    pages = f"{params.pages}p" if params.first_page == 1 else f"p{params.first_page}-{last}"
    return f"book-{pages}-{params.rows}x{params.cols}-{'-'.join(params.rules)}-seed{seed}.toml"


def summary_of(made: GeneratedBook) -> str:
    fired = ", ".join(f"{name} ({len(cells)})" for name, cells in made.fired.items())
    return f"{made.walk.moves} moves, one walk; fires {fired or 'the path rules'}"


def json_of(made: GeneratedBook, path: str | None, seed: int, seconds: float) -> dict:
    shape = made.book.shape
    return {
        "file": path,
        "seed": seed,
        "moves": made.walk.moves,
        "walk": [list(shape.cell(index)) for index in made.walk.cells],
        "fired": {
            name: [{"cell": list(shape.cell(index)), "status": status} for index, status in cells]
            for name, cells in made.fired.items()
        },
        "rounds": made.rounds,
        "clauses": made.clauses,
        "seconds": round(seconds, 3),
    }


def _status(enabled: bool, seed: int) -> Callable[[str], None] | None:
    """On a terminal, a line on stderr naming the stage of the book being made."""
    if not enabled:
        return None

    def show(stage: str) -> None:
        click.echo(f"\r\033[Kseed {seed}: {stage}...", nl=False, err=True)

    return show


@click.command("book")
@click.option("--pages", type=int, default=6, show_default=True, help="Pages of the book (1, 2, ...).")
@click.option("--size", default="6x8", show_default=True, help="Every page's ROWSxCOLS.")
@click.option(
    "--first-page", type=int, default=1, show_default=True, help="The first page's number (2: start with a spread)."
)
@click.option(
    "--rules",
    "rules_text",
    default="wolf,vampire,oracle",
    show_default=True,
    help=f"Rule families each book must teach, comma-separated: {', '.join(family_names())}.",
)
@batch_output_options("book")
@click.option("--walk-length", type=int, default=None, help="Moves of the walk (default: 1.5 x columns per page).")
@click.option(
    "--density",
    type=float,
    default=0.6,
    show_default=True,
    help="Share of the cells around the corridor that hold something.",
)
@solver_options("every book")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per book on stdout.")
@timeout_option("Seconds allowed per book (the SAT model and the check); a seed that runs out fails.")
def generate_book_command(
    pages: int,
    size: str,
    first_page: int,
    rules_text: str,
    seed: int,
    count: int,
    out_dir: str | None,
    walk_length: int | None,
    density: float,
    force: bool,
    solver: str,
    engine: str,
    as_json: bool,
    timeout: float | None,
) -> None:
    """Generate books of Read These Before You Die: each has one simple corridor from the entrance on the
    first page to the exit on the last, which is its only shortest walk, and each named rule decides a cell
    on the walk or beside it. Every book is checked by the rule engine before it is written, with [expect]
    claims for what was checked; the same options give the same files.

    Exit 0 when every book was written, 1 when some seed gave no book, 2 for bad options or files that
    exist without --force, 130 when interrupted.
    """
    try:
        rows, cols = parse_size(size)
        params = BookParams(pages, rows, cols, parse_rules(rules_text), walk_length, density, first_page)
        params.validate()
    except UsageError as error:
        raise click.UsageError(str(error)) from None
    require_folder_for_several(count, out_dir)
    verifier = GAME.chosen_engine(engine).load()
    seeds = [seed + offset for offset in range(count)]
    folder = None if out_dir is None else prepare_output(out_dir, [book_file_name(params, s) for s in seeds], force)
    failures = written = 0
    mode = file_mode()
    try:
        bar = (
            click.progressbar(seeds, label="generating", file=sys.stderr, show_pos=True)
            if count > 1 and sys.stderr.isatty()
            else None
        )
        for book_seed in bar if bar is not None else seeds:
            started = time.perf_counter()
            try:
                made = generate_book(
                    params,
                    book_seed,
                    Deadline(timeout),
                    solver,
                    verifier,
                    _status(sys.stderr.isatty() and bar is None, book_seed),
                )
            except (GenerationError, LimitReached) as error:
                failures += 1
                click.echo(f"twisty: seed {book_seed}: {error}", err=True)
                continue
            finally:
                if sys.stderr.isatty() and bar is None:
                    click.echo("\r\033[K", nl=False, err=True)
            seconds = time.perf_counter() - started
            if folder is None:
                click.echo(json.dumps(json_of(made, None, book_seed, seconds)) if as_json else made.text, nl=as_json)
                continue
            path = folder.path(book_file_name(params, book_seed))
            try:
                with interrupts_held():
                    write_atomically(path, made.text, replace=force, mode=mode)
                    written += 1
            except OSError as error:
                click.echo(f"twisty: cannot write {path}: {error.strerror or error}", err=True)
                sys.exit(EXIT_FAILED)
            if as_json:
                click.echo(json.dumps(json_of(made, str(path), book_seed, seconds)))
            else:
                click.echo(f"{path}: {summary_of(made)}  [{seconds:.1f}s]")
    except KeyboardInterrupt:
        done = f"; the {written} book files written before it are complete" if folder is not None else ""
        click.echo(f"{chr(10) if sys.stderr.isatty() else ''}twisty: interrupted{done}", err=True)
        sys.exit(EXIT_INTERRUPTED)
    sys.exit(EXIT_FAILED if failures else EXIT_OK)
