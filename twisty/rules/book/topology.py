"""Where cells are in the book: `step`, the eight neighbours, rays, spreads and leaves.

"Effects do not stop at a page edge or at the gutter unless a rule explicitly says otherwise." Every rule
finds its cells through `step`, so the page boundaries are handled in this one place (docs/book.md, Adjacency):

- gutter: left page (2k, r, W-1) <-> right page (2k+1, r, 0), direction unchanged;
- outer side edge: recto (p odd, r, W-1) stepping right -> verso (p+1, r, 0), still moving right, and
  back again; so leftwards and rightwards every page simply continues into the next or the previous one;
- top/bottom edge: the cell directly behind on the other side of the leaf, (partner, r, W-1-c), moving the
  other way, with left and right swapped (the direction frame turns half a circle).

Cells are (page, row, col) tuples; pages beyond the book's run do not exist (`step` returns None).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

Cell = tuple[int, int, int]

UP, RIGHT, DOWN, LEFT = 0, 1, 2, 3
DIRECTIONS = (UP, RIGHT, DOWN, LEFT)
DIRECTION_NAMES = ("up", "right", "down", "left")
_DELTA = ((-1, 0), (0, 1), (1, 0), (0, -1))


def reverse(direction: int) -> int:
    return direction ^ 2


def spread_of(page: int) -> int:
    """Spread k shows pages 2k (left) and 2k+1 (right); page 1 alone is spread 0."""
    return page // 2


def leaf_of(page: int) -> int:
    """Leaf m carries recto 2m-1 on its front and verso 2m on its back."""
    return (page + 1) // 2


def leaf_partner(page: int) -> int:
    """The other side of the same leaf."""
    return page + 1 if page % 2 else page - 1


def is_left_page(page: int) -> bool:
    return page % 2 == 0


@dataclass(frozen=True)
class BookShape:
    """A run of pages first..last, each `height` rows by `width` columns."""

    height: int
    width: int
    first_page: int
    last_page: int
    _tables: dict = field(default_factory=dict, compare=False, hash=False, repr=False)

    # --- cells -------------------------------------------------------------------------------------

    @property
    def page_size(self) -> int:
        return self.height * self.width

    @property
    def pages(self) -> range:
        return range(self.first_page, self.last_page + 1)

    @property
    def cell_count(self) -> int:
        return len(self.pages) * self.page_size

    def has_page(self, page: int) -> bool:
        return self.first_page <= page <= self.last_page

    def contains(self, cell: Cell) -> bool:
        page, row, col = cell
        return self.has_page(page) and 0 <= row < self.height and 0 <= col < self.width

    def index(self, cell: Cell) -> int:
        page, row, col = cell
        return (page - self.first_page) * self.page_size + row * self.width + col

    def cell(self, index: int) -> Cell:
        page, rest = divmod(index, self.page_size)
        row, col = divmod(rest, self.width)
        return (page + self.first_page, row, col)

    def cells(self) -> Iterator[Cell]:
        for page in self.pages:
            for row in range(self.height):
                for col in range(self.width):
                    yield (page, row, col)

    def page_cells(self, page: int) -> list[int]:
        start = (page - self.first_page) * self.page_size
        return list(range(start, start + self.page_size))

    def spread_pages(self, spread: int) -> list[int]:
        return [page for page in (2 * spread, 2 * spread + 1) if page >= 1 and self.has_page(page)]

    # --- adjacency ---------------------------------------------------------------------------------

    def step(self, cell: Cell, direction: int) -> tuple[Cell, int] | None:
        """The cell one step away and the direction of movement once there (None: no such cell)."""
        page, row, col = cell
        d_row, d_col = _DELTA[direction]
        new_row, new_col = row + d_row, col + d_col
        if 0 <= new_row < self.height and 0 <= new_col < self.width:
            return (page, new_row, new_col), direction
        if new_col == self.width:
            # Gutter (left page) or outer edge (right page): both continue into page+1, column 0.
            target, new_direction = (page + 1, row, 0), direction
        elif new_col < 0:
            target, new_direction = (page - 1, row, self.width - 1), direction
        else:
            # Over the top or bottom edge onto the back of the leaf, mirrored, now moving the other way.
            target, new_direction = (leaf_partner(page), row, self.width - 1 - col), reverse(direction)
        if target[0] < 1 or not self.has_page(target[0]):
            return None
        return target, new_direction

    def neighbours4(self, cell: Cell) -> list[Cell]:
        """The (up to four) orthogonally adjacent cells, through page boundaries."""
        return [self.cell(index) for index in self.orthogonal_table()[self.index(cell)]]

    def neighbours8(self, cell: Cell) -> list[Cell]:
        """The eight neighbours: the four step-neighbours plus, for each pair of perpendicular directions,
        step d1 then d2 (d2 read in the direction frame that comes out of the first step)."""
        return [self.cell(index) for index in self.king_table()[self.index(cell)]]

    def within_king_moves(self, cell: Cell, moves: int) -> list[Cell]:
        """Cells reachable in 1..moves king moves (eight-neighbour steps), the cell itself excluded."""
        seen = {cell}
        frontier = [cell]
        for _ in range(moves):
            next_frontier = []
            for here in frontier:
                for there in self.neighbours8(here):
                    if there not in seen:
                        seen.add(there)
                        next_frontier.append(there)
            frontier = next_frontier
        seen.discard(cell)
        return sorted(seen)

    def ray(self, cell: Cell, direction: int, *, length: int | None = None, within_spread: bool = False) -> list[Cell]:
        """The cells met by stepping repeatedly from `cell` (not included), following `step`'s turns.

        A spread-bounded ray stops where `step` would leave the spread of `cell` (over the outer edge or
        over the top/bottom edge, which always lead to another spread)."""
        spread = spread_of(cell[0])
        found: list[Cell] = []
        here, heading = cell, direction
        limit = length if length is not None else self.cell_count
        while len(found) < limit:
            moved = self.step(here, heading)
            if moved is None:
                break
            here, heading = moved
            if within_spread and spread_of(here[0]) != spread:
                break
            if here == cell:
                break
            found.append(here)
        return found

    # --- integer tables, built once per shape, for the evaluation's inner loops ---------------------
    # On the largest books (a quarter of a million cells) building them takes seconds, so `poll` (when given)
    # is called once per page: the level's deadline raises LimitReached there rather than overrun.

    def build_tables(self, poll: Callable[[], None] | None = None) -> None:
        """Build the step, orthogonal and king tables now, calling `poll` once per page of each."""
        self.step_table(poll)
        self.orthogonal_table(poll)
        self.king_table(poll)

    def step_table(self, poll: Callable[[], None] | None = None) -> list[list[tuple[int, int] | None]]:
        table = self._tables.get("step")
        if table is None:
            table = []
            for index, cell in enumerate(self.cells()):
                if poll is not None and index % self.page_size == 0:
                    poll()
                row = []
                for direction in DIRECTIONS:
                    moved = self.step(cell, direction)
                    row.append(None if moved is None else (self.index(moved[0]), moved[1]))
                table.append(row)
            self._tables["step"] = table
        return table

    def orthogonal_table(self, poll: Callable[[], None] | None = None) -> list[tuple[int, ...]]:
        table = self._tables.get("orth")
        if table is None:
            table = []
            for index, moves in enumerate(self.step_table(poll)):
                if poll is not None and index % self.page_size == 0:
                    poll()
                found: list[int] = []
                for moved in moves:
                    if moved is not None and moved[0] != index and moved[0] not in found:
                        found.append(moved[0])
                table.append(tuple(found))
            self._tables["orth"] = table
        return table

    def king_table(self, poll: Callable[[], None] | None = None) -> list[tuple[int, ...]]:
        table = self._tables.get("king")
        if table is None:
            steps = self.step_table(poll)
            orthogonal = self.orthogonal_table(poll)
            table = []
            for index, moves in enumerate(steps):
                if poll is not None and index % self.page_size == 0:
                    poll()
                found = list(orthogonal[index])
                for first, moved in enumerate(moves):
                    if moved is None:
                        continue
                    middle, arrived = moved
                    flipped = arrived != first
                    for second in ((first + 1) % 4, (first + 3) % 4):
                        corner = steps[middle][reverse(second) if flipped else second]
                        if corner is not None and corner[0] != index and corner[0] not in found:
                            found.append(corner[0])
                table.append(tuple(found))
            self._tables["king"] = table
        return table
