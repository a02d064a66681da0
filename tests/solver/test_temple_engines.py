"""Both Temple Twist engines on small rounds whose answers are worked out by hand (in the comments), and
the two engines against each other on random rounds (100 here, 500 more under -m slow).

The 3 x 3 temple: rooms a..i row by row, no walls, the pink door under g, the die in g with the bottom down.
With no walls a quarter turn sends the die to a corner; from (bottom, g):
    turn2: L (left, g); LL (top, a); LR (bottom, g); R (right, i); RR (top, c); RL (bottom, i)
    turnAny right: (right, i), (top, c), (left, a), (bottom, g); left: (left, g), (top, a), (right, c), (bottom, i)
Every fall here crosses two rooms (a corner to the next).
"""

from __future__ import annotations

import random

import pytest

from twisty.generator.temple import random_round
from twisty.limits import Deadline
from twisty.rules.source import parse_level_bytes
from twisty.rules.temple.loader import load_round
from twisty.solver.temple_portfolio import TempleAnalysis, analyse

EMPTY = '''
[temple]
map = """
+-----+
|a b c|
|     |
|d e f|
|     |
|g h i|
+P----+
"""
doors = { P = "pink" }
pieces = 4
'''
ENGINES = ("search", "sat")


def solve(keys: str, engine: str, challenges: str = "") -> TempleAnalysis:
    text = 'game = "temple"\ndoor = "pink"\n' + keys + EMPTY + (f"[challenges]\n{challenges}\n" if challenges else "")
    round_ = load_round(parse_level_bytes(text.encode(), "<test>"))
    return analyse(round_, Deadline(60), engine=engine)


def answers(analysis: TempleAnalysis) -> tuple:
    return (analysis.solvable, analysis.turns, analysis.unique, analysis.bounce_safe_turns, analysis.pooled_turns)


@pytest.mark.parametrize("engine", ENGINES)
def test_two_turns_out_and_back_and_the_plan_is_unique(engine):
    # revealed c. One turn cannot both explore c and end at g, so at least 2. Player 1's turnAny right twice:
    # (top, c); player 2's turn2 right, right: c -> b -> a, a -> d -> g: (bottom, g), won in 2.
    # Unique: turn 1 must end in c: (top, c) by right-right (turnAny or turn2), or (right, c) by turnAny left
    # x3; from (right, c) only turnAny right x3 reaches (bottom, g), and the turnAny is gone. From (top, c)
    # right-right is the only way. Every fall is 2 rooms (bounce 2: safe). Pooled: also 2.
    keys = 'revealed = ["c"]\nhands = [["turnAny"], ["turn2"]]\n'
    assert answers(solve(keys, engine)) == (True, 2, True, 2, 2)
    # With bounce 1 every fall of 2 may bounce, and 2 turns are all the hands allow: no bounce-safe plan.
    assert solve(keys + "bounce = 1\n", engine).bounce_safe is False


@pytest.mark.parametrize("engine", ENGINES)
def test_a_round_that_needs_the_swap(engine):
    # Player 1 holds only turn1 (left: (left, g); right: (right, i)): it cannot reach c. Swapping it for
    # player 2's turn2 (or turnAny), player 1 turns right-right to (top, c); player 2 then turns right twice
    # with what is left: (bottom, g). Both swaps give the same temple states: unique. Without the swap token
    # the round cannot be won (player 1 has one card, so only 2 turns are ever played).
    keys = 'revealed = ["c"]\nhands = [["turn1"], ["turn2", "turnAny"]]\n'
    analysis = solve(keys, engine)
    assert answers(analysis) == (True, 2, True, 2, 2)
    assert analysis.plan is not None and analysis.plan.records[0].turn.swap is not None
    assert answers(solve(keys + "swap = false\n", engine))[:3] == (False, None, False)


@pytest.mark.parametrize("engine", ENGINES)
def test_only_wall_cards_never_lift_the_die_off_the_bottom_row(engine):
    # Bottom down and no turn card: walls only move the die down, and it is on the bottom row already, so c
    # (top row) is never explored. Unwinnable, pooled too.
    analysis = solve('revealed = ["c"]\nhands = [["wall1", "wall2"], ["move"]]\n', engine)
    assert answers(analysis) == (False, None, False, None, None)
    assert analysis.bounce_safe is False and analysis.pooled_solvable is False


@pytest.mark.parametrize("engine", ENGINES)
def test_no_entry_on_the_only_way_back(engine):
    # The two-turn round above: its only plan comes back through b (c -> b -> a). No entry b: unwinnable
    # (2 turns are all the hands allow).
    keys = 'revealed = ["c"]\nhands = [["turnAny"], ["turn2"]]\n'
    assert answers(solve(keys, engine, 'no_entry = "b"'))[:3] == (False, None, False)
    # No entry in the die's own room: lost before it starts.
    assert solve(keys, engine, 'no_entry = "g"').solvable is False


@pytest.mark.parametrize("engine", ENGINES)
def test_always_in_order_makes_a_round_unique(engine):
    # Three players with one turn2 each; revealed a and c.
    # In any order: a first: (top, a) by LL; then c: L (right, c) or LR (top, c); from (top, c) RR reaches
    # (bottom, g), from (right, c) nothing does. c first: (top, c) by RR; then a: R (left, a) or RL (top, a);
    # back by R or RR. So three shortest plans of 3 turns (3 = two rooms + the door, the least possible).
    keys = 'revealed = ["a", "c"]\nhands = [["turn2"], ["turn2"], ["turn2"]]\n'
    assert answers(solve(keys, engine))[:3] == (True, 3, False)
    # In order a, c: only (top, a), (top, c), (bottom, g). Its falls: g -> d -> a, a -> b -> c, c -> b -> a,
    # a -> d -> g, all of 2: bounce-safe in 3. Pooled: 3.
    assert answers(solve(keys, engine, "always_in_order = true")) == (True, 3, True, 3, 3)


@pytest.mark.parametrize("engine", ENGINES)
def test_the_secret_mission_adds_a_room(engine):
    # Nothing revealed: forgoing (or LR) ends turn 1 at (bottom, g), the same temple state: won in 1, unique.
    keys = 'revealed = []\nhands = [["turn2"], ["turn2"]]\n'
    assert answers(solve(keys, engine))[:3] == (True, 1, True)
    # Secret room c: RR to (top, c), then RR back to (bottom, g): 2 turns, and (top, c) is the only way to c.
    assert answers(solve(keys, engine, 'secret_mission = "c"')) == (True, 2, True, 2, 2)


@pytest.mark.parametrize("engine", ENGINES)
def test_now_it_gets_going(engine):
    # Gets going right. Turn 1: turn1 right (right, i), then the extra right turn: i -> f -> c, (top, c):
    # explores c. (Left: (left, g) then right: (bottom, g); forgoing: (right, i).) Turn 2: right (left, a),
    # then right: a -> d -> g, (bottom, g): won. Only these reach c and then g: 2 turns, unique.
    keys = 'revealed = ["c"]\nhands = [["turn1"], ["turn1"]]\n'
    assert answers(solve(keys, engine, 'gets_going = "right"')) == (True, 2, True, 2, 2)
    # Without it, turn1 alone never reaches c (one quarter turn from g: g or i).
    assert solve(keys, engine).solvable is False


@pytest.mark.parametrize("seed", range(100))
def test_the_engines_agree_on_random_rounds(seed):
    round_ = random_round(random.Random(seed))
    found = [answers_of(analyse(round_, Deadline(120), engine=engine)) for engine in ENGINES]
    assert found[0] == found[1]


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(100, 600))
def test_the_engines_agree_on_random_rounds_long_run(seed):
    round_ = random_round(random.Random(seed), max_cards=6)
    found = [answers_of(analyse(round_, Deadline(300), engine=engine)) for engine in ENGINES]
    assert found[0] == found[1]


def answers_of(analysis: TempleAnalysis) -> tuple:
    """Winnable, fewest turns, unique, bounce-safe turns (and whether there is a bounce-safe plan), pooled."""
    return (
        analysis.solvable,
        analysis.turns,
        analysis.unique,
        analysis.bounce_safe,
        analysis.bounce_safe_turns,
        analysis.pooled_solvable,
        analysis.pooled_turns,
    )


def test_the_random_rounds_cover_the_answers():
    """The first 100 random rounds are not all alike: counted once (both engines agree on each, above)."""
    kinds = {"won": 0, "unique": 0, "not unique": 0, "unwinnable": 0}
    for seed in range(100):
        analysis = analyse(random_round(random.Random(seed)), Deadline(60), engine="search")
        kinds["won" if analysis.solvable else "unwinnable"] += 1
        if analysis.solvable:
            kinds["unique" if analysis.unique else "not unique"] += 1
    assert min(kinds.values()) >= 10, kinds
