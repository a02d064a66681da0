"""Lights Out's renderer (the registry's `renderer`): the board, lit lights yellow, and the presses circled."""

from __future__ import annotations

from typing import Any

from tests.toy.rules import LIT, Board
from twisty.render.pictures import YELLOW, Picture, PictureOptions, new_figure, plain_text
from twisty.rules.level import Level


def questions(options: PictureOptions) -> tuple[str, ...] | None:
    return ("presses",) if options.answer else None


@plain_text
def draw(level: Level, verdict: Any | None, options: PictureOptions) -> Picture:
    from matplotlib.patches import Rectangle

    board: Board = level.model
    figure = new_figure(1 + board.width * 0.6, 1 + board.height * 0.6)
    axes = figure.add_subplot()
    picture = Picture(figure)
    for row, line in enumerate(board.rows):
        for col, char in enumerate(line):
            fill = YELLOW if char == LIT else "#404040"
            square = axes.add_patch(Rectangle((col, -row - 1), 1, 1, facecolor=fill, edgecolor="white"))
            picture.tip(square, f"light-{row}-{col}", f"row {row}, col {col}: {'lit' if char == LIT else 'dark'}")
    presses = getattr(verdict, "presses", None) if options.answer else None
    for number, (row, col) in enumerate(presses or (), start=1):
        axes.text(col + 0.5, -row - 0.5, str(number), ha="center", va="center", fontsize=12, gid=f"press-{number}")
    axes.set_xlim(0, board.width)
    axes.set_ylim(-board.height, 0)
    axes.set_aspect("equal")
    axes.set_axis_off()
    axes.set_title(board.name or level.path, fontsize=9)
    return picture
