"""What a Temple Twist engine answers, and the contract every engine module follows.

An engine module (named in the registry, twisty.games.temple) has NAME and three functions, each within
the level's one deadline (an answer the deadline cuts short is UNKNOWN, naming the cap):

    fewest_turns(round, deadline, *, bounce_safe=False, at_least=1) -> PlanAnswer
        the shortest winning plan (bounce_safe: no fall longer than the round's bounce), or UNSOLVABLE
        proved; `at_least` is a proven lower bound the engine may start from.
    second_plan(round, deadline, first) -> SecondAnswer
        a winning plan as short as `first` whose sequence of temple states differs, or NONE proved.
    pooled_turns(round, deadline) -> PlanAnswer
        the shortest plan with every card in one pool (no seats, no swap).

The portfolio (twisty.solver.temple_portfolio) replays every plan with the plain rules before it is used.
"""

from __future__ import annotations

from dataclasses import dataclass

from twisty.rules.temple.model import TempleState
from twisty.rules.temple.replayer import PlanTurn

SOLVABLE, UNSOLVABLE, UNKNOWN = "solvable", "unsolvable", "unknown"
FOUND, NONE = "found", "none"


@dataclass(frozen=True)
class PlanAnswer:
    """A shortest plan (status SOLVABLE), a proof that there is none (UNSOLVABLE), or UNKNOWN with the cap
    that stopped the work. `states` is the engine's own account of the temple after each turn, which the
    replay must reproduce."""

    status: str
    plan: tuple[PlanTurn, ...] | None = None
    states: tuple[TempleState, ...] | None = None
    cap: str | None = None

    @property
    def turns(self) -> int | None:
        return None if self.plan is None else len(self.plan)


@dataclass(frozen=True)
class SecondAnswer:
    """Another plan of the same length with a different sequence of temple states (FOUND), a proof that
    there is none (NONE), or UNKNOWN."""

    status: str
    plan: tuple[PlanTurn, ...] | None = None
    states: tuple[TempleState, ...] | None = None
    cap: str | None = None
