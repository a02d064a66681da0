"""The SAT engine for Temple Twist: the round as CNF over time steps (twisty.encodings.temple_sat), solved
by an incremental SAT solver for a growing horizon.

- Fewest turns: horizons 1, 2, ... (from a proven lower bound when one is given), each asked "won at the
  end of turn h?" under an assumption; the first satisfiable horizon is the fewest turns, and a round whose
  every horizon up to the most turns its hands allow is unsatisfiable is proved unwinnable.
- Unique: at the fewest turns, one more clause (under its own assumption) says the sequence of temple states
  differs from the first plan's; unsatisfiable means unique.
- Bounce-safe: the same clauses with the bounce-safe assumption. Pooled: a second formula with one pool.

The solver is Glucose 4 (it can be interrupted): a timer interrupts it when the level's deadline passes, and
the answer is then unknown.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from functools import partial
from typing import Any

from pysat.solvers import Solver

from twisty.encodings.temple_sat import TempleCnf, most_turns
from twisty.errors import LimitReached
from twisty.limits import Deadline
from twisty.rules.temple.model import Round
from twisty.solver.temple_answers import FOUND, NONE, SOLVABLE, UNKNOWN, UNSOLVABLE, PlanAnswer, SecondAnswer

NAME = "sat"
AVAILABLE = True
SOLVER = "glucose4"
# turnAny's orbit is first unrolled this far (two full rotations); docs/bench-temple.md has the measurements.
FIRST_TURN_ANY_STEPS = 8


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

    def grow_to(self, turns: int, deadline: Deadline) -> None:
        while self.cnf.turns < turns:
            deadline.check()
            self.cnf.extend()
            self.solver.append_formula(self.cnf.take_pending())
            # The open ending of turnAny is a last resort: the solver tries it false first.
            opened = self.cnf.turn_vars[-1].any_open
            if opened is not None:
                self.solver.set_phases([-opened])

    def solve(self, assumptions: list[int], deadline: Deadline) -> bool | None:
        """True, False, or None when the deadline passed first."""
        if deadline.expired():
            return None
        left = deadline.remaining()
        timer = None
        if left is not None:
            timer = threading.Timer(left, self.solver.interrupt)
            timer.daemon = True
            timer.start()
        try:
            result = self.solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
        finally:
            if timer is not None:
                timer.cancel()
            self.solver.clear_interrupt()
        return result

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


def _ask(
    session: Session,
    horizon: int,
    assumptions: Callable[[Session], list[int]],
    deadline: Deadline,
    prepare: Callable[[Session], None] | None = None,
) -> tuple[Session, bool | None]:
    """Ask at `horizon`; while a model ends a turnAny beyond the unrolled orbit, unroll further and ask
    again (an unsatisfiable answer holds for any unrolling)."""
    while True:
        session.grow_to(horizon, deadline)
        if prepare is not None:
            prepare(session)
        result = session.solve(assumptions(session), deadline)
        opened = session.cnf.open_orbits(session.model(), horizon) if result else []
        if not opened:
            return session, result
        session = session.wider(opened)


def _win_at(session: Session, horizon: int, bounce_safe: bool) -> list[int]:
    return [session.cnf.wins[horizon]] + ([session.cnf.safe] if bounce_safe else [])


def _shortest(round_: Round, deadline: Deadline, pooled: bool, bounce_safe: bool, at_least: int) -> PlanAnswer:
    session = Session(round_, pooled)
    try:
        for horizon in range(1, session.most + 1):
            if horizon < at_least:
                continue
            session, result = _ask(
                session, horizon, partial(_win_at, horizon=horizon, bounce_safe=bounce_safe), deadline
            )
            if result is None:
                return PlanAnswer(UNKNOWN, cap=deadline.cap)
            if result:
                plan, states = session.cnf.decode(session.model(), horizon)
                return PlanAnswer(SOLVABLE, plan, states)
    except LimitReached:
        return PlanAnswer(UNKNOWN, cap=deadline.cap)
    finally:
        session.close()
    return PlanAnswer(UNSOLVABLE)


def fewest_turns(round_: Round, deadline: Deadline, *, bounce_safe: bool = False, at_least: int = 1) -> PlanAnswer:
    if round_.challenges.no_entry == round_.die:
        return PlanAnswer(UNSOLVABLE)  # "a die that starts in X makes the round unwinnable"
    return _shortest(round_, deadline, False, bounce_safe, at_least)


def pooled_turns(round_: Round, deadline: Deadline) -> PlanAnswer:
    if round_.challenges.no_entry == round_.die:
        return PlanAnswer(UNSOLVABLE)
    return _shortest(round_, deadline, True, False, 1)


def second_plan(round_: Round, deadline: Deadline, first: PlanAnswer) -> SecondAnswer:
    """Block the first plan's sequence of temple states and ask again at the same horizon."""
    assert first.states is not None
    turns = len(first.states)
    states = first.states

    def block(now: Session) -> None:
        now.solver.add_clause([-now.cnf.var("block", turns)] + now.cnf.differs_from(states))

    session = Session(round_)
    try:
        session, result = _ask(
            session, turns, lambda now: [now.cnf.wins[turns], now.cnf.var("block", turns)], deadline, block
        )
        if result is None:
            return SecondAnswer(UNKNOWN, cap=deadline.cap)
        if not result:
            return SecondAnswer(NONE)
        plan, found = session.cnf.decode(session.model(), turns)
        return SecondAnswer(FOUND, plan, found)
    except LimitReached:
        return SecondAnswer(UNKNOWN, cap=deadline.cap)
    finally:
        session.close()
