"""Loading the tower parts of a passages level (docs/mota.md, docs/passages.md "Towers"): floors and their
stairs, the win by a boss, the shop, and the specials and money of enemies. Every problem is one positioned
LevelError, as in the rest of the loader (twisty.rules.passages_format).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from typing import Any

from twisty.limits import MAX_NUMBER
from twisty.rules.passages import COLOURS, GOAL, START, Cell, Floor, Shop, Thing
from twisty.rules.passages_combat import FIRST_STRIKE, MODELLED_SPECIALS, SPECIAL_NAMES
from twisty.rules.passages_positions import entry_position, field_error, legend_int, positioned, table_of
from twisty.rules.source import LevelSource, Position, expect_int, unknown_key_error

COLOUR_KEYS = {f"{colour}_keys": colour for colour in COLOURS}
FLOOR_KEYS = {"name", "map"}
SHOP_KEYS = {"start", "delta", "hp", "atk", "def", "mdef", "from_start"}
WINS = ("goal", "boss")
# A legend kind that is no object: a stair is floor to walk on, and joins its floor to the next.
STAIRS = "stairs"
# The enemy fields of the tower specials, each with the special it belongs to (None: any enemy).
ENEMY_TOWER_FIELDS = {
    "specials": None,
    "money": None,
    "hits_per_round": 6,
    "drain": 11,
    "fixed_damage": 22,
    "break_armour": 7,
    "counter": 8,
    "purify": 9,
}
# Floors of a tower: a real tower has up to a few dozen; each floor is a map of the size allowed for one.
MAX_FLOORS = 100

# Where each S and G was written.
Marks = dict[str, list[tuple[Cell, Position]]]


def start_and_goals(
    source: LevelSource, win: str, marks: dict[str, list[tuple[Cell, Position]]], things: list[Thing]
) -> tuple[Cell, tuple[Cell, ...], tuple[int | None, ...], list[Thing]]:
    """The one start, and the goals: the G cells, or with win = "boss" the bosses ("The tower is won when
    the boss is defeated"), each a goal guarded by its fight."""
    starts = marks[START]
    if not starts:
        raise source.error("the map has no start S", key="floor" if source.data.get("floor") else "map")
    if len(starts) > 1:
        first = starts[0][1]
        raise source.error(
            f"a second start S (the first is at line {first['line']}, column {first['column']}); a level has "
            "exactly one",
            **starts[1][1],
        )
    map_key = "floor" if "floor" in source.data else "map"
    if win == "goal":
        if not marks[GOAL]:
            raise source.error("the map has no goal G", key=map_key)
        return starts[0][0], tuple(cell for cell, _ in marks[GOAL]), (), things
    if marks[GOAL]:
        raise source.error(
            'with win = "boss" the level is won by defeating a boss, not at a goal G', **marks[GOAL][0][1]
        )
    bosses = [index for index, thing in enumerate(things) if thing.enemy is not None and thing.enemy.boss]
    if not bosses:
        raise source.error('win = "boss" needs an enemy with boss = true on the map', key="win")
    things = [replace(thing, wins=True) if index in bosses else thing for index, thing in enumerate(things)]
    return starts[0][0], tuple(things[index].cell for index in bosses), tuple(bosses), things


def check_shop_cells(
    source: LevelSource,
    shop: Shop | None,
    things: list[Thing],
    marks: dict[str, list[tuple[Cell, Position]]],
    from_start: bool = False,
) -> None:
    cells = [thing for thing in things if thing.kind == "shop"]
    if shop is None and cells:
        line, column = entry_position(source, cells[0].symbol)
        raise source.error(f'legend "{cells[0].symbol}": a shop cell needs a [shop] table', line=line, column=column)
    if shop is not None and not cells and not from_start:
        line, column = source.locate_key("from_start", "shop")
        if line is None:
            line, column = source.locate_table("shop")
        raise source.error(
            '[shop] needs a shop cell on the map (a legend entry of kind = "shop"), or from_start = true',
            line=line,
            column=column,
        )


def shop_from_start(source: LevelSource, value: Any) -> bool:
    """[shop] from_start = true: "the hero may buy from the start" (a shop that needs no visit, such as
    h5mota's quick shop that is not `mustEnable`); the default is false (the hero buys once it has stepped
    on a shop cell)."""
    if not isinstance(value, dict) or "from_start" not in value:
        return False
    flag = value["from_start"]
    if not isinstance(flag, bool):
        raise source.error(f"[shop] from_start must be true or false, not {flag!r}", table="shop", key="from_start")
    return flag


def load_shop(source: LevelSource, value: Any) -> Shop | None:
    """ "a purchase costs start + delta x purchases so far and gives one of hp/atk/def/mdef"."""
    if value is None:
        return None
    table = table_of(source, value, "shop")
    for key in table:
        if key not in SHOP_KEYS:
            raise positioned(source, unknown_key_error(source, key, SHOP_KEYS, table="shop"), key, "shop")
    for needed in ("start", "delta"):
        if needed not in table:
            raise source.error(
                f"[shop] needs {needed} = ... (a purchase costs start + delta x purchases so far)", key="shop"
            )
    numbers = {
        key: expect_int(
            source, table.get(key, 0), f"shop {key}", table="shop", key=key, minimum=1 if key == "start" else 0
        )
        for key in SHOP_KEYS - {"from_start"}
    }
    if not any(numbers[key] for key in ("hp", "atk", "def", "mdef")):
        raise source.error("the shop must sell something: hp, atk, def or mdef above 0", key="shop")
    return Shop(numbers["start"], numbers["delta"], numbers["hp"], numbers["atk"], numbers["def"], numbers["mdef"])


def load_floors(source: LevelSource, value: Any, legend: dict[str, dict], read_map: Callable[..., Any]):
    """A tower's floors, bottom first, stacked on one grid with a row of outside between two, and the links
    of their stairs: "The up stair of floor f and the down stair of floor f+1 are one place". `read_map` reads
    one floor's map (the loader's map reader)."""
    if not isinstance(value, list) or not value or not all(isinstance(floor, dict) for floor in value):
        raise source.error("floors are [[floor]] tables, each with a map", key="floor")
    if len(value) > MAX_FLOORS:
        raise source.error(f"{len(value)} floors; a tower may have at most {MAX_FLOORS}", key="floor")
    map_lines = _floor_map_lines(source)
    grid: list[str] = []
    floors: list[Floor] = []
    marks: dict[str, list[tuple[Cell, Position]]] = {START: [], GOAL: []}
    things: list[Thing] = []
    stairs: list[list[tuple[str, Cell, Position]]] = []
    names: set[str] = set()
    for number, table in enumerate(value):
        for key in table:
            if key not in FLOOR_KEYS:
                raise positioned(source, unknown_key_error(source, key, FLOOR_KEYS, what="floor key"), key)
        name = table.get("name", str(number + 1))
        if not isinstance(name, str) or name in names:
            raise source.error(f"floor {number + 1}: its name must be a string of its own, not {name!r}", key="name")
        names.add(name)
        if grid:
            grid.append("")  # the row of outside between two floors
        first_line = map_lines[number] if number < len(map_lines) else None
        rows, _, floor_things, floor_stairs = read_map(
            source, table.get("map"), legend, first_line, len(grid), things, marks
        )
        floors.append(Floor(name, len(grid), len(rows)))
        grid.extend(rows)
        things.extend(floor_things)
        stairs.append(floor_stairs)
    links: list[tuple[Cell, Cell]] = []
    for number, floor_stairs in enumerate(stairs):
        for direction, cell, position in floor_stairs:
            other = number + (1 if direction == "up" else -1)
            beyond, facing = ("above", "down") if direction == "up" else ("below", "up")
            if not 0 <= other < len(floors):
                raise source.error(f"this {direction} stair leads off the tower: no floor {beyond}", **position)
            meeting = [far for far_direction, far, _ in stairs[other] if far_direction != direction]
            if not meeting:
                raise source.error(
                    f"this {direction} stair leads to floor {floors[other].name}, which has no {facing} stair "
                    "to meet it",
                    **position,
                )
            if direction == "up":
                links.extend((cell, far) for far in meeting)
    return tuple(grid), tuple(floors), tuple(links), marks, things


def _floor_map_lines(source: LevelSource) -> list[int | None]:
    """The first content line of each [[floor]] table's map, in order (None where none is written)."""
    lines: list[int | None] = []
    inside = False
    for number, raw in enumerate(source.lines, start=1):
        if re.match(r"^\s*\[\[\s*floor\s*\]\]", raw):
            lines.append(None)
            inside = True
        elif re.match(r"^\s*\[", raw):
            inside = False
        elif inside and lines and lines[-1] is None:
            opening = re.match(r"^\s*map\s*=\s*(\"\"\"|\'\'\')?", raw)
            if opening:
                lines[-1] = number + 1 if opening.group(1) and raw[opening.end() :].strip() == "" else number
    return lines


def enemy_tower_fields(source: LevelSource, symbol: str, entry: dict) -> dict[str, Any]:
    """The tower fields of an enemy (docs/mota.md): `specials` (mota's numbers; 1 is first_strike), `money`,
    and the strength of the specials that read one: hits_per_round (6), drain (11), fixed_damage (22),
    break_armour (7), counter (8), purify (9). A field for a special the enemy lacks is an error."""
    fields: dict[str, Any] = {}
    raw = entry.get("specials", [])
    listed = [raw] if isinstance(raw, int) and not isinstance(raw, bool) else raw
    if not isinstance(listed, list) or any(isinstance(v, bool) or not isinstance(v, int) for v in listed):
        raise field_error(source, symbol, "specials", "specials must be a list of special numbers, such as [2, 4]")
    for special in listed:
        if special not in MODELLED_SPECIALS:
            modelled = ", ".join(f"{number} {name}" for number, name in sorted(SPECIAL_NAMES.items()))
            raise field_error(
                source, symbol, "specials", f"special {special} is not one twisty models; it models {modelled}"
            )
    specials = frozenset(listed) - {FIRST_STRIKE}
    if FIRST_STRIKE in listed:
        fields["first_strike"] = True
    if specials:
        fields["specials"] = specials
    for field, special in ENEMY_TOWER_FIELDS.items():
        if field == "specials" or field not in entry:
            continue
        if special is not None and special not in listed:
            raise field_error(
                source,
                symbol,
                field,
                f"{field} belongs to special {special} ({SPECIAL_NAMES[special]}), which this enemy does not have",
            )
        if field in ("money", "fixed_damage", "hits_per_round"):
            fields[field] = legend_int(source, symbol, entry, field, 1 if field == "hits_per_round" else 0)
        else:
            fields[field] = _legend_fraction(source, symbol, entry, field, 1 if field == "drain" else MAX_NUMBER)
    return fields


def _legend_fraction(source: LevelSource, symbol: str, entry: dict, field: str, largest: int) -> Fraction:
    """A non-negative number (whole or decimal, such as 0.9) held exactly: 0.9 is 9/10, as written."""
    value = entry[field]
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise field_error(source, symbol, field, f"{field} must be a number, not {value!r}")
    exact = Fraction(str(value))
    if not 0 <= exact <= largest:
        raise field_error(source, symbol, field, f"{field} must lie within 0 to {largest}, not {value}")
    return exact
