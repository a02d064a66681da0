"""The CP-SAT engine for Twisty Little Passages. The best route and the least starting hp come from the
model over the order of the blockers (twisty.encodings.passages_cpsat_order), which keeps the best hp but
not every signature; counting solutions uses the time-step model (twisty.encodings.passages_cpsat), which
keeps them all.

Every route it returns is replayed with the plain rules first; a route that does not replay, or whose
replayed signature differs from the model's, is a bug in the model and raises instead of being reported.
"""

from __future__ import annotations

import signal
import threading

from ortools.sat.python import cp_model

from twisty.encodings import passages_cpsat_order
from twisty.encodings.passages_cpsat import (
    OutOfTime,
    PassagesModel,
    TooLarge,
    block_signature,
    build_model,
    decode_decisions,
    decode_signature,
)
from twisty.encodings.passages_cpsat_order import OrderModel, build_order_model
from twisty.errors import UsageError
from twisty.rules.passages import Decision, PassagesLevel, Replay, replay, start_hp_upper_bound
from twisty.solver.passages_verdict import (
    SOLVABLE,
    UNKNOWN,
    UNSOLVABLE,
    BestRoute,
    Deadline,
    MinStartHp,
    SolutionCount,
    witnesses_kept,
)

NAME = "cpsat"
WORKERS = 2
# The full-problem searches CP-SAT's workers run on the order model. By default two workers are one search
# with the LP plus one thread shared by local search and LNS, which improve routes but never prove
# anything; on the order model the proof is the work (even handed the best route, CP-SAT needs most of its
# time to prove it), so both workers search the whole problem, one with the LP and one without (a proof
# from either ends the solve). Measured on the 60-blocker suite levels, 60 s of CPU each (docs/bench-cpsat.md):
# b060-03 proved in 56 s of CPU, against unknown with the default workers.
ORDER_MODEL_SUBSOLVERS = ("default_lp", "no_lp")
# CP-SAT's time limit does not interrupt its setup: it expands every step's combat table lookup into one
# literal per table value and presolves the result in steps too long to stop at the limit. On the development
# machine presolve alone took at least 25 microseconds per value (b090-00: 1.3 million values, still in
# presolve 32.5 s into a 30 s limit; b120-00: 4 million values, 55 s for a 30 s limit), so a model whose setup
# alone would outlast the time left answers "unknown" at once instead of overrunning its deadline.
SETUP_SECONDS_PER_TABLE_VALUE = 25e-6
# How often the waiting thread looks at the deadline (and lets a Ctrl-C in) while CP-SAT solves.
POLL_SECONDS = 0.05
# After a stop request CP-SAT returns within about 0.2 s once it searches (measured on suite level b040-00);
# an interrupted wait gives it this long before the KeyboardInterrupt goes on without it.
STOP_GRACE_SECONDS = 0.5


class ModelError(AssertionError):
    """The model produced a route the rules reject: an encoding bug, never a property of the level."""


def setup_seconds(pm: PassagesModel | OrderModel) -> float:
    """What CP-SAT's setup of the model is expected to take before its time limit can stop it. The order
    model's setup stops at the limit (measured on the 120-blocker suite levels: a 2 s limit ended within 1 s
    of it, 7,140 pairs), so only the time-step model needs the estimate."""
    if isinstance(pm, OrderModel):
        return 0.0
    return pm.table_values * SETUP_SECONDS_PER_TABLE_VALUE


def _solve(pm: PassagesModel | OrderModel, deadline: Deadline) -> tuple[cp_model.CpSolverStatus, cp_model.CpSolver]:
    """Solve within the level's one deadline: CP-SAT's time limit is the time left now, and a waiting
    thread stops the search the moment the deadline passes (time or memory) or Ctrl-C is pressed.

    OR-Tools catches SIGINT during a solve by default and only ends its search, so the first Ctrl-C
    never reached Python. Here CP-SAT leaves SIGINT alone (catch_sigint_signal off) and solves in a
    worker thread, while this thread, the one Python delivers signals to, waits in short steps: a Ctrl-C
    raises KeyboardInterrupt in it, which stops the search and goes on."""
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = WORKERS
    solver.parameters.catch_sigint_signal = False
    if isinstance(pm, OrderModel):
        solver.parameters.subsolvers.extend(ORDER_MODEL_SUBSOLVERS)
        solver.parameters.num_full_subsolvers = len(ORDER_MODEL_SUBSOLVERS)
        solver.parameters.use_lns = False
    remaining = deadline.remaining()
    if deadline.expired():
        return cp_model.UNKNOWN, solver
    if remaining is not None:
        if setup_seconds(pm) > remaining:
            return cp_model.UNKNOWN, solver
        solver.parameters.max_time_in_seconds = remaining
    outcome: dict[str, object] = {}
    done = threading.Event()

    def run() -> None:
        try:
            if hasattr(signal, "pthread_sigmask"):
                # SIGINT goes to the waiting thread, the one that acts on it: neither this thread nor the
                # workers CP-SAT starts from it (they inherit the mask) take it.
                signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
            outcome["status"] = solver.solve(pm.model)
        except BaseException as error:  # handed to the waiting thread, which raises it
            outcome["error"] = error
        finally:
            done.set()

    # Not a daemon: Python waits for it at exit. A solver thread still in CP-SAT (whose presolve may take
    # seconds to notice a stop) when the interpreter shuts down ends the process with "terminate called
    # without an active exception". An Event, not Thread.join: a join cut short by Ctrl-C may not wait again.
    worker = threading.Thread(target=run, name="cpsat-solve")
    worker.start()
    try:
        stopped = False
        while not done.wait(POLL_SECONDS):
            if not stopped and deadline.expired():
                solver.stop_search()
                stopped = True
    except KeyboardInterrupt:
        solver.stop_search()
        done.wait(STOP_GRACE_SECONDS)
        raise
    if "error" in outcome:
        raise outcome["error"]  # type: ignore[misc]
    return outcome["status"], solver  # type: ignore[return-value]


def _too_large(error: TooLarge) -> UsageError:
    return UsageError(f"this level is too large for the cpsat engine: {error}")


def checked_route(pm: PassagesModel | OrderModel, solver: cp_model.CpSolver) -> Replay:
    """The solution's route, replayed by the rules, with the model's hp and signature cross-checked."""
    if isinstance(pm, OrderModel):
        decisions = passages_cpsat_order.decode_decisions(pm, solver)
    else:
        decisions = decode_decisions(pm, solver)
    level = pm.level
    if not isinstance(pm.start_hp, int):
        level = level.with_start_hp(solver.value(pm.start_hp))
    try:
        result = replay(level, decisions)
    except ValueError as exc:
        raise ModelError(f"CP-SAT route {decisions} does not replay: {exc}") from exc
    if result.final_hp != solver.value(pm.final_hp):
        raise ModelError(
            f"CP-SAT route {decisions}: model says hp {solver.value(pm.final_hp)}, replay says {result.final_hp}"
        )
    if isinstance(pm, PassagesModel) and pm.has_signature and result.signature != decode_signature(pm, solver):
        raise ModelError(
            f"CP-SAT route {decisions}: model signature {decode_signature(pm, solver)}, "
            f"replay signature {result.signature}"
        )
    return result


def best_route(level: PassagesLevel, deadline: Deadline) -> BestRoute:
    """The route with the largest final hp, proven optimal unless time ran out (the order model)."""
    try:
        pm = build_order_model(level, deadline=deadline)
    except OutOfTime:
        return BestRoute(UNKNOWN)
    except TooLarge as error:
        raise _too_large(error) from None
    pm.model.maximize(pm.final_hp)
    status, solver = _solve(pm, deadline)
    if status == cp_model.INFEASIBLE:
        return BestRoute(UNSOLVABLE, proved=True)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return BestRoute(UNKNOWN)
    route = without_detours(level, checked_route(pm, solver), deadline)
    return BestRoute(SOLVABLE, route.final_hp, route.decisions, proved=status == cp_model.OPTIMAL)


def without_detours(level: PassagesLevel, route: Replay, deadline: Deadline) -> Replay:
    """The route less every step it can do without at no loss of final hp. The order model fights every
    free enemy it passes (add_free_fights_first), which makes walkthroughs longer than they need to be.
    Each trial is a replay, so this stops trimming (the route stays valid) once the deadline has passed."""
    decisions = list(route.decisions)
    for position in range(len(decisions) - 2, -1, -1):
        if deadline.expired():
            break
        shorter = decisions[:position] + decisions[position + 1 :]
        try:
            trial = replay(level, shorter)
        except ValueError:
            continue
        if trial.final_hp >= route.final_hp:
            decisions, route = shorter, trial
    return route


def min_start_hp(level: PassagesLevel, deadline: Deadline) -> MinStartHp:
    """The smallest starting hp that solves the level (the order model). The search range ends at a
    starting hp with which every fight of the level is survivable at any stats (more hp changes nothing),
    so infeasible within it means no starting hp suffices."""
    try:
        pm = build_order_model(level, start_hp=(1, start_hp_upper_bound(level)), deadline=deadline)
    except OutOfTime:
        return MinStartHp(UNKNOWN)
    except TooLarge as error:
        raise _too_large(error) from None
    pm.model.minimize(pm.start_hp)
    status, solver = _solve(pm, deadline)
    if status == cp_model.INFEASIBLE:
        return MinStartHp("none")
    if status != cp_model.OPTIMAL:
        return MinStartHp(UNKNOWN)
    checked_route(pm, solver)
    return MinStartHp("proved", solver.value(pm.start_hp))


def count_solutions(level: PassagesLevel, deadline: Deadline, cap: int, final_hp: int | None) -> SolutionCount:
    """Distinct winning signatures, best first: find the best route whose signature is not yet blocked,
    record it, block its signature, repeat, until none is left or cap + 1 are found (so "capped" is
    known). Each solve maximizes final hp, so every witness reaches its signature's best hp and witnesses
    come in order; a signature is optimal when that hp equals `final_hp`."""
    try:
        pm = build_model(level, deadline=deadline)
    except OutOfTime:
        return SolutionCount(0, 0, False, False)
    except TooLarge as error:
        raise _too_large(error) from None
    pm.model.maximize(pm.final_hp)
    found: list[Replay] = []
    complete = True
    while len(found) <= cap:
        status, solver = _solve(pm, deadline)
        if status == cp_model.INFEASIBLE:
            break
        if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            complete = False
            break
        route = checked_route(pm, solver)
        found.append(route)
        if status == cp_model.FEASIBLE:
            # Time ran out mid-proof: this signature is real but later ones may be better; stop here.
            complete = False
            break
        block_signature(pm, route.signature)
        # Blocking only removes routes, so no later signature beats this proven best.
        pm.model.add(pm.final_hp <= route.final_hp)
    found.sort(key=lambda route: -route.final_hp)
    optimal = sum(1 for route in found if route.final_hp == final_hp)
    capped = len(found) > cap
    witnesses: tuple[tuple[Decision, ...], ...] = tuple(route.decisions for route in found[: witnesses_kept(cap)])
    return SolutionCount(min(len(found), cap), min(optimal, cap), capped, complete, witnesses)
