"""The book as a level: its shape, the content of every cell, entrance, exit, tunnels and local rules."""

from __future__ import annotations

from dataclasses import dataclass, field

from twisty.rules.book.topology import BookShape, Cell


@dataclass(frozen=True)
class BossRule:
    """Local rule "The Boss": on `spread`, the Boss is deadly until the walker holds every item named."""

    spread: int
    items: tuple[str, ...]


@dataclass(frozen=True)
class Book:
    shape: BookShape
    contents: tuple[str, ...]  # canonical content name per cell index, "" for an empty cell
    entrance: Cell
    exit: Cell
    tunnels: dict[int, int]  # cell index -> the index of its partner Tunnel
    medusa_spreads: frozenset[int] = frozenset()
    bosses: tuple[BossRule, ...] = ()
    title: str = ""
    # Where each cell's token sits in the level file (line, column), for positioned messages.
    positions: dict[int, tuple[int, int | None]] = field(default_factory=dict, compare=False, hash=False)
    # The evaluation before any walk, kept by the loader (which needs it to reject packs over six).
    cache: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    def content(self, cell: Cell) -> str:
        return self.contents[self.shape.index(cell)]

    def cells_holding(self, name: str) -> list[int]:
        return [index for index, content in enumerate(self.contents) if content == name]
