"""Reading the object literals of h5mota's project files without running JavaScript.

Each file of an h5mota project (mota-js 2.x) is one assignment, `main.floors.MT1 = {...}` or
`var data_... = {...}`, whose value is an object literal in JSON5 syntax (quoted or bare keys, trailing
commas, comments; code only ever inside strings). The literal is read with the `json5` package, a
well-kept, pure-Python reader of exactly that syntax; the assignment before it is read here by a small
lexer. Item effects are code in strings (`core.status.hero.atk += core.values.redGem * ratio`); the few
forms towers use are read by `read_effect`, and anything else is reported as not understood, never run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

import json5

from twisty.errors import LevelError

# A project file larger than this is not a tower's data (a 50-floor tower's largest is a few tens of kB).
MAX_FILE_BYTES = 4 * 1024 * 1024
_JSON5_POSITION = re.compile(r"^<string>:(\d+) (.*) at column (\d+)$")


def read_object_file(path: Path) -> tuple[dict[str, Any], str]:
    """The object literal a project file assigns, and the file's text. Every problem is a LevelError with
    the file, line and column."""
    shown = str(path)
    try:
        if not path.is_file():
            raise LevelError("missing (an h5mota project has it)" if not path.exists() else "not a file", path=shown)
        raw = path.read_bytes()[: MAX_FILE_BYTES + 1]
    except OSError as error:
        raise LevelError(f"cannot read the file: {error.strerror or error}", path=shown) from None
    if len(raw) > MAX_FILE_BYTES:
        raise LevelError(f"larger than {MAX_FILE_BYTES} bytes: not an h5mota project file", path=shown)
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = raw[: error.start].count(b"\n") + 1
        raise LevelError("not UTF-8 text", path=shown, line=line, column=1) from None
    start = literal_start(text, shown)
    try:
        value = json5.loads(text, start=start, consume_trailing=False)
    except ValueError as error:
        found = _JSON5_POSITION.match(str(error))
        if found is None:
            raise LevelError(f"not an object literal: {error}", path=shown) from None
        raise LevelError(
            f"not an object literal: {found.group(2)}",
            path=shown,
            line=int(found.group(1)),
            column=int(found.group(3)),
        ) from None
    except RecursionError:
        raise LevelError("values nested too deeply", path=shown) from None
    if not isinstance(value, dict):
        raise LevelError("the value assigned is not an object literal {...}", path=shown, line=1, column=1)
    return value, text


def literal_start(text: str, shown: str) -> int:
    """Where the object literal of `NAME.NAME... = {` (or `var NAME = {`) begins, after comments and blanks.
    A file of another shape (an h5mota 1.x function, say) is a LevelError at its first odd character."""
    at = 0
    expecting = "name"
    while at < len(text):
        char = text[at]
        if char.isspace():
            at += 1
        elif text.startswith("//", at):
            end = text.find("\n", at)
            at = len(text) if end < 0 else end
        elif text.startswith("/*", at):
            end = text.find("*/", at + 2)
            at = len(text) if end < 0 else end + 2
        elif expecting in ("name", "name or =") and (char.isalpha() or char in "_$"):
            end = at
            while end < len(text) and (text[end].isalnum() or text[end] in "_$"):
                end += 1
            word = text[at:end]
            at = end
            expecting = "name" if word in ("var", "let", "const") else "name or ="
        elif expecting == "name or =" and char == ".":
            at += 1
            expecting = "name"
        elif expecting == "name or =" and char == "=":
            at += 1
            expecting = "{"
        elif expecting == "{" and char == "{":
            return at
        else:
            line = text.count("\n", 0, at) + 1
            column = at - (text.rfind("\n", 0, at) + 1) + 1
            raise LevelError(
                f"expected an assignment of an object literal (name = {{...}}), found {char!r} (h5mota 2.x files "
                "are one such assignment)",
                path=shown,
                line=line,
                column=column,
            )
    raise LevelError("no object literal in the file (name = {...})", path=shown)


# ------------------------------------------------------------------------------------------ item effects


@dataclass(frozen=True)
class Effect:
    """What an item's effect does, as far as twisty reads it: gains per stat, keys added per id."""

    gains: dict[str, Fraction]  # "hp", "atk", "def", "mdef", "money"
    items: dict[str, int]  # item id -> count (core.addItem)


class EffectError(ValueError):
    """An effect of a form twisty does not read (it is reported as a loss, never run)."""


_HERO = "core.status.hero."


def read_effect(code: str, values: dict[str, Any], ratio: Fraction) -> Effect:
    """An item effect of the forms towers use: statements `core.status.hero.STAT += EXPR` (or -=),
    `core.addItem('id', N)` and `core.setFlag(...)` (a flag, no effect on play), separated by `;` or new
    lines, where EXPR is numbers, `core.values.NAME` and `core.status.thisMap.ratio` joined by + - * / and
    brackets. Raises EffectError for anything else."""
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
            value, at = _expression(tokens, at + 2, values, ratio)
            stat = name[len(_HERO) :]
            gains[stat] = gains.get(stat, Fraction(0)) + (value if operator == "+=" else -value)
            at = _end_of_statement(tokens, at)
            continue
        if name in ("core.addItem", "core.setFlag") and at + 1 < len(tokens) and tokens[at + 1] == "(":
            arguments, at = _call_arguments(tokens, at + 2)
            if name == "core.addItem":
                if len(arguments) not in (1, 2) or arguments[0][0] not in "'\"":
                    raise EffectError(f"core.addItem with arguments {arguments}")
                count = int(arguments[1]) if len(arguments) == 2 and arguments[1].isdigit() else 1
                items[arguments[0][1:-1]] = items.get(arguments[0][1:-1], 0) + count
            at = _end_of_statement(tokens, at)
            continue
        raise EffectError(f"a statement starting {name!r}")
    return Effect(gains, items)


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
        elif char.isdigit() or (char == "." and at + 1 < len(code) and code[at + 1].isdigit()):
            end = at
            while end < len(code) and (code[end].isdigit() or code[end] == "."):
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


def _expression(tokens: list[str], at: int, values: dict[str, Any], ratio: Fraction) -> tuple[Fraction, int]:
    """EXPR := TERM (('+' | '-') TERM)*; TERM := FACTOR (('*' | '/') FACTOR)*."""
    total, at = _term(tokens, at, values, ratio)
    while at < len(tokens) and tokens[at] in ("+", "-"):
        sign = tokens[at]
        value, at = _term(tokens, at + 1, values, ratio)
        total = total + value if sign == "+" else total - value
    return total, at


def _term(tokens: list[str], at: int, values: dict[str, Any], ratio: Fraction) -> tuple[Fraction, int]:
    product, at = _factor(tokens, at, values, ratio)
    while at < len(tokens) and tokens[at] in ("*", "/"):
        operator = tokens[at]
        value, at = _factor(tokens, at + 1, values, ratio)
        if operator == "/" and value == 0:
            raise EffectError("a division by 0")
        product = product * value if operator == "*" else product / value
    return product, at


def _factor(tokens: list[str], at: int, values: dict[str, Any], ratio: Fraction) -> tuple[Fraction, int]:
    if at >= len(tokens):
        raise EffectError("an expression that stops short")
    token = tokens[at]
    if token == "(":
        value, at = _expression(tokens, at + 1, values, ratio)
        if at >= len(tokens) or tokens[at] != ")":
            raise EffectError("an unclosed bracket")
        return value, at + 1
    if token == "-":
        value, at = _factor(tokens, at + 1, values, ratio)
        return -value, at
    if token[0].isdigit() or token[0] == ".":
        return Fraction(token), at + 1
    if token == "core.status.thisMap.ratio":
        return ratio, at + 1
    if token.startswith("core.values."):
        named = values.get(token[len("core.values.") :])
        if isinstance(named, bool) or not isinstance(named, (int, float)):
            raise EffectError(f"{token} is not a number in data.js's values")
        return Fraction(str(named)), at + 1
    raise EffectError(f"the value {token!r}")


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
