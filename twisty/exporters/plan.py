"""What both exporters share: a passages level read back as floors of places, the colour each key takes, and
refusals placed in the level's file.

A level is stacked on one grid (floors bottom first, a row of outside between two, docs/passages.md); an
exporter wants it floor by floor, each floor a rectangle of places: a wall, a floor cell, the start, a goal,
an up or a down stair, or an object (by its index in `level.things`). Outside cells and the cells past a
short row are walls: neither can be entered.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from twisty.errors import LevelError
from twisty.rules.passages import COLOURS, Cell, Floor, PassagesLevel, Thing
from twisty.rules.passages_positions import entry_position
from twisty.rules.passages_writer import entry_of
from twisty.rules.source import LevelSource

WALL, FLOOR, START, GOAL, UP, DOWN = "wall", "floor", "start", "goal", "up", "down"
# What stands on one cell of a floor: a kind of cell above, or the index of the object there.
Place = str | int


@dataclass(frozen=True)
class FloorPlan:
    """One floor of a level: its name, its number from the bottom (0) and its places, rows of equal length."""

    name: str
    number: int
    rows: tuple[tuple[Place, ...], ...]

    @property
    def height(self) -> int:
        return len(self.rows)

    @property
    def width(self) -> int:
        return len(self.rows[0]) if self.rows else 0

    def cells(self, wanted: Place) -> list[tuple[int, int]]:
        """The (row, column) of every place `wanted` on this floor, row by row."""
        return [(r, c) for r, row in enumerate(self.rows) for c, place in enumerate(row) if place == wanted]


class Exporting:
    """A level on its way to another format: the model, and the file it came from, so that a refusal can
    point at what the format cannot say (its legend entry, or its place on the map)."""

    def __init__(self, level: PassagesLevel, source: LevelSource | None, path: str, form: str) -> None:
        self.level = level
        self.source = source
        self.path = path
        self.form = form  # the format's name in messages ("h5mota", "magic-tower-AI")

    def refuse(self, message: str, *, thing: Thing | None = None, cell: Cell | None = None) -> LevelError:
        """A LevelError: `message`, said of the format, at the legend entry of `thing` or at `cell` on the
        map (when the file is at hand)."""
        line = column = None
        where = ""
        if cell is not None:
            floor, place = self.level.floor_of(cell)
            where = f"{'floor ' + floor + ', ' if floor else ''}row {place[0]}, column {place[1]}: "
        if self.source is not None and thing is not None:
            line, column = entry_position(self.source, thing.symbol)
        elif self.source is not None and cell is not None:
            line, column = _map_position(self.source, self.level, cell)
        text = f"{where}cannot be exported to {self.form}: {message}"
        return LevelError(text, path=self.path, line=line, column=column)

    def plans(self) -> list[FloorPlan]:
        return floor_plans(self.level)

    def plain_key_colour(self) -> str:
        """The colour the rulebook's keys and doors (no colour) take: the first of COLOURS the level does not
        use itself (both formats have keys of colours only). Refused when the level uses all four."""
        level = self.level
        used = {thing.colour for thing in level.things if thing.colour}
        used |= {colour for colour, count in zip(COLOURS, level.player.coloured, strict=False) if count}
        plain = [thing for thing in level.things if thing.kind in ("key", "door") and not thing.colour]
        free = [colour for colour in COLOURS if colour not in used]
        if not free and (plain or level.player.keys):
            raise self.refuse(
                "the level has keys of no colour besides keys of all four colours; each key of the format has "
                "one of the four colours",
                thing=plain[0] if plain else None,
            )
        return free[0] if free else COLOURS[0]

    def colour_of(self, thing: Thing) -> str:
        return thing.colour or self.plain_key_colour()

    def start_keys(self) -> dict[str, int]:
        """The keys the hero starts with, per colour (the rulebook's under their colour)."""
        player = self.level.player
        keys = {colour: count for colour, count in zip(COLOURS, player.coloured, strict=False)}
        if player.keys:
            colour = self.plain_key_colour()
            keys[colour] = keys.get(colour, 0) + player.keys
        return {colour: keys.get(colour, 0) for colour in COLOURS}


def floor_plans(level: PassagesLevel) -> list[FloorPlan]:
    """The level's floors, bottom first (a level of one map is one floor), each as wide as the level."""
    floors = level.floors or (Floor("", 0, level.height),)
    width = level.width
    at = level.thing_at
    ups = {up for up, _ in level.links}
    downs = {down for _, down in level.links}
    goals = {cell for cell in level.goals if level.guard_at(cell) is None}

    def place(cell: Cell) -> Place:
        if cell in at:
            return at[cell]
        if cell == level.start:
            return START
        if cell in goals:
            return GOAL
        if cell in ups:
            return UP
        if cell in downs:
            return DOWN
        return WALL if level.is_wall(cell) else FLOOR

    return [
        FloorPlan(
            floor.name,
            number,
            tuple(
                tuple(place((row, col)) for col in range(width))
                for row in range(floor.first_row, floor.first_row + floor.height)
            ),
        )
        for number, floor in enumerate(floors)
    ]


def kinds(level: PassagesLevel, kind: str) -> list[tuple]:
    """The distinct objects of `kind` (objects whose legend entries are the same are one), in the order they
    first stand on the map."""
    seen: dict[tuple, None] = {}
    for thing in level.things:
        if thing.kind == kind:
            seen.setdefault(entry_of(thing))
    return list(seen)


def _map_position(source: LevelSource, level: PassagesLevel, cell: Cell) -> tuple[int | None, int | None]:
    """Line and column of a map cell in the file: the map's first content line plus its row on its floor."""
    name, (row, col) = level.floor_of(cell)
    if not level.floors:
        first = source.locate_block_string("map")
    else:
        number = [floor.name for floor in level.floors].index(name)
        starts = [i for i, line in enumerate(source.lines, start=1) if re.match(r"^\s*\[\[\s*floor\s*\]\]", line)]
        first = None
        if number < len(starts):
            for offset, line in enumerate(source.lines[starts[number] :], start=starts[number] + 1):
                opening = re.match(r"^\s*map\s*=\s*(\"\"\"|''')?", line)
                if opening:
                    first = offset + 1 if opening.group(1) and not line[opening.end() :].strip() else offset
                    break
    return (None, None) if first is None else (first + row, col + 1)
