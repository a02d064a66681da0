"""Lights Out's rules as plain Python: the board, its loader (positioned errors), and the replay of a set of
presses, which every engine's answer goes through before it is believed."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from twisty.limits import Deadline
from twisty.rules.source import LevelSource, unknown_key_error

LIT, DARK = "#", "."
MAX_SIDE = 4
KEYS = ("game", "name", "board", "expect")
EXPECT_KEYS = ("solvable", "presses", "unique")

Cell = tuple[int, int]


@dataclass(frozen=True)
class Board:
    name: str
    rows: tuple[str, ...]
    expect: dict[str, Any] = field(default_factory=dict)

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0])

    @property
    def cells(self) -> list[Cell]:
        return [(row, col) for row in range(self.height) for col in range(self.width)]

    def lit(self) -> frozenset[Cell]:
        return frozenset(cell for cell in self.cells if self.rows[cell[0]][cell[1]] == LIT)

    def toggled_by(self, cell: Cell) -> frozenset[Cell]:
        """ "Pressing a light toggles it and its orthogonal neighbours.\""""
        row, col = cell
        around = [(row, col), (row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)]
        return frozenset((r, c) for r, c in around if 0 <= r < self.height and 0 <= c < self.width)


def lit_after(board: Board, presses: Iterable[Cell]) -> frozenset[Cell]:
    """The lights still lit after pressing each of `presses` once (in any order: toggles commute)."""
    lit = set(board.lit())
    for cell in presses:
        lit ^= board.toggled_by(cell)
    return frozenset(lit)


def load_board(source: LevelSource, deadline: Deadline | None = None) -> Board:
    data = source.data
    for key in data:
        if key not in KEYS:
            raise unknown_key_error(source, key, KEYS)
    text = data.get("board")
    if not isinstance(text, str):
        raise source.error('board must be a multi-line string of "#" (lit) and "." (dark)', key="board")
    rows = tuple(line.strip() for line in text.strip().splitlines())
    first = source.locate_block_string("board")
    for number, row in enumerate(rows):
        bad = next((col for col, char in enumerate(row) if char not in (LIT, DARK)), None)
        if bad is not None:
            where = {} if first is None else {"line": first + number, "column": bad + 1}
            return_error = source.error(f'board: {row[bad]!r} is neither "#" (lit) nor "." (dark)', **where)
            raise return_error
    if not rows or not 1 <= len(rows) <= MAX_SIDE or not 1 <= len(rows[0]) <= MAX_SIDE:
        raise source.error(f"board: 1 to {MAX_SIDE} rows of 1 to {MAX_SIDE} lights", key="board")
    if len({len(row) for row in rows}) != 1:
        raise source.error("board: every row holds as many lights", key="board")
    expect = data.get("expect", {})
    if not isinstance(expect, dict):
        raise source.error("[expect] must be a table", key="expect")
    for key, value in expect.items():
        if key not in EXPECT_KEYS:
            raise unknown_key_error(source, key, EXPECT_KEYS, table="expect")
        if key == "presses" and (isinstance(value, bool) or not isinstance(value, int) or value < 0):
            raise source.error("[expect] presses must be a whole number", table="expect", key=key)
        if key != "presses" and not isinstance(value, bool):
            raise source.error(f"[expect] {key} must be true or false", table="expect", key=key)
    name = data.get("name", "")
    return Board(name if isinstance(name, str) else "", rows, dict(expect))


def board_text(board: Board) -> str:
    """The level file of a board, as the loader reads it."""
    lines = ['game = "lights"', f'name = "{board.name}"', 'board = """', *board.rows, '"""', "", "[expect]"]
    lines += [f"{key} = {str(value).lower()}" for key, value in board.expect.items()]
    return "\n".join(lines) + "\n"
