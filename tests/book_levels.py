"""Small books for the tests, written as level text (so the loader is exercised too)."""

from __future__ import annotations

import random

from twisty.rules.book.contents import CONTENTS, PATH_CONTENTS
from twisty.rules.book.loader import load_book
from twisty.rules.source import LevelError, parse_level_bytes


def book_text(pages: dict[int, str], *, rows: int, cols: int, entrance=None, exit=None, extra: str = "") -> str:
    first = min(pages)
    entrance = entrance or [first, 0, 0]
    exit = exit or [first, 0, 0]
    lines = [
        'game = "book"',
        f"rows = {rows}",
        f"cols = {cols}",
        f"entrance = {list(entrance)}",
        f"exit = {list(exit)}",
        extra,
        "[pages]",
    ]
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


def bow_field_text(bows: int, *, reachable_exit: bool = True, extra: str = "") -> str:
    """One page of 6 rows: a Bow on each column of row 0, a Troll five cells below each (row 5), open ground
    between. Each Bow the walk reaches shoots its own Troll, so the walk search meets 2^bows sets of removals
    (a full evaluation each) and its states grow with them: a book whose check takes long on purpose.
    With `reachable_exit` False the exit sits in a walled cell of two extra columns, and the last Troll is a
    Giant (a Giant shot brings back whatever it crushed, so no bound on the cells a walk may reach holds:
    twisty.rules.book.reach): the search must exhaust every state to prove that no walk exists."""
    top, middle, bottom = ["Bw"] * bows, ["."] * bows, ["Tr"] * bows
    if not reachable_exit:
        bottom[-1] = "Gi"
    rows = [top, *([middle] * 4), bottom]
    cols = bows
    exit_cell = [1, 4, bows - 1]
    if not reachable_exit:
        rows = [row + ["##", "." if number == 2 else "##"] for number, row in enumerate(rows)]
        cols, exit_cell = bows + 2, [1, 2, bows + 1]
    grid = "\n".join(" ".join(row) for row in rows)
    return book_text({1: grid}, rows=6, cols=cols, entrance=[1, 2, 0], exit=exit_cell, extra=extra)


# Contents of random books without path rules (and without the Boss, which needs its local rule).
STATIC_CODES = [
    content.code
    for name, content in CONTENTS.items()
    if name not in PATH_CONTENTS | {"Boss", "Bazooka", "Tweezers", "Excalibur"}
]
FILLER = [".", "Ru", "Ms"]


def random_book_from(chooser, rows, cols, first, count, palette, density, filler, medusa_chance=0.0):
    """A random book of these pages, each cell from `palette` with chance `density` (else from `filler`),
    the entrance and exit anywhere, the Medusa rule on the first spread with `medusa_chance`; None when it is
    invalid (a pack of more than six Wolves)."""
    pages = {
        page: "\n".join(
            " ".join(
                chooser.choice(palette) if chooser.random() < density else chooser.choice(filler) for _ in range(cols)
            )
            for _ in range(rows)
        )
        for page in range(first, first + count)
    }

    def any_cell():
        return [chooser.randint(first, first + count - 1), chooser.randrange(rows), chooser.randrange(cols)]

    medusa = medusa_chance and chooser.random() < medusa_chance
    extra = f'[[local]]\nrule = "medusa"\npage = {first}\n' if medusa else ""
    text = book_text(pages, rows=rows, cols=cols, entrance=any_cell(), exit=any_cell(), extra=extra)
    try:
        return load_book(parse_level_bytes(text.encode(), "random.toml"))
    except LevelError:
        return None


def random_book(seed: int):
    """A small random book without path rules (None when it is invalid: a pack of more than six Wolves).
    A small palette per book makes packs, melees, Giants in line and Vampire chains likely."""
    chooser = random.Random(seed)
    rows, cols = chooser.randint(1, 4), chooser.randint(1, 4)
    first, count = chooser.randint(1, 3), chooser.randint(1, 3)
    density = chooser.random()
    palette = chooser.sample(STATIC_CODES, chooser.randint(2, 6))
    return random_book_from(chooser, rows, cols, first, count, palette, density, FILLER, medusa_chance=0.5)
