"""Loading Temple Twist rounds from TOML (the format of docs/temple.md).

Every problem is one LevelError naming the file, line and column: unknown keys with a "did you mean",
a die that would fall, two doors on one side, a wall on a fixed slot, an unknown card, an unmodelled
challenge card, and every input limit.
"""

from __future__ import annotations

import difflib
import functools
import re
from collections.abc import Callable
from typing import Any

from twisty.errors import LevelError
from twisty.rules.source import LevelSource, Position, expect_int, parse_level_bytes, unknown_key_error
from twisty.rules.temple.model import (
    CARDS,
    MAX_HAND,
    SIDES,
    TURNS,
    Challenges,
    Door,
    Expectations,
    Round,
    Temple,
    grid_slots,
)
from twisty.rules.temple.semantics import fall
from twisty.rules.temple.standard import STANDARD_NAME, STANDARD_TEXT

TOP_KEYS = (
    "game",
    "name",
    "description",
    "temple",
    "walls",
    "supply",
    "down",
    "die",
    "revealed",
    "door",
    "hands",
    "torch",
    "swap",
    "bounce",
    "challenges",
    "expect",
)
TEMPLE_KEYS = ("name", "map", "rooms", "doors", "plain", "pieces")
EXPECT_KEYS = {
    "solvable": bool,
    "turns": int,
    "unique": bool,
    "bounce_safe": bool,
    "bounce_safe_turns": int,
    "pooled_solvable": bool,
    "pooled_turns": int,
}
# The challenge cards the model reads (docs/temple.md): four change the rules, six change nothing.
MODELLED_CHALLENGES = ("no_entry", "always_in_order", "secret_mission", "gets_going")
COSMETIC_CHALLENGES = (
    "locked_down",
    "all_in_the_green",
    "light_at_the_end_of_the_tunnel",
    "rosy_prospects",
    "management_matter",
    "cursed_stone",
)
# Cards of the rulebook that twisty does not model: a round that names one is refused.
UNMODELLED_CHALLENGES = {"poor_visibility": "Poor visibility", "special_missions": "Special missions"}

# Input limits: a temple is a box of a few rooms a side (the standard one is 4 x 4), a table seats a few
# players; beyond these the searches' work grows past any useful answer.
MAX_SIDE = 8
MAX_PLAYERS = 8
MAX_PIECES = 64
MAX_BOUNCE = 64
NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*\Z")
ROOM_LETTER = re.compile(r"[A-Za-z0-9]\Z")
CORNERS = " +.-|#"


def load_round(source: LevelSource) -> Round:
    """The round a level file describes. Loading takes no deadline: the input limits bound it to a page of
    text and milliseconds, and every question after it polls the level's deadline, so a deadline that has
    passed by then makes each answer unknown (rather than leaving the check without a round to name)."""
    data = source.data
    for key in data:
        if key not in TOP_KEYS:
            raise unknown_key_error(source, key, TOP_KEYS)
    name = _string(source, data, "name", "")
    description = _string(source, data, "description", "")
    temple = _temple(source, data.get("temple", STANDARD_NAME))
    walls = _walls(source, temple, data)
    supply = _supply(source, temple, data, walls)
    down = _side(source, data.get("down", "bottom"), "down")
    die = _die(source, temple, data, walls, down)
    hands = _hands(source, data)
    revealed = _revealed(source, temple, data)
    door = _door(source, temple, data)
    torch = expect_int(
        source,
        data.get("torch", 1),
        "torch (the player who plays first)",
        table=None,
        key="torch",
        minimum=1,
        maximum=len(hands),
    )
    swap = _bool(source, data, "swap", True)
    bounce = expect_int(
        source, data.get("bounce", 2), "bounce", table=None, key="bounce", minimum=0, maximum=MAX_BOUNCE
    )
    challenges = _challenges(source, temple, data.get("challenges", {}), revealed)
    expect = _expect(source, data.get("expect", {}))
    return Round(
        temple,
        name,
        description,
        walls,
        supply,
        down,
        die,
        revealed,
        door,
        hands,
        torch,
        swap,
        bounce,
        challenges,
        expect,
    )


# The temple -----------------------------------------------------------------------------------------------


@functools.cache
def standard_temple() -> Temple:
    """The standard temple (twisty.rules.temple.standard), read once."""
    source = parse_level_bytes(STANDARD_TEXT.encode("utf-8"), "<standard temple>")
    return _temple_table(source, source.data["temple"])


def _temple(source: LevelSource, value: Any) -> Temple:
    if isinstance(value, str):
        if value != STANDARD_NAME:
            raise source.error(
                f'unknown temple "{value}": write temple = "{STANDARD_NAME}" or a [temple] table with its map',
                key="temple",
            )
        return standard_temple()
    if not isinstance(value, dict):
        raise source.error(f'temple must be "{STANDARD_NAME}" or a [temple] table', key="temple")
    return _temple_table(source, value)


def _temple_table(source: LevelSource, table: dict[str, Any]) -> Temple:
    for key in table:
        if key not in TEMPLE_KEYS:
            raise unknown_key_error(source, key, TEMPLE_KEYS, table="temple")
    name = table.get("name", "custom")
    if not isinstance(name, str):
        raise source.error("the temple's name must be a string", table="temple", key="name")
    letters_named = _letter_table(source, table.get("rooms", {}), "rooms", "a room name")
    door_names = _letter_table(source, table.get("doors", {}), "doors", "a door name")
    drawing = _parse_map(source, table.get("map"), door_names)
    rows, cols, letters, doors, door_letters, slots, fixed, default_walls = drawing
    for letter in letters_named:
        if letter not in letters:
            raise source.error(f'rooms: the map has no room "{letter}"', **_nested(source, "rooms", letter))
    names = tuple(letters_named.get(letter, letter) for letter in letters)
    for index, room_name in enumerate(names):
        if not NAME.match(room_name):
            raise source.error(
                f'room name "{room_name}" must start with a letter and hold only letters, digits and _',
                **_nested(source, "rooms", letters[index]),
            )
        if names.index(room_name) != index:
            raise source.error(f'two rooms are called "{room_name}"', **_nested(source, "rooms", letters[index]))
    for letter in door_names:
        if letter not in door_letters:
            raise source.error(
                f'doors: the frame of the map has no door "{letter}"', **_nested(source, "doors", letter)
            )
    door_rooms = {door.room for door in doors}
    plain = table.get("plain")
    if plain is None:
        plain_rooms = door_rooms
    else:
        plain_rooms = set(_room_list(source, names, plain, "plain", table="temple"))
    pieces = expect_int(
        source,
        table.get("pieces", 8),
        "pieces (variable walls that come with the temple)",
        table="temple",
        key="pieces",
        minimum=0,
        maximum=MAX_PIECES,
    )
    card_rooms = frozenset(room for room in range(rows * cols) if room not in plain_rooms)
    return Temple(
        name, rows, cols, letters, names, card_rooms, doors, door_letters, slots, fixed, default_walls, pieces
    )


def _letter_table(source: LevelSource, value: Any, key: str, what: str) -> dict[str, str]:
    if not isinstance(value, dict):
        raise source.error(f'{key} must be a table of map letters, such as {{ a = "altar" }}', table="temple", key=key)
    for letter, name in value.items():
        if not ROOM_LETTER.match(letter):
            raise source.error(
                f'{key}: "{letter}" is not a map letter (one letter or digit)', **_nested(source, key, letter)
            )
        if not isinstance(name, str) or not NAME.match(name):
            raise source.error(
                f"{key}: {what} must be a word of letters, digits and _ starting with a letter",
                **_nested(source, key, letter),
            )
    return dict(value)


def _nested(source: LevelSource, table: str, key: str) -> Position:
    """The position of `key` in [temple.TABLE] or in `TABLE = { ... }` inside [temple]."""
    line, column = source.locate_key(key, f"temple.{table}")
    if line is None:
        line, column = source.locate_key(table, "temple")
    return {"line": line, "column": column}


def _map_origin(source: LevelSource) -> tuple[int | None, int]:
    """The line where the map's first drawn line stands, and the column offset of its first character."""
    line, _ = source.locate_key("map", "temple")
    if line is None:
        return None, 0
    raw = source.lines[line - 1]
    opening = re.search(r"=\s*(\"\"\"|''')", raw)
    if opening and raw[opening.end() :].strip() == "":
        return line + 1, 0
    return line, opening.end() if opening else 0


MapDrawing = tuple[int, int, tuple[str, ...], tuple[Door, ...], tuple[str, ...], tuple[tuple[int, int], ...], int, int]


def _parse_map(source: LevelSource, value: Any, door_names: dict[str, str]) -> MapDrawing:
    """The drawing's rows, columns, room letters, doors, door letters, slots, fixed walls and variable walls."""
    if value is None:
        raise source.error('the temple needs a map (map = """ ... """)', table="temple", key="map")
    if not isinstance(value, str):
        raise source.error("the map must be a multi-line string", table="temple", key="map")
    first, offset = _map_origin(source)
    lines = value.split("\n")
    if lines and lines[-1].strip() == "":
        lines.pop()

    def error(message: str, row: int | None = None, column: int | None = None) -> LevelError:
        if first is None or row is None:
            return source.error(f"map: {message}", table="temple", key="map")
        return source.error(
            f"map: {message}",
            line=first + row,
            column=None if column is None else column + 1 + (offset if row == 0 else 0),
        )

    height = len(lines)
    width = len(lines[0]) if lines else 0
    if height < 3 or height % 2 == 0 or width < 3 or width % 2 == 0:
        raise error(
            "a temple is drawn in a frame: 2 x rows + 1 lines of 2 x columns + 1 characters (see docs/temple.md)", 0, 0
        )
    rows, cols = (height - 1) // 2, (width - 1) // 2
    if rows > MAX_SIDE or cols > MAX_SIDE:
        raise error(f"a temple may have at most {MAX_SIDE} x {MAX_SIDE} rooms, not {rows} x {cols}", 0, 0)
    for number, line in enumerate(lines):
        if len(line) != width:
            raise error(
                f"every line of the map must be {width} characters wide like the first, not {len(line)}",
                number,
                min(len(line), width),
            )
    slots = grid_slots(rows, cols)
    slot_index = {pair: index for index, pair in enumerate(slots)}
    letters: list[str] = []
    fixed = walls = 0
    for i in range(1, height - 1):
        for j in range(1, width - 1):
            char = lines[i][j]
            if i % 2 and j % 2:
                if not ROOM_LETTER.match(char):
                    raise error(f"a room must be drawn as a letter or a digit, not {char!r}", i, j)
                if char in letters:
                    raise error(f'two rooms are drawn as "{char}"', i, j)
                letters.append(char)
                continue
            if not i % 2 and not j % 2:
                if char not in CORNERS:
                    raise error(f"{char!r} stands where walls meet (allowed there: space + . - | #)", i, j)
                continue
            if i % 2:  # between two rooms of one row
                room = (i - 1) // 2 * cols + (j - 2) // 2
                pair, wall_char = (room, room + 1), "|"
            else:  # between two rooms of one column
                room = (i - 2) // 2 * cols + (j - 1) // 2
                pair, wall_char = (room, room + cols), "-"
            if char == "#":
                fixed |= 1 << slot_index[pair]
            elif char == wall_char:
                walls |= 1 << slot_index[pair]
            elif char != " ":
                raise error(
                    f"{char!r} between two rooms: a slot is a space (empty), {wall_char} (a variable "
                    "wall) or # (a fixed wall)",
                    i,
                    j,
                )
    doors, door_letters = _frame(lines, rows, cols, door_names, error)
    return rows, cols, tuple(letters), doors, door_letters, slots, fixed, walls


def _frame(
    lines: list[str], rows: int, cols: int, door_names: dict[str, str], error: Callable[..., LevelError]
) -> tuple[tuple[Door, ...], tuple[str, ...]]:
    """The frame of the drawing, with the doors drawn in it: a door letter stands in the frame beside its
    room. "A temple has at most one door per side."""
    height, width = len(lines), len(lines[0])
    doors: list[Door] = []
    door_letters: list[str] = []
    taken: dict[int, tuple[int, int]] = {}
    spots = []
    for j in range(width):
        spots.append((0, j, "-", (SIDES.index("top"), 0, (j - 1) // 2) if j % 2 else None))
        spots.append((height - 1, j, "-", (SIDES.index("bottom"), rows - 1, (j - 1) // 2) if j % 2 else None))
    for i in range(1, height - 1):
        spots.append((i, 0, "|", (SIDES.index("left"), (i - 1) // 2, 0) if i % 2 else None))
        spots.append((i, width - 1, "|", (SIDES.index("right"), (i - 1) // 2, cols - 1) if i % 2 else None))
    for i, j, frame_char, door_spot in sorted(spots):
        char = lines[i][j]
        if char == frame_char or (door_spot is None and char == "+"):
            continue
        if door_spot is None or not ROOM_LETTER.match(char):
            raise error(f"the frame is drawn with + {frame_char} (and door letters beside rooms), not {char!r}", i, j)
        side, r, c = door_spot
        if char not in door_names:
            raise error(
                f'door "{char}" in the frame is not named in the temple\'s doors table '
                f'(for example doors = {{ {char} = "pink" }})',
                i,
                j,
            )
        if char in door_letters:
            raise error(f'door "{char}" is drawn twice', i, j)
        if side in taken:
            raise error(
                f"two doors on the {SIDES[side]} side (the other is at line offset {taken[side][0]}); "
                "a temple has at most one door per side",
                i,
                j,
            )
        taken[side] = (i, j)
        doors.append(Door(door_names[char], r * cols + c, side))
        door_letters.append(char)
    # The doors in the order the doors table names them.
    order = sorted(range(len(doors)), key=lambda index: list(door_names).index(door_letters[index]))
    return tuple(doors[index] for index in order), tuple(door_letters[index] for index in order)


# The round ------------------------------------------------------------------------------------------------


def _string(source: LevelSource, data: dict[str, Any], key: str, default: str) -> str:
    value = data.get(key, default)
    if not isinstance(value, str):
        raise source.error(f'"{key}" must be a string', key=key)
    return value


def _bool(source: LevelSource, data: dict[str, Any], key: str, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise source.error(f'"{key}" must be true or false', key=key)
    return value


def _side(source: LevelSource, value: Any, key: str, table: str | None = None) -> int:
    if value not in SIDES:
        raise source.error(f"{key} must be one of {', '.join(SIDES)}, not {_shown(value)}", table=table, key=key)
    return SIDES.index(value)


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _room(source: LevelSource, names: tuple[str, ...], value: Any, key: str, table: str | None = None) -> int:
    if not isinstance(value, str):
        raise source.error(f"{key} must name a room (a string), not {_shown(value)}", table=table, key=key)
    if value not in names:
        raise _unknown_room(source, names, value, key, table)
    return names.index(value)


def _unknown_room(source: LevelSource, names: tuple[str, ...], value: str, key: str, table: str | None) -> LevelError:
    close = difflib.get_close_matches(value, names, n=1, cutoff=0.6)
    hint = f' (did you mean "{close[0]}"?)' if close else ""
    return source.error(
        f'{key}: no room "{value}" in the temple{hint}; rooms: {", ".join(names)}', table=table, key=key
    )


def _room_list(
    source: LevelSource, names: tuple[str, ...], value: Any, key: str, table: str | None = None
) -> list[int]:
    if not isinstance(value, list):
        raise source.error(f"{key} must be a list of room names", table=table, key=key)
    rooms = []
    for item in value:
        room = _room(source, names, item, key, table)
        if room in rooms:
            raise source.error(f'{key}: the room "{item}" is named twice', table=table, key=key)
        rooms.append(room)
    return rooms


def _walls(source: LevelSource, temple: Temple, data: dict[str, Any]) -> int:
    """The variable walls standing at the start: `walls = ["altar-bats", ...]`, or the temple's own."""
    if "walls" not in data:
        return temple.default_walls
    value = data["walls"]
    if not isinstance(value, list):
        raise source.error('walls must be a list of slots such as "altar-bats"', key="walls")
    walls = 0
    for item in value:
        if not isinstance(item, str) or item.count("-") != 1:
            raise source.error(
                f'walls: {_shown(item)} is not a slot: write the two rooms it lies between, such as "altar-bats"',
                key="walls",
            )
        first, second = (_room(source, temple.names, part, "walls") for part in item.split("-"))
        slot = temple.slot_of.get((first, second))
        if slot is None:
            raise source.error(
                f'walls: "{item}": the rooms {temple.names[first]} and {temple.names[second]} are '
                "not side by side, so no wall slot lies between them",
                key="walls",
            )
        if temple.fixed >> slot & 1:
            raise source.error(
                f'walls: "{item}" is a fixed wall\'s slot; a variable wall cannot stand there', key="walls"
            )
        if walls >> slot & 1:
            raise source.error(f'walls: the slot "{item}" is named twice', key="walls")
        walls |= 1 << slot
    return walls


def _supply(source: LevelSource, temple: Temple, data: dict[str, Any], walls: int) -> int:
    placed = walls.bit_count()
    if "supply" in data:
        return expect_int(
            source,
            data["supply"],
            "supply (variable walls outside the temple)",
            table=None,
            key="supply",
            minimum=0,
            maximum=MAX_PIECES,
        )
    if placed > temple.pieces:
        raise source.error(
            f"{placed} variable walls stand in the temple, but it comes with {temple.pieces}: "
            "give the supply (supply = ...)",
            key="walls",
        )
    return temple.pieces - placed


def _die(source: LevelSource, temple: Temple, data: dict[str, Any], walls: int, down: int) -> int:
    """The die's room: given, or "the room of the door that points down". It must rest."""
    position: dict[str, Any] = (
        {"key": "die"} if "die" in data else {"key": "down"} if "down" in data else {"line": 1, "column": 1}
    )
    if "die" in data:
        die = _room(source, temple.names, data["die"], "die")
    else:
        door = next((door for door in temple.doors if door.side == down), None)
        if door is None:
            raise source.error(
                f"no door points down (the {SIDES[down]} side is down): say where the die is (die = ...)", **position
            )
        die = door.room
    dropped = fall(temple, walls, down, die)
    if dropped.path:
        raise source.error(
            f"the die in {temple.names[die]} would fall (with the {SIDES[down]} side down it falls "
            f"into {temple.names[dropped.path[0]]}); the die must rest at the start",
            **position,
        )
    return die


def _hands(source: LevelSource, data: dict[str, Any]) -> tuple[tuple[str, ...], ...]:
    if "hands" not in data:
        raise source.error(
            'missing the hands (hands = [["turn1", "wall1"], ["turn2"]], one list per player in seat order)',
            line=1,
            column=1,
        )
    value = data["hands"]
    if not isinstance(value, list) or not value:
        raise source.error("hands must be a list of hands, one list of cards per player", key="hands")
    if len(value) > MAX_PLAYERS:
        raise source.error(f"at most {MAX_PLAYERS} players, not {len(value)}", key="hands")
    hands = []
    for number, hand in enumerate(value, start=1):
        if not isinstance(hand, list):
            raise source.error(f"player {number}'s hand must be a list of cards", key="hands")
        if len(hand) > MAX_HAND:
            raise source.error(
                f'player {number} holds {len(hand)} cards; "Each person may hold at most {MAX_HAND} action cards"',
                key="hands",
            )
        for card in hand:
            if card not in CARDS:
                close = difflib.get_close_matches(str(card), CARDS, n=1, cutoff=0.6)
                hint = f' (did you mean "{close[0]}"?)' if close else ""
                raise source.error(
                    f"player {number}: unknown card {_shown(card)}{hint}; cards: {', '.join(CARDS)}", key="hands"
                )
        hands.append(tuple(hand))
    return tuple(hands)


def _revealed(source: LevelSource, temple: Temple, data: dict[str, Any]) -> tuple[int, ...]:
    if "revealed" not in data:
        raise source.error('missing the revealed rooms (revealed = ["altar", "jade"])', line=1, column=1)
    rooms = _room_list(source, temple.names, data["revealed"], "revealed")
    for room in rooms:
        if room not in temple.card_rooms:
            raise source.error(f"revealed: {temple.names[room]} has no room card (it is a plain room)", key="revealed")
    return tuple(rooms)


def _door(source: LevelSource, temple: Temple, data: dict[str, Any]) -> Door:
    if "door" not in data:
        raise source.error(
            f'missing the revealed door (door = "{temple.doors[0].name if temple.doors else "pink"}")', line=1, column=1
        )
    value = data["door"]
    door = temple.door_named(value) if isinstance(value, str) else None
    if door is None:
        doors = ", ".join(door.name for door in temple.doors) or "none: the temple has no door"
        raise source.error(f"door: no door {_shown(value)} in the temple (doors: {doors})", key="door")
    return door


def _challenges(source: LevelSource, temple: Temple, value: Any, revealed: tuple[int, ...]) -> Challenges:
    if not isinstance(value, dict):
        raise source.error("challenges must be a table ([challenges])", key="challenges")
    found: dict[str, Any] = {}
    cosmetic = []
    for key, setting in value.items():
        if key in UNMODELLED_CHALLENGES:
            raise source.error(
                f'the challenge card "{UNMODELLED_CHALLENGES[key]}" is not modelled by twisty '
                "(docs/temple.md lists the ones that are)",
                table="challenges",
                key=key,
            )
        if key in COSMETIC_CHALLENGES:
            if not isinstance(setting, bool):
                raise source.error(f"{key} must be true or false", table="challenges", key=key)
            if setting:
                cosmetic.append(key)
            continue
        if key not in MODELLED_CHALLENGES:
            raise unknown_key_error(
                source, key, MODELLED_CHALLENGES + COSMETIC_CHALLENGES, table="challenges", what="challenge card"
            )
        found[key] = setting
    no_entry = secret = None
    if "no_entry" in found:
        no_entry = _room(source, temple.names, found["no_entry"], "no_entry", "challenges")
    in_order = found.get("always_in_order", False)
    if not isinstance(in_order, bool):
        raise source.error("always_in_order must be true or false", table="challenges", key="always_in_order")
    if "secret_mission" in found:
        secret = _room(source, temple.names, found["secret_mission"], "secret_mission", "challenges")
        if secret not in temple.card_rooms or secret in revealed:
            raise source.error(
                "secret_mission: the secret room must be a room-card room that is not revealed",
                table="challenges",
                key="secret_mission",
            )
    gets_going = found.get("gets_going")
    if gets_going is not None and gets_going not in TURNS:
        raise source.error(
            f'gets_going must be "left" or "right", not {_shown(gets_going)}', table="challenges", key="gets_going"
        )
    return Challenges(no_entry, in_order, secret, gets_going, tuple(cosmetic))


def _expect(source: LevelSource, value: Any) -> Expectations:
    if not isinstance(value, dict):
        raise source.error("expect must be a table ([expect])", key="expect")
    claims = {}
    for key, claim in value.items():
        wanted = EXPECT_KEYS.get(key)
        if wanted is None:
            raise unknown_key_error(source, key, EXPECT_KEYS, table="expect", what="expectation")
        if wanted is bool and not isinstance(claim, bool):
            raise source.error(f"expect {key} must be true or false", table="expect", key=key)
        if wanted is int:
            claim = expect_int(source, claim, f"expect {key}", table="expect", key=key, minimum=1)
        claims[key] = claim
    return Expectations(**claims)
