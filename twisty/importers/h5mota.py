"""h5mota projects (mota-js 2.x) as passages levels, one per chosen range of floors, with a loss report.

The project is read by twisty.importers.h5mota_project (its files, without running anything), each floor by
twisty.importers.h5mota_floor (every block and event either modelled exactly or in the loss report at its
place), monsters and items by twisty.importers.h5mota_things, and data.js's standard shops by
twisty.importers.h5mota_shops; docs/mota.md says what is read and how.

A level of floors A..B starts where the hero starts when A holds the tower's start, else where a hero
coming up from the floor below A arrives, with the tower's starting stats; it is won by taking a stair up
out of B (those stairs are its goals), or, when B has none, by defeating an enemy whose battle ends in a
`win` event (a boss). Its shop is the first of data.js's shops that fits twisty's and that the hero can use
on these floors: one the quick-shop list offers from the start (a 2.7+ shop that is not `mustEnable`), else
one that an event on these floors opens.
"""

from __future__ import annotations

from dataclasses import replace

from twisty.errors import LevelError
from twisty.importers.h5mota_floor import RangeShop, floor_tiles
from twisty.importers.h5mota_project import MAX_PROJECT_FLOORS, Project, floor_of, read_project
from twisty.importers.h5mota_shops import ShopFit
from twisty.importers.h5mota_things import KEY_IDS
from twisty.importers.h5mota_values import display_name, shown, whole_number
from twisty.importers.losses import LossReport
from twisty.importers.tower import FloorPlan, ImportedLevel, tower_level
from twisty.rules.passages import COLOURS, Thing, TowerStats
from twisty.rules.passages_combat import Enemy

__all__ = ["MAX_PROJECT_FLOORS", "Project", "floor_of", "floor_ranges", "import_range", "read_project"]


def floor_ranges(project: Project, chosen: list[str]) -> list[list[str]]:
    """The floor ranges to import: each `A..B` (or one floor A) of `chosen`, in the order of main.floorIds;
    none chosen: each floor alone."""
    ids = project.floor_ids
    if not chosen:
        return [[floor] for floor in ids]
    ranges = []
    for text in chosen:
        first, _, last = text.partition("..")
        last = last or first
        for name in (first, last):
            if name not in ids:
                raise LevelError(
                    f"--floors {text}: no floor {name!r} in main.floorIds ({ids[0]} .. {ids[-1]})",
                    path=str(project.folder / "data.js"),
                )
        low, high = ids.index(first), ids.index(last)
        if low > high:
            raise LevelError(
                f"--floors {text}: {first} comes after {last} in main.floorIds", path=str(project.folder / "data.js")
            )
        ranges.append(ids[low : high + 1])
    return ranges


def import_range(project: Project, floors: list[str]) -> tuple[ImportedLevel | None, LossReport, str]:
    """The level of floors `floors` (consecutive in main.floorIds), what was lost, and why no level was made
    when none was (a range with no way to win, or one past the level format's limits)."""
    report = LossReport()
    ids = project.floor_ids
    plans: list[FloorPlan] = []
    goals = 0
    shops = _range_shop(project, report)
    for name in floors:
        floor = floor_of(project, name)
        rows, found_goals = floor_tiles(project, name, floor, floors, report, shops)
        goals += found_goals
        plans.append(FloorPlan(name, rows))
    if not _place_start(project, floors, plans, report):
        return None, report, f"no start: the hero starts elsewhere and nothing on {floors[0]} says where one arrives"
    bosses = [
        t
        for plan in plans
        for row in plan.rows
        for t in row
        if isinstance(t, Thing) and t.enemy is not None and t.enemy.boss
    ]
    if goals and bosses:
        for plan in plans:
            for row in plan.rows:
                for c, tile in enumerate(row):
                    if isinstance(tile, Thing) and tile.enemy is not None and tile.enemy.boss:
                        row[c] = Thing("enemy", "", (0, 0), enemy=Enemy(**{**vars(tile.enemy), "boss": False}))
        report.add(floors[-1], "win after a battle, with a stair up as well", "the level is won at the stair")
    if not goals and not bosses:
        return None, report, f"no way to win: no stair leads up out of {floors[-1]} and no battle there ends in a win"
    player = _player(project, report)
    shop = _level_shop(shops, plans, project, floors, report)
    if shop is not None and shop.from_start:
        player = replace(player, shopping=True)
    if floors[0] != project.start_floor and project.start_floor in ids:
        report.add(
            "",
            f"the floors start above the tower's start ({project.start_floor})",
            "with the tower's starting stats",
            note=True,
        )
    title = display_name(project.first.get("title"), "")
    name = f"{title} {floors[0]}" + (f"..{floors[-1]}" if len(floors) > 1 else "")
    header = [
        f"Imported from the h5mota project {project.folder} (floors {floors[0]}..{floors[-1]}) by",
        "`twisty import h5mota`.",
        "Won by taking a stair up out of the last floor (or by defeating the boss whose battle wins).",
        "Losses: " + ("none" if report.exact else "yes (see the loss report): exact for this model only"),
    ]
    project.poll()
    try:
        level = tower_level(
            name.strip(),
            plans,
            player,
            shop=None if shop is None else shop.shop,
            header=header,
            shown=f"{project.folder} {floors[0]}..{floors[-1]}",
            deadline=project.deadline,
        )
    except LevelError as error:
        return None, report, error.message
    return level, report, ""


def _range_shop(project: Project, report: LossReport) -> RangeShop:
    """The shops of data.js for one level: the first that fits and that the quick-shop list offers from the
    start (mota-js 2.7+ `canOpenShop`: not `mustEnable`, not an item or common-event shop) is the level's;
    every other shop offered from the start is a loss of the whole tower."""
    shops = RangeShop(project.shops)
    raw = project.first.get("shops")
    for entry in raw if isinstance(raw, list) else []:
        if not isinstance(entry, dict) or "use" in entry or entry.get("mustEnable"):
            continue  # (a 2.0-2.6 shop, or one that needs a visit: lost only where an event opens it)
        if entry.get("item") or entry.get("commonEvent") or not isinstance(entry.get("id"), str):
            continue  # (never opened without a visit)
        fit = shops.fits.get(entry["id"])
        if isinstance(fit, ShopFit):
            first = shops.chosen = shops.chosen or fit
            if first is not fit:
                report.add(
                    "", f"shop {shown(fit.ident)} (a second shop: the level's is {shown(first.ident)})", "not modelled"
                )
        else:
            report.add("", f"shop {shown(entry['id'])} ({fit}), open from the start", "not modelled")
    return shops


def _level_shop(
    shops: RangeShop, plans: list[FloorPlan], project: Project, floors: list[str], report: LossReport
) -> ShopFit | None:
    """The level's shop: the chosen one, if the hero can use it (from the start, or from a shop cell left
    on these floors); a shop open from the start that the start's floor keeps closed (`canUseQuickShop`
    false) is a loss, since the level lets the hero buy there."""
    fit = shops.chosen
    if fit is None:
        return None
    if fit.from_start:
        start = next(plan.name for plan in plans if any("start" in row for row in plan.rows))
        if floor_of(project, start).get("canUseQuickShop") is False:
            report.add(start, f"shop {shown(fit.ident)} closed on this floor (canUseQuickShop)", "open in the level")
        return fit
    return fit if shops.cells else None


def _player(project: Project, report: LossReport) -> TowerStats:
    """The hero's starting stats (firstData.hero) and the keys among its tools."""
    hero = project.hero
    tools = hero.table("items", "firstData.hero.items").table("tools", "firstData.hero.items.tools")
    for tool, count in tools.value.items():
        if tool not in KEY_IDS and count:
            report.add("", f"the hero starts with tool {shown(tool)}", "not modelled")
    return TowerStats(
        hero.whole("hp", "the hero's hp", minimum=1, default=1),
        hero.whole("atk", "the hero's atk"),
        hero.whole("def", "the hero's def"),
        0,
        hero.whole("mdef", "the hero's mdef"),
        hero.whole("money", "the hero's money"),
        tuple(tools.whole(f"{colour}Key", f"the hero's {colour} keys") for colour in COLOURS),
    )


def _place_start(project: Project, floors: list[str], plans: list[FloorPlan], report: LossReport) -> bool:
    """Put the hero's start: where the tower starts, if that is in the range; else where a hero coming up
    from the floor below arrives on the first floor (its `downFloor` place, else its down stair)."""
    cell: tuple[int, int] | None = None
    if project.start_floor in floors:
        loc = project.hero.table("loc", "firstData.hero.loc")
        plan = plans[floors.index(project.start_floor)]
        cell = (loc.whole("y", "the hero's y"), loc.whole("x", "the hero's x"))
    else:
        plan = plans[0]
        floor = floor_of(project, floors[0])
        arrival = floor.get("downFloor")
        if isinstance(arrival, list) and len(arrival) == 2:
            x, y = (whole_number(floor.file, ("downFloor", i), arrival[i], "downFloor") for i in (0, 1))
            cell = (y, x)
        else:
            ident = next(
                (
                    number
                    for number, entry in project.maps.value.items()
                    if isinstance(entry, dict) and entry.get("id") == "downFloor"
                ),
                None,
            )
            for y, numbers in enumerate(floor.value["map"]):
                for x, number in enumerate(numbers):
                    if cell is None and ident is not None and str(number) == ident:
                        cell = (y, x)
    if cell is None or not (0 <= cell[0] < len(plan.rows) and 0 <= cell[1] < len(plan.rows[cell[0]])):
        return False
    tile = plan.rows[cell[0]][cell[1]]
    if tile == "wall" or isinstance(tile, Thing):
        report.add(plan.name, "the hero starts on a tile that is not a floor", "a floor cell", cell)
    plan.rows[cell[0]][cell[1]] = "start"
    return True
