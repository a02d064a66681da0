"""Twisted Tunnels encounters: the monster whose exact odds against a delver come closest to a goal.

Two goals: a target chance that the delver wins, or a survival threshold (the chance the delver does not
perish must be at least the threshold, and the deadliest monster that still meets it is chosen). Every
(rating, dice) pair of the search box is scored exactly; for each number of dice one backward pass of the
fight chain gives the odds for every rating at once.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Literal

from twisty.limits import Deadline
from twisty.rules.tunnels import Delver, FightOdds, FightRules, fight_by_rating

Goal = Literal["win", "survival"]


@dataclass(frozen=True)
class MonsterCandidate:
    rating: int
    dice: int
    odds: FightOdds

    def measure(self, goal: Goal) -> Fraction:
        return self.odds.win if goal == "win" else self.odds.survival


@dataclass(frozen=True)
class EncounterChoice:
    """The chosen monster, the goal it answers, and its neighbours in the (rating, dice) grid."""

    goal: Goal
    target: Fraction
    best: MonsterCandidate
    neighbours: list[MonsterCandidate]
    searched: int

    @property
    def gap(self) -> Fraction:
        return abs(self.best.measure(self.goal) - self.target)


def score_candidates(
    delver: Delver,
    ratings: range,
    dice: range,
    rules: FightRules = FightRules(),
    monster_armour: int = 0,
    deadline: Deadline | None = None,
) -> list[MonsterCandidate]:
    """Exact odds for every monster with a rating in `ratings` and Combat dice in `dice` (LimitReached when
    the deadline passes first)."""
    candidates = []
    for count in dice:
        for rating, odds in fight_by_rating(delver, count, ratings, rules, monster_armour, deadline).items():
            candidates.append(MonsterCandidate(rating=rating, dice=count, odds=odds))
    return candidates


def find_monster(
    delver: Delver,
    goal: Goal,
    target: Fraction,
    *,
    ratings: range = range(1, 41),
    dice: range = range(1, 9),
    rules: FightRules = FightRules(),
    monster_armour: int = 0,
    reach: int = 2,
    deadline: Deadline | None = None,
) -> EncounterChoice:
    """The monster (rating, dice) whose exact odds come closest to the goal.

    goal "win": the smallest |P(delver wins) - target|. goal "survival": among monsters the delver survives
    (does not perish) with probability >= target, the one with the smallest such probability; when none
    qualifies, `ValueError`. Ties go to fewer dice, then the lower rating. The neighbours are the monsters
    within `reach` ratings and one die of the best one, so a designer sees how sharply the odds turn.
    """
    if not ratings or not dice or min(ratings) < 1 or min(dice) < 1:
        raise ValueError("search ratings and dice from 1 upwards, with at least one of each")
    if not 0 <= target <= 1:
        raise ValueError(f"a probability lies in [0, 1], got {target}")
    candidates = score_candidates(delver, ratings, dice, rules, monster_armour, deadline)
    if goal == "win":
        eligible = candidates
    elif goal == "survival":
        eligible = [c for c in candidates if c.odds.survival >= target]
        if not eligible:
            raise ValueError(f"no monster in the search leaves the delver a survival chance >= {float(target)}")
    else:
        raise ValueError(f"unknown goal {goal!r}")
    best = min(eligible, key=lambda c: (abs(c.measure(goal) - target), c.dice, c.rating))
    neighbours = sorted(
        (c for c in candidates if abs(c.rating - best.rating) <= reach and abs(c.dice - best.dice) <= 1),
        key=lambda c: (c.dice, c.rating),
    )
    return EncounterChoice(goal=goal, target=target, best=best, neighbours=neighbours, searched=len(candidates))
