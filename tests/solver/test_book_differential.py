"""Differential: the rule engine against the CNF encoding (PySAT) on random books without path rules."""

import random

import pytest

from tests.book_levels import book_text
from twisty.encodings.book_cnf import UNSUPPORTED, solve_cnf
from twisty.rules.book.contents import CONTENTS
from twisty.rules.book.loader import load_book
from twisty.rules.book.static import DEADLY, PASSABLE, PETRIFIED, WALL
from twisty.rules.source import LevelError, parse_level_bytes
from twisty.solver.book import solve_book

NAMES = {PASSABLE: "passable", DEADLY: "deadly", WALL: "wall", PETRIFIED: "petrified"}
CODES = [content.code for name, content in CONTENTS.items() if name not in UNSUPPORTED]
FILLER = [".", "Ru", "Ms"]


def random_book(seed: int):
    chooser = random.Random(seed)
    rows, cols = chooser.randint(1, 4), chooser.randint(1, 4)
    first, count = chooser.randint(1, 3), chooser.randint(1, 3)
    density = chooser.random()
    # A small palette per book makes packs, melees, Giants in line and Vampire chains likely.
    palette = chooser.sample(CODES, chooser.randint(2, 6))
    pages = {
        page: "\n".join(
            " ".join(
                chooser.choice(palette) if chooser.random() < density else chooser.choice(FILLER) for _ in range(cols)
            )
            for _ in range(rows)
        )
        for page in range(first, first + count)
    }

    def any_cell():
        return [chooser.randint(first, first + count - 1), chooser.randrange(rows), chooser.randrange(cols)]

    extra = f'[[local]]\nrule = "medusa"\npage = {first}\n' if chooser.random() < 0.5 else ""
    text = book_text(pages, rows=rows, cols=cols, entrance=any_cell(), exit=any_cell(), extra=extra)
    try:
        return load_book(parse_level_bytes(text.encode(), "random.toml"))
    except LevelError:
        return None  # a pack of more than six Wolves


def agree(seed: int) -> bool:
    book = random_book(seed)
    if book is None:
        return False
    engine = solve_book(book)
    cnf = solve_cnf(book)
    statuses = {cell: NAMES[engine.initial.status_of(cell)] for cell in book.shape.cells()}
    differing = {cell: (statuses[cell], cnf.status[cell]) for cell in statuses if statuses[cell] != cnf.status[cell]}
    assert differing == {}, f"seed {seed}"
    assert (engine.solvable, engine.moves) == (cnf.solvable, cnf.moves), f"seed {seed}"
    return True


def test_engine_and_cnf_agree_on_random_books():
    compared = sum(agree(seed) for seed in range(120))
    assert compared > 100


@pytest.mark.slow
def test_engine_and_cnf_agree_on_many_random_books():
    compared = sum(agree(seed) for seed in range(120, 2120))
    assert compared > 1800
