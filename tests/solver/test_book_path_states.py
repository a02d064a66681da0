"""The walk search keeps only the path state that can still change the walk (PathRules.canonical).

Forgetting a spent Bow or Molotov, or a Sword with no Dragon left in reach, must never change an answer: the
search with and without forgetting is compared on random books full of path rules. And it must pay: a
corridor of harmless Bows is one state per cell, where every subset of Bows reached was a state before.
"""

import random

from tests.book_levels import make_book, random_book_from
from twisty.rules.book.path import PathRules
from twisty.solver.book import solve_book

PATH_CODES = ["Bw", "Mo", "Zo", "Tr", "Dr", "Sd", "Mk", "Br", "Si", "Gi", "Wo", "Og", "Th", "Va", "Re"]
MORE_CODES = ["Ma", "Wr", "Sc", "Oc", "Or", "Dw", "To", "Sh", "Mm"]
FILLER = [".", ".", ".", "Ru", "Ms"]


def random_path_book(seed: int):
    chooser = random.Random(seed)
    rows, cols = chooser.randint(2, 4), chooser.randint(2, 5)
    first, count = chooser.randint(1, 2), chooser.randint(1, 4)
    palette = chooser.sample(PATH_CODES, chooser.randint(2, 5)) + chooser.sample(MORE_CODES, chooser.randint(0, 2))
    density = chooser.random()
    return random_book_from(chooser, rows, cols, first, count, palette, density, FILLER)


def answers(verdict):
    final = verdict.final.status if verdict.final is not None else None
    return (
        verdict.status,
        verdict.moves,
        verdict.shortest_walks,
        verdict.corridor,
        verdict.branches,
        verdict.dead_ends,
        sorted(verdict.rules_fired),
        sorted(verdict.walk_rules),
        final,
    )


def test_forgetting_spent_path_state_changes_no_answer(monkeypatch):
    compared = 0
    for seed in range(150):
        book = random_path_book(seed)
        if book is None:
            continue
        forgetting = solve_book(book, max_walkers=20_000)
        with monkeypatch.context() as patch:
            patch.setattr(PathRules, "canonical", lambda self, state: state)
            remembering = solve_book(book, max_walkers=20_000)
        if forgetting.cap or remembering.cap:
            continue
        assert answers(forgetting) == answers(remembering), f"seed {seed}"
        assert forgetting.walkers <= remembering.walkers
        compared += 1
    assert compared > 120


def test_harmless_bows_along_a_corridor_are_one_state_per_cell():
    # One row of twelve cells, a Bow on every other one, nothing five cells away from any of them in a
    # direction that exists (the page has one row and the pages beyond do not exist): no Bow can ever hit,
    # so reaching one changes nothing. Twelve cells, one walker each, the book evaluated once.
    book = make_book({1: ". Bw . Bw . Bw . Bw . Bw . Bw"}, rows=1, cols=12, entrance=[1, 0, 0], exit=[1, 0, 11])
    verdict = solve_book(book)
    assert (verdict.moves, verdict.walkers, verdict.evaluations) == (11, 12, 1)


def test_a_bow_that_has_shot_its_only_target_is_forgotten():
    # Row 0: the entrance, a Bow, open cells, and the Troll five cells right of the Bow (col 6), which bars
    # the exit at col 7 until the Bow shoots it. Walkers: the entrance before the shot, then every cell of the
    # row after it (the Bow's cell, col 0 again, cols 2-7): reaching the Bow again is the state after the shot,
    # not a third one. 2 evaluations (before and after), 1 + 8 walkers, a walk of 7 moves.
    book = make_book({1: ". Bw . . . . Tr ."}, rows=1, cols=8, entrance=[1, 0, 0], exit=[1, 0, 7])
    verdict = solve_book(book)
    assert verdict.moves == 7
    assert 22 in verdict.walk_rules
    assert verdict.evaluations == 2
    assert verdict.walkers == 1 + 8
