"""The random-family bench of the Book's walk: it runs, both searches agree, the table says so (no timing is
asserted here; the figures are in docs/bench-book.md)."""

from twisty.bench.book_random import SIZES, family_book
from twisty.bench.book_walks import run


def test_the_family_draws_books_of_its_sizes():
    for size, shape in SIZES.items():
        book = family_book(3, size)
        pages = book.shape.last_page - book.shape.first_page + 1
        assert shape.pages[0] <= pages <= shape.pages[1]
        assert shape.cells[0] <= book.shape.cell_count <= shape.cells[1]
        assert book.entrance[0] == book.shape.first_page and book.exit[0] == book.shape.last_page
    assert family_book(3).contents == family_book(3).contents  # the same seed, the same book


def test_the_bench_answers_each_book_with_both_searches_and_tabulates_them():
    lines = []
    figures = run(seed=1, books=3, repeat=1, sizes=("small",), progress=lines.append)
    summary = figures["sizes"]["small"]["summary"]
    assert summary["books"] == 3
    assert summary["walk_decided"] == {"twisty": 3, "plain": 3}
    assert summary["corridor_decided"]["twisty"] == 3
    assert lines[0] == "small: 3 books measured"
    assert lines[-2].split()[:2] == ["small", "3"]
