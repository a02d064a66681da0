"""Anything that passes validation must never crash later: random small books through `check`."""

import random

from tests.book_levels import book_text
from twisty.checking import CheckOptions
from twisty.report.book import check
from twisty.rules.book.contents import CONTENTS
from twisty.rules.level import level_within
from twisty.rules.source import LevelError, parse_level_bytes

CODES = [content.code for content in CONTENTS.values()] + ["."] * 20 + ["Ru"] * 10


def random_book(seed: int) -> str:
    chooser = random.Random(seed)
    rows, cols = chooser.randint(1, 4), chooser.randint(1, 4)
    first, count = chooser.randint(1, 4), chooser.randint(1, 4)
    pages = {
        page: "\n".join(" ".join(chooser.choice(CODES) for _ in range(cols)) for _ in range(rows))
        for page in range(first, first + count)
    }

    def any_cell():
        return [chooser.randint(first, first + count - 1), chooser.randrange(rows), chooser.randrange(cols)]

    extra = f'[[local]]\nrule = "medusa"\npage = {first}\n' if chooser.random() < 0.3 else ""
    boss_spreads = sorted({page // 2 for page, grid in pages.items() if "Bs" in grid.split()})
    for spread in boss_spreads:
        page = next(page for page in pages if page // 2 == spread)
        extra += f'[[local]]\nrule = "boss"\npage = {page}\n'
    return book_text(pages, rows=rows, cols=cols, entrance=any_cell(), exit=any_cell(), extra=extra)


def test_random_books_are_either_invalid_or_checked():
    outcomes = {"valid": 0, "invalid": 0}
    for seed in range(400):
        try:
            options = CheckOptions()
            verdict = check(
                level_within(parse_level_bytes(random_book(seed).encode(), "random.toml"), options.deadline), options
            )
        except LevelError:
            outcomes["invalid"] += 1
            continue
        assert verdict.to_json()["valid"] and verdict.to_json()["status"] in ("solvable", "unsolvable")
        outcomes["valid"] += 1
    # Most random books are valid (only unpaired Tunnels and packs over six are rejected).
    assert outcomes["valid"] > 200
