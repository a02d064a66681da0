"""Twisted Tunnels odds as data: the bounds that keep every exact answer within seconds, exact fractions as
text, and the JSON of Saving Rolls, Clashes and fights (what `twisty odds --json` prints and the API's
`odds()` returns)."""

from __future__ import annotations

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
    saving_roll_success,
)
from twisty.rules.tunnels_limits import (
    MAX_ARMOUR,
    MAX_CONSTITUTION,
    MAX_DIFFICULTY,
    MAX_FIGHT_DICE,
    MAX_FIGHT_WORK,
    MAX_GENERATOR_WORK,
    MAX_LEVEL,
    MAX_LUCK,
    MAX_RATING,
    difficulty_of,
    fight_fields,
    fight_work,
    fraction_text,
)

# The bounds are part of what this module answers (and the pictures print fractions as it does).
__all__ = [
    "MAX_ARMOUR",
    "MAX_CONSTITUTION",
    "MAX_DIFFICULTY",
    "MAX_FIGHT_DICE",
    "MAX_FIGHT_WORK",
    "MAX_GENERATOR_WORK",
    "MAX_LEVEL",
    "MAX_LUCK",
    "MAX_RATING",
    "Odds",
    "clash_data",
    "clash_odds",
    "difficulty_of",
    "fight_data",
    "fight_odds",
    "fight_work",
    "fraction_text",
    "save_data",
    "save_odds",
]


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
    return {
        "constitution": distribution(result.constitution),
        "constitution_float": distribution_float(result.constitution),
        "states": result.states,
    } | fight_fields(result)


def save_data(difficulty: int, rating: int, success: Fraction) -> dict[str, Any]:
    return {
        "difficulty": difficulty,
        "rating": rating,
        "success": fraction_text(success),
        "success_float": float(success),
    }


@dataclass(frozen=True, repr=False)
class Odds:
    """Exact odds of one Twisted Tunnels question: `kind` is save, clash or fight; `result` the exact
    answer (a Fraction for a Saving Roll, ClashOdds, FightOdds); to_json() what `odds --json` prints."""

    kind: str
    result: Any
    data: Mapping[str, Any] = field(repr=False)

    def __repr__(self) -> str:  # the exact fractions run to hundreds of digits: their floats here
        floats = {key[: -len("_float")]: value for key, value in self.data.items() if key.endswith("_float")}
        shown = ", ".join(f"{key}={value:.6f}" for key, value in floats.items() if isinstance(value, float))
        return f"Odds(kind={self.kind!r}, {shown})"

    def to_json(self) -> dict[str, Any]:
        return dict(self.data)


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
