"""The page's verdicts, each in a process of its own that ends at its deadline, so that no verdict can hold
up another, and a cache of them keyed by the level's content.

Why processes: a verdict is CPU work in engines that poll their deadline, but a poll can come late (one
search state with thousands of successors, a drawing of a large map), and threads share one interpreter.
A worker process started for each verdict (from a fork server that has twisty loaded, so a start costs
milliseconds) is ended by the server the moment its deadline and a short grace have passed, whatever it is
doing; the parts it sent before then (the verdict first, then the editor's grid, then the picture) are
kept, and what did not come is shown as not done within the time limit.

The slots: at most SLOTS verdicts run at once (each one process; the machine's cores share them), of which
the index's badges take at most INDEX_SLOTS, so a level opened in the editor always finds a slot free of
them. A request waits for a slot no longer than its own deadline, and every slot is free again at most
`timeout + GRACE` after it was taken, so every request is answered within its own limit plus GRACE: a slow
verdict delays no other beyond that. Two requests for the same content share one worker.
"""

from __future__ import annotations

import hashlib
import logging
import multiprocessing
import os
import threading
import time
import warnings
from collections import OrderedDict
from concurrent.futures import Future
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from twisty.limits import Deadline, default_memory_budget

# Verdicts running at once, and how many of them the index's badges may take.
SLOTS = 4
INDEX_SLOTS = 2
# Seconds a worker has past its deadline to send what it has before it is ended.
GRACE = 0.45
# What a worker process loads once, in the fork server, instead of at every verdict.
PRELOAD = ["twisty.serve.views", "twisty.serve.warm"]
VIEW, VERDICT = "view", "verdict"

Key = TypeVar("Key")


@dataclass(frozen=True)
class Job:
    """One verdict to compute: `kind` VIEW (verdict, editor and picture) or VERDICT (the verdict alone), of
    the level `raw` named `name`, within `timeout` seconds, with at most `memory_mb` of memory."""

    kind: str
    raw: bytes
    name: str
    spread: int | None
    timeout: float
    memory_mb: int | None = None

    @property
    def key(self) -> tuple[Any, ...]:
        return (self.kind, hashlib.sha256(self.raw).hexdigest(), self.name, self.spread, self.timeout)


@dataclass
class Outcome:
    """What came back of a job: the parts the worker sent, and how it ended: "done", "cut" (ended at the
    deadline), "busy" (no slot free within the deadline) or "fault" (a fault of ours, with its message)."""

    parts: dict[str, dict[str, Any]]
    ending: str
    fault: str = ""


class Recent(Generic[Key]):
    """The last `size` values put, by key (least recently used first out); safe across threads."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.values: OrderedDict[Key, Any] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: Key) -> Any | None:
        with self.lock:
            value = self.values.get(key)
            if value is not None:
                self.values.move_to_end(key)
            return value

    def put(self, key: Key, value: Any) -> None:
        with self.lock:
            self.values[key] = value
            self.values.move_to_end(key)
            while len(self.values) > self.size:
                self.values.popitem(last=False)


def run_job(job: Job, connection: Any) -> None:
    """In the worker process: compute the job and send its parts, then {"part": "done"}; a fault of ours is
    sent as {"part": "fault"} (the server logs one line, never a traceback)."""
    try:
        if job.memory_mb is not None:
            os.environ["TWISTY_MEMORY_MB"] = str(job.memory_mb)  # the Deadline's memory budget
        warnings.simplefilter("ignore")  # a drawing's warnings are no news for the server's log
        logging.getLogger("matplotlib").setLevel(logging.ERROR)
        from twisty.serve.views import checked, level_view, verdict_data

        deadline = Deadline(job.timeout)
        if job.kind == VIEW:
            level_view(job.raw, name=job.name, spread=job.spread, deadline=deadline, send=connection.send)
        else:
            record, _, _ = checked(job.raw, job.name, deadline)
            connection.send({"part": "verdict", "ok": True, "verdict": verdict_data(record)})
        connection.send({"part": "done"})
    except Exception as error:  # noqa: BLE001 (a fault of ours: reported, the server goes on)
        try:
            connection.send({"part": "fault", "error": f"{type(error).__name__}: {error}"[:500]})
        except (OSError, ValueError):
            pass
    finally:
        connection.close()


def _started() -> None:
    """A job that does nothing: it starts the fork server (which loads PRELOAD) before the first verdict."""


class Workers:
    """Runs jobs in worker processes within the slots (see the module's docstring)."""

    def __init__(self, slots: int = SLOTS, index_slots: int = INDEX_SLOTS) -> None:
        method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
        self.context: Any = multiprocessing.get_context(method)
        if method == "forkserver":
            self.context.set_forkserver_preload(PRELOAD)
        self.slots = threading.BoundedSemaphore(slots)
        self.index_slots = threading.BoundedSemaphore(index_slots)
        self.lock = threading.Lock()
        self.in_flight: dict[tuple[Any, ...], Future[Outcome]] = {}
        budget = default_memory_budget()
        self.memory_mb = None if budget is None else max(64, budget // slots // 2**20)

    def warm_up(self) -> None:
        """Start the fork server now, in the background, so that the first verdict does not wait for it."""

        def start() -> None:
            process = self.context.Process(target=_started, daemon=True)
            process.start()
            process.join()

        threading.Thread(target=start, name="twisty-serve-warm-up", daemon=True).start()

    def run(self, job: Job, *, index: bool = False, arrived: float | None = None) -> Outcome:
        """The job's outcome, within job.timeout + GRACE of `arrived` (time.monotonic(); default now).
        `index`: a badge of the index, which takes one of the index's slots too."""
        arrived = time.monotonic() if arrived is None else arrived
        end = arrived + job.timeout + GRACE
        key = job.key
        with self.lock:
            shared = self.in_flight.get(key)
            if shared is None:
                mine: Future[Outcome] = Future()
                self.in_flight[key] = mine
        if shared is not None:
            try:
                return shared.result(timeout=max(0.0, end - time.monotonic()))
            except TimeoutError:
                return Outcome({}, "cut")
        try:
            outcome = self._run(job, index, arrived, end)
        except BaseException as error:
            outcome = Outcome({}, "fault", f"{type(error).__name__}: {error}")
            mine.set_result(outcome)
            raise
        finally:
            with self.lock:
                self.in_flight.pop(key, None)
        mine.set_result(outcome)
        return outcome

    def _run(self, job: Job, index: bool, arrived: float, end: float) -> Outcome:
        turn_by = arrived + job.timeout  # a request waits for a slot no longer than its own deadline
        taken: list[threading.BoundedSemaphore] = []
        try:
            for semaphore in (self.index_slots, self.slots) if index else (self.slots,):
                if not semaphore.acquire(timeout=max(0.0, turn_by - time.monotonic())):
                    return Outcome({}, "busy")
                taken.append(semaphore)
            left = max(0.001, turn_by - time.monotonic())
            return self._in_process(Job(job.kind, job.raw, job.name, job.spread, left, self.memory_mb), end)
        finally:
            for semaphore in reversed(taken):
                semaphore.release()

    def _in_process(self, job: Job, end: float) -> Outcome:
        receiving, sending = self.context.Pipe(duplex=False)
        process = self.context.Process(target=run_job, args=(job, sending), daemon=True)
        parts: dict[str, dict[str, Any]] = {}
        ending = "cut"
        try:
            process.start()
        finally:
            sending.close()
        try:
            while True:
                left = end - time.monotonic()
                if left <= 0 or not receiving.poll(left):
                    break
                try:
                    part = receiving.recv()
                except (EOFError, OSError):
                    ending = "fault" if process.exitcode not in (0, None) else ending
                    break
                if part.get("part") == "done":
                    ending = "done"
                    break
                if part.get("part") == "fault":
                    return Outcome(parts, "fault", str(part.get("error", "")))
                parts[str(part.get("part"))] = part
        finally:
            if process.is_alive():
                process.kill()
            process.join(timeout=5)
            receiving.close()
            try:
                process.close()
            except ValueError:  # still running after the kill and the wait: the OS reaps it
                pass
        return Outcome(parts, ending)
