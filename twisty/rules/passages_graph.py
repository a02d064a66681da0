"""The region graph of a passages level: open areas joined by blockers (doors and enemies).

"At any time, you may move anywhere there is an unobstructed path", so only areas matter, not cells: an
area is a connected set of open cells (floor, start, items), and all its items can be taken together the
moment it is reached ("Taking an item never hurts"). A consumed blocker becomes floor and joins every
area, blocker and goal around it. Engines search on this graph instead of the grid.

In a tower (docs/mota.md) the stairs join the cells they link, so one area may lie on several floors; an
item that is a decision (Thing.optional) is a blocker like a door, and a boss whose defeat wins is a goal.
"""

from __future__ import annotations

from dataclasses import dataclass

from twisty.rules.passages import OUTSIDE, WALL, PassagesLevel


@dataclass(frozen=True)
class Area:
    items: tuple[int, ...]  # object indices
    hp: int  # elixir hp in the area
    atk: int
    defense: int
    keys: int


@dataclass(frozen=True)
class LevelGraph:
    areas: tuple[Area, ...]
    start_area: int
    blockers: tuple[int, ...]  # object index of blocker b
    blocker_areas: tuple[tuple[int, ...], ...]  # areas touching blocker b
    blocker_blockers: tuple[tuple[int, ...], ...]  # blockers touching blocker b
    blocker_goals: tuple[tuple[int, ...], ...]  # goals touching blocker b
    area_blockers: tuple[tuple[int, ...], ...]  # blockers touching area a
    area_goals: tuple[tuple[int, ...], ...]  # goals touching area a

    @property
    def blocker_of_object(self) -> dict[int, int]:
        return {obj: b for b, obj in enumerate(self.blockers)}


def build_graph(level: PassagesLevel) -> LevelGraph:
    # Cells as numbers on the grid framed by one ring of outside, so that a cell's four neighbours are
    # plain offsets and never fall off the grid: every engine builds this graph once per question.
    width = level.width + 2
    size = width * (level.height + 2)
    up, down = -width, width

    def number(cell: tuple[int, int]) -> int:
        return (cell[0] + 1) * width + cell[1] + 1

    open_cell = bytearray(size)
    for r, row in enumerate(level.grid):
        base = (r + 1) * width + 1
        for c, char in enumerate(row):
            if char != WALL and char != OUTSIDE:
                open_cell[base + c] = 1
    blocker_at: dict[int, int] = {}
    item_at: dict[int, int] = {}
    for index, thing in enumerate(level.things):
        if thing.is_blocker:
            blocker_at[number(thing.cell)] = index
        elif thing.is_item:
            item_at[number(thing.cell)] = index
    # Stairs join the cells they link ("one place"), so an area runs on over them onto the next floor.
    linked: dict[int, list[int]] = {}
    for one, other in level.links:
        linked.setdefault(number(one), []).append(number(other))
        linked.setdefault(number(other), []).append(number(one))
    goal_at = {number(cell): g for g, cell in enumerate(level.goals)}
    for n in (*blocker_at, *goal_at):
        open_cell[n] = 0

    area_of = [-1] * size
    area_cells: list[list[int]] = []
    # Areas are numbered from the start's, then in reading order, so numbering is reproducible.
    start = number(level.start)
    for seed in (start, *range(size)):
        if area_of[seed] >= 0 or not open_cell[seed]:
            continue
        area = len(area_cells)
        area_of[seed] = area
        cells = [seed]
        for n in cells:  # grows while it is read: a breadth-first walk
            around = (n + up, n + down, n - 1, n + 1)
            if linked and n in linked:
                around += tuple(linked[n])
            for m in around:
                if open_cell[m] and area_of[m] < 0:
                    area_of[m] = area
                    cells.append(m)
        area_cells.append(cells)

    area_things: list[list[int]] = [[] for _ in area_cells]
    for n, index in sorted(item_at.items(), key=lambda pair: pair[1]):
        area_things[area_of[n]].append(index)
    areas = []
    for items in area_things:
        things = [level.things[i] for i in items]
        areas.append(
            Area(
                tuple(items),
                hp=sum(t.hp for t in things if t.kind == "elixir"),
                atk=sum(t.atk for t in things if t.kind == "equipment"),
                defense=sum(t.defense for t in things if t.kind == "equipment"),
                keys=sum(1 for t in things if t.kind == "key" and not t.colour),
            )
        )

    blockers = tuple(sorted(blocker_at.values()))
    number_of = {obj: b for b, obj in enumerate(blockers)}
    blocker_areas, blocker_blockers, blocker_goals = [], [], []
    area_blockers: list[set[int]] = [set() for _ in areas]
    area_goals: list[set[int]] = [set() for _ in areas]
    for b, obj in enumerate(blockers):
        n = number(level.things[obj].cell)
        around = (n + up, n + down, n - 1, n + 1)
        touching_areas = sorted({area_of[m] for m in around if area_of[m] >= 0})
        blocker_areas.append(tuple(touching_areas))
        blocker_blockers.append(tuple(sorted(number_of[blocker_at[m]] for m in around if m in blocker_at)))
        blocker_goals.append(tuple(sorted(goal_at[m] for m in around if m in goal_at)))
        for a in touching_areas:
            area_blockers[a].add(b)
    for n, g in goal_at.items():
        for m in (n + up, n + down, n - 1, n + 1):
            if area_of[m] >= 0:
                area_goals[area_of[m]].add(g)
    return LevelGraph(
        tuple(areas),
        area_of[start],
        blockers,
        tuple(blocker_areas),
        tuple(blocker_blockers),
        tuple(blocker_goals),
        tuple(tuple(sorted(s)) for s in area_blockers),
        tuple(tuple(sorted(s)) for s in area_goals),
    )
