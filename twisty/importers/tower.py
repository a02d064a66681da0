"""What both importers share: a tower as floors of tiles, made into a passages level and its file.

An importer reads a foreign format into floors of Tile values; `tower_level` stacks them as the loader does
(twisty.rules.passages_format: bottom floor first, a row of outside between two), joins the stairs ("The up
stair of floor f and the down stair of floor f+1 are one place"), writes the level file with the rules'
writer and reads it back with the rules' loader, so that an imported level is exactly what its file says.
A level past the format's limits (too many blockers, say) is a LevelError naming the source, never a
position in the generated text, which the user never sees.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from twisty.errors import LevelError
from twisty.limits import Deadline
from twisty.rules.passages import (
    FLOOR,
    GOAL,
    START,
    WALL,
    Cell,
    Expectations,
    Floor,
    PassagesLevel,
    Shop,
    Stats,
    Thing,
)
from twisty.rules.passages_format import load_passages
from twisty.rules.passages_writer import level_text
from twisty.rules.source import parse_level_bytes

# A tile: "wall", "floor", "start", "goal", "up" / "down" (a stair), or an object (a Thing whose cell is
# filled in when the floors are stacked).
Tile = str | Thing


@dataclass
class FloorPlan:
    name: str
    rows: list[list[Tile]]


@dataclass
class ImportedLevel:
    """One level made by an import: its file's text and the level the loader reads from it."""

    name: str
    text: str
    level: PassagesLevel
    floors: tuple[str, ...]


def tower_level(
    name: str,
    plans: list[FloorPlan],
    player: Stats,
    *,
    shop: Shop | None = None,
    description: str = "",
    header: list[str] | None = None,
    shown: str = "imported level",
    deadline: Deadline | None = None,
) -> ImportedLevel:
    """The level of these floors (one floor: a plain map), written and read back. A LevelError (at `shown`,
    the source) when the level does not fit the level format's limits."""
    grid: list[str] = []
    floors: list[Floor] = []
    things: list[Thing] = []
    stairs: list[dict[str, list[Cell]]] = []
    start: Cell | None = None
    goals: list[Cell] = []
    for plan in plans:
        if grid:
            grid.append("")
        first = len(grid)
        floors.append(Floor(plan.name, first, len(plan.rows)))
        found: dict[str, list[Cell]] = {"up": [], "down": []}
        for r, row in enumerate(plan.rows):
            chars = []
            for c, tile in enumerate(row):
                cell = (first + r, c)
                if isinstance(tile, Thing):
                    things.append(replace(tile, cell=cell))
                    chars.append(FLOOR)
                elif tile in ("up", "down"):
                    found[tile].append(cell)
                    chars.append(FLOOR)
                elif tile == "start":
                    start = cell
                    chars.append(START)
                elif tile == "goal":
                    goals.append(cell)
                    chars.append(GOAL)
                else:
                    chars.append(WALL if tile == "wall" else FLOOR)
            grid.append("".join(chars))
        stairs.append(found)
    links = [
        (up, down)
        for below, above in zip(stairs, stairs[1:], strict=False)
        for up in below["up"]
        for down in above["down"]
    ]
    bosses = tuple(index for index, thing in enumerate(things) if thing.enemy is not None and thing.enemy.boss)
    guards: tuple[int | None, ...] = () if goals else bosses
    if guards:
        goals = [things[index].cell for index in bosses]
        things = [replace(thing, wins=True) if index in bosses else thing for index, thing in enumerate(things)]
    assert start is not None, "an importer places the start"
    level = PassagesLevel(
        tuple(grid),
        start,
        tuple(goals),
        tuple(things),
        player,
        name,
        description,
        Expectations(),
        tuple(floors) if len(floors) > 1 else (),
        tuple(links),
        shop,
        guards,
    )
    try:
        text = level_text(level, [_one_line(line) for line in header or []])
    except ValueError as error:  # (the writer's legend has a character for about a hundred kinds of object)
        raise LevelError(f"the imported level cannot be written as a level file: {error}", path=shown) from None
    try:
        loaded = load_passages(parse_level_bytes(text.encode("utf-8"), shown), deadline)
    except LevelError as error:
        raise LevelError(
            f"the imported level breaks a limit of the level format (docs/limits.md): {error.message}", path=shown
        ) from None
    return ImportedLevel(name, text, loaded, tuple(plan.name for plan in plans))


def _one_line(text: str) -> str:
    """A header line as a comment line: no line breaks or other control characters from the source."""
    return "".join(char if char.isprintable() else "?" for char in text)
