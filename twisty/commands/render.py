"""`twisty render LEVEL -o OUT.svg|OUT.png`: a level's picture, drawn by its game's renderer (the registry's
`renderer` entry), with the route, walk or plan that twisty.check found. Parse, call the API, draw, write."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import click

from twisty.api import check, load
from twisty.commands.common import EXIT_FAILED, timeout_option
from twisty.commands.writing import check_targets, write_files
from twisty.errors import UsageError
from twisty.games import game_named, level_games, resolve
from twisty.render.pictures import PictureOptions, output_suffix, picture_bytes, require_matplotlib

ANSWER_FLAGS = ("route", "walk", "plan")


def renderer_for(game_name: str):
    """The renderer module of a game, or a UsageError naming the games that have pictures."""
    game = game_named(game_name)
    if game.renderer is None:
        drawn = ", ".join(sorted(game.name for game in level_games() if game.renderer))
        raise UsageError(f"no pictures of {game.title} levels yet (pictures: {drawn})")
    return resolve(game.renderer)


def answer_is_unknown(verdict) -> bool:
    return verdict is not None and getattr(verdict, "solvable", None) is None


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
@click.option("--route", is_flag=True, help="Passages: draw the best route, numbered, with the hp at each step.")
@click.option("--walk", is_flag=True, help="Books: draw the shortest walk.")
@click.option("--plan", is_flag=True, help="Temple rounds: one small picture per turn of the plan.")
@click.option(
    "--spread",
    type=click.IntRange(0, None),
    default=None,
    help="Books: the spread to draw (spread k shows pages 2k and 2k+1; default: the entrance's).",
)
@timeout_option(
    "Seconds for reading the level and finding what is drawn; an answer not found by then is drawn as unknown (exit 1)."
)
def render(
    level_file: str,
    output: str,
    force: bool,
    route: bool,
    walk: bool,
    plan: bool,
    spread: int | None,
    timeout: float | None,
) -> None:
    """Draw a level as a picture (matplotlib): passages maps with their best route, book spreads with
    their walk and a tooltip per cell (SVG), temple rounds with their plan.

    Exit 0 when the picture is written; 1 when the answer asked for could not be found within --timeout
    (the picture is written without it); 2 for bad input or a missing extra (pip install 'twisty[pictures]').
    """
    require_matplotlib()
    suffix = output_suffix(output)
    check_targets([Path(output)], force, "pictures")  # before any work: nothing is replaced without --force
    started = time.perf_counter()
    level = load(level_file, timeout=timeout)
    renderer = renderer_for(level.game)
    asked = [name for name, given in zip(ANSWER_FLAGS, (route, walk, plan), strict=True) if given]
    if asked and asked != [renderer.ANSWER]:
        raise UsageError(
            f"{level.game} levels have a {renderer.ANSWER} to draw: use --{renderer.ANSWER}, not --{' --'.join(asked)}"
        )
    if spread is not None and level.game != "book":
        raise UsageError("--spread picks a spread of a book; this level is not a book")
    options = PictureOptions(answer=bool(asked), spread=spread)
    questions = renderer.questions(options)
    verdict = None
    if questions is not None:
        left = None if timeout is None else max(timeout - (time.perf_counter() - started), 0.001)
        verdict = check(level, questions=questions, timeout=left)
    picture = renderer.draw(level, verdict, options)
    write_files([(Path(output), picture_bytes(picture, suffix))], force, "pictures")
    if options.answer and answer_is_unknown(verdict):
        click.echo(
            f"twisty: {level_file}: the {renderer.ANSWER} is unknown within the time limit; "
            f"{output} is drawn without it",
            err=True,
        )
        sys.exit(EXIT_FAILED)
    click.echo(f"wrote {output}")
