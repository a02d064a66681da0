"""The walk through a book: breadth-first search over (cell, mask, path state).

The verdict: whether a walk exists (and the shortest one), the corridor (every cell the walker can reach),
whether the walk is unique (exactly one shortest walk) and whether the corridor is one simple path, with
every branch and dead end as a witness, and the rules that decided at least one cell.

Caps: the level's deadline (time and memory, polled for every walker and inside every evaluation) and a
number of walkers. A search that a cap stops keeps what it decided and names the cap (`BookAnalysis.cap`):
a walk it found is a real shortest walk (breadth-first order reaches the exit first by a shortest walk),
replayed by the path rules; how many shortest walks there are is decided once every walker one move short
of the exit was expanded. The corridor, its branches and dead ends stay unknown, and so does solvability
when no walk was found. Nothing truncated is reported as complete.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import dataclass, field

from twisty.errors import EngineBug, LimitReached
from twisty.limits import Deadline
from twisty.rules.book.contents import RULE_NAMES
from twisty.rules.book.model import Book
from twisty.rules.book.path import Move, PathRules, PathState, Walker, replay_walk
from twisty.rules.book.static import PASSABLE, READINGS, STATUS_NAMES, Evaluation
from twisty.rules.book.topology import Cell

# Walkers (search states) kept at most: each costs a few hundred bytes in four tables, so two million stay
# within about a gigabyte; the shipped books need a few thousand.
MAX_WALKERS = 2_000_000


def walker_cap(max_walkers: int) -> str:
    """The name of the walker cap, for messages ("... within the limit of 2,000,000 walkers")."""
    return f"limit of {max_walkers:,} walkers"


class WalkAnswers:
    """Solvability and uniqueness read off a walk engine's status and its count of shortest walks (both
    engines answer them the same way)."""

    status: str  # "solvable", "unsolvable" or "unknown"
    shortest_walks: int | None  # counted up to 2; None: undecided

    @property
    def solvable(self) -> bool | None:
        return None if self.status == "unknown" else self.status == "solvable"

    @property
    def unique(self) -> bool | None:
        if self.status == "unsolvable":
            return False
        return None if self.shortest_walks is None or self.status == "unknown" else self.shortest_walks == 1


@dataclass
class BookAnalysis(WalkAnswers):
    book: Book
    status: str  # "solvable", "unsolvable" or "unknown" (a cap, no walk found)
    walk: list[Cell] = field(default_factory=list)
    moves: int | None = None  # moves in the shortest walk (a Tunnel passage is one)
    shortest_walks: int | None = 0  # how many shortest walks, counted up to 2; None: undecided
    corridor: list[Cell] | None = None  # None: undecided (a cap stopped the search)
    branches: list[Cell] | None = None
    dead_ends: list[Cell] | None = None
    rules_fired: set[int] = field(default_factory=set)
    walk_rules: set[int] = field(default_factory=set)
    initial: Evaluation | None = None  # None only when a cap struck before the book was evaluated
    final: Evaluation | None = None  # the book as the walk leaves it at the exit
    cap: str | None = None  # the cap that stopped the search; None: it ran to the end
    walkers: int = 0
    evaluations: int = 0
    seconds: float = 0.0

    @property
    def complete(self) -> bool:
        return self.cap is None

    @property
    def simple_corridor(self) -> bool | None:
        if self.status == "unsolvable":
            return False
        if self.branches is None or self.dead_ends is None or self.status == "unknown":
            return None
        return not self.branches and not self.dead_ends

    def undecided(self) -> list[str]:
        """The answers a cap left unknown, by their JSON names."""
        if self.complete:
            return []
        names = ["solvable", "moves"] if self.status == "unknown" else []
        if self.unique is None:
            names += ["unique", "shortest_walks"]
        return names + ["corridor", "simple_corridor", "branches", "dead_ends"]

    def rule_names(self, rules: set[int]) -> list[str]:
        return [RULE_NAMES[rule] for rule in sorted(rules)]


def solve_book(
    book: Book,
    *,
    deadline: Deadline | None = None,
    reading: frozenset[str] = frozenset(),
    max_walkers: int | None = None,
) -> BookAnalysis:
    """The walk and the verdict; `reading` evaluates the book under other readings (static.READINGS).

    `deadline` is the level's one deadline (None: no limit); `max_walkers` caps the search states
    (None: MAX_WALKERS). Either cap gives a verdict that names it and leaves undecided answers unknown."""
    started = time.perf_counter()
    walker_limit = MAX_WALKERS if max_walkers is None else max_walkers
    rules = PathRules(book, reading, deadline)
    shape = book.shape
    verdict = BookAnalysis(book, "unknown", shortest_walks=None)
    try:
        verdict.initial = rules.evaluation(PathState())
        begun = rules.start()
    except LimitReached as reached:
        verdict.cap = reached.cap
        verdict.seconds = time.perf_counter() - started
        return verdict
    if begun is None:
        verdict.status, verdict.shortest_walks = "unsolvable", 0
        verdict.corridor, verdict.branches, verdict.dead_ends = [], [], []
        verdict.rules_fired = set(verdict.initial.fired)
        verdict.seconds = time.perf_counter() - started
        return verdict
    start, start_rules = begun.walker, begun.rules
    exit_index = shape.index(book.exit)

    # Each walker met: [moves from the entrance, shortest walks to it (counted up to 2), the walker before
    # it and the move that first reached it (None for the start)], for the walk, its removals and the count.
    met: dict[Walker, list] = {start: [0, 1, None, begun]}
    edges: set[tuple[int, int]] = set()
    corridor: set[int] = {start.position}
    path_rules: set[int] = set(start_rules)
    reached_states = {start.state.removed}
    exit_walkers: list[Walker] = [start] if start.position == exit_index else []
    best: int | None = 0 if exit_walkers else None
    queue = deque([start])
    cap: str | None = None
    stopped_at = 0  # every walker closer to the entrance than this was expanded
    while queue and cap is None:
        walker = queue.popleft()
        record = met[walker]
        here = stopped_at = record[0]
        if walker.position == exit_index:
            continue  # the walk ends at the exit
        if deadline is not None and deadline.expired():
            cap = f"{deadline.cap} limit"
            break
        try:
            moves = rules.moves(walker)
        except LimitReached as reached:
            cap = reached.cap
            break
        following_distance = here + 1
        seen_here: set[Walker] = set()
        for move in moves:
            following = move.walker
            if following in seen_here:
                continue  # two ways of making the same move are one walk
            known = met.get(following)
            if known is None and len(met) >= walker_limit:
                cap = walker_cap(walker_limit)
                break
            seen_here.add(following)
            previous = walker.position
            for cell in move.cells:
                corridor.add(cell)
                edges.add((previous, cell))
                previous = cell
            if move.rules:
                path_rules.update(move.rules)
            if known is None:
                met[following] = [following_distance, record[1], walker, move]
                reached_states.add(following.state.removed)
                queue.append(following)
                if following.position == exit_index:
                    exit_walkers.append(following)
                    if best is None:
                        best = following_distance
            elif known[0] == following_distance and known[1] < 2:
                known[1] = min(2, known[1] + record[1])

    verdict.cap = cap
    verdict.walkers = len(met)
    verdict.evaluations = len(rules.evaluations)
    verdict.rules_fired = set(path_rules)
    for removed, evaluation in rules.evaluations.items():
        if removed in reached_states:
            verdict.rules_fired |= evaluation.fired
    if cap is None:
        _corridor_shape(verdict, corridor, edges)
    if best is not None:
        verdict.status = "solvable"
        verdict.moves = best
        finishers = [walker for walker in exit_walkers if met[walker][0] == best]
        # The count of shortest walks is final once every walker one move short of the exit was expanded.
        if cap is None or best <= stopped_at:
            verdict.shortest_walks = min(2, sum(met[walker][1] for walker in finishers))
        _record_walk(verdict, rules, finishers[0], met)
    elif cap is None:
        verdict.status, verdict.shortest_walks = "unsolvable", 0
    verdict.seconds = time.perf_counter() - started
    return verdict


NAME = "rules"


def analyse(book: Book, *, deadline: Deadline | None = None) -> BookAnalysis:
    """The engine contract of the Book's engines (twisty.games.book): the verdict on the walk."""
    return solve_book(book, deadline=deadline)


def _corridor_shape(verdict: BookAnalysis, corridor: set[int], edges: set[tuple[int, int]]) -> None:
    """The corridor and its branches and dead ends (only for a search that ran to the end)."""
    book, shape = verdict.book, verdict.book.shape
    verdict.corridor = sorted(shape.cell(index) for index in corridor)
    degree: dict[int, int] = {index: 0 for index in corridor}
    for first, second in {(min(pair), max(pair)) for pair in edges}:
        if first != second:
            degree[first] += 1
            degree[second] += 1
    ends = {shape.index(book.entrance), shape.index(book.exit)}
    verdict.branches = sorted(
        shape.cell(index) for index, links in degree.items() if links > (1 if index in ends else 2)
    )
    verdict.dead_ends = sorted(shape.cell(index) for index, links in degree.items() if links <= 1 and index not in ends)


def _record_walk(verdict: BookAnalysis, rules: PathRules, finish: Walker, met: dict[Walker, list]) -> None:
    """Follow the walk back from the exit, replay it by the path rules, and keep it, with the book as this
    walk leaves it (its own removals, each with the reason this walk gives it)."""
    shape = verdict.book.shape
    taken: list[Move] = []
    walker: Walker | None = finish
    while walker is not None:
        _distance, _count, previous, move = met[walker]
        taken.append(move)
        walker = previous
    taken.reverse()  # the first is the start's own move (onto the entrance)
    moves = [move.cells for move in taken[1:]]
    if finish not in replay_walk(rules, moves):
        raise EngineBug(
            f"the book's walk search found a walk of {len(moves)} moves that the path rules do not replay to the exit"
        )
    cells = [taken[0].walker.position] + [cell for entered in moves for cell in entered]
    verdict.walk = [shape.cell(index) for index in cells]
    verdict.walk_rules = {rule for move in taken for rule in move.rules}
    removals = [removal for move in taken for removal in move.removals]
    verdict.final = rules.evaluation_along(finish.state, removals)


def border(verdict: BookAnalysis) -> list[tuple[Cell, str, list[str]]]:
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
    cells: list[Cell] | None  # cells whose status before the walk differs from docs/book.md's; None: not known
    solvable: bool | None
    moves: int | None
    cap: str | None = None  # the cap that left this comparison unfinished (None: it is complete)


def reading_differences(
    book: Book, verdict: BookAnalysis, *, deadline: Deadline | None = None, max_walkers: int | None = None
) -> list[ReadingDifference]:
    """Book.md's "Ambiguity": evaluate the book under each other reasonable reading; keep those that differ
    (in any cell before the walk, in solvability or in the shortest walk's length), and those a cap left
    undecided. Every reading shares the level's one `deadline`: once it has passed, the readings not yet
    compared are undecided at once."""
    differences = []
    shape = book.shape
    for reading in READINGS:
        other = solve_book(book, deadline=deadline, reading=frozenset({reading}), max_walkers=max_walkers)
        cells = None
        if verdict.initial is not None and other.initial is not None:
            cells = [
                shape.cell(index)
                for index, (mine, theirs) in enumerate(zip(verdict.initial.status, other.initial.status, strict=True))
                if mine != theirs
            ]
        decided = verdict.status != "unknown" and other.status != "unknown"
        answer_differs = decided and (other.status != verdict.status or other.moves != verdict.moves)
        cap = other.cap or verdict.cap
        if cells or answer_differs or not decided or cells is None:
            differences.append(
                ReadingDifference(
                    reading, cells, other.solvable, other.moves, None if decided and cells is not None else cap
                )
            )
    return differences
