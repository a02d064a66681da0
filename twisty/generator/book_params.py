"""What `twisty generate book` asks for: the parameters of a generated book, checked before any work, and
their text forms (ROWSxCOLS, "wolf,vampire"). Apart from the generator so that the book's file text
(book_text) can name them without importing the generator that imports it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from twisty.errors import UsageError, did_you_mean
from twisty.generator.book_families import FAMILIES, PATH_FAMILIES, Family, family_names
from twisty.rules.book.loader import MAX_COLS, MAX_PAGE_NUMBER, MAX_PAGES, MAX_ROWS


@dataclass(frozen=True)
class BookParams:
    pages: int = 6
    rows: int = 6
    cols: int = 8
    rules: tuple[str, ...] = ("wolf", "vampire", "oracle")
    walk_length: int | None = None  # moves; None: about one and a half times the columns per page
    density: float = 0.6  # the share of cells around the corridor that hold something
    first_page: int = 1  # the book's first page (2: a book that starts with a whole spread)

    def validate(self) -> None:
        if not 1 <= self.pages <= MAX_PAGES:
            raise UsageError(f"--pages must be 1 to {MAX_PAGES}, not {self.pages}")
        if not (3 <= self.rows <= MAX_ROWS and 3 <= self.cols <= MAX_COLS):
            raise UsageError(f"--size must be 3x3 to {MAX_ROWS}x{MAX_COLS}, not {self.rows}x{self.cols}")
        unknown = [name for name in self.rules if name not in FAMILIES and name not in PATH_FAMILIES]
        if unknown:
            hint = did_you_mean(unknown[0], family_names())
            raise UsageError(f"unknown rule family {', '.join(unknown)}{hint} (families: {', '.join(family_names())})")
        if not self.rules:
            raise UsageError("--rules names at least one rule family")
        if not 1 <= self.first_page <= MAX_PAGE_NUMBER - self.pages:
            raise UsageError(f"--first-page must be 1 to {MAX_PAGE_NUMBER - self.pages}, not {self.first_page}")
        if not 0.0 <= self.density <= 1.0:
            raise UsageError(f"--density must lie between 0 and 1, not {self.density}")
        if self.walk_length is not None and self.walk_length < self.pages * self.cols:
            raise UsageError(f"--walk-length must be at least {self.pages * self.cols} (the walk crosses every page)")

    @property
    def families(self) -> list[Family]:
        return [FAMILIES[name] for name in self.rules if name in FAMILIES]

    @property
    def path_rules(self) -> frozenset[str]:
        return frozenset(name for name in self.rules if name in PATH_FAMILIES)

    @property
    def length(self) -> int:
        return self.walk_length or self.pages * (self.cols + self.cols // 2)


def parse_size(size: str) -> tuple[int, int]:
    """ROWSxCOLS (for example 6x8: six rows of eight cells)."""
    rows, _, cols = str(size).lower().partition("x")
    if not (rows.strip().isdigit() and cols.strip().isdigit()):
        raise UsageError(f"size is ROWSxCOLS (for example 6x8), not {size!r}")
    return int(rows), int(cols)


def parse_rules(rules: str | Sequence[str]) -> tuple[str, ...]:
    names = rules.split(",") if isinstance(rules, str) else list(rules)
    return tuple(dict.fromkeys(name.strip().lower() for name in names if name.strip()))
