"""`twisty generate book`: new books whose only walk is a corridor chosen first, teaching the rules named.

For a seed: draw the intended walk (`book_walks`), give every cell a domain of contents (the walk's cells
what a walker may stand on, the cells beside it what stops a walker, the cells around what the named rule
families bring, thinned by the density), and ask SAT (`twisty.encodings.book_sat`) for contents such that

- every cell of the walk is passable and every cell beside it is not (so the walk is a simple corridor and
  the only shortest walk; a Bridge, a Tunnel and a Bow shape it as `book_walks` says, with a second
  evaluation of the book once the Bow has shot);
- each named family fires on the walk or beside it (`book_families`).

The answer is then checked by the rule engine, never trusted: the book is written as its file, read back,
and its walk searched; it must be solvable, with exactly one shortest walk, a simple corridor, the intended
walk, and every family firing. A book the check refutes is excluded and SAT asked again (counterexample-
guided refinement, at most MAX_ROUNDS rounds, then the seed fails saying so). Random choices come from the
seed alone (the walk, the thinning, the solver's preferred contents), so a seed gives the same book.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

from twisty.encodings.book_circuit import PYSAT, Circuit, backend
from twisty.encodings.book_sat import BookFrame, Contents, StaticModel, build_static
from twisty.errors import GenerationError, LimitReached, UsageError
from twisty.generator.book_families import (
    BASE_BORDER,
    BASE_FAR,
    BASE_NEAR,
    BASE_OUTER,
    BASE_WALK,
    BORDER,
    PATH_FAMILIES,
    fires_in,
)
from twisty.generator.book_params import BookParams, parse_rules, parse_size
from twisty.generator.book_text import book_file_text
from twisty.generator.book_walks import IntendedWalk, neighbours_of, random_walk
from twisty.limits import Deadline
from twisty.rules.book.evaluation import DEADLY, PASSABLE, PETRIFIED, WALL
from twisty.rules.book.loader import load_book
from twisty.rules.book.model import Book
from twisty.rules.book.topology import BookShape, spread_of
from twisty.rules.source import parse_level_bytes
from twisty.solver.book import BookAnalysis, solve_book

MAX_ROUNDS = 20
# A generated book's Vampire chains convert at most this many in a row and its melees hold at most this
# many fighters (the SAT model is sized by them; docs/book-generator.md).
CHAIN_BOUND = 8
MELEE_BOUND = 5
# Walk cells of the stretch where each family is taught.
SPOT_LENGTH = 7
WALK_ATTEMPTS = 12
DEADLY_STUFF = frozenset({"Spikes", "Swamp", "Pit", "Troll", "Ogre", "Skeleton", "Mummy", "Witch"})


@dataclass
class GeneratedBook:
    text: str
    book: Book
    analysis: BookAnalysis
    walk: IntendedWalk
    fired: dict[str, list[tuple[int, int]]]  # family -> [(cell, status)] where it matters
    rounds: int = 1
    clauses: int = 0


@dataclass
class _Zones:
    walk: IntendedWalk
    border: set[int]
    near: set[int]
    domains: list[frozenset[str]] = field(default_factory=list)


def _zones(shape: BookShape, walk: IntendedWalk) -> tuple[set[int], set[int], set[int]]:
    """The cells one, two and three steps from the walk."""
    border = neighbours_of(shape, walk.standing)
    near = neighbours_of(shape, walk.standing | border)
    outer = neighbours_of(shape, walk.standing | border | near)
    return border, near, outer


def _spots(params: BookParams, shape: BookShape, walk: IntendedWalk, chooser: random.Random) -> dict[str, set[int]]:
    """Where along the walk each family is taught: a stretch of SPOT_LENGTH walk cells and the cells within
    three steps of it (for the Rat, the whole spread it lies on). A family's contents stand only there, which
    keeps the SAT model small and spreads the lessons along the walk."""
    spots: dict[str, set[int]] = {}
    inner = list(range(1, len(walk.cells) - 1)) or [0]
    for family in params.families:
        middle = chooser.choice(inner)
        stretch = set(walk.cells[max(1, middle - SPOT_LENGTH // 2) : middle + SPOT_LENGTH // 2 + 1]) & walk.standing
        around = set(stretch)
        for _ in range(3):
            around |= neighbours_of(shape, around)
        if family.name == "rat":
            spread = spread_of(shape.cell(walk.cells[middle])[0])
            around = {index for page in shape.spread_pages(spread) for index in shape.page_cells(page)}
        spots[family.name] = around
    return spots


def _domains(params: BookParams, shape: BookShape, walk: IntendedWalk, chooser: random.Random) -> _Zones:
    border, near, outer = _zones(shape, walk)
    spots = _spots(params, shape, walk, chooser)
    fixed: dict[int, str] = {walk.entrance: "", walk.exit: ""}
    if walk.bridge is not None:
        fixed[walk.bridge] = "Bridge"
    if walk.tunnel is not None:
        fixed[walk.tunnel[0]] = fixed[walk.tunnel[1]] = "Tunnel"
    if walk.bow is not None:
        fixed[walk.bow[0]] = "Bow"
    far_palette = BASE_FAR
    domains = []
    for index in range(shape.cell_count):
        here = [family for family in params.families if index in spots[family.name]]
        if index in fixed:
            domains.append(frozenset({fixed[index]}))
        elif walk.bow is not None and index == walk.bow[1]:
            domains.append(frozenset({"Troll", "Ogre", "Skeleton"}))
        elif index in walk.jumped:
            domains.append(DEADLY_STUFF)
        elif index in walk.standing:
            domains.append(BASE_WALK.union(*(family.walk for family in here)))
        elif index in border:
            domains.append(BASE_BORDER.union(*(family.border for family in here)))
        elif chooser.random() >= params.density:
            domains.append(frozenset({""}))
        elif index in near:
            domains.append(BASE_NEAR.union(*(family.near for family in here)))
        elif index in outer:
            domains.append(BASE_OUTER.union(*(family.outer for family in here)))
        else:
            domains.append(far_palette.union(*(family.outer for family in here)))
    return _Zones(walk, border, near, domains)


def _status_literal(model: StaticModel, status: int, index: int) -> int:
    return {PASSABLE: model.passable, DEADLY: model.deadly, WALL: model.wall, PETRIFIED: model.petrified}[status][index]


def _corridor_constraints(circuit: Circuit, model: StaticModel, walk: IntendedWalk, standing, border) -> None:
    """The cells the walker stands on are passable; every cell beside them stops the walker."""
    for index in standing:
        circuit.require(model.passable[index])
    for index in border:
        circuit.require(-model.passable[index])


def _bridge_constraints(circuit: Circuit, model: StaticModel, walk: IntendedWalk, shape: BookShape) -> None:
    """The jumped cell is deadly (a Wall cannot be jumped); from the Bridge no other jump lands anywhere."""
    assert walk.bridge is not None
    steps = shape.step_table()
    for index in walk.jumped:
        circuit.require(model.deadly[index])
    for moved in steps[walk.bridge]:
        if moved is None or moved[0] in walk.jumped:
            continue
        beyond = steps[moved[0]][moved[1]]
        if beyond is not None:
            circuit.require(-circuit.and_([model.deadly[moved[0]], model.passable[beyond[0]]]))


def build_model(
    params: BookParams, zones: _Zones, shape: BookShape, poll: Callable[[], None] | None = None
) -> tuple[Circuit, Contents, StaticModel]:
    """The SAT model of one generation: contents, the book's evaluation (and after the Bow's shot), the
    corridor and the families' firings. `poll` (the deadline's check) is called while it is built."""
    circuit = Circuit(poll)
    walk = zones.walk
    medusa = (
        frozenset(spread_of(page) for page in shape.pages)
        if any(f.local_medusa for f in params.families)
        else frozenset()
    )
    contents = Contents(circuit, BookFrame(shape, medusa), zones.domains)
    first = build_static(circuit, contents, chain_bound=CHAIN_BOUND, melee_bound=MELEE_BOUND)
    evaluations = [first]
    if walk.bow is not None:
        bow, target = walk.bow
        before = walk.cells[: walk.cells.index(bow) + 1]
        _corridor_constraints(circuit, first, walk, set(before), neighbours_of(shape, set(before[:-1])) - {bow})
        circuit.require(circuit.and_([first.creature(target), first.deadly[target]]))
        shot = {end: circuit.and_([first.creature(end), first.deadly[end]]) for end in _ray_ends(shape, bow)}
        after = build_static(
            circuit, contents, shot, tag="after the Bow", chain_bound=CHAIN_BOUND, melee_bound=MELEE_BOUND
        )
        evaluations.append(after)
        _corridor_constraints(circuit, after, walk, walk.standing, zones.border)
    else:
        _corridor_constraints(circuit, first, walk, walk.standing, zones.border)
    if walk.bridge is not None:
        for model in evaluations:
            _bridge_constraints(circuit, model, walk, shape)
    for family in params.families:
        ways = []
        for firing in family.firings:
            zone = zones.border if firing.zone == BORDER else walk.standing
            for index, literal in first.fires.get(firing.key, {}).items():
                if index in zone:
                    ways.append(circuit.and_([literal, _status_literal(first, firing.status, index)]))
        circuit.require_any(ways)
    return circuit, contents, first


def _ray_ends(shape: BookShape, cell: int) -> list[int]:
    found = []
    for direction in range(4):
        ray = shape.ray(shape.cell(cell), direction, length=5)
        if len(ray) == 5:
            found.append(shape.index(ray[-1]))
    return found


def _phases(contents: Contents, chooser: random.Random) -> list[int]:
    """The solver's preferred contents: one of each free cell's domain, drawn from the seed."""
    phases = []
    for choice in contents.choice:
        if len(choice) < 2:
            continue
        names = sorted(choice)
        preferred = chooser.choice(names)
        phases += [choice[name] if name == preferred else -choice[name] for name in names]
    return phases


def verify(
    book: Book,
    walk: IntendedWalk,
    params: BookParams,
    border: set[int],
    deadline: Deadline | None,
    engine: ModuleType | None = None,
) -> tuple[BookAnalysis, dict[str, list[tuple[int, int]]], str | None]:
    """The engine's verdict (the rule engine's by default), and why the book is refused (None: it is what
    was asked)."""
    analysis = (engine.analyse if engine is not None else solve_book)(book, deadline=deadline)
    if analysis.cap is not None:
        raise LimitReached(f"{analysis.cap} reached while the book was checked")
    shape = book.shape
    if analysis.status != "solvable" or analysis.shortest_walks != 1 or not analysis.simple_corridor:
        return analysis, {}, "the rule engine finds another walk or a branch"
    if [shape.index(cell) for cell in analysis.walk] != walk.cells:
        return analysis, {}, "the rule engine's walk is not the intended one"
    missing = [rule for name, rule in PATH_FAMILIES.items() if name in params.rules and rule not in analysis.walk_rules]
    if missing:
        return analysis, {}, f"the walk does not use rule {missing[0]}"
    assert analysis.initial is not None
    fired = {}
    for family in params.families:
        cells = fires_in(analysis.initial, family, walk.standing, border)
        if not cells:
            return analysis, {}, f"the {family.name} family fires nowhere beside the walk"
        fired[family.name] = cells
    return analysis, fired, None


def generate_book(
    params: BookParams,
    seed: int,
    deadline: Deadline | None = None,
    solver: str = PYSAT,
    engine: ModuleType | None = None,
    progress: Callable[[str], None] | None = None,
) -> GeneratedBook:
    """A book for `seed`, verified by `engine` (a Book engine module of the registry; the rule engine by
    default; see the module's docstring). `solver` is the SAT backend (pysat or cpsat); `progress` is told
    each stage. Raises GenerationError when none is found within the attempts and rounds, LimitReached when
    the deadline passes."""
    tell = progress or (lambda stage: None)
    params.validate()
    chooser = random.Random(f"book {seed}")
    shape = BookShape(params.rows, params.cols, params.first_page, params.first_page + params.pages - 1)
    problems = []
    for _attempt in range(WALK_ATTEMPTS):
        tell("drawing the walk")
        poll = None if deadline is None else deadline.check
        walk = random_walk(shape, chooser, params.length, params.path_rules, poll)
        zones = _domains(params, shape, walk, chooser)
        tell("building the SAT model")
        circuit, contents, _first = build_model(params, zones, shape, poll)
        sat = backend(circuit, solver, _phases(contents, chooser))
        try:
            for round_number in range(1, MAX_ROUNDS + 1):
                if deadline is not None and deadline.expired():
                    raise LimitReached(f"{deadline.cap} limit")
                tell(f"solving (round {round_number})")
                answer = sat.solve([], None if deadline is None else deadline.remaining())
                if answer is None:
                    raise LimitReached(f"{deadline.cap if deadline else 'time'} limit")
                if not answer.satisfiable:
                    problems.append("no contents make this walk the only one with every family firing")
                    break
                names = contents.read(answer.true)
                text = book_file_text(params, seed, shape, names, walk, {}, header=False)
                book = load_book(parse_level_bytes(text.encode(), "generated.toml"))
                tell(f"checking (round {round_number})")
                analysis, fired, refused = verify(book, walk, params, zones.border, deadline, engine)
                if refused is None:
                    final = book_file_text(params, seed, shape, names, walk, fired, analysis=analysis)
                    return GeneratedBook(final, book, analysis, walk, fired, round_number, len(circuit.clauses))
                problems.append(refused)
                # Refine: exclude these contents around the walk (they are what the rule engine refuted).
                watched = walk.standing | zones.border | zones.near
                circuit.require_any(
                    [
                        -contents.holds(index, names[index])
                        for index in sorted(watched)
                        if len(contents.choice[index]) > 1
                    ]
                )
            else:
                problems.append(f"the bound of {MAX_ROUNDS} rounds of refinement was reached")
        finally:
            sat.close()
    raise GenerationError(f"seed {seed}: no book found ({'; '.join(dict.fromkeys(problems))})")


def generate_from(params: Mapping[str, Any], seed: int, deadline: Deadline, engine: ModuleType) -> GeneratedBook:
    """The registry's entry point (twisty.generate("book", ...)): `params` are pages, size="ROWSxCOLS" (or
    rows and cols), rules (a list or "wolf,vampire"), walk_length and density; `engine` verifies the book."""
    fields = dict(params)
    if "size" in fields:
        fields["rows"], fields["cols"] = parse_size(fields.pop("size"))
    if "rules" in fields:
        fields["rules"] = parse_rules(fields["rules"])
    unknown = sorted(set(fields) - {"pages", "rows", "cols", "rules", "walk_length", "density", "first_page"})
    if unknown:
        raise UsageError(
            f"generate('book') takes pages, size (or rows and cols), rules, walk_length and density, "
            f"not {', '.join(unknown)}"
        )
    return generate_book(BookParams(**fields), seed, deadline, engine=engine)
