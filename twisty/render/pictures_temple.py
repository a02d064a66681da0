"""The picture of a Temple Twist round (`twisty render ROUND --plan`): the temple as the players see it, with
the down side at the bottom, and with --plan one small picture per turn of the shortest plan: the walls
after the turn, the die where it came to rest, and the path of every fall of that turn.

Drawn from what twisty.check hands back (twisty.report.temple.TempleVerdict: the plan replayed by the rules,
each turn with its falls and the temple after it); nothing is solved here.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from twisty.render.layout import Sheet
from twisty.render.pictures import (
    BLACK,
    BLUE,
    GREEN,
    ORANGE,
    PALE,
    PURPLE,
    SKY_BLUE,
    VERMILLION,
    Picture,
    PictureOptions,
    plain_text,
    printable,
)
from twisty.rules.level import Level
from twisty.rules.temple.model import SIDES, Round, TempleState
from twisty.rules.temple.semantics import describe_action

PANEL_INCHES = 2.6
PANELS_PER_ROW = 4
FIXED_WALL, VARIABLE_WALL, DIE, FALL = BLACK, ORANGE, BLUE, PURPLE
TARGET, EXPLORED, DOOR = SKY_BLUE, GREEN, VERMILLION


def questions(options: PictureOptions) -> tuple[str, ...] | None:
    """The shortest plan is all the picture needs, and only when it is drawn."""
    return ("win",) if options.answer else None


def seen(round_: Round, down: int, row: int, col: int) -> tuple[int, int, int, int]:
    """Where upright room (row, col) stands when side `down` is at the bottom, and the turned grid's size:
    (row, col, rows, cols). Each step from bottom is a quarter turn to the right (docs/temple.md): the
    upright (r, c) goes to (c, rows - 1 - r)."""
    rows, cols = round_.temple.rows, round_.temple.cols
    for _ in range(down % 4):
        row, col = col, rows - 1 - row
        rows, cols = cols, rows
    return row, col, rows, cols


def _centre(round_: Round, down: int, room: int) -> tuple[float, float]:
    """The (x, y) of a room's centre in a panel (y grows downwards)."""
    row, col, _, _ = seen(round_, down, *divmod(room, round_.temple.cols))
    return col + 0.5, row + 0.5


def _draw_panel(
    axes: Any, picture: Picture, round_: Round, state: TempleState, title: str, falls: tuple = (), prefix: str = "start"
) -> None:
    from matplotlib.patches import FancyArrowPatch, Rectangle

    temple = round_.temple
    _, _, rows, cols = seen(round_, state.down, 0, 0)
    axes.set_xlim(-0.35, cols + 0.35)
    axes.set_ylim(rows + 0.75, -0.35)
    axes.set_aspect("equal")
    axes.axis("off")
    axes.set_title(title, fontsize=8)
    explored = {room for index, room in enumerate(round_.targets) if state.explored >> index & 1}
    for room in range(temple.room_count):
        x, y = _centre(round_, state.down, room)
        if room in explored:
            face, hatch = EXPLORED, ".."
        elif room in round_.targets:
            face, hatch = TARGET, ""
        else:
            face, hatch = PALE if room in temple.card_rooms else "#ffffff", ""
        cell = Rectangle((x - 0.5, y - 0.5), 1, 1, facecolor=face, edgecolor="#bbbbbb", hatch=hatch, linewidth=0.5)
        picture.tip(
            axes.add_patch(cell),
            f"{prefix}-room-{room}",
            f"{temple.names[room]}"
            + (" (explored)" if room in explored else " (to explore)" if room in round_.targets else ""),
        )
        axes.text(x, y + 0.32, printable(temple.names[room])[:10], ha="center", va="center", fontsize=5)
    for slot, (a, b) in enumerate(temple.slots):
        fixed = temple.fixed >> slot & 1
        built = state.walls >> slot & 1
        if not (fixed or built):
            continue
        (xa, ya), (xb, yb) = _centre(round_, state.down, a), _centre(round_, state.down, b)
        mx, my = (xa + xb) / 2, (ya + yb) / 2
        # the wall is the side the two rooms share: perpendicular to the line joining their centres
        dx, dy = (yb - ya) / 2, (xb - xa) / 2
        line = axes.plot(
            [mx - dx, mx + dx],
            [my - dy, my + dy],
            color=FIXED_WALL if fixed else VARIABLE_WALL,
            linewidth=4 if fixed else 3,
            linestyle="-" if fixed else (0, (2, 1)),
            solid_capstyle="butt",
        )[0]
        picture.tip(
            line, f"{prefix}-wall-{slot}", f"{'fixed' if fixed else 'variable'} wall between {temple.slot_name(slot)}"
        )
    axes.add_patch(Rectangle((0, 0), cols, rows, fill=False, edgecolor=BLACK, linewidth=1.5))
    for door in temple.doors:
        side = (door.side - state.down) % 4  # where the door's side stands as seen: 0 bottom, 1 right...
        x, y = _centre(round_, state.down, door.room)
        offset = {0: (0, 0.62), 1: (0.62, 0), 2: (0, -0.62), 3: (-0.62, 0)}[side]
        marker = axes.text(
            x + offset[0],
            y + offset[1],
            door.name[:1].upper(),
            ha="center",
            va="center",
            fontsize=6,
            color="white",
            fontweight="bold",
            bbox={"boxstyle": "round,pad=0.15", "facecolor": DOOR, "edgecolor": BLACK if door == round_.door else DOOR},
        )
        picture.tip(
            marker,
            f"{prefix}-door-{door.name}",
            f"door {door.name}" + (" (the revealed door)" if door == round_.door else ""),
        )
    for number, fall in enumerate(falls):
        path = [fall.start, *fall.path]
        for a, b in pairwise(path):
            arrow = FancyArrowPatch(
                _centre(round_, state.down, a),
                _centre(round_, state.down, b),
                arrowstyle="-|>",
                mutation_scale=8,
                color=FALL,
                linewidth=1.2,
            )
            picture.tip(
                axes.add_patch(arrow),
                f"{prefix}-fall-{number}-{a}-{b}",
                f"fall {number + 1}: {temple.names[a]} -> {temple.names[b]}",
            )
    x, y = _centre(round_, state.down, state.die)
    die = axes.add_patch(Rectangle((x - 0.18, y - 0.28), 0.36, 0.36, facecolor=DIE, edgecolor=BLACK))
    picture.tip(die, f"{prefix}-die", f"the die, in {temple.names[state.die]}")
    axes.text(x, y - 0.1, "●", ha="center", va="center", fontsize=5, color="white")
    axes.text(cols / 2, rows + 0.6, f"down: {SIDES[state.down]}", ha="center", va="center", fontsize=6)


@plain_text
def draw(level: Level, verdict: Any | None, options: PictureOptions) -> Picture:
    """The round at its start and, with options.answer, after every turn of `verdict`'s plan (a
    TempleVerdict), PANELS_PER_ROW panels a row; the key below them."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    round_: Round = level.model
    plan = verdict.plan if options.answer and verdict is not None else None
    records = plan.records if plan is not None else ()
    across = min(1 + len(records), PANELS_PER_ROW)
    title = printable(round_.name or level.path)
    if options.answer and verdict is not None and plan is None:
        title += " (no plan: " + ("unwinnable" if verdict.solvable is False else "unknown") + ")"
    sheet = Sheet(title)
    picture = Picture(sheet.figure)

    def panel(index: int) -> Any:
        _, _, rows, cols = seen(round_, records[index - 1].state.down if index else round_.start().down, 0, 0)
        scale = PANEL_INCHES / max(round_.temple.rows, round_.temple.cols, 1) * 0.85
        return sheet.panel((cols + 0.7) * scale, (rows + 1.1) * scale, index // across, index % across)

    _draw_panel(panel(0), picture, round_, round_.start(), "start")
    for index, record in enumerate(records, start=1):
        if options.deadline is not None:
            options.deadline.check()
        seat = "" if record.turn.player is None else f"player {record.turn.player + 1}: "
        action = describe_action(round_.temple, record.turn.card, record.turn.action)
        text = f"turn {record.number}: {seat}{record.turn.card}\n{action}"
        if record.explored_room is not None:
            text += f"; explores {round_.temple.names[record.explored_room]}"
        _draw_panel(panel(index), picture, round_, record.state, text, record.falls, prefix=f"turn-{record.number}")
    handles = [
        Line2D([], [], color=FIXED_WALL, linewidth=4, label="fixed wall"),
        Line2D([], [], color=VARIABLE_WALL, linewidth=3, linestyle=(0, (2, 1)), label="variable wall"),
        Patch(facecolor=DIE, edgecolor=BLACK, label="the die"),
        Line2D([], [], color=FALL, marker=">", label="a fall"),
        Patch(facecolor=TARGET, label="room to explore"),
        Patch(facecolor=EXPLORED, hatch="..", label="explored"),
        Patch(facecolor=PALE, edgecolor="#bbbbbb", label="room card room"),
        Patch(facecolor=DOOR, label="door (framed: the revealed one)"),
    ]
    sheet.key(handles, side="below", fontsize=7)
    sheet.finish()
    return picture
