"""`twisty render LEVEL -o OUT.svg|OUT.png`: a level's picture, drawn by its game's renderer (the registry's
`renderer` entry), with the answer (route, walk, plan) that twisty.check found. Parse, call the API, draw,
write. The flag naming each game's answer and the options of one game's pictures come from the registry
(`answer`, `render_options`): this module names no game.

One deadline covers every step (reading, the answer, the walk drawn between a route's steps, the drawing
itself): the answer is asked for with what is left once the drawing's share is set aside, and a drawing
still going DRAWING_GRACE after the deadline is stopped (nothing is written, exit 1).
"""

from __future__ import annotations

import dataclasses
import json
import sys
import time
from pathlib import Path
from typing import Any

import click

from twisty.api import check, load
from twisty.commands.common import EXIT_FAILED, timeout_option
from twisty.commands.registry import RegistryOptionsCommand
from twisty.commands.writing import check_targets, write_files
from twisty.errors import LimitReached, UsageError
from twisty.games import GAMES, Game, game_named, level_games, resolve
from twisty.limits import Deadline
from twisty.render.pictures import (
    PictureOptions,
    drawing_within,
    output_suffix,
    picture_bytes,
    require_matplotlib,
)

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


def registry_options() -> list[click.Parameter]:
    """The options of `render` that the registry names: --ANSWER for each game whose pictures draw an answer,
    and each game's own options (render_options), each said to be whose."""
    options: dict[str, click.Parameter] = {}
    for game in GAMES.values():
        if game.renderer is None:
            continue
        if game.answer is not None and game.answer not in options:
            flag = click.Option([f"--{game.answer}"], is_flag=True, help=f"{game.title}: draw {game.answer_help}.")
            options[game.answer] = flag
        for path in game.render_options:
            option = resolve(path)
            assert isinstance(option, click.Option) and option.name, f"{path} is not a click option"
            options.setdefault(option.name, option)
    return list(options.values())


def _games_with_option(name: str) -> list[Game]:
    return [
        game
        for game in GAMES.values()
        if game.answer == name or any(resolve(path).name == name for path in game.render_options)
    ]


@click.command(cls=RegistryOptionsCommand, registry_options=registry_options)
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
    as_json: bool,
    timeout: float | None,
    **game_options: Any,
) -> None:
    """Draw a level as a picture (matplotlib): passages maps with their best route, book spreads with
    their walk and a tooltip per cell (SVG), temple rounds with their plan. The key beside the picture
    holds every symbol, however many. The options after --timeout are the games' own (twisty.games).

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
    game = game_named(level.game)
    options = picture_options(game, answer, game_options, deadline)
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
            "answer": game.answer if options.answer else None,
            "answer_drawn": bool(options.answer and not unknown and verdict is not None),
            "cut": picture.cut or None,
            "notes": list(picture.notes),
            "seconds": round(time.perf_counter() - started, 3),
        }
        click.echo(json.dumps(record, sort_keys=True))
    if unknown:
        click.echo(
            f"twisty: {level_file}: the {game.answer or 'answer'} is unknown within the time limit; "
            f"{output} is drawn without it",
            err=True,
        )
        sys.exit(EXIT_FAILED)
    if picture.cut:
        click.echo(f"twisty: {level_file}: {picture.cut}; {output} shows it", err=True)
        sys.exit(EXIT_FAILED)
    if not as_json:
        click.echo(f"wrote {output} ({_size(len(data))}, {Path(output).suffix.lstrip('.')})")


def picture_options(game: Game, answer: bool, given: dict[str, Any], deadline: Deadline) -> PictureOptions:
    """What to draw of a level of `game`: its answer (--answer, or the game's own flag) and the values of
    the options of its pictures; a UsageError for an option that belongs to other games' pictures."""
    chosen = {name: value for name, value in given.items() if value is not None and value is not False}
    own = {name for path in game.render_options for name in [resolve(path).name]}
    asked_answer = False
    for name in chosen:
        if name == game.answer:
            asked_answer = True
        elif name not in own:
            whose = _games_with_option(name)
            what = f"draws the {name} of {' and '.join(other.title for other in whose)} levels"
            answers = {other.answer for other in whose}
            yours = f"; use --{game.answer} (or --answer)" if game.answer and name in answers else ""
            raise UsageError(f"--{name} {what}; this level is {game.title}{yours}")
    fields = {spec.name for spec in dataclasses.fields(PictureOptions)}
    mine = {name: value for name, value in chosen.items() if name in own}
    return PictureOptions(
        answer=asked_answer or answer,
        deadline=deadline,
        **{name: value for name, value in mine.items() if name in fields},
        params={name: value for name, value in mine.items() if name not in fields},
    )


def _size(count: int) -> str:
    return f"{count / 1024:.0f} KiB" if count >= 1024 else f"{count} bytes"
