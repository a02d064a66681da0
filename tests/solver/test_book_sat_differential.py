"""Differential: the SAT engine (the rules as clauses over what the cells hold) against the rule engine.

On random books, with and without path rules, the two agree on every cell's status before the walk, on
solvability, on the shortest walk's length and on whether it is the only one. A book the SAT engine
cannot finish within a few seconds (an unsolvable book with a long bound) is not compared, and the tests
insist that most books are. A second test holds the clauses themselves, not their constant folding, to the
rules: every cell is given a choice of contents and the book's own is fixed by assumptions.
"""

import random

import pytest

from tests import sampling
from tests.book_levels import make_book, random_book
from tests.solver.test_book_path_states import random_path_book
from twisty.encodings.book_circuit import Circuit, backend
from twisty.encodings.book_sat import BookFrame, Contents, build_static
from twisty.errors import UsageError
from twisty.limits import Deadline
from twisty.rules.book.contents import CONTENTS, PATH_CONTENTS
from twisty.rules.book.static import DEADLY, PASSABLE, PETRIFIED, WALL, evaluate
from twisty.solver.book import solve_book
from twisty.solver.book_sat import solve_book_sat

SECONDS_PER_BOOK = 5


def compare(book) -> bool:
    """True when the engines were compared (and agree); False when the SAT engine did not finish or refused."""
    rules = solve_book(book)
    try:
        sat = solve_book_sat(book, deadline=Deadline(SECONDS_PER_BOOK))
    except UsageError:
        return False  # beyond what the SAT engine models (more than six events on the walk)
    if sat.cap is not None:
        return False
    assert sat.statuses == evaluate(book).status
    assert (sat.status, sat.moves, sat.shortest_walks) == (rules.status, rules.moves, rules.shortest_walks)
    return True


def compare_seeds(seeds, make) -> tuple[int, int]:
    books = [book for book in (make(seed) for seed in seeds) if book is not None]
    return sum(compare(book) for book in books), len(books)


def test_sat_engine_agrees_with_the_rule_engine_on_random_books():
    compared, books = compare_seeds(range(50), random_book)
    assert compared == books  # books without path rules: every one is compared
    compared, books = compare_seeds(range(50), random_path_book)
    assert compared >= 0.85 * books


@pytest.mark.slow
def test_sat_engine_agrees_with_the_rule_engine_on_a_thousand_random_books(slow_sample):
    compared, books = compare_seeds(slow_sample(range(1000, 1500)), random_book)
    assert compared == books
    compared, books = compare_seeds(slow_sample(range(1000, 1500)), random_path_book)
    if sampling.whole():  # the share compared, over the 500 books rather than a sample of them
        assert compared >= 0.85 * books


STATIC_NAMES = sorted(name for name in CONTENTS if name not in PATH_CONTENTS | {"Boss"}) + [""]


def statuses_under_assumptions(book, seed: int) -> list[int]:
    """Each cell may hold its own content or two others; the book's contents are fixed by assumptions."""
    chooser = random.Random(seed)
    circuit = Circuit()
    domains = [frozenset({name, chooser.choice(STATIC_NAMES), chooser.choice(STATIC_NAMES)}) for name in book.contents]
    contents = Contents(circuit, BookFrame(book.shape, book.medusa_spreads), domains)
    model = build_static(circuit, contents)
    answer = backend(circuit).solve([contents.holds(index, name) for index, name in enumerate(book.contents)])
    assert answer is not None and answer.satisfiable
    statuses = []
    for index in range(book.shape.cell_count):
        found = [
            status
            for status, literals in (
                (PASSABLE, model.passable),
                (DEADLY, model.deadly),
                (WALL, model.wall),
                (PETRIFIED, model.petrified),
            )
            if answer.holds(literals[index])
        ]
        assert len(found) == 1
        statuses.append(found[0])
    return statuses


def test_the_clauses_over_free_contents_agree_with_the_rules_once_the_contents_are_assumed():
    checked = 0
    for seed in range(150):
        book = random_book(seed)
        if book is None:
            continue
        assert statuses_under_assumptions(book, seed) == evaluate(book).status, f"seed {seed}"
        checked += 1
    assert checked > 120


# Disagreements found while the engine was built, each kept as a test.


def test_a_page_of_one_cell_folds_onto_itself_and_the_three_ways_over_are_one_move():
    # Pages 3 and 4 are the front and back of one leaf, one cell each. From (3, 0, 0) right (the outer
    # edge), up and down (over the top and bottom edges) all lead to (4, 0, 0): one move, one walk. The
    # first SAT model counted the same move three times and forbade it as "more than one move".
    book = make_book({3: "Ru", 4: "Ms"}, rows=1, cols=1, entrance=[3, 0, 0], exit=[4, 0, 0])
    sat = solve_book_sat(book)
    assert (sat.status, sat.moves, sat.shortest_walks) == ("solvable", 1, 1)
    assert sat.walk == [(3, 0, 0), (4, 0, 0)]
