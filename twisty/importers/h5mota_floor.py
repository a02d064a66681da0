"""One floor of an h5mota project as tiles of twisty's level, with everything it does not model in the loss
report, at its place.

Every block and event of the floor has one fate: modelled exactly (a wall, a floor cell, a stair, a key,
a door, an item, a monster, a shop cell), or named in the loss report with its position and what the game
would do there (twisty.importers.h5mota_blocks reads each cell as mota-js does). In particular:

- a hidden block (`"enable": false`) is absent at the start: a floor cell, reported "shown by a script";
- a trigger twisty does not read (a tower's own, such as `specialwall` or an NPC's `man`) is reported by
  name, and the block is what its passability says (a wall, or a floor cell);
- `canPass` and `noPass` say whether a block is a wall; `cannotIn` on all four sides (tile 17, `airwall`,
  on any layer) is a wall; any other one-way restriction is reported (a floor cell in the level);
- an event that only shows text is nothing; one that shows text and hides its own block (an NPC who talks
  and leaves) is a floor cell; one that opens a standard shop that fits twisty's (h5mota_shops) makes a
  shop cell: a floor cell stepped on, or a block touched from its one open side (an altar in a wall);
- any other event, a script, or an event on a monster, an item or a door is reported, never played.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from twisty.importers.h5mota_blocks import (
    AIRWALL,
    DIRECTIONS,
    Block,
    event_object,
    hides_itself,
    read_block,
    shop_opened,
    shows_only,
    trigger_loss,
)
from twisty.importers.h5mota_project import Project
from twisty.importers.h5mota_shops import ShopFit
from twisty.importers.h5mota_things import KEY_IDS, item, monster
from twisty.importers.h5mota_values import Source, shown
from twisty.importers.losses import LossReport
from twisty.importers.tower import Tile
from twisty.rules.passages import Thing
from twisty.rules.passages_combat import Enemy

STAIR_IDS = ("upFloor", "downFloor")
# Floor entries of events twisty does not play (the floor's `events` are read cell by cell), each named.
EVENT_LISTS = {
    "afterBattle": "event after a battle",
    "afterGetItem": "event after taking an item",
    "afterOpenDoor": "event after opening a door",
    "beforeBattle": "event before a battle",
    "autoEvent": "automatic event",
    "cannotMove": "move restriction",
    "cannotMoveIn": "move restriction",
}
ARRIVAL_EVENTS = {"firstArrive": "event on first arrival", "eachArrive": "event on each arrival"}
Place = tuple[int, int]


@dataclass
class RangeShop:
    """The one shop of a level (twisty's model has one): the first of data.js's shops that fits and that
    the hero can use on these floors; every other place that opens a shop is a loss."""

    fits: dict[str, ShopFit | str]
    chosen: ShopFit | None = None
    cells: list[tuple[str, Place]] = field(default_factory=list)

    def opened(self, ident: str) -> ShopFit | str:
        """The shop an event opens, when it is the level's shop; else why it is not."""
        fit = self.fits.get(ident, "not one of data.js's shops")
        if isinstance(fit, str):
            return fit
        if self.chosen is None:
            self.chosen = fit
        if self.chosen.ident != ident:
            return f"a second shop (the level's is {shown(self.chosen.ident)})"
        return fit


def floor_tiles(
    project: Project, name: str, floor: Source, chosen: list[str], report: LossReport, shops: RangeShop
) -> tuple[list[list[Tile]], int]:
    """One floor's tiles, and how many goals (stairs up out of the range) it has."""
    ratio = floor.decimal("ratio", f"floor {name}'s ratio", default=Fraction(1))
    events = _events_by_place(name, floor, report)
    layers = _layer_walls(project, name, floor, report)
    rows: list[list[Tile]] = []
    altars: list[Place] = []
    for y, numbers in enumerate(floor.value["map"]):
        row: list[Tile] = []
        for x, number in enumerate(numbers):
            place = (y, x)
            tile = _cell(project, name, number, events.get(place), place, ratio, report, shops, altars)
            if place in layers:
                tile = _behind_layer(name, tile, place, report)
            row.append(tile)
        rows.append(row)
    project.poll()
    _check_altars(name, rows, altars, report, shops)
    _after_events(name, floor, rows, report)
    hidden = {place for place, event in events.items() if event.get("enable") is False}
    goals = _stairs(project, name, floor, chosen, rows, hidden, report)
    return rows, goals


def _events_by_place(name: str, floor: Source, report: LossReport) -> dict[Place, dict[str, Any]]:
    """The floor's `events` by (row, col); an event at a place that is no cell of the map is a loss."""
    table = floor.get("events")
    found: dict[Place, dict[str, Any]] = {}
    grid = floor.value["map"]
    for key, value in (table if isinstance(table, dict) else {}).items():
        event = event_object(value)
        place = place_of(key)
        if event is None:
            continue
        if place is None or not (0 <= place[0] < len(grid) and 0 <= place[1] < len(grid[place[0]])):
            if not shows_only(event.get("data")) or event.get("enable") is False:
                report.add(name, f"event at {shown(key)} (not a cell of the map)", "not played")
            continue
        found[place] = event
    return found


def place_of(text: str) -> Place | None:
    """An event's key "x,y" as (row, col); None unless both are plain numbers of at most 4 digits."""
    found = re.fullmatch(r"\s*([0-9]{1,4})\s*,\s*([0-9]{1,4})\s*", str(text))
    return (int(found.group(2)), int(found.group(1))) if found else None


def _cell(
    project: Project,
    floor: str,
    number: int,
    event: dict[str, Any] | None,
    place: Place,
    ratio: Fraction,
    report: LossReport,
    shops: RangeShop,
    altars: list[Place],
) -> Tile:
    """What the cell is, as twisty models it (module docstring)."""
    if number == 0 and event is None:
        return "floor"
    entry = project.maps.get(str(number)) if number else None
    if number and number != AIRWALL and not isinstance(entry, dict):
        report.add(floor, f"tile {number} not in maps.js", "a wall", place)
        return "wall"
    block = read_block(number, entry, event)
    if block.hidden:
        report.add(floor, f"hidden {block.name} (shown by a script)", "absent at the start: a floor cell", place)
        return "floor"
    if block.trigger == "battle" and block.cls.startswith("enemy"):
        tile = monster(project, floor, block.ident, place, report)
        return _with_event(floor, block, tile, "monster", place, report)
    if block.trigger == "getItem" and block.cls == "items":
        tile = item(project, floor, block.ident, place, ratio, report)
        return _with_event(floor, block, tile, "item", place, report)
    if block.trigger == "openDoor":
        keys = entry.get("doorInfo", {}).get("keys", {}) if entry and isinstance(entry.get("doorInfo"), dict) else {}
        if isinstance(keys, dict) and len(keys) == 1 and next(iter(keys)) in KEY_IDS and list(keys.values()) == [1]:
            door = Thing("door", "", (0, 0), name="door", colour=KEY_IDS[next(iter(keys))])
            return _with_event(floor, block, door, "door", place, report)
        report.add(floor, f"special door {block.name}", "a wall", place)
        return "wall"
    if block.ident in STAIR_IDS and block.trigger in (None, "action", "changeFloor"):
        # a stair: its changeFloor says where it leads (_stairs)
        return _with_event(floor, block, block.ident, "stair", place, report)
    return _plain_block(project, floor, block, place, report, shops, altars)


def _plain_block(
    project: Project,
    floor: str,
    block: Block,
    place: Place,
    report: LossReport,
    shops: RangeShop,
    altars: list[Place],
) -> Tile:
    """A block that is no monster, item, door or stair (a wall, a terrain, an NPC, an empty cell with an
    event): a wall or a floor cell as its passability says, or a shop cell, with what it does otherwise in
    the report."""
    passed: Tile = "wall" if block.no_pass else "floor"
    treated = "a wall" if block.no_pass else "a floor cell"
    if block.cannot_in >= DIRECTIONS:
        passed, treated = "wall", "a wall"  # (no side lets the hero in: exactly a wall)
    elif block.cannot_in or block.cannot_out:
        report.add(floor, f"{block.name} (one way: {_one_way(block)})", treated, place)
    if block.script:
        report.add(floor, f"{block.name} (a script when touched)", treated, place)
    if block.trigger is None or block.trigger == "changeFloor":
        return passed
    if block.trigger != "action":
        report.add(
            floor,
            f"{block.name} ({trigger_loss(block.trigger, project.own_trigger(block.trigger, floor))})",
            treated,
            place,
        )
        return passed
    if shows_only(block.actions):
        return passed
    if hides_itself(block):
        return "floor"  # (it talks and leaves: touching it costs nothing)
    opened = shop_opened(block)
    if opened is not None:
        fit = shops.opened(opened)
        if isinstance(fit, ShopFit):
            if block.no_pass:
                altars.append(place)
            return Thing("shop", "", (0, 0), name="shop")
        report.add(floor, f"{block.name} opening shop {shown(opened)} ({fit})", treated, place)
        return passed
    what = (
        "NPC with an event"
        if block.cls.startswith("npc")
        else "event"
        if not block.ident
        else f"{block.name} with an event"
    )
    report.add(floor, what, f"{treated} (its event not played)", place)
    return passed


def _with_event(floor: str, block: Block, tile: Tile, what: str, place: Place, report: LossReport) -> Tile:
    """A monster, item, door or stair: an event at its place that does more than show text is reported (the
    engine runs its trigger, and the event's fields may change it)."""
    if (block.event is not None and not shows_only(block.actions)) or block.script:
        report.add(floor, f"event on a {what}", "not played", place)
    return tile


def _one_way(block: Block) -> str:
    parts = []
    if block.cannot_in:
        parts.append("no way in from " + ", ".join(sorted(block.cannot_in)))
    if block.cannot_out:
        parts.append("no way out to " + ", ".join(sorted(block.cannot_out)))
    return "; ".join(parts)


def _layer_walls(project: Project, floor: str, source: Source, report: LossReport) -> set[Place]:
    """The cells of the background and foreground layers (`bgmap`, `fgmap`) that no side lets the hero
    into (tile 17 airwall, or a block whose `cannotIn` has all four sides): walls on the event layer too.
    Any other one-way tile on a layer is a loss; layers are only pictures otherwise."""
    walls: set[Place] = set()
    for layer in ("bgmap", "fgmap"):
        grid = source.get(layer)
        if not isinstance(grid, list):
            continue
        for y, numbers in enumerate(grid):
            if not isinstance(numbers, list):
                continue
            for x, number in enumerate(numbers):
                if not isinstance(number, int) or isinstance(number, bool) or number <= 0:
                    continue
                entry = project.maps.get(str(number))
                block = read_block(number, entry if isinstance(entry, dict) else None, None)
                if block.cannot_in >= DIRECTIONS:
                    walls.add((y, x))
                elif block.cannot_in or block.cannot_out:
                    report.add(
                        floor, f"{block.name} on the {layer[:2]} layer (one way: {_one_way(block)})", "ignored", (y, x)
                    )
    return walls


def _behind_layer(floor: str, tile: Tile, place: Place, report: LossReport) -> Tile:
    """A cell that a layer closes on every side is a wall; an object there is out of reach."""
    if isinstance(tile, Thing) or tile in STAIR_IDS:
        report.add(floor, "an object under a tile that lets no one in", "a wall", place)
    return "wall"


def _check_altars(name: str, rows: list[list[Tile]], altars: list[Place], report: LossReport, shops: RangeShop) -> None:
    """A shop opened by touching a block (an altar): exact as a shop cell when the block has one open side,
    from which the hero touches it (stepping "onto" it then leads nowhere new); otherwise a wall, reported."""
    for y, x in altars:
        open_sides = [
            (r, c)
            for r, c in ((y - 1, x), (y + 1, x), (y, x - 1), (y, x + 1))
            if 0 <= r < len(rows) and 0 <= c < len(rows[r]) and rows[r][c] != "wall"
        ]
        if len(open_sides) != 1:
            report.add(name, f"shop altar open on {len(open_sides)} sides", "a wall", (y, x))
            rows[y][x] = "wall"
        else:
            shops.cells.append((name, (y, x)))
    for y, row in enumerate(rows):
        for x, tile in enumerate(row):
            if isinstance(tile, Thing) and tile.kind == "shop" and (y, x) not in altars:
                shops.cells.append((name, (y, x)))


def _after_events(name: str, floor: Source, rows: list[list[Tile]], report: LossReport) -> None:
    """The floor's other event lists: a battle whose events end in a `win` makes its monster the boss;
    any other event that does more than show text is reported at its place."""
    for key, what in EVENT_LISTS.items():
        table = floor.get(key)
        if not isinstance(table, dict):
            continue
        for text, event in table.items():
            cell = place_of(text)
            if key in ("cannotMove", "cannotMoveIn"):
                if isinstance(event, list) and event:
                    way = "no way out to" if key == "cannotMove" else "no way in from"
                    sides = ", ".join(sorted(str(side) for side in event if isinstance(side, str))[:4])
                    report.add(name, f"{what} ({way} {shown(sides)})", "not modelled", cell)
                continue
            if shows_only(event):
                continue
            enemy = _enemy_at(rows, cell) if cell is not None else None
            if key == "afterBattle" and cell is not None and enemy is not None and _wins(event):
                rows[cell[0]][cell[1]] = Thing("enemy", "", (0, 0), enemy=Enemy(**{**vars(enemy), "boss": True}))
                continue
            report.add(name, what, "not played", cell)
    for key, what in ARRIVAL_EVENTS.items():
        if not shows_only(floor.get(key)):
            report.add(name, what, "not played")


def _wins(event: Any) -> bool:
    """Whether an event list holds a `win` action anywhere (the tower is won after it)."""
    if isinstance(event, dict):
        return event.get("type") == "win" or any(_wins(value) for value in event.values())
    if isinstance(event, list):
        return any(_wins(value) for value in event)
    return False


def _enemy_at(rows: list[list[Tile]], cell: Place) -> Enemy | None:
    if 0 <= cell[0] < len(rows) and 0 <= cell[1] < len(rows[cell[0]]):
        tile = rows[cell[0]][cell[1]]
        if isinstance(tile, Thing):
            return tile.enemy
    return None


def _stairs(
    project: Project,
    name: str,
    floor: Source,
    chosen: list[str],
    rows: list[list[Tile]],
    hidden: set[Place],
    report: LossReport,
) -> int:
    """The floor's `changeFloor` places: a stair up out of the range is a goal, one to the next or previous
    floor of the range a stair; anything else is reported. Returns the goals."""
    goals = 0
    index = project.floor_ids.index(name)
    change = floor.get("changeFloor")
    for text, target in (change if isinstance(change, dict) else {}).items():
        if target is None:
            continue  # (the engine skips a null entry: no stair there)
        cell = place_of(text)
        if (
            cell is None
            or not isinstance(target, dict)
            or not (0 <= cell[0] < len(rows) and 0 <= cell[1] < len(rows[cell[0]]))
        ):
            report.add(name, f"unreadable stair (changeFloor at {shown(text)})", "ignored")
            continue
        to = target.get("floorId")
        to_index = {":next": index + 1, ":before": index - 1, ":now": index}.get(
            to if isinstance(to, str) else "", project.floor_ids.index(to) if to in project.floor_ids else -1
        )
        y, x = cell
        if cell in hidden:
            continue  # (a hidden block's changeFloor is hidden with it: reported already)
        if to_index == index + 1 and name == chosen[-1]:
            rows[y][x] = "goal"
            goals += 1
        elif to_index == index + 1 and to_index < len(project.floor_ids) and project.floor_ids[to_index] in chosen:
            rows[y][x] = "up"
        elif to_index == index - 1 and to_index >= 0 and project.floor_ids[to_index] in chosen:
            rows[y][x] = "down"
        elif to_index == index - 1:
            report.add(name, "stair down out of the floors imported", "a floor cell", cell, note=True)
            rows[y][x] = "floor"
        else:
            report.add(name, f"teleport to {shown(to)}", "a floor cell", cell)
            rows[y][x] = "floor"
    for y, row in enumerate(rows):
        for x, tile in enumerate(row):
            if tile in STAIR_IDS:
                report.add(name, "stair without a changeFloor", "a floor cell", (y, x))
                row[x] = "floor"
    return goals
