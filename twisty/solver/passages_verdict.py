"""What a passages engine answers, and the contract every engine follows.

An engine is a module (or object) with three functions; each takes a level and a `Deadline`:

    best_route(level, deadline) -> BestRoute
    min_start_hp(level, deadline) -> MinStartHp
    count_solutions(level, deadline, cap, final_hp) -> SolutionCount

Answers are exact or "unknown": an engine whose deadline passes says so and never guesses. Routes are lists
of decisions (see twisty.rules.passages.Decision) and are replayed by the plain rules before use.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from twisty.limits import Deadline
from twisty.rules.passages import Decision

__all__ = [
    "SOLVABLE",
    "UNSOLVABLE",
    "UNKNOWN",
    "BestRoute",
    "Deadline",
    "MinStartHp",
    "SolutionCount",
    "witnesses_kept",
]

SOLVABLE, UNSOLVABLE, UNKNOWN = "solvable", "unsolvable", "unknown"


@dataclass(frozen=True)
class BestRoute:
    """status: solvable / unsolvable / unknown. With `proved`, final_hp is the proven optimum; without it
    (time ran out after a route was found) final_hp is only what the route reaches."""

    status: str
    final_hp: int | None = None
    decisions: tuple[Decision, ...] | None = None
    proved: bool = False
    # A proved upper bound on the best final hp when the answer is not proved optimal (or unknown): the best
    # of a relaxation (twisty.solver.passages_relax). None when there is none.
    at_most: int | None = None


@dataclass(frozen=True)
class MinStartHp:
    """status: "proved" (value is the smallest starting hp that solves the level), "none" (no starting
    hp suffices) or "unknown". `decisions`, when the engine gives one, is a route that wins from `value`
    (replayed by the portfolio before the answer is used); it is a witness, not part of the answer, so two
    engines that agree on the answer compare equal whatever routes they give."""

    status: str
    value: int | None = None
    decisions: tuple[Decision, ...] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class SolutionCount:
    """Distinct winning signatures (passages.md), up to `cap`. `capped` when the count stopped at the
    cap; `complete` False when time ran out (counts are then lower bounds and not reported as exact).
    `optimal` counts signatures that reach final_hp; `witnesses` holds a route per signature found, best
    first, up to witnesses_kept(cap) of them: with cap 1 (uniqueness) the second is the witness that the
    level is not unique."""

    solutions: int
    optimal: int
    capped: bool
    complete: bool
    witnesses: tuple[tuple[Decision, ...], ...] = ()


def witnesses_kept(cap: int) -> int:
    """How many witnesses a count up to `cap` keeps: the cap, and two at least (the best solution and the
    second, which shows a level is not unique, even when only uniqueness was asked)."""
    return max(cap, 2)
