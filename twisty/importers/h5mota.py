"""h5mota projects (mota-js 2.x) as passages levels, one per chosen range of floors, with a loss report.

A project is a folder of JavaScript files, each one object literal (read by twisty.importers.js_literals,
without running anything): data.js (the floor order, the hero, the values of gems and potions), enemys.js,
items.js, maps.js (tile number -> what it is) and floors/<floorId>.js. docs/mota.md says what is read and
how; everything else of a tower (events, NPCs, special doors, tools, specials 12+ other than 22, shops
made of events) goes into the loss report, counted per floor with its first places.

A level of floors A..B starts where the hero starts when A holds the tower's start, else where a hero
coming up from the floor below A arrives, with the tower's starting stats; it is won by taking a stair up
out of B (those stairs are its goals), or, when B has none, by defeating an enemy whose battle ends in a
`win` event (a boss).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from twisty.errors import LevelError
from twisty.importers.js_literals import EffectError, read_effect, read_object_file
from twisty.importers.losses import LossReport
from twisty.importers.tower import FloorPlan, ImportedLevel, Tile, tower_level
from twisty.rules.passages import COLOURS, Thing, TowerStats
from twisty.rules.passages_combat import (
    BREAK_ARMOUR_DEFAULT,
    COUNTER_DEFAULT,
    DRAIN,
    FIRST_STRIKE,
    FIXED,
    MODELLED_SPECIALS,
    MULTIPLE,
    PURIFY_DEFAULT,
    Enemy,
)
from twisty.rules.passages_format import MAX_MAP_SIDE

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
STAIR_IDS = ("upFloor", "downFloor")
# Floor entries whose events twisty does not play, each named for the loss report.
EVENT_LISTS = {
    "events": "event",
    "afterBattle": "event after a battle",
    "afterGetItem": "event after taking an item",
    "afterOpenDoor": "event after opening a door",
    "beforeBattle": "event before a battle",
    "autoEvent": "automatic event",
    "cannotMove": "move restriction",
    "cannotMoveIn": "move restriction",
}
ARRIVAL_EVENTS = {"firstArrive": "event on first arrival", "eachArrive": "event on each arrival"}
# Event actions that only show or sound something: an event made of these (and of text) changes no play.
SHOW_ONLY = frozenset(
    {"text", "tip", "comment", "playSound", "stopSound", "sleep", "animate", "setText", "autoText", "scrollText"}
    | {"playBgm", "pauseBgm", "resumeBgm", "vibrate", "changePos"}
)


@dataclass
class Project:
    """What an h5mota project says, read once for every level made from it."""

    folder: Path
    floor_ids: list[str]
    data: dict[str, Any]
    enemies: dict[str, Any]
    items: dict[str, Any]
    maps: dict[str, Any]
    floors: dict[str, dict[str, Any]] = field(default_factory=dict)

    @property
    def values(self) -> dict[str, Any]:
        values = self.data.get("values", {})
        return values if isinstance(values, dict) else {}

    @property
    def hero(self) -> dict[str, Any]:
        hero = self.data.get("firstData", {}).get("hero", {})
        return hero if isinstance(hero, dict) else {}

    @property
    def start_floor(self) -> str:
        return str(self.data.get("firstData", {}).get("floorId", self.floor_ids[0]))


def read_project(folder: Path) -> Project:
    """The project's files: `folder` is the project folder (with data.js) or the tower's (with project/)."""
    if not (folder / "data.js").is_file() and (folder / "project" / "data.js").is_file():
        folder = folder / "project"
    if not folder.is_dir():
        raise LevelError("not a folder (an h5mota project is a folder with data.js, enemys.js, ...)", path=str(folder))
    data, _ = read_object_file(folder / "data.js")
    floor_ids = data.get("main", {}).get("floorIds") if isinstance(data.get("main"), dict) else None
    if not isinstance(floor_ids, list) or not floor_ids or not all(isinstance(f, str) for f in floor_ids):
        raise LevelError('data.js has no list of floors (main.floorIds = ["MT1", ...])', path=str(folder / "data.js"))
    enemies, _ = read_object_file(folder / "enemys.js")
    items, _ = read_object_file(folder / "items.js")
    maps, _ = read_object_file(folder / "maps.js")
    if "items" in items and isinstance(items["items"], dict):  # (items.js of 2.0-2.5: {"items": {...}, ...})
        items = items["items"]
    return Project(folder, floor_ids, data, enemies, items, maps)


def floor_of(project: Project, floor_id: str) -> dict[str, Any]:
    """Floor `floor_id`'s object (floors/<floorId>.js), read once; checked to have a map within limits."""
    if floor_id not in project.floors:
        path = project.folder / "floors" / f"{floor_id}.js"
        floor, _ = read_object_file(path)
        grid = floor.get("map")
        if (
            not isinstance(grid, list)
            or not grid
            or len(grid) > MAX_MAP_SIDE
            or not all(isinstance(row, list) and len(row) <= MAX_MAP_SIDE for row in grid)
            or not all(isinstance(n, int) and not isinstance(n, bool) for row in grid for n in row)
        ):
            raise LevelError(f"no map of whole numbers of at most {MAX_MAP_SIDE} x {MAX_MAP_SIDE}", path=str(path))
        project.floors[floor_id] = floor
    return project.floors[floor_id]


def floor_ranges(project: Project, chosen: list[str]) -> list[list[str]]:
    """The floor ranges to import: each `A..B` (or one floor A) of `chosen`, in the order of main.floorIds;
    none chosen: each floor alone."""
    ids = project.floor_ids
    if not chosen:
        return [[floor] for floor in ids]
    ranges = []
    for text in chosen:
        first, _, last = text.partition("..")
        last = last or first
        for name in (first, last):
            if name not in ids:
                raise LevelError(
                    f"--floors {text}: no floor {name!r} in main.floorIds ({ids[0]} .. {ids[-1]})",
                    path=str(project.folder / "data.js"),
                )
        low, high = ids.index(first), ids.index(last)
        if low > high:
            raise LevelError(
                f"--floors {text}: {first} comes after {last} in main.floorIds", path=str(project.folder / "data.js")
            )
        ranges.append(ids[low : high + 1])
    return ranges


def import_range(project: Project, floors: list[str]) -> tuple[ImportedLevel | None, LossReport, str]:
    """The level of floors `floors` (consecutive in main.floorIds), what was lost, and why no level was made
    when none was (a range with no way to win)."""
    report = LossReport()
    ids = project.floor_ids
    plans: list[FloorPlan] = []
    goals = 0
    for name in floors:
        floor = floor_of(project, name)
        rows, found_goals = _floor_tiles(project, name, floor, floors, report)
        goals += found_goals
        plans.append(FloorPlan(name, rows))
    if not _place_start(project, floors, plans, report):
        return None, report, f"no start: the hero starts elsewhere and nothing on {floors[0]} says where one arrives"
    bosses = [
        t
        for plan in plans
        for row in plan.rows
        for t in row
        if isinstance(t, Thing) and t.enemy is not None and t.enemy.boss
    ]
    if goals and bosses:
        for plan in plans:
            for row in plan.rows:
                for c, tile in enumerate(row):
                    if isinstance(tile, Thing) and tile.enemy is not None and tile.enemy.boss:
                        row[c] = Thing("enemy", "", (0, 0), enemy=Enemy(**{**vars(tile.enemy), "boss": False}))
        report.add(floors[-1], "win after a battle, with a stair up as well", "the level is won at the stair")
    if not goals and not bosses:
        return None, report, f"no way to win: no stair leads up out of {floors[-1]} and no battle there ends in a win"
    hero = project.hero
    tools = hero.get("items", {}).get("tools", {}) if isinstance(hero.get("items"), dict) else {}
    for tool, count in (tools or {}).items():
        if tool not in KEY_IDS and count:
            report.add("", f"the hero starts with tool {tool}", "not modelled")
    player = TowerStats(
        _number(hero, "hp", 1) or 1,
        _number(hero, "atk"),
        _number(hero, "def"),
        0,
        _number(hero, "mdef"),
        _number(hero, "money"),
        tuple(int(tools.get(f"{colour}Key", 0) or 0) for colour in COLOURS),
    )
    if floors[0] != project.start_floor and project.start_floor in ids:
        report.add(
            "",
            f"the floors start above the tower's start ({project.start_floor})",
            "with the tower's starting stats",
            note=True,
        )
    title = project.data.get("firstData", {}).get("title", "")
    name = f"{title} {floors[0]}" + (f"..{floors[-1]}" if len(floors) > 1 else "")
    header = [
        f"Imported from the h5mota project {project.folder} (floors {floors[0]}..{floors[-1]}) by",
        "`twisty import h5mota`.",
        "Won by taking a stair up out of the last floor (or by defeating the boss whose battle wins).",
        "Losses: " + ("none" if report.exact else "yes (see the loss report): exact for this model only"),
    ]
    level = tower_level(name.strip(), plans, player, header=header, shown=f"{project.folder} {floors[0]}..{floors[-1]}")
    return level, report, ""


def _number(table: dict[str, Any], key: str, minimum: int = 0) -> int:
    value = table.get(key, 0)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != int(value):
        return minimum
    return max(minimum, min(int(value), 10**9))


def _floor_tiles(
    project: Project, name: str, floor: dict[str, Any], chosen: list[str], report: LossReport
) -> tuple[list[list[Tile]], int]:
    """One floor's tiles, and how many goals (stairs up out of the range) it has."""
    ratio = Fraction(str(floor.get("ratio", 1))) if isinstance(floor.get("ratio", 1), (int, float)) else Fraction(1)
    rows: list[list[Tile]] = []
    for y, numbers in enumerate(floor["map"]):
        rows.append([_tile(project, name, number, (y, x), ratio, report) for x, number in enumerate(numbers)])
    for key, what in EVENT_LISTS.items():
        table = floor.get(key)
        if not isinstance(table, dict):
            continue
        for place, event in table.items():
            if _shows_only(event):
                continue
            cell = _place(place)
            if key == "afterBattle" and _wins(event) and cell is not None and _enemy_at(rows, cell) is not None:
                enemy = _enemy_at(rows, cell)
                assert enemy is not None
                rows[cell[0]][cell[1]] = Thing("enemy", "", (0, 0), enemy=Enemy(**{**vars(enemy), "boss": True}))
                continue
            if cell is not None and _tile_at(rows, cell) == "npc":
                report.add(name, "NPC", "a wall (its event not played)", cell)
            else:
                report.add(name, what, "not played", cell)
    for row in rows:
        for x, tile in enumerate(row):
            if tile == "npc":
                row[x] = "wall"  # (an NPC that only talks stands in the way like a wall)
    for key, what in ARRIVAL_EVENTS.items():
        if not _shows_only(floor.get(key)):
            report.add(name, what, "not played")
    goals = 0
    index = project.floor_ids.index(name)
    change = floor.get("changeFloor")
    for place, target in (change if isinstance(change, dict) else {}).items():
        cell = _place(place)
        if (
            cell is None
            or not isinstance(target, dict)
            or not (0 <= cell[0] < len(rows) and 0 <= cell[1] < len(rows[cell[0]]))
        ):
            report.add(name, "unreadable stair (changeFloor)", "ignored")
            continue
        to = str(target.get("floorId"))
        to_index = {":next": index + 1, ":before": index - 1, ":now": index}.get(
            to, project.floor_ids.index(to) if to in project.floor_ids else -1
        )
        y, x = cell
        if to_index == index + 1 and name == chosen[-1]:
            rows[y][x] = "goal"
            goals += 1
        elif to_index == index + 1 and to_index < len(project.floor_ids) and project.floor_ids[to_index] in chosen:
            rows[y][x] = "up"
        elif to_index == index - 1 and to_index >= 0 and project.floor_ids[to_index] in chosen:
            rows[y][x] = "down"
        elif to_index == index - 1:
            report.add(name, "stair down out of the floors imported", "a floor cell", cell, note=True)
            rows[y][x] = "floor"
        else:
            report.add(name, f"teleport to {to}", "a floor cell", cell)
            rows[y][x] = "floor"
    for y, row in enumerate(rows):
        for x, tile in enumerate(row):
            if tile in STAIR_IDS:
                report.add(name, "stair without a changeFloor", "a floor cell", (y, x))
                row[x] = "floor"
    return rows, goals


def _place(text: str) -> tuple[int, int] | None:
    """An event's key "x,y" as (row, col)."""
    x, _, y = str(text).partition(",")
    return (int(y), int(x)) if x.strip().isdigit() and y.strip().isdigit() else None


def _shows_only(event: Any) -> bool:
    """Whether an event (a list of actions, or one) only shows text, pictures or sounds: no loss to leave."""
    if event is None or isinstance(event, str):
        return True
    if isinstance(event, list):
        return all(_shows_only(action) for action in event)
    if isinstance(event, dict):
        if "data" in event and isinstance(event.get("data"), list):  # {"trigger": ..., "data": [...]}
            return _shows_only(event["data"])
        return event.get("type") in SHOW_ONLY
    return False


def _wins(event: Any) -> bool:
    """Whether an event list holds a `win` action anywhere (the tower is won after it)."""
    if isinstance(event, dict):
        return event.get("type") == "win" or any(_wins(value) for value in event.values())
    if isinstance(event, list):
        return any(_wins(value) for value in event)
    return False


def _tile_at(rows: list[list[Tile]], cell: tuple[int, int]) -> Tile | None:
    if 0 <= cell[0] < len(rows) and 0 <= cell[1] < len(rows[cell[0]]):
        return rows[cell[0]][cell[1]]
    return None


def _enemy_at(rows: list[list[Tile]], cell: tuple[int, int]) -> Enemy | None:
    if 0 <= cell[0] < len(rows) and 0 <= cell[1] < len(rows[cell[0]]):
        tile = rows[cell[0]][cell[1]]
        if isinstance(tile, Thing):
            return tile.enemy
    return None


def _tile(
    project: Project, floor: str, number: int, place: tuple[int, int], ratio: Fraction, report: LossReport
) -> Tile:
    """What tile `number` of maps.js is, as twisty models it."""
    if number == 0:
        return "floor"
    entry = project.maps.get(str(number))
    if not isinstance(entry, dict):
        report.add(floor, f"tile {number} not in maps.js", "a wall", place)
        return "wall"
    cls, ident = entry.get("cls"), entry.get("id")
    if cls in ("enemys", "enemy48"):
        return _monster(project, floor, str(ident), place, report)
    if cls == "items":
        return _item(project, floor, str(ident), place, ratio, report)
    if cls in ("npcs", "npc48"):
        return "npc"  # a wall; lost only if its event does more than talk (_floor_tiles)
    if cls == "terrains" and ident in STAIR_IDS:
        return str(ident)  # a stair: its changeFloor says where it leads (_floor_tiles)
    if entry.get("trigger") == "openDoor":
        keys = entry.get("doorInfo", {}).get("keys", {}) if isinstance(entry.get("doorInfo"), dict) else {}
        if isinstance(keys, dict) and len(keys) == 1 and next(iter(keys)) in KEY_IDS and list(keys.values()) == [1]:
            return Thing("door", "", (0, 0), name="door", colour=KEY_IDS[next(iter(keys))])
        report.add(floor, f"special door {ident}", "a wall", place)
        return "wall"
    if entry.get("noPass") is False:
        if entry.get("trigger"):
            report.add(floor, f"{ident} (trigger {entry.get('trigger')})", "a floor cell", place)
        return "floor"
    if entry.get("trigger") and entry.get("trigger") != "specialwall":
        report.add(floor, f"{ident} (trigger {entry.get('trigger')})", "a wall", place)
    return "wall"


def _monster(project: Project, floor: str, ident: str, place: tuple[int, int], report: LossReport) -> Tile:
    data = project.enemies.get(ident)
    if not isinstance(data, dict):
        report.add(floor, f"monster {ident} not in enemys.js", "a wall", place)
        return "wall"
    raw = data.get("special", 0)
    listed = raw if isinstance(raw, list) else [raw]
    listed = [special for special in listed if isinstance(special, int) and not isinstance(special, bool) and special]
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
    drain = data.get("value", data.get("vampire", 0))
    fields: dict[str, Any] = {
        "first_strike": FIRST_STRIKE in kept,
        "specials": kept - {FIRST_STRIKE},
        "money": _number(data, "money"),
        "hits_per_round": max(1, _number(data, "n")) if MULTIPLE in kept and "n" in data else 4,
        "drain": _fraction(drain) if DRAIN in kept else Fraction(0),
        "fixed_damage": _number(data, "damage") if FIXED in kept else 0,
        "break_armour": _fraction(values.get("breakArmor", BREAK_ARMOUR_DEFAULT)),
        "counter": _fraction(values.get("counterAttack", COUNTER_DEFAULT)),
        "purify": _fraction(values.get("purify", PURIFY_DEFAULT)),
    }
    if DRAIN in kept and not 0 <= fields["drain"] <= 1:
        report.add(floor, f"monster {ident}'s drain {drain}", "no drain", place)
        fields["drain"] = Fraction(0)
    name = str(data.get("name", ident)) or ident
    enemy = Enemy(name, _number(data, "hp", 1), _number(data, "atk"), _number(data, "def"), **fields)
    return Thing("enemy", "", (0, 0), enemy=enemy)


def _fraction(value: Any) -> Fraction:
    if isinstance(value, Fraction):
        return value
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return Fraction(0)
    return Fraction(str(value))


def _item(
    project: Project, floor: str, ident: str, place: tuple[int, int], ratio: Fraction, report: LossReport
) -> Tile:
    """An item by items.js: a key, a potion (hp), a gem or equipment (atk, def, mdef); anything else is lost."""
    if ident in KEY_IDS:
        return Thing("key", "", (0, 0), name="key", colour=KEY_IDS[ident])
    data = project.items.get(ident)
    if not isinstance(data, dict):
        report.add(floor, f"item {ident} not in items.js", "a floor cell", place)
        return "floor"
    name = str(data.get("name", ident)) or ident
    if data.get("cls") == "equips" and isinstance(data.get("equip"), dict):
        gains = {stat: _fraction(value) for stat, value in (data["equip"].get("value") or {}).items()}
        report.add(floor, f"equipment {ident} (worn at once)", "its gains taken at once", place)
    elif data.get("cls") == "items" and isinstance(data.get("itemEffect"), str):
        try:
            effect = read_effect(data["itemEffect"], project.values, ratio)
        except EffectError as error:
            report.add(floor, f"item {ident} (its effect: {error})", "a floor cell", place)
            return "floor"
        if effect.items:
            report.add(floor, f"item {ident} (gives items)", "a floor cell", place)
            return "floor"
        gains = effect.gains
    else:
        report.add(floor, f"tool {ident}", "a floor cell", place)
        return "floor"
    if any(value.denominator != 1 or value < 0 for value in gains.values()) or set(gains) - {
        "hp",
        "atk",
        "def",
        "mdef",
    }:
        report.add(
            floor, f"item {ident} (gains {', '.join(f'{k} {v}' for k, v in gains.items())})", "a floor cell", place
        )
        return "floor"
    whole = {stat: int(value) for stat, value in gains.items() if value}
    if not whole:
        return "floor"
    if set(whole) == {"hp"}:
        return Thing("elixir", "", (0, 0), hp=whole["hp"], name=name)
    if "hp" in whole:
        report.add(floor, f"item {ident} (hp and stats at once)", "a floor cell", place)
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


def _place_start(project: Project, floors: list[str], plans: list[FloorPlan], report: LossReport) -> bool:
    """Put the hero's start: where the tower starts, if that is in the range; else where a hero coming up
    from the floor below arrives on the first floor (its `downFloor` place, else its down stair)."""
    if project.start_floor in floors:
        loc = project.hero.get("loc", {})
        plan = plans[floors.index(project.start_floor)]
        cell = (_number(loc, "y"), _number(loc, "x")) if isinstance(loc, dict) else None
    else:
        plan = plans[0]
        floor = floor_of(project, floors[0])
        arrival = floor.get("downFloor")
        cell = None
        if isinstance(arrival, list) and len(arrival) == 2 and all(isinstance(n, int) for n in arrival):
            cell = (arrival[1], arrival[0])
        else:
            ident = next(
                (
                    number
                    for number, entry in project.maps.items()
                    if isinstance(entry, dict) and entry.get("id") == "downFloor"
                ),
                None,
            )
            for y, numbers in enumerate(floor["map"]):
                for x, number in enumerate(numbers):
                    if cell is None and ident is not None and str(number) == ident:
                        cell = (y, x)
    if cell is None or not (0 <= cell[0] < len(plan.rows) and 0 <= cell[1] < len(plan.rows[cell[0]])):
        return False
    tile = plan.rows[cell[0]][cell[1]]
    if tile == "wall" or isinstance(tile, Thing):
        report.add(plan.name, "the hero starts on a tile that is not a floor", "a floor cell", cell)
    plan.rows[cell[0]][cell[1]] = "start"
    return True
