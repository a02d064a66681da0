"""`twisty complete SKETCH -o OUT`: fill a sketch's open cells so that its book has one simple corridor.

Parse options, call twisty.generator.book_complete, write the book (with the passages generator's safe
writer: no file replaced without --force, never through a symbolic link, all at once) or print why no
filling exists.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from twisty.commands.common import EXIT_FAILED, EXIT_OK, fail, timeout_option
from twisty.commands.generate_book import solver_options
from twisty.commands.writing import check_targets, file_mode, write_atomically
from twisty.errors import GenerationError, LimitReached, TwistyError
from twisty.games import GAMES
from twisty.generator.book_complete import complete_book
from twisty.limits import Deadline
from twisty.rules.book.contents import RULE_NAMES
from twisty.rules.book.loader import load_sketch
from twisty.rules.source import read_level

GAME = GAMES["book"]


@click.command()
@click.argument("sketch_file", metavar="SKETCH", type=click.Path())
@click.option(
    "-o", "out_file", type=click.Path(dir_okay=False), default=None, help="Where to write the book (default: print it)."
)
@click.option("--force", is_flag=True, help="Replace OUT if it exists (never through a symbolic link).")
@click.option("--seed", type=int, default=1, show_default=True, help="Picks among the possible fillings.")
@solver_options("the filled book")
@click.option("--json", "as_json", is_flag=True, help="Print the outcome as one JSON object.")
@timeout_option("Seconds for the whole completion (reading, SAT, the check, the conflict); past them: unknown.")
def complete(
    sketch_file: str,
    out_file: str | None,
    force: bool,
    seed: int,
    solver: str,
    engine: str,
    as_json: bool,
    timeout: float | None,
) -> None:
    """Fill the open cells of a book sketch so that the book has one simple corridor from its entrance to
    its exit, and so exactly one shortest walk. A sketch is a book file (docs/book.md) whose cells may be
    written `?` (anything whose rules are static) or `?{Wo,Va,.}` (one of these codes).

    When no filling exists, the answer names a small set of the sketch's fixed cells and wishes that
    conflict: without any single one of them, a filling would exist (as far as these wishes go).

    Exit 0 when the book was completed (and written), 1 when no filling exists or time ran out, 2 for bad
    input or a file that exists without --force.
    """
    deadline = Deadline(timeout)
    target = None if out_file is None else Path(out_file)
    if target is not None:
        check_targets([target], force)  # before any work: a run that could not write does not do the work
    try:
        source = read_level(sketch_file)
        if source.game != "book":
            raise source.error(f'complete reads book sketches (game = "book"), not game = "{source.game}"', key="game")
        sketch, open_cells = load_sketch(source, deadline)
        if sketch.entrance == sketch.exit:
            raise source.error(
                f"the exit is the entrance (page {sketch.exit[0]}, row {sketch.exit[1]}, col {sketch.exit[2]}): "
                "a sketch needs a corridor to fill between two cells",
                key="exit",
            )
        verifier = GAME.chosen_engine(engine).load()
        completion = complete_book(
            sketch, open_cells, name=sketch_file, seed=seed, deadline=deadline, solver=solver, engine=verifier
        )
    except (LimitReached, GenerationError) as stopped:
        cap = stopped.cap if isinstance(stopped, LimitReached) else None
        why = f"no answer within the {cap}" if cap else str(stopped)
        if as_json:  # one JSON object whatever happens, so that a script reading stdout always gets one
            click.echo(
                json.dumps({"sketch": sketch_file, "status": "unknown", "completed": None, "cap": cap, "reason": why})
            )
        click.echo(f"twisty: {sketch_file}: unknown: {why}", err=True)
        sys.exit(EXIT_FAILED)
    except TwistyError as error:
        fail(error)
    if not completion.completed:
        if as_json:
            click.echo(
                json.dumps(
                    {
                        "sketch": sketch_file,
                        "status": "conflict",
                        "completed": False,
                        "conflict": [_wish(w) for w in completion.conflict],
                    }
                )
            )
        else:
            click.echo(f"{sketch_file}: no filling gives one simple corridor; these wishes conflict:")
            for wish in completion.conflict:
                rule = f" (rule {wish.rule}, {RULE_NAMES[wish.rule]})" if wish.rule else ""
                click.echo(f"  - {wish.text}{rule}")
            click.echo("Dropping any one of them leaves room for a filling (as far as these wishes go).")
        sys.exit(EXIT_FAILED)
    assert completion.text is not None and completion.analysis is not None
    if target is not None:
        try:
            write_atomically(target, completion.text, replace=force, mode=file_mode())
        except OSError as error:
            click.echo(f"twisty: cannot write {target}: {error.strerror or error}", err=True)
            sys.exit(EXIT_FAILED)
    if as_json:
        click.echo(
            json.dumps(
                {
                    "sketch": sketch_file,
                    "status": "completed",
                    "completed": True,
                    "file": out_file,
                    "moves": completion.analysis.moves,
                    "filled": [{"cell": list(cell), "content": name} for cell, name in completion.filled.items()],
                    "rounds": completion.rounds,
                }
            )
        )
    elif target is None:
        click.echo(completion.text, nl=False)
    else:
        click.echo(
            f"{target}: {len(completion.filled)} cells filled; one simple corridor of {completion.analysis.moves} moves"
        )
    sys.exit(EXIT_OK)


def _wish(wish) -> dict:
    return {"wish": wish.text, "cell": list(wish.cell) if wish.cell else None, "rule": wish.rule}
