"""Boolean circuits for the Book's constraint models, written once and solved by either backend.

The rules of a book define what each cell is from what the cells hold: every definition is a gate
(`and_`, `or_`, counters), so a model of the clauses is one consistent book with its evaluation. A gate
whose inputs are constants is folded away at once (a fixed cell costs nothing), and equal gates are built
once (structural hashing), so the circuit for a book whose contents are all fixed is small, and for a book
with free cells grows with what is free.

Every variable comes from one `IDPool` keyed by tuples (`("holds", cell, "Wolf")`, `("and", 17)`), so
helper variables never collide and a model can be read back by name. The clauses are plain CNF, handed to
PySAT (Glucose) or to CP-SAT as clauses (`solve`); docs/book-generator.md measures the two.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass

from pysat.formula import IDPool

PYSAT, CPSAT = "pysat", "cpsat"
POLL_EVERY = 4096
BACKENDS = (PYSAT, CPSAT)


class Circuit:
    """Clauses with constant folding and structural hashing: each gate returns an equivalent literal."""

    def __init__(self, poll: Callable[[], None] | None = None) -> None:
        # Called every POLL_EVERY new gates while a model is built: the level's deadline raises LimitReached
        # there, so building a large model never overruns it by much.
        self.poll = poll
        self.pool = IDPool()
        self.clauses: list[list[int]] = []
        self.true = self.pool.id(("true",))
        self.false = -self.true
        self.clauses.append([self.true])
        self._gates: dict[tuple[str, tuple[int, ...]], int] = {}

    # --- literals ------------------------------------------------------------------------------------

    def const(self, value: bool) -> int:
        return self.true if value else self.false

    def var(self, key: Hashable) -> int:
        """A free variable named `key` (the same key gives the same variable)."""
        return self.pool.id(key)

    def is_const(self, literal: int) -> bool:
        return literal in (self.true, self.false)

    def name(self, key: Hashable, literal: int) -> int:
        """A variable named `key` equivalent to `literal`, so that a model can be read by name."""
        variable = self.pool.id(key)
        self.clauses += [[-variable, literal], [variable, -literal]]
        return variable

    # --- gates ---------------------------------------------------------------------------------------

    def and_(self, literals: Iterable[int]) -> int:
        kept: set[int] = set()
        for literal in literals:
            if literal == self.false or -literal in kept:
                return self.false
            if literal != self.true:
                kept.add(literal)
        if not kept:
            return self.true
        if len(kept) == 1:
            return next(iter(kept))
        key = ("and", tuple(sorted(kept)))
        gate = self._gates.get(key)
        if gate is None:
            gate = self.pool.id(("and", len(self._gates)))
            self._gates[key] = gate
            if self.poll is not None and len(self._gates) % POLL_EVERY == 0:
                self.poll()
            self.clauses += [[-gate, literal] for literal in kept]
            self.clauses.append([gate] + [-literal for literal in kept])
        return gate

    def or_(self, literals: Iterable[int]) -> int:
        return -self.and_(-literal for literal in literals)

    def implies(self, condition: int, consequence: int) -> int:
        return self.or_([-condition, consequence])

    def same(self, first: int, second: int) -> int:
        """first <-> second, as a literal."""
        return self.and_([self.implies(first, second), self.implies(second, first)])

    def if_(self, condition: int, then: int, otherwise: int) -> int:
        return self.or_([self.and_([condition, then]), self.and_([-condition, otherwise])])

    def at_least(self, literals: Sequence[int], bound: int) -> list[int]:
        """[sum >= 0, sum >= 1, ..., sum >= bound] as literals (a sequential unary counter)."""
        levels = [self.true] + [self.false] * bound
        for literal in literals:
            if literal == self.false:
                continue
            levels = [self.true] + [
                self.or_([levels[j], self.and_([literal, levels[j - 1]])]) for j in range(1, bound + 1)
            ]
        return levels

    def exactly(self, literals: Sequence[int], value: int) -> int:
        levels = self.at_least(literals, value + 1)
        return self.and_([levels[value], -levels[value + 1]])

    # --- constraints ---------------------------------------------------------------------------------

    def require(self, literal: int) -> None:
        """Every model makes `literal` true (a constant false makes the circuit unsatisfiable)."""
        self.clauses.append([literal])

    def require_any(self, literals: Iterable[int]) -> None:
        clause = [literal for literal in literals if literal != self.false]
        if self.true not in clause:
            self.clauses.append(clause)

    def at_most_one(self, literals: Sequence[int]) -> None:
        """At most one literal true (a sequential encoding: linear in the literals)."""
        live = [literal for literal in literals if literal != self.false]
        if sum(1 for literal in live if literal == self.true) > 1:
            self.clauses.append([self.false])
            return
        previous = None
        for literal in live:
            if previous is not None:
                self.clauses.append([-previous, -literal])
                running = self.or_([previous, literal])
            else:
                running = literal
            previous = running

    def exactly_one(self, literals: Sequence[int]) -> None:
        self.require_any(literals)
        self.at_most_one(literals)


@dataclass
class Answer:
    """A backend's answer: satisfiable or not, the true variables of the model, and (when unsatisfiable
    under assumptions) the assumptions that were enough to refute it."""

    satisfiable: bool
    true: frozenset[int] = frozenset()
    core: tuple[int, ...] = ()

    def holds(self, literal: int) -> bool:
        return literal in self.true if literal > 0 else -literal not in self.true


# PySAT's solver: Glucose 4, incremental, with assumptions, cores, phases and an interrupt (PySAT's CaDiCaL
# cannot be interrupted, so it could not keep a deadline; on the bench the two take about the same time).
PYSAT_SOLVER = "glucose4"


class PysatBackend:
    """Glucose through PySAT, incremental: clauses are added as the circuit grows."""

    name = PYSAT

    def __init__(self, circuit: Circuit, phases: Sequence[int] = ()) -> None:
        from pysat.solvers import Solver

        self.circuit = circuit
        self.solver = Solver(name=PYSAT_SOLVER)
        self.sent = 0
        if phases:
            self.solver.set_phases(list(phases))

    def solve(self, assumptions: Sequence[int] = (), seconds: float | None = None) -> Answer | None:
        """The answer, or None when `seconds` ran out first (the solver is interrupted from a timer)."""
        clauses = self.circuit.clauses
        if self.sent < len(clauses):
            self.solver.append_formula(clauses[self.sent :])
            self.sent = len(clauses)
        if seconds is None:
            result = self.solver.solve(assumptions=list(assumptions))
        else:
            if seconds <= 0:
                return None
            timer = threading.Timer(seconds, self.solver.interrupt)
            timer.start()
            try:
                result = self.solver.solve_limited(assumptions=list(assumptions), expect_interrupt=True)
            finally:
                timer.cancel()
                self.solver.clear_interrupt()
            if result is None:
                return None
        if result:
            return Answer(True, frozenset(literal for literal in self.solver.get_model() if literal > 0))
        return Answer(False, core=tuple(self.solver.get_core() or ()))

    def close(self) -> None:
        self.solver.delete()


class CpsatBackend:
    """CP-SAT on the same clauses (one bool_or per clause), one search worker so that a seed gives one
    answer; not incremental: each solve hands the model over again."""

    name = CPSAT

    def __init__(self, circuit: Circuit, phases: Sequence[int] = ()) -> None:
        self.circuit = circuit
        self.phases = list(phases)

    def solve(self, assumptions: Sequence[int] = (), seconds: float | None = None) -> Answer | None:
        from ortools.sat.python import cp_model

        model = cp_model.CpModel()
        top = self.circuit.pool.top
        variables = [model.new_bool_var(f"v{index}") for index in range(top + 1)]

        def literal_of(literal: int):
            return variables[literal] if literal > 0 else variables[-literal].Not()

        for clause in self.circuit.clauses:
            model.add_bool_or([literal_of(literal) for literal in clause])
        for literal in self.phases:
            model.add_hint(variables[abs(literal)], literal > 0)
        model.add_assumptions([literal_of(literal) for literal in assumptions])
        solver = cp_model.CpSolver()
        solver.parameters.num_workers = 1
        if seconds is not None:
            if seconds <= 0:
                return None
            solver.parameters.max_time_in_seconds = seconds
        status = solver.solve(model)
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return Answer(True, frozenset(index for index in range(1, top + 1) if solver.value(variables[index])))
        if status != cp_model.INFEASIBLE:
            return None
        # CP-SAT names the assumptions of a core by their variables' indices (the negation of a literal as
        # -index - 1), which are our variables' numbers here.
        chosen = set(solver.sufficient_assumptions_for_infeasibility())
        core = tuple(
            literal for literal in assumptions if (abs(literal) if literal > 0 else -abs(literal) - 1) in chosen
        )
        return Answer(False, core=core)

    def close(self) -> None:
        pass


def backend(circuit: Circuit, name: str = PYSAT, phases: Sequence[int] = ()) -> PysatBackend | CpsatBackend:
    if name == PYSAT:
        return PysatBackend(circuit, phases)
    if name == CPSAT:
        return CpsatBackend(circuit, phases)
    raise ValueError(f"no backend {name!r} (backends: {', '.join(BACKENDS)})")
