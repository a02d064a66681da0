"""Every shipped level confirmed by a second engine (tests/shipped_levels.py says which, and why each is
independent of the first), and docs/contributing.md's table of them kept whole; and levels the generators
make afresh, accepted by the engine they were made with, confirmed by the second engine too."""

from __future__ import annotations

import pytest

import twisty
from tests.shipped_levels import FIRST_ENGINE, PUZZLES, ROOT, SECOND_ENGINE, confirm, shipped_levels
from twisty.generator.book import BookParams, generate_book
from twisty.generator.passages import PassagesParams, generate_level
from twisty.solver import passages_grid, passages_search
from twisty.solver.book_sat import solve_book_sat
from twisty.solver.passages_verdict import SOLVABLE, Deadline

LEVELS = shipped_levels()
# The answers engine B must settle on every level; uniqueness by the grid engine is settled where its count
# finishes within its limit (the table says where it does not).
SETTLED = {"passages": ("solvable", "final hp", "least start hp")}


@pytest.mark.slow
@pytest.mark.parametrize("path", LEVELS, ids=[str(path.relative_to(PUZZLES)) for path in LEVELS])
def test_a_second_engine_gives_the_same_answers(path):
    row = confirm(path)
    assert row.agree, (row.a, row.b)
    settled = SETTLED.get(row.game, tuple(row.b))
    assert not set(settled) & set(row.undecided), (row.a, row.b)


def documented_rows() -> dict[str, list[str]]:
    text = (ROOT / "docs" / "contributing.md").read_text(encoding="utf-8")
    table = text.split("<!-- shipped levels: python -m tests.shipped_levels -->")[1].split("<!-- end -->")[0]
    rows = [line.strip("|").split("|") for line in table.strip().splitlines()[2:]]
    return {cells[0].strip(): [cell.strip() for cell in cells] for cells in rows}


def test_the_table_in_the_docs_lists_every_shipped_level_and_each_agrees():
    rows = documented_rows()
    shipped = {str(path.relative_to(PUZZLES)) for path in LEVELS}
    # A level added, renamed or dropped: `python -m tests.shipped_levels` prints the table to paste.
    assert set(rows) == shipped, {"not in the table": sorted(shipped - set(rows)), "gone": sorted(set(rows) - shipped)}
    assert all(cells[-1] == "yes" for cells in rows.values())
    for name, cells in rows.items():
        game = name.split("/")[0]
        assert (cells[1], cells[2]) == (FIRST_ENGINE[game], SECOND_ENGINE[game]), name


@pytest.mark.slow
def test_books_the_generator_makes_are_what_the_sat_engine_finds(slow_sample):
    """The generator accepts a book by the rule engine (one walk, along the corridor): 10 books of 4 pages,
    two seeds of each shipped family mix, read back from their text and answered again by the SAT engine
    alone (solve_book_sat; `check --engine sat` runs the rule engine beside it)."""
    mixes = [
        ("bridge", "tunnel", "bow", "number"),
        ("melee", "giant"),
        ("oracle", "reaper", "lava"),
        ("vampire", "mimic"),
        ("wolf", "rat"),
    ]
    for rules, seed in slow_sample([(rules, seed) for rules in mixes for seed in (2, 3)]):
        made = generate_book(BookParams(pages=4, rows=6, cols=8, rules=rules), seed)
        rules_answer = twisty.check(made.text, engine="rules").to_json()
        sat = solve_book_sat(twisty.load(made.text).model, deadline=Deadline(None))
        assert (sat.status, sat.moves, sat.shortest_walks) == ("solvable", rules_answer["moves"], 1), (rules, seed)
        assert (rules_answer["solvable"], rules_answer["unique"]) == (True, True), (rules, seed)


@pytest.mark.slow
def test_passages_levels_the_generator_makes_are_what_the_grid_engine_finds(slow_sample):
    """The generator accepts a level by the search engine (final life 1, one solution, the least starting
    life): 8 levels of 20 blockers, each answered again by the grid engine."""
    for seed in slow_sample(range(11, 19)):
        made = generate_level(PassagesParams(7, 6, 20, "medium"), seed, passages_search, Deadline(None))
        level = made.level
        best = passages_grid.best_route(level, Deadline(None))
        assert (best.status, best.final_hp, best.proved) == (SOLVABLE, 1, True), seed
        count = passages_grid.count_solutions(level, Deadline(None), 1, 1)
        assert count.complete and (count.solutions, count.capped) == (1, False), seed
        assert passages_grid.min_start_hp(level, Deadline(None)).value == level.player.hp, seed
