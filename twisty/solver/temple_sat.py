"""The SAT engine for Temple Twist: the round as CNF over time steps (twisty.encodings.temple_sat), solved
by an incremental SAT solver for a growing horizon.

One formula serves every question in seat order, and its solver keeps what it learnt from one to the next:

- Fewest turns: horizons 1, 2, ... (from a proven lower bound when one is given), each asked "won at the
  end of turn h?" under an assumption; the first satisfiable horizon is the fewest turns, and a round whose
  every horizon up to the most turns its hands allow is unsatisfiable is proved unwinnable.
- Unique: at the fewest turns, one more clause (under its own assumption) says the sequence of temple states
  differs from the first plan's; unsatisfiable means unique.
- Bounce-safe: the same clauses with the bounce-safe assumption, from the fewest turns on. Pooled: a second
  formula with one pool (at most as many turns as a plan in seat order, when one is known).

The solver is Glucose 4. It runs in slices of a few thousand conflicts (so that the portfolio can run it in
turn with the search engine), and a timer interrupts it when the level's deadline passes: the answer is then
unknown.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Generator
from typing import Any

from pysat.solvers import Solver

from twisty.encodings.temple_sat import TempleCnf, most_turns
from twisty.limits import Deadline
from twisty.rules.temple.model import Round
from twisty.solver.temple_answers import (
    FOUND,
    NONE,
    SOLVABLE,
    UNSOLVABLE,
    PlanAnswer,
    PlanSteps,
    SecondAnswer,
    SecondSteps,
    ask_once,
)

NAME = "sat"
AVAILABLE = True
SOLVER = "glucose4"
# turnAny's orbit is first unrolled this far (two full rotations); docs/bench-temple.md has the measurements.
FIRST_TURN_ANY_STEPS = 8
# Conflicts per slice of solving (a few milliseconds to a few tens of milliseconds).
SLICE_CONFLICTS = 2000


class Session:
    """One formula and its solver, grown turn by turn. `turn_any_steps`: the turns of turnAny's orbit the
    formula unrolls (see twisty.encodings.temple_sat)."""

    def __init__(self, round_: Round, pooled: bool = False, turn_any_steps: dict[int, int] | None = None) -> None:
        self.round = round_
        self.pooled = pooled
        self.cnf = TempleCnf(
            round_, pooled=pooled, turn_any_steps=turn_any_steps, default_turn_any_steps=FIRST_TURN_ANY_STEPS
        )
        self.solver = Solver(name=SOLVER)
        self.solver.append_formula(self.cnf.take_pending())
        self.most = most_turns(round_, pooled)
        self.blocks = 0

    def grow_steps(self, turns: int, deadline: Deadline) -> Generator[None, None, None]:
        """Grow the formula to `turns` turns, pausing after each turn."""
        while self.cnf.turns < turns:
            deadline.check()
            self.cnf.extend()
            self.solver.append_formula(self.cnf.take_pending())
            # The open ending of turnAny is a last resort: the solver tries it false first.
            opened = self.cnf.turn_vars[-1].any_open
            if opened is not None:
                self.solver.set_phases([-opened])
            yield

    def solve_steps(self, assumptions: list[int], deadline: Deadline) -> Generator[None, None, bool]:
        """True or False, in slices of SLICE_CONFLICTS conflicts; LimitReached when the deadline passes."""
        while True:
            deadline.check()
            left = deadline.remaining()
            timer = None
            if left is not None:
                timer = threading.Timer(left, self.solver.interrupt)
                timer.daemon = True
                timer.start()
            try:
                self.solver.conf_budget(SLICE_CONFLICTS)
                result = self.solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
            finally:
                if timer is not None:
                    timer.cancel()
                self.solver.clear_interrupt()
            if result is not None:
                return bool(result)
            yield

    def model(self) -> set[int]:
        found: Any = self.solver.get_model()
        return {literal for literal in found if literal > 0}

    def wider(self, turns: list[int]) -> Session:
        """A new session that unrolls turnAny's orbit twice as far at these turns."""
        self.close()
        steps = dict(self.cnf.turn_any_steps)
        for turn in turns:
            steps[turn] = 2 * steps.get(turn, self.cnf.default_turn_any_steps)
        return Session(self.round, self.pooled, steps)

    def close(self) -> None:
        self.solver.delete()


class RoundSolver:
    """The SAT engine on one round: a session in seat order kept across the questions, and one pooled."""

    def __init__(self, round_: Round, deadline: Deadline) -> None:
        self.round = round_
        self.deadline = deadline
        self.sessions: dict[bool, Session] = {}

    def session(self, pooled: bool) -> Session:
        if pooled not in self.sessions:
            self.sessions[pooled] = Session(self.round, pooled)
        return self.sessions[pooled]

    def _ask(
        self,
        pooled: bool,
        horizon: int,
        assumptions: Callable[[Session], list[int]],
        prepare: Callable[[Session], None] | None = None,
    ) -> Generator[None, None, bool]:
        """Ask at `horizon`; while a model ends a turnAny beyond the unrolled orbit, unroll further and ask
        again (an unsatisfiable answer holds for any unrolling)."""
        while True:
            session = self.session(pooled)
            yield from session.grow_steps(horizon, self.deadline)
            if prepare is not None:
                prepare(session)
            result = yield from session.solve_steps(assumptions(session), self.deadline)
            opened = session.cnf.open_orbits(session.model(), horizon) if result else []
            if not opened:
                return result
            self.sessions[pooled] = session.wider(opened)

    def fewest(self, *, bounce_safe: bool = False, at_least: int = 1, at_most: int | None = None) -> PlanSteps:
        return self._shortest(False, bounce_safe, at_least, at_most)

    def pooled(self, *, at_most: int | None = None) -> PlanSteps:
        return self._shortest(True, False, 1, at_most)

    def _shortest(self, pooled: bool, bounce_safe: bool, at_least: int, at_most: int | None) -> PlanSteps:
        round_ = self.round
        if round_.challenges.no_entry == round_.die:
            return PlanAnswer(UNSOLVABLE)  # "a die that starts in X makes the round unwinnable"
        most = most_turns(round_, pooled) if at_most is None else min(at_most, most_turns(round_, pooled))
        for horizon in range(max(1, at_least), most + 1):

            def wins(session: Session, horizon: int = horizon) -> list[int]:
                return [session.cnf.wins[horizon]] + ([session.cnf.safe] if bounce_safe else [])

            if (yield from self._ask(pooled, horizon, wins)):
                session = self.session(pooled)
                plan, states = session.cnf.decode(session.model(), horizon)
                return PlanAnswer(SOLVABLE, plan, states)
        return PlanAnswer(UNSOLVABLE)

    def second(self, first: PlanAnswer) -> SecondSteps:
        """Block the first plan's sequence of temple states (a clause under its own assumption) and ask again
        at the same horizon."""
        assert first.states is not None
        states = first.states
        turns = len(states)
        if self.round.challenges.no_entry == self.round.die:
            return SecondAnswer(NONE)
        blocks: dict[int, int] = {}

        def block(session: Session) -> None:
            if id(session) not in blocks:
                session.blocks += 1
                blocks[id(session)] = session.cnf.var("block", turns, session.blocks)
                session.solver.add_clause([-blocks[id(session)]] + session.cnf.differs_from(states))

        def assumptions(session: Session) -> list[int]:
            return [session.cnf.wins[turns], blocks[id(session)]]

        if not (yield from self._ask(False, turns, assumptions, block)):
            return SecondAnswer(NONE)
        session = self.session(False)
        plan, found = session.cnf.decode(session.model(), turns)
        return SecondAnswer(FOUND, plan, found)

    def close(self) -> None:
        for session in self.sessions.values():
            session.close()
        self.sessions.clear()


def solver(round_: Round, deadline: Deadline) -> RoundSolver:
    return RoundSolver(round_, deadline)


def fewest_turns(round_: Round, deadline: Deadline, *, bounce_safe: bool = False, at_least: int = 1) -> PlanAnswer:
    engine = RoundSolver(round_, deadline)
    return ask_once(engine, engine.fewest(bounce_safe=bounce_safe, at_least=at_least), deadline, PlanAnswer)


def pooled_turns(round_: Round, deadline: Deadline, *, at_most: int | None = None) -> PlanAnswer:
    engine = RoundSolver(round_, deadline)
    return ask_once(engine, engine.pooled(at_most=at_most), deadline, PlanAnswer)


def second_plan(round_: Round, deadline: Deadline, first: PlanAnswer) -> SecondAnswer:
    engine = RoundSolver(round_, deadline)
    return ask_once(engine, engine.second(first), deadline, SecondAnswer)
