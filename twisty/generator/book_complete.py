"""`twisty complete`: fill the open cells of a sketch so that the book has one simple corridor from its
entrance to its exit (so exactly one shortest walk), or say which of the designer's cells and wishes
conflict.

The SAT model (`twisty.encodings.book_sat`) holds the sketch's cells fixed and each open cell to what it may
hold. The corridor is a set of cells `inside`, with no walk to find: it holds the entrance and the exit, every
cell of it is passable, a passable neighbour of a cell of it (but of the exit, where the walk ends) is in it,
and every cell of it has exactly two passable neighbours, the entrance and the exit exactly one. The cells
reachable from the entrance then form a path that can only end at the exit: a simple corridor. The filled
book is checked by the rule engine, never trusted (a sketch with path rules written in is refined until the
check agrees, at most MAX_ROUNDS times).

When no filling exists, the model is asked again with every fixed cell and every open cell's set as a wish
of its own (an assumption), and the solver's core of conflicting wishes is shrunk until each one is needed:
dropping any single wish of the answer makes a filling possible (as far as these wishes go).
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from types import ModuleType

from twisty.encodings.book_circuit import PYSAT, Circuit, backend
from twisty.encodings.book_sat import BookFrame, Contents, StaticModel, build_static
from twisty.errors import GenerationError, LimitReached, UsageError
from twisty.generator.book_text import completed_text
from twisty.limits import Deadline
from twisty.rules.book.contents import CONTENTS, FILLABLE, MONSTER, PATH_CONTENTS, WEAKLING, code_of
from twisty.rules.book.loader import load_book
from twisty.rules.book.model import Book
from twisty.rules.book.topology import Cell
from twisty.rules.source import parse_level_bytes
from twisty.solver.book import BookAnalysis, solve_book

MAX_ROUNDS = 20
# What an open cell holds unless the corridor needs more there: plain ground, Walls and plain monsters, so
# that a filling reads like a designer's page rather than a bestiary.
PLAIN = frozenset({"", "Rubble", "Moss", "Planks", "Wall", "Troll", "Ogre", "Skeleton", "Spikes", "Goblin", "Kobold"})
CORRIDOR_WISH = "one simple corridor joins the entrance to the exit"

# The rule a fixed cell's content belongs to, to name it in a conflict.
_RULE_OF = {
    "Rat": 3,
    "Wolf": 4,
    "Mimic": 5,
    "Mage": 6,
    "Wraith": 6,
    "Scroll": 20,
    "Orc": 7,
    "Dwarf": 7,
    "Vampire": 8,
    "Giant": 9,
    "Oracle": 10,
    "Reaper": 11,
    "Titan": 12,
    "Chuck": 13,
    "Spikes": 14,
    "Swamp": 14,
    "Pit": 14,
    "Rubble": 15,
    "Moss": 15,
    "Planks": 15,
    "Wall": 16,
    "Lava": 17,
    "Shadow": 21,
    "Torch": 21,
    "Gold": 20,
    "Gem": 20,
}


def rule_of(name: str) -> int | None:
    if name in _RULE_OF:
        return _RULE_OF[name]
    if name in CONTENTS and CONTENTS[name].family == MONSTER:
        return 1
    if name in CONTENTS and CONTENTS[name].family == WEAKLING:
        return 8 if name in ("Bandit", "Thief", "Cultist") else 2
    if name.isdigit():
        return 19
    return None


@dataclass(frozen=True)
class Wish:
    """One thing the designer asked for: a fixed cell, an open cell's set, or the corridor."""

    text: str
    cell: Cell | None = None
    rule: int | None = None


@dataclass
class Completion:
    """A filled book (text, book, the rule engine's verdict), or the conflicting wishes when none exists."""

    text: str | None = None
    book: Book | None = None
    analysis: BookAnalysis | None = None
    filled: dict[Cell, str] = field(default_factory=dict)
    conflict: list[Wish] = field(default_factory=list)
    rounds: int = 0

    @property
    def completed(self) -> bool:
        return self.text is not None


def _describe(book: Book, index: int, name: str) -> str:
    page, row, col = book.shape.cell(index)
    what = f"holds {name}" if name else "is empty"
    return f"page {page}, row {row}, col {col} {what}"


def _set_text(names: frozenset[str]) -> str:
    return "?{" + ",".join(sorted(code_of(name) for name in names)) + "}"


def corridor_constraints(circuit: Circuit, model: StaticModel, entrance: int, exit_cell: int, gate: int) -> None:
    """Under `gate`: the cells reachable from the entrance form one simple path ending at the exit (see the
    module's docstring)."""
    c = circuit
    shape = model.shape
    orthogonal = shape.orthogonal_table()
    size = shape.cell_count
    inside = [c.false] * size
    for index in range(size):
        if model.passable[index] != c.false:
            inside[index] = c.var(("corridor", index))
            c.clauses.append([-inside[index], model.passable[index]])
    c.clauses.append([-gate, inside[entrance]])
    c.clauses.append([-gate, inside[exit_cell]])
    for index in range(size):
        if inside[index] == c.false:
            continue
        neighbours = orthogonal[index]
        if index != exit_cell:
            for other in neighbours:
                c.clauses.append([-gate, -inside[index], -model.passable[other], inside[other]])
            wanted = 1 if index == entrance else 2
            links = [model.passable[other] for other in neighbours]
        else:
            wanted, links = 1, [inside[other] for other in neighbours]
        c.clauses.append([-gate, -inside[index], c.exactly(links, wanted)])


def _model(
    sketch: Book, open_cells: dict[int, frozenset[str]], relaxed: bool, deadline: Deadline | None = None
) -> tuple[Circuit, Contents, dict[int, Wish]]:
    """The completion's model. Relaxed, every fixed cell may also be otherwise (empty, or a Wall for an
    empty cell) and every open cell hold anything fillable, each wish an assumption."""
    circuit = Circuit(None if deadline is None else deadline.check)
    domains: list[frozenset[str]] = []
    for index, name in enumerate(sketch.contents):
        if index in open_cells:
            domains.append(FILLABLE if relaxed else open_cells[index])
        elif relaxed:
            domains.append(frozenset({name, "" if name else "Wall"}))
        else:
            domains.append(frozenset({name}))
    contents = Contents(circuit, BookFrame(sketch.shape, sketch.medusa_spreads), domains)
    model = build_static(circuit, contents)
    gate = circuit.var(("wish", "corridor"))
    shape = sketch.shape
    corridor_constraints(circuit, model, shape.index(sketch.entrance), shape.index(sketch.exit), gate)
    wishes: dict[int, Wish] = {gate: Wish(CORRIDOR_WISH)}
    if relaxed:
        for index, name in enumerate(sketch.contents):
            cell = shape.cell(index)
            if index in open_cells:
                if open_cells[index] != FILLABLE:
                    selector = circuit.var(("wish", "set", index))
                    circuit.clauses.append([-selector] + [contents.holds(index, n) for n in open_cells[index]])
                    text = f"page {cell[0]}, row {cell[1]}, col {cell[2]} is one of {_set_text(open_cells[index])}"
                    wishes[selector] = Wish(text, cell)
            else:
                wishes[contents.holds(index, name)] = Wish(_describe(sketch, index, name), cell, rule_of(name))
    return circuit, contents, wishes


def _minimal(sat, gate_wishes: list[int], core: list[int], deadline: Deadline | None) -> list[int]:
    """Shrink a core of wishes until each one is needed (a deletion pass: a wish whose removal still leaves
    no filling is dropped)."""
    kept = list(core)
    position = 0
    while position < len(kept):
        if deadline is not None and deadline.expired():
            break
        trial = kept[:position] + kept[position + 1 :]
        answer = sat.solve(trial, None if deadline is None else deadline.remaining())
        if answer is None:
            break
        if answer.satisfiable:
            position += 1
        else:
            smaller = [literal for literal in trial if literal in set(answer.core)] or trial
            kept = smaller if len(smaller) < len(trial) else trial
    return kept


def complete_book(
    sketch: Book,
    open_cells: dict[int, frozenset[str]],
    *,
    name: str = "the sketch",
    seed: int = 1,
    deadline: Deadline | None = None,
    solver: str = PYSAT,
    engine: ModuleType | None = None,
) -> Completion:
    """Fill the sketch's open cells (see the module's docstring). `seed` picks among fillings; `engine` is
    the Book engine that checks the result (the rule engine by default). Raises LimitReached when the
    deadline passes, GenerationError when refinement reaches its bound."""
    if sketch.entrance == sketch.exit:
        raise UsageError("the sketch's entrance and exit are the same cell: there is no corridor to fill")
    acting = [index for index, what in enumerate(sketch.contents) if what in PATH_CONTENTS or what == "Boss"]
    if acting:
        raise UsageError(
            f"{_describe(sketch, acting[0], sketch.contents[acting[0]])}: complete fills sketches whose walk needs "
            f"no path rule (a Bridge, Tunnel, Bow, Sword, Mask, Molotov or Boss changes the walk as it goes)"
        )
    chooser = random.Random(f"complete {seed}")
    circuit, contents, wishes = _model(sketch, open_cells, relaxed=False, deadline=deadline)
    phases = []
    plain_wishes: dict[int, int] = {}  # selector "this open cell holds something plain" -> cell
    for index in sorted(open_cells):
        choice = contents.choice[index]
        plain = sorted(PLAIN & set(choice))
        preferred = chooser.choice(plain or sorted(choice))
        phases += [literal if option == preferred else -literal for option, literal in choice.items()]
        if plain and len(plain) < len(choice):
            selector = circuit.var(("plain", index))
            circuit.clauses.append([-selector] + [choice[option] for option in plain])
            plain_wishes[selector] = index
    sat = backend(circuit, solver, phases)
    gate = next(iter(wishes))
    analyse = engine.analyse if engine is not None else solve_book
    try:
        for round_number in range(1, MAX_ROUNDS + 1):
            answer = _plainest(sat, gate, plain_wishes, deadline)
            if not answer.satisfiable:
                completion = Completion(rounds=round_number)
                completion.conflict = _conflict(sketch, open_cells, solver, deadline)
                return completion
            names = contents.read(answer.true)
            filled_book = load_book(parse_level_bytes(_probe_text(sketch, names).encode(), name))
            analysis = analyse(filled_book, deadline=deadline)
            if analysis.cap is not None:
                raise LimitReached(f"{analysis.cap} reached while the completed book was checked")
            if analysis.status == "solvable" and analysis.shortest_walks == 1 and analysis.simple_corridor:
                text = completed_text(filled_book, names, analysis, name)
                filled = {sketch.shape.cell(index): names[index] for index in sorted(open_cells)}
                return Completion(text, filled_book, analysis, filled, rounds=round_number)
            # The rule engine refutes it (path rules written into the sketch): exclude this filling.
            circuit.require_any([-contents.holds(index, names[index]) for index in sorted(open_cells)])
    finally:
        sat.close()
    raise GenerationError(f"the bound of {MAX_ROUNDS} rounds of refinement was reached")


def _plainest(sat, gate: int, plain_wishes: dict[int, int], deadline: Deadline | None):
    """A filling that keeps open cells plain wherever it can: ask with every open cell plain, and when that
    fails let the cells of the solver's core hold anything, until a filling is found or none can be."""
    wanted = set(plain_wishes)
    while True:
        answer = sat.solve([gate, *sorted(wanted)], None if deadline is None else deadline.remaining())
        if answer is None:
            raise LimitReached(f"{deadline.cap if deadline else 'time'} limit")
        if answer.satisfiable or not wanted:
            return answer
        blamed = wanted & set(answer.core)
        if not blamed:
            wanted = set()  # the corridor itself fails: no plainness to give up
        else:
            wanted -= blamed


def _probe_text(sketch: Book, names: list[str]) -> str:
    """The filled book as a level file, for the loader (which checks it like any book) and the engine."""
    from twisty.generator.book_text import pages_text

    shape = sketch.shape
    lines = [
        'game = "book"',
        f"title = {json.dumps(sketch.title)}",
        f"rows = {shape.height}",
        f"cols = {shape.width}",
        f"entrance = {list(sketch.entrance)}",
        f"exit = {list(sketch.exit)}",
    ]
    for first, second in sorted({tuple(sorted(pair)) for pair in sketch.tunnels.items()}):
        lines += ["[[tunnel]]", f"cells = [{list(shape.cell(first))}, {list(shape.cell(second))}]"]
    for spread in sorted(sketch.medusa_spreads):
        lines += ["[[local]]", 'rule = "medusa"', f"page = {max(shape.first_page, 2 * spread)}"]
    for rule in sketch.bosses:
        items = ", ".join(f'"{item}"' for item in rule.items)
        lines += [
            "[[local]]",
            'rule = "boss"',
            f"page = {max(shape.first_page, 2 * rule.spread)}",
            f"items = [{items}]",
        ]
    return "\n".join(lines + pages_text(shape, names)) + "\n"


def _conflict(
    sketch: Book, open_cells: dict[int, frozenset[str]], solver: str, deadline: Deadline | None
) -> list[Wish]:
    """The designer's wishes that conflict, shrunk until each one is needed."""
    circuit, _contents, wishes = _model(sketch, open_cells, relaxed=True, deadline=deadline)
    sat = backend(circuit, solver)
    try:
        assumptions = list(wishes)
        answer = sat.solve(assumptions, None if deadline is None else deadline.remaining())
        if answer is None or answer.satisfiable:
            # Out of time, or the relaxation found room the strict model did not (it cannot: every wish assumed
            # is the strict model): name every wish rather than a guess.
            return [wishes[literal] for literal in assumptions]
        core = [literal for literal in assumptions if literal in set(answer.core)] or assumptions
        kept = _minimal(sat, assumptions, core, deadline)
    finally:
        sat.close()
    return [wishes[literal] for literal in kept]
