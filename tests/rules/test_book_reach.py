"""The bound on the cells a walk may reach (twisty.rules.book.reach): never smaller than the corridor, and
small enough to prove books unsolvable that the walk search would have to exhaust."""

from tests.book_levels import make_book
from tests.solver.test_book_walk_differential import random_walk_book
from twisty.rules.book.path import PathRules
from twisty.rules.book.reach import cells_a_walk_may_reach
from twisty.solver.book import solve_book


def bound_cells(book):
    found = cells_a_walk_may_reach(PathRules(book))
    return None if found is None else sorted(book.shape.cell(index) for index in found)


def test_the_bound_holds_the_corridor_of_every_random_book():
    bounded = proved = 0
    for seed in range(300):
        book = random_walk_book(seed)
        if book is None:
            continue
        bound = bound_cells(book)
        if bound is None:
            continue
        verdict = solve_book(book, max_walkers=100_000)
        if verdict.corridor is None:
            continue
        bounded += 1
        assert set(verdict.corridor) <= set(bound), f"seed {seed}"
        if book.exit not in bound:
            proved += 1
            assert verdict.status == "unsolvable", f"seed {seed}"
    assert bounded > 200 and proved > 50


def test_a_dragon_before_the_only_sword_bars_the_exit():
    # One row: entrance, open, a Dragon, the Sword, open, the exit. The Dragon can only be slain by a walker
    # holding the Sword, which lies beyond it: no walk passes. The bound knows it (the Sword is never
    # reached), so the exit lies outside; the walker reaches cols 0 and 1 only.
    book = make_book({1: ". . Dr Sd . ."}, rows=1, cols=6, entrance=[1, 0, 0], exit=[1, 0, 5])
    assert bound_cells(book) == [(1, 0, 0), (1, 0, 1)]
    assert solve_book(book).status == "unsolvable"
    # The Sword before the Dragon: the bound takes in the whole row, and the walk of 5 moves slays it.
    book = make_book({1: ". Sd Dr . . ."}, rows=1, cols=6, entrance=[1, 0, 0], exit=[1, 0, 5])
    assert bound_cells(book) == [(1, 0, col) for col in range(6)]
    assert solve_book(book).moves == 5


def test_an_exit_beside_lava_stays_deadly_whatever_is_shot_near_it():
    # One row: entrance, a Bow, four open cells, a Troll (five right of the Bow), the exit, Lava. The Bow
    # shoots the Troll, but the exit is deadly beside the Lava, which nothing removes: outside the bound.
    book = make_book({1: ". Bw . . . . Tr . La"}, rows=1, cols=9, entrance=[1, 0, 0], exit=[1, 0, 7])
    assert bound_cells(book) == [(1, 0, col) for col in range(7)]
    assert solve_book(book).status == "unsolvable"


def test_a_giant_that_may_be_shot_gives_no_bound():
    # The Bow five cells from a Giant: a Giant shot brings back whatever it crushed, anywhere on its row.
    book = make_book({1: ". Bw . . . . Gi ."}, rows=1, cols=8, entrance=[1, 0, 0], exit=[1, 0, 7])
    assert bound_cells(book) is None
