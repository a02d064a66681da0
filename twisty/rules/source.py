"""Reading level files: one positioned error for every kind of bad input.

Every game's loader starts from a `LevelSource` (the file's text and its parsed TOML) and reports problems
as `LevelError`, which carries the file, line and column. The CLI turns a `LevelError` into one message and
exit code 2; nothing that passes through here may raise anything else.
"""

from __future__ import annotations

import difflib
import os
import re
import stat
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypedDict

from twisty.errors import LevelError
from twisty.limits import MAX_KEY_LENGTH, MAX_KEY_PARTS, MAX_LEVEL_BYTES, MAX_NESTING, MAX_NUMBER

__all__ = [
    "LevelError",
    "LevelSource",
    "read_level",
    "read_level_bytes",
    "read_regular_file",
    "parse_level_bytes",
    "expect_int",
    "unknown_key_error",
    "MAX_LEVEL_BYTES",
]

_TOML_POSITION = re.compile(r"\s*\(at line (\d+), column (\d+)\)\s*$")
_TOML_END_OF_DOCUMENT = re.compile(r"\s*\(at end of document\)\s*$")


class Position(TypedDict):
    """A place in a level file, as keyword arguments of `LevelSource.error`."""

    line: int | None
    column: int | None


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

    def error(
        self,
        message: str,
        *,
        line: int | None = None,
        column: int | None = None,
        table: str | None = None,
        key: str | None = None,
    ) -> LevelError:
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

    def locate_number(self, value: int) -> tuple[int | None, int | None]:
        """Line and column of the first whole number in the text equal to `value` (written in decimal,
        with or without a sign or underscores), for a number whose key cannot be located."""
        for number, raw in enumerate(self.lines, start=1):
            for found in re.finditer(r"[+-]?[0-9][0-9_]*", raw):
                try:
                    if int(found.group().replace("_", "")) == value:
                        return number, found.start() + 1
                except ValueError:
                    continue
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
        if opening and raw[opening.end() :].strip() == "":
            return line + 1
        return line


_FILE_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def read_level(path: str | Path) -> LevelSource:
    """Read and parse a level file; raise LevelError for anything that is not a readable TOML level."""
    return parse_level_bytes(read_level_bytes(path), str(path))


def read_level_bytes(path: str | Path) -> bytes:
    """The bytes of a level file (parse them with parse_level_bytes); LevelError when it cannot be read.

    Only regular files are levels: a FIFO would block for ever and a device would never end, so the file
    is opened without blocking and its kind is checked on the open file before a byte is read; at most
    MAX_LEVEL_BYTES are read."""
    return read_regular_file(
        path,
        limit=MAX_LEVEL_BYTES,
        kind="a level file",
        too_large=(
            f"the file holds more than {MAX_LEVEL_BYTES} bytes; a level file may hold at most "
            f"{MAX_LEVEL_BYTES} (a level is a page of text: is this the right file?)"
        ),
    )


def read_regular_file(
    path: str | Path, *, limit: int, kind: str, too_large: str, inside: str | Path | None = None
) -> bytes:
    """The bytes of a file that every command reads the same way: a regular file only (a FIFO would block
    for ever and a device never end: the file is opened without blocking and its kind is checked on the
    open file before a byte is read), its size checked before reading and at most `limit` bytes read
    (`too_large` is the message past it; `kind` names what was expected, "a level file"). With `inside`,
    a folder, the file must lie inside it once every symbolic link is followed: a file named by another
    file's contents (an h5mota floor) may not lead out of the folder the user named. Every problem is one
    LevelError naming the file."""
    shown = str(path)
    target: str | Path = path
    root = None
    if inside is not None:
        root = os.path.realpath(inside)
        target = os.path.realpath(path)
        if not _within(target, root):
            raise LevelError(_outside_message(path, root), path=shown)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | (getattr(os, "O_NOFOLLOW", 0) if root else 0)
    try:
        handle = os.open(target, flags)
    except OSError as exc:
        raise LevelError(f"cannot read the file: {exc.strerror or exc}", path=shown) from None
    try:
        if root is not None:
            opened = _opened_path(handle)  # (what was opened, should a folder on the way have changed since)
            if opened is not None and not _within(opened, root):
                raise LevelError(_outside_message(path, root), path=shown)
        status = os.fstat(handle)
        if not stat.S_ISREG(status.st_mode):
            found = next((name for test, name in _FILE_KINDS if test(status.st_mode)), "not a regular file")
            raise LevelError(f"this is {found}, not {kind} (only regular files are read)", path=shown)
        if status.st_size > limit:  # (refused before a byte is read; the loop below holds for a growing file)
            raise LevelError(too_large, path=shown)
        chunks: list[bytes] = []
        size = 0
        while size <= limit:
            chunk = os.read(handle, limit + 1 - size)
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise LevelError(f"cannot read the file: {exc.strerror or exc}", path=shown) from None
    finally:
        os.close(handle)
    if size > limit:
        raise LevelError(too_large, path=shown)
    return b"".join(chunks)


def _within(path: str, root: str) -> bool:
    return path == root or path.startswith(root.rstrip(os.sep) + os.sep)


def _outside_message(path: str | Path, root: str) -> str:
    how = "a symbolic link that leads" if os.path.islink(path) else "a path that leads (through a symbolic link)"
    return f"{how} out of the folder {root}; refused: only files inside the folder named are read"


def _opened_path(handle: int) -> str | None:
    """The path of an open file as the system sees it (Linux's /proc), or None where it cannot tell."""
    try:
        return os.readlink(f"/proc/self/fd/{handle}")
    except OSError:
        return None


def parse_level_bytes(raw: bytes, shown: str) -> LevelSource:
    """Parse a level's bytes (as read from `shown`): UTF-8 TOML within the input limits, with a string
    `game`. Every problem is one positioned LevelError."""
    if len(raw) > MAX_LEVEL_BYTES:
        raise LevelError(f"the text holds {len(raw)} bytes; a level may hold at most {MAX_LEVEL_BYTES}", path=shown)
    if b"\x00" in raw:
        line, column = _position_of(raw, raw.index(b"\x00"))
        raise LevelError(
            "binary data (a NUL byte) where a TOML level was expected", path=shown, line=line, column=column
        )
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = _position_of(raw, exc.start)
        raise LevelError(
            "the file is not UTF-8 text (a TOML level was expected)", path=shown, line=line, column=column
        ) from None
    if text.startswith("\ufeff"):
        text = text[1:]
    _check_structure(text, shown)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        message = str(exc)
        found = _TOML_POSITION.search(message)
        if found:
            raise LevelError(
                f"broken TOML: {message[: found.start()]}",
                path=shown,
                line=int(found.group(1)),
                column=int(found.group(2)),
            ) from None
        if _TOML_END_OF_DOCUMENT.search(message):
            last = text.splitlines() or [""]
            raise LevelError(
                f"broken TOML: {_TOML_END_OF_DOCUMENT.sub('', message)} (at end of file)",
                path=shown,
                line=len(last),
                column=len(last[-1]) + 1,
            ) from None
        raise LevelError(f"broken TOML: {message}", path=shown) from None
    except RecursionError:  # (the structure check keeps nesting far below this; a safety net)
        raise LevelError(f"values nested too deeply (at most {MAX_NESTING} levels)", path=shown) from None
    source = LevelSource(shown, text, data)
    _check_numbers(source)
    game = data.get("game")
    if game is None:
        raise LevelError('missing key "game" (for example game = "passages")', path=shown, line=1, column=1)
    if not isinstance(game, str):
        raise source.error('"game" must be a string such as "passages"', key="game")
    return source


def _check_structure(text: str, shown: str) -> None:
    """Refuse, before the TOML reader sees it, text nested deeper than MAX_NESTING or with keys longer
    than MAX_KEY_LENGTH or of more than MAX_KEY_PARTS parts (module twisty.limits says why). A light scan
    in one pass: it skips strings and comments, counts the brackets of values, and reads each key where a
    key may stand (at the start of a line outside brackets, in a [table] header, after `{` or `,` inside an
    inline table). Text it misreads is broken TOML, which the reader then reports."""
    length = len(text)
    stack: list[str] = []
    at = 0
    line_start = True  # nothing but blanks since the last newline (outside brackets)
    key_expected = True

    def fail(message: str, offset: int) -> None:
        line = text.count("\n", 0, offset) + 1
        column = offset - (text.rfind("\n", 0, offset) + 1) + 1
        raise LevelError(message, path=shown, line=line, column=column)

    def skip_string(offset: int) -> int:
        """The offset just past the string that starts at `offset` (or the end of the line if unclosed)."""
        quote = text[offset]
        if text.startswith(quote * 3, offset):
            end = offset + 3
            while True:
                end = text.find(quote * 3, end)
                if end < 0:
                    return length
                if quote == "'" or not _escaped(text, end):
                    end += 3
                    while end < length and text[end] == quote:  # up to two quotes may end the string
                        end += 1
                    return end
                end += 1
        end = offset + 1
        while end < length and text[end] != "\n":
            if text[end] == "\\" and quote == '"':
                end += 2
                continue
            if text[end] == quote:
                return end + 1
            end += 1
        return end

    def read_key(offset: int) -> int:
        """Check the key (or the name in a header) that starts at `offset`; return where it ends."""
        parts = 0
        while True:
            while offset < length and text[offset] in " \t":
                offset += 1
            begin = offset
            if offset < length and text[offset] in "\"'":
                offset = skip_string(offset)
                size = offset - begin - 2
            else:
                while offset < length and (text[offset].isalnum() or text[offset] in "_-"):
                    offset += 1
                size = offset - begin
            parts += 1
            if size > MAX_KEY_LENGTH:
                fail(f"a key of {size} characters; keys may hold at most {MAX_KEY_LENGTH}", begin)
            if parts > MAX_KEY_PARTS:
                fail(f"a dotted key of more than {MAX_KEY_PARTS} parts (at most {MAX_KEY_PARTS})", begin)
            while offset < length and text[offset] in " \t":
                offset += 1
            if offset < length and text[offset] == "." and size > 0:
                offset += 1
                continue
            return offset

    while at < length:
        char = text[at]
        if char == "\n":
            at += 1
            line_start = not stack
            key_expected = line_start
            continue
        if char in " \t\r":
            at += 1
            continue
        if char == "#":
            newline = text.find("\n", at)
            at = length if newline < 0 else newline
            continue
        if key_expected and char not in "[]{}":
            at = read_key(at)
            key_expected = False
            line_start = False
            continue
        if char == "[" and line_start and not stack:
            at = read_key(at + (2 if text.startswith("[[", at) else 1))
            line_start = key_expected = False
            continue
        line_start = key_expected = False
        if char in "\"'":
            at = skip_string(at)
            continue
        if char in "[{":
            stack.append(char)
            if len(stack) > MAX_NESTING:
                fail(f"values nested more than {MAX_NESTING} deep (at most {MAX_NESTING})", at)
            key_expected = char == "{"
        elif char in "]}":
            if stack:
                stack.pop()
        elif char == "," and stack and stack[-1] == "{":
            key_expected = True
        at += 1


def _position_of(raw: bytes, offset: int) -> tuple[int, int]:
    before = raw[:offset]
    line = before.count(b"\n") + 1
    column = offset - (before.rfind(b"\n") + 1) + 1
    return line, column


def _escaped(text: str, offset: int) -> bool:
    """Whether the character at `offset` follows an odd number of backslashes."""
    count = 0
    while offset - count - 1 >= 0 and text[offset - count - 1] == "\\":
        count += 1
    return count % 2 == 1


def _check_numbers(source: LevelSource) -> None:
    """Every whole number in a level lies within +-MAX_NUMBER (twisty.limits says why). A walk without
    recursion, so that it holds for any nesting the reader accepted."""
    pending: list[tuple[str | None, str, Any]] = [(None, key, value) for key, value in source.data.items()]
    while pending:
        table, key, value = pending.pop()
        if isinstance(value, dict):
            inner = key if table is None else f"{table}.{key}"
            pending.extend((inner, k, v) for k, v in value.items())
        elif isinstance(value, list):
            pending.extend((table, key, item) for item in value)
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_NUMBER:
            message = (
                f"the number {value} is out of range: numbers in a level lie within -{MAX_NUMBER:,} to {MAX_NUMBER:,}"
            )
            line, column = source.locate_key(key, table)
            if line is None:
                line, column = source.locate_number(value)
            raise source.error(message, line=line, column=column)


def expect_int(
    source: LevelSource,
    value: Any,
    what: str,
    *,
    table: str | None,
    key: str,
    minimum: int | None = None,
    maximum: int = MAX_NUMBER,
) -> int:
    """A whole number from the level (booleans are not numbers here), with a positioned error."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise source.error(f"{what} must be a whole number, not {_shown(value)}", table=table, key=key)
    if minimum is not None and value < minimum:
        raise source.error(f"{what} must be at least {minimum}, not {value}", table=table, key=key)
    if value > maximum:
        raise source.error(f"{what} must be at most {maximum:,}, not {value}", table=table, key=key)
    return value


def _shown(value: Any) -> str:
    """A value as a message shows it: short, whatever its size."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def unknown_key_error(
    source: LevelSource, key: str, allowed: Iterable[str], *, table: str | None = None, what: str = "key"
) -> LevelError:
    """The positioned error for a key a format does not know: it names the key, the keys expected and,
    when one is close, the one probably meant."""
    expected = sorted(allowed)
    close = difflib.get_close_matches(key, expected, n=1, cutoff=0.6)
    hint = f' (did you mean "{close[0]}"?)' if close else ""
    where = f" in [{table}]" if table else ""
    return source.error(
        f'unknown {what} "{key}"{where}{hint}; expected one of: {", ".join(expected)}', table=table, key=key
    )
