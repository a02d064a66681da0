"""The parameters of the Twisted Tunnels odds, as `twisty odds` and the API (`twisty.odds`) take them: one
reading, with one set of messages (the fighters are read as the monster search reads them,
twisty.generator.tunnels_entry)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from twisty.checking import one_of, whole_number
from twisty.errors import UsageError, did_you_mean
from twisty.generator.tunnels_entry import SIDES, delver_of, difficulty_from, fight_rules, monster_of
from twisty.report.tunnels import MAX_ARMOUR, MAX_DIFFICULTY, MAX_LUCK, Odds, clash_odds, fight_odds, save_odds
from twisty.rules.tunnels import MAX_POOL_DICE, ClashSide


def _armour_pairs(value: Any) -> dict[str, int]:
    """Armour of each side of a Clash, written as on the command line ("b=2", "a=1,b=2", a list of such) or
    as a mapping {"b": 2}."""
    armour = {"a": 0, "b": 0}
    if value is None:
        return armour
    if isinstance(value, Mapping):
        pairs = list(value.items())
    else:
        parts = [value] if isinstance(value, str) else list(value) if isinstance(value, (list, tuple)) else None
        if parts is None or not all(isinstance(part, str) for part in parts):
            raise UsageError(f"armour is written a=N or b=N, got {value!r:.60}")
        pairs = []
        for part in ",".join(parts).split(","):
            if not part.strip():
                continue
            side, _, number = part.partition("=")
            if not number.strip().isdigit():
                raise UsageError(f"armour is written a=N or b=N, got {part.strip()!r}")
            pairs.append((side.strip().lower(), int(number)))
    for side, number in pairs:
        if side not in armour:
            raise UsageError(f"armour is written a=N or b=N, got side {side!r}")
        armour[side] = whole_number(number, "armour", 0, MAX_ARMOUR)
    return armour


ODDS_KEYS = {
    "save": ("rating", "level", "difficulty"),
    "clash": ("a", "b", "upper_hand", "armour", "armour_a", "armour_b", "flat_footed", "luck", "shield"),
    "fight": ("delver", "monster", "level", "difficulty", "upper_hand", "flat_footed", "armour_use"),
}


def odds_for(kind: Any, params: Mapping[str, Any]) -> Odds:
    """The exact odds of one question (`kind`: save, clash or fight) with the parameters the command line
    takes (docs/api.md lists them); a UsageError for anything it would refuse."""
    kind = one_of(kind, "the kind of odds", ODDS_KEYS)
    unknown = sorted(set(params) - set(ODDS_KEYS[kind]))
    if unknown:
        hint = did_you_mean(unknown[0], ODDS_KEYS[kind])
        raise UsageError(f"odds({kind!r}) takes no {', '.join(unknown)}{hint} (it takes {', '.join(ODDS_KEYS[kind])})")
    if kind == "save":
        if "rating" not in params:
            raise UsageError('odds("save") needs rating=')
        rating = whole_number(params["rating"], "rating", -MAX_DIFFICULTY, MAX_DIFFICULTY)
        target = difficulty_from(params.get("level"), params.get("difficulty"))
        return save_odds(rating, difficulty=target)
    if kind == "clash":
        return clash_odds(*clash_sides(params))
    for role in SIDES:
        if role not in params:
            raise UsageError('odds("fight") needs delver= and monster=')
    return fight_odds(delver_of(params["delver"]), monster_of(params["monster"]), fight_rules(params))


def clash_sides(params: Mapping[str, Any]) -> tuple[ClashSide, ClashSide]:
    """The two sides of a Clash: dice a and b, upper_hand and flat_footed ("a" or "b"), the flat-footed
    side's luck and shield, and each side's armour."""
    if "a" not in params or "b" not in params:
        raise UsageError('odds("clash") needs a= and b= (the dice of each side)')
    dice = {name: whole_number(params[name], name, 0, MAX_POOL_DICE) for name in ("a", "b")}
    upper = params.get("upper_hand")
    flat = params.get("flat_footed")
    upper = None if upper is None else one_of(upper, "upper_hand", ("a", "b"))
    flat = None if flat is None else one_of(flat, "flat_footed", ("a", "b"))
    luck = whole_number(params.get("luck", 0), "luck", 0, MAX_LUCK)
    shield = params.get("shield", False)
    if not isinstance(shield, bool):
        raise UsageError(f"shield is True or False, got {shield!r:.60}")
    if upper is not None and upper == flat:
        raise UsageError("a flat-footed side rolls no dice, so it cannot have the upper hand")
    if (luck or shield) and flat is None:
        raise UsageError("luck and shield describe a flat-footed side: give flat_footed a or b")
    if upper is not None and dice[upper] >= MAX_POOL_DICE:
        raise UsageError(f"with the upper hand a side rolls at most {MAX_POOL_DICE} dice")
    armour = _armour_pairs(params.get("armour"))
    for name in ("a", "b"):
        if f"armour_{name}" in params:
            armour[name] = whole_number(params[f"armour_{name}"], f"armour_{name}", 0, MAX_ARMOUR)
    a, b = (
        ClashSide(
            dice=dice[name],
            upper_hand=upper == name,
            flat_footed=flat == name,
            luck=luck if flat == name else 0,
            shield=shield and flat == name,
            armour=armour[name],
        )
        for name in ("a", "b")
    )
    return a, b
