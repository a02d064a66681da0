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

Everything read from the files is untrusted: a floor id becomes a file name only when it is a plain name
(`plain_floor_id`), every file is read inside the project folder within the input limits, and every number
twisty takes must be one it holds as written (`twisty.importers.h5mota_values`), else one message at its
place in the source file and exit code 2.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from twisty.errors import LevelError
from twisty.importers.h5mota_values import Source, described, display_name, plain_floor_id, shown, whole_number
from twisty.importers.js_literals import (
    EffectBeyondLimits,
    EffectError,
    ProjectFile,
    ValueOf,
    read_effect,
    read_object_file,
)
from twisty.importers.losses import LossReport
from twisty.importers.tower import FloorPlan, ImportedLevel, Tile, tower_level
from twisty.limits import MAX_NUMBER, Deadline
from twisty.rules.passages import COLOURS, Thing, TowerStats
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
from twisty.rules.passages_format import MAX_MAP_SIDE

# Floors a project may list: the largest published towers have a few hundred.
MAX_PROJECT_FLOORS = 2000

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
    """What an h5mota project says, read once for every level made from it. Each part is a `Source`: its
    values are checked as they are read, and a refusal names its place in the file."""

    folder: Path
    floor_ids: list[str]
    data: Source
    enemies: Source
    items: Source
    maps: Source
    deadline: Deadline | None = None
    floors: dict[str, Source] = field(default_factory=dict)

    @property
    def values(self) -> Source:
        return self.data.table("values", "data.js's values")

    @property
    def first(self) -> Source:
        return self.data.table("firstData", "data.js's firstData")

    @property
    def hero(self) -> Source:
        return self.first.table("hero", "firstData.hero")

    @property
    def start_floor(self) -> str:
        start = self.first.get("floorId", self.floor_ids[0])
        if not isinstance(start, str):
            raise self.first.error(
                f"firstData.floorId must be a floor id (a string), not {described(start)}", "floorId"
            )
        return start

    def poll(self) -> None:
        if self.deadline is not None:
            self.deadline.check()


def read_project(folder: Path, deadline: Deadline | None = None) -> Project:
    """The project's files: `folder` is the project folder (with data.js) or the tower's (with project/).
    Every file is read inside `folder` (no symbolic link leads out of it) within the input limits; the
    floor ids of main.floorIds must be plain names, each once."""
    if not folder.is_dir():
        raise LevelError("not a folder (an h5mota project is a folder with data.js, enemys.js, ...)", path=str(folder))
    inside = folder
    if not (folder / "data.js").exists() and (folder / "project" / "data.js").exists():
        folder = folder / "project"

    def read(name: str) -> ProjectFile:
        return read_object_file(folder / name, inside=inside, deadline=deadline)

    data = Source.of(read("data.js"))
    main = data.table("main", "data.js's main")
    floor_ids = main.get("floorIds")
    if not isinstance(floor_ids, list) or not floor_ids:
        raise main.error('data.js has no list of floors (main.floorIds = ["MT1", ...])', "floorIds")
    if len(floor_ids) > MAX_PROJECT_FLOORS:
        raise main.error(f"main.floorIds lists {len(floor_ids)} floors (at most {MAX_PROJECT_FLOORS})", "floorIds")
    seen: set[str] = set()
    for index, floor_id in enumerate(floor_ids):
        plain_floor_id(data.file, ("main", "floorIds", index), floor_id)
        if floor_id in seen:
            where = ("main", "floorIds", index)
            raise data.file.error(f'the floor id "{floor_id}" is listed twice in main.floorIds', where)
        seen.add(floor_id)
    enemies, items, maps = (Source.of(read(name)) for name in ("enemys.js", "items.js", "maps.js"))
    if isinstance(items.get("items"), dict):  # (items.js of 2.0-2.5: {"items": {...}, ...})
        items = items.table("items", "items.js's items")
    return Project(folder, list(floor_ids), data, enemies, items, maps, deadline)


def floor_of(project: Project, floor_id: str) -> Source:
    """Floor `floor_id`'s object (floors/<floorId>.js), read once; checked to have a map within limits."""
    if floor_id not in project.floors:
        project.poll()
        # (floor_id is one of main.floorIds, each checked to be a plain name by read_project)
        path = project.folder / "floors" / f"{plain_floor_id(project.data.file, ('main', 'floorIds'), floor_id)}.js"
        floor = Source.of(read_object_file(path, inside=project.folder, deadline=project.deadline))
        grid = floor.get("map")
        if not isinstance(grid, list) or not grid or len(grid) > MAX_MAP_SIDE:
            raise floor.error(f"no map of whole numbers of at most {MAX_MAP_SIDE} x {MAX_MAP_SIDE}", "map")
        for y, row in enumerate(grid):
            if not isinstance(row, list) or len(row) > MAX_MAP_SIDE:
                raise floor.file.error(
                    f"row {y} of the map is not a list of at most {MAX_MAP_SIDE} tile numbers", ("map", y)
                )
            for x, number in enumerate(row):
                if isinstance(number, bool) or not isinstance(number, int):
                    whole_number(floor.file, ("map", y, x), number, f"the tile at x {x}, y {y}")
                    row[x] = int(number)
                elif abs(number) > MAX_NUMBER:
                    whole_number(floor.file, ("map", y, x), number, f"the tile at x {x}, y {y}")
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
    when none was (a range with no way to win, or one past the level format's limits)."""
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
    player = _player(project, report)
    if floors[0] != project.start_floor and project.start_floor in ids:
        report.add(
            "",
            f"the floors start above the tower's start ({project.start_floor})",
            "with the tower's starting stats",
            note=True,
        )
    title = display_name(project.first.get("title"), "")
    name = f"{title} {floors[0]}" + (f"..{floors[-1]}" if len(floors) > 1 else "")
    header = [
        f"Imported from the h5mota project {project.folder} (floors {floors[0]}..{floors[-1]}) by",
        "`twisty import h5mota`.",
        "Won by taking a stair up out of the last floor (or by defeating the boss whose battle wins).",
        "Losses: " + ("none" if report.exact else "yes (see the loss report): exact for this model only"),
    ]
    project.poll()
    try:
        level = tower_level(
            name.strip(),
            plans,
            player,
            header=header,
            shown=f"{project.folder} {floors[0]}..{floors[-1]}",
            deadline=project.deadline,
        )
    except LevelError as error:
        return None, report, error.message
    return level, report, ""


def _player(project: Project, report: LossReport) -> TowerStats:
    """The hero's starting stats (firstData.hero) and the keys among its tools."""
    hero = project.hero
    tools = hero.table("items", "firstData.hero.items").table("tools", "firstData.hero.items.tools")
    for tool, count in tools.value.items():
        if tool not in KEY_IDS and count:
            report.add("", f"the hero starts with tool {shown(tool)}", "not modelled")
    return TowerStats(
        hero.whole("hp", "the hero's hp", minimum=1, default=1),
        hero.whole("atk", "the hero's atk"),
        hero.whole("def", "the hero's def"),
        0,
        hero.whole("mdef", "the hero's mdef"),
        hero.whole("money", "the hero's money"),
        tuple(tools.whole(f"{colour}Key", f"the hero's {colour} keys") for colour in COLOURS),
    )


def _floor_tiles(
    project: Project, name: str, floor: Source, chosen: list[str], report: LossReport
) -> tuple[list[list[Tile]], int]:
    """One floor's tiles, and how many goals (stairs up out of the range) it has."""
    ratio = floor.decimal("ratio", f"floor {name}'s ratio", default=Fraction(1))
    rows: list[list[Tile]] = []
    for y, numbers in enumerate(floor.value["map"]):
        rows.append([_tile(project, name, number, (y, x), ratio, report) for x, number in enumerate(numbers)])
    project.poll()
    for key, what in EVENT_LISTS.items():
        table = floor.get(key)
        if not isinstance(table, dict):
            continue
        for place, event in table.items():
            if _shows_only(event):
                continue
            cell = _place(place)
            enemy = _enemy_at(rows, cell) if cell is not None else None
            if key == "afterBattle" and cell is not None and enemy is not None and _wins(event):
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
        to = target.get("floorId")
        to_index = {":next": index + 1, ":before": index - 1, ":now": index}.get(
            to if isinstance(to, str) else "", project.floor_ids.index(to) if to in project.floor_ids else -1
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
            report.add(name, f"teleport to {shown(to)}", "a floor cell", cell)
            rows[y][x] = "floor"
    for y, row in enumerate(rows):
        for x, tile in enumerate(row):
            if tile in STAIR_IDS:
                report.add(name, "stair without a changeFloor", "a floor cell", (y, x))
                row[x] = "floor"
    return rows, goals


def _place(text: str) -> tuple[int, int] | None:
    """An event's key "x,y" as (row, col); None unless both are plain numbers of at most 4 digits."""
    found = re.fullmatch(r"\s*([0-9]{1,4})\s*,\s*([0-9]{1,4})\s*", str(text))
    return (int(found.group(2)), int(found.group(1))) if found else None


def _shows_only(event: Any) -> bool:
    """Whether an event (a list of actions, or one) only shows text, pictures or sounds: no loss to leave."""
    if event is None or isinstance(event, str):
        return True
    if isinstance(event, list):
        return all(_shows_only(action) for action in event)
    if isinstance(event, dict):
        if "data" in event and isinstance(event.get("data"), list):  # {"trigger": ..., "data": [...]}
            return _shows_only(event["data"])
        kind = event.get("type")
        return isinstance(kind, str) and kind in SHOW_ONLY
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
        return _monster(project, floor, ident, place, report)
    if cls == "items":
        return _item(project, floor, ident, place, ratio, report)
    if cls in ("npcs", "npc48"):
        return "npc"  # a wall; lost only if its event does more than talk (_floor_tiles)
    if cls == "terrains" and ident in STAIR_IDS:
        return str(ident)  # a stair: its changeFloor says where it leads (_floor_tiles)
    trigger = entry.get("trigger")
    if trigger == "openDoor":
        keys = entry.get("doorInfo", {}).get("keys", {}) if isinstance(entry.get("doorInfo"), dict) else {}
        if isinstance(keys, dict) and len(keys) == 1 and next(iter(keys)) in KEY_IDS and list(keys.values()) == [1]:
            return Thing("door", "", (0, 0), name="door", colour=KEY_IDS[next(iter(keys))])
        report.add(floor, f"special door {shown(ident)}", "a wall", place)
        return "wall"
    if entry.get("noPass") is False:
        if trigger:
            report.add(floor, f"{shown(ident)} (trigger {shown(trigger)})", "a floor cell", place)
        return "floor"
    if trigger and trigger != "specialwall":
        report.add(floor, f"{shown(ident)} (trigger {shown(trigger)})", "a wall", place)
    return "wall"


def _monster(project: Project, floor: str, ident: Any, place: tuple[int, int], report: LossReport) -> Tile:
    """A monster by enemys.js, its stats checked where they are written."""
    if not isinstance(ident, str) or not isinstance(project.enemies.get(ident), dict):
        report.add(floor, f"monster {shown(ident)} not in enemys.js", "a wall", place)
        return "wall"
    data = project.enemies.table(ident, f"monster {ident}")
    who = f'monster "{shown(ident)}"'
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
    enemy = Enemy(
        display_name(data.get("name"), shown(ident)),
        data.whole("hp", f"{who}'s hp", minimum=1),
        data.whole("atk", f"{who}'s atk"),
        data.whole("def", f"{who}'s def"),
        **fields,
    )
    return Thing("enemy", "", (0, 0), enemy=enemy)


def _item(
    project: Project, floor: str, ident: Any, place: tuple[int, int], ratio: Fraction, report: LossReport
) -> Tile:
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
            effect = read_effect(data.value["itemEffect"], _value_reader(project), ratio)
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


def _value_reader(project: Project) -> ValueOf:
    """data.js's values by name for item effects: None when missing or not a number (the effect is then
    a loss); a value there that twisty cannot hold (NaN, Infinity, beyond 10^9) is refused at its place."""
    values = project.values

    def value_of(name: str) -> Fraction | None:
        value = values.get(name)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return None
        return values.decimal(name, f"values.{name}", default=Fraction(0))

    return value_of


def _place_start(project: Project, floors: list[str], plans: list[FloorPlan], report: LossReport) -> bool:
    """Put the hero's start: where the tower starts, if that is in the range; else where a hero coming up
    from the floor below arrives on the first floor (its `downFloor` place, else its down stair)."""
    cell: tuple[int, int] | None = None
    if project.start_floor in floors:
        loc = project.hero.table("loc", "firstData.hero.loc")
        plan = plans[floors.index(project.start_floor)]
        cell = (loc.whole("y", "the hero's y"), loc.whole("x", "the hero's x"))
    else:
        plan = plans[0]
        floor = floor_of(project, floors[0])
        arrival = floor.get("downFloor")
        if isinstance(arrival, list) and len(arrival) == 2:
            x, y = (whole_number(floor.file, ("downFloor", i), arrival[i], "downFloor") for i in (0, 1))
            cell = (y, x)
        else:
            ident = next(
                (
                    number
                    for number, entry in project.maps.value.items()
                    if isinstance(entry, dict) and entry.get("id") == "downFloor"
                ),
                None,
            )
            for y, numbers in enumerate(floor.value["map"]):
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
