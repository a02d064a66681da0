"""The picture of a Twisty Little Passages level: the map with walls, doors, keys, items and enemies, and
with --route the best route as a numbered path: one leg per step, coloured from the first step to the last
(dark to light), with an arrow on each leg and the step's number in a circle where it happens, each
enemy's damage where the route fights it and the hero's hp after each step.

Drawn from what twisty.load and twisty.check hand back: the level's model and the verdict's route (a rules
Replay, already replayed by the plain rules). The walk between two steps is a shortest walk through the
cells open at that point (twisty.render.passages.route_legs, the one `twisty solve` draws in text). A
corridor walked more than once is drawn as parallel lanes, so that the way back never hides the way out.

Small maps are drawn cell by cell (every cell and thing an SVG element with an id and a tooltip); large
ones as one image of the cells and one set of markers per kind, which keeps a 120x120 map within a
second; the step numbers carry their tooltips either way.
"""

from __future__ import annotations

from itertools import pairwise
from typing import Any

from twisty.errors import LimitReached
from twisty.render.layout import Labels, Sheet
from twisty.render.passages import route_legs
from twisty.render.pictures import (
    BLACK,
    BLUE,
    FLOOR,
    GREEN,
    ORANGE,
    PURPLE,
    SKY_BLUE,
    VERMILLION,
    WALL_GREY,
    YELLOW,
    Picture,
    PictureOptions,
    plain_text,
    printable,
)
from twisty.rules.level import Level
from twisty.rules.passages import GOAL, OUTSIDE, START, WALL, Cell, PassagesLevel, Replay, Step

# A cell is drawn this large (inches) on small maps; a large map is drawn at most LARGEST_SIDE inches on
# its longer side, but no cell smaller than SMALLEST_CELL.
CELL_INCHES = 0.5
SMALLEST_CELL = 0.15
LARGEST_SIDE = 36.0
# Maps of more cells are drawn as one image and marker sets (no element per cell).
DETAILED_CELLS = 2_500

# How each kind of object is drawn: (colour, marker); doors are whole cells, hatched.
KIND_STYLE = {
    "key": (YELLOW, "D"),
    "elixir": (GREEN, "P"),
    "equipment": (BLUE, "^"),
    "enemy": (VERMILLION, "o"),
    "door": (ORANGE, "s"),
    "shop": (PURPLE, "p"),
}
START_COLOUR, GOAL_COLOUR = SKY_BLUE, GREEN
# The route's colours run along this colour map from its first step to its last, stopping short of its
# palest end so that the last legs stay visible on white floor.
ROUTE_COLOURS, ROUTE_SPAN = "viridis", 0.82
# Where a fight's damage and a step's hp go first around the cell (unit steps; y grows downwards).
BELOW_FIRST = ((1, 1), (-1, 1), (1, -1), (-1, -1), (0, 1), (1, 0), (0, -1), (-1, 0))
ABOVE_FIRST = ((0, -1), (0, 1), (1, -1), (-1, -1), (1, 1), (-1, 1))
# Parallel lanes of a corridor walked again: offsets from the middle of the cell, in cells.
LANES = (0.0, 0.14, -0.14, 0.28, -0.28)


def questions(options: PictureOptions) -> tuple[str, ...] | None:
    """The best route is all the picture needs, and only when it is drawn."""
    return ("route",) if options.answer else None


def route_cells(level: PassagesLevel, route: Replay) -> list[Cell]:
    """Every cell the hero walks through, in order, from the start to the goal."""
    walked = [level.start]
    for leg in route_legs(level, route):
        walked.extend(leg[1:])
    return walked


def cell_inches(level: PassagesLevel) -> float:
    return max(SMALLEST_CELL, min(CELL_INCHES, LARGEST_SIDE / max(level.height, level.width, 1)))


def verdict_line(verdict: Any) -> str:
    if verdict is None:
        return ""
    if verdict.solvable is None:
        return f"unknown ({verdict.limit} limit)"
    if not verdict.solvable:
        return "unsolvable (proved)"
    proof = "proved best" if verdict.proved else "not proved best"
    unique = "" if verdict.unique is None else ", unique" if verdict.unique else ", not unique"
    return f"solvable, final hp {verdict.final_hp} ({proof}){unique}"


@plain_text
def draw(level: Level, verdict: Any | None, options: PictureOptions) -> Picture:
    """The map, its key, and with options.answer the route of `verdict` (a PassagesVerdict)."""
    model: PassagesLevel = level.model
    height, width = model.height, model.width
    inches = cell_inches(model)
    scale = inches / CELL_INCHES  # fonts and lines shrink with the cells
    player = model.player
    title = printable(model.name or level.path)
    lines = [title, f"start: hp {player.hp}, atk {player.atk}, def {player.defense}, keys {player.keys}"]
    if options.answer:
        lines.append(verdict_line(verdict))
    sheet = Sheet()
    picture = Picture(sheet.figure)
    axes = sheet.panel(width * inches, height * inches)
    axes.set_xlim(0, width)
    axes.set_ylim(height, 0)
    detailed = height * width <= DETAILED_CELLS
    labels = Labels(axes, inches, (0.0, 0.0, float(width), float(height)))
    _draw_cells(axes, model, detailed, scale, labels)
    route = verdict.route if options.answer and verdict is not None else None
    fought = (
        {step.at: (number, step) for number, step in enumerate(route.steps, start=1) if step.action == "fight"}
        if route is not None
        else {}
    )
    _draw_things(axes, picture, model, fought, detailed, scale, labels)
    handles = _map_key()
    if route is not None:
        legs, cut = _legs_within(model, route, options)
        if cut:
            picture.cut = "the walk between the route's steps was not worked out within the time limit"
            lines.append(f"({picture.cut}: straight dashed lines join the steps)")
        handles += _draw_route(axes, picture, model, route, legs, scale, labels)
    handles += _thing_key(model)
    sheet.title_text = "\n".join(line for line in lines if line)
    sheet.key(handles, fontsize=8)
    sheet.finish()
    if labels.dropped:
        picture.notes.append(f"{labels.dropped} labels left out for want of room (every one is in a tooltip)")
    return picture


def _legs_within(model: PassagesLevel, route: Replay, options: PictureOptions) -> tuple[list[list[Cell]], bool]:
    """The route's legs, worked out within the options' deadline: (legs, False), or when the time runs out
    (straight legs from step to step, True)."""
    try:
        return route_legs(model, route, options.deadline), False
    except LimitReached:
        legs: list[list[Cell]] = []
        position = model.start
        for step in route.steps:
            legs.append([] if step.action == "buy" else [position, step.at])
            position = step.at if step.action != "buy" else position
        return legs, True


def _draw_cells(axes: Any, model: PassagesLevel, detailed: bool, scale: float, labels: Labels) -> None:
    from matplotlib.collections import PolyCollection
    from matplotlib.patches import Rectangle

    def colour_of(char: str) -> str:
        if char == WALL:
            return WALL_GREY
        return START_COLOUR if char == START else GOAL_COLOUR if char == GOAL else FLOOR

    def colour_key(char: str) -> str:
        return "" if char == OUTSIDE else colour_of(char)

    if detailed:
        for row, text in enumerate(model.grid):
            for col, char in enumerate(text):
                if char == OUTSIDE:
                    continue
                # add_artist: the panel's limits are set already, and add_patch would widen them cell by
                # cell (most of the drawing's time on a map of a thousand cells).
                axes.add_artist(
                    Rectangle(
                        (col, row),
                        1,
                        1,
                        facecolor=colour_of(char),
                        edgecolor="#bfbfbf",
                        linewidth=0.6,
                        gid=f"cell-{row}-{col}",
                    )
                )
    else:
        # Runs of equal cells along each row, as one collection of rectangles: a large map draws in a
        # fraction of a second, where an image resampled to the picture's size takes seconds.
        runs: list[list[tuple[float, float]]] = []
        colours: list[str] = []
        for row, text in enumerate(model.grid):
            col = 0
            while col < len(text):
                end = col
                while end < len(text) and colour_key(text[end]) == colour_key(text[col]):
                    end += 1
                if text[col] != OUTSIDE:
                    runs.append([(col, row), (end, row), (end, row + 1), (col, row + 1)])
                    colours.append(colour_of(text[col]))
                col = end
        axes.add_collection(PolyCollection(runs, facecolors=colours, edgecolors="none", gid="cells"))
    for row, text in enumerate(model.grid):
        for col, char in enumerate(text):
            if char in (START, GOAL):
                axes.text(
                    col + 0.5, row + 0.5, char, ha="center", va="center", fontsize=11 * scale, weight="bold", zorder=6
                )
                labels.reserve(col + 0.34, row + 0.34, col + 0.66, row + 0.66)


def _draw_things(
    axes: Any,
    picture: Picture,
    model: PassagesLevel,
    fought: dict[Cell, tuple[int, Step]],
    detailed: bool,
    scale: float,
    labels: Labels,
) -> None:
    from matplotlib.patches import Rectangle

    markers: dict[tuple[str, str], list[Cell]] = {}
    for index, thing in enumerate(model.things):
        row, col = thing.cell
        colour, marker = KIND_STYLE[thing.kind]
        colour = thing.colour or colour
        tip = f"{thing.symbol} at row {row}, col {col}: {printable(thing.describe())}"
        if thing.cell in fought:
            number, step = fought[thing.cell]
            tip += f"; fought at step {number}: -{step.damage} hp, {step.stats.hp} hp left"
        if thing.kind == "door":
            artist = axes.add_patch(
                Rectangle(
                    (col + 0.08, row + 0.08),
                    0.84,
                    0.84,
                    facecolor=colour,
                    edgecolor=BLACK,
                    hatch="||" if detailed else "",
                    linewidth=1.0 * scale,
                )
            )
            if detailed:
                picture.tip(artist, f"thing-{index}", tip)
        elif detailed:
            (artist,) = axes.plot(
                [col + 0.5],
                [row + 0.5],
                marker=marker,
                markersize=17,
                color=colour,
                markeredgecolor=BLACK,
                linestyle="none",
                zorder=4,
            )
            picture.tip(artist, f"thing-{index}", tip)
        else:
            markers.setdefault((colour, marker), []).append(thing.cell)
        axes.text(
            col + 0.5,
            row + 0.52,
            thing.symbol,
            ha="center",
            va="center",
            fontsize=9 * scale,
            weight="bold",
            color="white" if thing.kind in ("enemy", "equipment") else BLACK,
            zorder=6,
        )
        labels.reserve(col + 0.38, row + 0.38, col + 0.62, row + 0.64)
    for (colour, marker), cells in markers.items():
        axes.scatter(
            [col + 0.5 for _, col in cells],
            [row + 0.5 for row, _ in cells],
            s=(17 * scale) ** 2,
            marker=marker,
            c=colour,
            edgecolors=BLACK,
            linewidths=0.8 * scale,
            zorder=4,
        )


def _lane_segments(legs: list[list[Cell]]) -> list[list[list[tuple[float, float]]]]:
    """Each leg as polylines of (x, y) points: a stair (cells that are not neighbours on the drawing) breaks
    the line, and an edge between two cells walked again takes the next lane beside the first."""
    used: dict[tuple[Cell, Cell], int] = {}
    drawn: list[list[list[tuple[float, float]]]] = []
    for leg in legs:
        polylines: list[list[tuple[float, float]]] = [[]]
        for a, b in pairwise(leg):
            if abs(a[0] - b[0]) + abs(a[1] - b[1]) != 1:
                polylines.append([])
                continue
            edge = (min(a, b), max(a, b))
            lane = used.get(edge, 0)
            used[edge] = lane + 1
            shift = LANES[lane % len(LANES)]
            # The side is the same whichever way the edge is walked: across the edge as written low to high.
            (r0, c0), (r1, c1) = edge
            dx, dy = (r1 - r0) * shift, -(c1 - c0) * shift
            polylines[-1] += [(a[1] + 0.5 + dx, a[0] + 0.5 + dy), (b[1] + 0.5 + dx, b[0] + 0.5 + dy)]
        drawn.append([line for line in polylines if line])
    return drawn


def _draw_route(
    axes: Any,
    picture: Picture,
    model: PassagesLevel,
    route: Replay,
    legs: list[list[Cell]],
    scale: float,
    labels: Labels,
) -> list[Any]:
    """The legs, their arrows and the step labels; returns the key's entries for the route."""
    from matplotlib import colormaps
    from matplotlib.collections import LineCollection
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    steps = route.steps
    palette = colormaps[ROUTE_COLOURS]
    colours = [palette(ROUTE_SPAN * number / max(1, len(steps) - 1)) for number in range(len(steps))]
    segments: list[list[tuple[float, float]]] = []
    segment_colours: list[Any] = []
    styles: list[Any] = []
    arrows: list[tuple[float, float, float, float, Any]] = []
    straight = [len(leg) == 2 and abs(leg[0][0] - leg[1][0]) + abs(leg[0][1] - leg[1][1]) > 1 for leg in legs]
    for number, polylines in enumerate(_lane_segments(legs)):
        for line in polylines:
            segments.append(line)
            segment_colours.append(colours[number])
            styles.append("solid")
        longest = max(polylines, key=len, default=None)
        if longest is not None and len(longest) >= 2:
            middle = len(longest) // 4 * 2  # points come in pairs, one pair per edge walked
            (x0, y0), (x1, y1) = longest[middle], longest[middle + 1]
            arrows.append(((x0 + x1) / 2, (y0 + y1) / 2, x1 - x0, y1 - y0, colours[number]))
        if straight[number]:
            (r0, c0), (r1, c1) = legs[number]
            segments.append([(c0 + 0.5, r0 + 0.5), (c1 + 0.5, r1 + 0.5)])
            segment_colours.append(colours[number])
            styles.append((0, (2, 2)))
    collection = LineCollection(
        segments,
        colors=segment_colours,
        linestyles=styles,
        linewidths=2.6 * scale,
        alpha=0.9,
        capstyle="round",
        joinstyle="round",
        zorder=3,
    )
    picture.tip(
        axes.add_collection(collection), "route", f"the best route: {len(steps)} steps, final hp {route.final_hp}"
    )
    # An arrowhead in the middle of each leg, pointing the way it is walked (y grows downwards here).
    for marker in (">", "<", "v", "^"):
        heads = [
            (x, y, colour)
            for x, y, dx, dy, colour in arrows
            if marker == (">" if dx > 0 else "<" if dx < 0 else "v" if dy > 0 else "^")
        ]
        if heads:
            axes.scatter(
                [x for x, _, _ in heads],
                [y for _, y, _ in heads],
                s=(10 * scale) ** 2,
                marker=marker,
                c=[colour for _, _, colour in heads],
                edgecolors="white",
                linewidths=0.5 * scale,
                zorder=3.5,
            )
    _label_steps(axes, picture, steps, colours, scale, labels)
    end = colours[-1] if colours else BLACK
    return [
        Line2D([], [], color=colours[0] if colours else BLACK, linewidth=3, label="route: first steps (dark)"),
        Line2D([], [], color=end, linewidth=3, label=f"route: last steps (light), {len(steps)} in all"),
        Line2D(
            [],
            [],
            marker="o",
            markersize=11,
            color="white",
            markeredgecolor=BLACK,
            linestyle="none",
            label="step number (hover it: what, hp after)",
        ),
        Patch(facecolor="white", edgecolor=VERMILLION, label="-n: damage taken in that fight"),
        Patch(facecolor="white", edgecolor="#808080", label="hp n: hp after the step"),
    ]


def _label_steps(
    axes: Any, picture: Picture, steps: tuple[Step, ...], colours: list[Any], scale: float, labels: Labels
) -> None:
    """Each step's number in a circle by its cell (never on another label), then the damages, then the
    hp after each step where there is room."""
    size = max(5.0, 7.5 * scale)
    for number, step in enumerate(steps, start=1):
        row, col = step.at
        badge = labels.place(
            col + 0.5,
            row + 0.5,
            str(number),
            clearance=0.12,
            fontsize=size,
            pad=0.12,
            circle=True,
            required=True,
            color=BLACK,
            zorder=7,
            bbox={"facecolor": "white", "edgecolor": colours[number - 1], "linewidth": 1.4 * scale},
        )
        assert badge is not None  # required labels are always placed
        picture.tip(
            badge,
            f"step-{number}",
            f"step {number}: {step.action} {step.thing} at row {row}, col {col}"
            f" (-{step.damage} hp) -> hp {step.stats.hp}, atk {step.stats.atk}, def {step.stats.defense}, "
            f"keys {step.stats.keys}",
        )
    # Then each fight's damage, below its cell first, and the hp after each step, above it first; a label
    # that finds no room is left out (its step's tooltip says it too).
    extras = [
        (step, f"-{step.damage}", BELOW_FIRST, 7.0, 0.1, VERMILLION, 0.8, 1.0)
        for step in steps
        if step.action == "fight"
    ] + [(step, f"hp {step.stats.hp}", ABOVE_FIRST, 6.0, 0.05, "#808080", 0.5, 0.85) for step in steps]
    for step, text, directions, points, pad, edge, width, alpha in extras:
        row, col = step.at
        labels.place(
            col + 0.5,
            row + 0.5,
            text,
            clearance=0.12,
            directions=directions,
            fontsize=max(4.0, points * scale),
            pad=pad,
            color=BLACK,
            zorder=6,
            bbox={"facecolor": "white", "edgecolor": edge, "linewidth": width * scale, "alpha": alpha},
        )


def _map_key() -> list[Any]:
    from matplotlib.patches import Patch

    return [
        Patch(facecolor=WALL_GREY, edgecolor="#bfbfbf", label="# wall"),
        Patch(facecolor=FLOOR, edgecolor="#bfbfbf", label=". floor"),
        Patch(facecolor=START_COLOUR, edgecolor="#bfbfbf", label="S start"),
        Patch(facecolor=GOAL_COLOUR, edgecolor="#bfbfbf", label="G goal"),
    ]


def _thing_key(model: PassagesLevel) -> list[Any]:
    """One entry per symbol of the map, as the legend of the level names it."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    handles: list[Any] = []
    seen: set[str] = set()
    for thing in model.things:
        if thing.symbol in seen:
            continue
        seen.add(thing.symbol)
        colour, marker = KIND_STYLE[thing.kind]
        colour = thing.colour or colour
        label = printable(f"{thing.symbol} {thing.describe()}")
        if thing.kind == "door":
            handles.append(Patch(facecolor=colour, edgecolor=BLACK, hatch="||", label=label))
        else:
            handles.append(
                Line2D(
                    [],
                    [],
                    marker=marker,
                    markersize=10,
                    color=colour,
                    markeredgecolor=BLACK,
                    linestyle="none",
                    label=label,
                )
            )
    return handles


def drawing_seconds(level: Level) -> float:
    """About how long drawing this level takes (seconds, on a slow machine), for `render` to set aside
    from its deadline before it asks for the route."""
    model: PassagesLevel = level.model
    return 0.2 + 6e-5 * model.height * model.width + 2e-3 * len(model.things)
