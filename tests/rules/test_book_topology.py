"""`step` and the neighbourhoods built on it, at every kind of page boundary (hand-worked cells).

The book used: pages of 3 rows x 4 columns. Spread 1 = pages 2|3, spread 2 = pages 4|5; leaf 2 carries
recto 3 on its front and verso 4 on its back.
"""

import pytest

from twisty.rules.book.topology import DOWN, LEFT, RIGHT, UP, BookShape, leaf_of, spread_of

BOOK = BookShape(height=3, width=4, first_page=1, last_page=6)


def test_inside_a_page_the_usual_neighbour_and_same_direction():
    assert BOOK.step((2, 1, 1), RIGHT) == ((2, 1, 2), RIGHT)
    assert BOOK.step((2, 1, 1), UP) == ((2, 0, 1), UP)


def test_gutter_joins_the_facing_cells_of_a_spread_both_ways():
    assert BOOK.step((2, 1, 3), RIGHT) == ((3, 1, 0), RIGHT)
    assert BOOK.step((3, 1, 0), LEFT) == ((2, 1, 3), LEFT)


def test_outer_side_edge_leads_to_the_cell_behind_on_the_back_of_the_leaf():
    # Recto 3's right column is backed by verso 4's left column.
    assert BOOK.step((3, 1, 3), RIGHT) == ((4, 1, 0), RIGHT)
    assert BOOK.step((4, 2, 0), LEFT) == ((3, 2, 3), LEFT)


def test_top_and_bottom_edges_wrap_to_the_mirrored_column_and_reverse():
    assert BOOK.step((3, 0, 1), UP) == ((4, 0, 2), DOWN)
    assert BOOK.step((4, 0, 0), UP) == ((3, 0, 3), DOWN)
    assert BOOK.step((3, 2, 0), DOWN) == ((4, 2, 3), UP)
    # A verso wraps to the recto before it (its own leaf), not to its spread partner.
    assert BOOK.step((2, 2, 3), DOWN) == ((1, 2, 0), UP)


def test_first_page_has_nothing_to_its_left_and_last_page_nothing_to_its_right():
    assert BOOK.step((1, 1, 0), LEFT) is None
    assert BOOK.step((6, 1, 3), RIGHT) is None
    # ...but their top edges still lead behind the leaf.
    assert BOOK.step((1, 0, 2), UP) == ((2, 0, 1), DOWN)
    assert BOOK.step((6, 0, 1), UP) == ((5, 0, 2), DOWN)


def test_pages_outside_the_run_of_a_level_do_not_exist():
    run = BookShape(height=3, width=4, first_page=3, last_page=5)
    assert run.step((3, 1, 0), LEFT) is None  # page 2 is not in the file
    assert run.step((5, 0, 1), UP) is None  # page 6 (back of recto 5) is not in the file
    assert run.step((4, 0, 1), UP) == ((3, 0, 2), DOWN)


def test_eight_neighbours_at_a_top_outer_corner():
    # (3,0,3): up and right both lead to (4,0,0), so the corner has six distinct neighbours.
    assert sorted(BOOK.neighbours8((3, 0, 3))) == sorted(
        [(4, 0, 0), (3, 1, 3), (3, 0, 2), (4, 0, 1), (4, 1, 0), (3, 1, 2)]
    )


def test_eight_neighbours_on_a_top_edge_use_the_turned_frame():
    # Up-left of (3,0,1) is what lies behind (3,0,0): (4,0,3); up-right is behind (3,0,2): (4,0,1).
    assert sorted(BOOK.neighbours8((3, 0, 1))) == sorted(
        [(4, 0, 2), (3, 0, 2), (3, 1, 1), (3, 0, 0), (4, 0, 1), (4, 0, 3), (3, 1, 2), (3, 1, 0)]
    )


def test_eight_neighbours_across_the_gutter():
    assert sorted(BOOK.neighbours8((2, 1, 3))) == sorted(
        [(2, 0, 3), (2, 2, 3), (2, 0, 2), (2, 1, 2), (2, 2, 2), (3, 0, 0), (3, 1, 0), (3, 2, 0)]
    )


def test_unbounded_ray_wraps_around_the_leaf():
    # Five steps up from (3,1,1): over the top onto verso 4 moving down, down its column, over the bottom
    # back onto recto 3 moving up.
    assert BOOK.ray((3, 1, 1), UP, length=5) == [(3, 0, 1), (4, 0, 2), (4, 1, 2), (4, 2, 2), (3, 2, 1)]


def test_spread_bounded_rays_cross_the_gutter_but_stop_at_outer_and_top_edges():
    assert BOOK.ray((2, 1, 1), RIGHT, within_spread=True) == [
        (2, 1, 2),
        (2, 1, 3),
        (3, 1, 0),
        (3, 1, 1),
        (3, 1, 2),
        (3, 1, 3),
    ]
    assert BOOK.ray((3, 1, 1), RIGHT, within_spread=True) == [(3, 1, 2), (3, 1, 3)]
    assert BOOK.ray((3, 2, 1), UP, within_spread=True) == [(3, 1, 1), (3, 0, 1)]


def test_two_king_moves_across_the_gutter():
    book = BookShape(height=5, width=5, first_page=1, last_page=4)
    expected = {(2, row, col) for row in range(5) for col in (2, 3, 4)} - {(2, 2, 4)}
    expected |= {(3, row, col) for row in range(5) for col in (0, 1)}
    assert set(book.within_king_moves((2, 2, 4), 2)) == expected


@pytest.mark.parametrize("page, spread, leaf", [(1, 0, 1), (2, 1, 1), (3, 1, 2), (4, 2, 2), (90, 45, 45)])
def test_spreads_and_leaves(page, spread, leaf):
    assert spread_of(page) == spread
    assert leaf_of(page) == leaf


@pytest.mark.parametrize("height, width, first, last", [(3, 4, 1, 6), (1, 1, 1, 4), (2, 5, 3, 8), (4, 2, 2, 3)])
def test_every_step_can_be_walked_back(height, width, first, last):
    """Stepping back (reversed direction, in the arrival frame) from where a step lands returns home."""
    book = BookShape(height, width, first, last)
    for cell in book.cells():
        for direction in (UP, RIGHT, DOWN, LEFT):
            moved = book.step(cell, direction)
            if moved is None:
                continue
            there, heading = moved
            assert book.step(there, heading ^ 2) == (cell, direction ^ 2)


@pytest.mark.parametrize("height, width, first, last", [(3, 4, 1, 6), (2, 5, 3, 8), (4, 3, 1, 3)])
def test_eight_neighbourhood_is_symmetric(height, width, first, last):
    book = BookShape(height, width, first, last)
    for cell in book.cells():
        for other in book.neighbours8(cell):
            assert cell in book.neighbours8(other)
