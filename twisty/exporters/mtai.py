"""A passages level as a magic-tower-AI map (its current tile codes), which twisty's importer reads back as
the same level (docs/mota.md, "Exporting").

The format (docs/mota.md): `f`, `rows cols`, f grids of tile codes, the nine values (red, blue, green gem;
red, blue, yellow, green potion; sword; shield), `k` monster lines `id hp atk def money special`, the shop
line `start delta hp atk def mdef` (`0 0 0 0 0 0`: none) and the hero line `hp atk def mdef money yellow
blue red floor row col`. Every floor is a grid of the same size (a smaller floor is filled out with walls
to the right and below).

A magic-tower-AI tower is won by defeating the boss (code 299). A level won at a goal has its goals
written as that boss, a harmless one (hp 1, atk 0, def 0: its fight costs nothing and ends the route with
the life the hero reaches the goal with, and a fight for nothing is not part of a solution's signature,
docs/passages.md), so the answers stay the same; the hero must then be able to harm it (atk 1 or more). A
level won by defeating its bosses has them all of one kind, the boss's line.

What the format cannot say is refused: more than four potions of different life, more than two pieces of
attack (a red gem and a sword) or of defence (a blue gem and a shield) of different values, more than one
of magic defence, a piece that gives two stats, a monster with more than one special or one beyond 1-10,
with hits per round other than 4 or strengths other than the defaults (the format has no field for them),
bosses of different kinds, more than one stair each way on a floor (magic-tower-AI keeps one of each), and
green keys at the start (the hero line has yellow, blue and red).
"""

from __future__ import annotations

from fractions import Fraction

from twisty.exporters.plan import DOWN, GOAL, START, UP, WALL, Exporting, FloorPlan, Place, kinds
from twisty.importers import mtai as tiles
from twisty.limits import Deadline
from twisty.rules.passages import COLOURS, PassagesLevel, Thing
from twisty.rules.passages_combat import (
    BREAK_ARMOUR_DEFAULT,
    COUNTER_DEFAULT,
    FIRST_STRIKE,
    HITS_DEFAULT,
    MULTIPLE,
    PURIFY_DEFAULT,
    SPECIAL_NAMES,
    Enemy,
)
from twisty.rules.passages_writer import entry_of
from twisty.rules.source import LevelSource

FIRST_MONSTER, BOSS = tiles.MONSTERS[tiles.NEW]
# The goal as the boss: "hp 1, atk 0, def 0" (one strike from any hero with atk 1, never a blow back).
HARMLESS_BOSS = Enemy("goal", 1, 0, 0, boss=True)
# magic-tower-AI's own specials are one number a monster, 0 (none) to 10.
FORMAT_SPECIALS = range(1, 11)
# Item codes by (kind, stat): the codes of each, in the order values are handed to them.
SLOTS = {
    ("elixir", "hp"): (31, 32, 34, 33),  # red, blue, yellow, green potion
    ("equipment", "atk"): (27, 35),  # red gem, sword
    ("equipment", "def"): (28, 36),  # blue gem, shield
    ("equipment", "mdef"): (29,),  # green gem
}
PLURAL = {
    "hp": "potions of different life",
    "atk": "attack gains",
    "def": "defence gains",
    "mdef": "magic defence gains",
}


def export_mtai(
    level: PassagesLevel, source: LevelSource | None = None, path: str = "<level>", deadline: Deadline | None = None
) -> str:
    """The magic-tower-AI map of a level; a LevelError (at its place in `source`) for anything the format
    cannot say exactly."""
    exporting = Exporting(level, source, path, "magic-tower-AI")
    plans = exporting.plans()
    if deadline is not None:
        deadline.check()
    for plan in plans:
        for direction in (UP, DOWN):
            cells = plan.cells(direction)
            if len(cells) > 1:
                raise exporting.refuse(
                    f"floor {plan.name} has {len(cells)} {direction} stairs; magic-tower-AI keeps one stair each "
                    "way on a floor",
                    cell=_grid_cell(level, plan, cells[1]),
                )
    item_codes, values = _items(exporting)
    monsters = _monsters(exporting)
    rows = max(plan.height for plan in plans)
    cols = max(plan.width for plan in plans)
    grids = [_grid(exporting, plan, rows, cols, item_codes, monsters) for plan in plans]
    start_plan = next(plan for plan in plans if plan.cells(START))
    start_row, start_col = start_plan.cells(START)[0]
    player = level.player
    keys = exporting.start_keys()
    if keys["green"]:
        raise exporting.refuse("the hero starts with green keys; the hero line holds yellow, blue and red ones")
    shop = level.shop
    shop_line = [0] * 6 if shop is None else [shop.start, shop.delta, shop.hp, shop.atk, shop.defense, shop.mdef]
    hero = [player.hp, player.atk, player.defense, player.mdef, player.money, *(keys[c] for c in COLOURS[:3])]
    hero += [start_plan.number, start_row, start_col]
    lines = [str(len(plans)), f"{rows} {cols}", ""]
    for grid in grids:
        lines += ["\t".join(str(code) for code in row) for row in grid]
        lines.append("")
    lines += [" ".join(str(values[name]) for name in tiles.VALUES), ""]
    by_code: dict[int, Enemy] = {}
    for enemy, code in monsters.items():
        by_code.setdefault(code, enemy)
    lines.append(str(len(by_code)))
    for code, enemy in sorted(by_code.items()):
        special = next(iter(_specials(enemy)), 0)
        lines.append(f"{code} {enemy.hp} {enemy.atk} {enemy.defense} {enemy.money} {special}")
    lines += ["", " ".join(map(str, shop_line)), "", " ".join(map(str, hero))]
    return "\n".join(lines) + "\n"


def _grid_cell(level: PassagesLevel, plan: FloorPlan, place: tuple[int, int]) -> tuple[int, int]:
    first = level.floors[plan.number].first_row if level.floors else 0
    return (first + place[0], place[1])


def _specials(enemy: Enemy) -> list[int]:
    return sorted(enemy.specials | ({FIRST_STRIKE} if enemy.first_strike else set()))


def _items(exporting: Exporting) -> tuple[dict[tuple, int], dict[str, int]]:
    """The code of each distinct potion and piece of equipment, and the nine values."""
    level = exporting.level
    values = dict.fromkeys(tiles.VALUES, 0)
    codes: dict[tuple, int] = {}
    entries = kinds(level, "elixir") + kinds(level, "equipment")
    for (kind, stat), slots in SLOTS.items():
        gains = sorted({_gain(entry) for entry in entries if _stat(entry) == stat and entry[0] == kind})
        if len(gains) > len(slots):
            thing = next(t for t in level.things if t.kind == kind and _stat(entry_of(t)) == stat)
            raise exporting.refuse(
                f"{len(gains)} {PLURAL[stat]} ({', '.join(map(str, gains))}); the format has {len(slots)}",
                thing=thing,
            )
        for gain, code in zip(gains, slots, strict=False):
            values[tiles.ITEMS[tiles.NEW][code][3]] = gain
            for entry in entries:
                if entry[0] == kind and _stat(entry) == stat and _gain(entry) == gain:
                    codes[entry] = code
    for entry in entries:
        if entry not in codes:
            thing = next(t for t in level.things if entry_of(t) == entry)
            raise exporting.refuse(
                "equipment that gives more than one stat; each item of the format gives one", thing=thing
            )
    return codes, values


def _stat(entry: tuple) -> str | None:
    if entry[0] == "elixir":
        return "hp"
    gains = [stat for stat, gain in (("atk", entry[2]), ("def", entry[3]), ("mdef", entry[4])) if gain]
    return gains[0] if len(gains) == 1 else None


def _gain(entry: tuple) -> int:
    return entry[2] if entry[0] == "elixir" else entry[2] + entry[3] + entry[4]


def _monsters(exporting: Exporting) -> dict[Enemy, int]:
    """The code of each distinct monster (the boss's is 299)."""
    level = exporting.level
    codes: dict[Enemy, int] = {}
    bosses = [thing for thing in level.things if thing.wins]
    if bosses:
        kinds_of_boss = {_monster_line(thing.enemy) for thing in bosses if thing.enemy is not None}
        if len(kinds_of_boss) > 1:
            raise exporting.refuse(
                "bosses of different kinds; a magic-tower-AI tower has one (code 299)", thing=bosses[-1]
            )
    elif level.player.atk < 1:
        raise exporting.refuse(
            "a magic-tower-AI tower is won by defeating its boss, and a goal is written as a harmless boss (hp 1, "
            "atk 0, def 0), which a hero of atk 0 cannot harm: give the hero atk 1 or more"
        )
    code = FIRST_MONSTER
    for entry in kinds(level, "enemy"):
        enemy: Enemy = entry[1]
        thing = next(t for t in level.things if t.enemy == enemy)
        _check_monster(exporting, enemy, thing)
        if thing.wins:
            codes[enemy] = BOSS
            continue
        codes[enemy] = code
        code += 2 if code + 1 == BOSS else 1
    if not bosses:
        codes[HARMLESS_BOSS] = BOSS
    return codes


def _monster_line(enemy: Enemy) -> tuple[int, int, int, int, tuple[int, ...]]:
    return (enemy.hp, enemy.atk, enemy.defense, enemy.money, tuple(_specials(enemy)))


def _check_monster(exporting: Exporting, enemy: Enemy, thing: Thing) -> None:
    specials = _specials(enemy)
    if len(specials) > 1:
        names = ", ".join(f"{number} ({SPECIAL_NAMES[number]})" for number in specials)
        raise exporting.refuse(f"a monster with specials {names}; a monster line holds one", thing=thing)
    if specials and specials[0] not in FORMAT_SPECIALS:
        number = specials[0]
        raise exporting.refuse(
            f"special {number} ({SPECIAL_NAMES[number]}); magic-tower-AI's specials are 1-10", thing=thing
        )
    defaults: tuple[tuple[str, object, object], ...] = (
        ("hits per round", enemy.hits_per_round if MULTIPLE in enemy.specials else HITS_DEFAULT, HITS_DEFAULT),
        ("break armour", enemy.break_armour, BREAK_ARMOUR_DEFAULT),
        ("counter", enemy.counter, COUNTER_DEFAULT),
        ("purify", enemy.purify, PURIFY_DEFAULT),
    )
    for what, value, default in defaults:
        if value != default:
            shown = str(value) if not isinstance(value, Fraction) else str(float(value))
            raise exporting.refuse(
                f"a monster's {what} of {shown}; the format has none but the default ({default})", thing=thing
            )


def _grid(
    exporting: Exporting,
    plan: FloorPlan,
    rows: int,
    cols: int,
    item_codes: dict[tuple, int],
    monsters: dict[Enemy, int],
) -> list[list[int]]:
    grid = [[tiles.WALL_CODE] * cols for _ in range(rows)]
    for r, row in enumerate(plan.rows):
        for c, place in enumerate(row):
            grid[r][c] = _code(exporting, place, item_codes, monsters)
    return grid


def _code(exporting: Exporting, place: Place, item_codes: dict[tuple, int], monsters: dict[Enemy, int]) -> int:
    if place == WALL:
        return tiles.WALL_CODE
    if place == UP:
        return tiles.UP
    if place == DOWN:
        return tiles.DOWN
    if place == GOAL:
        return BOSS
    if not isinstance(place, int):
        return tiles.ROAD  # a floor cell, the start
    thing = exporting.level.things[place]
    if thing.kind == "enemy":
        assert thing.enemy is not None
        return monsters[thing.enemy]
    if thing.kind == "key":
        return {colour: code for code, colour in tiles.KEYS[tiles.NEW].items()}[exporting.colour_of(thing)]
    if thing.kind == "door":
        return {colour: code for code, colour in tiles.DOORS.items()}[exporting.colour_of(thing)]
    if thing.kind == "shop":
        return tiles.SHOP_CODE
    return item_codes[entry_of(thing)]
