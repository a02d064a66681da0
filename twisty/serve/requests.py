"""Reading the JSON bodies of the page's requests: a body is read only when it is a JSON object within the
size limit and nested no deeper than MAX_NESTING; anything else is a BadRequest with a message that names
the line and column where the body goes wrong (HTTP 400), never an exception of the JSON reader (Python's
recurses once per bracket and fails with RecursionError near a thousand).
"""

from __future__ import annotations

import json
import re
from typing import Any

from twisty.limits import MAX_NESTING

# The characters that matter to nesting: brackets, and the quotes and backslashes that make strings.
_SIGNIFICANT = re.compile(r'[\\"\[\]{}]')


class BadRequest(Exception):
    """A request body the page refuses: `status` is the HTTP status, line and column where known."""

    def __init__(self, message: str, status: int = 400, line: int | None = None, column: int | None = None) -> None:
        where = f"line {line}, column {column}: " if line is not None else ""
        super().__init__(where + message)
        self.message = message
        self.status = status
        self.line = line
        self.column = column


def position(text: str, offset: int) -> tuple[int, int]:
    """1-based line and column of a character offset."""
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def nesting_error(text: str) -> BadRequest | None:
    """A BadRequest at the first bracket nested deeper than MAX_NESTING, or None: one pass over the
    characters that matter, brackets inside strings not counted (linear in the body, whatever it holds)."""
    depth = 0
    in_string = False
    escaped_until = -1
    for match in _SIGNIFICANT.finditer(text):
        at, char = match.start(), match.group()
        if at < escaped_until:
            continue
        if in_string:
            if char == "\\":
                escaped_until = at + 2
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > MAX_NESTING:
                line, column = position(text, at)
                return BadRequest(f"the JSON is nested deeper than {MAX_NESTING} levels", 400, line, column)
        elif char in "]}":
            depth -= 1
    return None


def json_object(data: bytes) -> dict[str, Any]:
    """The body as a JSON object, or a BadRequest saying where it goes wrong."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line, column = position(data[: error.start].decode("utf-8", errors="replace"), error.start)
        raise BadRequest("the body is not UTF-8 text", 400, line, column) from None
    if not text.strip():
        raise BadRequest("send a JSON object (Content-Type: application/json)")
    deep = nesting_error(text)
    if deep is not None:
        raise deep
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise BadRequest(f"not JSON: {error.msg}", 400, error.lineno, error.colno) from None
    except (ValueError, RecursionError) as error:  # a number of thousands of digits, and the like
        raise BadRequest(f"not JSON that the page reads: {error}"[:200]) from None
    if not isinstance(value, dict):
        raise BadRequest(f"send a JSON object, not {type(value).__name__ if value is not None else 'null'}")
    return value
