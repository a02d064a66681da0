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
from dataclasses import dataclass, field

from twisty.errors import EngineBug, LimitReached
from twisty.limits import Deadline
from twisty.rules.book.contents import RULE_NAMES
from twisty.rules.book.evaluation import PASSABLE, STATUS_NAMES, Evaluation
from twisty.rules.book.model import Book
from twisty.rules.book.path import POLL_INSIDE_ABOVE, PathRules, PathState, replay_moves
from twisty.rules.book.static import READINGS, evaluate
from twisty.rules.book.topology import Cell
from twisty.solver.book_search import WalkSearch

# Walkers (search states) kept at most: each is one integer in a table (about a hundred bytes with its
# parent), so two million stay within a few hundred megabytes; the shipped books need a few thousand.
MAX_WALKERS = 2_000_000
# The cap of a search asked to stop once the corridor was decided (`solve_book(every_rule=False)`).
CORRIDOR_ONLY = "stop once the corridor was decided"


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
    walk_seconds: float = 0.0  # of which deciding the walk (solvability, length, uniqueness)
    corridor_seconds: float | None = None  # of which deciding the corridor and its shape (None: undecided)
    _search: WalkSearch | None = field(default=None, repr=False, compare=False)  # to finish the corridor

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
        if self.corridor is not None:
            # The corridor was decided before the walkers ran out (`WalkSearch.settled`); the rules that fire
            # in the part not searched are not known.
            return names + ["rules_fired"]
        # An unsolvable book's corridor is no simple path, whatever its cells.
        return (
            names
            + ["corridor"]
            + (["simple_corridor"] if self.simple_corridor is None else [])
            + ["branches", "dead_ends"]
        )

    def rule_names(self, rules: set[int]) -> list[str]:
        return [RULE_NAMES[rule] for rule in sorted(rules)]


def solve_book(
    book: Book,
    *,
    deadline: Deadline | None = None,
    reading: frozenset[str] = frozenset(),
    max_walkers: int | None = None,
    corridor: bool = True,
    keep_for_readings: bool = False,
    every_rule: bool = True,
) -> BookAnalysis:
    """The walk and the verdict; `reading` evaluates the book under other readings (static.READINGS).

    `deadline` is the level's one deadline (None: no limit); `max_walkers` caps the search states
    (None: MAX_WALKERS). Either cap gives a verdict that names it and leaves undecided answers unknown.
    The answers come in order of cost (module docstring): the walk first, then (unless `corridor` is False)
    the corridor, then (unless `every_rule` is False) every walker, for the rules that fire (`rules_fired`:
    the corridor is often decided long before, `WalkSearch.settled`). With `keep_for_readings`, the corridor
    stops short of the deadline, keeping time for the ambiguity lint's readings; `resume_corridor` gives it
    what they leave."""
    started = time.perf_counter()
    verdict = BookAnalysis(book, "unknown", shortest_walks=None)
    try:
        verdict.initial = initial_evaluation(book, reading, deadline)
        # An entrance that kills ends it here, before any search is set up.
        if verdict.initial.passable(book.shape.index(book.entrance)):
            rules = PathRules(book, reading, deadline, verdict.initial)
            search = WalkSearch(rules, deadline, MAX_WALKERS if max_walkers is None else max_walkers)
            begun = search.begin()
        else:
            begun = False
    except LimitReached as reached:
        verdict.cap = reached.cap
        verdict.seconds = time.perf_counter() - started
        return verdict
    if not begun:
        verdict.status, verdict.shortest_walks = "unsolvable", 0
        verdict.corridor, verdict.branches, verdict.dead_ends = [], [], []
        verdict.rules_fired = set(verdict.initial.fired)
        verdict.seconds = time.perf_counter() - started
        return verdict
    search.shortest()
    verdict.walk_seconds = time.perf_counter() - started
    if search.best is not None:
        verdict.status, verdict.moves, verdict.shortest_walks = "solvable", search.best, search.shortest_walks
        _record_walk(verdict, rules, search)
    elif search.cap is None:
        verdict.status, verdict.shortest_walks = "unsolvable", 0
    verdict._search = search
    if corridor and search.cap is None:
        reserve = _reading_reserve(deadline, verdict.walk_seconds) if keep_for_readings else None
        _exhaust(verdict, search, _sooner(deadline, reserve), every_rule, started)
    _take_corridor(verdict, search, corridor)
    if verdict.corridor is not None and verdict.corridor_seconds is None:
        verdict.corridor_seconds = time.perf_counter() - started
    if search.proved_unsolvable and search.cap is None and search.reached_exit():
        raise EngineBug("the bound on the cells a walk may reach left out the exit, which the search reached")
    verdict.seconds = time.perf_counter() - started
    return verdict


def initial_evaluation(book: Book, reading: frozenset[str], deadline: Deadline | None) -> Evaluation:
    """The book before the walk: the loader's evaluation when it has one for this reading, else a new one."""
    if not reading and "initial" in book.cache:
        return book.cache["initial"]
    if deadline is not None:
        deadline.check()
    # Without the rules' words, which only a report asks for (`Evaluation.reasons` finds them then).
    return evaluate(book, None, reading, deadline if book.shape.cell_count > POLL_INSIDE_ABOVE else None, explain=False)


def _reading_reserve(deadline: Deadline | None, walk_seconds: float) -> float | None:
    """Seconds the corridor leaves for the ambiguity lint's readings: each reading evaluates the book and asks
    for the walk again, about what the walk took here, so twice that for each and a fifth of a second to
    spare, but at least a quarter of what is left and at most half. Generous costs nothing: what the readings
    leave goes back to the corridor (`resume_corridor`). None: no limit to share."""
    if deadline is None or deadline.remaining() is None:
        return None
    left = deadline.remaining() or 0.0
    return min(left / 2, max(left / 4, len(READINGS) * 2 * walk_seconds + 0.2))


def _sooner(deadline: Deadline | None, reserve: float | None) -> Deadline | None:
    """The deadline `reserve` seconds before `deadline` (the same memory budget); `deadline` itself when
    nothing is reserved."""
    if deadline is None or reserve is None:
        return deadline
    # Of the same kind as `deadline` (a bench's deadline may count CPU seconds).
    return type(deadline)(max(0.0, (deadline.remaining() or 0.0) - reserve), memory_bytes=deadline.memory_bytes)


def _exhaust(
    verdict: BookAnalysis, search: WalkSearch, deadline: Deadline | None, every_rule: bool, started: float
) -> None:
    """Search on until the corridor is decided (`WalkSearch.settled`: its shape taken at once), then, with
    `every_rule`, on to every walker (for `rules_fired`), within `deadline`."""
    if verdict.corridor is None:
        search.exhaust(deadline, until_settled=True)
        if search.settled and search.cap is None:
            _corridor_shape(verdict, search.corridor(), search.edges())
            verdict.corridor_seconds = time.perf_counter() - started
    if every_rule and search.cap is None:
        search.exhaust(deadline)


def _take_corridor(verdict: BookAnalysis, search: WalkSearch, asked: bool) -> None:
    """Copy what the search met into the verdict: the cap, the walkers and evaluations, the rules that fired,
    and (when the search ran to the end) the corridor and its shape."""
    verdict.cap = search.cap
    if search.cap is None and search.settled and search.frontier and not search.rules_settled:
        verdict.cap = CORRIDOR_ONLY  # asked to stop there (`every_rule` False): the rules fired are partial
    verdict.walkers = search.walkers()
    verdict.evaluations = len(search.rules.evaluations)
    verdict.rules_fired = set(search.path_rules)
    for removed in search.reached_removals():
        verdict.rules_fired |= search.rules.evaluation(PathState(removed)).fired
    if asked and search.cap is None:
        if verdict.corridor is None:
            _corridor_shape(verdict, search.corridor(), search.edges())
        verdict._search = None  # nothing left to resume: let its tables go


def resume_corridor(verdict: BookAnalysis, deadline: Deadline | None) -> None:
    """Finish the corridor of a verdict whose search stopped at a time limit after the walk was decided (with
    `keep_for_readings`, or earlier), within `deadline`: the time the other answers left."""
    search = verdict._search
    verdict._search = None
    if search is None or search.cap is None or search.cap.startswith("limit of") or verdict.status == "unknown":
        return
    if verdict.shortest_walks is None and verdict.status == "solvable":
        return  # the walk's own layer was cut short: its count cannot be finished by exhausting
    search.cap = None
    started = time.perf_counter()
    _exhaust(verdict, search, deadline, True, started - verdict.seconds)
    _take_corridor(verdict, search, True)
    if verdict.corridor is not None and verdict.corridor_seconds is None:
        verdict.corridor_seconds = time.perf_counter() - started + verdict.seconds
    verdict.seconds += time.perf_counter() - started


NAME = "rules"


def analyse(book: Book, *, deadline: Deadline | None = None) -> BookAnalysis:
    """The engine contract of the Book's engines (twisty.games.book): the verdict on the walk, its corridor
    leaving time for the readings that `check` compares next (`resume_corridor` finishes it after them)."""
    return solve_book(book, deadline=deadline, keep_for_readings=True)


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


def _record_walk(verdict: BookAnalysis, rules: PathRules, search: WalkSearch) -> None:
    """Replay the walk the search found by the path rules, and keep it, with the book as this walk leaves it
    at the exit (its own removals, each with the reason this walk gives it)."""
    shape = verdict.book.shape
    steps = search.walk()
    taken = replay_moves(rules, steps)  # the first is the start's own move (onto the entrance)
    if taken is None:
        raise EngineBug(
            f"the book's walk search found a walk of {len(steps)} moves that the path rules do not replay to the exit"
        )
    cells = [taken[0].walker.position] + [cell for move in taken[1:] for cell in move.cells]
    verdict.walk = [shape.cell(index) for index in cells]
    verdict.walk_rules = {rule for move in taken for rule in move.rules}
    removals = [removal for move in taken for removal in move.removals]
    verdict.final = rules.evaluation_along(taken[-1].walker.state, removals)


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
    undecided. Each reading asks only for the walk (not the corridor), within an equal share of what is left
    of the level's one `deadline`: a reading that cannot finish leaves the next ones their time (and a
    corridor still unknown gets what they all leave, `resume_corridor`). Once the deadline has passed, the
    readings not yet compared are undecided at once."""
    differences = []
    shape = book.shape
    for number, reading in enumerate(READINGS):
        shares = len(READINGS) - number
        left = deadline.remaining() if deadline is not None else None
        share = _sooner(deadline, None if left is None else left - left / shares)
        other = solve_book(book, deadline=share, reading=frozenset({reading}), max_walkers=max_walkers, corridor=False)
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
