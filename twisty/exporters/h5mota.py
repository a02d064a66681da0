"""A passages level as an h5mota project (mota-js 2.x), which twisty's h5mota importer reads back as the same
level (docs/mota.md, "Exporting").

What each part of a level becomes:

- each floor a floor file `floors/MT<n>.js` (bottom first; a level of one map is one floor), at least
  13 x 13 (a smaller map stands in the middle of walls); walls are tile 1, `yellowWall`;
- an up stair `upFloor` (87) and a down stair `downFloor` (88), each a `changeFloor` to the other stair's
  cell: "The up stair of floor f and the down stair of floor f+1 are one place";
- keys and doors of a colour the standard `yellowKey` ... `greenKey` (21-24) and `yellowDoor` ...
  `greenDoor` (81-84); the rulebook's keys (no colour) take the first colour the level leaves free;
- each distinct potion, gem or piece of equipment an item of its own (items.js, class `items`) whose
  effect adds its values (`core.status.hero.hp += 50`); each distinct enemy a monster of its own
  (enemys.js) with its specials and their fields (`n`, `vampire`, `damage`), the strengths of break
  armour, counter and purify in data.js's `values`;
- the goals a stair up to one more floor, `exit`, whose arrival wins; a boss whose defeat wins an
  `afterBattle` `win` event at its cell;
- the shop the standard form of data.js's `firstData.shops` (a price of start + delta x purchases so far,
  counted in `flag:<shop id>`), opened and enabled by stepping on a shop cell (an `openShop` event there);
  `mustEnable` keeps it out of the quick-shop list until then (unless the hero may buy from the start);
- the hero's stats, keys and place in `firstData.hero`.

What the format cannot say exactly is refused (a LevelError at its place in the level file): more than one
stair each way between two floors (a stair of mota-js leads to one place), a goal below the top floor,
strengths of break armour, counter or purify that differ between enemies (data.js holds one of each), a
strength the engine's floating-point arithmetic would floor differently from twisty's exact one, and keys
of no colour beside keys of all four colours.
"""

from __future__ import annotations

import hashlib
import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from twisty.exporters import h5mota_project as parts
from twisty.exporters.plan import DOWN, FLOOR, GOAL, START, UP, WALL, Exporting, FloorPlan, Place, kinds
from twisty.limits import Deadline
from twisty.rules.passages import COLOURS, PURCHASES, PassagesLevel, Thing
from twisty.rules.passages_combat import (
    BREAK_ARMOUR,
    BREAK_ARMOUR_DEFAULT,
    COUNTER,
    COUNTER_DEFAULT,
    DRAIN,
    FIRST_STRIKE,
    FIXED,
    MULTIPLE,
    PURIFY,
    PURIFY_DEFAULT,
    Enemy,
)
from twisty.rules.passages_writer import entry_of
from twisty.rules.source import LevelSource

# Tile numbers of maps.js: mota-js's template numbering where it has one.
WALL_TILE, UP_TILE, DOWN_TILE = 1, 87, 88
KEY_TILES = {colour: 21 + number for number, colour in enumerate(COLOURS)}
DOOR_TILES = {colour: 81 + number for number, colour in enumerate(COLOURS)}
FIRST_MONSTER_TILE, FIRST_ITEM_TILE = 201, 1001  # (at most 300 blockers: monsters stay below 501)
EXIT_FLOOR = "exit"
SHOP_ID = "shop1"
# The strengths of specials that data.js's `values` holds, one for every monster: field of Enemy, name in
# values, default, and the stat of the hero it multiplies.
STRENGTHS = (
    (BREAK_ARMOUR, "break_armour", "breakArmor", BREAK_ARMOUR_DEFAULT, "def"),
    (COUNTER, "counter", "counterAttack", COUNTER_DEFAULT, "atk"),
    (PURIFY, "purify", "purify", PURIFY_DEFAULT, "mdef"),
)


@dataclass(frozen=True)
class Project:
    """An exported project: its files (a path inside `project/` -> the text), and the ids of the level's
    floors, bottom first (the range to import back: `--floors FIRST..LAST`)."""

    files: dict[str, str]
    floor_ids: tuple[str, ...]


def export_h5mota(
    level: PassagesLevel, source: LevelSource | None = None, path: str = "<level>", deadline: Deadline | None = None
) -> Project:
    """The h5mota project of a level; a LevelError (at its place in `source`) for anything the format cannot
    say exactly. `deadline` is polled between floors (LimitReached)."""
    return _Export(Exporting(level, source, path, "h5mota"), deadline).project()


class _Export:
    def __init__(self, exporting: Exporting, deadline: Deadline | None) -> None:
        self.exporting = exporting
        self.level = exporting.level
        self.deadline = deadline
        self.plans = exporting.plans()
        self.floor_ids = [f"MT{plan.number + 1}" for plan in self.plans]
        # Each floor stands at an offset in its floor file (a small map in the middle of walls).
        self.sizes = [(max(parts.LEAST_SIDE, p.height), max(parts.LEAST_SIDE, p.width)) for p in self.plans]
        self.offsets = [
            ((h - p.height) // 2, (w - p.width) // 2) for (h, w), p in zip(self.sizes, self.plans, strict=True)
        ]
        self.ids: set[str] = set(parts.KEY_ICONS) | {parts.WALL_ID, "upFloor", "downFloor", "ground"}
        self.monsters: dict[tuple, tuple[str, int]] = {}  # legend entry -> (id, tile)
        self.items: dict[tuple, tuple[str, int]] = {}

    def poll(self) -> None:
        if self.deadline is not None:
            self.deadline.check()

    def project(self) -> Project:
        self._check_stairs_and_goals()
        values = self._values()
        for number, entry in enumerate(kinds(self.level, "enemy")):
            self.monsters[entry] = (self._new_id(entry[1].name, "monster"), FIRST_MONSTER_TILE + number)
        item_entries = kinds(self.level, "elixir") + kinds(self.level, "equipment")
        for number, entry in enumerate(item_entries):
            self.items[entry] = (self._new_id(_item_name(entry), "item"), FIRST_ITEM_TILE + number)
        files: dict[str, str] = {}
        for plan in self.plans:
            self.poll()
            files[f"floors/{self.floor_ids[plan.number]}.js"] = parts.floor_file(
                self.floor_ids[plan.number], self._floor(plan)
            )
        if self.level.goals and not self.level.guards:
            files[f"floors/{EXIT_FLOOR}.js"] = parts.floor_file(EXIT_FLOOR, self._exit_floor())
        files["data.js"] = parts.assignment_file("data.js", self._data(values, files), one_line=False)
        files["enemys.js"] = parts.assignment_file("enemys.js", self._enemies(), one_line=True)
        files["items.js"] = parts.assignment_file("items.js", self._items(), one_line=False)
        files["maps.js"] = parts.assignment_file("maps.js", self._maps(), one_line=True)
        files["icons.js"] = parts.assignment_file("icons.js", self._icons(), one_line=False)
        ordered = {name: files[name] for name in sorted(files)}
        return Project(ordered, tuple(self.floor_ids))

    # ------------------------------------------------------------------------------------ what is refused

    def _check_stairs_and_goals(self) -> None:
        """One stair each way between two floors (a mota-js stair takes the hero to one place, twisty's joins
        every up stair of a floor to every down stair of the next); goals on the top floor only (twisty's
        importer takes a tower's goals from the stairs up out of the last floor it reads)."""
        top = len(self.plans) - 1
        for plan in self.plans:
            for direction in (UP, DOWN):
                cells = plan.cells(direction)
                if len(cells) > 1:
                    raise self.exporting.refuse(
                        f"floor {plan.name} has {len(cells)} {direction} stairs; twisty joins every up stair of a "
                        "floor to every down stair of the next, and a stair of h5mota takes the hero to one "
                        "place (give two floors one stair each way)",
                        cell=self._grid_cell(plan, cells[1]),
                    )
            goals = plan.cells(GOAL)
            if goals and plan.number != top:
                raise self.exporting.refuse(
                    f"a goal on floor {plan.name}, below the top floor; an h5mota tower is left by a stair up "
                    "out of its top floor",
                    cell=self._grid_cell(plan, goals[0]),
                )

    def _grid_cell(self, plan: FloorPlan, place: tuple[int, int]) -> tuple[int, int]:
        first = self.level.floors[plan.number].first_row if self.level.floors else 0
        return (first + place[0], place[1])

    def _values(self) -> dict[str, Any]:
        """data.js's values: the engine's constants, with the level's strengths of break armour, counter and
        purify (one each, for every monster)."""
        values = dict(parts.VALUES)
        enemies = [(thing, thing.enemy) for thing in self.level.things if thing.enemy is not None]
        for special, field, name, default, stat in STRENGTHS:
            users = [thing for thing, enemy in enemies if special in enemy.specials]
            strengths = sorted({getattr(thing.enemy, field) for thing in users})
            if len(strengths) > 1:
                raise self.exporting.refuse(
                    f"monsters of special {special} with strengths {', '.join(map(_decimal_text, strengths))}; "
                    f"an h5mota tower has one ({name} in data.js's values) for all",
                    thing=users[0],
                )
            if strengths:
                self._check_engine_floor(strengths[0], name, stat, users[0])
            values[name] = _number(strengths[0] if strengths else default)
        drains: dict[Fraction, Thing] = {}
        for thing, enemy in enemies:
            if DRAIN in enemy.specials:
                drains.setdefault(enemy.drain, thing)
        for drain, thing in drains.items():
            self.poll()  # (each check may try up to TRIED_UP_TO values)
            self._check_engine_floor(drain, "vampire", "hp", thing)
        return values

    def _check_engine_floor(self, strength: Fraction, name: str, stat: str, thing: Thing | None) -> None:
        """mota-js floors a strength times a stat in binary floating point (Math.floor(0.9 * def)); twisty
        floors the exact product. Refused where the two can differ for a value the stat can take."""
        written = float(strength)
        if Fraction(repr(written)) != strength:
            raise self.exporting.refuse(
                f"the strength {_decimal_text(strength)} ({name}) has more digits than a JavaScript number holds",
                thing=thing,
            )
        if not engine_floor_matches(strength, largest_stat(self.level, stat)):
            below = " (it holds a number a little below it)" if Fraction(written) < strength else ""
            raise self.exporting.refuse(
                f"the strength {_decimal_text(strength)} ({name}): JavaScript holds it as the nearest binary "
                f"number{below}, and the engine's floor({_decimal_text(strength)} x {stat}) differs from "
                "twisty's exact one for some value the stat can take; use a strength the engine floors "
                "exactly (0.1, 0.25, 0.3, 0.5, 0.9 and whole numbers are)",
                thing=thing,
            )

    # ----------------------------------------------------------------------------------------- the floors

    def _floor(self, plan: FloorPlan) -> dict[str, Any]:
        height, width = self.sizes[plan.number]
        top, left = self.offsets[plan.number]
        grid = [[WALL_TILE] * width for _ in range(height)]
        events: dict[str, Any] = {}
        change: dict[str, Any] = {}
        after_battle: dict[str, Any] = {}
        for r, row in enumerate(plan.rows):
            for c, place in enumerate(row):
                x, y = left + c, top + r
                grid[y][x] = self._tile(place)
                here = f"{x},{y}"
                if place == UP:
                    change[here] = self._stair_target(plan.number + 1, DOWN)
                elif place == DOWN:
                    change[here] = self._stair_target(plan.number - 1, UP)
                elif place == GOAL:
                    change[here] = {"floorId": EXIT_FLOOR, "loc": [parts.LEAST_SIDE // 2, parts.LEAST_SIDE // 2]}
                elif isinstance(place, int):
                    thing = self.level.things[place]
                    if thing.kind == "shop":
                        events[here] = [{"type": "openShop", "id": SHOP_ID, "open": True}]
                    elif thing.wins:
                        after_battle[here] = [{"type": "win", "reason": "The boss is defeated"}]
        name = plan.name or str(plan.number + 1)
        return {
            "floorId": self.floor_ids[plan.number],
            "title": _title(self.level.name, name, len(self.plans)),
            "name": name,
            **parts.FLOOR_SETTINGS,
            "map": grid,
            "firstArrive": [],
            "parallelDo": "",
            "events": events,
            "changeFloor": change,
            "afterBattle": after_battle,
            "afterGetItem": {},
            "afterOpenDoor": {},
            "cannotMove": {},
            "bgmap": [],
            "fgmap": [],
            "width": width,
            "height": height,
            "autoEvent": {},
        }

    def _tile(self, place: Place) -> int:
        if place == WALL:
            return WALL_TILE
        if place in (FLOOR, START):
            return 0
        if place in (UP, GOAL):
            return UP_TILE
        if place == DOWN:
            return DOWN_TILE
        assert isinstance(place, int)
        thing = self.level.things[place]
        if thing.kind == "key":
            return KEY_TILES[self.exporting.colour_of(thing)]
        if thing.kind == "door":
            return DOOR_TILES[self.exporting.colour_of(thing)]
        if thing.kind == "enemy":
            return self.monsters[entry_of(thing)][1]
        if thing.kind == "shop":
            return 0  # (a floor cell whose event opens the shop)
        return self.items[entry_of(thing)][1]

    def _stair_target(self, floor: int, direction: str) -> dict[str, Any]:
        """The `changeFloor` of a stair: the cell of the one stair of `direction` on `floor`."""
        (r, c) = self.plans[floor].cells(direction)[0]
        top, left = self.offsets[floor]
        return {"floorId": self.floor_ids[floor], "loc": [left + c, top + r]}

    def _exit_floor(self) -> dict[str, Any]:
        """The floor above the top one: arriving there (by a goal's stair) wins."""
        side = parts.LEAST_SIDE
        return {
            "floorId": EXIT_FLOOR,
            "title": "Exit",
            "name": "exit",
            **parts.FLOOR_SETTINGS,
            "map": [[0] * side for _ in range(side)],
            "firstArrive": [{"type": "win", "reason": "The goal is reached"}],
            "parallelDo": "",
            "events": {},
            "changeFloor": {},
            "afterBattle": {},
            "afterGetItem": {},
            "afterOpenDoor": {},
            "cannotMove": {},
            "bgmap": [],
            "fgmap": [],
            "width": side,
            "height": side,
            "autoEvent": {},
        }

    # ------------------------------------------------------------------------------------ the data files

    def _data(self, values: dict[str, Any], files: dict[str, str]) -> dict[str, Any]:
        level = self.level
        start_plan = next(plan for plan in self.plans if plan.cells(START))
        (r, c) = start_plan.cells(START)[0]
        top, left = self.offsets[start_plan.number]
        player = level.player
        keys = self.exporting.start_keys()
        floor_ids = list(self.floor_ids) + ([EXIT_FLOOR] if f"floors/{EXIT_FLOOR}.js" in files else [])
        status_bar = list(parts.STATUS_BAR)
        if any(thing.colour == "green" for thing in level.things) or keys["green"]:
            status_bar.append("enableGreenKey")
        digest = hashlib.sha256("\n".join(files[name] for name in sorted(files)).encode()).hexdigest()[:12]
        hero = {
            "image": "hero.png",
            "animate": False,
            "name": "Hero",
            "lv": 1,
            "hpmax": 9999,
            "hp": player.hp,
            "manamax": -1,
            "mana": 0,
            "atk": player.atk,
            "def": player.defense,
            "mdef": player.mdef,
            "money": player.money,
            "exp": 0,
            "equipment": [],
            "items": {
                "constants": {},
                "tools": {f"{colour}Key": count for colour, count in keys.items() if count},
                "equips": {},
            },
            "loc": {"direction": "up", "x": left + c, "y": top + r},
            "flags": {},
            "followers": [],
            "steps": 0,
        }
        first = {
            "title": level.name or "A twisty level",
            "name": f"twisty_{digest}",
            "version": "Ver 1.0",
            "floorId": self.floor_ids[start_plan.number],
            "hero": hero,
            "startCanvas": [],
            "startText": [level.description] if level.description else [],
            "shops": self._shops(),
            "levelUp": [{"need": "0", "title": "", "action": []}],
        }
        main = {"floorIds": floor_ids, **parts.MAIN_ASSETS}
        flags = {"statusBarItems": status_bar, **parts.FLAGS}
        return {"main": main, "firstData": first, "values": values, "flags": flags}

    def _shops(self) -> list[dict[str, Any]]:
        """The level's shop in mota-js's standard form: each choice costs start + delta x flag:<id> money
        (the purchases so far), adds one to that flag and gives its gain."""
        shop = self.level.shop
        if shop is None:
            return []
        price = f"{shop.start}+{shop.delta}*flag:{SHOP_ID}"
        choices = []
        for choice in shop.choices:
            stat, gain = PURCHASES[choice], shop.gain(choice)
            choices.append(
                {
                    "text": f"{stat} +{gain}",
                    "need": f"status:money>={price}",
                    "action": [
                        {"type": "setValue", "name": "status:money", "operator": "-=", "value": price},
                        {"type": "setValue", "name": f"flag:{SHOP_ID}", "operator": "+=", "value": "1"},
                        {"type": "setValue", "name": f"status:{stat}", "operator": "+=", "value": str(gain)},
                    ],
                }
            )
        return [
            {
                "id": SHOP_ID,
                "text": f"A purchase costs ${{{price}}} money:",
                "textInList": "Shop",
                # (a hero who may buy from the start has the quick shop open from the start)
                "mustEnable": not self.level.player.shopping,
                "disablePreview": False,
                "choices": choices,
            }
        ]

    def _enemies(self) -> dict[str, Any]:
        monsters: dict[str, Any] = {}
        for entry, (ident, _) in self.monsters.items():
            enemy: Enemy = entry[1]
            specials = sorted(enemy.specials | ({FIRST_STRIKE} if enemy.first_strike else set()))
            fields: dict[str, Any] = {
                "name": enemy.name or ident,
                "hp": enemy.hp,
                "atk": enemy.atk,
                "def": enemy.defense,
                "money": enemy.money,
                "exp": 0,
                "point": 0,
                "special": specials or 0,
            }
            if MULTIPLE in enemy.specials:
                fields["n"] = enemy.hits_per_round
            if DRAIN in enemy.specials:
                fields["vampire"] = _number(enemy.drain)
            if FIXED in enemy.specials:
                fields["damage"] = enemy.fixed_damage
            monsters[ident] = fields
        return monsters

    def _items(self) -> dict[str, Any]:
        items: dict[str, Any] = {}
        for colour in self._key_colours():
            items[f"{colour}Key"] = {
                "cls": "tools",
                "name": f"{colour.capitalize()} key",
                "text": f"Opens a {colour} door",
                "hideInToolbox": True,
            }
        for entry, (ident, _) in self.items.items():
            gains = _gains(entry)
            effect = "; ".join(f"core.status.hero.{stat} += {gain}" for stat, gain in gains)
            shown = ", ".join(f"{stat} +{gain}" for stat, gain in gains)
            items[ident] = {
                "cls": "items",
                "name": _item_name(entry),
                "text": shown,
                "itemEffect": effect,
                "itemEffectTip": f", {shown}",
                "useItemEffect": effect,
                "canUseItemEffect": "true",
            }
        return items

    def _key_colours(self) -> list[str]:
        used = {self.exporting.colour_of(t) for t in self.level.things if t.kind in ("key", "door")}
        used |= {colour for colour, count in self.exporting.start_keys().items() if count}
        return [colour for colour in COLOURS if colour in used]

    def _maps(self) -> dict[str, Any]:
        door = {"time": parts.DOOR_SECONDS, "openSound": "door.mp3", "closeSound": "door.mp3"}
        tiles: dict[int, Any] = {WALL_TILE: {"cls": "animates", "id": parts.WALL_ID, "canBreak": False}}
        for colour in self._key_colours():
            tiles[KEY_TILES[colour]] = {"cls": "items", "id": f"{colour}Key"}
            tiles[DOOR_TILES[colour]] = {
                "cls": "animates",
                "id": f"{colour}Door",
                "trigger": "openDoor",
                "animate": 1,
                "doorInfo": door | {"keys": {f"{colour}Key": 1}},
                "name": f"{colour.capitalize()} door",
            }
        tiles[UP_TILE] = {"cls": "terrains", "id": "upFloor", "canPass": True}
        tiles[DOWN_TILE] = {"cls": "terrains", "id": "downFloor", "canPass": True}
        for ident, tile in self.monsters.values():
            tiles[tile] = {"cls": "enemys", "id": ident}
        for ident, tile in self.items.values():
            tiles[tile] = {"cls": "items", "id": ident}
        return {str(tile): tiles[tile] for tile in sorted(tiles)}

    def _icons(self) -> dict[str, Any]:
        monsters = {}
        for number, (entry, (ident, _)) in enumerate(self.monsters.items()):
            monsters[ident] = _monster_icon(entry[1].name, number)
        items: dict[str, int] = {f"{colour}Key": parts.KEY_ICONS[f"{colour}Key"] for colour in self._key_colours()}
        potions = sorted({entry[2] for entry in self.items if entry[0] == "elixir"})
        for entry, (ident, _) in self.items.items():
            items[ident] = _item_icon(entry, potions)
        return {
            "hero": parts.HERO_ICON,
            "terrains": parts.TERRAIN_ICONS,
            "animates": parts.ANIMATE_ICONS,
            "npcs": {},
            "npc48": {},
            "enemys": monsters,
            "enemy48": {},
            "items": items,
            "autotile": {},
        }

    def _new_id(self, name: str, fallback: str) -> str:
        """An id of its own for a monster or an item: its name in lower-case letters and digits, numbered."""
        stem = re.sub(r"[^a-z0-9]", "", name.lower())[:20] or fallback
        if stem[0].isdigit():
            stem = fallback + stem
        number = 1
        while f"{stem}{number}" in self.ids:
            number += 1
        self.ids.add(f"{stem}{number}")
        return f"{stem}{number}"


def _item_name(entry: tuple) -> str:
    """An item's name: the level's, else what it is ("Potion", "Attack gem", ...)."""
    if entry[1] and entry[1] != entry[0]:
        return str(entry[1])
    if entry[0] == "elixir":
        return "Potion"
    stats = [stat for stat, _ in _gains(entry)]
    return (
        {"atk": "Attack gem", "def": "Defence gem", "mdef": "Magic defence gem"}.get(stats[0], "Gem")
        if len(stats) == 1
        else "Gem"
    )


def _gains(entry: tuple) -> list[tuple[str, int]]:
    if entry[0] == "elixir":
        return [("hp", entry[2])]
    return [(stat, gain) for stat, gain in (("atk", entry[2]), ("def", entry[3]), ("mdef", entry[4])) if gain]


def _item_icon(entry: tuple, potions: list[int]) -> int:
    if entry[0] == "elixir":
        return parts.POTION_ICONS[min(potions.index(entry[2]), len(parts.POTION_ICONS) - 1)]
    stats = [stat for stat, _ in _gains(entry)]
    name = (entry[1] or "").lower()
    if stats == ["atk"]:
        return parts.SWORD_ICON if "sword" in name else parts.ATK_ICON
    if stats == ["def"]:
        return parts.SHIELD_ICON if "shield" in name else parts.DEF_ICON
    return parts.MDEF_ICON if stats == ["mdef"] else parts.MIXED_ICON


def _monster_icon(name: str, number: int) -> int:
    lowered = name.lower()
    for word, icon in parts.MONSTER_ICONS.items():
        if word in lowered:
            return icon
    return parts.MONSTER_ROUND[number % len(parts.MONSTER_ROUND)]


def _title(level_name: str, floor_name: str, floors: int) -> str:
    if floors == 1:
        return level_name or "A twisty level"
    return f"{level_name} {floor_name}".strip()


def _number(value: Fraction) -> int | float:
    """A strength as JSON writes it: a whole number, else the float whose shortest form is its decimal."""
    return value.numerator if value.denominator == 1 else float(value)


def _decimal_text(value: Fraction) -> str:
    return str(_number(value))


def largest_stat(level: PassagesLevel, stat: str) -> int:
    """An upper bound of the value `stat` ("hp", "atk", "def", "mdef") can take in the level: the start, every
    gain on the map, and every purchase all the money there is could make."""
    player = level.player
    start = {"hp": player.hp, "atk": player.atk, "def": player.defense, "mdef": player.mdef}[stat]
    field = {"hp": "hp", "atk": "atk", "def": "defense", "mdef": "mdef"}[stat]
    total = start + sum(getattr(thing, field) for thing in level.things if thing.kind in ("elixir", "equipment"))
    shop = level.shop
    if shop is not None:
        money = player.money + sum(thing.enemy.money for thing in level.things if thing.enemy is not None)
        purchases = money // max(shop.start, 1) + 1
        total += purchases * shop.gain(PURCHASES.index(stat))
    return total


# Up to this value of the stat, the floor check tries every value (a few milliseconds); past it, the bound.
TRIED_UP_TO = 100_000


def engine_floor_matches(strength: Fraction, largest: int) -> bool:
    """Whether JavaScript's Math.floor(x * n), x the double nearest `strength`, equals floor(strength x n)
    for every whole n from 0 to `largest`: tried for every n up to TRIED_UP_TO (Python's floats are the
    same IEEE doubles, multiplied and rounded the same way), else `floor_bound_holds`."""
    if largest <= TRIED_UP_TO:
        double = float(strength)
        top, bottom = strength.numerator, strength.denominator
        return all(math.floor(double * n) == top * n // bottom for n in range(largest + 1))
    return floor_bound_holds(strength, largest)


def floor_bound_holds(strength: Fraction, largest: int) -> bool:
    """A proof that Math.floor(x * n) = floor(strength x n) for every whole n up to `largest`, x the
    double nearest `strength` (False where it proves nothing).

    With e = |x - strength| and q the strength's denominator: where strength x n is a whole number k, a
    product x * n below k (x < strength) still rounds to k when its error n x e is under half a unit in
    the last place of k, which holds for every n when e < strength x 2^-54; above k it floors to k.
    Elsewhere strength x n lies at least 1/q from the next whole number, so the floor is unchanged when
    e x n, plus the rounding of the product (at most (strength x n + 1) x 2^-53), stays below 1/q."""
    if largest <= 0 or strength == 0:
        return True
    exact = Fraction(float(strength))
    error = abs(exact - strength)
    if error == 0:
        return True
    if exact < strength and error >= strength / 2**54:
        return False
    rounding = (strength * largest + 1) / 2**53 if exact > strength else Fraction(0)
    return error * largest + rounding < Fraction(1, strength.denominator)
