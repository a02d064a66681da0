"""The picture of a Twisty Little Passages level: the map with walls, doors, keys, items and enemies, and
with --route the best route as a numbered line, the hero's hp at each step and each enemy's damage to the
hero where the route fights it.

Drawn from what twisty.load and twisty.check hand back: the level's model and the verdict's route (a rules
Replay, already replayed by the plain rules). The walk between two steps is a shortest walk through the
cells open at that point, the same one `twisty solve` draws in text.
"""

from __future__ import annotations

from collections import deque
from typing import Any

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
    new_figure,
    plain_text,
)
from twisty.rules.level import Level
from twisty.rules.passages import GOAL, OUTSIDE, START, WALL, Cell, PassagesLevel, Replay, neighbours, reachable_cells

ANSWER = "route"
CELL_INCHES = 0.5

# How each kind of object is drawn: (colour, marker); doors are whole cells, hatched.
KIND_STYLE = {
    "key": (YELLOW, "D"),
    "elixir": (GREEN, "P"),
    "equipment": (BLUE, "^"),
    "enemy": (VERMILLION, "o"),
    "door": (ORANGE, "s"),
}
START_COLOUR, GOAL_COLOUR, ROUTE_COLOUR = SKY_BLUE, GREEN, PURPLE


def questions(options: PictureOptions) -> tuple[str, ...] | None:
    """The best route is all the picture needs, and only when it is drawn."""
    return ("route",) if options.answer else None


def walk_between(level: PassagesLevel, open_cells: set[Cell], start: Cell, target: Cell) -> list[Cell]:
    """A shortest walk from start to target through open cells (the target may itself be a blocker)."""
    previous: dict[Cell, Cell | None] = {start: None}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        if cell == target:
            break
        for nxt in neighbours(cell):
            if nxt not in previous and (nxt in open_cells or nxt == target):
                previous[nxt] = cell
                queue.append(nxt)
    path: list[Cell] = []
    here: Cell | None = target if target in previous else None
    while here is not None:
        path.append(here)
        here = previous[here]
    return path[::-1]


def route_cells(level: PassagesLevel, route: Replay) -> list[Cell]:
    """Every cell the hero walks through, in order, from the start to the goal."""
    consumed: set[int] = set()
    index_at = level.thing_at
    position = level.start
    walked = [position]
    for step in route.steps:
        walk = walk_between(level, reachable_cells(level, frozenset(consumed)), position, step.at)
        walked.extend(walk[1:])
        position = step.at
        if step.action in ("open", "fight"):
            consumed.add(index_at[step.at])
    return walked


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
    """The map, its legend, and with options.answer the route of `verdict` (a PassagesVerdict)."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch, Rectangle

    model: PassagesLevel = level.model
    height, width = model.height, model.width
    figure = new_figure(width * CELL_INCHES + 4.6, max(height * CELL_INCHES + 1.2, 3.4))
    picture = Picture(figure)
    axes = figure.add_subplot()
    axes.set_xlim(-0.05, width + 0.05)
    axes.set_ylim(height + 0.05, -0.05)
    axes.set_aspect("equal")
    axes.axis("off")

    for row, text in enumerate(model.grid):
        for col, char in enumerate(text):
            if char == OUTSIDE:
                continue
            colour = (
                WALL_GREY if char == WALL else START_COLOUR if char == START else GOAL_COLOUR if char == GOAL else FLOOR
            )
            axes.add_patch(
                Rectangle(
                    (col, row), 1, 1, facecolor=colour, edgecolor="#bfbfbf", linewidth=0.6, gid=f"cell-{row}-{col}"
                )
            )
            if char in (START, GOAL):
                axes.text(
                    col + 0.5,
                    row + 0.5,
                    char,
                    ha="center",
                    va="center",
                    fontsize=11,
                    weight="bold",
                    color=BLACK,
                    zorder=6,
                )

    route = verdict.route if options.answer and verdict is not None else None
    fought = (
        {step.at: (number, step) for number, step in enumerate(route.steps, start=1) if step.action == "fight"}
        if route is not None
        else {}
    )
    for index, thing in enumerate(model.things):
        row, col = thing.cell
        colour, marker = KIND_STYLE[thing.kind]
        colour = getattr(thing, "colour", None) or colour
        describe = thing.describe()
        artist: Any  # a door's Rectangle or a thing's marker line
        if thing.kind == "door":
            artist = axes.add_patch(
                Rectangle(
                    (col + 0.08, row + 0.08), 0.84, 0.84, facecolor=colour, edgecolor=BLACK, hatch="||", linewidth=1.0
                )
            )
        else:
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
        tip = f"{thing.symbol} at row {row}, col {col}: {describe}"
        if thing.cell in fought:
            number, step = fought[thing.cell]
            tip += f"; fought at step {number}: -{step.damage} hp, {step.stats.hp} hp left"
            axes.text(
                col + 0.96,
                row + 0.94,
                f"-{step.damage}",
                ha="right",
                va="bottom",
                fontsize=8,
                zorder=6,
                weight="bold",
                color=BLACK,
                bbox={"boxstyle": "round,pad=0.1", "facecolor": "white", "edgecolor": VERMILLION, "linewidth": 0.8},
            )
        picture.tip(artist, f"thing-{index}", tip)
        axes.text(
            col + 0.5,
            row + 0.52,
            thing.symbol,
            ha="center",
            va="center",
            fontsize=9,
            weight="bold",
            color="white" if thing.kind in ("enemy", "equipment") else BLACK,
            zorder=6,
        )

    handles: list[Any] = [
        Patch(facecolor=WALL_GREY, edgecolor="#bfbfbf", label="# wall"),
        Patch(facecolor=FLOOR, edgecolor="#bfbfbf", label=". floor"),
        Patch(facecolor=START_COLOUR, edgecolor="#bfbfbf", label="S start"),
        Patch(facecolor=GOAL_COLOUR, edgecolor="#bfbfbf", label="G goal"),
    ]
    if route is not None:
        _draw_route(axes, picture, model, route)
        handles += [
            Line2D([], [], color=ROUTE_COLOUR, linewidth=3, label="best route (step numbers)"),
            Line2D(
                [],
                [],
                marker="o",
                markersize=11,
                color="white",
                markeredgecolor=BLACK,
                linestyle="none",
                label="step number; hp after it, top right",
            ),
            Patch(facecolor="white", edgecolor=VERMILLION, label="-n: damage taken in that fight"),
        ]
    seen: set[str] = set()
    for thing in model.things:
        if thing.symbol in seen:
            continue
        seen.add(thing.symbol)
        colour, marker = KIND_STYLE[thing.kind]
        colour = getattr(thing, "colour", None) or colour
        label = f"{thing.symbol} {thing.describe()}"
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
    figure.legend(handles=handles, loc="outside right upper", fontsize=8, frameon=False)
    player = model.player
    title = model.name or level.path
    subtitle = f"start: hp {player.hp}, atk {player.atk}, def {player.defense}, keys {player.keys}"
    line = verdict_line(verdict) if options.answer else ""
    axes.set_title(f"{title}\n{subtitle}" + (f"\n{line}" if line else ""), fontsize=10, loc="left")
    return picture


def _draw_route(axes: Any, picture: Picture, model: PassagesLevel, route: Replay) -> None:
    cells = route_cells(model, route)
    xs = [col + 0.5 for _, col in cells]
    ys = [row + 0.5 for row, _ in cells]
    (line,) = axes.plot(
        xs, ys, color=ROUTE_COLOUR, linewidth=3, alpha=0.8, solid_capstyle="round", solid_joinstyle="round", zorder=3
    )
    picture.tip(line, "route", f"the best route: {len(route.steps)} steps, final hp {route.final_hp}")
    used: dict[Cell, int] = {}
    for number, step in enumerate(route.steps, start=1):
        row, col = step.at
        shift = 0.22 * used.get(step.at, 0)
        used[step.at] = used.get(step.at, 0) + 1
        x, y = col + 0.18 + shift, row + 0.2
        badge = axes.text(
            x,
            y,
            str(number),
            ha="center",
            va="center",
            fontsize=7,
            weight="bold",
            color=BLACK,
            zorder=5,
            bbox={"boxstyle": "circle,pad=0.15", "facecolor": "white", "edgecolor": BLACK, "linewidth": 0.8},
        )
        picture.tip(
            badge,
            f"step-{number}",
            f"step {number}: {step.action} {step.thing} at row {row}, col {col}"
            f" (-{step.damage} hp) -> hp {step.stats.hp}, atk {step.stats.atk}, def {step.stats.defense}, "
            f"keys {step.stats.keys}",
        )
        if not shift:
            axes.text(
                col + 0.96, row + 0.06, f"hp {step.stats.hp}", ha="right", va="top", fontsize=6.5, color=BLACK, zorder=5
            )
