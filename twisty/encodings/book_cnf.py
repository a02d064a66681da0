"""A second engine for books: the static rules and the walk's reachability as CNF (PySAT), for differential
tests against the rule engine (`twisty.rules.book.static` + `twisty.solver.book`).

Scope: books without path rules (no Bridge, Tunnel, Bow, Sword, Mask, Molotov or Boss), so that the book is
evaluated once. Every rule is one function adding clauses; every definition is an equivalence (Tseitin), so
the formula has exactly one model, from which each cell's status and the shortest walk are read. Groups
(Wolf packs, melees) and chains (Vampires) are least fixpoints, written as layered reachability; counts
(pack sizes, Rats, Numbers, the Oracle's four) are unary counters. Contents are constants, and the builders
fold constants away, so a rule that cannot apply costs nothing.

Every variable comes from one IDPool keyed by tuples, e.g. ("deadly5", cell), ("reach", cell, layer).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import count

from pysat.formula import IDPool
from pysat.solvers import Solver

from twisty.rules.book.contents import CONTENTS, CREATURES, DEADLY_TERRAIN, MONSTER, NUMBERS, PREY
from twisty.rules.book.model import Book
from twisty.rules.book.topology import DIRECTIONS, DOWN, LEFT, RIGHT, UP, Cell, spread_of

UNSUPPORTED = frozenset(
    {"Bridge", "Tunnel", "Bow", "Sword", "Mask", "Molotov", "Boss", "Bazooka", "Tweezers", "Excalibur"}
)
IMMUNE = frozenset({"Oracle", "Chuck"})
BAD_GUYS = frozenset(name for name, content in CONTENTS.items() if content.family == MONSTER) - {"Boss"}
ATTACK = {3: RIGHT, 4: LEFT, 5: DOWN, 6: UP}


class Circuit:
    """Clauses with constant folding: `and_`/`or_` return a literal equivalent to the gate."""

    def __init__(self) -> None:
        self.pool = IDPool()
        self.clauses: list[list[int]] = []
        self.true = self.pool.id(("true",))
        self.clauses.append([self.true])
        self._fresh = count()

    def const(self, value: bool) -> int:
        return self.true if value else -self.true

    def name(self, key: tuple, literal: int) -> int:
        """A named variable equivalent to `literal` (so the model can be read by name)."""
        variable = self.pool.id(key)
        self.clauses += [[-variable, literal], [variable, -literal]]
        return variable

    def and_(self, literals) -> int:
        kept = []
        for literal in literals:
            if literal == -self.true:
                return -self.true
            if literal != self.true and literal not in kept:
                kept.append(literal)
        if not kept:
            return self.true
        if len(kept) == 1:
            return kept[0]
        gate = self.pool.id(("gate", next(self._fresh)))
        self.clauses += [[-gate, literal] for literal in kept]
        self.clauses.append([gate] + [-literal for literal in kept])
        return gate

    def or_(self, literals) -> int:
        return -self.and_([-literal for literal in literals])

    def at_least(self, literals, bound: int) -> list[int]:
        """[sum >= 0, sum >= 1, ..., sum >= bound] as literals (a sequential unary counter)."""
        levels = [self.true] + [-self.true] * bound
        for literal in literals:
            levels = [self.true] + [
                self.or_([levels[j], self.and_([literal, levels[j - 1]])]) for j in range(1, bound + 1)
            ]
        return levels

    def exactly(self, literals, value: int) -> int:
        levels = self.at_least(literals, value + 1)
        return self.and_([levels[value], -levels[value + 1]])


@dataclass
class CnfVerdict:
    status: dict[Cell, str]  # "passable", "deadly", "wall" or "petrified"
    solvable: bool
    moves: int | None


class BookEncoding:
    def __init__(self, book: Book) -> None:
        found = sorted({name for name in book.contents if name in UNSUPPORTED})
        if found or book.tunnels or book.bosses:
            raise ValueError(f"the CNF engine covers books without path rules (found {', '.join(found)})")
        self.book = book
        self.shape = book.shape
        self.cells = list(self.shape.cells())
        self.circuit = Circuit()
        self.printed = {cell: book.content(cell) for cell in self.cells}

    # --- phase 1: identity (the Mimic chain is structural: followed here, not in clauses) ------------

    def identities(self) -> dict[Cell, str]:
        """Rule 5: a Mimic copies toward the gutter, along a chain, never beyond its spread."""
        ident = dict(self.printed)
        for cell, what in self.printed.items():
            if what != "Mimic":
                continue
            here, seen, copied = cell, {cell}, None
            while True:
                moved = self.shape.step(here, RIGHT if here[0] % 2 == 0 else LEFT)
                if moved is None or spread_of(moved[0][0]) != spread_of(cell[0]) or moved[0] in seen:
                    break
                here = moved[0]
                seen.add(here)
                if self.printed[here] != "Mimic":
                    copied = self.printed[here] if self.printed[here] in CREATURES else None
                    break
            ident[cell] = copied or "Mimic"
        return ident

    def lines(self):
        """Rows of spreads (across the gutter) and columns of pages, in order."""
        for page in self.shape.pages:
            for col in range(self.shape.width):
                yield [(page, row, col) for row in range(self.shape.height)]
        for spread in sorted({spread_of(page) for page in self.shape.pages}):
            pages = self.shape.spread_pages(spread)
            for row in range(self.shape.height):
                yield [(page, row, col) for page in pages for col in range(self.shape.width)]

    def reach_closure(self, members: dict[Cell, int], key: str) -> dict[tuple[Cell, Cell], int]:
        """connected[a, b]: b is joined to a through orthogonally adjacent members (a least fixpoint)."""
        c = self.circuit
        candidates = [cell for cell, literal in members.items() if literal != -c.true]
        layer = {(a, b): c.and_([members[a]]) if a == b else -c.true for a in candidates for b in candidates}
        for _ in range(len(candidates)):
            following = {}
            for a in candidates:
                for b in candidates:
                    via = [layer[a, n] for n in self.shape.neighbours4(b) if n in members and (a, n) in layer]
                    following[a, b] = c.or_([layer[a, b], c.and_([members[b], c.or_(via)])])
            layer = following
        return {pair: c.name((key, *pair), literal) for pair, literal in layer.items()}

    # --- the rules ------------------------------------------------------------------------------------

    def encode(self) -> None:
        c = self.circuit
        shape, cells = self.shape, self.cells
        ident = self.ident = self.identities()
        creature = {cell: ident[cell] in CREATURES for cell in cells}

        # Rule 9 (phase 2): creatures strictly between two Giants of a line are crushed.
        crushed = {cell: -c.true for cell in cells}
        for line in self.lines():
            giants = [position for position, cell in enumerate(line) if ident[cell] == "Giant"]
            for position, cell in enumerate(line):
                if creature[cell] and ident[cell] != "Giant" and ident[cell] not in IMMUNE:
                    between = any(g < position for g in giants) and any(g > position for g in giants)
                    crushed[cell] = c.or_([crushed[cell], c.const(between)])
        present = {cell: c.and_([c.const(creature[cell]), -crushed[cell]]) for cell in cells}
        has = {cell: (lambda name, cell=cell: c.and_([c.const(ident[cell] == name), present[cell]])) for cell in cells}
        self.present = present

        # Rule 8 (phase 3): Vampires convert orthogonal prey, transitively.
        vampire = {cell: has[cell]("Vampire") for cell in cells}
        for _ in range(len(cells)):
            vampire = {
                cell: c.or_(
                    [
                        vampire[cell],
                        c.and_(
                            [
                                c.const(ident[cell] in PREY),
                                present[cell],
                                c.or_([vampire[n] for n in shape.neighbours4(cell)]),
                            ]
                        ),
                    ]
                )
                for cell in cells
            }
        vampire = {cell: c.name(("vampire", cell), literal) for cell, literal in vampire.items()}

        def now(cell: Cell, name: str) -> int:
            """The cell is `name` after removal and conversion."""
            return c.and_([has[cell](name), -vampire[cell]]) if name in PREY else has[cell](name)

        deadly: dict[Cell, list[int]] = {cell: [] for cell in cells}

        # Rule 4: Wolf packs, their size and their attacks.
        wolves = {cell: now(cell, "Wolf") for cell in cells if ident[cell] == "Wolf"}
        if wolves:
            joined = self.reach_closure(wolves, "pack")
            for wolf in wolves:
                mates = [joined[wolf, other] for other in wolves]
                sizes = c.at_least(mates, 7)
                deadly[wolf].append(c.and_([wolves[wolf], sizes[2]]))
                for size, direction in ATTACK.items():
                    moved = shape.step(wolf, direction)
                    if moved is not None:
                        deadly[moved[0]].append(c.and_([wolves[wolf], sizes[size], -sizes[size + 1]]))

        # Rule 7: melees between joined Orcs and Dwarves.
        fighters = {cell: present[cell] for cell in cells if ident[cell] in ("Orc", "Dwarf")}
        if fighters:
            joined = self.reach_closure(fighters, "melee")
            bound = len(fighters) + 1
            for fighter in fighters:
                mine = c.at_least([joined[fighter, o] for o in fighters if ident[o] == ident[fighter]], bound)
                theirs = c.at_least([joined[fighter, o] for o in fighters if ident[o] != ident[fighter]], bound)
                more = c.or_([c.and_([mine[j], -theirs[j]]) for j in range(1, bound + 1)])
                deadly[fighter].append(c.and_([fighters[fighter], c.or_([-theirs[1], more])]))

        # Rule 3: ten Rats on a spread.
        for spread in {spread_of(page) for page in shape.pages}:
            rats = [cell for cell in cells if spread_of(cell[0]) == spread and ident[cell] == "Rat"]
            ten = c.at_least([present[rat] for rat in rats], 10)[10]
            for rat in rats:
                deadly[rat].append(c.and_([present[rat], ten]))

        # Rule 16 and 12: Walls, and the Titan's band (rows clipped to the page).
        band: dict[Cell, list[int]] = {cell: [] for cell in cells}
        for titan in [cell for cell in cells if ident[cell] == "Titan"]:
            spread = spread_of(titan[0])
            for cell in cells:
                if spread_of(cell[0]) in (spread - 1, spread, spread + 1) and abs(cell[1] - titan[1]) <= 1:
                    band[cell].append(present[titan])
        wall = {
            cell: c.name(("wall5", cell), c.or_([c.const(self.printed[cell] == "Wall"), *band[cell]])) for cell in cells
        }

        # Rules 1 and 6: bad guys; Wraiths calmed on a page with a Mage; a Mage beside a Scroll.
        mage_on_page = {page: c.or_([has[cell]("Mage") for cell in cells if cell[0] == page]) for page in shape.pages}
        for cell in cells:
            if ident[cell] in BAD_GUYS:
                calm = mage_on_page[cell[0]] if ident[cell] == "Wraith" else -c.true
                deadly[cell].append(c.and_([present[cell], -calm]))
            if ident[cell] == "Mage":
                scroll = c.const(any(self.printed[n] == "Scroll" for n in shape.neighbours8(cell)))
                deadly[cell].append(c.and_([present[cell], scroll]))
            if self.printed[cell] == "Scroll":
                deadly[cell].append(c.or_([has[n]("Mage") for n in shape.neighbours8(cell)]))
            # Rule 20: Gold and Gems beside a Thief.
            if self.printed[cell] in ("Gold", "Gem"):
                deadly[cell].append(c.or_([now(n, "Thief") for n in shape.neighbours4(cell)]))
            # Rules 8, 9: Vampires and Giants are deadly.
            deadly[cell].append(vampire[cell])
            deadly[cell].append(has[cell]("Giant"))
            # Rule 14: deadly terrain.
            deadly[cell].append(c.const(self.printed[cell] in DEADLY_TERRAIN))
            # Rule 17: Lava and its four neighbours.
            deadly[cell].append(
                c.const(self.printed[cell] == "Lava" or any(self.printed[n] == "Lava" for n in shape.neighbours4(cell)))
            )
            # Rule 19: a Number with the wrong count of creatures around.
            if self.printed[cell] in NUMBERS:
                around = [c.or_([present[n]]) for n in shape.neighbours8(cell)]
                deadly[cell].append(-c.exactly(around, NUMBERS[self.printed[cell]]))
        # Rule 11: the Reaper and everything within two king moves.
        for reaper in [cell for cell in cells if ident[cell] == "Reaper"]:
            for cell in [reaper, *shape.within_king_moves(reaper, 2)]:
                deadly[cell].append(present[reaper])
        # Rule 21: Shadows not lit (light stops at Walls and band cells).
        for shadow in [cell for cell in cells if self.printed[cell] == "Shadow"]:
            lit = []
            for torch in [cell for cell in cells if self.printed[cell] == "Torch"]:
                for direction in DIRECTIONS:
                    ray = shape.ray(torch, direction, within_spread=True)
                    if shadow in ray:
                        before = ray[: ray.index(shadow) + 1]
                        lit.append(c.and_([-wall[cell] for cell in before]))
            deadly[shadow].append(-c.or_(lit))
        deadly5 = {cell: c.name(("deadly5", cell), c.or_(deadly[cell])) for cell in cells}

        # Phase 6. Rule 13: Chuck's page. Rule 10: the Oracle and her four. Local rule: Medusa.
        chuck_page = {page: c.or_([has[cell]("Chuck") for cell in cells if cell[0] == page]) for page in shape.pages}
        safe = {cell: [chuck_page[cell[0]], has[cell]("Oracle")] for cell in cells}
        for oracle in [cell for cell in cells if ident[cell] == "Oracle"]:
            watched = shape.neighbours8(oracle)
            threats = [c.and_([present[n], deadly5[n], -wall[n]]) for n in watched]
            four = c.at_least(threats, 4)[4]
            for n in watched:
                safe[n].append(c.and_([present[oracle], four, -wall[n]]))
        petrified: dict[Cell, list[int]] = {cell: [] for cell in cells}
        for medusa in [cell for cell in cells if ident[cell] == "Medusa"]:
            if spread_of(medusa[0]) not in self.book.medusa_spreads:
                continue
            seen = []
            for direction in DIRECTIONS:
                ray = shape.ray(medusa, direction, within_spread=True)
                for position, cell in enumerate(ray):
                    seen.append((cell, c.and_([-wall[other] for other in ray[: position + 1]])))
            mirrored = c.or_([visible for cell, visible in seen if self.printed[cell] == "Mirror"])
            safe[medusa].append(c.and_([present[medusa], mirrored]))
            for cell, visible in seen:
                if ident[cell] != "Medusa" and ident[cell] not in IMMUNE:
                    petrified[cell].append(c.and_([present[medusa], -mirrored, visible, present[cell]]))
        self.status_literals = {}
        for cell in cells:
            stone = c.name(("petrified", cell), c.or_(petrified[cell]))
            spared = c.or_(safe[cell])
            self.status_literals[cell] = {
                "petrified": stone,
                "wall": c.name(("wall", cell), c.and_([-stone, -spared, wall[cell]])),
                "deadly": c.name(("deadly", cell), c.and_([-stone, -spared, -wall[cell], deadly5[cell]])),
            }
        self.encode_walk()

    def encode_walk(self) -> None:
        """Reachability in layers: reach[cell, k] = the walker can stand there after at most k moves."""
        c = self.circuit
        entrance, exit_cell = self.book.entrance, self.book.exit
        passable = {cell: c.and_([-literal for literal in self.status_literals[cell].values()]) for cell in self.cells}
        reach = {cell: c.and_([c.const(cell == entrance), passable[cell]]) for cell in self.cells}
        self.reach_layers = [c.name(("reach", exit_cell, 0), reach[exit_cell])]
        for layer in range(1, len(self.cells)):
            # The walk ends at the exit: nothing moves on from it.
            reach = {
                cell: c.or_(
                    [
                        reach[cell],
                        c.and_(
                            [passable[cell], c.or_([reach[n] for n in self.shape.neighbours4(cell) if n != exit_cell])]
                        ),
                    ]
                )
                for cell in self.cells
            }
            self.reach_layers.append(c.name(("reach", exit_cell, layer), reach[exit_cell]))

    def solve(self) -> CnfVerdict:
        self.encode()
        with Solver(name="cadical153", bootstrap_with=self.circuit.clauses) as solver:
            if not solver.solve():
                raise AssertionError("the book's formula has no model: an encoding bug")
            model = set(lit for lit in solver.get_model() if lit > 0)

        def true(literal: int) -> bool:
            return literal in model if literal > 0 else -literal not in model

        status = {}
        for cell, literals in self.status_literals.items():
            status[cell] = next((name for name, literal in literals.items() if true(literal)), "passable")
        moves = next((layer for layer, literal in enumerate(self.reach_layers) if true(literal)), None)
        return CnfVerdict(status, moves is not None, moves)


def solve_cnf(book: Book) -> CnfVerdict:
    return BookEncoding(book).solve()
