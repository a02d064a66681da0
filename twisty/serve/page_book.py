"""The page's editor for Read These Before You Die books: the palette of content codes, one spread's cells
with their status and explanation (what `twisty explain` says) and the walk over them, and the edit of one
cell's code in the level's text (comments and layout kept). The contract: twisty.serve.page_passages."""

from __future__ import annotations

import re
from typing import Any

from twisty.limits import Deadline
from twisty.render.pictures_book import cell_story, chosen_spread, spreads, story_text
from twisty.rules.book.contents import CONTENTS, EMPTY_CODE, code_of, content_named
from twisty.rules.book.evaluation import STATUS_NAMES
from twisty.rules.level import Level
from twisty.serve.edits import EditError


def palette(level: Level) -> list[dict[str, str]]:
    return [{"symbol": EMPTY_CODE, "label": "empty"}] + [
        {"symbol": content.code, "label": f"{content.name} ({content.family})"} for content in CONTENTS.values()
    ]


def grid(level: Level, verdict: Any | None, spread: int | None, deadline: Deadline) -> dict[str, Any] | None:
    """The cells of one spread (None: the entrance's): code, status and the explanation of each."""
    book = getattr(verdict, "book", None)
    if verdict is None or book is None:
        return None
    spread = chosen_spread(book, spread)
    shape = book.shape
    initial = verdict.analysis.initial if verdict.analysis is not None else None
    pages: list[dict[str, Any] | None] = []
    for page in (2 * spread, 2 * spread + 1):
        if page < 1 or not shape.has_page(page):
            pages.append(None)
            continue
        cells = []
        for row in range(shape.height):
            deadline.check()
            line = []
            for col in range(shape.width):
                index = shape.index((page, row, col))
                status = STATUS_NAMES[initial.status[index]] if initial is not None else None
                line.append(
                    {
                        "code": code_of(book.contents[index]),
                        "status": status,
                        "explain": story_text(cell_story(verdict, (page, row, col))),
                    }
                )
            cells.append(line)
        pages.append({"page": page, "cells": cells})
    on_spread = [list(cell) for cell in verdict.walk if shape.contains(cell) and cell[0] // 2 == spread]
    return {
        "kind": "spread",
        "spread": spread,
        "spreads": spreads(book),
        "pages": pages,
        "walk": on_spread,
        "entrance": list(book.entrance),
        "exit": list(book.exit),
    }


def landed(before: Level, after: Level, cell: list[int], symbol: str) -> bool:
    """Whether the changed level's cell holds what was asked."""
    return bool(after.model.content((cell[0], cell[1], cell[2])) == content_named(symbol))


def edit(level: Level, text: str, cell: list[int], symbol: str) -> str:
    """The text with cell (page, row, col) holding the content coded `symbol`."""
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
