"""Loading Twisty Little Passages levels from TOML (the format of ../shared/rules/passages.md).

Every problem becomes one `LevelError` naming the file, line and column.
"""

from __future__ import annotations

import re
from typing import Any

from twisty.rules.passages import (KINDS, RESERVED, START, GOAL, Enemy, Expectations, PassagesLevel, Stats,
                                   Thing, infer_enemy_stats, table_mismatch)
from twisty.rules.source import LevelSource, expect_int

TOP_KEYS = {"game", "name", "description", "map", "player", "legend", "expect"}
PLAYER_KEYS = {"hp", "atk", "def", "keys"}
EXPECT_KEYS = {"solvable": bool, "final_hp": int, "unique": bool, "min_start_hp": int, "solutions": int,
               "optimal_solutions": int}
FIELDS_BY_KIND = {
    "key": {"kind", "name"},
    "door": {"kind", "name"},
    "elixir": {"kind", "name", "hp"},
    "equipment": {"kind", "name", "atk", "def"},
    "enemy": {"kind", "name", "hp", "atk", "def", "boss", "first_strike", "table"},
}
# Maps are drawn by hand; anything larger than this is a wrong file, and it keeps engines' models bounded.
MAX_MAP_SIDE = 200


def load_passages(source: LevelSource) -> PassagesLevel:
    data = source.data
    for key in data:
        if key not in TOP_KEYS:
            raise source.error(f'unknown key "{key}" (allowed: {", ".join(sorted(TOP_KEYS))})', key=key)
    player = _load_player(source, data.get("player"))
    legend = _load_legend(source, data.get("legend", {}))
    grid, start, goals, things = _load_map(source, data.get("map"), legend)
    expect = _load_expect(source, data.get("expect", {}))
    name = data.get("name", "")
    description = data.get("description", "")
    for key, value in (("name", name), ("description", description)):
        if not isinstance(value, str):
            raise source.error(f'"{key}" must be a string', key=key)
    return PassagesLevel(grid, start, goals, tuple(things), player, name, description, expect)


def _table(source: LevelSource, value: Any, key: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise source.error(f'"{key}" must be a table ([{key}])', key=key)
    return value


def _load_player(source: LevelSource, value: Any) -> Stats:
    if value is None:
        raise source.error("missing [player] table (at least hp = ...)", line=1, column=1)
    table = _table(source, value, "player")
    for key in table:
        if key not in PLAYER_KEYS:
            raise source.error(f'unknown player stat "{key}" (allowed: hp, atk, def, keys)',
                               table="player", key=key)
    if "hp" not in table:
        raise source.error("the player needs a starting hp (hp = ...)", table="player", key="hp")
    hp = expect_int(source, table["hp"], "player hp", table="player", key="hp", minimum=1)
    stats = {name: expect_int(source, table.get(name, 0), f"player {name}", table="player", key=name,
                              minimum=0) for name in ("atk", "def", "keys")}
    return Stats(hp, stats["atk"], stats["def"], stats["keys"])


def _field_error(source: LevelSource, symbol: str, field: str, message: str):
    """An error inside legend entry `symbol`, pointing at `field =` when it is written on the entry's line."""
    line, column = source.locate_key(symbol, "legend")
    if line is not None:
        found = re.search(r"[{,]\s*(" + re.escape(field) + r")\s*=", source.lines[line - 1])
        if found:
            column = found.start(1) + 1
    return source.error(f'legend "{symbol}": {message}', line=line, column=column)


def _legend_int(source: LevelSource, symbol: str, entry: dict, field: str, minimum: int,
                default: int | None = 0) -> int:
    value = entry.get(field, default)
    if value is None:
        raise _field_error(source, symbol, field, f"{entry['kind']} needs {field} = ...")
    if isinstance(value, bool) or not isinstance(value, int):
        raise _field_error(source, symbol, field, f"{field} must be a whole number, not {value!r}")
    if value < minimum:
        raise _field_error(source, symbol, field, f"{field} must be at least {minimum}, not {value}")
    return value


def _load_legend(source: LevelSource, value: Any) -> dict[str, dict]:
    table = _table(source, value, "legend")
    legend = {}
    for symbol, entry in table.items():
        if len(symbol) != 1:
            raise source.error(f'legend key "{symbol}" must be a single map character', table="legend",
                               key=symbol)
        if symbol in RESERVED:
            raise source.error(f'legend key "{symbol}" is reserved (# . S G and space)', table="legend",
                               key=symbol)
        if not isinstance(entry, dict):
            raise source.error(f'legend "{symbol}" must be a table such as {{ kind = "key" }}',
                               table="legend", key=symbol)
        kind = entry.get("kind")
        if kind not in KINDS:
            raise _field_error(source, symbol, "kind",
                               f'unknown kind {kind!r} (kinds: {", ".join(KINDS)})')
        for field in entry:
            if field not in FIELDS_BY_KIND[kind]:
                raise _field_error(source, symbol, field, f'a {kind} has no field "{field}" '
                                   f'(fields: {", ".join(sorted(FIELDS_BY_KIND[kind]))})')
        legend[symbol] = _load_entry(source, symbol, entry)
    return legend


def _load_entry(source: LevelSource, symbol: str, entry: dict) -> dict:
    kind = entry["kind"]
    name = entry.get("name", kind)
    if not isinstance(name, str):
        raise _field_error(source, symbol, "name", "name must be a string")
    if kind == "elixir":
        return {"kind": kind, "name": name, "hp": _legend_int(source, symbol, entry, "hp", 1, None)}
    if kind == "equipment":
        atk = _legend_int(source, symbol, entry, "atk", 0)
        defense = _legend_int(source, symbol, entry, "def", 0)
        if atk == 0 and defense == 0:
            raise _field_error(source, symbol, "kind", "equipment must raise atk or def (atk = ..., def = ...)")
        return {"kind": kind, "name": name, "atk": atk, "defense": defense}
    if kind != "enemy":
        return {"kind": kind, "name": name}
    return {"kind": kind, "enemy": _load_enemy(source, symbol, entry, name)}


def _load_enemy(source: LevelSource, symbol: str, entry: dict, name: str) -> Enemy:
    flags = {}
    for flag in ("boss", "first_strike"):
        value = entry.get(flag, False)
        if not isinstance(value, bool):
            raise _field_error(source, symbol, flag, f"{flag} must be true or false")
        flags[flag] = value
    has_stats = any(field in entry for field in ("hp", "atk", "def"))
    table = entry.get("table")
    if not has_stats and table is None:
        raise _field_error(source, symbol, "kind", "an enemy needs hp, atk and def, or a printed table")
    enemy = None
    if has_stats:
        enemy = Enemy(name, _legend_int(source, symbol, entry, "hp", 1, None),
                      _legend_int(source, symbol, entry, "atk", 0, None),
                      _legend_int(source, symbol, entry, "def", 0, None), **flags)
    if table is None:
        assert enemy is not None
        return enemy
    atks, defs, life_lost, hits = _load_printed_table(source, symbol, table)
    if enemy is not None:
        wrong = table_mismatch(enemy, atks, defs, life_lost, hits)
        if wrong is not None:
            raise _field_error(source, symbol, "table",
                               f"the printed table does not follow from hp {enemy.hp}, atk {enemy.atk}, "
                               f"def {enemy.defense}: {_describe_entry(wrong, atks, defs, life_lost, hits, enemy)}")
        return enemy
    inferred, wrong = infer_enemy_stats(atks, defs, life_lost, hits, name=name, **flags)
    if inferred is None:
        assert wrong is not None
        raise _field_error(source, symbol, "table", "no enemy stats reproduce the printed table; first "
                           f"wrong entry: {_describe_entry(wrong, atks, defs, life_lost, hits, None)}")
    return inferred


def _describe_entry(wrong, atks, defs, life_lost, hits, enemy: Enemy | None) -> str:
    from twisty.rules.passages import fight_damage, hits_received
    kind, i, j = wrong
    if kind == "hits":
        found = f" (the stats give {hits_received(enemy, atks[i])})" if enemy else ""
        return f"hits at ATK {atks[i]} = {hits[i]}{found}"
    found = f" (the stats give {fight_damage(enemy, atks[i], defs[j])})" if enemy else ""
    return f"life_lost at ATK {atks[i]}, DEF {defs[j]} = {life_lost[i][j]}{found}"


def _load_printed_table(source: LevelSource, symbol: str, table: Any):
    if not isinstance(table, dict):
        raise _field_error(source, symbol, "table", "table must be { atk = [...], def = [...], life_lost = [[...]] }")
    for field in table:
        if field not in ("atk", "def", "life_lost", "hits"):
            raise _field_error(source, symbol, "table", f'a printed table has no field "{field}"')

    def int_list(values: Any, field: str, minimum: int) -> list[int]:
        if not isinstance(values, list) or not values or any(
                isinstance(v, bool) or not isinstance(v, int) or v < minimum for v in values):
            raise _field_error(source, symbol, "table",
                               f"table {field} must be a non-empty list of whole numbers >= {minimum}")
        return values

    atks = int_list(table.get("atk"), "atk", 1)
    defs = int_list(table.get("def"), "def", 0)
    rows = table.get("life_lost")
    if not isinstance(rows, list) or len(rows) != len(atks):
        raise _field_error(source, symbol, "table", f"table life_lost needs one row per atk ({len(atks)} rows)")
    life_lost = []
    for i, row in enumerate(rows):
        values = int_list(row, f"life_lost row {i + 1}", 0)
        if len(values) != len(defs):
            raise _field_error(source, symbol, "table",
                               f"table life_lost row {i + 1} needs one entry per def ({len(defs)})")
        life_lost.append(values)
    hits = None
    if "hits" in table:
        hits = int_list(table["hits"], "hits", 0)
        if len(hits) != len(atks):
            raise _field_error(source, symbol, "table", "table hits needs one entry per atk")
    return atks, defs, life_lost, hits


def _load_map(source: LevelSource, value: Any, legend: dict[str, dict]):
    if value is None:
        raise source.error('missing the map (map = """ ... """)', line=1, column=1)
    if not isinstance(value, str):
        raise source.error("the map must be a multi-line string", key="map")
    first_line = source.locate_block_string("map") or 1
    rows = value.split("\n")
    if rows and rows[-1].strip() == "":
        rows.pop()
    if len(rows) > MAX_MAP_SIDE or any(len(row) > MAX_MAP_SIDE for row in rows):
        raise source.error(f"the map may be at most {MAX_MAP_SIDE} x {MAX_MAP_SIDE} cells", key="map")
    start = None
    goals = []
    things = []
    for r, row in enumerate(rows):
        for c, char in enumerate(row):
            position = {"line": first_line + r, "column": c + 1}
            if char == START:
                if start is not None:
                    raise source.error(f"a second start S (the first is at line {first_line + start[0]}, "
                                       f"column {start[1] + 1}); a level has exactly one", **position)
                start = (r, c)
            elif char == GOAL:
                goals.append((r, c))
            elif char in RESERVED:
                continue
            elif char not in legend:
                shown = repr(char) if not char.isprintable() or char.isspace() else f'"{char}"'
                raise source.error(f"unknown map character {shown}: add it to [legend] or use # . S G",
                                   **position)
            else:
                entry = dict(legend[char])
                things.append(Thing(symbol=char, cell=(r, c), **entry))
    if start is None:
        raise source.error("the map has no start S", key="map")
    if not goals:
        raise source.error("the map has no goal G", key="map")
    return tuple(rows), start, tuple(goals), things


def _load_expect(source: LevelSource, value: Any) -> Expectations:
    table = _table(source, value, "expect")
    claims = {}
    for key, claim in table.items():
        wanted = EXPECT_KEYS.get(key)
        if wanted is None:
            raise source.error(f'unknown expectation "{key}" (allowed: {", ".join(EXPECT_KEYS)})',
                               table="expect", key=key)
        if wanted is bool and not isinstance(claim, bool):
            raise source.error(f"expect {key} must be true or false", table="expect", key=key)
        if wanted is int:
            claim = expect_int(source, claim, f"expect {key}", table="expect", key=key, minimum=0)
        claims[key] = claim
    return Expectations(**claims)
