"""Loading Twisty Little Passages levels from TOML (the format of docs/passages.md).

Every problem becomes one `LevelError` naming the file, line and column: a misspelt key is an error that
names the keys expected (a typo such as `atck = 2` must not silently become "atk 0"), and a level beyond
the input limits below is refused while it is read, before any engine sees it.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import replace
from typing import Any

from twisty.limits import Deadline
from twisty.rules.passages import (
    COLOURS,
    GOAL,
    KINDS,
    RESERVED,
    START,
    Cell,
    Enemy,
    Expectations,
    PassagesLevel,
    Stats,
    Thing,
    TowerStats,
    fight_damage,
    hits_received,
    table_mismatch,
)
from twisty.rules.passages_format_tower import (
    COLOUR_KEYS,
    ENEMY_TOWER_FIELDS,
    STAIRS,
    WINS,
    Marks,
    check_shop_cells,
    enemy_tower_fields,
    load_floors,
    load_shop,
    shop_from_start,
    start_and_goals,
)
from twisty.rules.passages_positions import field_error, legend_int, positioned, table_of
from twisty.rules.passages_tables import Entry, infer_enemy_stats
from twisty.rules.passages_tower import with_optional_items
from twisty.rules.source import LevelError, LevelSource, Position, expect_int, unknown_key_error

TOP_KEYS = {"game", "name", "description", "map", "floor", "player", "legend", "shop", "win", "expect"}
PLAYER_KEYS = {"hp", "atk", "def", "keys", "mdef", "money", *COLOUR_KEYS}
LEGEND_KINDS = (*KINDS, STAIRS)
EXPECT_KEYS = {
    "solvable": bool,
    "final_hp": int,
    "unique": bool,
    "min_start_hp": int,
    "solutions": int,
    "optimal_solutions": int,
}
FIELDS_BY_KIND = {
    "key": {"kind", "name", "colour"},
    "door": {"kind", "name", "colour"},
    "elixir": {"kind", "name", "hp"},
    "equipment": {"kind", "name", "atk", "def", "mdef"},
    "enemy": {"kind", "name", "hp", "atk", "def", "boss", "first_strike", "table", *ENEMY_TOWER_FIELDS},
    "shop": {"kind", "name"},
    STAIRS: {"kind", "name", "direction"},
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
            raise positioned(source, unknown_key_error(source, key, TOP_KEYS), key)
    win = data.get("win", "goal")
    if win not in WINS:
        raise source.error(f'"win" must be "goal" (reach a G) or "boss" (defeat a boss), not {win!r}', key="win")
    player = _load_player(source, data.get("player"))
    legend = _load_legend(source, data.get("legend", {}), deadline)
    shop = load_shop(source, data.get("shop"))
    if "floor" in data:
        if "map" in data:
            raise source.error('a level has one map = """...""" or floors ([[floor]]), not both', key="map")
        grid, floors, links, marks, things = load_floors(source, data["floor"], legend, _load_map)
    else:
        grid, marks, things, stairs = _load_map(source, data.get("map"), legend, source.locate_block_string("map"))
        if stairs:
            raise source.error("stairs join floors: a level with stairs gives its maps as [[floor]]", **stairs[0][2])
        floors, links = (), ()
    start, goals, guards, things = start_and_goals(source, win, marks, things)
    from_start = shop is not None and shop_from_start(source, data.get("shop"))
    check_shop_cells(source, shop, things, marks, from_start)
    expect = _load_expect(source, data.get("expect", {}))
    name = data.get("name", "")
    description = data.get("description", "")
    for key, value in (("name", name), ("description", description)):
        if not isinstance(value, str):
            raise source.error(f'"{key}" must be a string', key=key)
    level = PassagesLevel(
        grid, start, goals, tuple(things), player, name, description, expect, floors, links, shop, guards
    )
    needs_tower_stats = shop is not None or any(
        thing.colour or thing.mdef or (thing.enemy is not None and thing.enemy.money) for thing in things
    )
    if needs_tower_stats and type(player) is Stats:
        level = replace(level, player=TowerStats(player.hp, player.atk, player.defense, player.keys))
    if from_start:
        assert isinstance(level.player, TowerStats)  # (a level with a shop has the tower's stats)
        level = replace(level, player=replace(level.player, shopping=True))
    return with_optional_items(level)


def _load_player(source: LevelSource, value: Any) -> Stats:
    if value is None:
        raise source.error("missing [player] table (at least hp = ...)", line=1, column=1)
    table = table_of(source, value, "player")
    for key in table:
        if key not in PLAYER_KEYS:
            raise positioned(
                source, unknown_key_error(source, key, PLAYER_KEYS, table="player", what="player stat"), key, "player"
            )
    if "hp" not in table:
        raise source.error("the player needs a starting hp (hp = ...)", table="player", key="hp")
    hp = expect_int(source, table["hp"], "player hp", table="player", key="hp", minimum=1)
    stats = {
        name: expect_int(source, table.get(name, 0), f"player {name}", table="player", key=name, minimum=0)
        for name in sorted(PLAYER_KEYS - {"hp"})
    }
    if not any(name in table for name in ("mdef", "money", *COLOUR_KEYS)):
        return Stats(hp, stats["atk"], stats["def"], stats["keys"])
    coloured = tuple(stats[f"{colour}_keys"] for colour in COLOURS)
    return TowerStats(hp, stats["atk"], stats["def"], stats["keys"], stats["mdef"], stats["money"], coloured)


def _load_legend(source: LevelSource, value: Any, deadline: Deadline | None) -> dict[str, dict]:
    table = table_of(source, value, "legend")
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
        if kind not in LEGEND_KINDS:
            close = difflib.get_close_matches(kind, LEGEND_KINDS, n=1, cutoff=0.6) if isinstance(kind, str) else []
            hint = f' (did you mean "{close[0]}"?)' if close else ""
            said = "needs a kind" if kind is None else f"unknown kind {kind!r}"
            raise field_error(source, symbol, "kind", f"{said}{hint}; kinds: {', '.join(LEGEND_KINDS)}")
        for field in entry:
            if field not in FIELDS_BY_KIND[kind]:
                unknown = unknown_key_error(source, field, FIELDS_BY_KIND[kind], what=f"{kind} field")
                raise field_error(source, symbol, field, unknown.message)
        legend[symbol] = _load_entry(source, symbol, entry, deadline)
    return legend


def _load_entry(source: LevelSource, symbol: str, entry: dict, deadline: Deadline | None) -> dict:
    kind = entry["kind"]
    name = entry.get("name", kind)
    if not isinstance(name, str):
        raise field_error(source, symbol, "name", "name must be a string")
    if kind == "elixir":
        return {"kind": kind, "name": name, "hp": legend_int(source, symbol, entry, "hp", 1, None)}
    if kind == "equipment":
        atk = legend_int(source, symbol, entry, "atk", 0)
        defense = legend_int(source, symbol, entry, "def", 0)
        mdef = legend_int(source, symbol, entry, "mdef", 0)
        if atk == 0 and defense == 0 and mdef == 0:
            raise field_error(source, symbol, "kind", "equipment must raise atk, def or mdef (atk = ..., def = ...)")
        return {"kind": kind, "name": name, "atk": atk, "defense": defense, "mdef": mdef}
    if kind in ("key", "door"):
        colour = entry.get("colour", "")
        if colour not in ("", *COLOURS):
            raise field_error(source, symbol, "colour", f"colour must be one of {', '.join(COLOURS)}, not {colour!r}")
        return {"kind": kind, "name": name, "colour": colour}
    if kind == STAIRS:
        direction = entry.get("direction")
        if direction not in ("up", "down"):
            raise field_error(source, symbol, "direction", f'stairs need direction = "up" or "down", not {direction!r}')
        return {"kind": kind, "direction": direction}
    if kind != "enemy":
        return {"kind": kind, "name": name}
    return {"kind": kind, "enemy": _load_enemy(source, symbol, entry, name, deadline)}


def _load_enemy(source: LevelSource, symbol: str, entry: dict, name: str, deadline: Deadline | None) -> Enemy:
    flags: dict[str, Any] = {}
    for flag in ("boss", "first_strike"):
        value = entry.get(flag, False)
        if not isinstance(value, bool):
            raise field_error(source, symbol, flag, f"{flag} must be true or false")
        flags[flag] = value
    tower = enemy_tower_fields(source, symbol, entry)
    if tower.pop("first_strike", False):
        flags["first_strike"] = True
    if tower and "table" in entry:
        raise field_error(source, symbol, "table", "a printed table is for enemies without tower specials or money")
    if tower:
        flags |= tower
    has_stats = any(field in entry for field in ("hp", "atk", "def"))
    table = entry.get("table")
    if not has_stats and table is None:
        raise field_error(source, symbol, "kind", "an enemy needs hp, atk and def, or a printed table")
    enemy = None
    if has_stats:
        enemy = Enemy(
            name,
            legend_int(source, symbol, entry, "hp", 1, None),
            legend_int(source, symbol, entry, "atk", 0, None),
            legend_int(source, symbol, entry, "def", 0, None),
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
    error = field_error(source, symbol, "table", message)
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
        raise field_error(source, symbol, "table", "table must be { atk = [...], def = [...], life_lost = [[...]] }")
    for field in table:
        if field not in TABLE_KEYS:
            unknown = unknown_key_error(source, field, TABLE_KEYS, what="printed table field")
            raise field_error(source, symbol, field, unknown.message)

    def int_list(values: Any, field: str, minimum: int, position: str) -> list[int]:
        if (
            not isinstance(values, list)
            or not values
            or any(isinstance(v, bool) or not isinstance(v, int) or v < minimum for v in values)
        ):
            raise field_error(
                source, symbol, position, f"table {field} must be a non-empty list of whole numbers >= {minimum}"
            )
        if len(values) > MAX_TABLE_SIDE:
            raise field_error(
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
        raise field_error(source, symbol, "life_lost", f"table life_lost needs one row per atk ({len(atks)} rows)")
    life_lost = []
    for i, row in enumerate(rows):
        values = int_list(row, f"life_lost row {i + 1}", 0, "life_lost")
        if len(values) != len(defs):
            raise field_error(
                source, symbol, "life_lost", f"table life_lost row {i + 1} needs one entry per def ({len(defs)})"
            )
        life_lost.append(values)
    hits = None
    if "hits" in table:
        hits = int_list(table["hits"], "hits", 0, "hits")
        if len(hits) != len(atks):
            raise field_error(source, symbol, "hits", "table hits needs one entry per atk")
    return atks, defs, life_lost, hits


def _load_map(
    source: LevelSource,
    value: Any,
    legend: dict[str, dict],
    first_line: int | None,
    row_offset: int = 0,
    earlier: list[Thing] | None = None,
    marks: Marks | None = None,
):
    """One map (of the level, or of a floor whose rows start at `row_offset` on the stacked grid): its rows,
    the S and G marks (added to `marks`), its objects and its stairs. `earlier` are the objects of the floors
    before, which count towards the limits."""
    key = "map" if row_offset == 0 and "floor" not in source.data else "floor"
    if value is None:
        if key == "floor":
            raise source.error('a floor needs a map (map = """ ... """)', key="floor")
        raise source.error('missing the map (map = """ ... """)', line=1, column=1)
    if not isinstance(value, str):
        raise source.error("the map must be a multi-line string", key=key)
    first_line = first_line or 1
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
    marks = {START: [], GOAL: []} if marks is None else marks
    earlier = earlier or []
    things: list[Thing] = []
    stairs: list[tuple[str, Cell, Position]] = []
    blockers = sum(thing.is_blocker for thing in earlier)
    for r, row in enumerate(rows):
        for c, char in enumerate(row):
            position = Position(line=first_line + r, column=c + 1)
            cell = (row_offset + r, c)
            if char == START:
                if marks[START]:
                    first = marks[START][0][1]
                    raise source.error(
                        f"a second start S (the first is at line {first['line']}, "
                        f"column {first['column']}); a level has exactly one",
                        **position,
                    )
                marks[START].append((cell, position))
            elif char == GOAL:
                marks[GOAL].append((cell, position))
            elif char in RESERVED:
                continue
            elif char not in legend:
                shown = repr(char) if not char.isprintable() or char.isspace() else f'"{char}"'
                raise source.error(f"unknown map character {shown}: add it to [legend] or use # . S G", **position)
            elif legend[char]["kind"] == STAIRS:
                stairs.append((legend[char]["direction"], cell, position))
            else:
                entry = dict(legend[char])
                things.append(Thing(symbol=char, cell=cell, **entry))
                if len(earlier) + len(things) > MAX_OBJECTS:
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
    return tuple(rows), marks, things, stairs


def _load_expect(source: LevelSource, value: Any) -> Expectations:
    table = table_of(source, value, "expect")
    claims = {}
    for key, claim in table.items():
        wanted = EXPECT_KEYS.get(key)
        if wanted is None:
            raise positioned(
                source, unknown_key_error(source, key, EXPECT_KEYS, table="expect", what="expectation"), key, "expect"
            )
        if wanted is bool and not isinstance(claim, bool):
            raise source.error(f"expect {key} must be true or false", table="expect", key=key)
        if wanted is int:
            claim = expect_int(source, claim, f"expect {key}", table="expect", key=key, minimum=0)
        claims[key] = claim
    return Expectations(**claims)
