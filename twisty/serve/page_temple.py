"""The page's editor for Temple Twist rounds: the temple drawn as its format draws it (rooms as letters, walls
as `|` `-` `#`, door letters in the frame, the die as `@`), each room with its name and whether its room
card is revealed, and the two edits a round's cells carry: reveal or hide a room card (`revealed = [...]`),
and choose the revealed door (`door = "..."`). The walls of a temple and the hands are edited in the text.
The contract: twisty.serve.page_passages."""

from __future__ import annotations

from typing import Any

from twisty.limits import Deadline
from twisty.rules.level import Level
from twisty.rules.temple.model import Round
from twisty.rules.temple.writer import map_lines, toml_string
from twisty.serve.edits import EditError

REVEAL, DOOR = "reveal", "door"


def palette(level: Level) -> list[dict[str, str]]:
    return [
        {"symbol": REVEAL, "label": "reveal or hide a room card (click a room)"},
        {"symbol": DOOR, "label": "make it the revealed door (click a door letter in the frame)"},
    ]


def _room_at(round_: Round, cell: list[int]) -> int | None:
    row, col = cell
    if row % 2 == 1 and col % 2 == 1 and 0 <= row < 2 * round_.temple.rows and 0 <= col < 2 * round_.temple.cols:
        return (row // 2) * round_.temple.cols + col // 2
    return None


def _door_at(round_: Round, cell: list[int]) -> int | None:
    temple = round_.temple
    lines = map_lines(temple, round_.walls)
    row, col = cell
    if not (0 <= row < len(lines) and 0 <= col < len(lines[row])):
        return None
    char = lines[row][col]
    on_frame = row in (0, len(lines) - 1) or col in (0, len(lines[row]) - 1)
    if on_frame and char in temple.door_letters:
        return temple.door_letters.index(char)
    return None


def grid(level: Level, verdict: Any | None, spread: int | None, deadline: Deadline) -> dict[str, Any]:
    """The drawing's characters, and per room and door what the page shows of it."""
    round_: Round = level.model
    temple = round_.temple
    lines = map_lines(temple, round_.walls, round_.die)
    rooms = []
    for room in range(temple.room_count):
        row, col = divmod(room, temple.cols)
        rooms.append(
            {
                "at": [2 * row + 1, 2 * col + 1],
                "name": temple.names[room],
                "card": room in temple.card_rooms,
                "revealed": room in round_.revealed,
                "die": room == round_.die,
            }
        )
    doors = []
    for index, door in enumerate(temple.doors):
        letter = temple.door_letters[index]
        for row, line in enumerate(lines):
            for col, char in enumerate(line):
                if char == letter and _door_at(round_, [row, col]) == index:
                    doors.append({"at": [row, col], "name": door.name, "revealed": door == round_.door})
    plan = getattr(verdict, "plan", None)
    turns = len(plan.records) if plan is not None else None
    return {"kind": "temple", "rows": lines, "rooms": rooms, "doors": doors, "turns": turns}


def landed(before: Level, after: Level, cell: list[int], symbol: str) -> bool:
    """Whether the edit did what was asked: the room's card turned over, or the door clicked revealed."""
    if symbol == REVEAL:
        room = _room_at(before.model, cell)
        return room is not None and (room in before.model.revealed) != (room in after.model.revealed)
    door = _door_at(before.model, cell)
    return door is not None and after.model.door == before.model.temple.doors[door]


def edit(level: Level, text: str, cell: list[int], symbol: str) -> str:
    round_: Round = level.model
    temple = round_.temple
    if len(cell) != 2:
        raise EditError(f"a cell of a temple's drawing is [row, column], not {cell}")
    if symbol == REVEAL:
        room = _room_at(round_, cell)
        if room is None:
            raise EditError(f"{cell} is not a room of the drawing (rooms stand at odd rows and columns)")
        if room not in temple.card_rooms:
            raise EditError(f"{temple.names[room]} has no room card (a plain room cannot be revealed)")
        revealed = list(round_.revealed)
        if room in revealed:
            revealed.remove(room)
        else:
            revealed.append(room)
        value = "[" + ", ".join(toml_string(temple.names[index]) for index in revealed) + "]"
        return _replace_key(level, text, "revealed", value)
    if symbol == DOOR:
        door = _door_at(round_, cell)
        if door is None:
            raise EditError(f"{cell} is not a door letter in the temple's frame")
        return _replace_key(level, text, "door", toml_string(temple.doors[door].name))
    raise EditError(f"{symbol!r} is not an edit of a temple round (reveal, door)")


def _replace_key(level: Level, text: str, key: str, value: str) -> str:
    """The text with the top-level `key = ...` written on one line given `value`."""
    line, column = level.source.locate_key(key)
    lines = text.split("\n")
    if line is None or column is None:
        raise EditError(f"the round has no {key} = ... line to change; edit it in the text")
    raw = lines[line - 1]
    head, _, rest = raw.partition("=")
    old = rest.strip()
    if old.startswith("[") and old.count("[") != old.count("]"):
        raise EditError(f"{key} is written over several lines; edit it in the text")
    comment = ""
    quoted = None
    for index, char in enumerate(rest):  # a comment after the value stays; a "#" inside a string is no comment
        if quoted is None and char in "\"'":
            quoted = char
        elif quoted is not None and char == quoted and rest[index - 1] != "\\":
            quoted = None
        elif quoted is None and char == "#":
            comment = "  " + rest[index:].strip()
            break
    lines[line - 1] = f"{head.rstrip()} = {value}{comment}"
    return "\n".join(lines)
