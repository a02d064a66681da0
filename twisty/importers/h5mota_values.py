"""The values of an h5mota project, checked where they are read, each refusal placed in its source file.

A tower's files are untrusted input. A floor id becomes a file name (floors/<id>.js, <id>.toml), so it must
be a plain name (`plain_floor_id`). A number twisty takes from a tower must be one it holds as written: a
finite whole number within the level format's range (a decimal factor where the game has one, such as a
floor's ratio), at least the least the model holds (a monster's hp 1, other stats 0); anything else is
refused with its file, line and column (docs/mota.md says why each case is refused rather than changed).
Strings from the files appear in messages only through `shown`: printable and short, whatever they hold.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from twisty.errors import LevelError
from twisty.importers.js_literals import Keys, ProjectFile
from twisty.limits import MAX_NUMBER

# A floor id names two files, floors/<id>.js and <id>.toml (or <first>-<last>.toml for a range): letters,
# digits (of any script), "_", "-" and "."; never first a "." or "-", never "..", and short enough that
# "<first>-<last>.toml" fits a file name (255 bytes on common file systems).
_PLAIN_ID = re.compile(r"\w[\w.-]*")
MAX_ID_BYTES = 120
# Names (of monsters, items, the tower) are shown in the level file and messages at most this long.
MAX_NAME_CHARS = 60
_MISSING = object()


def shown(value: Any, limit: int = 40) -> str:
    """A value from a file as a message shows it: printable, at most `limit` characters."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 128:
        try:
            return f"a number of {len(str(value))} digits"
        except ValueError:  # (past Python's limit on digits converted)
            return f"a number of about {math.floor(value.bit_length() * math.log10(2)) + 1} digits"
    if isinstance(value, float) and not math.isfinite(value):
        return "NaN" if math.isnan(value) else "Infinity" if value > 0 else "-Infinity"  # (as JavaScript writes it)
    text = value[: limit + 1] if isinstance(value, str) else repr(value)[: limit + 1]
    text = "".join(char if char.isprintable() else "?" for char in text)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def described(value: Any) -> str:
    """A value of the wrong kind as a message shows it: a string in quotes ("3"), anything else as written."""
    return f'"{shown(value)}"' if isinstance(value, str) else shown(value)


def plain_floor_id(file: ProjectFile, keys: Keys, value: Any) -> str:
    """A floor id of main.floorIds, refused unless it is a plain name (it becomes a file name)."""
    if not isinstance(value, str):
        raise file.error(f"a floor id in main.floorIds must be a string, not {described(value)}", keys)
    if not _PLAIN_ID.fullmatch(value) or ".." in value or len(value.encode("utf-8", "replace")) > MAX_ID_BYTES:
        raise file.error(
            f'the floor id "{shown(value)}" is not a plain name: a floor id names files (floors/<id>.js, '
            f'<id>.toml), so it may hold letters, digits, "_", "-" and "." only (not first, no ".."), at most '
            f"{MAX_ID_BYTES} bytes",
            keys,
        )
    return value


def display_name(value: Any, fallback: str) -> str:
    """A name to show (a monster's, an item's, the tower's title): printable and at most MAX_NAME_CHARS
    characters; names change no play."""
    if not isinstance(value, str) or not value.strip():
        return fallback
    return shown(value.strip(), MAX_NAME_CHARS)


@dataclass(frozen=True)
class Source:
    """An object of a project file, with where it sits in the file, for reading values with their place."""

    file: ProjectFile
    keys: tuple[str | int, ...]
    value: dict[str, Any]

    @staticmethod
    def of(file: ProjectFile) -> Source:
        return Source(file, (), file.value)

    def get(self, key: str, default: Any = None) -> Any:
        return self.value.get(key, default)

    def error(self, message: str, key: str | int | None = None) -> LevelError:
        return self.file.error(message, self.keys if key is None else (*self.keys, key))

    def table(self, key: str, what: str) -> Source:
        """The object at `key` (empty when missing); anything else there is refused."""
        value = self.value.get(key, _MISSING)
        if value is _MISSING or value is None:
            return Source(self.file, (*self.keys, key), {})
        if not isinstance(value, dict):
            raise self.error(f"{what} must be an object {{...}}, not {described(value)}", key)
        return Source(self.file, (*self.keys, key), value)

    def whole(self, key: str | int, what: str, *, minimum: int = 0, default: int = 0) -> int:
        """A whole number at `key` (`default` when missing), checked by `whole_number`."""
        value = self.value.get(key, _MISSING) if isinstance(key, str) else _MISSING
        if value is _MISSING:
            return default
        return whole_number(self.file, (*self.keys, key), value, what, minimum=minimum)

    def decimal(self, key: str, what: str, *, default: Fraction, minimum: int | None = None) -> Fraction:
        """A number at `key` held exactly as written (0.9 is 9/10), checked by `decimal_number`."""
        value = self.value.get(key, _MISSING)
        if value is _MISSING:
            return default
        return decimal_number(self.file, (*self.keys, key), value, what, minimum=minimum)


def _finite(file: ProjectFile, keys: Keys, value: Any, what: str) -> int | float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise file.error(f"{what} must be a number, not {described(value)}", keys)
    if isinstance(value, float) and not math.isfinite(value):
        raise file.error(f"{what} is {shown(value)}: twisty holds finite numbers only", keys)
    if abs(value) > MAX_NUMBER:
        raise file.error(
            f"{what} is {shown(value)}: beyond the numbers twisty holds (-{MAX_NUMBER:,} to {MAX_NUMBER:,})", keys
        )
    return value


def whole_number(file: ProjectFile, keys: Keys, value: Any, what: str, *, minimum: int = 0) -> int:
    """`value` as a whole number at least `minimum`, else a LevelError at `keys`. A fraction is refused,
    not rounded: the game computes with it, and any rounding would change the fights."""
    number = _finite(file, keys, value, what)
    if number != int(number):
        raise file.error(
            f"{what} is {shown(value)}: twisty holds whole numbers here, and rounding would change the play", keys
        )
    if number < minimum:
        raise file.error(f"{what} is {shown(value)}: it must be at least {minimum} for twisty", keys)
    return int(number)


def decimal_number(file: ProjectFile, keys: Keys, value: Any, what: str, *, minimum: int | None = None) -> Fraction:
    """`value` as an exact fraction (a decimal as written), else a LevelError at `keys`."""
    number = _finite(file, keys, value, what)
    if minimum is not None and number < minimum:
        raise file.error(f"{what} is {shown(value)}: it must be at least {minimum}", keys)
    return Fraction(str(number)) if isinstance(number, float) else Fraction(number)
