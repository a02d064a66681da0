"""The Book's second engine: the rules as SAT (`twisty.encodings.book_sat*`), with the contents fixed.

The statuses before the walk are read from the first epoch's evaluation. The shortest walk is found by
adding time steps one at a time and asking whether the walker can stand on the exit after that many moves
(the exit ends the walk, so the first step count that answers yes is the shortest). Uniqueness: that walk
is blocked and the solver asked again for another of the same length. A book with no walk is proved so when
the steps reach the bound no shortest walk can exceed: a shortest walk never stands twice in the same
position, disguise and path state, and the path state changes at most a fixed number of times (each Bow,
Molotov and Sword acts once, a Sword is lost once, each Dragon is slain once).

Every answer is replayed by the plain rules before it leaves: the statuses against `rules.book.static`, the
walk by `rules.book.path.replay_walk`. A book the model does not hold (the Boss local rule, or beyond the
sizes below) is refused with a UsageError naming why: the rule engine answers it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace

from twisty.encodings.book_circuit import PYSAT, Answer, backend
from twisty.encodings.book_sat_walk import NotModelled, WalkModel
from twisty.errors import EngineBug, LimitReached, UsageError
from twisty.limits import Deadline
from twisty.rules.book.contents import CREATURES
from twisty.rules.book.evaluation import DEADLY, PASSABLE, PETRIFIED, WALL, Evaluation
from twisty.rules.book.model import Book
from twisty.rules.book.path import PathRules, replay_walk
from twisty.rules.book.static import evaluate
from twisty.rules.book.topology import Cell
from twisty.solver.book import BookAnalysis, WalkAnswers, solve_book

NAME = "sat"
# The model holds a copy of the book's evaluation per epoch and the walker's state per step: beyond these
# sizes it takes minutes, where the rule engine takes milliseconds.
MAX_CELLS = 5_000
MAX_EVENTS = 16


@dataclass
class SatWalkVerdict(WalkAnswers):
    book: Book
    status: str  # "solvable", "unsolvable" or "unknown"
    statuses: list[int] | None = None  # every cell before the walk (rules.book.static's codes)
    moves: int | None = None
    shortest_walks: int | None = None  # counted up to 2
    walk: list[Cell] = field(default_factory=list)
    walk_moves: list[tuple[int, ...]] = field(default_factory=list)  # the cells each move enters
    cap: str | None = None
    steps: int = 0  # time steps built
    clauses: int = 0
    seconds: float = 0.0


def step_bound(model: WalkModel) -> int:
    """No shortest walk has more moves than this, counting only the region a walk could reach at all.

    A shortest walk never repeats the walker's whole state. Its state other than where it stands changes at
    most `changes` times: the first arrival on each Bow and Molotov (and the removal it makes), each Dragon
    slain, each Sword taken and lost. Between two changes it stands on distinct cells, each either
    undisguised or disguised as what the cell holds (a Mask's disguise must match the creature under it).
    """
    region = model.region
    changes = sum(1 for cell in model.bows + model.molotovs + model.dragons if cell in region)
    changes += 2 * sum(1 for cell in model.swords if cell in region)
    masked = 0
    if any(model.book.contents[cell] == "Mask" for cell in region):
        masked = sum(1 for cell in region if model.book.contents[cell] in CREATURES)
    return (changes + 1) * (len(region) + masked)


def solve_book_sat(book: Book, *, deadline: Deadline | None = None, solver: str = PYSAT) -> SatWalkVerdict:
    """Statuses, solvability, the shortest walk's length, and whether it is the only one, by SAT."""
    started = time.perf_counter()
    if book.shape.cell_count > MAX_CELLS:
        raise UsageError(f"the sat engine takes books of at most {MAX_CELLS} cells, not {book.shape.cell_count}")
    try:
        model = WalkModel(book, poll=None if deadline is None else deadline.check)
    except NotModelled as missing:
        raise UsageError(f"the sat engine does not model {missing}") from None
    except LimitReached as reached:
        return SatWalkVerdict(book, "unknown", cap=reached.cap, seconds=time.perf_counter() - started)
    if len(model.epochs) - 1 > MAX_EVENTS:
        raise UsageError(
            f"the sat engine takes books whose walk can change them at most {MAX_EVENTS} times "
            f"(Bows, Molotovs, Dragons with a Sword), not {len(model.epochs) - 1}"
        )
    verdict = SatWalkVerdict(book, "unknown")
    sat = backend(model.circuit, solver)
    try:
        _search(model, sat, verdict, deadline)
    except LimitReached as reached:
        verdict.cap = reached.cap
    finally:
        sat.close()
        verdict.steps = len(model.steps_built)
        verdict.clauses = len(model.circuit.clauses)
        verdict.seconds = time.perf_counter() - started
    return verdict


def _ask(sat, assumptions: list[int], deadline: Deadline | None) -> Answer | None:
    if deadline is not None and deadline.expired():
        return None
    return sat.solve(assumptions, None if deadline is None else deadline.remaining())


def _search(model: WalkModel, sat, verdict: SatWalkVerdict, deadline: Deadline | None) -> None:
    book, circuit = model.book, model.circuit
    first = model.epochs[0]
    answer = _ask(sat, [], deadline)
    if answer is None:
        verdict.cap = _cap(deadline)
        return
    if not answer.satisfiable:
        # Not even the first step exists: the entrance is not passable before the walk.
        verdict.statuses = _statuses_without_walk(model)
        verdict.status, verdict.shortest_walks = "unsolvable", 0
        _replay_statuses(book, verdict.statuses)
        return
    verdict.statuses = [_status(first, index, answer) for index in range(book.shape.cell_count)]
    _replay_statuses(book, verdict.statuses)
    bound = step_bound(model)
    if model.exit not in model.region:
        verdict.status, verdict.shortest_walks = "unsolvable", 0
        return

    # The exit ends the walk (a walker there stays), so "on the exit after t moves" grows with t: gallop to a
    # step count that reaches it (or to the bound), then halve the gap.
    def on_exit(steps: int) -> Answer | None:
        while len(model.steps_built) <= steps:
            if deadline is not None and deadline.expired():
                return None
            model.extend()
        reached = model.steps_built[steps].at.get(model.exit, circuit.false)
        return _ask(sat, [reached], deadline) if reached != circuit.false else Answer(False)

    low, high, found = -1, 0, on_exit(0)
    while found is not None and not found.satisfiable and high < bound:
        low, high = high, min(bound, max(1, 2 * high))
        found = on_exit(high)
    if found is None:
        verdict.cap = _cap(deadline)
        return
    if not found.satisfiable:
        verdict.status, verdict.shortest_walks = "unsolvable", 0
        return
    while high - low > 1:
        middle = (low + high) // 2
        answer = on_exit(middle)
        if answer is None:
            verdict.cap = _cap(deadline)
            return
        if answer.satisfiable:
            high, found = middle, answer
        else:
            low = middle
    length = high
    reached = model.steps_built[length].at[model.exit]
    verdict.status, verdict.moves = "solvable", length
    moves = model.walk_moves(length, found.true)
    finals = replay_walk(PathRules(book), moves)
    if not finals:
        raise EngineBug(f"the sat engine's walk of {length} moves is not replayed to the exit by the path rules")
    shape = book.shape
    verdict.walk = [book.entrance] + [shape.cell(cell) for entered in moves for cell in entered]
    verdict.walk_moves = moves
    # Another walk of the same length? Block this one (its positions and disguises) and ask again.
    selector = circuit.var(("another walk", length))
    circuit.clauses.append([-selector] + [-literal for literal in model.walk_literals(length, found.true)])
    again = _ask(sat, [reached, selector], deadline)
    if again is None:
        verdict.cap = _cap(deadline)
        return
    verdict.shortest_walks = 2 if again.satisfiable else 1


def _cap(deadline: Deadline | None) -> str:
    return f"{deadline.cap} limit" if deadline is not None else "time limit"


def _status(model, index: int, answer: Answer) -> int:
    for status, literals in ((PASSABLE, model.passable), (DEADLY, model.deadly), (WALL, model.wall)):
        if answer.holds(literals[index]):
            return status
    if answer.holds(model.petrified[index]):
        return PETRIFIED
    raise EngineBug(f"the sat engine gives cell {index} no status")


def _statuses_without_walk(model: WalkModel) -> list[int]:
    """The statuses before the walk when the walk's own constraints are unsatisfiable (the entrance is not
    passable): the first epoch alone, solved apart."""
    from twisty.encodings.book_circuit import Circuit
    from twisty.encodings.book_sat import BookFrame, Contents, build_static

    circuit = Circuit()
    book = model.book
    contents = Contents(circuit, BookFrame(book.shape, book.medusa_spreads), [frozenset({n}) for n in book.contents])
    static = build_static(circuit, contents, exact=True)
    sat = backend(circuit, PYSAT)
    try:
        answer = sat.solve([])
    finally:
        sat.close()
    assert answer is not None and answer.satisfiable
    return [_status(static, index, answer) for index in range(book.shape.cell_count)]


def _replay_statuses(book: Book, statuses: list[int]) -> None:
    """The statuses are replayed by the plain rules (a difference is an engine bug, never printed)."""
    expected = evaluate(book).status
    for index, (ours, theirs) in enumerate(zip(statuses, expected, strict=True)):
        if ours != theirs:
            raise EngineBug(
                f"the sat engine says cell {list(book.shape.cell(index))} is status {ours}, the rules say {theirs}"
            )


def analyse(book: Book, *, deadline: Deadline | None = None) -> BookAnalysis:
    """The engine contract (twisty.games.book): solvability, the shortest walk, its length and whether it is
    the only one come from SAT; the corridor, its shape and the rules that fired (which this model does not
    answer) from the rule engine, whose answers on the walk must agree with SAT's wherever both are decided
    (a disagreement is an engine bug, never printed)."""
    analysis = solve_book(book, deadline=deadline)
    sat = solve_book_sat(book, deadline=deadline)
    if sat.cap is not None:
        return replace(
            analysis,
            status="unknown",
            walk=[],
            moves=None,
            shortest_walks=None,
            final=None,
            cap=sat.cap,
            seconds=analysis.seconds + sat.seconds,
        )
    if analysis.status != "unknown" and (analysis.status, analysis.moves) != (sat.status, sat.moves):
        raise EngineBug(
            f"the sat engine finds {sat.status} in {sat.moves} moves, the rule engine {analysis.status} in "
            f"{analysis.moves}"
        )
    if analysis.shortest_walks is not None and analysis.shortest_walks != sat.shortest_walks:
        raise EngineBug(
            f"the sat engine counts {sat.shortest_walks} shortest walks (up to 2), the rule engine "
            f"{analysis.shortest_walks}"
        )
    final = analysis.final
    if sat.walk and sat.walk != analysis.walk:
        final = None  # the rule engine's book at the exit belongs to its own walk; SAT's is shown
    return replace(
        analysis,
        status=sat.status,
        walk=sat.walk,
        moves=sat.moves,
        shortest_walks=sat.shortest_walks,
        final=final if final is not None or not sat.walk else _final_along(book, sat.walk_moves),
        seconds=analysis.seconds + sat.seconds,
    )


def _final_along(book: Book, moves: list[tuple[int, ...]]) -> Evaluation | None:
    """The book as the SAT walk leaves it at the exit, by the path rules' replay of its moves."""
    rules = PathRules(book)
    finals = replay_walk(rules, moves)
    return rules.evaluation(finals[0].state) if finals else None
