"""Reading level files: one positioned error for every kind of bad input.

Every game's loader starts from a `LevelSource` (the file's text and its parsed TOML) and reports problems
as `LevelError`, which carries the file, line and column. The CLI turns a `LevelError` into one message and
exit code 2; nothing that passes through here may raise anything else.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# A level is a page of text; anything larger is a mistake (a wrong file), not a level.
MAX_LEVEL_BYTES = 1 << 20

_TOML_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")
_TOML_END_OF_DOCUMENT = re.compile(r"\s*\(at end of document\)\s*$")


class LevelError(Exception):
    """A problem with a level file, positioned where possible (line and column count from 1)."""

    def __init__(self, message: str, *, path: str | None = None, line: int | None = None,
                 column: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.path = path
        self.line = line
        self.column = column

    def located(self) -> str:
        parts = [self.path or "<level>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)

    def __str__(self) -> str:
        return f"{self.located()}: {self.message}"

    def as_json(self) -> dict[str, Any]:
        return {"line": self.line, "column": self.column, "message": self.message}


@dataclass
class LevelSource:
    """A level file as read: the path as given, its text and its TOML table."""

    path: str
    text: str
    data: dict[str, Any]
    lines: list[str] = field(init=False)

    def __post_init__(self) -> None:
        self.lines = self.text.splitlines()

    @property
    def game(self) -> str:
        return self.data["game"]

    def error(self, message: str, *, line: int | None = None, column: int | None = None,
              table: str | None = None, key: str | None = None) -> LevelError:
        """A LevelError for this file; with `key` (and `table`) the position is looked up in the text."""
        if line is None and key is not None:
            line, column = self.locate_key(key, table)
        return LevelError(message, path=self.path, line=line, column=column)

    def locate_key(self, key: str, table: str | None = None) -> tuple[int | None, int | None]:
        """Line and column of `key = ...` inside `[table]` (top level when table is None).

        TOML keeps no positions, so this scans the text: a key line is `key =`, `"key" =` or `'key' =`,
        and a table starts at `[table]`. Inline tables (`[player]` written as `player = {...}`) are found too.
        """
        current: str | None = None
        quoted = {key, f'"{key}"', f"'{key}'"}
        for number, raw in enumerate(self.lines, start=1):
            stripped = raw.strip()
            header = re.match(r"^\[\s*([^\[\]]+?)\s*\]", stripped)
            if header:
                current = header.group(1)
                continue
            match = re.match(r"^(\s*)(\"[^\"]*\"|'[^']*'|[A-Za-z0-9_\-]+|\S)\s*=", raw)
            if current == table and match and match.group(2) in quoted:
                return number, len(match.group(1)) + 1
            if table is not None and current is None and match and match.group(2) == table:
                # `table = { key = ... }` written inline on one line.
                inline = re.search(r"[{,]\s*(" + "|".join(map(re.escape, quoted)) + r")\s*=", raw)
                if inline:
                    return number, inline.start(1) + 1
                return number, len(match.group(1)) + 1
        if table is not None:
            return self.locate_table(table)
        return None, None

    def locate_table(self, table: str) -> tuple[int | None, int | None]:
        for number, raw in enumerate(self.lines, start=1):
            if re.match(r"^\s*\[\s*" + re.escape(table) + r"\s*\]", raw):
                return number, raw.index("[") + 1
            if re.match(r"^\s*" + re.escape(table) + r"\s*=", raw):
                return number, len(raw) - len(raw.lstrip()) + 1
        return None, None

    def locate_block_string(self, key: str) -> int | None:
        """Line of the first content line of a top-level multi-line string `key = \"\"\"...`.

        TOML drops a newline right after the opening quotes, so content starts on the next line then.
        """
        line, _ = self.locate_key(key)
        if line is None:
            return None
        raw = self.lines[line - 1]
        opening = re.search(r"=\s*(\"\"\"|''')", raw)
        if opening and raw[opening.end():].strip() == "":
            return line + 1
        return line


def read_level(path: str | Path) -> LevelSource:
    """Read and parse a level file; raise LevelError for anything that is not a readable TOML level."""
    shown = str(path)
    file = Path(path)
    try:
        size = file.stat().st_size
        if size > MAX_LEVEL_BYTES:
            raise LevelError(f"file is {size} bytes; a level file may hold at most {MAX_LEVEL_BYTES} bytes",
                             path=shown)
        raw = file.read_bytes()
    except OSError as exc:
        raise LevelError(f"cannot read the file: {exc.strerror or exc}", path=shown) from None
    return parse_level_bytes(raw, shown)


def parse_level_bytes(raw: bytes, shown: str) -> LevelSource:
    if b"\x00" in raw:
        line, column = _position_of(raw, raw.index(b"\x00"))
        raise LevelError("binary data (a NUL byte) where a TOML level was expected", path=shown,
                         line=line, column=column)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = _position_of(raw, exc.start)
        raise LevelError("the file is not UTF-8 text (a TOML level was expected)", path=shown,
                         line=line, column=column) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        found = _TOML_POSITION.search(message)
        if found:
            raise LevelError(f"broken TOML: {message[:found.start()]}", path=shown,
                             line=int(found.group(1)), column=int(found.group(2))) from None
        if _TOML_END_OF_DOCUMENT.search(message):
            last = text.splitlines() or [""]
            raise LevelError(f"broken TOML: {_TOML_END_OF_DOCUMENT.sub('', message)} (at end of file)",
                             path=shown, line=len(last), column=len(last[-1]) + 1) from None
        raise LevelError(f"broken TOML: {message}", path=shown) from None
    source = LevelSource(shown, text, data)
    game = data.get("game")
    if game is None:
        raise LevelError('missing key "game" (for example game = "passages")', path=shown, line=1, column=1)
    if not isinstance(game, str):
        raise source.error('"game" must be a string such as "passages"', key="game")
    return source


def _position_of(raw: bytes, offset: int) -> tuple[int, int]:
    before = raw[:offset]
    line = before.count(b"\n") + 1
    column = offset - (before.rfind(b"\n") + 1) + 1
    return line, column


def expect_int(source: LevelSource, value: Any, what: str, *, table: str | None, key: str,
               minimum: int | None = None) -> int:
    """A whole number from the level (booleans are not numbers here), with a positioned error."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise source.error(f"{what} must be a whole number, not {value!r}", table=table, key=key)
    if minimum is not None and value < minimum:
        raise source.error(f"{what} must be at least {minimum}, not {value}", table=table, key=key)
    return value
