"""Time in tests, where a deadline or a hang is the feature under test (and nowhere else).

The machine running the tests is shared: the wall clock stretches by the time other work takes, so no test
asserts a wall-clock figure. Two things are asserted instead:

- CPU time (time.process_time, every thread of this process): a run that ignored its limit or took
  quadratic time spends many times the bound in CPU whatever the load; each bound is generous, with the
  reason beside it.
- A hang guard: a call that could block for ever (a FIFO opened for reading, a signal not acted on) runs in
  a thread given HANG_GUARD seconds of wall clock; not returning by then is a failure instead of a CI run
  that never ends. The guard is far beyond any load, so it measures nothing else.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import TypeVar

from twisty.limits import Deadline

T = TypeVar("T")

HANG_GUARD = 120.0


def cpu_seconds(call: Callable[[], T]) -> tuple[T, float]:
    """The call's result and the CPU seconds this process spent on it (all threads)."""
    started = time.process_time()
    result = call()
    return result, time.process_time() - started


def returns(call: Callable[[], T], guard: float = HANG_GUARD) -> T:
    """The call's result; a failure when it has not returned within `guard` seconds (a hang)."""
    outcome: list = []

    def target() -> None:
        try:
            outcome.append((True, call()))
        except BaseException as error:  # handed to the caller below
            outcome.append((False, error))

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(guard)
    assert outcome, f"the call did not return within {guard:.0f} s: it hangs"
    done, value = outcome[0]
    if not done:
        raise value
    return value


class CpuDeadline(Deadline):
    """A deadline in CPU seconds of this process rather than wall-clock ones: for a limit on an engine's work
    whose answer a test or a table records, so that the load of other work on the machine does not change
    which answers are reached."""

    def __init__(self, seconds: float) -> None:
        super().__init__(None)
        self.cpu_limit = time.process_time() + seconds

    def expired(self) -> bool:
        return time.process_time() >= self.cpu_limit or super().expired()
