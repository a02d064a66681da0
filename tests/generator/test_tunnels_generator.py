"""The encounter generator picks the monster closest to the goal among fights computed one by one."""

from __future__ import annotations

from fractions import Fraction

import pytest

from twisty.generator.tunnels import find_monster
from twisty.rules.tunnels import Delver, FightRules, Monster, fight

DELVER = Delver(combat=2, constitution=4, luck=3, armour=1)
RATINGS, DICE = range(1, 9), range(1, 4)


def _each_fight(rules: FightRules = FightRules()) -> dict[tuple[int, int], object]:
    return {(r, d): fight(DELVER, Monster(r, d), rules) for r in RATINGS for d in DICE}


@pytest.mark.parametrize("target", [Fraction(1, 10), Fraction(1, 2), Fraction(9, 10)])
def test_win_target_is_the_closest_monster(target):
    odds = _each_fight()
    choice = find_monster(DELVER, "win", target, ratings=RATINGS, dice=DICE)
    best_gap = min(abs(o.win - target) for o in odds.values())
    assert abs(odds[(choice.best.rating, choice.best.dice)].win - target) == best_gap
    assert choice.best.odds.win == odds[(choice.best.rating, choice.best.dice)].win
    assert choice.searched == len(RATINGS) * len(DICE)
    assert all(
        abs(n.rating - choice.best.rating) <= 2 and abs(n.dice - choice.best.dice) <= 1 for n in choice.neighbours
    )


def test_survival_threshold_is_the_deadliest_that_meets_it():
    rules = FightRules(upper_hand="monster")
    odds = _each_fight(rules)
    threshold = Fraction(95, 100)
    choice = find_monster(DELVER, "survival", threshold, ratings=RATINGS, dice=DICE, rules=rules)
    meeting = [o.survival for o in odds.values() if o.survival >= threshold]
    assert choice.best.odds.survival == min(meeting)


def test_unreachable_survival_is_refused():
    with pytest.raises(ValueError):
        find_monster(Delver(combat=1, constitution=1), "survival", Fraction(1), ratings=range(5, 7), dice=range(5, 7))
