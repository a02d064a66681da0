"""The monsters and items of an h5mota project as twisty models them (docs/mota.md): a monster by enemys.js
with its specials (those twisty does not model are left out of the fight, in the loss report), an item by
items.js (keys by id; potions, gems and equipment by their effect, read by twisty.importers.js_literals'
`read_effect` without running it). Anything else is a loss, never a guess.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from twisty.importers.h5mota_project import Project
from twisty.importers.h5mota_values import display_name, shown, whole_number
from twisty.importers.js_literals import EffectBeyondLimits, EffectError, ValueOf, read_effect
from twisty.importers.losses import LossReport
from twisty.importers.tower import Tile
from twisty.limits import MAX_NUMBER
from twisty.rules.passages import COLOURS, Thing
from twisty.rules.passages_combat import (
    BREAK_ARMOUR,
    BREAK_ARMOUR_DEFAULT,
    COUNTER,
    COUNTER_DEFAULT,
    DRAIN,
    FIRST_STRIKE,
    FIXED,
    MODELLED_SPECIALS,
    MULTIPLE,
    PURIFY,
    PURIFY_DEFAULT,
    Enemy,
)

# mota-js `enemys.getSpecials`: the names of the specials twisty does not model, for the loss report.
UNMODELLED_SPECIALS = {
    12: "poison",
    13: "weakness",
    14: "curse",
    15: "zone",
    16: "pincer",
    17: "hatred",
    18: "repulse",
    19: "self-destruct",
    20: "invincible",
    21: "degrade",
    23: "rebirth",
    24: "laser",
    25: "aura",
    26: "support",
    27: "capture",
}
KEY_IDS = {f"{colour}Key": colour for colour in COLOURS}


def monster(project: Project, floor: str, ident: Any, place: tuple[int, int], report: LossReport) -> Tile:
    """A monster by enemys.js, its stats checked where they are written."""
    if not isinstance(ident, str) or not isinstance(project.enemies.get(ident), dict):
        report.add(floor, f"monster {shown(ident)} not in enemys.js", "a wall", place)
        return "wall"
    data = project.enemies.table(ident, f"monster {ident}")
    who = f'monster "{shown(ident)}"'
    if data.get("hp") == 0 and not isinstance(data.get("hp"), bool):
        # (mota-js's own sample tower has such placeholders; the template's formula fights one for nothing,
        # a tower's own formula may not: a loss where one stands, not a refusal of the whole tower)
        report.add(floor, f"monster {shown(ident)} of hp 0", "a wall", place)
        return "wall"
    raw = data.get("special")
    if isinstance(raw, list):
        numbers = [
            whole_number(data.file, (*data.keys, "special", index), value, f"{who}'s special")
            for index, value in enumerate(raw)
        ]
    else:
        numbers = [] if raw is None else [data.whole("special", f"{who}'s special")]
    listed = [number for number in numbers if number]
    for special in listed:
        if special not in MODELLED_SPECIALS:
            report.add(
                floor,
                f"special {special} ({UNMODELLED_SPECIALS.get(special, 'unknown')})",
                "left out of the fight",
                place,
            )
    kept = frozenset(special for special in listed if special in MODELLED_SPECIALS)
    values = project.values
    fields: dict[str, Any] = {
        "first_strike": FIRST_STRIKE in kept,
        "specials": kept - {FIRST_STRIKE},
        "money": data.whole("money", f"{who}'s money"),
    }
    if MULTIPLE in kept and "n" in data.value:
        fields["hits_per_round"] = data.whole("n", f"{who}'s hits per round (n)", minimum=1)
    if DRAIN in kept:
        key = "value" if "value" in data.value else "vampire"
        fields["drain"] = data.decimal(key, f"{who}'s drain ({key})", default=Fraction(0))
        if not 0 <= fields["drain"] <= 1:
            report.add(floor, f"monster {shown(ident)}'s drain {fields['drain']}", "no drain", place)
            fields["drain"] = Fraction(0)
    if FIXED in kept:
        fields["fixed_damage"] = data.whole("damage", f"{who}'s fixed damage (damage)")
    for special, field_name, key, default in (
        (BREAK_ARMOUR, "break_armour", "breakArmor", BREAK_ARMOUR_DEFAULT),
        (COUNTER, "counter", "counterAttack", COUNTER_DEFAULT),
        (PURIFY, "purify", "purify", PURIFY_DEFAULT),
    ):
        if special in kept:
            fields[field_name] = values.decimal(key, f"values.{key}", default=default, minimum=0)
    if "hp" not in data.value:
        raise data.error(f"{who} has no hp")
    for key, what in (("beforeBattle", "before"), ("afterBattle", "after")):
        if data.get(key):
            report.add(floor, f"monster {shown(ident)}'s own event {what} its battle", "not played", place)
    enemy = Enemy(
        display_name(data.get("name"), shown(ident)),
        data.whole("hp", f"{who}'s hp", minimum=1),
        data.whole("atk", f"{who}'s atk"),
        data.whole("def", f"{who}'s def"),
        **fields,
    )
    return Thing("enemy", "", (0, 0), enemy=enemy)


def item(project: Project, floor: str, ident: Any, place: tuple[int, int], ratio: Fraction, report: LossReport) -> Tile:
    """An item by items.js: a key, a potion (hp), a gem or equipment (atk, def, mdef); anything else is lost."""
    if isinstance(ident, str) and ident in KEY_IDS:
        return Thing("key", "", (0, 0), name="key", colour=KEY_IDS[ident])
    if not isinstance(ident, str) or not isinstance(project.items.get(ident), dict):
        report.add(floor, f"item {shown(ident)} not in items.js", "a floor cell", place)
        return "floor"
    data = project.items.table(ident, f"item {ident}")
    who = f'item "{shown(ident)}"'
    name = display_name(data.get("name"), shown(ident))
    equip = data.get("equip")
    if data.get("cls") == "equips" and isinstance(equip, dict):
        value = data.table("equip", f"{who}'s equip").table("value", f"{who}'s equip.value")
        gains = {
            str(stat): value.decimal(stat, f"{who}'s gain of {shown(stat)}", default=Fraction(0))
            for stat in value.value
        }
        report.add(floor, f"equipment {shown(ident)} (worn at once)", "its gains taken at once", place)
    elif data.get("cls") == "items" and isinstance(data.get("itemEffect"), str):
        try:
            effect = read_effect(data.value["itemEffect"], value_reader(project), ratio)
        except EffectBeyondLimits as error:
            raise data.error(f"{who}'s effect: {error}", "itemEffect") from None
        except EffectError as error:
            report.add(floor, f"item {shown(ident)} (its effect: {error})", "a floor cell", place)
            return "floor"
        if effect.items:
            report.add(floor, f"item {shown(ident)} (gives items)", "a floor cell", place)
            return "floor"
        gains = effect.gains
    else:
        report.add(floor, f"tool {shown(ident)}", "a floor cell", place)
        return "floor"
    for stat, gain in gains.items():
        if abs(gain) > MAX_NUMBER:
            where = "itemEffect" if "itemEffect" in data.value else "equip"
            raise data.error(
                f"{who} gives {shown(stat)} {float(gain):.3g}: beyond the numbers twisty holds "
                f"(-{MAX_NUMBER:,} to {MAX_NUMBER:,})",
                where,
            )
    if any(value.denominator != 1 or value < 0 for value in gains.values()) or set(gains) - {
        "hp",
        "atk",
        "def",
        "mdef",
    }:
        listed = ", ".join(f"{shown(k)} {v}" for k, v in list(gains.items())[:6])
        report.add(floor, f"item {shown(ident)} (gains {listed})", "a floor cell", place)
        return "floor"
    whole = {stat: int(value) for stat, value in gains.items() if value}
    if not whole:
        return "floor"
    if set(whole) == {"hp"}:
        return Thing("elixir", "", (0, 0), hp=whole["hp"], name=name)
    if "hp" in whole:
        report.add(floor, f"item {shown(ident)} (hp and stats at once)", "a floor cell", place)
        return "floor"
    return Thing(
        "equipment",
        "",
        (0, 0),
        atk=whole.get("atk", 0),
        defense=whole.get("def", 0),
        mdef=whole.get("mdef", 0),
        name=name,
    )


def value_reader(project: Project) -> ValueOf:
    """data.js's values by name for item effects: None when missing or not a number (the effect is then
    a loss); a value there that twisty cannot hold (NaN, Infinity, beyond 10^9) is refused at its place."""
    values = project.values

    def value_of(name: str) -> Fraction | None:
        value = values.get(name)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None
        return values.decimal(name, f"values.{name}", default=Fraction(0))

    return value_of
