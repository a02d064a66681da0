"""Writing a passages level as a level file (the format of docs/passages.md), towers included: the inverse of
the loader (twisty.rules.passages_format), so that loading what is written gives the same level back.

Each distinct object (a key of a colour, an enemy with its stats and specials, ...) gets one legend
character, handed out from pools per kind; stairs get one character per direction.
"""

from __future__ import annotations

import json
from fractions import Fraction

from twisty.rules.passages import (
    COLOURS,
    FLOOR,
    GOAL,
    OUTSIDE,
    START,
    WALL,
    PassagesLevel,
    Thing,
    TowerStats,
)
from twisty.rules.passages_combat import (
    BREAK_ARMOUR_DEFAULT,
    COUNTER_DEFAULT,
    FIRST_STRIKE,
    HITS_DEFAULT,
    PURIFY_DEFAULT,
    Enemy,
)

# Legend characters per kind, in the order they are handed out: none that needs escaping in a TOML basic
# string, none of the reserved map characters (# . S G space).
POOLS = {
    "enemy": "abcdefghijlmnopqrstuvwxyzACEFHIJLMNOPQRTUVWXYZ",
    "boss": "B",
    "equipment": "/]!)}|%&",
    "elixir": "+*~=^$0123456789",
    "key": "k",
    "door": "DK",
    "shop": "@",
    "stairs": "<>",
}
SPARE = POOLS["enemy"] + POOLS["equipment"] + POOLS["elixir"] + "-_?;:,'`(["


def entry_of(thing: Thing) -> tuple:
    """What a legend entry says of an object: objects with the same entry share a character."""
    if thing.kind == "enemy":
        assert thing.enemy is not None
        return ("enemy", thing.enemy)
    if thing.kind == "elixir":
        return ("elixir", thing.name, thing.hp)
    if thing.kind == "equipment":
        return ("equipment", thing.name, thing.atk, thing.defense, thing.mdef)
    if thing.kind in ("key", "door"):
        return (thing.kind, thing.name, thing.colour)
    return (thing.kind, thing.name)


def _pool(entry: tuple) -> str:
    if entry[0] == "enemy":
        return POOLS["boss"] + POOLS["enemy"] if entry[1].boss else POOLS["enemy"]
    return POOLS[entry[0]]


def level_text(level: PassagesLevel, header: list[str] | None = None) -> str:
    """The level file: an optional comment header, the map (or floors), the player, the shop, the legend
    and the [expect] claims."""
    entries = sorted({entry_of(thing) for thing in level.things}, key=repr)
    stairs = _stair_cells(level)
    symbols: dict[tuple, str] = {}
    used: set[str] = set()
    for entry in [("stairs", "up"), ("stairs", "down")] * bool(stairs) + entries:
        pool = "<" if entry == ("stairs", "down") else ">" if entry == ("stairs", "up") else _pool(entry)
        choices = [c for c in pool + SPARE if c not in used]
        if not choices:
            raise ValueError("more distinct objects than legend characters")
        symbols[entry] = choices[0]
        used.add(choices[0])
    rows = [[_base_char(level, (r, c)) for c in range(len(row))] for r, row in enumerate(level.grid)]
    for thing in level.things:
        rows[thing.cell[0]][thing.cell[1]] = symbols[entry_of(thing)]
    for cell, direction in stairs.items():
        rows[cell[0]][cell[1]] = symbols[("stairs", direction)]
    lines = [f"# {line}" if line else "#" for line in header or []]
    lines += ['game = "passages"']
    if level.name:
        lines.append(f"name = {_string(level.name)}")
    if level.description:
        lines.append(f"description = {_string(level.description)}")
    if level.guards:
        lines.append('win = "boss"')
    if not level.floors:
        lines += ['map = """', *("".join(row) for row in rows), '"""']
    lines += ["", "[player]", *_player_lines(level)]
    if level.shop is not None:
        shop = level.shop
        lines += ["", "[shop]", f"start = {shop.start}", f"delta = {shop.delta}"]
        lines += [f"{name} = {value}" for name, value in _gains(shop.hp, shop.atk, shop.defense, shop.mdef)]
        if level.player.shopping:
            lines.append("from_start = true")
    lines += ["", "[legend]"]
    for entry, symbol in sorted(symbols.items(), key=lambda item: item[1]):
        lines.append(_legend_line(symbol, entry))
    for floor in level.floors:
        lines += ["", "[[floor]]", f"name = {_string(floor.name)}", 'map = """']
        lines += ["".join(row) for row in rows[floor.first_row : floor.first_row + floor.height]]
        lines.append('"""')
    claims = [(name, value) for name, value in vars(level.expect).items() if value is not None]
    if claims:
        lines += ["", "[expect]"] + [f"{name} = {_value(value)}" for name, value in claims]
    return "\n".join(lines) + "\n"


def _base_char(level: PassagesLevel, cell: tuple[int, int]) -> str:
    if cell == level.start:
        return START
    if cell in level.goals and level.guard_at(cell) is None:
        return GOAL
    char = level.char(cell)
    if char == OUTSIDE:
        return OUTSIDE
    return WALL if char == WALL else FLOOR


def _stair_cells(level: PassagesLevel) -> dict[tuple[int, int], str]:
    """Each stair cell with its direction: of a link, the end on the lower floor is the up stair."""
    order = {floor.name: number for number, floor in enumerate(level.floors)}
    cells = {}
    for one, other in level.links:
        low, high = sorted((one, other), key=lambda cell: order[level.floor_of(cell)[0]])
        cells[low], cells[high] = "up", "down"
    return cells


def _player_lines(level: PassagesLevel) -> list[str]:
    player = level.player
    lines = [f"hp = {player.hp}", f"atk = {player.atk}", f"def = {player.defense}", f"keys = {player.keys}"]
    if isinstance(player, TowerStats):
        lines += [f"mdef = {player.mdef}", f"money = {player.money}"]
        lines += [f"{colour}_keys = {count}" for colour, count in zip(COLOURS, player.coloured, strict=True)]
    return lines


def _gains(hp: int, atk: int, defense: int, mdef: int) -> list[tuple[str, int]]:
    return [(name, value) for name, value in (("hp", hp), ("atk", atk), ("def", defense), ("mdef", mdef)) if value]


def _legend_line(symbol: str, entry: tuple) -> str:
    key = symbol if symbol.isalnum() or symbol in "-_" else _string(symbol)
    kind = entry[0]
    fields: list[tuple[str, object]] = [("kind", kind)]
    if kind == "stairs":
        fields.append(("direction", entry[1]))
    elif kind == "enemy":
        fields += _enemy_fields(entry[1])
    else:
        if entry[1] and entry[1] != kind:
            fields.append(("name", entry[1]))
        if kind == "elixir":
            fields.append(("hp", entry[2]))
        elif kind == "equipment":
            fields += _gains(0, entry[2], entry[3], entry[4])
        elif kind in ("key", "door") and entry[2]:
            fields.append(("colour", entry[2]))
    return f"{key} = {{ " + ", ".join(f"{name} = {_value(value)}" for name, value in fields) + " }"


def _enemy_fields(enemy: Enemy) -> list[tuple[str, object]]:
    fields: list[tuple[str, object]] = [("name", enemy.name), ("hp", enemy.hp), ("atk", enemy.atk)]
    fields.append(("def", enemy.defense))
    if enemy.boss:
        fields.append(("boss", True))
    specials = sorted(enemy.specials | ({FIRST_STRIKE} if enemy.first_strike else set()))
    if enemy.specials:
        fields.append(("specials", specials))
    elif enemy.first_strike:
        fields.append(("first_strike", True))
    if enemy.money:
        fields.append(("money", enemy.money))
    optional = (
        ("hits_per_round", enemy.hits_per_round, HITS_DEFAULT, 6),
        ("drain", enemy.drain, Fraction(0), 11),
        ("fixed_damage", enemy.fixed_damage, 0, 22),
        ("break_armour", enemy.break_armour, BREAK_ARMOUR_DEFAULT, 7),
        ("counter", enemy.counter, COUNTER_DEFAULT, 8),
        ("purify", enemy.purify, PURIFY_DEFAULT, 9),
    )
    for name, value, default, special in optional:
        if value != default and special in enemy.specials:
            fields.append((name, value))
    return fields


def _value(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return str(value.numerator)
        text = repr(float(value))
        if Fraction(text) != value:
            raise ValueError(f"{value} has no exact decimal form for a level file")
        return text
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list):
        return "[" + ", ".join(_value(item) for item in value) + "]"
    return str(value)


def _string(text: str) -> str:
    """A TOML basic string (JSON's escapes are TOML's for these characters)."""
    return json.dumps(text, ensure_ascii=False)
