"""The intended walk of a generated book: a random path from the first page to the last, drawn before any
content is chosen, that the SAT model then makes the book's only walk.

The walk crosses every page from left to right (col 0 to the last column, over each gutter and each outer
edge, on the same row), and on each page it meanders between rows 1 and rows-2, so that it never touches a
top or bottom edge (whose cells face the back of the leaf). It is an induced path: no two of its cells are
neighbours unless they follow each other, so that once every cell beside it stops the walker, the walk is a
simple corridor and the only shortest walk. Path rules shape it:

- bridge: once, the walk jumps from a Bridge over one cell (left off the walk, to be deadly) in a line;
- tunnel: on one leaf, the walk ends its recto part on a Tunnel and goes on from the Tunnel on the verso;
- bow: a Bow on the walk stands exactly five steps (in a line) before a later cell of the walk, which is to
  hold a deadly creature the Bow shoots.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from twisty.errors import GenerationError
from twisty.rules.book.topology import DIRECTIONS, BookShape

ATTEMPTS_PER_PAGE = 400
BOW_REACH = 5


@dataclass
class IntendedWalk:
    """The walk, as cell indices. `cells` is the walk as `twisty check` lists it (both ends of a Tunnel);
    `standing` the cells the walker may stand on; `jumped` the cells a Bridge jumps over."""

    cells: list[int]
    standing: set[int]
    jumped: set[int] = field(default_factory=set)
    bridge: int | None = None
    tunnel: tuple[int, int] | None = None
    bow: tuple[int, int] | None = None  # (the Bow's cell, the cell of the creature it shoots)

    @property
    def entrance(self) -> int:
        return self.cells[0]

    @property
    def exit(self) -> int:
        return self.cells[-1]

    @property
    def moves(self) -> int:
        return len(self.cells) - 1 - (1 if self.tunnel else 0)


def _page_path(
    shape: BookShape,
    page: int,
    start: tuple[int, int],
    end: tuple[int, int] | None,
    length: int,
    chooser: random.Random,
    *,
    jump: bool = False,
) -> tuple[list[tuple[int, int]], tuple[int, int, int] | None] | None:
    """A random induced path on one page from `start` to `end` (None: end anywhere once long enough), of
    about `length` cells, within rows 1..height-2, touching col 0 only at its start and the last column only
    at its end. With `jump`, one move is a Bridge's jump of two cells in a line (the cell between stays off
    the path). Returns the cells and the jump (index of the Bridge in the path, the jumped cell) or None."""
    height, width = shape.height, shape.width
    low, high = max(2, int(length * 0.8)), max(3, int(length * 1.25) + 1)
    rows = range(1, height - 1)

    def allowed(cell: tuple[int, int]) -> bool:
        """A cell the path may enter: within the rows, off col 0 (where only the start may lie), and on the
        last column only as the end."""
        row, col = cell
        if row not in rows or not 0 < col < width:
            return False
        return col < width - 1 or (end is not None and cell == end)

    def neighbours(cell: tuple[int, int]) -> list[tuple[int, int]]:
        row, col = cell
        return [(row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)]

    def steps_to_end(head: tuple[int, int], on_path: set[tuple[int, int]]) -> int | None:
        """Steps from `head` to the end through cells the path could still take (none of them beside an
        earlier cell of the path), or None when the end cannot be reached any more."""
        if end is None:
            return 0
        blocked = set(on_path) | {n for cell in on_path if cell != head for n in neighbours(cell)}
        if end in blocked and end != head:
            return None
        distance = {head: 0}
        frontier = [head]
        while frontier:
            following = []
            for cell in frontier:
                if cell == end:
                    return distance[cell]
                for other in neighbours(cell):
                    if other not in distance and other not in blocked and allowed(other):
                        distance[other] = distance[cell] + 1
                        following.append(other)
            frontier = following
        return None

    for _attempt in range(ATTEMPTS_PER_PAGE):
        path = [start]
        on_path = {start}
        jumped: tuple[int, int, int] | None = None
        budget = 6 * high
        while budget > 0:
            budget -= 1
            here = path[-1]
            if (end is not None and here == end) or (end is None and len(path) >= low and chooser.random() < 0.3):
                break
            options: list[tuple[tuple[int, int], tuple[int, int] | None]] = []
            for step in neighbours(here):
                options.append((step, None))
                if jump and jumped is None and len(path) > 1:
                    beyond = (2 * step[0] - here[0], 2 * step[1] - here[1])
                    options.append((beyond, step))
            chooser.shuffle(options)
            moved = False
            for target, over in options:
                if target in on_path or not allowed(target):
                    continue
                if over is not None and (over in on_path or not (0 <= over[1] < width) or over[0] not in rows):
                    continue
                previous = here if over is None else None
                touching = [n for n in neighbours(target) if n in on_path and n != previous]
                if touching:
                    continue
                if over is not None and any(n in on_path and n != here for n in neighbours(over)):
                    continue  # the jumped cell touches only the Bridge and the landing
                if end is not None and target != end and len(path) + 1 >= high:
                    continue
                left = steps_to_end(target, on_path | {target})
                if left is None or len(path) + 1 + left > high:
                    continue  # the end could no longer be reached within the length
                if over is not None:
                    jumped = (len(path) - 1, over[0], over[1])
                path.append(target)
                on_path.add(target)
                moved = True
                break
            if not moved:
                break
        finished = path[-1] == end if end is not None else len(path) >= low
        if finished and low <= len(path) <= high and (not jump or jumped is not None):
            return path, jumped
    return None


def random_walk(
    shape: BookShape,
    chooser: random.Random,
    length: int,
    path_rules: frozenset[str] = frozenset(),
    poll: Callable[[], None] | None = None,
) -> IntendedWalk:
    """The intended walk of about `length` moves over every page of `shape`, shaped by the path rules
    named (bridge, tunnel, bow). Raises GenerationError when no such walk fits the pages; `poll` (the
    deadline's check) is called once per page drawn."""
    if shape.height < 3 or shape.width < 3:
        raise GenerationError("a generated book needs pages of at least 3x3 cells")
    pages = list(shape.pages)
    per_page = max(shape.width + 1, length // len(pages))
    tunnel_leaf = None
    if "tunnel" in path_rules:
        leaves = [page for page in pages if page % 2 == 1 and page + 1 in pages]
        if not leaves:
            raise GenerationError("a Tunnel needs a leaf: a recto and the verso behind it (pages 2m-1 and 2m)")
        tunnel_leaf = chooser.choice(leaves)
    bridge_page = chooser.choice(pages) if "bridge" in path_rules else None
    for _attempt in range(50):
        cells: list[int] = []
        jumped: set[int] = set()
        bridge = tunnel = None
        row = chooser.randrange(1, shape.height - 1)
        ok = True
        for page in pages:
            if poll is not None:
                poll()
            start = (row, 0)
            tunnel_from = tunnel_leaf is not None and page == tunnel_leaf
            tunnel_to = tunnel_leaf is not None and page == tunnel_leaf + 1
            if tunnel_to:
                start = (chooser.randrange(1, shape.height - 1), chooser.randrange(1, shape.width - 1))
            end = None if tunnel_from else (chooser.randrange(1, shape.height - 1), shape.width - 1)
            found = _page_path(
                shape,
                page,
                start,
                end,
                per_page,
                chooser,
                jump=page == bridge_page,
            )
            if found is None:
                ok = False
                break
            path, jump = found
            base = shape.index((page, 0, 0))
            indices = [base + r * shape.width + c for r, c in path]
            if jump is not None:
                position, over_row, over_col = jump
                bridge = indices[position]
                jumped.add(base + over_row * shape.width + over_col)
            if tunnel_to:
                tunnel = (cells[-1], indices[0])
            cells += indices
            if end is not None:
                row = end[0]
        if not ok:
            continue
        walk = IntendedWalk(cells, set(cells), jumped, bridge, tunnel)
        if "bow" in path_rules:
            shot = _bow_shot(shape, walk, chooser)
            if shot is None:
                continue
            walk.bow = shot
        return walk
    raise GenerationError(
        f"no walk of about {length} moves with {', '.join(sorted(path_rules)) or 'no path rules'} fits "
        f"pages of {shape.height}x{shape.width}"
    )


def _bow_shot(shape: BookShape, walk: IntendedWalk, chooser: random.Random) -> tuple[int, int] | None:
    """A walk cell and a later walk cell exactly five steps from it in a line (the Bow and its target)."""
    position = {cell: number for number, cell in enumerate(walk.cells)}
    choices = []
    for number, cell in enumerate(walk.cells[1:-1], start=1):
        if cell == walk.bridge or (walk.tunnel and cell in walk.tunnel):
            continue
        for direction in DIRECTIONS:
            ray = shape.ray(shape.cell(cell), direction, length=BOW_REACH)
            if len(ray) == BOW_REACH:
                target = shape.index(ray[-1])
                later = position.get(target)
                if later is not None and later > number + 1 and target != walk.exit:
                    if walk.tunnel is None or target not in walk.tunnel:
                        choices.append((cell, target))
    return chooser.choice(choices) if choices else None


def neighbours_of(shape: BookShape, cells: set[int]) -> set[int]:
    orthogonal = shape.orthogonal_table()
    return {other for cell in cells for other in orthogonal[cell]} - cells
