"""Each exported h5mota project against the structure mota-js reads: the files, keys and value types of
mota-js's own sample project (ckcz123/mota-js 2.10.3, `project/`), written down below from that sample, and
the references between the files: every tile number of a floor in maps.js, every monster and item of
maps.js in enemys.js and items.js with a picture in icons.js, every door's key an item, every stair's
target a stair cell of a floor of main.floorIds, every shop a floor's event opens in data.js. The bytes of
an export are the same on every run (and under any hash seed)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.exporters.roundtrip import SHIPPED, load, random_level, source_of, write_project
from twisty.exporters.h5mota import Project, export_h5mota
from twisty.importers.js_literals import read_object_file
from twisty.rules.source import read_level

STR, INT, BOOL, LIST, DICT, NONE = str, int, bool, list, dict, type(None)
NUMBER = (int, float)

# ----------------------------------------------------------------------------- the sample's structure
# The global each data file of the sample assigns (`var <name> = {...}`), which mota-js's libs read.
SAMPLE_GLOBALS = {
    "data.js": "data_a1e2fb4a_e986_4524_b0da_9b7ba7c0874d",
    "enemys.js": "enemys_fcae963b_31c9_42b4_b48c_bb48d09f3f80",
    "items.js": "items_296f5d02_12fd_4166_a7c1_b5e830c9ee3a",
    "maps.js": "maps_90f36752_8815_4be8_b32b_d7fad1d0542e",
    "icons.js": "icons_4665ee12_3a1f_44a4_bea3_0fccba634dc1",
}
# The sample's project/ files besides these and the floors: events.js (its common events), functions.js and
# plugins.js (the engine's scripts: damage, battles, shops) stay the copies of the mota-js an export is laid
# over, and are not written.
SAMPLE_DATA = {
    "main": {
        "floorIds": LIST,
        "floorPartitions": LIST,
        "images": LIST,
        "tilesets": LIST,
        "animates": LIST,
        "bgms": LIST,
        "sounds": LIST,
        "fonts": LIST,
        "nameMap": DICT,
        "levelChoose": LIST,
        "equipName": LIST,
        "startBgm": NONE,
        "styles": DICT,
        "splitImages": LIST,
    },
    "firstData": {
        "title": STR,
        "name": STR,
        "version": STR,
        "floorId": STR,
        "hero": DICT,
        "startCanvas": LIST,
        "startText": LIST,
        "shops": LIST,
        "levelUp": LIST,
    },
    "values": {
        "lavaDamage": INT,
        "poisonDamage": INT,
        "weakValue": INT,
        "redGem": INT,
        "blueGem": INT,
        "greenGem": INT,
        "redPotion": INT,
        "bluePotion": INT,
        "yellowPotion": INT,
        "greenPotion": INT,
        "breakArmor": NUMBER,
        "counterAttack": NUMBER,
        "purify": NUMBER,
        "hatred": INT,
        "animateSpeed": INT,
        "moveSpeed": INT,
        "statusCanvasRowsOnMobile": INT,
        "floorChangeTime": INT,
    },
    "flags": {
        "statusBarItems": LIST,
        **dict.fromkeys(
            (
                "autoScale extendToolbar flyNearStair flyRecordPosition itemFirstText equipboxButton enableAddPoint "
                "enableNegativeDamage betweenAttackMax useLoop startUsingCanvas statusCanvas enableEnemyPoint "
                "enableGentleClick ignoreChangeFloor canGoDeadZone enableMoveDirectly enableRouteFolding "
                "disableShopOnDamage blurFg hideLeftStatusBar"
            ).split(),
            BOOL,
        ),
    },
}
SAMPLE_STYLES = {
    "startBackground": STR,
    "startVerticalBackground": STR,
    "startLogoStyle": STR,
    "startButtonsStyle": STR,
    "statusLeftBackground": STR,
    "statusTopBackground": STR,
    "toolsBackground": STR,
    "borderColor": LIST,
    "statusBarColor": LIST,
    "selectColor": LIST,
    "floorChangingStyle": STR,
    "font": STR,
}
SAMPLE_HERO = {
    "image": STR,
    "animate": BOOL,
    "name": STR,
    "lv": INT,
    "hpmax": INT,
    "hp": INT,
    "manamax": INT,
    "mana": INT,
    "atk": INT,
    "def": INT,
    "mdef": INT,
    "money": INT,
    "exp": INT,
    "equipment": LIST,
    "items": {"constants": DICT, "tools": DICT, "equips": DICT},
    "loc": {"direction": STR, "x": INT, "y": INT},
    "flags": DICT,
    "followers": LIST,
    "steps": INT,
}
# firstData.shops[0] of the sample (its money shop), a choice of it, and the actions of a choice.
SAMPLE_SHOP = {"id": STR, "text": STR, "textInList": STR, "mustEnable": BOOL, "disablePreview": BOOL, "choices": LIST}
SAMPLE_CHOICE = {"text": STR, "need": STR, "action": LIST}
SAMPLE_SET_VALUE = {"type": STR, "name": STR, "operator": STR, "value": STR}
SAMPLE_LEVEL_UP = {"need": STR, "title": STR, "action": LIST}
# A floor as the sample's MT0.js (the floor mota-js's editor makes) holds it.
SAMPLE_FLOOR = {
    "floorId": STR,
    "title": STR,
    "name": STR,
    "canFlyTo": BOOL,
    "canFlyFrom": BOOL,
    "canUseQuickShop": BOOL,
    "cannotViewMap": BOOL,
    "defaultGround": STR,
    "images": LIST,
    "ratio": NUMBER,
    "map": LIST,
    "firstArrive": LIST,
    "parallelDo": STR,
    "events": DICT,
    "changeFloor": DICT,
    "afterBattle": DICT,
    "afterGetItem": DICT,
    "afterOpenDoor": DICT,
    "cannotMove": DICT,
    "bgmap": LIST,
    "fgmap": LIST,
    "width": INT,
    "height": INT,
    "autoEvent": DICT,
}
# A monster of the sample's enemys.js: these fields always; `n` (hits a round of special 6) as its monster
# "vampire" has it; `vampire` and `damage` are what functions.js's getDamageInfo reads for specials 11, 22.
SAMPLE_ENEMY = {"name": STR, "hp": INT, "atk": INT, "def": INT, "money": INT, "exp": INT, "point": INT}
SAMPLE_ENEMY_SPECIAL = (INT, LIST)
SAMPLE_ENEMY_OPTIONAL = {"n": INT, "vampire": NUMBER, "damage": INT}
# items.js: a key (yellowKey, class tools) and a gem or potion (redGem, class items).
SAMPLE_KEY_ITEM = {"cls": STR, "name": STR, "text": STR, "hideInToolbox": BOOL}
SAMPLE_ITEM = {
    "cls": STR,
    "name": STR,
    "text": STR,
    "itemEffect": STR,
    "itemEffectTip": STR,
    "useItemEffect": STR,
    "canUseItemEffect": STR,
}
# maps.js entries, by what they are: the sample's 1 (yellowWall), 21 (yellowKey), 81 (yellowDoor), 87
# (upFloor), 201 (greenSlime), 27 (redGem). An export's entry holds a part of these keys, of these types.
SAMPLE_TILES = {
    "wall": {"cls": STR, "id": STR, "canBreak": BOOL, "animate": INT, "doorInfo": DICT},
    "key": {"cls": STR, "id": STR},
    "door": {"cls": STR, "id": STR, "trigger": STR, "animate": INT, "doorInfo": DICT, "name": STR},
    "stair": {"cls": STR, "id": STR, "canPass": BOOL},
    "enemy": {"cls": STR, "id": STR},
    "item": {"cls": STR, "id": STR},
}
SAMPLE_DOOR_INFO = {"time": INT, "openSound": STR, "closeSound": STR, "keys": DICT}
SAMPLE_ICON_CLASSES = ("hero", "terrains", "animates", "npcs", "npc48", "enemys", "enemy48", "items", "autotile")
SAMPLE_HERO_ICON = {"down": DICT, "left": DICT, "right": DICT, "up": DICT, "width": INT, "height": INT}
SAMPLE_HERO_FRAME = {"loc": INT, "stop": INT, "leftFoot": INT, "rightFoot": INT}


# ---------------------------------------------------------------------------------------------- checks


def same_keys(value: Any, shape: dict[str, Any], where: str) -> None:
    """`value` has exactly the keys of `shape`, each of its type (a nested shape is a dict of that shape)."""
    assert isinstance(value, dict), f"{where}: not an object"
    assert list(value) == list(shape), f"{where}: keys {list(value)}, the sample's {list(shape)}"
    for key, kind in shape.items():
        if isinstance(kind, dict):
            same_keys(value[key], kind, f"{where}.{key}")
        else:
            assert isinstance(value[key], kind), f"{where}.{key}: {type(value[key]).__name__}"
            assert not (kind is INT and isinstance(value[key], bool)), f"{where}.{key}: a bool, not a number"


def keys_within(value: Any, shape: dict[str, Any], where: str, required: tuple[str, ...] = ("cls", "id")) -> None:
    """`value` holds `required` and otherwise only keys of `shape`, each of its type."""
    assert isinstance(value, dict), f"{where}: not an object"
    assert set(required) <= set(value), f"{where}: lacks {set(required) - set(value)}"
    for key, item in value.items():
        assert key in shape, f"{where}: key {key!r} is not one of the sample's {list(shape)}"
        assert isinstance(item, shape[key]), f"{where}.{key}: {type(item).__name__}"


def read_files(project: Project, folder: Path) -> dict[str, dict[str, Any]]:
    """Each file read back by twisty's own reader of project files, its assignment checked."""
    write_project(project, folder)
    values = {}
    for name, text in project.files.items():
        if name.startswith("floors/"):
            floor_id = name[len("floors/") : -len(".js")]
            assert text.startswith(f"main.floors.{floor_id}=\n{{"), name
        else:
            assert text.startswith(f"var {SAMPLE_GLOBALS[name]} = \n{{"), name
        values[name] = read_object_file(folder / name, inside=folder).value
    return values


def check_project(project: Project, folder: Path) -> None:
    files = read_files(project, folder)
    data = files["data.js"]
    floor_ids = data["main"]["floorIds"]
    assert set(files) == set(SAMPLE_GLOBALS) | {f"floors/{floor}.js" for floor in floor_ids}
    same_keys(data, SAMPLE_DATA, "data.js")
    same_keys(data["main"]["styles"], SAMPLE_STYLES, "data.js main.styles")
    same_keys(data["firstData"]["hero"], SAMPLE_HERO, "data.js firstData.hero")
    for entry in data["firstData"]["levelUp"]:
        same_keys(entry, SAMPLE_LEVEL_UP, "data.js firstData.levelUp")
    shops = {}
    for shop in data["firstData"]["shops"]:
        same_keys(shop, SAMPLE_SHOP, "data.js shop")
        for choice in shop["choices"]:
            same_keys(choice, SAMPLE_CHOICE, "data.js shop choice")
            for action in choice["action"]:
                same_keys(action, SAMPLE_SET_VALUE, "data.js shop action")
        shops[shop["id"]] = shop
    enemies, items, tiles, icons = (files[name] for name in ("enemys.js", "items.js", "maps.js", "icons.js"))
    assert list(icons) == list(SAMPLE_ICON_CLASSES)
    same_keys(
        icons["hero"], SAMPLE_HERO_ICON | dict.fromkeys(("down", "left", "right", "up"), SAMPLE_HERO_FRAME), "hero"
    )
    for cls in SAMPLE_ICON_CLASSES[1:]:
        assert all(isinstance(row, int) and not isinstance(row, bool) for row in icons[cls].values()), cls
    for ident, monster in enemies.items():
        assert set(SAMPLE_ENEMY) <= set(monster), ident
        assert isinstance(monster["special"], SAMPLE_ENEMY_SPECIAL), ident
        keys_within(monster, SAMPLE_ENEMY | {"special": SAMPLE_ENEMY_SPECIAL} | SAMPLE_ENEMY_OPTIONAL, ident, ())
    for ident, item in items.items():
        shape = SAMPLE_KEY_ITEM if item["cls"] == "tools" else SAMPLE_ITEM
        same_keys(item, shape, f"items.js {ident}")
    # maps.js: every tile of what it is, and everything it names defined where the engine looks.
    for number, tile in tiles.items():
        assert number.isdigit() and number != "0", number
        kind = (
            "enemy"
            if tile["cls"] == "enemys"
            else "key"
            if tile["id"].endswith("Key")
            else "item"
            if tile["cls"] == "items"
            else "door"
            if tile.get("trigger") == "openDoor"
            else "stair"
            if tile["id"] in ("upFloor", "downFloor")
            else "wall"
        )
        keys_within(tile, SAMPLE_TILES[kind], f"maps.js {number}")
        assert tile["id"] in icons[tile["cls"]], f"maps.js {number}: no picture for {tile['id']}"
        if kind == "enemy":
            assert tile["id"] in enemies, f"maps.js {number}: monster {tile['id']} not in enemys.js"
        if kind in ("item", "key"):
            assert tile["id"] in items, f"maps.js {number}: item {tile['id']} not in items.js"
        if kind == "door":
            same_keys(tile["doorInfo"], SAMPLE_DOOR_INFO, f"maps.js {number} doorInfo")
            assert all(key in items for key in tile["doorInfo"]["keys"]), number
    assert set(enemies) <= {tile["id"] for tile in tiles.values() if tile["cls"] == "enemys"}
    hero = data["firstData"]["hero"]
    assert data["firstData"]["floorId"] in floor_ids
    floors = {floor: files[f"floors/{floor}.js"] for floor in floor_ids}
    for floor_id, floor in floors.items():
        same_keys(floor, SAMPLE_FLOOR, f"floors/{floor_id}.js")
        assert floor["floorId"] == floor_id
        grid = floor["map"]
        assert len(grid) == floor["height"] >= 13 and all(len(row) == floor["width"] >= 13 for row in grid)
        for row in grid:
            for number in row:
                assert number == 0 or str(number) in tiles, f"{floor_id}: tile {number} not in maps.js"
        for place, target in floor["changeFloor"].items():
            x, y = map(int, place.split(","))
            assert tiles[str(grid[y][x])]["id"] in ("upFloor", "downFloor"), f"{floor_id} {place}"
            there = floors[target["floorId"]]
            tx, ty = target["loc"]
            arrival = there["map"][ty][tx]
            assert arrival == 0 or tiles[str(arrival)]["id"] in ("upFloor", "downFloor"), f"{floor_id} {place}"
        for place, event in floor["events"].items():
            x, y = map(int, place.split(","))
            assert grid[y][x] == 0 and [action["type"] for action in event] == ["openShop"], place
            assert event[0]["id"] in shops, place
        for place in floor["afterBattle"]:
            x, y = map(int, place.split(","))
            assert tiles[str(grid[y][x])]["cls"] == "enemys", place
    start = floors[data["firstData"]["floorId"]]["map"][hero["loc"]["y"]][hero["loc"]["x"]]
    assert start == 0
    assert all(tool in items for tool in hero["items"]["tools"])


@pytest.mark.parametrize("path", SHIPPED, ids=lambda path: path.name)
def test_every_shipped_level_exports_the_structure_mota_js_reads(path, tmp_path):
    source = read_level(path)
    project = export_h5mota(load(source), source, str(path))
    check_project(project, tmp_path)
    assert export_h5mota(load(read_level(path)), read_level(path), str(path)).files == project.files


@pytest.mark.parametrize("number", range(0, 100, 2))
def test_random_towers_export_the_structure_mota_js_reads(number, tmp_path):
    """Floors, colours, specials with their fields, money, shops, bosses (the random towers)."""
    name, text = random_level(number)
    source = source_of(text, f"{name}.toml")
    project = export_h5mota(load(source), source, name)
    check_project(project, tmp_path)
    assert export_h5mota(load(source), source, name).files == project.files


def test_an_export_is_the_same_bytes_under_every_hash_seed(tmp_path):
    """Sets and dictionaries could order an export by Python's string hashing, which differs from process to
    process: two runs of the command under different hash seeds write the same bytes."""
    level = next(path for path in SHIPPED if path.name == "14-two-exits.toml")
    tower = tmp_path / "tower.toml"
    tower.write_text(random_level(6)[1], encoding="utf-8")
    written = []
    for seed in ("1", "2"):
        out = tmp_path / f"run{seed}"
        for source, target in ((level, out / "one"), (tower, out / "tower")):
            subprocess.run(
                [sys.executable, "-m", "twisty.cli", "export", "h5mota", str(source), "-o", str(target)],
                check=True,
                capture_output=True,
                env=os.environ | {"PYTHONHASHSEED": seed},
            )
        written.append({path.relative_to(out): path.read_bytes() for path in sorted(out.rglob("*.js"))})
    assert written[0] == written[1] and len(written[0]) == 7 + 8  # (the tower: two floors and the exit)
