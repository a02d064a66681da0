"""check, generate and bench on a Dask cluster: a scheduler and two worker processes started in-process
(distributed.LocalCluster), compared with runs in this process, which are the reference; a worker killed
under a task; Ctrl-C; the messages when Dask is missing or the scheduler cannot be reached."""

from __future__ import annotations

import inspect
import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from tests.timing import HANG_GUARD
from twisty import batch
from twisty.cli import main

distributed = pytest.importorskip("distributed")

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "puzzles"
SUITE = ROOT / "twisty" / "bench" / "suites" / "passages"
# Suite levels that take the search from a few tenths of a second to several seconds each (measured with
# `twisty check`): long enough for a worker to be killed under one. Each has one optimal route or none: on a
# level of many blockers with several, the search engine races two searches and prints the route of the
# first to prove, which the timing decides (docs/cluster.md), here as on a worker.
# b090-02 is the slowest to check (unsolvable: its least starting hp takes about 12 s of CPU), long enough for
# the killer to see its retry running and kill that too: b090-05, the slowest before, now takes 1.5 s, and a
# second kill could come after its retry had already answered (CI saw it).
SLOW_LEVELS = [SUITE / f"{name}.toml" for name in ("b060-05", "b060-02", "b090-02", "b040-05", "b040-02", "b010-00")]


def _two_workers() -> Any:
    """Two single-threaded worker processes. A task may see its worker die once and be retried; a second
    death and Dask gives up on it (allowed_failures=1, so that the give-up test needs only two kills)."""
    return distributed.LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,
        dashboard_address=None,
        silence_logs=logging.CRITICAL,
        scheduler_kwargs={"allowed_failures": 1},
    )


@pytest.fixture(scope="module")
def cluster() -> Iterator[Any]:
    with _two_workers() as local:
        yield local


@pytest.fixture
def cluster_to_kill() -> Iterator[Any]:
    """A cluster of its own for each test that kills workers: a nanny whose worker is killed while it is
    restarting may close for good (seen on a loaded machine), which would leave the next test one worker."""
    with _two_workers() as local:
        yield local


@pytest.fixture(scope="module")
def slow_levels_here() -> list[dict[str, Any]]:
    """The reference: SLOW_LEVELS checked in this process."""
    return records(run("check", "--json", *map(str, SLOW_LEVELS)).stdout)


def run(*args: str) -> Any:
    return CliRunner().invoke(main, list(args))


def records(output: str) -> list[dict[str, Any]]:
    """The JSON lines of `check --json`, without their timings (the one key a run's place may change)."""
    found = []
    for line in output.splitlines():
        record = json.loads(line)
        record.pop("seconds", None)
        found.append(record)
    return found


def test_check_over_the_puzzles_prints_the_same_lines_on_the_cluster(cluster):
    local = run("check", "--json", str(PUZZLES))
    remote = run("check", "--json", "--scheduler", cluster.scheduler_address, str(PUZZLES))
    assert local.exit_code == remote.exit_code == 0, remote.output
    expected = records(local.stdout)
    assert len(expected) == len(list(PUZZLES.rglob("*.toml"))) > 30
    assert records(remote.stdout) == expected
    assert f"twisty: running on the Dask scheduler {cluster.scheduler_address}: 2 workers" in remote.stderr
    assert remote.stderr.splitlines()[-1] == f"twisty: {len(expected)}/{len(expected)} levels done, 0 failed"


def test_check_on_the_cluster_reports_bad_files_as_a_local_run_does(cluster, tmp_path):
    (tmp_path / "broken.toml").write_text('game = "passages"\nmap = [\n', encoding="utf-8")
    (tmp_path / "unknown.toml").write_text('game = "chess"\n', encoding="utf-8")
    os.mkfifo(tmp_path / "pipe.toml")
    good = tmp_path / "good.toml"
    good.write_text((PUZZLES / "passages" / "01-first-blood.toml").read_text(encoding="utf-8"), encoding="utf-8")
    local = run("check", "--json", str(tmp_path))
    remote = run("check", "--json", "--scheduler", cluster.scheduler_address, str(tmp_path))
    assert local.exit_code == remote.exit_code == 2
    assert records(remote.stdout) == records(local.stdout)
    assert [record["valid"] for record in records(remote.stdout)] == [False, True, False, False]


def test_generate_with_the_same_seeds_writes_the_same_files(cluster, tmp_path):
    for game, options in (
        ("passages", ["--size", "5x4", "--blockers", "8", "--difficulty", "easy"]),
        ("temple", ["--players", "2", "--turns", "3"]),
    ):
        here, there = tmp_path / f"{game}-here", tmp_path / f"{game}-there"
        local = run("generate", game, *options, "--seed", "3", "-n", "4", "-o", str(here))
        remote = run(
            "generate", game, *options, "--seed", "3", "-n", "4", "-o", str(there),
            "--scheduler", cluster.scheduler_address,
        )  # fmt: skip
        assert local.exit_code == remote.exit_code == 0, remote.output
        names = sorted(path.name for path in here.iterdir())
        assert len(names) == 4 and names == sorted(path.name for path in there.iterdir())
        for name in names:
            assert (there / name).read_bytes() == (here / name).read_bytes()
        assert local.stdout.replace(str(here), "DIR") == remote.stdout.replace(str(there), "DIR")


def test_bench_gives_the_same_answers_on_the_cluster(cluster, tmp_path):
    def answers(output: str) -> Any:
        data = json.loads(output)
        data.pop("buckets")  # medians and ratios of times
        for level in data["levels"]:
            for engine_run in level["runs"].values():
                engine_run.pop("seconds")
        return data

    options = ["bench", "passages", "--bucket", "10", "--engine", "search", "--engine", "reference", "--json"]
    local = run(*options)
    remote = run(*options, "--scheduler", cluster.scheduler_address)
    assert local.exit_code == remote.exit_code == 0, remote.output
    assert answers(remote.stdout) == answers(local.stdout)
    assert len(answers(local.stdout)["levels"]) == len(list(SUITE.glob("b010-*.toml")))


class WorkerKiller(threading.Thread):
    """Kills (SIGKILL, as the kernel's OOM killer would) the worker process running a task of this run:
    the first one seen, or every time the task at `target` (its index in the batch) runs, up to `kills`."""

    def __init__(self, cluster: Any, target: int | None, kills: int) -> None:
        super().__init__(daemon=True)
        self.cluster, self.target, self.kills = cluster, target, kills
        self.killed: list[str] = []
        self.stop = threading.Event()

    def wanted(self, key: str) -> bool:
        return str(key).startswith("twisty-check-") and (self.target is None or str(key).endswith(f"-{self.target}"))

    def run(self) -> None:
        scheduler = self.cluster.scheduler
        while len(self.killed) < self.kills and not self.stop.wait(0.02):
            for address, worker in list(scheduler.workers.items()):
                executing = [task.key for task in list(getattr(worker, "executing", worker.processing))]
                if any(self.wanted(key) for key in executing) and worker.pid:
                    os.kill(worker.pid, signal.SIGKILL)
                    self.killed.append(address)
                    self.stop.wait(1.0)  # let the scheduler see the death before looking again
                    break


def check_while_killing(cluster: Any, killer: WorkerKiller) -> Any:
    killer.start()
    try:
        return run("check", "--json", "--scheduler", cluster.scheduler_address, *map(str, SLOW_LEVELS))
    finally:
        killer.stop.set()
        killer.join()


def test_a_worker_killed_mid_batch_has_its_level_retried_and_nothing_is_lost(cluster_to_kill, slow_levels_here):
    local = slow_levels_here
    killer = WorkerKiller(cluster_to_kill, target=None, kills=1)
    remote = check_while_killing(cluster_to_kill, killer)
    assert len(killer.killed) == 1, "no task was seen running"
    got = records(remote.stdout)
    assert [record["level"] for record in got] == [str(path) for path in SLOW_LEVELS]
    # A task's first death is retried on the other worker (allowed_failures=1): every level is answered.
    assert got == local
    assert remote.exit_code == 0


def test_a_level_whose_worker_keeps_dying_is_unknown_with_the_reason(cluster_to_kill, slow_levels_here):
    local = slow_levels_here
    target = 2  # b090-02, the slowest
    killer = WorkerKiller(cluster_to_kill, target=target, kills=2)
    remote = check_while_killing(cluster_to_kill, killer)
    assert len(killer.killed) == 2
    got = records(remote.stdout)
    assert [record["level"] for record in got] == [str(path) for path in SLOW_LEVELS]
    lost = got[target]
    assert lost["valid"] is None and lost["errors"] == [] and lost["expect_failures"] == []
    assert "the Dask worker running it died 2 times" in lost["not_checked"]
    for index, record in enumerate(got):
        # Tasks waiting on a killed worker share its fate: each is answered as here, or unknown and why.
        assert record == local[index] or "died" in record.get("not_checked", ""), record
    assert remote.exit_code == 1
    assert remote.stderr.splitlines()[-1].endswith(" failed") and " 0 failed" not in remote.stderr.splitlines()[-1]


def test_ctrl_c_cancels_the_run_on_the_cluster_and_exits_130(cluster):
    process = subprocess.Popen(
        [sys.executable, "-m", "twisty.cli", "check", "--timeout", "5", "--scheduler", cluster.scheduler_address]
        + [str(SUITE / f"b060-0{number}.toml") for number in range(6)]
        + [str(path) for path in SLOW_LEVELS],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    scheduler = cluster.scheduler
    try:
        # Every wait is a hang guard (tests/timing.py), far beyond any load.
        waited = time.monotonic()
        while not any(str(key).startswith("twisty-check-") for key in list(scheduler.tasks)):
            assert time.monotonic() - waited < HANG_GUARD and process.poll() is None, "the run never reached it"
            time.sleep(0.05)
        process.send_signal(signal.SIGINT)
        _, err = process.communicate(timeout=HANG_GUARD)
    finally:
        process.kill()
    assert process.returncode == 130, err
    assert err.strip().splitlines()[-1] == "twisty: interrupted" and "Traceback" not in err
    waited = time.monotonic()
    while any(str(key).startswith("twisty-check-") for key in list(scheduler.tasks)):
        assert time.monotonic() - waited < HANG_GUARD, f"tasks left on the cluster: {list(scheduler.tasks)}"
        time.sleep(0.1)


def test_a_local_worker_keeps_quiet_about_a_heartbeat_the_ended_run_did_not_answer():
    """Ctrl-C closes the local cluster's scheduler (in the command's process) while a worker's heartbeat may be
    on its way; the worker's log of that, with its traceback, would follow the command's one line. Its
    preload drops that record, and only that one; the message is Dask's own (a Dask that words it otherwise
    fails here rather than bringing the traceback back)."""
    import distributed.worker

    def record(message: str) -> logging.LogRecord:
        return logging.LogRecord("distributed.worker", logging.ERROR, "worker.py", 1, message, (), None)

    message = "Failed to communicate with scheduler during heartbeat."
    assert message in inspect.getsource(distributed.worker.Worker.heartbeat)
    assert not batch.heartbeat_to_a_closed_run(record(message))
    assert batch.heartbeat_to_a_closed_run(record("Unexpected exception during heartbeat. Closing worker."))


def test_workers_starts_a_local_cluster_for_the_run():
    levels = [str(PUZZLES / "passages" / name) for name in ("01-first-blood.toml", "09-not-enough-life.toml")]
    local = run("check", "--json", *levels)
    remote = run("check", "--json", "--workers", "2", *levels)
    assert local.exit_code == remote.exit_code
    assert records(remote.stdout) == records(local.stdout)
    assert "twisty: running on a local Dask cluster started for this run" in remote.stderr


def test_without_dask_the_options_say_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed now fails
    level = str(PUZZLES / "passages" / "01-first-blood.toml")
    for option in (["--scheduler", "tcp://127.0.0.1:8786"], ["--workers", "2"]):
        result = run("check", *option, level)
        assert result.exit_code == 2
        assert result.stderr.strip() == (
            "twisty: --scheduler and --workers run on a Dask cluster, which needs Dask: "
            "pip install 'twisty[cluster]' (it installs dask[distributed])"
        )
        assert result.stdout == ""
    assert run("check", level).exit_code == 0  # the core runs without it


def test_bad_cluster_options_are_usage_errors(monkeypatch):
    level = str(PUZZLES / "passages" / "01-first-blood.toml")
    both = run("check", "--scheduler", "tcp://127.0.0.1:8786", "--workers", "2", level)
    assert both.exit_code == 2 and "not both" in both.stderr
    assert run("check", "--workers", "0", level).exit_code == 2
    monkeypatch.setattr(batch, "CONNECT_SECONDS", 1.0)
    nobody = run("check", "--scheduler", "tcp://127.0.0.1:9", level)
    assert nobody.exit_code == 2
    assert nobody.stderr.startswith("twisty: cannot reach the Dask scheduler at tcp://127.0.0.1:9: ")
    assert "Traceback" not in nobody.output
