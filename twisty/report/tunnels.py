"""Twisted Tunnels odds as data: the bounds that keep every exact answer within seconds, exact fractions as
text, and the JSON of Saving Rolls, Clashes and fights (what `twisty odds --json` prints and the API's
`odds()` returns)."""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from twisty.errors import UsageError
from twisty.rules.tunnels import (
    MAX_POOL_DICE,
    ClashOdds,
    ClashSide,
    Delver,
    FightChain,
    FightOdds,
    FightRules,
    Monster,
    clash,
    difficulty_for_level,
    saving_roll_success,
)

# Bounds that keep every answer within seconds; the rules never call for more.
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


def distribution(values: dict[int, Fraction]) -> dict[str, str]:
    return {str(k): fraction_text(p) for k, p in sorted(values.items())}


def distribution_float(values: dict[int, Fraction]) -> dict[str, float]:
    return {str(k): float(p) for k, p in sorted(values.items())}


def clash_data(a: ClashSide, b: ClashSide, result: ClashOdds) -> dict[str, Any]:
    data: dict[str, Any] = {
        "a": {"dice": a.dice, "upper_hand": a.upper_hand, "flat_footed": a.flat_footed, "armour": a.armour},
        "b": {"dice": b.dice, "upper_hand": b.upper_hand, "flat_footed": b.flat_footed, "armour": b.armour},
        "wounds": {"a": distribution(result.wounds_to_a), "b": distribution(result.wounds_to_b)},
        "wounds_float": {"a": distribution_float(result.wounds_to_a), "b": distribution_float(result.wounds_to_b)},
    }
    for key, value in (("a_wins", result.a_wins), ("b_wins", result.b_wins), ("indecisive", result.indecisive)):
        data[key] = fraction_text(value)
        data[f"{key}_float"] = float(value)
    return data


def fight_data(result: FightOdds) -> dict[str, Any]:
    data: dict[str, Any] = {
        "constitution": distribution(result.constitution),
        "constitution_float": distribution_float(result.constitution),
        "states": result.states,
    }
    for key, value in (
        ("win", result.win),
        ("disabled", result.disabled),
        ("perished", result.perished),
        ("survival", result.survival),
        ("expected_clashes", result.expected_clashes),
    ):
        data[key] = fraction_text(value)
        data[f"{key}_float"] = float(value)
    return data


def save_data(difficulty: int, rating: int, success: Fraction) -> dict[str, Any]:
    return {
        "difficulty": difficulty,
        "rating": rating,
        "success": fraction_text(success),
        "success_float": float(success),
    }


@dataclass(frozen=True)
class Odds:
    """Exact odds of one Twisted Tunnels question: `kind` is save, clash or fight; `result` the exact
    answer (a Fraction for a Saving Roll, ClashOdds, FightOdds); to_json() what `odds --json` prints."""

    kind: str
    result: Any
    data: Mapping[str, Any] = field(repr=False)

    def to_json(self) -> dict[str, Any]:
        return dict(self.data)


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


def save_odds(rating: int, level: int | None = None, difficulty: int | None = None) -> Odds:
    target = difficulty_of(level, difficulty)
    if abs(target) > MAX_DIFFICULTY or abs(rating) > MAX_DIFFICULTY:
        raise UsageError(f"difficulty and rating lie within -{MAX_DIFFICULTY}..{MAX_DIFFICULTY}")
    success = saving_roll_success(target, rating)
    return Odds("save", success, save_data(target, rating, success))


def clash_odds(a: ClashSide, b: ClashSide) -> Odds:
    for side in (a, b):
        if side.dice + side.upper_hand > MAX_POOL_DICE or side.armour > MAX_ARMOUR:
            raise UsageError(f"a side rolls at most {MAX_POOL_DICE} dice and has at most {MAX_ARMOUR} armour")
    result = clash(a, b)
    return Odds("clash", result, clash_data(a, b, result))


def fight_odds(delver: Delver, monster: Monster, rules: FightRules = FightRules()) -> Odds:
    chain = FightChain(delver, monster, rules)
    if fight_work(chain) > MAX_FIGHT_WORK:
        raise UsageError(
            f"this fight is too long to answer exactly here (up to {chain.estimated_states()}"
            f" states, {delver.combat + monster.dice} dice a Clash): lower Constitution, armour,"
            f" rating or dice"
        )
    result = chain.forward()
    return Odds("fight", result, fight_data(result) | {"difficulty": rules.difficulty})
