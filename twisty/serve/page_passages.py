"""The page's editor for Twisty Little Passages maps: the palette (walls, floor, start, goal and the
legend's things), the grid of map cells with the best route over it, and the edit of one map character in
the level's text (comments and layout kept).

A page module (named by a game's registry entry `page`) has:

    palette(level) -> list[{"symbol", "label"}]       what a cell can hold, in the order shown
    grid(level, verdict, spread, deadline) -> dict    the cells the editor draws (JSON-ready)
    edit(level, text, cell, symbol) -> str            the text with that cell changed (EditError if not)
    landed(before, after, cell, symbol) -> bool       whether the changed level shows the edit asked for
"""

from __future__ import annotations

from typing import Any

from twisty.limits import Deadline
from twisty.render.passages import route_legs
from twisty.rules.level import Level
from twisty.rules.passages import FLOOR, GOAL, START, WALL
from twisty.serve.edits import EditError


def palette(level: Level) -> list[dict[str, str]]:
    """What a cell can hold: the map's fixed characters, then every symbol of the legend (those not yet on
    the map too)."""
    fixed = [(WALL, "wall"), (FLOOR, "floor"), (START, "start (moves it)"), (GOAL, "goal")]
    legend: dict[str, str] = {}
    for thing in level.model.things:
        legend.setdefault(thing.symbol, thing.describe())
    table = level.source.data.get("legend")
    if isinstance(table, dict):
        for symbol, entry in table.items():
            if isinstance(entry, dict) and isinstance(symbol, str) and len(symbol) == 1:
                name = entry.get("name") or entry.get("kind") or symbol
                legend.setdefault(symbol, f"{name} ({entry.get('kind', '?')})")
    return [{"symbol": symbol, "label": label} for symbol, label in fixed] + [
        {"symbol": symbol, "label": label} for symbol, label in sorted(legend.items())
    ]


def grid(level: Level, verdict: Any | None, spread: int | None, deadline: Deadline) -> dict[str, Any]:
    """The map's rows, the kind of each thing's symbol, and with a route the cells it walks (within the
    deadline) and its steps."""
    model = level.model
    rows = [row.ljust(model.width) for row in model.grid]
    kinds = {thing.symbol: thing.kind for thing in model.things}
    shown: dict[str, Any] = {"kind": "map", "rows": rows, "kinds": kinds, "route": [], "steps": []}
    route = getattr(verdict, "route", None)
    if route is not None:
        walked = [model.start]
        for leg in route_legs(model, route, deadline):
            walked.extend(leg[1:])
        shown["route"] = [list(cell) for cell in walked]
        shown["steps"] = [
            {
                "at": list(step.at),
                "action": step.action,
                "thing": step.thing,
                "damage": step.damage,
                "hp": step.stats.hp,
            }
            for step in route.steps
        ]
    return shown


def landed(before: Level, after: Level, cell: list[int], symbol: str) -> bool:
    """Whether the changed level's cell holds what was asked."""
    return bool(after.model.char((cell[0], cell[1])) == symbol)


def edit(level: Level, text: str, cell: list[int], symbol: str) -> str:
    """The text with map cell (row, col) holding `symbol`; the start moves when the start is placed."""
    model = level.model
    if len(cell) != 2 or not (0 <= cell[0] < model.height and 0 <= cell[1] < model.width):
        raise EditError(f"no cell {cell} on this map ({model.height} rows, {model.width} columns)")
    if len(symbol) != 1 or symbol not in {entry["symbol"] for entry in palette(level)}:
        raise EditError(f"{symbol!r} is not a map character of this level (add it to [legend] first)")
    row, col = cell
    first = level.source.locate_block_string("map")
    lines = text.split("\n")
    if first is None or any(
        first - 1 + number >= len(lines) or lines[first - 1 + number] != map_row
        for number, map_row in enumerate(model.grid)
    ):
        raise EditError("the map is not written as a plain multi-line string; edit it in the text")
    cells = [list(map_row) for map_row in model.grid]
    if symbol == START:
        cells = [[FLOOR if char == START else char for char in map_row] for map_row in cells]
    while len(cells[row]) <= col:
        cells[row].append(" ")
    cells[row][col] = symbol
    for number, map_row in enumerate(cells):
        lines[first - 1 + number] = "".join(map_row)
    return "\n".join(lines)
