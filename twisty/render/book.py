"""A book in text: each spread as two pages side by side, every cell's code with a mark after it."""

from __future__ import annotations

from twisty.rules.book.contents import code_of
from twisty.rules.book.evaluation import DEADLY, PASSABLE, Evaluation
from twisty.rules.book.model import Book
from twisty.rules.book.topology import Cell, spread_of

MARK_LEGEND = (
    "marks after each code: @ entrance, % exit, * on the walk, ! deadly, # impassable "
    "(Wall, Titan band, petrified), blank = passable, . = empty cell"
)


def _mark(status: int, cell: Cell, walk: set[Cell], book: Book) -> str:
    if cell == book.entrance:
        return "@"
    if cell == book.exit:
        return "%"
    if cell in walk:
        return "*"
    if status == PASSABLE:
        return " "
    return "!" if status == DEADLY else "#"


def spread_lines(book: Book, evaluation: Evaluation, walk: list[Cell] | None = None) -> list[str]:
    shape = book.shape
    on_walk = set(walk or [])
    spreads = sorted({spread_of(page) for page in shape.pages})
    blank_page = " ".join(["   "] * shape.width)
    lines: list[str] = []
    for spread in spreads:
        left, right = 2 * spread, 2 * spread + 1
        shown_left = f"page {left}" if shape.has_page(left) and left >= 1 else ""
        shown_right = f"page {right}" if shape.has_page(right) else ""
        width = len(blank_page)
        lines.append(f"spread {spread}")
        lines.append(f"  {shown_left:<{width}} | {shown_right}")
        for row in range(shape.height):
            halves = []
            for page in (left, right):
                if page < 1 or not shape.has_page(page):
                    halves.append(blank_page)
                    continue
                cells = []
                for col in range(shape.width):
                    cell = (page, row, col)
                    index = shape.index(cell)
                    code = code_of(book.contents[index])
                    cells.append(f"{code:<2}{_mark(evaluation.status[index], cell, on_walk, book)}")
                halves.append(" ".join(cells))
            lines.append(f"  {halves[0]} | {halves[1]}".rstrip())
        lines.append("")
    return lines
