"""What a passages engine answers, and the contract every engine follows.

An engine is a module (or object) with three functions; each takes a level and a `Deadline`:

    best_route(level, deadline) -> BestRoute
    min_start_hp(level, deadline) -> MinStartHp
    count_solutions(level, deadline, cap, final_hp) -> SolutionCount

Answers are exact or "unknown": an engine whose deadline passes says so and never guesses. Routes are lists
of decisions (see twisty.rules.passages.Decision) and are replayed by the plain rules before use.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass

from twisty.rules.passages import Decision

SOLVABLE, UNSOLVABLE, UNKNOWN = "solvable", "unsolvable", "unknown"


def _resident_bytes() -> int | None:
    """This process's resident memory now, where the system tells it cheaply (Linux); else None."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError, AttributeError):
        return None


def default_memory_budget() -> int | None:
    """Half the machine's memory, or the TWISTY_MEMORY_MB environment variable; None where unknown."""
    setting = os.environ.get("TWISTY_MEMORY_MB")
    if setting:
        try:
            return max(1, int(setting)) * 2**20
        except ValueError:
            pass        # a malformed setting is ignored rather than fatal: the default still protects
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2
    except (OSError, ValueError, AttributeError):
        return None


class Deadline:
    """The limits on the work for the questions asked of one level: wall-clock seconds (None = none) and
    memory. The searches keep every state they meet, about 2.5 kB each, so a hard level with no time
    limit would fill the machine within minutes; past the memory budget (half the machine by default)
    a deadline counts as passed too, and the answer is "unknown" (or "not proved optimal"), never a
    crash. `memory_bytes` is the budget: -1 (the default) for default_memory_budget(), None for none.
    `out_of_memory` tells which limit stopped the work."""

    # Memory is looked at no more often than this (seconds): reading it costs a system call.
    MEMORY_EVERY = 0.2

    def __init__(self, seconds: float | None, memory_bytes: int | None = -1) -> None:
        self.seconds = seconds
        self.started = time.perf_counter()
        self.memory_bytes = default_memory_budget() if memory_bytes == -1 else memory_bytes
        self.out_of_memory = False
        self._memory_looked_at = float("-inf")

    def remaining(self) -> float | None:
        if self.seconds is None:
            return None
        return max(0.0, self.seconds - (time.perf_counter() - self.started))

    def expired(self) -> bool:
        left = self.remaining()
        if left is not None and left <= 0:
            return True
        if self.out_of_memory:
            return True
        if self.memory_bytes is not None:
            now = time.perf_counter()
            if now - self._memory_looked_at >= self.MEMORY_EVERY:
                self._memory_looked_at = now
                resident = _resident_bytes()
                self.out_of_memory = resident is not None and resident > self.memory_bytes
        return self.out_of_memory


@dataclass(frozen=True)
class BestRoute:
    """status: solvable / unsolvable / unknown. With `proved`, final_hp is the proven optimum; without it
    (time ran out after a route was found) final_hp is only what the route reaches."""

    status: str
    final_hp: int | None = None
    decisions: tuple[Decision, ...] | None = None
    proved: bool = False


@dataclass(frozen=True)
class MinStartHp:
    """status: "proved" (value is the smallest starting hp that solves the level), "none" (no starting
    hp suffices) or "unknown"."""

    status: str
    value: int | None = None


@dataclass(frozen=True)
class SolutionCount:
    """Distinct winning signatures (passages.md), up to `cap`. `capped` when the count stopped at the
    cap; `complete` False when time ran out (counts are then lower bounds and not reported as exact).
    `optimal` counts signatures that reach final_hp; `witnesses` holds a route per signature found
    (the first two at least), best first."""

    solutions: int
    optimal: int
    capped: bool
    complete: bool
    witnesses: tuple[tuple[Decision, ...], ...] = ()
