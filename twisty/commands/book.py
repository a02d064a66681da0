"""`twisty explain BOOK PAGE ROW COL`, `twisty bench book` and the --spread option of `twisty render`. Parse,
call the library, print."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from typing import Any

import click

from twisty.bench.book_walks import run as bench_random
from twisty.commands.common import EXIT_FAILED, EXIT_INVALID, SECONDS, fail_invalid
from twisty.commands.writing import check_targets, write_files
from twisty.errors import LimitReached
from twisty.limits import Deadline
from twisty.render.pictures import ALL_SPREADS
from twisty.rules.book.evaluation import STATUS_NAMES
from twisty.rules.book.loader import MAX_COLS, MAX_PAGES, MAX_ROWS, load_book
from twisty.rules.source import LevelError, read_level
from twisty.solver.book import solve_book

BENCH_SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "book" / "bench.py"
SAT_BENCH_SCRIPT = BENCH_SCRIPT.with_name("bench_sat.py")
BENCH_PARTS = ("evaluate", "walk", "generate", "complete", "sat", "random")
DEFAULT_PARTS = BENCH_PARTS[:-1]  # the random family takes minutes: asked for by name


class SpreadType(click.ParamType):
    """`twisty render --spread` (the book's registry entry names it): a spread's number (0 or more), or "all"."""

    name = "N|all"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int):
            return value
        text = str(value).strip().lower()
        if text == "all":
            return ALL_SPREADS
        if text.isdigit():
            return int(text)
        self.fail(f'{value!r} is not a spread number (0 or more) or "all"', param, ctx)


spread_option = click.Option(
    ["--spread"],
    type=SpreadType(),
    default=None,
    help="Read These Before You Die: the spread to draw (spread k shows pages 2k and 2k+1; default: the "
    'entrance\'s), or "all" for every spread, one under the other.',
)


@click.command()
@click.argument("book_file", metavar="BOOK", type=click.Path())
@click.argument("page", type=int)
@click.argument("row", type=int)
@click.argument("col", type=int)
@click.option(
    "--timeout",
    type=SECONDS,
    default=None,
    help="Seconds for the whole question (reading, evaluating the book, finding the walk); what is "
    "not decided by then is reported as unknown.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the explanation as one JSON object.")
def explain(book_file: str, page: int, row: int, col: int, timeout: float | None, as_json: bool) -> None:
    """Say why one cell of a book is deadly, impassable or passable: the chain of rules that decided it.

    Exit 0 with the explanation (a part the time limit left undecided says so), 1 when the book could not
    even be evaluated within the limit, 2 for bad input.
    """
    deadline = Deadline(timeout)
    try:
        source = read_level(book_file)
        if source.game != "book":
            raise source.error(f'explain reads books (game = "book"), not game = "{source.game}"', key="game")
        book = load_book(source, deadline)
    except LevelError as error:
        fail_invalid(error)
    except LimitReached as reached:
        if as_json:
            unknown = {"book": book_file, "cell": [page, row, col], "status": "unknown", "cap": reached.cap}
            click.echo(json.dumps(unknown | {"reason": "the book could not be evaluated within the limit"}))
        click.echo(f"twisty: {book_file}: unknown: the book could not be evaluated within the {reached.cap}", err=True)
        sys.exit(EXIT_FAILED)
    cell = (page, row, col)
    if not book.shape.contains(cell):
        shape = book.shape
        click.echo(
            f"twisty: {book_file}: no cell page {page}, row {row}, col {col} (pages "
            f"{shape.first_page}-{shape.last_page}, rows 0-{shape.height - 1}, cols 0-{shape.width - 1})",
            err=True,
        )
        sys.exit(EXIT_INVALID)
    verdict = solve_book(book, deadline=deadline)
    index = book.shape.index(cell)
    content = book.contents[index]
    moments = []  # (when, status name, chain of rules), the second only when the walk changed the cell
    for evaluation, when in ((verdict.initial, "before the walk"), (verdict.final, "when the walk reaches the exit")):
        if evaluation is None:
            continue
        if (
            when != "before the walk"
            and verdict.initial is not None
            and evaluation.status[index] == verdict.initial.status[index]
            and evaluation.chain(index) == verdict.initial.chain(index)
        ):
            continue
        moments.append((when, STATUS_NAMES[evaluation.status[index]], list(evaluation.chain(index))))
    exit_unknown = verdict.final is None and verdict.status == "unknown"
    step = verdict.walk.index(cell) if cell in verdict.walk else None
    if as_json:
        record: dict[str, Any] = {
            "book": book_file,
            "cell": [page, row, col],
            "content": content,
            "status": "unknown" if exit_unknown else "explained",
            "moments": [{"when": when, "cell_status": name, "chain": chain} for when, name, chain in moments],
            "at_exit_unknown": exit_unknown,
            "cap": verdict.cap if exit_unknown else None,
            "walk_step": step,
            "walk_steps": len(verdict.walk) - 1 if verdict.walk else None,
        }
        click.echo(json.dumps(record))
        return
    click.echo(f"page {page}, row {row}, col {col} holds {content or 'nothing (an empty cell)'}")
    for when, name, chain in moments:
        click.echo(f"{when}: {name}")
        if not chain:
            click.echo("  no rule decides it: an empty cell is safe")
        for line in chain:
            click.echo(f"  {line}")
    if exit_unknown:
        click.echo(f"when the walk reaches the exit: unknown (no walk found within the {verdict.cap})")
    if step is not None:
        click.echo(f"the walk passes here (step {step} of {len(verdict.walk) - 1})")


@click.command("book")
@click.option("--pages", type=click.IntRange(2, MAX_PAGES), default=90, show_default=True)
@click.option("--rows", type=click.IntRange(3, MAX_ROWS), default=12, show_default=True)
@click.option("--cols", type=click.IntRange(3, MAX_COLS), default=16, show_default=True)
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--repeat", type=click.IntRange(1, 100), default=3, show_default=True)
@click.option(
    "--parts",
    default=",".join(DEFAULT_PARTS),
    show_default=True,
    help="Which benchmarks: evaluate (a large book loaded, evaluated and walked), walk (a 96-cell book of "
    "Bows and Molotovs), generate (10 spreads, PySAT and CP-SAT), complete (30 open cells), sat (the SAT "
    "engine on the shipped books), random (seeded random path-rule books against a plain breadth-first "
    "search; minutes).",
)
@click.option(
    "--books",
    type=click.IntRange(1, 10_000),
    default=200,
    show_default=True,
    help="random: how many books of 72 to 120 cells (a tenth as many of the medium size, a twentieth of the large).",
)
@click.option("--json", "json_path", type=click.Path(dir_okay=False), default=None, help="Write the figures as JSON.")
@click.option("--force", is_flag=True, help="Replace the --json file if it exists (never through a symbolic link).")
def bench_book(
    pages: int,
    rows: int,
    cols: int,
    seed: int,
    repeat: int,
    parts: str,
    books: int,
    json_path: str | None,
    force: bool,
) -> None:
    """Time the Book: evaluating a generated book and finding its walk (benchmarks/book/bench.py, held to
    the input limits like any level), the walk search with path rules, generation and completion by SAT
    with either backend, and the SAT engine (benchmarks/book/bench_sat.py); each against a baseline of the
    same run. `--parts random` runs the walk search on seeded random books against a plain breadth-first
    search (twisty/bench/book_walks.py)."""
    chosen = tuple(part.strip() for part in parts.split(",") if part.strip())
    unknown = sorted(set(chosen) - set(BENCH_PARTS))
    if unknown:
        raise click.BadParameter(
            f"unknown part {', '.join(unknown)} (parts: {', '.join(BENCH_PARTS)})", param_hint="'--parts'"
        )
    if json_path:
        check_targets([Path(json_path)], force, "files")  # before the benchmarks run, not after
    figures = {}
    try:
        if "evaluate" in chosen:
            figures["evaluate"] = _script(BENCH_SCRIPT).run(pages=pages, rows=rows, cols=cols, seed=seed, repeat=repeat)
        rest = tuple(part for part in chosen if part not in ("evaluate", "random"))
        if rest:
            figures.update(_script(SAT_BENCH_SCRIPT).run(parts=rest))
        if "random" in chosen:
            figures["random"] = bench_random(seed=seed, books=books, repeat=max(repeat, 5), progress=click.echo)
    except LevelError as error:
        fail_invalid(error)
    if json_path:
        write_files([(Path(json_path), json.dumps(figures, indent=2) + "\n")], force, "files")


def _script(path: Path):
    spec = importlib.util.spec_from_file_location(f"twisty_bench_{path.stem}", path)
    if spec is None or spec.loader is None:
        click.echo(f"twisty: benchmark script not found: {path}", err=True)
        sys.exit(EXIT_INVALID)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
