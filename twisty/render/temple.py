"""Text drawings of a Temple Twist temple: the format's own drawing (rooms as letters, `|` `-` variable walls,
`#` fixed walls, door letters in the frame), turned as the players see it, with the down side at the bottom
and the die drawn as `@`.
"""

from __future__ import annotations

from twisty.rules.temple.model import SIDES, Round, TempleState
from twisty.rules.temple.writer import map_lines

# A drawing turned a quarter to the right swaps the walls' strokes.
_TURNED_STROKE = {"|": "-", "-": "|"}


def as_seen(lines: list[str], down: int) -> list[str]:
    """The upright drawing turned so that side `down` is at the bottom: a quarter turn to the right for
    each step from bottom (bottom, right, top, left)."""
    grid = [list(line) for line in lines]
    for _ in range(down % 4):
        height, width = len(grid), len(grid[0])
        grid = [
            [_TURNED_STROKE.get(grid[height - 1 - j][i], grid[height - 1 - j][i]) for j in range(height)]
            for i in range(width)
        ]
    return ["".join(row) for row in grid]


def drawing(round_: Round, state: TempleState | None = None) -> list[str]:
    """The temple of a round (at its start, or in `state`) as the players see it, with a caption."""
    temple = round_.temple
    state = state or round_.start()
    lines = as_seen(map_lines(temple, state.walls, state.die), state.down)
    supply = round_.pieces - state.walls.bit_count()
    explored = [temple.names[room] for index, room in enumerate(round_.targets) if state.explored >> index & 1]
    caption = (
        f"down: {SIDES[state.down]} side; die (@) in {temple.names[state.die]}; supply {supply}; "
        f"explored: {', '.join(explored) or 'none'}"
    )
    return [*lines, caption]
