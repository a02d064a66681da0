"""magic-tower-AI maps (ckcz123/magic-tower-AI): its input format of whitespace-separated integers, as a
passages level (docs/mota.md gives the format and the semantics twisty follows).

The file, in order: `f` (floors), `rows cols`; f grids of tile codes; nine values (red, blue, green gem;
red, blue, yellow, green potion; sword; shield); `k` and k monster lines `id hp atk def money special`; the
shop `start delta hp atk def mdef`; the hero `hp atk def mdef money yellow blue red floor row col`. Two
tile-code versions exist: the current one (keys 21-24, gems 27-29, potions 31-34, sword 35, shield 36,
monsters 201+, boss 299) and an older one (gems 11-13, keys 15-17, potions 18-21, sword 22, shield 23,
monsters 101+, boss 199); `detect_codes` tells them apart by the codes only one of them uses.

The tower is won by defeating the boss. Every problem is one LevelError with the line and column of the
number at fault; tile codes twisty has no meaning for are walls, in the loss report.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from twisty.errors import LevelError
from twisty.importers.losses import LossReport
from twisty.importers.tower import FloorPlan, ImportedLevel, Tile, tower_level
from twisty.limits import Deadline
from twisty.rules.passages import COLOURS, Shop, Thing, TowerStats
from twisty.rules.passages_combat import FIRST_STRIKE, MODELLED_SPECIALS, SPECIAL_NAMES, Enemy
from twisty.rules.passages_format import MAX_MAP_SIDE
from twisty.rules.passages_format_tower import MAX_FLOORS

NEW, OLD = "new", "old"
# The nine values of the file, in order.
VALUES: tuple[str, ...] = ("red_gem", "blue_gem", "green_gem", "red_potion", "blue_potion", "yellow_potion")
VALUES += ("green_potion", "sword", "shield")
# Tile codes of each version: what an item is, by the value it takes its gain from.
ITEMS = {
    NEW: {
        27: ("equipment", "red gem", "atk", "red_gem"),
        28: ("equipment", "blue gem", "def", "blue_gem"),
        29: ("equipment", "green gem", "mdef", "green_gem"),
        31: ("elixir", "red potion", "hp", "red_potion"),
        32: ("elixir", "blue potion", "hp", "blue_potion"),
        33: ("elixir", "green potion", "hp", "green_potion"),  # (33 green, 34 yellow: unlike h5mota)
        34: ("elixir", "yellow potion", "hp", "yellow_potion"),
        35: ("equipment", "sword", "atk", "sword"),
        36: ("equipment", "shield", "def", "shield"),
    },
    OLD: {
        11: ("equipment", "red gem", "atk", "red_gem"),
        12: ("equipment", "blue gem", "def", "blue_gem"),
        13: ("equipment", "green gem", "mdef", "green_gem"),
        18: ("elixir", "red potion", "hp", "red_potion"),
        19: ("elixir", "blue potion", "hp", "blue_potion"),
        20: ("elixir", "yellow potion", "hp", "yellow_potion"),
        21: ("elixir", "green potion", "hp", "green_potion"),
        22: ("equipment", "sword", "atk", "sword"),
        23: ("equipment", "shield", "def", "shield"),
    },
}
KEYS = {NEW: {21: "yellow", 22: "blue", 23: "red", 24: "green"}, OLD: {15: "yellow", 16: "blue", 17: "red"}}
DOORS = {81: "yellow", 82: "blue", 83: "red", 84: "green"}
ROAD, WALL_CODE, SHOP_CODE, UP, DOWN = 0, 1, 40, 87, 88
MONSTERS = {NEW: (201, 299), OLD: (101, 199)}  # the first monster code and the boss's
# Codes that only one version uses (the rest, 0, 1, 21-23, 40, 81-88, mean the same or are ambiguous).
ONLY = {
    NEW: frozenset({24, 27, 28, 29, 31, 32, 33, 34, 35, 36}),
    OLD: frozenset({11, 12, 13, 15, 16, 17, 18, 19, 20}),
}
# The largest number the file may hold (stats, gains, prices): the level format's.
LARGEST = 10**9


_WHOLE = re.compile(r"-?[0-9]+")


@dataclass
class _Token:
    value: int
    line: int
    column: int
    digits: int = 1  # as written (a value of more than 19 digits is held as 10^19: out of every range)

    def shown(self) -> str:
        return str(self.value) if self.digits <= 19 else f"a number of {self.digits} characters"


class _Reader:
    """The file's numbers one by one, each with its place; every problem a positioned LevelError."""

    def __init__(self, text: str, path: str) -> None:
        self.path = path
        self.tokens: list[_Token] = []
        self.end = (1, 1)
        for number, line in enumerate(text.splitlines(), start=1):
            column = 0
            for word in line.split():
                column = line.index(word, column) + 1
                # (decimal digits only: Python's int() would also take "1_000", "+5" and other scripts' digits,
                # which magic-tower-AI's reader does not; and past 18 digits no value is in range anyway)
                if not _WHOLE.fullmatch(word):
                    raise LevelError(
                        f"{word[:20]!r} is not a whole number (magic-tower-AI maps are whitespace-separated integers)",
                        path=path,
                        line=number,
                        column=column,
                    )
                self.tokens.append(_Token(int(word) if len(word) <= 19 else 10**19, number, column, len(word)))
                column += len(word) - 1
            self.end = (number, len(line) + 1)
        self.at = 0

    def next(self, what: str, low: int = 0, high: int = LARGEST) -> int:
        if self.at >= len(self.tokens):
            raise LevelError(
                f"the file ends where {what} was expected", path=self.path, line=self.end[0], column=self.end[1]
            )
        token = self.tokens[self.at]
        self.at += 1
        if not low <= token.value <= high:
            raise self.error(token, f"{what} must lie within {low} to {high:,}, not {token.shown()}")
        return token.value

    def last(self) -> _Token:
        return self.tokens[self.at - 1]

    def error(self, token: _Token, message: str) -> LevelError:
        return LevelError(message, path=self.path, line=token.line, column=token.column)


def detect_codes(codes: set[int], monster_ids: set[int]) -> str | None:
    """The tile-code version these codes (and monster ids) are in, or None when they do not say (or say
    both)."""
    new = bool(codes & ONLY[NEW]) or any(code >= MONSTERS[NEW][0] for code in codes | monster_ids)
    old = bool(codes & ONLY[OLD]) or any(MONSTERS[OLD][0] <= code <= MONSTERS[OLD][1] for code in codes | monster_ids)
    if new == old:
        return None
    return NEW if new else OLD


def import_mtai(
    text: str, path: str, codes: str | None = None, name: str = "", deadline: Deadline | None = None
) -> tuple[ImportedLevel, LossReport]:
    """The passages level of a magic-tower-AI map, and what could not be expressed. `codes` forces the
    tile-code version (NEW or OLD); None recognises it. `deadline` is polled between the steps
    (LimitReached)."""
    reader = _Reader(text, path)
    if deadline is not None:
        deadline.check()
    floors = reader.next("the number of floors", 1, MAX_FLOORS)
    rows = reader.next("the number of rows", 1, MAX_MAP_SIDE)
    cols = reader.next("the number of columns", 1, MAX_MAP_SIDE)
    grids = []
    places = {}
    for f in range(floors):
        grid = []
        for r in range(rows):
            row = []
            for c in range(cols):
                row.append(reader.next(f"the tile of floor {f}, row {r}, column {c}", 0, 10**6))
                places[(f, r, c)] = reader.last()
            grid.append(row)
        grids.append(grid)
    values = {value: reader.next(f"the {value.replace('_', ' ')} value") for value in VALUES}
    count = reader.next("the number of monster kinds", 0, 10**5)
    monsters: dict[int, Enemy] = {}
    monster_tokens = {}
    for _ in range(count):
        ident = reader.next("a monster id", 0, 10**6)
        token = reader.last()
        hp = reader.next(f"monster {ident}'s hp", 1)
        atk = reader.next(f"monster {ident}'s atk")
        defense = reader.next(f"monster {ident}'s def")
        money = reader.next(f"monster {ident}'s money")
        special = reader.next(f"monster {ident}'s special", 0, 10**6)
        if ident in monsters:
            raise reader.error(token, f"monster {ident} is defined twice")
        monster_tokens[ident] = (token, reader.last(), special)
        monsters[ident] = Enemy(f"monster {ident}", hp, atk, defense, money=money)
    shop_line = [reader.next(f"the shop's {field}") for field in ("start", "delta", "hp", "atk", "def", "mdef")]
    shop_token = reader.tokens[reader.at - 6]
    hero = [reader.next(f"the hero's {field}") for field in ("hp", "atk", "def", "mdef", "money")]
    keys = [reader.next(f"the hero's {colour} keys") for colour in COLOURS[:3]]
    start_floor = reader.next("the hero's floor", 0, floors - 1)
    start_row = reader.next("the hero's row", 0, rows - 1)
    start_col = reader.next("the hero's column", 0, cols - 1)
    start_token = reader.last()
    if reader.at < len(reader.tokens):
        raise reader.error(reader.tokens[reader.at], "more numbers after the hero's line (the last line of the file)")
    if hero[0] < 1:
        raise reader.error(reader.tokens[reader.at - 11], "the hero's hp must be at least 1")

    used = {code for grid in grids for row in grid for code in row}
    version = codes or detect_codes(used, set(monsters))
    if version is None:
        raise LevelError(
            "the tile codes do not say which magic-tower-AI version they are (both or neither): use --codes old|new",
            path=path,
            line=1,
            column=1,
        )
    report = LossReport()
    first_monster, boss_code = MONSTERS[version]
    enemies = {}
    for ident, enemy in monsters.items():
        token, special_token, special = monster_tokens[ident]
        if special and special not in MODELLED_SPECIALS - {11, 22}:
            # magic-tower-AI's own specials are 0-10; 11 and 22 read values its format does not have.
            raise reader.error(
                special_token, f"monster {ident}'s special {special} is not one of magic-tower-AI's (0-10)"
            )
        specials = frozenset({special}) - {0, FIRST_STRIKE}
        enemies[ident] = Enemy(
            f"monster {ident}" + (f" ({SPECIAL_NAMES[special]})" if special else ""),
            enemy.hp,
            enemy.atk,
            enemy.defense,
            first_strike=special == FIRST_STRIKE,
            boss=ident == boss_code,
            specials=specials,
            money=enemy.money,
        )
    start_tile = grids[start_floor][start_row][start_col]
    if start_tile not in (ROAD, UP, DOWN):
        raise reader.error(start_token, f"the hero starts on tile {start_tile}, not on a road")
    floor_names = [str(f + 1) for f in range(floors)]
    plans = []
    for f, grid in enumerate(grids):
        if deadline is not None:
            deadline.check()
        plan: list[list[Tile]] = []
        for r, row in enumerate(grid):
            tiles: list[Tile] = []
            for c, code in enumerate(row):
                tiles.append(_tile(code, version, values, enemies, floors, f, (r, c), floor_names[f], report))
            plan.append(tiles)
        plans.append(FloorPlan(floor_names[f], plan))
    plans[start_floor].rows[start_row][start_col] = "start"
    if not any(
        isinstance(tile, Thing) and tile.enemy is not None and tile.enemy.boss
        for plan in plans
        for row in plan.rows
        for tile in row
    ):
        raise LevelError(
            f"the map has no boss (tile {boss_code}): a magic-tower-AI tower is won by defeating it",
            path=path,
            line=1,
            column=1,
        )
    shop = _shop(shop_line, plans, report, reader, shop_token)
    _unmatched_stairs(plans, report)
    player = TowerStats(hero[0], hero[1], hero[2], 0, hero[3], hero[4], (*keys, 0))
    header = [
        f"Imported from the magic-tower-AI map {path} (tile codes: {version}) by `twisty import mtai`.",
        "Won by defeating the boss; the score is the hp left after that fight.",
    ]
    imported = tower_level(name or path, plans, player, shop=shop, header=header, shown=path, deadline=deadline)
    return imported, report


def _tile(
    code: int,
    version: str,
    values: dict[str, int],
    enemies: dict[int, Enemy],
    floors: int,
    floor: int,
    place: tuple[int, int],
    floor_name: str,
    report: LossReport,
) -> Tile:
    if code == ROAD:
        return "floor"
    if code == WALL_CODE:
        return "wall"
    if code == UP:
        return "up"
    if code == DOWN:
        return "down"
    if code == SHOP_CODE:
        return Thing("shop", "", (0, 0), name="shop")
    if code in DOORS:
        return Thing("door", "", (0, 0), name="door", colour=DOORS[code])
    if code in KEYS[version]:
        return Thing("key", "", (0, 0), name="key", colour=KEYS[version][code])
    if code in ITEMS[version]:
        kind, name, stat, value = ITEMS[version][code]
        gain = values[value]
        if gain == 0:
            return "floor"  # (worth nothing: nothing to express)
        if kind == "elixir":
            return Thing("elixir", "", (0, 0), hp=gain, name=name)
        return Thing(
            "equipment",
            "",
            (0, 0),
            atk=gain if stat == "atk" else 0,
            defense=gain if stat == "def" else 0,
            mdef=gain if stat == "mdef" else 0,
            name=name,
        )
    if code >= MONSTERS[version][0]:
        enemy = enemies.get(code)
        if enemy is None:
            report.add(
                floor_name, f"monster code {code} without a monster line", "a wall (as magic-tower-AI does)", place
            )
            return "wall"
        return Thing("enemy", "", (0, 0), enemy=enemy)
    report.add(floor_name, f"tile code {code}", "a wall", place)
    return "wall"


def _shop(line: list[int], plans: list[FloorPlan], report: LossReport, reader: _Reader, token: _Token) -> Shop | None:
    """The shop of the shop line, if it sells anything and a shop cell is on the map: "a purchase costs start
    + delta x purchases so far and gives one of hp/atk/def/mdef"; "0 0 0 0 0 0 means no shop"."""
    start, delta, hp, atk, defense, mdef = line
    cells = [
        (plan, r, c)
        for plan in plans
        for r, row in enumerate(plan.rows)
        for c, t in enumerate(row)
        if isinstance(t, Thing) and t.kind == "shop"
    ]
    if not (hp or atk or defense or mdef):
        for plan, r, c in cells:
            report.add(plan.name, "shop cell with no shop", "a floor cell", (r, c))
            plan.rows[r][c] = "floor"
        return None
    if start == 0:
        raise reader.error(token, "the shop's first purchase costs 0: it would sell for ever")
    if not cells:
        report.add("", "shop line without a shop cell (40) on the map", "no shop")
        return None
    return Shop(start, delta, hp, atk, defense, mdef)


def _unmatched_stairs(plans: list[FloorPlan], report: LossReport) -> None:
    """Stairs with nothing to meet on the next floor lead nowhere: floor cells, in the report."""
    for f, plan in enumerate(plans):
        for direction, other, facing in (("up", f + 1, "down"), ("down", f - 1, "up")):
            meets = 0 <= other < len(plans) and any(tile == facing for row in plans[other].rows for tile in row)
            if meets:
                continue
            for r, row in enumerate(plan.rows):
                for c, tile in enumerate(row):
                    if tile == direction:
                        report.add(plan.name, f"{direction} stair that leads nowhere", "a floor cell", (r, c))
                        row[c] = "floor"
