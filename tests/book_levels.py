"""Small books for the tests, written as level text (so the loader is exercised too)."""

from __future__ import annotations

from twisty.rules.book.loader import load_book
from twisty.rules.source import parse_level_bytes


def book_text(pages: dict[int, str], *, rows: int, cols: int, entrance=None, exit=None, extra: str = "") -> str:
    first = min(pages)
    entrance = entrance or [first, 0, 0]
    exit = exit or [first, 0, 0]
    lines = ['game = "book"', f"rows = {rows}", f"cols = {cols}", f"entrance = {list(entrance)}",
             f"exit = {list(exit)}", extra, "[pages]"]
    for page, grid in sorted(pages.items()):
        lines.append(f'{page} = """')
        lines.extend(line.strip() for line in grid.strip().splitlines())
        lines.append('"""')
    return "\n".join(lines) + "\n"


def make_book(pages: dict[int, str], *, rows: int, cols: int, **keywords):
    source = parse_level_bytes(book_text(pages, rows=rows, cols=cols, **keywords).encode(), "test.toml")
    return load_book(source)


def blank(rows: int, cols: int) -> str:
    return "\n".join(" ".join(["."] * cols) for _ in range(rows))
