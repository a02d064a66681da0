"""`twisty render LEVEL -o OUT.svg|OUT.png`: a level's picture, drawn by its game's renderer (the registry's
`renderer` entry), with the route, walk or plan that twisty.check found. Parse, call the API, draw, write.

One deadline covers every step (reading, the answer, the walk drawn between a route's steps, the drawing
itself): the answer is asked for with what is left once the drawing's share is set aside, and a drawing
still going DRAWING_GRACE after the deadline is stopped (nothing is written, exit 1).
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

import click

from twisty.api import check, load
from twisty.commands.common import EXIT_FAILED, timeout_option
from twisty.commands.writing import check_targets, write_files
from twisty.errors import LimitReached, UsageError
from twisty.games import game_named, level_games, resolve
from twisty.limits import Deadline
from twisty.render.pictures import (
    ALL_SPREADS,
    PictureOptions,
    drawing_within,
    output_suffix,
    picture_bytes,
    require_matplotlib,
)

ANSWER_FLAGS = ("route", "walk", "plan")
# Seconds set aside for drawing when a renderer does not estimate its own (renderer.drawing_seconds).
DRAWING_SECONDS = 0.5


def renderer_for(game_name: str) -> Any:
    """The renderer module of a game, or a UsageError naming the games that have pictures."""
    game = game_named(game_name)
    if game.renderer is None:
        drawn = ", ".join(sorted(game.name for game in level_games() if game.renderer))
        raise UsageError(f"no pictures of {game.title} levels yet (pictures: {drawn})")
    return resolve(game.renderer)


def answer_is_unknown(verdict: Any) -> bool:
    return verdict is not None and getattr(verdict, "solvable", None) is None


class SpreadType(click.ParamType):
    """--spread: a spread's number (0 or more), or "all"."""

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


@click.command()
@click.argument("level_file", metavar="LEVEL", type=click.Path())
@click.option(
    "-o",
    "--output",
    required=True,
    type=click.Path(dir_okay=False),
    help="The picture to write: OUT.svg (with tooltips) or OUT.png.",
)
@click.option("--force", is_flag=True, help="Replace OUT if it exists (never through a symbolic link).")
@click.option("--answer", is_flag=True, help="Draw the level's answer, whatever its game calls it (below).")
@click.option(
    "--route", is_flag=True, help="Passages: draw the best route as a numbered path, with the hp at each step."
)
@click.option("--walk", is_flag=True, help="Books: draw the shortest walk.")
@click.option("--plan", is_flag=True, help="Temple rounds: one small picture per turn of the plan.")
@click.option(
    "--spread",
    type=SpreadType(),
    default=None,
    help='Books: the spread to draw (spread k shows pages 2k and 2k+1; default: the entrance\'s), or "all" '
    "for every spread of the book, one under the other.",
)
@click.option("--json", "as_json", is_flag=True, help="Print what was written as one JSON object.")
@timeout_option(
    "Seconds for everything: reading the level, finding what is drawn and drawing it. An answer not found "
    "by then is drawn as unknown (exit 1); a drawing not done by then is not written (exit 1)."
)
def render(
    level_file: str,
    output: str,
    force: bool,
    answer: bool,
    route: bool,
    walk: bool,
    plan: bool,
    spread: int | None,
    as_json: bool,
    timeout: float | None,
) -> None:
    """Draw a level as a picture (matplotlib): passages maps with their best route, book spreads with
    their walk and a tooltip per cell (SVG), temple rounds with their plan. The key beside the picture
    holds every symbol, however many.

    Exit 0 when the picture is written; 1 when the answer asked for could not be found within --timeout
    (the picture is written without it) or the drawing did not finish within it (nothing is written); 2
    for bad input or a missing extra (pip install 'twisty[pictures]').
    """
    started = time.perf_counter()
    deadline = Deadline(timeout)
    require_matplotlib()
    suffix = output_suffix(output)
    check_targets([Path(output)], force, "pictures")  # before any work: nothing is replaced without --force
    level = load(level_file, timeout=timeout)
    renderer = renderer_for(level.game)
    asked = [name for name, given in zip(ANSWER_FLAGS, (route, walk, plan), strict=True) if given]
    if asked and asked != [renderer.ANSWER]:
        raise UsageError(
            f"{level.game} levels have a {renderer.ANSWER} to draw: use --{renderer.ANSWER} (or --answer), "
            f"not --{' --'.join(asked)}"
        )
    if spread is not None and level.game != "book":
        raise UsageError("--spread picks a spread of a book; this level is not a book")
    options = PictureOptions(answer=bool(asked) or answer, spread=spread, deadline=deadline)
    questions = renderer.questions(options)
    verdict = None
    if questions is not None:
        left = deadline.remaining()
        if left is not None:
            estimate = getattr(renderer, "drawing_seconds", lambda _level: DRAWING_SECONDS)(level)
            left = max(left - min(estimate, left / 2), 0.001)
        verdict = check(level, questions=questions, timeout=left)
    try:
        with drawing_within(deadline):
            picture = renderer.draw(level, verdict, options)
            data = picture_bytes(picture, suffix)
    except LimitReached:
        click.echo(
            f"twisty: {level_file}: the picture could not be drawn within the time limit ({timeout:g} s); "
            f"nothing written (raise --timeout)",
            err=True,
        )
        sys.exit(EXIT_FAILED)
    write_files([(Path(output), data)], force, "pictures")
    unknown = options.answer and answer_is_unknown(verdict)
    if as_json:
        width, height = picture.figure.get_size_inches()
        record = {
            "level": level_file,
            "game": level.game,
            "output": output,
            "format": suffix.lstrip("."),
            "bytes": len(data),
            "width_inches": round(float(width), 2),
            "height_inches": round(float(height), 2),
            "answer": renderer.ANSWER if options.answer else None,
            "answer_drawn": bool(options.answer and not unknown and verdict is not None),
            "cut": picture.cut or None,
            "notes": list(picture.notes),
            "seconds": round(time.perf_counter() - started, 3),
        }
        click.echo(json.dumps(record, sort_keys=True))
    if unknown:
        click.echo(
            f"twisty: {level_file}: the {renderer.ANSWER} is unknown within the time limit; "
            f"{output} is drawn without it",
            err=True,
        )
        sys.exit(EXIT_FAILED)
    if picture.cut:
        click.echo(f"twisty: {level_file}: {picture.cut}; {output} shows it", err=True)
        sys.exit(EXIT_FAILED)
    if not as_json:
        click.echo(f"wrote {output} ({_size(len(data))}, {Path(output).suffix.lstrip('.')})")


def _size(count: int) -> str:
    return f"{count / 1024:.0f} KiB" if count >= 1024 else f"{count} bytes"
