"""Large towers of our own, as h5mota projects, for the deadline tests (issue 28). `big_tower`: one floor of up to
200 x 200 tiles cut into rooms by walls, each wall between two rooms opened by a gap, a door of a colour or
a monster (some with specials), the rooms holding keys, gems and potions, the stair up in the far corner
(or, with `boss`, a dragon whose defeat wins the tower, in the far corner or, with `boss_near`, two steps
from the start). Seeded: the same seed gives the same tower. `open_field`: floors of open ground with slimes
and gems on a grid (a route through one fights some 170 slimes)."""

from __future__ import annotations

import json
import random
import shutil
from pathlib import Path

MINI = Path(__file__).resolve().parent / "h5mota-mini" / "project"
ROOM = 20  # tiles of a room's side, its wall included
# maps.js numbers of this project (those of mota-js's default project).
WALL, YELLOW_KEY, BLUE_KEY, RED_GEM, BLUE_GEM, RED_POTION, BLUE_POTION = 1, 21, 22, 27, 28, 31, 32
YELLOW_DOOR, BLUE_DOOR, UP = 81, 82, 87
MONSTERS = {201: ("slime", 35, 18, 1, 0), 202: ("bat", 60, 26, 3, 4), 203: ("priest", 90, 30, 8, 2)}
MONSTERS |= {204: ("knight", 150, 45, 15, 6), 205: ("guard", 120, 40, 10, 0)}
DRAGON = 299


def big_tower(
    folder: Path, seed: int, side: int = 200, boss: bool = False, room: int = ROOM, boss_near: bool = False
) -> Path:
    """Write the project into `folder` (made) and return it. Rooms of `room` tiles a side (20: about 170
    doors and monsters on a 200 x 200 floor, beyond the compiled core's 128; 25: about 100, within it)."""
    rng = random.Random(seed)
    rooms = side // room
    grid = [[0] * side for _ in range(side)]
    for y in range(side):
        for x in range(side):
            if (y % room == room - 1 and y < rooms * room - 1) or (x % room == room - 1 and x < rooms * room - 1):
                grid[y][x] = WALL
    openings = [YELLOW_DOOR] * 3 + [BLUE_DOOR] + [0] + list(MONSTERS) * 2
    for ry in range(rooms):
        for rx in range(rooms):
            middle = (ry * room + room // 2, rx * room + room // 2)
            if rx + 1 < rooms:
                grid[middle[0]][rx * room + room - 1] = rng.choice(openings)
            if ry + 1 < rooms:
                grid[ry * room + room - 1][middle[1]] = rng.choice(openings)
            for _ in range(rng.randint(1, 3)):
                y, x = ry * room + rng.randrange(room - 2), rx * room + rng.randrange(room - 2)
                grid[y][x] = rng.choice([YELLOW_KEY] * 4 + [BLUE_KEY, RED_GEM, BLUE_GEM, RED_POTION, BLUE_POTION])
    grid[0][0] = 0
    stair = not (boss or boss_near)
    grid[side - 1][side - 1] = UP if stair else 0 if boss_near else DRAGON
    place = (0, 2) if boss_near else (side - 1, side - 1)
    if boss_near:
        grid[0][1] = 0
        grid[0][2] = DRAGON
    folder.mkdir(parents=True)
    (folder / "floors").mkdir()
    data = {
        "main": {"floorIds": ["BIG"]},
        "firstData": {
            "title": "Big",
            "floorId": "BIG",
            "hero": {"hp": 1000, "atk": 20, "def": 10, "mdef": 0, "money": 0, "loc": {"x": 0, "y": 0}},
        },
        "values": {"redGem": 3, "blueGem": 3, "redPotion": 100, "bluePotion": 250},
    }
    (folder / "data.js").write_text("var data_big =\n" + json.dumps(data, indent=1) + "\n")
    enemies = {
        name: {"name": name, "hp": hp, "atk": atk, "def": defense, "money": 1, "special": special}
        for name, hp, atk, defense, special in MONSTERS.values()
    }
    enemies["dragon"] = {"name": "dragon", "hp": 800, "atk": 60, "def": 20, "money": 0, "special": 0}
    (folder / "enemys.js").write_text("var enemys_big =\n" + json.dumps(enemies, indent=1) + "\n")
    effect = "core.status.hero.{} += core.values.{} * core.status.thisMap.ratio"
    items = {
        "yellowKey": {"cls": "tools", "name": "Yellow key"},
        "blueKey": {"cls": "tools", "name": "Blue key"},
        "redGem": {"cls": "items", "name": "Red gem", "itemEffect": effect.format("atk", "redGem")},
        "blueGem": {"cls": "items", "name": "Blue gem", "itemEffect": effect.format("def", "blueGem")},
        "redPotion": {"cls": "items", "name": "Red potion", "itemEffect": effect.format("hp", "redPotion")},
        "bluePotion": {"cls": "items", "name": "Blue potion", "itemEffect": effect.format("hp", "bluePotion")},
    }
    (folder / "items.js").write_text("var items_big =\n" + json.dumps(items, indent=1) + "\n")
    maps = {
        str(WALL): {"cls": "terrains", "id": "yellowWall"},
        str(YELLOW_KEY): {"cls": "items", "id": "yellowKey"},
        str(BLUE_KEY): {"cls": "items", "id": "blueKey"},
        str(RED_GEM): {"cls": "items", "id": "redGem"},
        str(BLUE_GEM): {"cls": "items", "id": "blueGem"},
        str(RED_POTION): {"cls": "items", "id": "redPotion"},
        str(BLUE_POTION): {"cls": "items", "id": "bluePotion"},
        str(YELLOW_DOOR): {"cls": "animates", "id": "yellowDoor", "trigger": "openDoor"}
        | {"doorInfo": {"keys": {"yellowKey": 1}}},
        str(BLUE_DOOR): {
            "cls": "animates",
            "id": "blueDoor",
            "trigger": "openDoor",
            "doorInfo": {"keys": {"blueKey": 1}},
        },
        str(UP): {"cls": "terrains", "id": "upFloor"},
    } | {str(number): {"cls": "enemys", "id": name} for number, (name, *_) in MONSTERS.items()}
    maps[str(DRAGON)] = {"cls": "enemys", "id": "dragon"}
    (folder / "maps.js").write_text("var maps_big =\n" + json.dumps(maps, indent=1) + "\n")
    floor = {
        "floorId": "BIG",
        "title": "Big floor",
        "width": side,
        "height": side,
        "ratio": 1,
        "map": grid,
    }
    if stair:
        floor["changeFloor"] = {f"{side - 1},{side - 1}": {"floorId": ":next"}}
    else:
        floor["afterBattle"] = {f"{place[1]},{place[0]}": [{"type": "win", "reason": "the dragon is defeated"}]}
    (folder / "floors" / "BIG.js").write_text("main.floors.BIG=\n" + json.dumps(floor) + "\n")
    return folder


def open_field(folder: Path, floors: int, side: int) -> Path:
    """An h5mota project of `floors` floors of side x side tiles: slimes and gems on a grid over open
    ground, each floor's stair up at its corner. Reading and importing it is real work for every tile, and
    a route over one floor fights about 170 slimes across 40,000 open cells."""
    shutil.copytree(MINI, folder)
    ids = [f"B{number}" for number in range(floors)]
    data = (
        (folder / "data.js").read_text().replace('"floorIds": ["F1", "F2"]', f'"floorIds": {ids!r}'.replace("'", '"'))
    )
    (folder / "data.js").write_text(data.replace('"floorId": "F1"', '"floorId": "B0"'))
    for number, name in enumerate(ids):
        rows = []
        for y in range(side):
            row = [201 if x % 15 == y % 15 == 7 else 27 if x % 15 == y % 15 == 3 else 0 for x in range(side)]
            if y == 0:
                row[-1] = 87
            rows.append("[" + ",".join(map(str, row)) + "]")
        text = (
            f'main.floors.{name} = {{"floorId": "{name}", "map": [\n' + ",\n".join(rows) + "\n],\n"
            f'"changeFloor": {{"{side - 1},0": {{"floorId": ":next"}}}}, "downFloor": [0, 1]}}\n'
        )
        (folder / "floors" / f"{name}.js").write_text(text)
        if number == 0:
            (folder / "data.js").write_text(
                (folder / "data.js").read_text().replace('"loc": {"x": 1, "y": 1}', '"loc": {"x": 0, "y": 1}')
            )
    return folder
