"""Edits the page makes to a level's TOML text: one cell's content changed in place, so that everything
else in the file (comments, spacing, the order of tables) stays as the designer wrote it.

Each edit reads the text with twisty.load (a LevelError, positioned, for text that does not load), lets the
game's page module (its registry entry `page`) change the characters of that one cell where the level's own
positions put it, and checks that the changed text loads with the cell holding what was asked (an
EditError otherwise, never a silently wrong file).
"""

from __future__ import annotations

from types import ModuleType
from typing import Any

from twisty.api import load
from twisty.games import GAMES, resolve


class EditError(Exception):
    """An edit that cannot be made (a cell outside the level, an unknown content)."""


def _page_of(game_name: str) -> ModuleType:
    game = GAMES.get(game_name)
    if game is None or game.page is None:
        raise EditError(f"cells of {game_name} levels are edited in the text")
    module = resolve(game.page)
    assert isinstance(module, ModuleType)
    return module


def edit_cell(text: str, cell: Any, symbol: Any, timeout: float | None = None) -> str:
    """The level text with one cell changed (passages (row, col) to a map character, books (page, row, col)
    to a content code, temple rounds as twisty.serve.page_temple says). Raises LevelError when the text does
    not load, EditError for a bad edit, LimitReached when loading takes longer than `timeout` seconds."""
    level = load(text, timeout=timeout)
    if not isinstance(symbol, str) or not symbol or len(symbol) > 64:
        raise EditError("choose what the cell should hold")
    if (
        not isinstance(cell, list)
        or len(cell) > 3
        or not all(isinstance(part, int) and not isinstance(part, bool) for part in cell)
    ):
        raise EditError("a cell is a list of whole numbers")
    page = _page_of(level.game)
    changed = page.edit(level, text, cell, symbol)
    if not page.landed(level, load(changed, timeout=timeout), cell, symbol):
        raise EditError("the edit did not land on that cell; edit it in the text")
    return str(changed)
