"""The last step of the generator: a solver engine proves what the level file will claim.

The generator's own explorer shaped the level; it is not trusted with the verdict. An engine (any object
or module with the contract of twisty.solver.passages_verdict, handed in by the caller) must prove that
the best route ends with exactly 1 life, that exactly one signature wins, and that one life less loses;
its route is replayed by the plain rules. A level it does not confirm is never written. The engine gets
the level's one deadline; an answer the deadline cut short stops the level with LimitReached.
"""

from __future__ import annotations

from typing import Protocol

from twisty.errors import GenerationError, LimitReached
from twisty.limits import Deadline
from twisty.rules.passages import Decision, PassagesLevel, RouteError, replay
from twisty.solver.passages_verdict import SOLVABLE, UNSOLVABLE, BestRoute, MinStartHp, SolutionCount


class PassagesEngine(Protocol):
    """The engine contract of twisty.solver.passages_verdict, as the generator uses it."""

    def best_route(self, level: PassagesLevel, deadline: Deadline, /) -> BestRoute: ...

    def min_start_hp(self, level: PassagesLevel, deadline: Deadline, /) -> MinStartHp: ...

    def count_solutions(
        self, level: PassagesLevel, deadline: Deadline, cap: int, final_hp: int, /
    ) -> SolutionCount: ...


class VerificationError(GenerationError):
    """The engine did not confirm a candidate level (the generator drops it and draws another)."""


def engine_name(engine: object) -> str:
    """The name an engine goes by: its NAME, else its module's name."""
    return str(getattr(engine, "NAME", getattr(engine, "__name__", type(engine).__name__)))


def stop_if_out_of_time(deadline: Deadline) -> None:
    """An unfinished answer is the deadline's doing when it has passed: then the level stops here."""
    if deadline.expired():
        raise LimitReached(f"{deadline.cap} limit")


def verify(level: PassagesLevel, engine: PassagesEngine, deadline: Deadline) -> tuple[tuple[Decision, ...], int]:
    """Prove the level's claims with `engine`: best final life exactly 1, one winning signature, and no
    win with one life less (solvability only grows with the starting life, so the starting life is then
    min_start_hp). Returns the replayed route and min_start_hp; raises VerificationError when the engine
    refutes a claim, LimitReached when the deadline stopped it first."""
    best = engine.best_route(level, deadline)
    if best.status != SOLVABLE or not best.proved or best.final_hp != 1:
        stop_if_out_of_time(deadline)
        raise VerificationError(f"best route: {best.status}, final hp {best.final_hp}")
    try:
        replayed = replay(level, best.decisions or ())
    except RouteError as error:
        raise VerificationError(f"the engine's route breaks the rules: {error}") from None
    if replayed.final_hp != 1:
        raise VerificationError("the engine's route does not replay to 1 life")
    count = engine.count_solutions(level, deadline, 2, 1)
    if not count.complete or count.solutions != 1 or count.capped:
        stop_if_out_of_time(deadline)
        raise VerificationError(f"{count.solutions} solutions (complete: {count.complete})")
    start_hp = level.player.hp
    if start_hp > 1:
        weaker = engine.best_route(level.with_start_hp(start_hp - 1), deadline)
        if weaker.status != UNSOLVABLE:
            stop_if_out_of_time(deadline)
            raise VerificationError(f"with {start_hp - 1} life the level is {weaker.status}")
    return replayed.decisions, start_hp
