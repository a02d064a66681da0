"""Loading Twisty Little Passages levels from TOML (the format of docs/passages.md).

Every problem becomes one `LevelError` naming the file, line and column: a misspelt key is an error that
names the keys expected (a typo such as `atck = 2` must not silently become "atk 0"), and a level beyond
the input limits below is refused while it is read, before any engine sees it.
"""

from __future__ import annotations

import difflib
import re
from typing import Any

from twisty.limits import Deadline
from twisty.rules.passages import (
    GOAL,
    KINDS,
    RESERVED,
    START,
    Enemy,
    Expectations,
    PassagesLevel,
    Stats,
    Thing,
    fight_damage,
    hits_received,
    table_mismatch,
)
from twisty.rules.passages_tables import Entry, infer_enemy_stats
from twisty.rules.source import LevelError, LevelSource, Position, expect_int, unknown_key_error

TOP_KEYS = {"game", "name", "description", "map", "player", "legend", "expect"}
PLAYER_KEYS = {"hp", "atk", "def", "keys"}
EXPECT_KEYS = {
    "solvable": bool,
    "final_hp": int,
    "unique": bool,
    "min_start_hp": int,
    "solutions": int,
    "optimal_solutions": int,
}
FIELDS_BY_KIND = {
    "key": {"kind", "name"},
    "door": {"kind", "name"},
    "elixir": {"kind", "name", "hp"},
    "equipment": {"kind", "name", "atk", "def"},
    "enemy": {"kind", "name", "hp", "atk", "def", "boss", "first_strike", "table"},
}
TABLE_KEYS = {"atk", "def", "life_lost", "hits"}

# Input limits (docs/passages.md, "Limits", gives each with its reason). Every number in a level already
# lies within +-10^9 (twisty.limits.MAX_NUMBER): stats, elixirs and equipment up to 10^9 are held exactly
# by every engine (the CP-SAT model leaves out damage no life survives, so its sums stay inside 64 bits).
# Rows and columns of a map: maps are drawn by hand (the benchmark suite's largest is 31 x 23).
MAX_MAP_SIDE = 200
# Doors and enemies. The generator places at most 266. Beyond, no engine gets far: the CP-SAT model has
# blockers x blockers step literals and took 45 s and 0.96 GB to build at 299 blockers, 203 s and 2 GB at
# 449; the compiled search holds at most 128.
MAX_BLOCKERS = 300
# Objects of every kind (items, doors and enemies together): replaying a route looks at every object at
# each of its steps, so this bounds that work to 600,000 looks per route.
MAX_OBJECTS = 2000
# ATK rows and DEF columns of a printed damage table: a book prints a handful; inferring the stats takes
# work that grows with the table (at most 0.3 s at 32 x 32, whatever the numbers).
MAX_TABLE_SIDE = 32


def load_passages(source: LevelSource, deadline: Deadline | None = None) -> PassagesLevel:
    """The level of a parsed passages file. `deadline` is the level's one Deadline: the only work here that
    is more than a glance at the text, inferring stats from a printed table, polls it (LimitReached)."""
    data = source.data
    for key in data:
        if key not in TOP_KEYS:
            raise _positioned(source, unknown_key_error(source, key, TOP_KEYS), key)
    player = _load_player(source, data.get("player"))
    legend = _load_legend(source, data.get("legend", {}), deadline)
    grid, start, goals, things = _load_map(source, data.get("map"), legend)
    expect = _load_expect(source, data.get("expect", {}))
    name = data.get("name", "")
    description = data.get("description", "")
    for key, value in (("name", name), ("description", description)):
        if not isinstance(value, str):
            raise source.error(f'"{key}" must be a string', key=key)
    return PassagesLevel(grid, start, goals, tuple(things), player, name, description, expect)


def _positioned(source: LevelSource, error: LevelError, key: str, table: str | None = None) -> LevelError:
    """`error` with a position even where TOML was written in a form the plain key scan misses (a dotted
    key such as `player.atck = 2`, a misspelt `[plyer]` header): the first `key =` after a dot, brace or
    comma, else at the start of a line, else a `[key]` header."""
    if error.line is None or (table is not None and (error.line, error.column) == source.locate_table(table)):
        found: tuple[int | None, int | None] | None = _find_key_line(source, key, after=table)
        if found is None and table is None and source.locate_table(key)[0] is not None:
            found = source.locate_table(key)  # a misspelt [table] header
        if found is not None:
            error.line, error.column = found
    return error


def _find_key_line(source: LevelSource, key: str, after: str | None = None) -> tuple[int, int] | None:
    pattern = re.compile(r"(?:^\s*|[.{,]\s*)(" + "|".join(map(re.escape, (key, f'"{key}"', f"'{key}'"))) + r")\s*=")
    for number, raw in enumerate(source.lines, start=1):
        if after is not None and not re.search(re.escape(after), raw):
            continue
        found = pattern.search(raw)
        if found:
            return number, found.start(1) + 1
    if after is not None:
        return _find_key_line(source, key)
    return None


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
            raise _positioned(
                source, unknown_key_error(source, key, PLAYER_KEYS, table="player", what="player stat"), key, "player"
            )
    if "hp" not in table:
        raise source.error("the player needs a starting hp (hp = ...)", table="player", key="hp")
    hp = expect_int(source, table["hp"], "player hp", table="player", key="hp", minimum=1)
    stats = {
        name: expect_int(source, table.get(name, 0), f"player {name}", table="player", key=name, minimum=0)
        for name in ("atk", "def", "keys")
    }
    return Stats(hp, stats["atk"], stats["def"], stats["keys"])


def _entry_position(source: LevelSource, symbol: str, field: str | None = None) -> tuple[int | None, int | None]:
    """Where legend entry `symbol` (or its `field =`) is written: `symbol = { ... }` or `symbol.field = ...`
    under [legend], a `[legend.symbol]` header and the lines below it, or `legend.symbol... =` at the top."""
    name = "(?:" + "|".join(map(re.escape, (symbol, f'"{symbol}"', f"'{symbol}'"))) + ")"
    header = re.compile(r"^\s*\[\s*legend\s*\.\s*" + name + r"\s*\]")
    entry = re.compile(r"^\s*" + name + r"\s*[=.]")
    top = re.compile(r"^\s*legend\s*\.\s*" + name + r"\s*[=.]")
    field_pattern = (
        None
        if field is None
        else re.compile(r"(?:^\s*|[.{,]\s*)(" + "|".join(map(re.escape, (field, f'"{field}"'))) + r")\s*=")
    )
    current = None
    under_header = False
    first: tuple[int, int] | None = None
    for number, raw in enumerate(source.lines, start=1):
        table_header = re.match(r"^\s*\[\[?\s*([A-Za-z_\"'][^\]]*?)\s*\]", raw)
        if table_header:
            under_header = bool(header.match(raw))
            current = re.sub(r"\s", "", table_header.group(1))
            if under_header and first is None:
                first = (number, raw.index("[") + 1)
            continue
        mine = under_header or (current == "legend" and entry.match(raw)) or (current is None and top.match(raw))
        if not mine:
            continue
        if first is None:
            first = (number, len(raw) - len(raw.lstrip()) + 1)
        if field_pattern is not None:
            found = field_pattern.search(raw, 0 if under_header else len(raw) - len(raw.lstrip()) + 1)
            if found:
                return number, found.start(1) + 1
    if first is not None:
        return first
    return source.locate_table("legend")


def _field_error(source: LevelSource, symbol: str, field: str, message: str) -> LevelError:
    """An error inside legend entry `symbol`, pointing at its `field =` where that is written."""
    line, column = _entry_position(source, symbol, field)
    return source.error(f'legend "{symbol}": {message}', line=line, column=column)


def _legend_int(
    source: LevelSource, symbol: str, entry: dict, field: str, minimum: int, default: int | None = 0
) -> int:
    value = entry.get(field, default)
    if value is None:
        raise _field_error(source, symbol, field, f"{entry['kind']} needs {field} = ...")
    if isinstance(value, bool) or not isinstance(value, int):
        raise _field_error(source, symbol, field, f"{field} must be a whole number, not {value!r}")
    if value < minimum:
        raise _field_error(source, symbol, field, f"{field} must be at least {minimum}, not {value}")
    return value


def _load_legend(source: LevelSource, value: Any, deadline: Deadline | None) -> dict[str, dict]:
    table = _table(source, value, "legend")
    legend = {}
    for symbol, entry in table.items():
        if len(symbol) != 1:
            raise source.error(f'legend key "{symbol}" must be a single map character', table="legend", key=symbol)
        if symbol in RESERVED:
            raise source.error(f'legend key "{symbol}" is reserved (# . S G and space)', table="legend", key=symbol)
        if not isinstance(entry, dict):
            raise source.error(
                f'legend "{symbol}" must be a table such as {{ kind = "key" }}', table="legend", key=symbol
            )
        kind = entry.get("kind")
        if kind not in KINDS:
            close = difflib.get_close_matches(kind, KINDS, n=1, cutoff=0.6) if isinstance(kind, str) else []
            hint = f' (did you mean "{close[0]}"?)' if close else ""
            said = "needs a kind" if kind is None else f"unknown kind {kind!r}"
            raise _field_error(source, symbol, "kind", f"{said}{hint}; kinds: {', '.join(KINDS)}")
        for field in entry:
            if field not in FIELDS_BY_KIND[kind]:
                unknown = unknown_key_error(source, field, FIELDS_BY_KIND[kind], what=f"{kind} field")
                raise _field_error(source, symbol, field, unknown.message)
        legend[symbol] = _load_entry(source, symbol, entry, deadline)
    return legend


def _load_entry(source: LevelSource, symbol: str, entry: dict, deadline: Deadline | None) -> dict:
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
    return {"kind": kind, "enemy": _load_enemy(source, symbol, entry, name, deadline)}


def _load_enemy(source: LevelSource, symbol: str, entry: dict, name: str, deadline: Deadline | None) -> Enemy:
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
        enemy = Enemy(
            name,
            _legend_int(source, symbol, entry, "hp", 1, None),
            _legend_int(source, symbol, entry, "atk", 0, None),
            _legend_int(source, symbol, entry, "def", 0, None),
            **flags,
        )
    if table is None:
        assert enemy is not None
        return enemy
    atks, defs, life_lost, hits = _load_printed_table(source, symbol, table)
    if enemy is not None:
        wrong = table_mismatch(enemy, atks, defs, life_lost, hits)
        if wrong is not None:
            raise _table_error(
                source,
                symbol,
                wrong,
                atks,
                defs,
                f"the printed table does not follow from hp {enemy.hp}, atk {enemy.atk}, "
                f"def {enemy.defense}: {_describe_entry(wrong, atks, defs, life_lost, hits, enemy)}",
            )
        return enemy
    inferred, wrong = infer_enemy_stats(atks, defs, life_lost, hits, name=name, deadline=deadline, **flags)
    if inferred is None:
        assert wrong is not None
        raise _table_error(
            source,
            symbol,
            wrong,
            atks,
            defs,
            "no enemy stats reproduce the printed table; first wrong entry: "
            f"{_describe_entry(wrong, atks, defs, life_lost, hits, None)}",
        )
    return inferred


def _table_error(
    source: LevelSource, symbol: str, wrong: Entry, atks: list[int], defs: list[int], message: str
) -> LevelError:
    """The error for a wrong printed entry, pointing at that entry where the table is written on one line:
    the number in `life_lost` (row by row) or in `hits`."""
    error = _field_error(source, symbol, "table", message)
    if error.line is None:
        return error
    raw = source.lines[error.line - 1]
    kind, i, j = wrong
    field = "hits" if kind == "hits" else "life_lost"
    found = re.search(r"[{,]\s*" + field + r"\s*=\s*\[", raw)
    if not found:
        return error
    at = found.end()
    numbers = list(re.finditer(r"-?\d+", raw[at:]))
    index = i if kind == "hits" else i * len(defs) + j
    if index < len(numbers):
        error.column = at + numbers[index].start() + 1
    return error


def _describe_entry(
    wrong: Entry,
    atks: list[int],
    defs: list[int],
    life_lost: list[list[int]],
    hits: list[int] | None,
    enemy: Enemy | None,
) -> str:
    kind, i, j = wrong
    if kind == "hits":
        assert hits is not None
        printed, given = f"hits at ATK {atks[i]} = {hits[i]}", enemy and hits_received(enemy, atks[i])
    else:
        printed, given = (
            f"life_lost at ATK {atks[i]}, DEF {defs[j]} = {life_lost[i][j]}",
            enemy and fight_damage(enemy, atks[i], defs[j]),
        )
    if enemy is None:
        return printed
    if given is None:
        return f"{printed} (with those stats ATK {atks[i]} cannot harm it)"
    return f"{printed} (the stats give {given})"


def _load_printed_table(source: LevelSource, symbol: str, table: Any):
    if not isinstance(table, dict):
        raise _field_error(source, symbol, "table", "table must be { atk = [...], def = [...], life_lost = [[...]] }")
    for field in table:
        if field not in TABLE_KEYS:
            unknown = unknown_key_error(source, field, TABLE_KEYS, what="printed table field")
            raise _field_error(source, symbol, field, unknown.message)

    def int_list(values: Any, field: str, minimum: int, position: str) -> list[int]:
        if (
            not isinstance(values, list)
            or not values
            or any(isinstance(v, bool) or not isinstance(v, int) or v < minimum for v in values)
        ):
            raise _field_error(
                source, symbol, position, f"table {field} must be a non-empty list of whole numbers >= {minimum}"
            )
        if len(values) > MAX_TABLE_SIDE:
            raise _field_error(
                source,
                symbol,
                position,
                f"table {field} has {len(values)} entries; a printed "
                f"table may have at most {MAX_TABLE_SIDE} ATK rows and {MAX_TABLE_SIDE} DEF columns",
            )
        return values

    atks = int_list(table.get("atk"), "atk", 1, "atk")
    defs = int_list(table.get("def"), "def", 0, "def")
    rows = table.get("life_lost")
    if not isinstance(rows, list) or len(rows) != len(atks):
        raise _field_error(source, symbol, "life_lost", f"table life_lost needs one row per atk ({len(atks)} rows)")
    life_lost = []
    for i, row in enumerate(rows):
        values = int_list(row, f"life_lost row {i + 1}", 0, "life_lost")
        if len(values) != len(defs):
            raise _field_error(
                source, symbol, "life_lost", f"table life_lost row {i + 1} needs one entry per def ({len(defs)})"
            )
        life_lost.append(values)
    hits = None
    if "hits" in table:
        hits = int_list(table["hits"], "hits", 0, "hits")
        if len(hits) != len(atks):
            raise _field_error(source, symbol, "hits", "table hits needs one entry per atk")
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
    if len(rows) > MAX_MAP_SIDE:
        raise source.error(
            f"the map has {len(rows)} rows; a map may have at most {MAX_MAP_SIDE} rows and {MAX_MAP_SIDE} columns",
            line=first_line + MAX_MAP_SIDE,
            column=1,
        )
    for r, row in enumerate(rows):
        if len(row) > MAX_MAP_SIDE:
            raise source.error(
                f"this map row has {len(row)} cells; a map may have at most {MAX_MAP_SIDE} rows "
                f"and {MAX_MAP_SIDE} columns",
                line=first_line + r,
                column=MAX_MAP_SIDE + 1,
            )
    start = None
    goals = []
    things = []
    blockers = 0
    for r, row in enumerate(rows):
        for c, char in enumerate(row):
            position = Position(line=first_line + r, column=c + 1)
            if char == START:
                if start is not None:
                    raise source.error(
                        f"a second start S (the first is at line {first_line + start[0]}, "
                        f"column {start[1] + 1}); a level has exactly one",
                        **position,
                    )
                start = (r, c)
            elif char == GOAL:
                goals.append((r, c))
            elif char in RESERVED:
                continue
            elif char not in legend:
                shown = repr(char) if not char.isprintable() or char.isspace() else f'"{char}"'
                raise source.error(f"unknown map character {shown}: add it to [legend] or use # . S G", **position)
            else:
                entry = dict(legend[char])
                things.append(Thing(symbol=char, cell=(r, c), **entry))
                if len(things) > MAX_OBJECTS:
                    raise source.error(
                        f"more than {MAX_OBJECTS} objects on the map (items, doors and enemies "
                        f"together); a level may have at most {MAX_OBJECTS}",
                        **position,
                    )
                blockers += things[-1].is_blocker
                if blockers > MAX_BLOCKERS:
                    raise source.error(
                        f"more than {MAX_BLOCKERS} doors and enemies on the map; a level may have "
                        f"at most {MAX_BLOCKERS}",
                        **position,
                    )
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
            raise _positioned(
                source, unknown_key_error(source, key, EXPECT_KEYS, table="expect", what="expectation"), key, "expect"
            )
        if wanted is bool and not isinstance(claim, bool):
            raise source.error(f"expect {key} must be true or false", table="expect", key=key)
        if wanted is int:
            claim = expect_int(source, claim, f"expect {key}", table="expect", key=key, minimum=0)
        claims[key] = claim
    return Expectations(**claims)
