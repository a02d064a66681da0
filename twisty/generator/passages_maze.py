"""The map of a generated passages level: a maze of cells with rooms and a few loops, on a character grid.

Maze cell (x, y) is grid cell (2y + 1, 2x + 1); the grid cell between two neighbouring maze cells is their
corridor. Everything is drawn from the one `random.Random` of the level, in a fixed order, so that the same
seed gives the same map on any machine.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from twisty.generator.passages_params import PassagesParams, Profile
from twisty.rules.passages import neighbours

Cell = tuple[int, int]  # a grid cell (row, column)
MazeCell = tuple[int, int]  # a maze cell (x, y)
Link = frozenset[MazeCell]  # two neighbouring maze cells, joined by a corridor or a wall between them
Item = TypeVar("Item")


def cell_at(x: int, y: int) -> Cell:
    """The grid cell of maze cell (x, y)."""
    return 2 * y + 1, 2 * x + 1


def between(a: MazeCell, b: MazeCell) -> Cell:
    """The grid cell of the corridor joining two neighbouring maze cells."""
    (ra, ca), (rb, cb) = cell_at(*a), cell_at(*b)
    return (ra + rb) // 2, (ca + cb) // 2


def maze_neighbours(x: int, y: int, width: int, height: int) -> list[MazeCell]:
    return [
        (x + dx, y + dy)
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
        if 0 <= x + dx < width and 0 <= y + dy < height
    ]


def carve_maze(rng: random.Random, width: int, height: int) -> set[Link]:
    """A perfect maze by randomized depth-first search: the set of corridors (pairs of maze cells)."""
    first = (rng.randrange(width), rng.randrange(height))
    visited = {first}
    stack = [first]
    corridors: set[Link] = set()
    while stack:
        here = stack[-1]
        options = [n for n in maze_neighbours(*here, width, height) if n not in visited]
        if not options:
            stack.pop()
            continue
        nxt = rng.choice(options)
        corridors.add(frozenset((here, nxt)))
        visited.add(nxt)
        stack.append(nxt)
    return corridors


def all_links(width: int, height: int) -> list[Link]:
    """Every pair of neighbouring maze cells, in reading order."""
    links = []
    for y in range(height):
        for x in range(width):
            if x + 1 < width:
                links.append(frozenset(((x, y), (x + 1, y))))
            if y + 1 < height:
                links.append(frozenset(((x, y), (x, y + 1))))
    return links


def link_key(link: Link) -> tuple[MazeCell, ...]:
    """A sort key for links: sets have no order of their own, and iteration must not depend on hashing."""
    return tuple(sorted(link))


def adjacency(corridors: set[Link]) -> dict[MazeCell, list[MazeCell]]:
    graph: dict[MazeCell, list[MazeCell]] = {}
    for link in sorted(corridors, key=link_key):
        a, b = sorted(link)
        graph.setdefault(a, []).append(b)
        graph.setdefault(b, []).append(a)
    return graph


def distances(
    graph: dict[MazeCell, list[MazeCell]], source: MazeCell, removed: Link | None = None
) -> dict[MazeCell, int]:
    """Corridor steps from `source` to every maze cell it reaches (without the corridor `removed`)."""
    seen = {source: 0}
    queue = [source]
    for here in queue:
        for nxt in graph.get(here, []):
            if nxt not in seen and frozenset((here, nxt)) != removed:
                seen[nxt] = seen[here] + 1
                queue.append(nxt)
    return seen


def bridges(corridors: set[Link], cells: int) -> set[Link]:
    """Corridors whose loss disconnects the maze: chokepoints (small mazes, so the plain test is enough)."""
    graph = adjacency(corridors)
    found = set()
    for link in sorted(corridors, key=link_key):
        a, _ = sorted(link)
        if len(distances(graph, a, removed=link)) < cells:
            found.add(link)
    return found


@dataclass(frozen=True)
class MazeMap:
    width: int
    height: int
    corridors: frozenset[Link]  # open corridors
    room_of: dict[MazeCell, int]  # maze cell -> room number
    room_cells: frozenset[Cell]  # grid cells opened inside rooms (corners between room cells)


def build_map(rng: random.Random, params: PassagesParams, profile: Profile) -> MazeMap:
    """A perfect maze, then rooms (2x2, 3x2 or 2x3 cells opened into one space), then loops."""
    width, height = params.width, params.height
    corridors = carve_maze(rng, width, height)
    room_of: dict[MazeCell, int] = {}
    room_cells: set[Cell] = set()
    for room in range((width * height) // profile.rooms_per_cells):
        room_w, room_h = rng.choice(((2, 2), (3, 2), (2, 3)))
        if room_w > width or room_h > height:
            continue
        x0, y0 = rng.randrange(width - room_w + 1), rng.randrange(height - room_h + 1)
        members = [(x, y) for y in range(y0, y0 + room_h) for x in range(x0, x0 + room_w)]
        if any(m in room_of for m in members):
            continue
        for member in members:
            room_of[member] = room
            for other in maze_neighbours(*member, width, height):
                if other in members:
                    corridors.add(frozenset((member, other)))
        # The wall corners inside a room become floor, so that the room is one open space.
        for y in range(y0, y0 + room_h - 1):
            for x in range(x0, x0 + room_w - 1):
                room_cells.add((2 * y + 2, 2 * x + 2))
    walls = [link for link in all_links(width, height) if link not in corridors]
    loops = int(len(walls) * profile.loops)
    for link in rng.sample(sorted(walls, key=link_key), loops):
        corridors.add(link)
    return MazeMap(width, height, frozenset(corridors), room_of, frozenset(room_cells))


def open_region(grid: list[list[str]], start: Cell, blocked: set[Cell]) -> set[Cell]:
    """Floor cells reachable from `start` without crossing a wall or a blocked cell."""
    seen = {start}
    queue = [start]
    for row, col in queue:
        for nxt in neighbours((row, col)):
            if nxt not in seen and nxt not in blocked and grid[nxt[0]][nxt[1]] != "#":
                seen.add(nxt)
                queue.append(nxt)
    return seen


def weighted_order(rng: random.Random, items: list[Item], weight: Callable[[Item], float]) -> list[Item]:
    """Items in a random order where heavier items tend to come first. Keys are products, which IEEE
    arithmetic rounds the same everywhere (a power would depend on the machine's C library)."""
    keyed = [(rng.random() * weight(item), index) for index, item in enumerate(items)]
    return [items[index] for _, index in sorted(keyed, reverse=True)]
