"""The walk search's answers in order of cost, and what it may forget.

Each book is hand-made, its answers worked out by hand in the comments; where the search forgets part of its
state, a second run with that forgetting broken on purpose shows that the book does depend on it.
"""

import json

from click.testing import CliRunner

import twisty.solver.book
import twisty.solver.book_search
from tests.book_levels import book_text, bow_field_text, make_book
from twisty.bench.book_plain import PlainSearch
from twisty.cli import main
from twisty.limits import Deadline
from twisty.rules.book.loader import load_book
from twisty.rules.book.path import PathRules
from twisty.rules.source import parse_level_bytes
from twisty.solver.book import reading_differences, resume_corridor, solve_book

# --- forgetting a Bow that fired: only when nothing it left can turn deadly ----------------------------

# One page of 3 rows, rows 1 and 2 Walls; row 0: the entrance, Bow B1, an open cell, Bow B2, two open cells,
# a Wraith, the exit, a Mage with a Scroll beside him (which makes him deadly), an open cell. The page holds
# a Mage, so the Wraith is harmless. Rays leave the page only sideways (no other page exists).
# B1 (col 1) aims at the Wraith (col 6), B2 (col 3) at the Mage (col 8). The walk must pass B1, then B2:
# B1 finds the Wraith harmless and hits nothing; B2 shoots the deadly Mage, and without a Mage the Wraith is
# deadly, barring the exit. Reaching B1 again does nothing: it was reached already. No walk; the corridor is
# cols 0 to 5. A search that forgot B1 once it had fired would let it fire again: on to B2 (3 moves), back to
# B1 (2), which now shoots the Wraith, and on to the exit (6): a walk of 11 moves.
WRAITH_REVIVED = book_text(
    {1: ". Bw . Bw . . Wr . Ma Sc .\n" + "\n".join(" ".join(["##"] * 11) for _ in range(2))},
    rows=3,
    cols=11,
    entrance=[1, 0, 0],
    exit=[1, 0, 7],
)


def wraith_book():
    return load_book(parse_level_bytes(WRAITH_REVIVED.encode(), "wraith.toml"))


def test_a_bow_whose_harmless_target_turns_deadly_is_not_forgotten(monkeypatch):
    monkeypatch.setattr(twisty.solver.book_search, "REFINE_AFTER", 0)
    verdict = solve_book(wraith_book())
    assert (verdict.status, verdict.corridor) == ("unsolvable", [(1, 0, col) for col in range(6)])
    plain = PlainSearch(wraith_book()).run()
    assert (plain.solvable, plain.corridor) == (False, verdict.corridor)
    # The same search told that nothing can bring a creature back forgets B1 and walks out.
    monkeypatch.setattr(PathRules, "_revival", lambda self: lambda index: False)
    assert solve_book(wraith_book()).moves == 11


def test_a_bow_whose_leftover_targets_stay_harmless_is_forgotten(monkeypatch):
    # Row 0: five Bows (cols 0 to 4), each five cells left of a Goblin (cols 5 to 9); row 1 open, the walk
    # along it from col 0 to col 9 (9 moves, the only shortest walk). Goblins are never deadly and nothing
    # in the book could make them so: with the finer forgetting a Bow is spent once reached, and every cell
    # is one walker (20). Kept in the state while its Goblin stands, every set of Bows reached is another.
    book = make_book(
        {1: "Bw Bw Bw Bw Bw Go Go Go Go Go\n. . . . . . . . . ."}, rows=2, cols=10, entrance=[1, 1, 0], exit=[1, 1, 9]
    )
    monkeypatch.setattr(twisty.solver.book_search, "REFINE_AFTER", 0)
    refined = solve_book(book)
    assert (refined.moves, refined.shortest_walks, refined.walkers) == (9, 1, 20)
    monkeypatch.setattr(twisty.solver.book_search, "REFINE_AFTER", 10**9)
    kept = solve_book(book)
    assert (kept.moves, kept.shortest_walks, kept.corridor) == (9, 1, refined.corridor)
    assert kept.walkers > 20


def test_swords_with_no_dragon_in_reach_are_forgotten():
    # Two pages of 3x4, every other cell a Sword, no Dragon anywhere: taking a Sword changes nothing, so each
    # cell is one walker (24), where keeping every subset of Swords taken would make thousands.
    grid = "Sd . Sd .\n. Sd . Sd\nSd . Sd ."
    book = make_book({1: grid, 2: grid}, rows=3, cols=4, entrance=[1, 0, 1], exit=[2, 2, 3])
    verdict = solve_book(book)
    assert verdict.walkers == 24 and verdict.evaluations == 1
    assert verdict.moves == PlainSearch(book).run().moves


# --- answers in order of cost -------------------------------------------------------------------------


def test_the_walk_is_answered_without_the_corridor():
    # The bow field of six Bows (tests.book_levels): the exit is reached in 7 moves (row 2 from col 0 to col 5,
    # then down to row 4... 5 right and 2 down), all open; the corridor needs every set of Trolls shot.
    book = load_book(parse_level_bytes(bow_field_text(6).encode(), "bows.toml"))
    walk = solve_book(book, corridor=False)
    whole = solve_book(book)
    assert (walk.status, walk.moves, walk.cap, walk.corridor) == ("solvable", 7, None, None)
    assert (whole.status, whole.moves, whole.shortest_walks) == (walk.status, walk.moves, walk.shortest_walks)
    assert whole.corridor is not None and walk.walkers < whole.walkers


def test_the_last_layer_is_expanded_only_where_a_move_may_end_on_the_exit(monkeypatch):
    # One row, open but for a Bow (col 4) five cells left of a Troll (col 9); the exit on col 0, the entrance
    # on col 2. The walk: col 2, 1, 0 (2 moves, the only one). Its last layer is
    # col 1 (beside the exit) and col 3; only col 1 needs expanding, so the Bow is never reached and the book
    # is never evaluated again: the loader's evaluation is the only one. The corridor goes on from col 3: the
    # Bow shoots the Troll (a second evaluation) and the whole row is open, col 9 its dead end and the entrance
    # its branch (linked both ways), as the plain search finds. (A search this small expands its whole last
    # layer unless told to look for the exit's neighbours from the first walker.)
    book = make_book({1: ". . . . Bw . . . . Tr"}, rows=1, cols=10, entrance=[1, 0, 2], exit=[1, 0, 0])
    assert solve_book(book, corridor=False).evaluations == 2
    monkeypatch.setattr(twisty.solver.book_search, "PROBE_AFTER", 0)
    walk = solve_book(book, corridor=False)
    assert (walk.moves, walk.shortest_walks, walk.evaluations) == (2, 1, 1)
    assert walk.walk == [(1, 0, 2), (1, 0, 1), (1, 0, 0)]
    whole = solve_book(book)
    assert whole.evaluations == 2 and whole.corridor == [(1, 0, col) for col in range(10)]
    assert (whole.branches, whole.dead_ends) == ([(1, 0, 2)], [(1, 0, 9)])
    plain = PlainSearch(book).run()
    assert (plain.moves, plain.shortest_walks, plain.corridor) == (2, 1, whole.corridor)


def field_text(targets: list[str]) -> str:
    """A field of sixteen Bows, each five cells above its target (row 0 and row 5), open ground between; the
    entrance (row 2, col 0) is one move above the exit (row 3, col 0)."""
    return book_text(
        {1: "\n".join([" ".join(["Bw"] * 16), *[" ".join(["."] * 16)] * 4, " ".join(targets)])},
        rows=6,
        cols=16,
        entrance=[1, 2, 0],
        exit=[1, 3, 0],
    )


# Fifteen Trolls and a Giant: the walk takes a few walkers; the corridor is met once every set of the sixteen
# shot is (2^16 books, millions of walkers): a Giant shot may bring back what it crushed, so no bound on the
# cells a walk may reach holds (twisty.rules.book.reach) and nothing decides the corridor sooner.
WIDE_FIELD = field_text(["Tr"] * 15 + ["Gi"])


def test_the_corridor_is_decided_long_before_every_set_of_trolls_is_met():
    # Sixteen Trolls: every cell of the page is in the corridor (a Troll shot opens its cell), and the bound
    # on the cells a walk may reach is the page too. Links by hand: the page is a 6x16 grid with no other page
    # behind it, every step between two cells is made in some walk (a Troll's cell is entered from above once
    # shot, and from its neighbours once they are), so a corner has two links, a side cell three, an inner
    # cell four: every cell but the four corners is a branch (the entrance and the exit, on the left side,
    # have three), and there is no dead end. The search stops once what it met proves it: after a few
    # thousand walkers, not the millions of every set of Trolls shot.
    book = load_book(parse_level_bytes(field_text(["Tr"] * 16).encode(), "field.toml"))
    verdict = solve_book(book, every_rule=False)
    everything = [(1, row, col) for row in range(6) for col in range(16)]
    corners = {(1, 0, 0), (1, 0, 15), (1, 5, 0), (1, 5, 15)}
    assert verdict.corridor == everything
    assert (verdict.branches, verdict.dead_ends) == ([cell for cell in everything if cell not in corners], [])
    assert verdict.walkers < 2**16
    assert verdict.undecided() == ["rules_fired"]


def test_a_cap_after_the_corridor_leaves_only_the_rules_fired_undecided(tmp_path, monkeypatch):
    # The field of sixteen Trolls with a Molotov (row 2, col 2) beside a Mimic (col 3) that copies nothing (its
    # left neighbour is the Molotov, an item): a Molotov beside a Mimic may burn something (if the Mimic were a
    # Zombie), so the rules that may fire include rule 25, which never does. The corridor is decided as in the
    # open field (every cell passable, the same links: every cell but the corners a branch, no dead end); the
    # rules fired are not, when the walker cap strikes first. The text says how many at least.
    row2 = ". . Mo Mm " + " ".join(["."] * 12)
    rows = [" ".join(["Bw"] * 16), " ".join(["."] * 16), row2, *[" ".join(["."] * 16)] * 2, " ".join(["Tr"] * 16)]
    level = tmp_path / "molotov.toml"
    level.write_text(book_text({1: "\n".join(rows)}, rows=6, cols=16, entrance=[1, 2, 0], exit=[1, 3, 0]))
    monkeypatch.setattr(twisty.solver.book, "MAX_WALKERS", 20_000)
    data = json.loads(CliRunner().invoke(main, ["check", "--json", str(level)]).output)
    everything = [[1, row, col] for row in range(6) for col in range(16)]
    corners = [[1, 0, 0], [1, 0, 15], [1, 5, 0], [1, 5, 15]]
    assert (data["status"], data["moves"], data["unique"]) == ("solvable", 1, True)
    assert data["corridor"] == everything and data["dead_ends"] == []
    assert data["branches"] == [cell for cell in everything if cell not in corners]
    assert (data["cap"], data["undecided"]) == ("limit of 20,000 walkers", ["rules_fired"])
    assert 25 not in data["rules_fired_numbers"] and 22 in data["rules_fired_numbers"]
    line = CliRunner().invoke(main, ["check", str(level)]).output.splitlines()[0]
    fired = len(data["rules_fired_numbers"])
    assert f"corridor of 96 cells (92 branches, 0 dead ends); at least {fired} rules fired (limit of 20,000" in line


def test_a_time_limit_in_the_corridor_leaves_the_walk_decided():
    book = load_book(parse_level_bytes(WIDE_FIELD.encode(), "field.toml"))
    verdict = solve_book(book, deadline=Deadline(1))
    assert (verdict.status, verdict.moves, verdict.shortest_walks) == ("solvable", 1, 1)
    assert verdict.cap == "time limit" and verdict.corridor is None
    assert verdict.undecided() == ["corridor", "simple_corridor", "branches", "dead_ends"]


def test_the_corridor_stopped_for_the_readings_is_finished_afterwards(monkeypatch):
    # The corridor is given no time at all before the readings (the reserve is everything left); afterwards
    # it gets what they left and ends with the corridor of a search with no limit.
    book = make_book({1: ". Bw . . . . Tr .\n. . . . . . . ."}, rows=2, cols=8, entrance=[1, 0, 0], exit=[1, 1, 7])
    complete = solve_book(book)
    monkeypatch.setattr(twisty.solver.book, "_reading_reserve", lambda deadline, seconds: 3600.0)
    deadline = Deadline(3600)
    verdict = solve_book(book, deadline=deadline, keep_for_readings=True)
    assert verdict.status == "solvable" and verdict.corridor is None and verdict.cap == "time limit"
    assert reading_differences(book, verdict, deadline=deadline) == []
    resume_corridor(verdict, deadline)
    assert verdict.cap is None
    assert (verdict.corridor, verdict.branches, verdict.dead_ends) == (
        complete.corridor,
        complete.branches,
        complete.dead_ends,
    )
    assert verdict.rules_fired == complete.rules_fired


def test_check_with_a_timeout_answers_the_walk_and_the_readings_and_not_the_corridor(tmp_path):
    # The wide field: the walk and each of the three readings (a walk each) take milliseconds, the corridor
    # far more than three seconds (or two million walkers). Every reading is compared (none differs), the
    # corridor is unknown.
    level = tmp_path / "field.toml"
    level.write_text(WIDE_FIELD)
    result = CliRunner().invoke(main, ["check", "--json", "--timeout", "3", str(level)])
    data = json.loads(result.output)
    assert (data["status"], data["moves"], data["unique"]) == ("solvable", 1, True)
    assert data["cap"] in ("time limit", "limit of 2,000,000 walkers")
    assert data["ambiguities"] == []
    assert data["corridor"] is None
    assert data["undecided"] == ["corridor", "simple_corridor", "branches", "dead_ends"]


def test_readings_after_the_deadline_are_each_undecided_naming_the_time_limit():
    book = load_book(parse_level_bytes(bow_field_text(3).encode(), "bows.toml"))
    verdict = solve_book(book)
    differences = reading_differences(book, verdict, deadline=Deadline(0, memory_bytes=None))
    assert [difference.cap for difference in differences] == ["time limit"] * 3


def test_an_exit_no_walk_can_reach_is_proved_before_the_corridor(tmp_path):
    # The field of sixteen Trolls with two more columns of Walls, the exit walled in at row 2, col 17. After a
    # thousand walkers the search asks which cells any walk may reach (twisty.rules.book.reach): not the
    # exit, so the book is unsolvable at once. The corridor is decided soon after: the field's 96 cells, the
    # Walls beyond col 15 being no cells of it, so its links are those of the open field (as in
    # test_the_corridor_is_decided_long_before_every_set_of_trolls_is_met): every cell but the four corners
    # is a branch (the entrance, an end, has three links), no dead end. The rules that fire are known as soon
    # as some walker has met each rule that may fire at all (twisty.rules.book.reach.rules_that_may_fire):
    # the bad guys (1, the Trolls), the Wall (16), safe items (20, the Bows) and the Bow's shot (22). Every
    # set of Trolls shot is never met.
    rows = [["Bw"] * 16, *[["."] * 16] * 4, ["Tr"] * 16]
    grid = "\n".join(" ".join(row + ["##", "." if number == 2 else "##"]) for number, row in enumerate(rows))
    level = tmp_path / "walled.toml"
    level.write_text(book_text({1: grid}, rows=6, cols=18, entrance=[1, 2, 0], exit=[1, 2, 17]))
    result = CliRunner().invoke(main, ["check", "--json", "--timeout", "3", str(level)])
    data = json.loads(result.output)
    assert (data["status"], data["solvable"], data["unique"]) == ("unsolvable", False, False)
    field = [[1, row, col] for row in range(6) for col in range(16)]
    corners = [[1, 0, 0], [1, 0, 15], [1, 5, 0], [1, 5, 15]]
    assert data["corridor"] == field and data["dead_ends"] == []
    assert data["branches"] == [cell for cell in field if cell not in corners]
    assert data["rules_fired_numbers"] == [1, 16, 20, 22]
    assert data["undecided"] == [] and data["cap"] is None and data["walkers"] < 2**16
    result = CliRunner().invoke(main, ["check", "--timeout", "3", str(level)])
    assert f"{level}: unsolvable (proved), corridor of 96 cells; 4 rules fired" in result.output.splitlines()[0]
