"""Differential: the walk search against a plain breadth-first search and against the SAT engine.

The plain search (`twisty.bench.book_plain`) shares nothing with the walk engine but the book's model, its
adjacency and the static rules: it keeps every state whole (no forgetting, no tables, no packing). On random
books full of path rules (Bows, Molotovs, Swords, Masks, Bridges, Tunnels, the Boss, the Medusa rule) the
walk search must give the same solvability, shortest length, number of shortest walks (up to 2) and corridor
with its branches and dead ends; the SAT engine (the rules as clauses) the same solvability, length and
count. Half of the books are searched with the finer forgetting of spent weapons from the first walker
(`PathRules.refine`), which a search of a few hundred walkers does not use otherwise; a third ask whether the
corridor is decided from the first walker on (`WalkSearch.settled`: the corridor is then taken from the
walkers met so far, and the search stops there), which a search of a thousand walkers does not ask otherwise.
"""

import random

import pytest

import twisty.solver.book_search
from tests.book_levels import book_text
from tests.solver.test_book_path_states import random_path_book
from twisty.bench.book_plain import PlainSearch
from twisty.errors import UsageError
from twisty.limits import Deadline
from twisty.rules.book.loader import load_book
from twisty.rules.source import LevelError, parse_level_bytes
from twisty.solver.book import CORRIDOR_ONLY, solve_book
from twisty.solver.book_sat import solve_book_sat

PATH = ["Bw", "Mo", "Sd", "Mk", "Br"]
TARGETS = ["Zo", "Dr", "Tr", "Og", "Tr", "Dr"]
OTHERS = ["Wo", "Gi", "Ma", "Wr", "Or", "Dw", "Th", "Gd", "Va", "Oc", "Mm", "Sc", "To", "Sh", "Re", "Si", "##", "2"]


def random_walk_book(seed: int):
    """A small book of a few pages full of path rules: the tests' own draws (`random_path_book`) for even
    seeds; for odd ones, pages of 2 to 4 rows and 2 to 5 columns with path items, their targets and a mix of
    the static rules, a Tunnel pair on one leaf now and then, the Boss with its weapons, or the Medusa rule.
    None when the draw is not a valid level (a Wolf pack over six)."""
    if seed % 2 == 0:
        return random_path_book(seed)
    chooser = random.Random(seed)
    rows, cols = chooser.randint(2, 4), chooser.randint(2, 5)
    first, count = chooser.choice([1, 3]), chooser.randint(2, 4)
    pages = list(range(first, first + count))
    grids = {
        page: [
            [
                chooser.choice(PATH)
                if (draw := chooser.random()) < 0.15
                else chooser.choice(TARGETS)
                if draw < 0.4
                else chooser.choice(OTHERS)
                if draw < 0.55
                else chooser.choice([".", ".", "Ru"])
                for _ in range(cols)
            ]
            for _ in range(rows)
        ]
        for page in pages
    }

    def any_cell(page=None):
        return [page or chooser.choice(pages), chooser.randrange(rows), chooser.randrange(cols)]

    extra = ""
    if chooser.random() < 0.4:  # a Tunnel on each side of the first leaf (first page odd: its front)
        for page in (first, first + 1):
            _, row, col = any_cell(page)
            grids[page][row][col] = "Tu"
    if chooser.random() < 0.25:
        boss_page = chooser.choice(pages)
        _, row, col = any_cell(boss_page)
        grids[boss_page][row][col] = "Bs"
        for weapon in ("Bz", "Tw"):
            page, row, col = any_cell()
            grids[page][row][col] = weapon
        extra += f'[[local]]\nrule = "boss"\npage = {boss_page}\nitems = ["Bazooka", "Tweezers"]\n'
    if chooser.random() < 0.2:
        extra += f'[[local]]\nrule = "medusa"\npage = {first}\n'
        page, row, col = any_cell(first)
        grids[page][row][col] = chooser.choice(["Me", "Mr"])
    text = book_text(
        {page: "\n".join(" ".join(line) for line in grid) for page, grid in grids.items()},
        rows=rows,
        cols=cols,
        entrance=any_cell(),
        exit=any_cell(),
        extra=extra,
    )
    try:
        return load_book(parse_level_bytes(text.encode(), f"walk-{seed}.toml"))
    except LevelError:
        return None


def walk_answers(answers) -> tuple:
    return (answers.solvable, answers.moves, answers.shortest_walks)


def corridor_answers(answers) -> tuple:
    return (answers.corridor, answers.branches, answers.dead_ends)


# The plain search keeps every state whole: a book with twenty Swords and no Dragon has millions of them
# (every subset of Swords taken), where the walk search forgets the Swords. Such a book is compared on what the
# plain search decided within this many states. A few books are hard for both: one of 80 cells in two
# thousand has tens of thousands of sets of removals a walk can make (and two million walkers); the walk
# search stops at this many walkers, and a book it stops on is compared on what it decided.
PLAIN_STATES = 200_000
OUR_WALKERS = 200_000


def compare(seeds, monkeypatch) -> tuple[int, int, int, int]:
    """(books compared with the plain search to the end, books compared with SAT, books drawn, books whose
    corridor was decided before every walker was met)."""
    plain_compared = sat_compared = drawn = settled = 0
    for seed in seeds:
        book = random_walk_book(seed)
        if book is None:
            continue
        drawn += 1
        monkeypatch.setattr(twisty.solver.book_search, "REFINE_AFTER", 0 if seed % 4 < 2 else 1024)
        early = seed % 3 == 0
        monkeypatch.setattr(twisty.solver.book_search, "SETTLE_AFTER", 1 if early else 1024)
        ours = solve_book(book, max_walkers=OUR_WALKERS, every_rule=not early)
        settled += ours.cap == CORRIDOR_ONLY
        plain = PlainSearch(book).run(max_states=PLAIN_STATES)
        if ours.unique is not None and (plain.moves is not None or not plain.stopped):
            assert walk_answers(ours) == walk_answers(plain), f"seed {seed}"
        if ours.cap in (None, CORRIDOR_ONLY) and not plain.stopped:
            assert corridor_answers(ours) == corridor_answers(plain), f"seed {seed}"
            plain_compared += 1
        try:
            sat = solve_book_sat(book, deadline=Deadline(5))
        except UsageError:
            continue  # the Boss, or more events on a walk than the SAT model holds
        if sat.cap is None and ours.unique is not None:
            assert (sat.status, sat.moves, sat.shortest_walks) == (ours.status, ours.moves, ours.shortest_walks), (
                f"seed {seed}"
            )
            sat_compared += 1
    return plain_compared, sat_compared, drawn, settled


def test_the_walk_search_agrees_with_a_plain_search_and_with_sat_on_random_path_rule_books(monkeypatch):
    plain, sat, drawn, settled = compare(range(220), monkeypatch)
    assert drawn >= 200 and plain >= 0.97 * drawn
    assert sat >= 0.8 * drawn
    assert settled >= 8  # (10 of the 73 books searched so: most of these books are too small to settle early)


@pytest.mark.slow
def test_the_walk_search_agrees_on_two_thousand_random_path_rule_books(monkeypatch, slow_sample):
    seeds = slow_sample(range(10_000, 12_200))
    plain, sat, drawn, settled = compare(seeds, monkeypatch)
    # 40 of these 2,200 seeds draw no valid book; a sample of them can hold a few more than its share.
    assert drawn >= 0.8 * len(seeds) and plain >= 0.97 * drawn
    assert sat >= 0.8 * drawn
