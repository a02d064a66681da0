"""The region graph of a passages level: open areas joined by blockers (doors and enemies).

"At any time, you may move anywhere there is an unobstructed path", so only areas matter, not cells: an
area is a connected set of open cells (floor, start, items), and all its items can be taken together the
moment it is reached ("Taking an item never hurts"). A consumed blocker becomes floor and joins every
area, blocker and goal around it. Engines search on this graph instead of the grid.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass

from twisty.rules.passages import PassagesLevel, neighbours


@dataclass(frozen=True)
class Area:
    cells: frozenset[tuple[int, int]]
    items: tuple[int, ...]      # object indices
    hp: int                     # elixir hp in the area
    atk: int
    defense: int
    keys: int


@dataclass(frozen=True)
class LevelGraph:
    areas: tuple[Area, ...]
    start_area: int
    blockers: tuple[int, ...]                      # object index of blocker b
    blocker_areas: tuple[tuple[int, ...], ...]     # areas touching blocker b
    blocker_blockers: tuple[tuple[int, ...], ...]  # blockers touching blocker b
    blocker_goals: tuple[tuple[int, ...], ...]     # goals touching blocker b
    area_blockers: tuple[tuple[int, ...], ...]     # blockers touching area a
    area_goals: tuple[tuple[int, ...], ...]        # goals touching area a

    @property
    def blocker_of_object(self) -> dict[int, int]:
        return {obj: b for b, obj in enumerate(self.blockers)}


def build_graph(level: PassagesLevel) -> LevelGraph:
    blocker_cells = {}
    item_cells = {}
    for index, thing in enumerate(level.things):
        (blocker_cells if thing.is_blocker else item_cells)[thing.cell] = index
    goal_cells = {cell: g for g, cell in enumerate(level.goals)}

    # Open cells in reading order (walls, outside, blockers and goals are not open).
    open_cells = {(r, c): None for r, row in enumerate(level.grid) for c in range(len(row))
                  if not level.is_wall((r, c)) and (r, c) not in blocker_cells and (r, c) not in goal_cells}

    def open_cell(cell) -> bool:
        return cell in open_cells

    area_of: dict[tuple[int, int], int] = {}
    area_cells: list[list[tuple[int, int]]] = []
    # Areas are numbered from the start's, then in reading order, so numbering is reproducible.
    for seed in [level.start, *open_cells]:
        if seed in area_of or not open_cell(seed):
            continue
        number = len(area_cells)
        area_of[seed] = number
        cells = [seed]
        queue = deque([seed])
        while queue:
            cell = queue.popleft()
            for nxt in neighbours(cell):
                if nxt not in area_of and open_cell(nxt):
                    area_of[nxt] = number
                    cells.append(nxt)
                    queue.append(nxt)
        area_cells.append(cells)

    areas = []
    for cells in area_cells:
        items = tuple(sorted(item_cells[c] for c in cells if c in item_cells))
        things = [level.things[i] for i in items]
        areas.append(Area(frozenset(cells), items,
                          hp=sum(t.hp for t in things if t.kind == "elixir"),
                          atk=sum(t.atk for t in things if t.kind == "equipment"),
                          defense=sum(t.defense for t in things if t.kind == "equipment"),
                          keys=sum(1 for t in things if t.kind == "key")))

    blockers = tuple(sorted(blocker_cells.values()))
    number_of = {obj: b for b, obj in enumerate(blockers)}
    blocker_areas, blocker_blockers, blocker_goals = [], [], []
    area_blockers: list[set[int]] = [set() for _ in areas]
    area_goals: list[set[int]] = [set() for _ in areas]
    for b, obj in enumerate(blockers):
        around = list(neighbours(level.things[obj].cell))
        touching_areas = sorted({area_of[c] for c in around if c in area_of})
        blocker_areas.append(tuple(touching_areas))
        blocker_blockers.append(tuple(sorted(number_of[blocker_cells[c]] for c in around if c in blocker_cells)))
        blocker_goals.append(tuple(sorted(goal_cells[c] for c in around if c in goal_cells)))
        for a in touching_areas:
            area_blockers[a].add(b)
    for cell, g in goal_cells.items():
        for c in neighbours(cell):
            if c in area_of:
                area_goals[area_of[c]].add(g)
    return LevelGraph(tuple(areas), area_of[level.start], blockers, tuple(blocker_areas),
                      tuple(blocker_blockers), tuple(blocker_goals),
                      tuple(tuple(sorted(s)) for s in area_blockers), tuple(tuple(sorted(s)) for s in area_goals))
