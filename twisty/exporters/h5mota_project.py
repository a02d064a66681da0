"""The parts of an exported h5mota project that do not depend on the level, and how its files are written.

mota-js 2.x (ckcz123/mota-js) loads a project's files as scripts: `project/data.js`, `enemys.js`,
`items.js`, `maps.js` and `icons.js` each assign one object to a global variable whose name the engine's
`libs/*.js` spell out (below), and `project/floors/<floorId>.js` assigns `main.floors.<floorId>`. Every
object is JSON (valid JavaScript), written one way so that the same level always gives the same bytes.

The engine also loads `functions.js`, `events.js` and `plugins.js` (its damage formula, battles and shops
are code there) and the pictures and sounds of `project/`: an export is laid over a copy of mota-js, whose
own copies of those stay (docs/mota.md, "Playing an exported tower").
"""

from __future__ import annotations

import json
from typing import Any

# The global each data file assigns: the names mota-js's libs read (libs/data.js reads `data_a1e2...`, and
# so on), the same in every mota-js 2.x project.
GLOBALS = {
    "data.js": "data_a1e2fb4a_e986_4524_b0da_9b7ba7c0874d",
    "enemys.js": "enemys_fcae963b_31c9_42b4_b48c_bb48d09f3f80",
    "items.js": "items_296f5d02_12fd_4166_a7c1_b5e830c9ee3a",
    "maps.js": "maps_90f36752_8815_4be8_b32b_d7fad1d0542e",
    "icons.js": "icons_4665ee12_3a1f_44a4_bea3_0fccba634dc1",
}

# Where the pictures an export uses sit in the material sheets of mota-js's `project/materials/` (a row
# per picture, counted from 0): the few the export needs, nothing else of the engine's tables.
TERRAIN_ICONS = {"ground": 0, "downFloor": 5, "upFloor": 6}
WALL_ID = "yellowWall"
ANIMATE_ICONS = {"yellowDoor": 4, "blueDoor": 5, "redDoor": 6, "greenDoor": 7, WALL_ID: 10}
KEY_ICONS = {"yellowKey": 0, "blueKey": 1, "redKey": 2, "greenKey": 3}
# Items: a potion's picture by its rank among the level's potions; gems and equipment by what they give.
POTION_ICONS = (20, 21, 23, 22)  # red, blue, yellow, green potion
ATK_ICON, DEF_ICON, MDEF_ICON, MIXED_ICON, SWORD_ICON, SHIELD_ICON = 16, 17, 18, 19, 50, 55
# Monsters: a picture chosen by a word of the name, else the next of a round of pictures.
MONSTER_ICONS = {
    "slime": 0,
    "bat": 4,
    "vampire": 7,
    "skeleton": 8,
    "wraith": 11,
    "ghost": 11,
    "zombie": 12,
    "goblin": 13,
    "orc": 13,
    "rock": 14,
    "golem": 14,
    "priest": 16,
    "wizard": 18,
    "mage": 18,
    "guard": 20,
    "warden": 20,
    "sword": 23,
    "soldier": 24,
    "knight": 25,
    "king": 29,
    "lich": 37,
    "demon": 41,
    "dragon": 56,
    "fairy": 58,
    "rat": 2,
    "ogre": 35,
}
MONSTER_ROUND = (0, 1, 2, 4, 5, 8, 9, 12, 13, 14, 16, 18, 23, 24, 25, 26, 31, 32, 33, 34, 36, 47, 53, 55)
# hero.png: one row per direction, four frames a row.
HERO_ICON = {
    direction: {"loc": row, "stop": 0, "leftFoot": 1, "rightFoot": 3}
    for row, direction in enumerate(("down", "left", "right", "up"))
} | {"width": 32, "height": 48}

# The door of each key colour: the engine opens a door whose `doorInfo.keys` the hero holds, and takes them.
DOOR_SECONDS = 160  # (the opening animation, in milliseconds)

# data.js `main`: the floors are the level's; the rest names files every mota-js copy has.
MAIN_ASSETS: dict[str, Any] = {
    "floorPartitions": [],
    "images": ["bg.jpg", "hero.png", "winskin.png"],
    "tilesets": [],
    "animates": ["hand", "sword", "zone"],
    "bgms": [],
    "sounds": [
        "attack.mp3",
        "cancel.mp3",
        "confirm.mp3",
        "cursor.mp3",
        "door.mp3",
        "error.mp3",
        "floor.mp3",
        "gem.mp3",
        "item.mp3",
        "load.mp3",
        "open_ui.mp3",
        "recovery.mp3",
        "save.mp3",
        "shop.mp3",
    ],
    "fonts": [],
    # The names the engine plays its sounds by (libs call core.playSound('确定'), ...).
    "nameMap": {
        "确定": "confirm.mp3",
        "取消": "cancel.mp3",
        "操作失败": "error.mp3",
        "光标移动": "cursor.mp3",
        "打开界面": "open_ui.mp3",
        "读档": "load.mp3",
        "存档": "save.mp3",
        "获得道具": "item.mp3",
        "回血": "recovery.mp3",
        "开关门": "door.mp3",
        "上下楼": "floor.mp3",
        "宝石": "gem.mp3",
        "攻击": "attack.mp3",
        "商店": "shop.mp3",
    },
    "levelChoose": [],
    "equipName": ["Weapon", "Shield"],
    "startBgm": None,
    "styles": {
        "startBackground": "project/images/bg.jpg",
        "startVerticalBackground": "project/images/bg.jpg",
        "startLogoStyle": "color: black",
        "startButtonsStyle": "background-color: #32369F; opacity: 0.85; color: #FFFFFF; border: #FFFFFF 2px solid;",
        "statusLeftBackground": "url(project/materials/ground.png) repeat",
        "statusTopBackground": "url(project/materials/ground.png) repeat",
        "toolsBackground": "black",
        "borderColor": [0, 0, 0, 1],
        "statusBarColor": [255, 255, 255, 1],
        "selectColor": [255, 215, 0, 1],
        "floorChangingStyle": "background-color: black; color: white",
        "font": "Verdana",
    },
    "splitImages": [],
}
# data.js `values`: the engine's constants; gems and potions of an export carry their own numbers.
VALUES: dict[str, Any] = {
    "lavaDamage": 100,
    "poisonDamage": 10,
    "weakValue": 20,
    "redGem": 3,
    "blueGem": 3,
    "greenGem": 5,
    "redPotion": 100,
    "bluePotion": 250,
    "yellowPotion": 500,
    "greenPotion": 800,
    "breakArmor": 0.9,
    "counterAttack": 0.1,
    "purify": 3,
    "hatred": 2,
    "animateSpeed": 300,
    "moveSpeed": 100,
    "statusCanvasRowsOnMobile": 3,
    "floorChangeTime": 100,
}
# data.js `flags`: `ignoreChangeFloor` lets a walk the player clicks pass over a stair without taking it,
# as a stair is a cell to walk on in twisty's rules; `enableNegativeDamage` off keeps damage at 0 or more.
FLAGS: dict[str, Any] = {
    "autoScale": True,
    "extendToolbar": False,
    "flyNearStair": True,
    "flyRecordPosition": False,
    "itemFirstText": False,
    "equipboxButton": False,
    "enableAddPoint": False,
    "enableNegativeDamage": False,
    "betweenAttackMax": False,
    "useLoop": False,
    "startUsingCanvas": False,
    "statusCanvas": False,
    "enableEnemyPoint": False,
    "enableGentleClick": True,
    "ignoreChangeFloor": True,
    "canGoDeadZone": False,
    "enableMoveDirectly": True,
    "enableRouteFolding": True,
    "disableShopOnDamage": False,
    "blurFg": False,
    "hideLeftStatusBar": False,
}
STATUS_BAR = ["enableFloor", "enableHP", "enableAtk", "enableDef", "enableMDef", "enableMoney", "enableKeys"]
# A floor's settings besides its map and events, as mota-js's editor writes them for a new floor.
FLOOR_SETTINGS: dict[str, Any] = {
    "canFlyTo": True,
    "canFlyFrom": True,
    "canUseQuickShop": True,
    "cannotViewMap": False,
    "defaultGround": "ground",
    "images": [],
    "ratio": 1,
}
# The least size of a floor: the engine's view is 13 x 13 cells; a smaller level stands in the middle of
# walls.
LEAST_SIDE = 13


def js_value(value: Any) -> str:
    """A value as one line of JSON: ASCII only (any name is escaped, so no character can end a JavaScript
    string), keys in the order given."""
    return json.dumps(value, ensure_ascii=True, separators=(", ", ": "))


def assignment_file(name: str, entries: dict[str, Any], *, one_line: bool) -> str:
    """A data file: `var <global> = ` and the object, each entry on a line of its own (`one_line`: the whole
    entry on that line, as mota-js writes maps.js and enemys.js) or indented below it."""
    lines = [f"var {GLOBALS[name]} = ", "{"]
    items = list(entries.items())
    for index, (key, value) in enumerate(items):
        comma = "," if index < len(items) - 1 else ""
        if one_line:
            lines.append(f"\t{js_value(key)}: {js_value(value)}{comma}")
        else:
            text = json.dumps(value, ensure_ascii=True, indent="\t").replace("\n", "\n\t")
            lines.append(f"\t{js_value(key)}: {text}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def floor_file(floor_id: str, floor: dict[str, Any]) -> str:
    """A floor file, `main.floors.<id>=` and the floor, its map one row a line."""
    lines = [f"main.floors.{floor_id}=", "{"]
    items = list(floor.items())
    for index, (key, value) in enumerate(items):
        comma = "," if index < len(items) - 1 else ""
        if key == "map":
            digits = max(len(str(number)) for row in value for number in row) + 1
            rows = [",".join(f"{number:{digits}d}" for number in row) for row in value]
            lines.append('    "map": [')
            lines += [f"        [{row}]{',' if r < len(rows) - 1 else ''}" for r, row in enumerate(rows)]
            lines.append(f"    ]{comma}")
        else:
            text = json.dumps(value, ensure_ascii=True, indent=4).replace("\n", "\n    ")
            lines.append(f"    {js_value(key)}: {text}{comma}")
    lines.append("}")
    return "\n".join(lines) + "\n"
