"""Reading the object literals of h5mota's project files without running JavaScript.

Each file of an h5mota project (mota-js 2.x) is one assignment, `main.floors.MT1 = {...}` or
`var data_... = {...}`, whose value is an object literal in JSON5 syntax (quoted or bare keys, trailing
commas, comments; code only ever inside strings). The literal is read with the `pyjson5` package, a
well-kept JSON5 reader compiled with Cython (linear: a 4 MiB file in a fraction of a second, docs/mota.md);
the assignment before it is read here by a small lexer. JSON5 keeps no positions, so a value found wrong
later is placed in its file by `ProjectFile.error`, which walks the text to it (only when there is an error
to report). Item effects are code in strings (`core.status.hero.atk += core.values.redGem * ratio`); the few
forms towers use are read by `read_effect`, and anything else is reported as not understood, never run.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import pyjson5

from twisty.errors import LevelError
from twisty.limits import Deadline
from twisty.rules.source import read_regular_file

# A project file larger than this is not a tower's data (a 50-floor tower's largest is a few tens of kB).
MAX_FILE_BYTES = 4 * 1024 * 1024
# Objects and arrays inside each other in one file. A floor's events nest two levels per `if` inside an
# `if` (an object and its list of actions) below the three of the floor itself; 100 leaves room for 48
# nested conditions, far beyond any tower, and keeps every walk over the values well within Python's stack.
MAX_JS_NESTING = 100
# Brackets inside each other in one item effect; real effects have one or two.
MAX_EFFECT_NESTING = 32
# Digits of one number in an item effect, and the size of any value an effect computes on the way: far
# beyond any tower (stats lie within +-10^9), small enough that arithmetic on them stays instant.
MAX_EFFECT_DIGITS = 30
MAX_EFFECT_VALUE = 10**30
_NEAR = re.compile(r"near (\d+)")
_NEAR_WORDS = re.compile(r" (?:starting )?near \d+")
_BYTES_WORD = re.compile(r"b'([A-Za-z0-9_]+)'")
_CODE_POINT = re.compile(r"U\+([0-9A-Fa-f]{4,6})")
_WORDS = {"JSON5Value": "a value", "comma": "','", "IdentifierStart": "a key", "IdentifierPart": "a key"}
# A key path inside a file's literal: object keys and array indices.
Keys = Sequence[str | int]


@dataclass
class ProjectFile:
    """One project file as read: the path shown in messages, its text, where its literal starts, and the
    literal's value."""

    path: str
    text: str
    start: int
    value: dict[str, Any]

    def position(self, keys: Keys) -> tuple[int, int]:
        """Line and column (from 1) of the value at `keys`, else of the nearest enclosing value found."""
        for length in range(len(keys), -1, -1):
            offset = locate(self.text, self.start, keys[:length])
            if offset is not None:
                return line_and_column(self.text, offset)
        return line_and_column(self.text, self.start)

    def error(self, message: str, keys: Keys) -> LevelError:
        """A LevelError at the value `keys` names in this file."""
        line, column = self.position(keys)
        return LevelError(message, path=self.path, line=line, column=column)


def read_object_file(path: Path, *, inside: Path, deadline: Deadline | None = None) -> ProjectFile:
    """A project file and the object literal it assigns. The file is read as every file twisty reads is (a
    regular file, at most MAX_FILE_BYTES, opened without blocking) and must lie inside the folder `inside`
    once symbolic links are followed. Every problem is a LevelError with the file, line and column."""
    shown = str(path)
    if not path.exists() and not path.is_symlink():
        raise LevelError("missing (an h5mota project has it)", path=shown)
    raw = _project_bytes(path, inside, deadline)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        before = raw[: error.start]
        line = before.count(b"\n") + 1
        column = len(before[before.rfind(b"\n") + 1 :].decode("utf-8", "replace")) + 1
        raise LevelError("not UTF-8 text", path=shown, line=line, column=column) from None
    start = literal_start(text, shown)
    try:
        value = pyjson5.decode(text[start:], maxdepth=MAX_JS_NESTING, some=True)
    except pyjson5.Json5DecoderException as error:
        raise _decode_error(error, text, start, shown) from None
    except (ValueError, RecursionError, MemoryError) as error:  # (pyjson5 holds these off; a safety net)
        raise LevelError(f"not an object literal: {type(error).__name__}", path=shown) from None
    if deadline is not None:
        deadline.check()
    if not isinstance(value, dict):
        line, column = line_and_column(text, start)
        raise LevelError("the value assigned is not an object literal {...}", path=shown, line=line, column=column)
    return ProjectFile(shown, text, start, value)


def read_code_text(path: Path, *, inside: Path, deadline: Deadline | None = None) -> str:
    """The text of a project file of code (plugins.js, functions.js), read only to find names in it (never
    run), within the same limits and inside the project folder as the object files; "" when the file is
    not there. Bytes that are not UTF-8 are read as replacement characters (nothing is parsed from them)."""
    if not path.exists() and not path.is_symlink():
        return ""
    return _project_bytes(path, inside, deadline).decode("utf-8", "replace")


def _project_bytes(path: Path, inside: Path, deadline: Deadline | None) -> bytes:
    """A project file's bytes, read as every file twisty reads (a regular file within MAX_FILE_BYTES,
    inside the folder `inside`); the deadline polled after."""
    raw = read_regular_file(
        path,
        limit=MAX_FILE_BYTES,
        kind="an h5mota project file",
        too_large=f"larger than {MAX_FILE_BYTES} bytes: not an h5mota project file",
        inside=inside,
    )
    if deadline is not None:
        deadline.check()
    return raw


def _decode_error(error: Exception, text: str, start: int, shown: str) -> LevelError:
    """pyjson5's error as one positioned message. It gives an offset "near" the fault: the fault itself for
    trailing data, one past it otherwise."""
    message = str(error.args[0]) if error.args else str(error)
    near = _NEAR.search(message)
    offset = start
    if near is not None:
        offset = start + max(0, int(near.group(1)) - (0 if isinstance(error, pyjson5.Json5ExtraData) else 1))
        offset = min(offset, len(text))
    if isinstance(error, pyjson5.Json5NestingTooDeep):
        what = f"values nested more than {MAX_JS_NESTING} deep (at most {MAX_JS_NESTING})"
    elif "NumericLiteral" in message:
        what = "a number that cannot be read (too many digits, or beyond the range of numbers)"
    elif isinstance(error, pyjson5.Json5EOF):
        what = "the file ends inside the literal"
    else:  # pyjson5's words, made plain: "Expected b'comma' or U+005d near 10, found U+0032"
        what = _NEAR_WORDS.sub("", message)
        what = _BYTES_WORD.sub(lambda found: _WORDS.get(found.group(1), found.group(1)), what)
        what = _CODE_POINT.sub(lambda found: repr(chr(int(found.group(1), 16))), what)
        what = what[:1].lower() + what[1:]
    line, column = line_and_column(text, offset)
    return LevelError(f"not an object literal: {what}", path=shown, line=line, column=column)


def line_and_column(text: str, offset: int) -> tuple[int, int]:
    """Line and column (from 1, in characters) of `offset` in `text`."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


_TOKEN = re.compile(
    r"""(?P<blank>\s+)
    |(?P<comment>//[^\n]*|/\*.*?(?:\*/|\Z))
    |(?P<string>"(?:[^"\\\n]|\\.|\\\n)*"?|'(?:[^'\\\n]|\\.|\\\n)*'?)
    |(?P<mark>[{}\[\]:,])
    |(?P<word>[^\s{}\[\]:,"'/]+|/)""",
    re.S | re.X,
)


def locate(text: str, start: int, keys: Keys) -> int | None:
    """The offset of the value at `keys` (object keys and array indices) in the literal at `start`, or None.
    One pass over the tokens of a literal already read whole, without recursion: cheap enough for the one
    error it serves."""
    wanted = list(keys)
    path: list[str | int] = []  # an array's index; an object's key once read
    frames: list[list[str]] = []  # [bracket, state]; state: "key", "colon", "value" or "after"
    for token in _TOKEN.finditer(text, start):
        kind = token.lastgroup
        if kind in ("blank", "comment"):
            continue
        word = token.group()
        if not frames and word != "{":
            return None
        if frames:
            frame = frames[-1]
            bracket, state = frame
            if word in ("}", "]"):
                if bracket == "[" or state == "after":
                    path.pop()
                frames.pop()
                if not frames:
                    return None
                frames[-1][1] = "after"
                continue
            if state == "key":
                path.append(_key_of(word) if kind == "string" else word)
                frame[1] = "colon"
                continue
            if state == "colon":
                frame[1] = "value"
                continue
            if state == "after":
                if word == ",":
                    frame[1] = "key" if bracket == "{" else "value"
                    if bracket == "{":
                        path.pop()
                    else:
                        path[-1] = int(path[-1]) + 1
                continue
        # A value starts here, at `path`.
        if path == wanted:
            return token.start()
        if frames:
            frames[-1][1] = "after"
        if word in ("{", "["):
            frames.append([word, "key" if word == "{" else "value"])
            if word == "[":
                path.append(0)
    return None


def _key_of(token: str) -> str:
    try:
        key = pyjson5.decode(token)
    except (pyjson5.Json5DecoderException, ValueError):
        return token[1:-1]
    return key if isinstance(key, str) else token[1:-1]


_BLANKS = re.compile(r"(?:\s+|//[^\n]*|/\*.*?(?:\*/|\Z))*", re.S)
_NAME = re.compile(r"(?:[^\W\d]|\$)[\w$]*")


def literal_start(text: str, shown: str) -> int:
    """Where the object literal of `NAME.NAME... = {` (or `var NAME = {`) begins, after comments and blanks.
    A file of another shape (an h5mota 1.x function, say) is a LevelError at its first odd character."""
    at = 0
    expecting = "name"
    while True:
        blanks = _BLANKS.match(text, at)
        assert blanks is not None  # (it matches the empty string too)
        at = blanks.end()
        if at >= len(text):
            raise LevelError("no object literal in the file (name = {...})", path=shown)
        char = text[at]
        name = _NAME.match(text, at) if expecting in ("name", "name or =") else None
        if name is not None:
            at = name.end()
            expecting = "name" if name.group() in ("var", "let", "const") else "name or ="
        elif expecting == "name or =" and char == ".":
            at += 1
            expecting = "name"
        elif expecting == "name or =" and char == "=":
            at += 1
            expecting = "{"
        elif expecting == "{" and char == "{":
            return at
        else:
            line, column = line_and_column(text, at)
            raise LevelError(
                f"expected an assignment of an object literal (name = {{...}}), found {char!r} (h5mota 2.x files "
                "are one such assignment)",
                path=shown,
                line=line,
                column=column,
            )


# ------------------------------------------------------------------------------------------ item effects


@dataclass(frozen=True)
class Effect:
    """What an item's effect does, as far as twisty reads it: gains per stat, keys added per id."""

    gains: dict[str, Fraction]  # "hp", "atk", "def", "mdef", "money"
    items: dict[str, int]  # item id -> count (core.addItem)


class EffectError(ValueError):
    """An effect of a form twisty does not read (it is reported as a loss, never run)."""


class EffectBeyondLimits(ValueError):
    """An effect past the input limits (brackets nested too deep, a number too long or too large): refused
    as bad input, like any file past the limits."""


# Effects longer than this are not of the simple forms read here (real ones are one line).
MAX_EFFECT_CHARS = 10_000
_HERO = "core.status.hero."
# A value of data.js's `values` by name: None when it is missing or not a number.
ValueOf = Callable[[str], Fraction | None]


def read_effect(code: str, value_of: ValueOf, ratio: Fraction) -> Effect:
    """An item effect of the forms towers use: statements `core.status.hero.STAT += EXPR` (or -=),
    `core.addItem('id', N)` and `core.setFlag(...)` (a flag, no effect on play), separated by `;` or new
    lines, where EXPR is numbers, `core.values.NAME` and `core.status.thisMap.ratio` joined by + - * / and
    brackets. Raises EffectError for anything else, EffectBeyondLimits past the limits above."""
    if len(code) > MAX_EFFECT_CHARS:
        raise EffectError(f"an effect of {len(code)} characters")
    tokens = _tokens(code)
    gains: dict[str, Fraction] = {}
    items: dict[str, int] = {}
    at = 0
    while at < len(tokens):
        if tokens[at] in (";", "\n"):
            at += 1
            continue
        name = tokens[at]
        if name.startswith(_HERO) and at + 1 < len(tokens) and tokens[at + 1] in ("+=", "-="):
            operator = tokens[at + 1]
            value, at = _expression(tokens, at + 2, _Context(value_of, ratio))
            stat = name[len(_HERO) :]
            gains[stat] = _bounded(gains.get(stat, Fraction(0)) + (value if operator == "+=" else -value))
            at = _end_of_statement(tokens, at)
            continue
        if name in ("core.addItem", "core.setFlag") and at + 1 < len(tokens) and tokens[at + 1] == "(":
            arguments, at = _call_arguments(tokens, at + 2)
            if name == "core.addItem":
                if len(arguments) not in (1, 2) or arguments[0][0] not in "'\"":
                    raise EffectError(f"core.addItem with arguments {arguments[:3]}")
                count = 1
                if len(arguments) == 2:
                    if not re.fullmatch(r"[0-9]{1,9}", arguments[1]):
                        raise EffectError(f"core.addItem with the count {arguments[1][:20]!r}")
                    count = int(arguments[1])
                items[arguments[0][1:-1]] = items.get(arguments[0][1:-1], 0) + count
            at = _end_of_statement(tokens, at)
            continue
        raise EffectError(f"a statement starting {name[:40]!r}")
    return Effect(gains, items)


@dataclass(frozen=True)
class _Context:
    value_of: ValueOf
    ratio: Fraction


def _bounded(value: Fraction) -> Fraction:
    if abs(value.numerator) > MAX_EFFECT_VALUE or value.denominator > MAX_EFFECT_VALUE:
        raise EffectBeyondLimits(f"a value beyond 10^{MAX_EFFECT_DIGITS} on the way")
    return value


def _tokens(code: str) -> list[str]:
    """The tokens of an effect: dotted names, numbers, strings, operators; new lines end statements."""
    out: list[str] = []
    at = 0
    while at < len(code):
        char = code[at]
        if char == "\n":
            out.append("\n")
            at += 1
        elif char.isspace():
            at += 1
        elif char.isalpha() or char in "_$":
            end = at
            while end < len(code) and (code[end].isalnum() or code[end] in "_$."):
                end += 1
            out.append(code[at:end])
            at = end
        elif char in "0123456789" or (char == "." and at + 1 < len(code) and code[at + 1] in "0123456789"):
            end = at
            while end < len(code) and code[end] in "0123456789.":
                end += 1
            out.append(code[at:end])
            at = end
        elif char in "'\"":
            end = code.find(char, at + 1)
            if end < 0:
                raise EffectError("an unclosed string")
            out.append(code[at : end + 1])
            at = end + 1
        elif code.startswith(("+=", "-="), at):
            out.append(code[at : at + 2])
            at += 2
        elif char in "+-*/();,":
            out.append(char)
            at += 1
        else:
            raise EffectError(f"the character {char!r}")
    return out


def _expression(tokens: list[str], at: int, context: _Context, depth: int = 0) -> tuple[Fraction, int]:
    """EXPR := TERM (('+' | '-') TERM)*; TERM := FACTOR (('*' | '/') FACTOR)*."""
    total, at = _term(tokens, at, context, depth)
    while at < len(tokens) and tokens[at] in ("+", "-"):
        sign = tokens[at]
        value, at = _term(tokens, at + 1, context, depth)
        total = _bounded(total + value if sign == "+" else total - value)
    return total, at


def _term(tokens: list[str], at: int, context: _Context, depth: int) -> tuple[Fraction, int]:
    product, at = _factor(tokens, at, context, depth)
    while at < len(tokens) and tokens[at] in ("*", "/"):
        operator = tokens[at]
        value, at = _factor(tokens, at + 1, context, depth)
        if operator == "/" and value == 0:
            raise EffectError("a division by 0")
        product = _bounded(product * value if operator == "*" else product / value)
    return product, at


def _factor(tokens: list[str], at: int, context: _Context, depth: int) -> tuple[Fraction, int]:
    if at >= len(tokens):
        raise EffectError("an expression that stops short")
    if depth >= MAX_EFFECT_NESTING:
        raise EffectBeyondLimits(
            f"brackets and signs nested more than {MAX_EFFECT_NESTING} deep (at most {MAX_EFFECT_NESTING})"
        )
    token = tokens[at]
    if token == "(":
        value, at = _expression(tokens, at + 1, context, depth + 1)
        if at >= len(tokens) or tokens[at] != ")":
            raise EffectError("an unclosed bracket")
        return value, at + 1
    if token == "-":
        value, at = _factor(tokens, at + 1, context, depth + 1)
        return -value, at
    if token[0] in "0123456789.":
        if len(token) > MAX_EFFECT_DIGITS:
            raise EffectBeyondLimits(f"a number of {len(token)} digits (at most {MAX_EFFECT_DIGITS})")
        try:
            return Fraction(token), at + 1
        except ValueError:
            raise EffectError(f"the number {token!r}") from None
    if token == "core.status.thisMap.ratio":
        return context.ratio, at + 1
    if token.startswith("core.values."):
        named = context.value_of(token[len("core.values.") :])
        if named is None:
            raise EffectError(f"{token[:60]} is not a number in data.js's values")
        return _bounded(named), at + 1
    raise EffectError(f"the value {token[:40]!r}")


def _call_arguments(tokens: list[str], at: int) -> tuple[list[str], int]:
    arguments: list[str] = []
    while at < len(tokens) and tokens[at] != ")":
        if tokens[at] != ",":
            arguments.append(tokens[at])
        at += 1
    if at >= len(tokens):
        raise EffectError("an unclosed call")
    return arguments, at + 1


def _end_of_statement(tokens: list[str], at: int) -> int:
    if at < len(tokens) and tokens[at] not in (";", "\n"):
        raise EffectError(f"{tokens[at]!r} after a statement")
    return at
