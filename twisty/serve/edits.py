"""Edits the page makes to a level's TOML text: one cell's content changed in place, so that everything
else in the file (comments, spacing, the order of tables) stays as the designer wrote it.

Each edit reads the text with twisty.load (a LevelError, positioned, for text that does not load), changes
the characters of that one cell where the level's own positions put it, and checks that the changed text
loads with the cell holding what was asked (an EditError otherwise, never a silently wrong file).
"""

from __future__ import annotations

import re
from typing import Any

from twisty.api import load
from twisty.rules.book.contents import CONTENTS, EMPTY_CODE, code_of, content_named
from twisty.rules.level import Level
from twisty.rules.passages import FLOOR, GOAL, START, WALL


class EditError(Exception):
    """An edit that cannot be made (a cell outside the level, an unknown content)."""


def palette(level: Level) -> list[dict[str, str]]:
    """What a cell of this level can hold: symbol and label, in the order the page shows them."""
    if level.game == "passages":
        fixed = [(WALL, "wall"), (FLOOR, "floor"), (START, "start (moves it)"), (GOAL, "goal")]
        legend: dict[str, str] = {}
        for thing in level.model.things:
            legend.setdefault(thing.symbol, thing.describe())
        legend_entries = _legend_symbols(level)
        for symbol in legend_entries:
            legend.setdefault(symbol, legend_entries[symbol])
        return [{"symbol": symbol, "label": label} for symbol, label in fixed] + [
            {"symbol": symbol, "label": label} for symbol, label in sorted(legend.items())
        ]
    if level.game == "book":
        return [{"symbol": EMPTY_CODE, "label": "empty"}] + [
            {"symbol": content.code, "label": f"{content.name} ({content.family})"} for content in CONTENTS.values()
        ]
    return []


def _legend_symbols(level: Level) -> dict[str, str]:
    """Legend entries not yet on the map (so the palette offers them too)."""
    table = level.source.data.get("legend")
    found = {}
    if isinstance(table, dict):
        for symbol, entry in table.items():
            if isinstance(entry, dict) and isinstance(symbol, str) and len(symbol) == 1:
                name = entry.get("name") or entry.get("kind") or symbol
                found[symbol] = f"{name} ({entry.get('kind', '?')})"
    return found


def edit_cell(text: str, cell: Any, symbol: Any, timeout: float | None = None) -> str:
    """The level text with one cell changed: passages (row, col) to a map character, books (page, row,
    col) to a content code. Raises LevelError when the text does not load, EditError for a bad edit,
    LimitReached when loading takes longer than `timeout` seconds."""
    level = load(text, timeout=timeout)
    if not isinstance(symbol, str) or not symbol:
        raise EditError("choose what the cell should hold")
    if not isinstance(cell, list) or not all(isinstance(part, int) and not isinstance(part, bool) for part in cell):
        raise EditError("a cell is a list of whole numbers")
    if level.game == "passages":
        changed = _edit_map(level, text, cell, symbol)
    elif level.game == "book":
        changed = _edit_book(level, text, cell, symbol)
    else:
        raise EditError(f"cells of {level.game} levels are edited in the text")
    if not _holds(load(changed, timeout=timeout), cell, symbol):
        raise EditError("the edit did not land on that cell; edit it in the text")
    return changed


def _holds(level: Level, cell: list[int], symbol: str) -> bool:
    if level.game == "passages":
        return bool(level.model.char((cell[0], cell[1])) == symbol)
    return bool(level.model.content((cell[0], cell[1], cell[2])) == content_named(symbol))


def _edit_map(level: Level, text: str, cell: list[int], symbol: str) -> str:
    model = level.model
    if len(cell) != 2 or not (0 <= cell[0] < model.height and 0 <= cell[1] < model.width):
        raise EditError(f"no cell {cell} on this map ({model.height} rows, {model.width} columns)")
    if len(symbol) != 1 or symbol not in {entry["symbol"] for entry in palette(level)}:
        raise EditError(f"{symbol!r} is not a map character of this level (add it to [legend] first)")
    row, col = cell
    first = level.source.locate_block_string("map")
    lines = text.split("\n")
    if first is None or any(
        first - 1 + number >= len(lines) or lines[first - 1 + number] != map_row
        for number, map_row in enumerate(model.grid)
    ):
        raise EditError("the map is not written as a plain multi-line string; edit it in the text")
    grid = [list(map_row) for map_row in model.grid]
    if symbol == START:
        grid = [[FLOOR if char == START else char for char in map_row] for map_row in grid]
    while len(grid[row]) <= col:
        grid[row].append(" ")
    grid[row][col] = symbol
    for number, map_row in enumerate(grid):
        lines[first - 1 + number] = "".join(map_row)
    return "\n".join(lines)


def _edit_book(level: Level, text: str, cell: list[int], symbol: str) -> str:
    book = level.model
    if len(cell) != 3 or not book.shape.contains(tuple(cell)):
        raise EditError(f"no cell {cell} in this book")
    name = content_named(symbol)
    if name is None:
        raise EditError(f"{symbol!r} is not a book content code")
    index = book.shape.index(tuple(cell))
    position = book.positions.get(index)
    if position is None:
        raise EditError("that page is not written as a plain multi-line string; edit it in the text")
    line, column = position
    lines = text.split("\n")
    raw = lines[line - 1]
    token = re.compile(r"\S+").match(raw, column - 1)
    if token is None:
        raise EditError("the cell's code was not found where the book says; edit it in the text")
    new = code_of(name)
    old = token.group()
    after = raw[token.end() :]
    if len(new) < len(old):
        new = new.ljust(len(old))
    elif len(new) > len(old) and after.startswith("  "):
        after = after[len(new) - len(old) :] if after[: len(new) - len(old) + 1].isspace() else after
    lines[line - 1] = raw[: token.start()] + new + after
    return "\n".join(lines)
