"""One task over many items, in this process or on a Dask cluster: the one map every batch command uses.

`twisty check`, `twisty generate` and `twisty bench` describe their work as a task (a module-level function,
so that it can be sent to a worker by reference) and a list of items (whatever the task needs, file
contents rather than paths, so that workers need no shared disk). `map_tasks` runs the task over the items
where `Where` says: here, one after the other (the default); on a local Dask cluster of N processes started
for the run (`--workers N`); or on an existing Dask scheduler (`--scheduler ADDRESS`). Results come back in
the order of the items whatever finishes first, so a command prints the same lines wherever it ran.

A task that raises raises here too, as in a local run. An item whose worker died under it is retried on
another worker by Dask (up to the scheduler's `distributed.scheduler.allowed-failures`); past that limit, or
when the cluster drops it, its result is `Lost` with the reason, and the others are unaffected. However the
caller leaves (Ctrl-C, an error), the run's tasks still queued or running are cancelled on the cluster.

Dask is optional (`pip install 'twisty[cluster]'`): it is imported only when a run asks for a cluster.
Base layer: nothing here imports anything of twisty's but the errors.
"""

from __future__ import annotations

import importlib
import importlib.util
import logging
import queue
import signal
import threading
import uuid
from collections import deque
from collections.abc import Callable, Generator, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from twisty.errors import UsageError

Item = TypeVar("Item")
Value = TypeVar("Value")

INSTALL_HINT = "pip install 'twisty[cluster]' (it installs dask[distributed])"
# Tasks submitted and not yet handed back, per worker thread: enough to keep every worker busy while the
# results ahead of them are printed, without holding a whole batch (file contents included) in memory.
IN_FLIGHT_PER_THREAD = 4
MIN_IN_FLIGHT = 16
# Deaths of a worker under one task before Dask gives up on it, for the clusters started here (an existing
# scheduler keeps its own setting: Dask's default is 3 too).
ALLOWED_FAILURES = 3
CONNECT_SECONDS = 30.0
# How often the progress is told that nothing finished (so that a line off a terminal says it is alive).
QUIET_SECONDS = 10.0


@dataclass(frozen=True)
class Where:
    """Where a batch runs: `scheduler`, the address of a running Dask scheduler; `workers`, the number of
    processes of a local Dask cluster started for the run; neither, this process."""

    scheduler: str | None = None
    workers: int | None = None

    def __post_init__(self) -> None:
        if self.scheduler is not None and self.workers is not None:
            raise UsageError("give --scheduler (a running cluster) or --workers (a local one), not both")

    @property
    def local(self) -> bool:
        return self.scheduler is None and self.workers is None


HERE = Where()


@dataclass(frozen=True)
class Lost:
    """An item that the cluster could not run (its workers kept dying, or the cluster dropped it): why."""

    reason: str


@dataclass(frozen=True)
class Cluster:
    """What a run is connected to, for the first progress line."""

    scheduler: str
    workers: int
    threads: int
    dashboard: str | None
    started_here: bool


class Progress:
    """Told how a batch goes; the default hears nothing. Commands subclass it to print."""

    def connected(self, cluster: Cluster) -> None:
        """The run is on this cluster (not called for a run in this process)."""

    def starting(self, index: int) -> None:
        """A run in this process starts on the item at `index`."""

    def advanced(self, done: int, failed: int, total: int | None) -> None:
        """`done` items have finished, `failed` of them lost (called as they finish, in any order)."""


@dataclass
class Tasks(Generic[Item, Value]):
    """A batch: `task` over `items` (`total` of them when known, for the progress), `name` for the task
    keys that the dashboard shows."""

    task: Callable[[Item], Value]
    items: Iterable[Item]
    name: str
    total: int | None = None


def map_tasks(
    tasks: Tasks[Item, Value], where: Where = HERE, progress: Progress | None = None
) -> Generator[Value | Lost, None, None]:
    """The task's result for every item, in the order of the items (Lost for an item the cluster lost).
    Use it as `with closing(map_tasks(...)) as results:` so that leaving early (Ctrl-C, an error) cancels
    the run's tasks on the cluster at once, whatever holds on to the generator."""
    progress = progress or Progress()
    if where.local:
        return _here(tasks, progress)
    return _on_cluster(tasks, where, progress)


def _here(tasks: Tasks[Item, Value], progress: Progress) -> Generator[Value | Lost, None, None]:
    for index, item in enumerate(tasks.items):
        progress.starting(index)
        result = tasks.task(item)
        progress.advanced(index + 1, 0, tasks.total)
        yield result


def distributed_module() -> Any:
    """Dask's distributed package, or a UsageError saying how to install it."""
    try:
        return importlib.import_module("distributed")
    except ImportError:
        raise UsageError(f"--scheduler and --workers run on a Dask cluster, which needs Dask: {INSTALL_HINT}") from None


def _on_cluster(tasks: Tasks[Item, Value], where: Where, progress: Progress) -> Generator[Value | Lost, None, None]:
    distributed = distributed_module()  # before the generator starts, so a missing Dask is told at once
    return _cluster_results(distributed, tasks, where, progress)


def _cluster_results(
    distributed: Any, tasks: Tasks[Item, Value], where: Where, progress: Progress
) -> Generator[Value | Lost, None, None]:
    with _client(distributed, where) as (client, cluster):
        progress.connected(cluster)
        limit = max(MIN_IN_FLIGHT, IN_FLIGHT_PER_THREAD * cluster.threads)
        prefix = f"twisty-{tasks.name}-{uuid.uuid4().hex[:8]}"
        items = enumerate(tasks.items)
        pending: deque[Any] = deque()
        # Keys of finished tasks, put by Dask's callbacks (in its own thread) and counted here.
        finished: queue.Queue[str] = queue.Queue()
        submitted: dict[str, Any] = {}
        done = failed = 0
        try:
            while True:
                while len(pending) < limit:
                    following = next(items, None)
                    if following is None:
                        break
                    index, item = following
                    # pure=False: two equal items are two tasks (a run asks for every item's answer).
                    future = client.submit(tasks.task, item, key=f"{prefix}-{index}", pure=False)
                    submitted[future.key] = future
                    future.add_done_callback(lambda future: finished.put(future.key))
                    pending.append(future)
                if not pending:
                    return
                # Wait for the head of the line, counting whatever finishes meanwhile, in any order.
                while pending[0].key in submitted or not finished.empty():
                    try:
                        key = finished.get(timeout=QUIET_SECONDS)
                    except queue.Empty:
                        progress.advanced(done, failed, tasks.total)  # nothing finished: still working
                        continue
                    done += 1
                    failed += submitted.pop(key).status != "finished"
                    progress.advanced(done, failed, tasks.total)
                while pending and pending[0].key not in submitted:
                    head = pending.popleft()
                    result = _result_of(distributed, head)
                    head.release()
                    yield result
        finally:
            # Ctrl-C, an error, or a caller that stops reading: nothing of this run stays on the cluster.
            if pending:
                client.cancel(list(pending), force=True)


def _result_of(distributed: Any, future: Any) -> Any:
    """A finished task's value; Lost when its workers died or the cluster cancelled it; the task's own
    error raised as a local run would raise it."""
    if future.status == "cancelled":
        return Lost("the cluster cancelled it (its scheduler or workers went away)")
    error = future.exception() if future.status == "error" else None
    if error is None:
        return future.result()
    if isinstance(error, distributed.KilledWorker):
        last = getattr(error.last_worker, "address", error.last_worker)
        return Lost(
            f"the Dask worker running it died {error.allowed_failures + 1} times (the last one: {last}); "
            "Dask gives up on a task after distributed.scheduler.allowed-failures deaths"
        )
    raise error


@contextmanager
def interrupts_held() -> Iterator[None]:
    """Ctrl-C waits while a moment that must not be cut passes (a file written and counted), then strikes."""
    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


@contextmanager
def _client(distributed: Any, where: Where) -> Iterator[tuple[Any, Cluster]]:
    """A client of the scheduler named, or of a local cluster of `where.workers` processes started for the
    run and shut down after it."""
    local_cluster = None
    try:
        if where.workers is not None:
            local_cluster = distributed.LocalCluster(
                n_workers=where.workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",  # any free port; its pages need bokeh (see _dashboard)
                silence_logs=logging.ERROR,
                scheduler_kwargs={"allowed_failures": ALLOWED_FAILURES},
                preload=[__name__],  # dask_setup below
            )
            address = local_cluster.scheduler_address
        else:
            assert where.scheduler is not None
            address = where.scheduler
        try:
            client = distributed.Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
        except (OSError, TimeoutError, ValueError) as error:
            raise UsageError(f"cannot reach the Dask scheduler at {address}: {error}") from None
    except BaseException:
        if local_cluster is not None:
            local_cluster.close()
        raise
    try:
        cluster = _describe(client, address, started_here=local_cluster is not None)
        _check_workers(client, address)
        yield client, cluster
    finally:
        client.close()
        if local_cluster is not None:
            local_cluster.close()


def _describe(client: Any, address: str, started_here: bool) -> Cluster:
    info = client.scheduler_info(n_workers=-1)
    workers = info.get("workers", {})
    threads = sum(worker.get("nthreads", 1) for worker in workers.values())
    return Cluster(address, len(workers), threads, _dashboard(client, info), started_here)


def _dashboard(client: Any, info: dict[str, Any]) -> str | None:
    """The dashboard's address, when the scheduler serves one: its web server runs either way, the
    dashboard's pages only where bokeh is installed (asked of the scheduler, which may not have twisty, so
    the question goes as a lambda, sent by value)."""
    if "dashboard" not in info.get("services", {}):
        return None
    try:
        served = client.run_on_scheduler(lambda: importlib.util.find_spec("bokeh") is not None)
    except Exception:  # a scheduler that refuses to run code: say nothing rather than guess
        return None
    return str(client.dashboard_link) if served else None


def _check_workers(client: Any, address: str) -> None:
    """Refuse a cluster whose workers run another twisty (or none): they would answer by other rules."""
    try:
        versions = client.run(twisty_version)
    except Exception as error:  # a worker that cannot even unpickle the call has no twisty
        raise UsageError(
            f"the workers of {address} cannot run twisty ({type(error).__name__}: {error}); install the same "
            f"twisty there: {INSTALL_HINT}"
        ) from None
    mine = twisty_version()
    others = {worker: version for worker, version in versions.items() if version != mine}
    if others:
        worker, version = sorted(others.items())[0]
        raise UsageError(f"the worker {worker} runs twisty {version}, this is twisty {mine}: install the same one")


def dask_setup(worker: Any) -> None:
    """Run by each worker of a local cluster as it starts (Dask's preload): Ctrl-C reaches the whole
    process group, but only the process that started the cluster acts on it (it cancels the run and stops
    the workers), so that no worker dies half-way with a traceback of its own."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    logging.getLogger("distributed.worker").addFilter(heartbeat_to_a_closed_run)


def heartbeat_to_a_closed_run(record: logging.LogRecord) -> bool:
    """False for a local worker's heartbeat that found the scheduler gone, logged with its traceback: the
    scheduler lives in the process that started the run, so it is gone only when the run ends (Ctrl-C
    closes it while a heartbeat is on its way, often on a loaded machine), and that process has said why in
    its one line. Every other record is kept."""
    return record.msg != "Failed to communicate with scheduler during heartbeat."


def twisty_version() -> str:
    import twisty

    return twisty.__version__
