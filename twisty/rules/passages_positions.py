"""Where things are written in a passages level file, and the positioned errors that point there.

TOML keeps no positions, so these scan the text: a key, a legend entry or one of its fields, written in any
of TOML's spellings (a table, an inline table, dotted keys, a [legend.symbol] header).
"""

from __future__ import annotations

import re
from typing import Any

from twisty.rules.source import LevelError, LevelSource

__all__ = ["entry_position", "field_error", "legend_int", "positioned", "table_of"]


def positioned(source: LevelSource, error: LevelError, key: str, table: str | None = None) -> LevelError:
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


def table_of(source: LevelSource, value: Any, key: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise source.error(f'"{key}" must be a table ([{key}])', key=key)
    return value


def entry_position(source: LevelSource, symbol: str, field: str | None = None) -> tuple[int | None, int | None]:
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


def field_error(source: LevelSource, symbol: str, field: str, message: str) -> LevelError:
    """An error inside legend entry `symbol`, pointing at its `field =` where that is written."""
    line, column = entry_position(source, symbol, field)
    return source.error(f'legend "{symbol}": {message}', line=line, column=column)


def legend_int(source: LevelSource, symbol: str, entry: dict, field: str, minimum: int, default: int | None = 0) -> int:
    value = entry.get(field, default)
    if value is None:
        raise field_error(source, symbol, field, f"{entry['kind']} needs {field} = ...")
    if isinstance(value, bool) or not isinstance(value, int):
        raise field_error(source, symbol, field, f"{field} must be a whole number, not {value!r}")
    if value < minimum:
        raise field_error(source, symbol, field, f"{field} must be at least {minimum}, not {value}")
    return value
