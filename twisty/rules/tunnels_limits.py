"""The bounds of the Twisted Tunnels questions twisty answers exactly (odds and the monster search): each keeps
an answer within seconds, and the rules never call for more. Also the difficulty of a Saving Roll as the
questions give it, and exact fractions as text."""

from __future__ import annotations

import sys
from fractions import Fraction
from typing import Any

from twisty.errors import UsageError
from twisty.rules.tunnels import FightChain, FightOdds, difficulty_for_level

MAX_FIGHT_DICE = 20
MAX_CONSTITUTION = 100
MAX_RATING = 200
MAX_ARMOUR = 50
MAX_LUCK = 100
# A fight's exact fractions grow with its length and with the dice thrown per Clash (denominators are
# powers of 6 per Clash), so its cost is measured as states x dice per Clash; these bounds keep a command
# to about ten seconds.
MAX_FIGHT_WORK = 100_000
MAX_GENERATOR_WORK = 150_000
# The exploding sum makes every shortfall exact, with fractions that grow about 1.5 digits per point:
# these bounds keep a Saving Roll under a second.
MAX_DIFFICULTY = 1000
MAX_LEVEL = (MAX_DIFFICULTY - 6) // 3


def fight_work(chain: FightChain) -> int:
    return chain.estimated_states() * (chain.delver.combat + chain.monster.dice + 2)


def fraction_text(value: Fraction) -> str:
    """Always "p/q", so scripts parse one shape; exact odds of long fights run to thousands of digits."""
    digit_limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return f"{value.numerator}/{value.denominator}"
    finally:
        sys.set_int_max_str_digits(digit_limit)


def fight_fields(odds: FightOdds) -> dict[str, Any]:
    """A fight's odds as JSON: each exact (as "p/q") and as a float."""
    data: dict[str, Any] = {}
    for key, value in (
        ("win", odds.win),
        ("disabled", odds.disabled),
        ("perished", odds.perished),
        ("survival", odds.survival),
        ("expected_clashes", odds.expected_clashes),
    ):
        data[key] = fraction_text(value)
        data[f"{key}_float"] = float(value)
    return data


def difficulty_of(level: int | None, difficulty: int | None, default_level: int | None = None) -> int:
    """The Saving Roll difficulty from a dungeon level (3 x level + 6) or given directly."""
    if level is not None and difficulty is not None:
        raise UsageError("give a dungeon level or a difficulty, not both")
    if difficulty is not None:
        return difficulty
    if level is None:
        if default_level is None:
            raise UsageError("give a dungeon level or a difficulty")
        level = default_level
    return difficulty_for_level(level)
