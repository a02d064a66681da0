"""Lights Out's editor on the page (the registry's `page`): the board as a map whose cells are lit or dark,
the presses of the verdict as its route, and the edit of one light in the level's text."""

from __future__ import annotations

from typing import Any

from tests.toy.rules import DARK, LIT
from twisty.limits import Deadline
from twisty.rules.level import Level
from twisty.serve.edits import EditError


def palette(level: Level) -> list[dict[str, str]]:
    return [{"symbol": LIT, "label": "lit"}, {"symbol": DARK, "label": "dark"}]


def grid(level: Level, verdict: Any | None, spread: int | None, deadline: Deadline) -> dict[str, Any]:
    presses = getattr(verdict, "presses", None) or ()
    return {"kind": "map", "rows": list(level.model.rows), "kinds": {}, "route": [list(c) for c in presses]}


def landed(before: Level, after: Level, cell: list[int], symbol: str) -> bool:
    return bool(after.model.rows[cell[0]][cell[1]] == symbol)


def edit(level: Level, text: str, cell: list[int], symbol: str) -> str:
    board = level.model
    if len(cell) != 2 or not (0 <= cell[0] < board.height and 0 <= cell[1] < board.width):
        raise EditError(f"no light {cell} on this board")
    if symbol not in (LIT, DARK):
        raise EditError(f"{symbol!r} is not a light ({LIT} lit, {DARK} dark)")
    first = level.source.locate_block_string("board")
    lines = text.split("\n")
    if first is None or lines[first - 1 + cell[0]].strip() != board.rows[cell[0]]:
        raise EditError("the board is not written one row a line; edit it in the text")
    line = lines[first - 1 + cell[0]]
    at = len(line) - len(line.lstrip()) + cell[1]
    lines[first - 1 + cell[0]] = line[:at] + symbol + line[at + 1 :]
    return "\n".join(lines)
