"""The walk through a book: breadth-first search over (cell, mask, path state).

The verdict: whether a walk exists (and the shortest one), the corridor (every cell the walker can reach),
whether the walk is unique (exactly one shortest walk) and whether the corridor is one simple path, with
every branch and dead end as a witness, and the rules that decided at least one cell.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field

from twisty.rules.book.contents import RULE_NAMES
from twisty.rules.book.model import Book
from twisty.rules.book.path import PathRules, PathState, Walker
from twisty.rules.book.static import PASSABLE, STATUS_NAMES, Evaluation
from twisty.rules.book.topology import Cell

MAX_WALKERS = 2_000_000


@dataclass
class BookVerdict:
    book: Book
    status: str                                   # "solvable", "unsolvable" or "unknown" (out of time)
    walk: list[Cell] = field(default_factory=list)
    moves: int | None = None                      # moves in the shortest walk (a Tunnel passage is one)
    shortest_walks: int = 0                       # how many shortest walks, counted up to 2
    corridor: list[Cell] = field(default_factory=list)
    branches: list[Cell] = field(default_factory=list)
    dead_ends: list[Cell] = field(default_factory=list)
    rules_fired: set[int] = field(default_factory=set)
    walk_rules: set[int] = field(default_factory=set)
    initial: Evaluation | None = None
    final: Evaluation | None = None               # the book as the walk leaves it at the exit
    walkers: int = 0
    evaluations: int = 0
    seconds: float = 0.0

    @property
    def solvable(self) -> bool:
        return self.status == "solvable"

    @property
    def unique(self) -> bool:
        return self.solvable and self.shortest_walks == 1

    @property
    def simple_corridor(self) -> bool:
        return self.solvable and not self.branches and not self.dead_ends

    def rule_names(self, rules: set[int]) -> list[str]:
        return [RULE_NAMES[rule] for rule in sorted(rules)]


def solve_book(book: Book, *, timeout: float | None = None, reading: frozenset[str] = frozenset()) -> BookVerdict:
    """The walk and the verdict; `reading` evaluates the book under other readings (static.READINGS)."""
    started = time.perf_counter()
    rules = PathRules(book, reading)
    shape = book.shape
    initial = rules.evaluation(PathState())
    verdict = BookVerdict(book, "unsolvable", initial=initial)
    begun = rules.start()
    if begun is None:
        verdict.corridor = []
        verdict.rules_fired = set(initial.fired)
        verdict.seconds = time.perf_counter() - started
        return verdict
    start, start_rules = begun
    exit_index = shape.index(book.exit)

    distance: dict[Walker, int] = {start: 0}
    count: dict[Walker, int] = {start: 1}
    parent: dict[Walker, tuple[Walker, tuple[int, ...]] | None] = {start: None}
    edges: set[tuple[int, int]] = set()
    corridor: set[int] = {start.position}
    used_rules: dict[Walker, tuple[int, ...]] = {start: start_rules}
    path_rules: set[int] = set(start_rules)
    exit_walkers: list[Walker] = [start] if start.position == exit_index else []
    best: int | None = 0 if exit_walkers else None
    queue = deque([start])
    out_of_time = False
    while queue:
        walker = queue.popleft()
        here = distance[walker]
        if walker.position == exit_index:
            continue  # the walk ends at the exit
        if timeout is not None and len(distance) % 512 == 0 and time.perf_counter() - started > timeout:
            out_of_time = True
            break
        if len(distance) > MAX_WALKERS:
            out_of_time = True
            break
        seen_here: set[Walker] = set()
        for move in rules.moves(walker):
            if move.walker in seen_here:
                continue  # two ways of making the same move are one walk
            seen_here.add(move.walker)
            previous = walker.position
            for cell in move.cells:
                corridor.add(cell)
                edges.add((min(previous, cell), max(previous, cell)))
                previous = cell
            path_rules.update(move.rules)
            following = move.walker
            if following not in distance:
                distance[following] = here + 1
                count[following] = count[walker]
                parent[following] = (walker, move.cells)
                used_rules[following] = move.rules
                queue.append(following)
                if following.position == exit_index:
                    exit_walkers.append(following)
                    if best is None:
                        best = here + 1
            elif distance[following] == here + 1:
                count[following] = min(2, count[following] + count[walker])

    verdict.walkers = len(distance)
    verdict.evaluations = len(rules.evaluations)
    reached_states = {walker.state.removed for walker in distance}
    verdict.rules_fired = set(path_rules)
    for removed, evaluation in rules.evaluations.items():
        if removed in reached_states:
            verdict.rules_fired |= evaluation.fired
    verdict.corridor = sorted(shape.cell(index) for index in corridor)
    degree: dict[int, int] = {index: 0 for index in corridor}
    for first, second in edges:
        if first != second:
            degree[first] += 1
            degree[second] += 1
    entrance_index = shape.index(book.entrance)
    ends = {entrance_index, exit_index}
    verdict.branches = sorted(shape.cell(index) for index, links in degree.items()
                              if links > (1 if index in ends else 2))
    verdict.dead_ends = sorted(shape.cell(index) for index, links in degree.items()
                               if links <= 1 and index not in ends)
    if exit_walkers:
        verdict.status = "solvable"
        verdict.moves = best
        finishers = [walker for walker in exit_walkers if distance[walker] == best]
        verdict.shortest_walks = min(2, sum(count[walker] for walker in finishers))
        finish = finishers[0]
        cells: list[int] = []
        walker = finish
        walk_rules: set[int] = set()
        while parent[walker] is not None:
            previous, entered = parent[walker]
            cells[:0] = list(entered)
            walk_rules.update(used_rules[walker])
            walker = previous
        walk_rules.update(used_rules[start])
        verdict.walk = [shape.cell(index) for index in [start.position, *cells]]
        verdict.walk_rules = walk_rules
        verdict.final = rules.evaluation(finish.state)
    elif out_of_time:
        verdict.status = "unknown"
    verdict.seconds = time.perf_counter() - started
    return verdict


def border(verdict: BookVerdict) -> list[tuple[Cell, str, list[str]]]:
    """The cells beside the walk that the walk may not enter, with the rules that closed them."""
    if not verdict.walk or verdict.initial is None:
        return []
    shape = verdict.book.shape
    on_walk = set(verdict.walk)
    found: dict[Cell, tuple[Cell, str, list[str]]] = {}
    for cell in verdict.walk:
        for other in shape.neighbours4(cell):
            index = shape.index(other)
            status = verdict.initial.status[index]
            if other not in on_walk and status != PASSABLE and other not in found:
                found[other] = (other, STATUS_NAMES[status], verdict.initial.chain(index))
    return [found[cell] for cell in sorted(found)]


@dataclass
class ReadingDifference:
    reading: str
    cells: list[Cell]            # cells whose status before the walk differs from book.md's reading
    solvable: bool | None
    moves: int | None


def reading_differences(book: Book, verdict: BookVerdict, *, timeout: float | None = None) -> list[ReadingDifference]:
    """Book.md's "Ambiguity": evaluate the book under each other reasonable reading; keep those that differ
    (in any cell before the walk, in solvability or in the shortest walk's length)."""
    from twisty.rules.book.static import READINGS

    differences = []
    shape = book.shape
    for reading in READINGS:
        other = solve_book(book, timeout=timeout, reading=frozenset({reading}))
        cells = [shape.cell(index) for index, (mine, theirs) in
                 enumerate(zip(verdict.initial.status, other.initial.status)) if mine != theirs]
        if cells or other.status != verdict.status or other.moves != verdict.moves:
            differences.append(ReadingDifference(reading, cells, None if other.status == "unknown" else other.solvable,
                                                 other.moves))
    return differences
