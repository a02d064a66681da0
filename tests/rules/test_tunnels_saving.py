"""Saving Rolls: the difficulty table, hand-worked cases, an independent recursion and a seeded simulation."""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache
from itertools import pairwise

import pytest

from twisty.rules.tunnels import difficulty_for_level, exploding_sum_at_least, saving_roll_success


def test_difficulty_table_from_the_rulebook():
    assert [difficulty_for_level(level) for level in range(1, 6)] == [9, 12, 15, 18, 21]


def test_difficulty_needs_a_dungeon_level():
    with pytest.raises(ValueError):
        difficulty_for_level(0)


def test_rating_so_high_only_the_flop_fails():
    # 2 of the 36 throws are (1,2) or (2,1).
    assert saving_roll_success(21, 1000) == Fraction(17, 18)
    assert saving_roll_success(9, 6) == Fraction(17, 18)


def test_hand_worked_difficulty_9():
    # Rating 5: every non-flop total (>= 4) reaches 9, doubles too: 34/36.
    assert saving_roll_success(9, 5) == Fraction(34, 36)
    # Rating 4: a first throw of (1,3) or (3,1) falls short: 32/36.
    assert saving_roll_success(9, 4) == Fraction(32, 36)
    # Rating 3 (needs 6): the 22 non-doubles totalling >= 6 succeed; doubles 2-2..6-6 are sure; 1-1 needs
    # the re-roll to reach 4, which fails only on a re-thrown (1,2)/(2,1): 34/36.
    assert saving_roll_success(9, 3) == (22 + 5 + Fraction(34, 36)) / 36


def test_exploding_sum_hand_worked():
    # The re-rolled sum is at least 3 (the smallest non-double throw) and (1,1) goes on to at least 5.
    assert exploding_sum_at_least(3) == 1
    assert exploding_sum_at_least(4) == Fraction(34, 36)
    # Reaching 13 or more needs doubles: 6-6 then anything (>= 3) or 5-5 then >= 3, 4-4 then >= 5,
    # 3-3 then >= 7, 2-2 then >= 9, 1-1 then >= 11.
    expected = (
        2
        + exploding_sum_at_least(5)
        + exploding_sum_at_least(7)
        + exploding_sum_at_least(9)
        + exploding_sum_at_least(11)
    ) / 36
    assert exploding_sum_at_least(13) == expected


@cache
def _reference_reaches(needed: int) -> Fraction:
    """P(a run of throws where doubles continue reaches `needed`), written as a plain recursion."""
    if needed <= 0:
        return Fraction(1)
    ways = Fraction(0)
    for first in range(1, 7):
        for second in range(1, 7):
            if first == second:
                ways += _reference_reaches(needed - 2 * first)
            else:
                ways += 1 if first + second >= needed else 0
    return ways / 36


def _reference_save(difficulty: int, rating: int) -> Fraction:
    ways = Fraction(0)
    for first in range(1, 7):
        for second in range(1, 7):
            if sorted((first, second)) == [1, 2]:
                continue
            if first == second:
                ways += _reference_reaches(difficulty - rating - 2 * first)
            elif first + second + rating >= difficulty:
                ways += 1
    return ways / 36


@pytest.mark.parametrize("difficulty", [1, 4, 9, 12, 15, 18, 21, 30, 45, 60])
def test_matches_independent_recursion(difficulty):
    for rating in range(0, 25):
        assert saving_roll_success(difficulty, rating) == _reference_save(difficulty, rating)


def test_success_falls_as_difficulty_rises():
    chances = [saving_roll_success(d, 3) for d in range(5, 60)]
    assert all(later < earlier for earlier, later in pairwise(chances[9:]))
    assert chances[-1] > 0


def _simulated_save(rng: random.Random, difficulty: int, rating: int) -> bool:
    first, second = rng.randint(1, 6), rng.randint(1, 6)
    if {first, second} == {1, 2}:
        return False
    total = first + second
    while first == second:
        first, second = rng.randint(1, 6), rng.randint(1, 6)
        total += first + second
    return total + rating >= difficulty


@pytest.mark.parametrize("difficulty,rating", [(9, 2), (15, 4), (21, 3), (30, 10)])
def test_matches_seeded_simulation(difficulty, rating):
    rng = random.Random(20260 + difficulty * 31 + rating)
    trials = 60_000
    successes = sum(_simulated_save(rng, difficulty, rating) for _ in range(trials))
    p = float(saving_roll_success(difficulty, rating))
    sigma = (p * (1 - p) / trials) ** 0.5
    assert abs(successes / trials - p) <= 5 * sigma + 1 / trials
