"""Writing a Temple Twist round as a level file (the format of docs/temple.md): the temple's drawing, and the
round's keys with their [challenges] and [expect] tables. Loading the text gives the same round back.
"""

from __future__ import annotations

from twisty.rules.temple.model import SIDES, Expectations, Round, Temple


def map_lines(temple: Temple, walls: int, die: int | None = None) -> list[str]:
    """The temple standing on its bottom side as the format draws it: rooms as letters (the die as @ when
    given), `|` and `-` variable walls, `#` fixed walls, door letters in the frame beside their rooms."""
    rows, cols = temple.rows, temple.cols
    grid = [[" "] * (2 * cols + 1) for _ in range(2 * rows + 1)]
    for i in range(2 * rows + 1):
        for j in range(2 * cols + 1):
            if i in (0, 2 * rows):
                grid[i][j] = "+" if j in (0, 2 * cols) else "-"
            elif j in (0, 2 * cols):
                grid[i][j] = "|"
    for room in range(temple.room_count):
        r, c = divmod(room, cols)
        grid[2 * r + 1][2 * c + 1] = "@" if room == die else temple.letters[room]
    blocked = walls | temple.fixed
    for slot, (a, b) in enumerate(temple.slots):
        if blocked >> slot & 1:
            (ra, ca), (rb, cb) = divmod(a, cols), divmod(b, cols)
            grid[ra + rb + 1][ca + cb + 1] = "#" if temple.fixed >> slot & 1 else "|" if ra == rb else "-"
    for door, letter in zip(temple.doors, temple.door_letters, strict=True):
        r, c = divmod(door.room, cols)
        side = SIDES[door.side]
        i = 0 if side == "top" else 2 * rows if side == "bottom" else 2 * r + 1
        j = 0 if side == "left" else 2 * cols if side == "right" else 2 * c + 1
        grid[i][j] = letter
    return ["".join(row) for row in grid]


def toml_string(text: str) -> str:
    """A TOML basic string (quotes, backslashes and control characters escaped)."""
    out = []
    for char in text:
        if char in '"\\':
            out.append("\\" + char)
        elif char == "\n":
            out.append("\\n")
        elif char == "\t":
            out.append("\\t")
        elif ord(char) < 0x20 or ord(char) == 0x7F:
            out.append(f"\\u{ord(char):04x}")
        else:
            out.append(char)
    return '"' + "".join(out) + '"'


def _names(temple: Temple, rooms: list[int] | tuple[int, ...]) -> str:
    return "[" + ", ".join(toml_string(temple.names[room]) for room in rooms) + "]"


def _bool(value: bool) -> str:
    return "true" if value else "false"


def round_text(
    round_: Round,
    *,
    standard: Temple | None = None,
    header: list[str] | None = None,
    expect: Expectations | None = None,
) -> str:
    """The round as a level file. When its temple is `standard`, the file says temple = "standard"; else the
    temple is written out in full. `expect` replaces the round's own claims."""
    temple = round_.temple
    names = temple.names
    lines = [f"# {line}" if line else "#" for line in header or []]
    lines.append('game = "temple"')
    if round_.name:
        lines.append(f"name = {toml_string(round_.name)}")
    if round_.description:
        lines.append(f"description = {toml_string(round_.description)}")
    if standard is not None and temple == standard:
        lines.append(f'temple = "{standard.name}"')
    walls = [temple.slot_name(slot) for slot in range(len(temple.slots)) if round_.walls >> slot & 1]
    lines.append("walls = [" + ", ".join(toml_string(wall) for wall in walls) + "]")
    lines.append(f"supply = {round_.supply}")
    lines.append(f'down = "{SIDES[round_.down]}"')
    lines.append(f"die = {toml_string(names[round_.die])}")
    lines.append(f"revealed = {_names(temple, round_.revealed)}")
    lines.append(f"door = {toml_string(round_.door.name)}")
    lines.append("hands = [")
    lines += ["    [" + ", ".join(f'"{card}"' for card in hand) + "]," for hand in round_.hands]
    lines.append("]")
    if round_.torch != 1:
        lines.append(f"torch = {round_.torch}")
    if not round_.swap:
        lines.append("swap = false")
    if round_.bounce != 2:
        lines.append(f"bounce = {round_.bounce}")
    if standard is None or temple != standard:
        lines += ["", "[temple]", f"name = {toml_string(temple.name)}", 'map = """']
        lines += map_lines(temple, temple.default_walls)
        lines.append('"""')
        if temple.doors:
            doors = ", ".join(
                f"{letter} = {toml_string(door.name)}"
                for door, letter in zip(temple.doors, temple.door_letters, strict=True)
            )
            lines.append(f"doors = {{ {doors} }}")
        plain = [room for room in range(temple.room_count) if room not in temple.card_rooms]
        lines.append(f"plain = {_names(temple, plain)}")
        lines.append(f"pieces = {temple.pieces}")
        named = [(letter, name) for letter, name in zip(temple.letters, names, strict=True) if name != letter]
        if named:
            lines += ["", "[temple.rooms]"] + [f"{letter} = {toml_string(name)}" for letter, name in named]
    challenges = round_.challenges
    table = []
    if challenges.no_entry is not None:
        table.append(f"no_entry = {toml_string(names[challenges.no_entry])}")
    if challenges.in_order:
        table.append("always_in_order = true")
    if challenges.secret is not None:
        table.append(f"secret_mission = {toml_string(names[challenges.secret])}")
    if challenges.gets_going is not None:
        table.append(f'gets_going = "{challenges.gets_going}"')
    table += [f"{name} = true" for name in challenges.cosmetic]
    if table:
        lines += ["", "[challenges]"] + table
    claims = expect if expect is not None else round_.expect
    written = [(key, value) for key, value in vars(claims).items() if value is not None]
    if written:
        lines += ["", "[expect]"] + [
            f"{key} = {_bool(value) if isinstance(value, bool) else value}" for key, value in written
        ]
    return "\n".join(lines) + "\n"
