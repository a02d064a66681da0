"""Seeded random books with path rules, of the kind a designer writes without tuning them for twisty.

A book of a few pages: about half the cells empty, a tenth path items (Bows, Swords, Masks, Molotovs,
Bridges), the rest creatures, terrain and items of the static rules; the entrance on the first page, the
exit on the last, and a middle page of mostly deadly cells (Dragons, Trolls, Zombies, Spikes...) that only
the path rules cross. Each book is written as level text and read by the loader, like any level.

`family_book(seed, size)` draws one book of a size class (`SIZES`): "small" is 3 to 4 pages of 3x3 to 5x6
cells with 72 to 120 cells in all; the larger classes have more and larger pages, up to 10 pages of 8x10.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from twisty.rules.book.contents import code_of
from twisty.rules.book.loader import load_book
from twisty.rules.book.model import Book
from twisty.rules.source import LevelError, parse_level_bytes

PATH_ITEMS = ("Bow", "Sword", "Mask", "Molotov", "Bridge")
# What the path items act on (Bows shoot deadly creatures, Swords slay Dragons, Molotovs burn Zombies, the
# Mask walks over runs of one kind), and the rest of the static rules' cast.
TARGETS = ("Troll", "Ogre", "Dragon", "Zombie", "Skeleton", "Mummy")
OTHERS = (
    "Goblin",
    "Thief",
    "Bandit",
    "Wolf",
    "Wolf",
    "Giant",
    "Orc",
    "Dwarf",
    "Vampire",
    "Mage",
    "Wraith",
    "Rat",
    "Spikes",
    "Swamp",
    "Rubble",
    "Moss",
    "Wall",
    "Gold",
    "Scroll",
    "Torch",
    "Shadow",
    "Lava",
    "2",
    "Mimic",
)
DEADLY_MIDDLE = ("Dragon", "Dragon", "Troll", "Zombie", "Zombie", "Ogre", "Spikes", "Swamp", "Mummy")


@dataclass(frozen=True)
class Size:
    name: str
    pages: tuple[int, int]  # fewest and most pages
    rows: tuple[int, int]
    cols: tuple[int, int]
    cells: tuple[int, int]  # fewest and most cells in all


SIZES = {
    "small": Size("small", (3, 4), (3, 5), (3, 6), (72, 120)),
    "medium": Size("medium", (5, 6), (5, 6), (6, 8), (150, 288)),
    "large": Size("large", (10, 10), (8, 8), (10, 10), (800, 800)),
}


def family_text(seed: int, size: Size | str = "small", attempt: int = 0) -> str:
    """The level text of one random book of the family (the same for the same seed, size and attempt)."""
    size = SIZES[size] if isinstance(size, str) else size
    chooser = random.Random(f"book-family/{size.name}/{seed}/{attempt}")
    while True:
        pages = chooser.randint(*size.pages)
        rows, cols = chooser.randint(*size.rows), chooser.randint(*size.cols)
        if size.cells[0] <= pages * rows * cols <= size.cells[1]:
            break
    first = chooser.randint(1, 2)
    last = first + pages - 1
    middle = first + pages // 2
    grids = {}
    for page in range(first, last + 1):
        lines = []
        for _row in range(rows):
            codes = []
            for _col in range(cols):
                draw = chooser.random()
                if draw < 0.1:
                    name = chooser.choice(PATH_ITEMS)
                elif page == middle:
                    name = chooser.choice(DEADLY_MIDDLE) if draw < 0.7 else ""
                elif draw < 0.5:
                    name = ""
                elif draw < 0.75:
                    name = chooser.choice(TARGETS)
                else:
                    name = chooser.choice(OTHERS)
                codes.append(code_of(name))
            lines.append(" ".join(codes))
        grids[page] = lines
    entrance = (first, chooser.randrange(rows), chooser.randrange(cols))
    exit_cell = (last, chooser.randrange(rows), chooser.randrange(cols))
    for page, row, col in (entrance, exit_cell):
        codes = grids[page][row].split(" ")
        codes[col] = code_of("")
        grids[page][row] = " ".join(codes)
    text = [
        'game = "book"',
        f'title = "random path-rule book {size.name} {seed}"',
        f"rows = {rows}",
        f"cols = {cols}",
        f"entrance = {list(entrance)}",
        f"exit = {list(exit_cell)}",
        "[pages]",
    ]
    for page, lines in grids.items():
        text += [f'{page} = """', *lines, '"""']
    return "\n".join(text) + "\n"


def family_book(seed: int, size: Size | str = "small") -> Book:
    """One random book of the family; a draw the loader refuses (a Wolf pack over six) is drawn again under
    as the next attempt, so every seed gives a valid book."""
    for attempt in range(100):
        text = family_text(seed, size, attempt)
        try:
            return load_book(parse_level_bytes(text.encode(), f"family-{seed}.toml"))
        except LevelError:
            continue
    raise AssertionError(f"no valid book for seed {seed}")  # pragma: no cover - a pack over six 100 times
