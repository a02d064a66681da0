"""The limits on what twisty reads and on the work it does for one level.

Input limits: a level file is a page of hand-written text, so anything far beyond one is a wrong file or
an attack, and is refused while reading with a positioned message (docs/limits.md gives each value and
its reason). Work limits: one `Deadline` per level, made when the level's check starts and passed to
loading, to every question and every engine; engines poll it, and an answer it cuts short is "unknown".
Nothing here imports anything of twisty's but its errors, so every layer may use it.
"""

from __future__ import annotations

import gc
import math
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from twisty.errors import LimitReached

# A level is a page of text; anything larger is a mistake (a wrong file), not a level.
MAX_LEVEL_BYTES = 1 << 20
# Tables, arrays and dotted keys nested inside each other, counted together. Our formats need 4; Python's
# TOML reader recurses once per level of nesting and fails with RecursionError near a thousand.
MAX_NESTING = 32
# Characters in one key (one part of a dotted key). Every key of our formats is a short word.
MAX_KEY_LENGTH = 128
# Parts of one dotted key (a.b.c = ...): Python's TOML reader takes time quadratic in them (20,000 parts:
# 7 s), and our formats never need more than a few.
MAX_KEY_PARTS = 16
# Any whole number in a level. Damage is (hits taken) x (attack - defence), each at most this, so one
# fight's damage stays below 10^18 and sums of thousands of them within the 64-bit integers of the engines.
MAX_NUMBER = 10**9
# --timeout: a limit must be a positive, finite number of seconds; a week is more than any run needs.
MAX_TIMEOUT = 7 * 24 * 3600.0


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
            pass  # a malformed setting is ignored rather than fatal: the default still protects
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") // 2
    except (OSError, ValueError, AttributeError):
        return None


class Deadline:
    """The limits on the work for one level: wall-clock seconds (None = none) and memory, from the moment
    it is made. The searches keep every state they meet, so a hard level with no time limit would fill
    the machine within minutes; past the memory budget (half the machine by default) a deadline counts as
    passed too, and the answer is "unknown" (or "not proved optimal"), never a crash. `memory_bytes` is
    the budget: -1 (the default) for default_memory_budget(), None for none. `out_of_memory` tells which
    limit stopped the work; `cap` names it for messages."""

    # Memory is looked at no more often than this (seconds): reading it costs a system call.
    MEMORY_EVERY = 0.2

    def __init__(self, seconds: float | None = None, memory_bytes: int | None = -1) -> None:
        if seconds is not None and not (seconds >= 0 and math.isfinite(seconds)):
            raise ValueError(f"a deadline's seconds must be finite and not negative, not {seconds!r}")
        self.seconds = seconds
        self.started = time.perf_counter()
        self.memory_bytes = default_memory_budget() if memory_bytes == -1 else memory_bytes
        self.out_of_memory = False
        self._memory_looked_at = float("-inf")

    def remaining(self) -> float | None:
        if self.seconds is None:
            return None
        return max(0.0, self.seconds - (time.perf_counter() - self.started))

    def elapsed(self) -> float:
        return time.perf_counter() - self.started

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

    @property
    def cap(self) -> str:
        """The limit that stopped the work, for messages: "memory" or "time"."""
        return "memory" if self.out_of_memory else "time"

    def check(self) -> None:
        """Raise LimitReached when the deadline has passed (for work that cannot return "unknown" itself)."""
        if self.expired():
            raise LimitReached(f"{self.cap} limit")


class _Pauses:
    """The searches running with full collections paused, and the thresholds to restore after the last."""

    depth = 0
    thresholds = gc.get_threshold()


_PAUSES_LOCK = threading.Lock()
# Collections of the young generations before a full one: as good as never while a search runs.
_NO_FULL_COLLECTION = 1 << 30


@contextmanager
def cycle_collection_paused() -> Iterator[None]:
    """Python's full cyclic collections paused for a search (nested and concurrent uses share one pause);
    the collections of young objects go on, so that cycles made meanwhile (a server's requests, say) are
    still freed. A search keeps millions of objects without cycles, which reference counting frees; a full
    collection walks all of them at once, a pause that grows with the heap and in which no deadline can be
    polled: on magic-tower-AI's 24-floor map 0.4 s after 20 s of search, 7.1 s after 150 s
    (docs/limits.md). Full collections come back as soon as the last search ends."""
    with _PAUSES_LOCK:
        if _Pauses.depth == 0:
            _Pauses.thresholds = gc.get_threshold()
            young, middle, _ = _Pauses.thresholds
            gc.set_threshold(young, middle, _NO_FULL_COLLECTION)
        _Pauses.depth += 1
    try:
        yield
    finally:
        with _PAUSES_LOCK:
            _Pauses.depth -= 1
            if _Pauses.depth == 0:
                gc.set_threshold(*_Pauses.thresholds)
