"""Pools and Clashes against brute force over every roll (itertools.product), up to 5 dice a side."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction

import pytest

from twisty.rules.tunnels import ClashSide, clash, flat_footed_outcomes, pool_outcomes


def _score_and_hits(roll: tuple[int, ...]) -> tuple[int, int]:
    """Straight from the rulebook: the highest single die or the sum of dice showing the same number; the
    face using fewest dice on a tie; hits are the dice left out."""
    best_sum, dice_used = 0, 0
    for face in sorted(set(roll)):
        total = face * roll.count(face)
        if total > best_sum or (total == best_sum and roll.count(face) < dice_used):
            best_sum, dice_used = total, roll.count(face)
    return best_sum, len(roll) - dice_used


def _brute_pool(dice: int) -> dict[tuple[int, int], Fraction]:
    seen = Counter(_score_and_hits(roll) for roll in itertools.product(range(1, 7), repeat=dice))
    return {result: Fraction(count, 6**dice) for result, count in seen.items()}


def _judge(
    a: tuple[int, int], a_dice: int, b: tuple[int, int], b_dice: int, a_flat: bool = False, b_flat: bool = False
) -> tuple[str, int]:
    """(winner, wounds to the loser) for one pair of results, straight from the rulebook's steps."""
    (score_a, hits_a), (score_b, hits_b) = a, b
    if score_a != score_b:
        winner = "a" if score_a > score_b else "b"
    elif hits_a != hits_b:
        winner = "a" if hits_a > hits_b else "b"
    elif a_dice != b_dice:
        winner = "a" if a_dice < b_dice else "b"
    else:
        return "indecisive", 0
    if (winner == "a" and a_flat) or (winner == "b" and b_flat):
        return winner, 0
    left = hits_a - hits_b if winner == "a" else hits_b - hits_a
    return winner, max(1, left)


def _brute_clash(a_dice: int, b_dice: int) -> Counter:
    """Every pair of rolls, one by one."""
    outcomes: Counter = Counter()
    a_rolls = [_score_and_hits(r) for r in itertools.product(range(1, 7), repeat=a_dice)]
    b_rolls = [_score_and_hits(r) for r in itertools.product(range(1, 7), repeat=b_dice)]
    for a_result in a_rolls:
        for b_result in b_rolls:
            outcomes[_judge(a_result, a_dice, b_result, b_dice)] += 1
    total = 6 ** (a_dice + b_dice)
    return Counter({key: Fraction(count, total) for key, count in outcomes.items()})


def _clash_from_brute_pools(a_dice: int, b_dice: int) -> Counter:
    """Pairs of results of brute-force pools (every roll of each side), for sizes where pairs of rolls
    are too many."""
    outcomes: Counter = Counter()
    for a_result, pa in _brute_pool(a_dice).items():
        for b_result, pb in _brute_pool(b_dice).items():
            outcomes[_judge(a_result, a_dice, b_result, b_dice)] += pa * pb
    return outcomes


def _as_counter(odds) -> Counter:
    result: Counter = Counter()
    for wounds, p in odds.wounds_dealt_by_a.items():
        result[("a", wounds)] += p
    for wounds, p in odds.wounds_dealt_by_b.items():
        result[("b", wounds)] += p
    if odds.indecisive:
        result[("indecisive", 0)] = odds.indecisive
    return result


@pytest.mark.parametrize("dice", range(0, 7))
def test_pool_matches_every_roll(dice):
    assert pool_outcomes(dice).distribution() == _brute_pool(dice)


def test_pool_tie_takes_the_face_with_fewest_dice():
    # 2,2,2,3,3,6: the twos, the threes and the six all make 6; the six uses one die, leaving 5 hits.
    assert _score_and_hits((2, 2, 2, 3, 3, 6)) == (6, 5)
    assert pool_outcomes(1).distribution()[(6, 0)] == Fraction(1, 6)
    # Two dice: one six and one of 1..5 (10 ordered rolls) score 6 with 1 hit; 3-3 scores 6 with no hit.
    two = pool_outcomes(2).distribution()
    assert two[(6, 1)] == Fraction(10, 36)
    assert two[(6, 0)] == Fraction(1, 36)
    assert two[(12, 0)] == Fraction(1, 36)


@pytest.mark.parametrize("a_dice,b_dice", [(0, 1), (1, 1), (1, 2), (2, 2), (3, 1), (2, 4), (3, 3), (4, 3)])
def test_clash_matches_every_pair_of_rolls(a_dice, b_dice):
    assert _as_counter(clash(ClashSide(a_dice), ClashSide(b_dice))) == _brute_clash(a_dice, b_dice)


@pytest.mark.slow
@pytest.mark.parametrize("a_dice,b_dice", [(4, 4), (5, 4), (5, 5)])
def test_clash_matches_every_pair_of_rolls_large(a_dice, b_dice):
    assert _as_counter(clash(ClashSide(a_dice), ClashSide(b_dice))) == _brute_clash(a_dice, b_dice)


@pytest.mark.parametrize("a_dice,b_dice", [(a, b) for a in range(1, 6) for b in range(1, 6)])
def test_clash_matches_brute_force_pools_up_to_five(a_dice, b_dice):
    assert _as_counter(clash(ClashSide(a_dice), ClashSide(b_dice))) == _clash_from_brute_pools(a_dice, b_dice)


def test_clash_probabilities_add_up():
    odds = clash(ClashSide(7), ClashSide(9))
    assert odds.a_wins + odds.b_wins + odds.indecisive == 1


def test_one_die_each_by_hand():
    # Higher face wins with 0 hits each -> 1 wound; equal faces tie on everything: indecisive 6/36.
    odds = clash(ClashSide(1), ClashSide(1))
    assert odds.indecisive == Fraction(6, 36)
    assert odds.a_wins == odds.b_wins == Fraction(15, 36)
    assert odds.wounds_dealt_by_a == {1: Fraction(15, 36)}


def test_fewer_dice_wins_the_full_tie():
    # 1 die vs 2 dice: a tie on score and hits needs the two dice to score with one die and have one hit,
    # which a single die (0 hits) never matches, so no Clash of 1 vs 2 is indecisive.
    assert clash(ClashSide(1), ClashSide(2)).indecisive == 0


def test_upper_hand_is_one_more_die():
    with_upper_hand = clash(ClashSide(2, upper_hand=True), ClashSide(3))
    plain = clash(ClashSide(3), ClashSide(3))
    assert (with_upper_hand.a_wins, with_upper_hand.wounds_dealt_by_b) == (plain.a_wins, plain.wounds_dealt_by_b)
    assert _as_counter(clash(ClashSide(3), ClashSide(1, upper_hand=True))) == _brute_clash(3, 2)


def test_armour_absorbs_wounds_one_for_one():
    odds = clash(ClashSide(4, armour=0), ClashSide(2, armour=2))
    brute = _brute_clash(4, 2)
    to_b = Counter()
    for (winner, wounds), p in brute.items():
        to_b[max(0, wounds - 2) if winner == "a" else 0] += p
    assert odds.wounds_to_b == {w: p for w, p in sorted(to_b.items()) if p}
    assert sum(odds.wounds_to_b.values()) == 1


@pytest.mark.parametrize("luck,shield", [(3, False), (4, True), (0, False), (12, False)])
def test_flat_footed_against_brute_force(luck, shield):
    dice = 3
    odds = clash(ClashSide(flat_footed=True, luck=luck, shield=shield), ClashSide(dice))
    score = luck + (7 if shield else 0)
    expected: Counter = Counter()
    for roll in itertools.product(range(1, 7), repeat=dice):
        expected[_judge((score, 0), 0, _score_and_hits(roll), dice, a_flat=True)] += Fraction(1, 6**dice)
    assert _as_counter(odds) == Counter({k: v for k, v in expected.items() if v})
    # A flat-footed winner never deals a wound.
    assert set(odds.wounds_dealt_by_a) <= {0}


def test_flat_footed_wins_ties_on_fewer_dice():
    # Luck 5 against one die: a 6 beats it, a 5 ties on score (5) and hits (0) and the flat-footed side
    # rolled no dice, so it wins that tie as well as every lower face.
    odds = clash(ClashSide(flat_footed=True, luck=5), ClashSide(1))
    assert odds.a_wins == Fraction(5, 6) and odds.b_wins == Fraction(1, 6)
    assert flat_footed_outcomes(6).dice_rolled == 0


def test_flat_footed_side_cannot_have_the_upper_hand():
    with pytest.raises(ValueError):
        clash(ClashSide(flat_footed=True, upper_hand=True), ClashSide(2))


@pytest.mark.parametrize("dice", [21, 26])
def test_large_pools_are_whole_distributions(dice):
    pool = pool_outcomes(dice)
    assert sum(int(w) for w in pool.ways) == 6**dice
    # Every die showing the same face is the one way to score 6 * dice.
    assert pool.distribution()[(6 * dice, 0)] == Fraction(1, 6**dice)
