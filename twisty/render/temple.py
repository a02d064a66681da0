"""Text drawings of a Temple Twist temple: the format's own drawing (rooms as letters, `|` `-` variable walls,
`#` fixed walls, door letters in the frame), turned as the players see it, with the down side at the bottom
and the die drawn as `@`.
"""

from __future__ import annotations

from twisty.rules.temple.model import SIDES, Round, Temple, TempleState

# A drawing turned a quarter to the right swaps the walls' strokes.
_TURNED_STROKE = {"|": "-", "-": "|"}


def upright(temple: Temple, walls: int, die: int | None = None) -> list[str]:
    """The temple standing on its bottom side, as the level format draws it."""
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
        if not blocked >> slot & 1:
            continue
        (ra, ca), (rb, cb) = divmod(a, cols), divmod(b, cols)
        stroke = "#" if temple.fixed >> slot & 1 else "|" if ra == rb else "-"
        grid[ra + rb + 1][ca + cb + 1] = stroke
    for door, letter in zip(temple.doors, temple.door_letters):
        r, c = divmod(door.room, cols)
        side = SIDES[door.side]
        i = 0 if side == "top" else 2 * rows if side == "bottom" else 2 * r + 1
        j = 0 if side == "left" else 2 * cols if side == "right" else 2 * c + 1
        grid[i][j] = letter
    return ["".join(row) for row in grid]


def as_seen(lines: list[str], down: int) -> list[str]:
    """The upright drawing turned so that side `down` is at the bottom: a quarter turn to the right for
    each step from bottom (bottom, right, top, left)."""
    grid = [list(line) for line in lines]
    for _ in range(down % 4):
        height, width = len(grid), len(grid[0])
        grid = [[_TURNED_STROKE.get(grid[height - 1 - j][i], grid[height - 1 - j][i]) for j in range(height)]
                for i in range(width)]
    return ["".join(row) for row in grid]


def drawing(round_: Round, state: TempleState | None = None) -> list[str]:
    """The temple of a round (at its start, or in `state`) as the players see it, with a caption."""
    temple = round_.temple
    state = state or round_.start()
    lines = as_seen(upright(temple, state.walls, state.die), state.down)
    supply = round_.pieces - state.walls.bit_count()
    explored = [temple.names[room] for index, room in enumerate(round_.targets) if state.explored >> index & 1]
    caption = (f"down: {SIDES[state.down]} side; die (@) in {temple.names[state.die]}; supply {supply}; "
               f"explored: {', '.join(explored) or 'none'}")
    return [*lines, caption]
