"""Benchmark: `twisty check` of a batch in this process, and on local Dask clusters of 1 and 2 workers.

Run: python benchmarks/cluster/bench_scaling.py [--generated 200 --repeat 1 --json benchmarks/cluster/results.json]

Three batches: the shipped levels (puzzles/), a batch of generated passages levels (written first with
`twisty generate passages --size 6x5 --blockers 10 --workers 2`, seeds 1..N) and the bench suite's levels of
10 to 60 blockers (but b060-01, minutes long). Each is checked with the real command line in a fresh process:
in this process (no option); with `--workers 1` and `--workers 2` (each starts its own cluster: start-up
counts); and on clusters started by hand before (`dask scheduler`, `dask worker --nworkers K`, kept running,
warmed up) with `--scheduler`. Every run's JSON lines must equal the local run's apart from "seconds".

Figures: wall seconds; "work", the summed "seconds" of the levels; CPU seconds of every process involved
(the command and what it starts, and the hand-started scheduler and workers); the start-up of a cluster (a
one-level batch with --workers 2 less the same here); and the per-level overhead that is left, in wall time
((wall - start-up - work / workers) / levels) and in CPU time ((CPU - CPU here - start-up CPU) / levels).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TWISTY = [sys.executable, "-c", "from twisty.cli import main; main()"]
PLACES = ("here", "--workers 1", "--workers 2", "running, 1 worker", "running, 2 workers")
WORKERS = {"here": 0, "--workers 1": 1, "--workers 2": 2, "running, 1 worker": 1, "running, 2 workers": 2}


def tree_cpu(processes: list[subprocess.Popen]) -> float:
    """CPU seconds used so far by these processes and all their descendants alive now."""
    import psutil  # a dependency of Dask's distributed

    total = 0.0
    for process in processes:
        try:
            root = psutil.Process(process.pid)
            for member in [root, *root.children(recursive=True)]:
                times = member.cpu_times()
                total += times.user + times.system
        except psutil.NoSuchProcess:
            continue
    return total


RUNNING: dict[str, list[subprocess.Popen]] = {}  # address -> the processes of a cluster started by hand


@contextmanager
def running_cluster(workers: int) -> Iterator[str]:
    """A scheduler and `workers` worker processes started by hand (`dask scheduler`, `dask worker`), on the
    loopback only, warmed up; their address."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    address = f"tcp://127.0.0.1:{port}"
    dask = [sys.executable, "-m", "distributed.cli.dask_scheduler"]
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    scheduler = subprocess.Popen(
        [*dask, "--host", "127.0.0.1", "--port", str(port), "--dashboard-address", "127.0.0.1:0"], **quiet
    )
    worker = subprocess.Popen(
        [sys.executable, "-m", "distributed.cli.dask_worker", address, "--host", "127.0.0.1"]
        + ["--nworkers", str(workers), "--nthreads", "1"],
        **quiet,
    )
    try:
        import distributed

        with distributed.Client(address, timeout=60, set_as_default=False) as client:
            client.wait_for_workers(workers, timeout=120)
        # Warm up: each worker imports the checkers once, as it would on a cluster kept running.
        timed(["check", "--json", "--scheduler", address, str(ROOT / "puzzles")])
        RUNNING[address] = [scheduler, worker]
        yield address
    finally:
        for process in (worker, scheduler):
            process.terminate()
            process.wait(timeout=60)


def place_options(place: str, address: str | None) -> list[str]:
    if place == "here":
        return []
    if place.startswith("--workers"):
        return place.split()
    assert address is not None
    return ["--scheduler", address]


def timed(arguments: list[str]) -> tuple[float, str, float]:
    """Wall seconds, stdout, and the CPU seconds of the command and every process it started (the workers
    of a local cluster are waited for by the command, so theirs count): a figure that the machine's other
    load does not inflate as it inflates wall times."""
    cluster = next((RUNNING[word] for word in arguments if word in RUNNING), [])
    cluster_before = tree_cpu(cluster)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(TWISTY + arguments, capture_output=True, text=True, cwd=ROOT)
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cluster_cpu = tree_cpu(cluster) - cluster_before
    if done.returncode not in (0, 1):
        raise SystemExit(f"twisty {' '.join(arguments)} exited {done.returncode}: {done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime) + cluster_cpu
    return seconds, done.stdout, cpu


def records(output: str) -> tuple[list[dict], float]:
    """The records without their timings, and the levels' summed seconds. A level of 40 or more blockers
    with several optimal routes may print another of them from run to run, here too (the search races two
    searches and the first proof's route is printed: docs/cluster.md): the route of a level with several
    is left out of the comparison; its final hp, counts and every other answer stay in."""
    found, work = [], 0.0
    for line in output.splitlines():
        record = json.loads(line)
        work += record.pop("seconds", 0.0) or 0.0
        if (record.get("optimal_solutions") or 0) > 1:
            record.pop("route", None)
        found.append(record)
    return found, work


def check_batch(label: str, paths: list[str], repeat: int, addresses: dict[str, str]) -> list[dict]:
    rows = []
    reference = None
    for place in PLACES:
        walls, works, cpus = [], [], []
        for _ in range(repeat):
            wall, output, cpu = timed(["check", "--json", *place_options(place, addresses.get(place)), *paths])
            found, work = records(output)
            if reference is None:
                reference = found
            elif found != reference:
                raise SystemExit(f"{label}, {place}: the JSON lines differ from the run in this process")
            walls.append(wall)
            works.append(work)
            cpus.append(cpu)
        rows.append(
            {
                "batch": label,
                "levels": len(reference),
                "place": place,
                "wall_seconds": round(min(walls), 2),
                "work_seconds": round(min(works), 2),
                "cpu_seconds": round(min(cpus), 2),
                "load_average": round(os.getloadavg()[0], 1),
            }
        )
        print(json.dumps(rows[-1]), flush=True)
    here = rows[0]["wall_seconds"]
    for row in rows:
        row["speed_up"] = round(here / row["wall_seconds"], 2)
    return rows


def start_up_seconds(level: str, repeat: int) -> float:
    """What starting a cluster of 2 adds to a one-level run (the least of `repeat` runs of each)."""
    here = min(timed(["check", "--json", level])[0] for _ in range(repeat))
    cluster = min(timed(["check", "--json", "--workers", "2", level])[0] for _ in range(repeat))
    return cluster - here


def cpu_start_up(level: str) -> float:
    """The CPU seconds that starting (and stopping) a cluster of 2 adds to a one-level run."""
    return timed(["check", "--json", "--workers", "2", level])[2] - timed(["check", "--json", level])[2]


def rows_here(rows: list[dict], row: dict) -> dict:
    return next(other for other in rows if other["batch"] == row["batch"] and other["place"] == "here")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--generated", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=1)
    parser.add_argument("--json", default=None, help="Write the figures to this file.")
    args = parser.parse_args()

    start_up = start_up_seconds(str(ROOT / "puzzles" / "passages" / "01-first-blood.toml"), max(args.repeat, 2))
    start_cpu = cpu_start_up(str(ROOT / "puzzles" / "passages" / "01-first-blood.toml"))
    print(f"start-up of a local cluster of 2 workers: {start_up:.2f} s wall, {start_cpu:.2f} s CPU", flush=True)
    suite = sorted(
        str(path)
        for path in (ROOT / "twisty" / "bench" / "suites" / "passages").glob("b0[1-6]0-*.toml")
        if path.stem != "b060-01"  # minutes for the search alone: it would be the whole table
    )
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        generate = ["generate", "passages", "--size", "6x5", "--blockers", "10", "-n", str(args.generated)]
        subprocess.run(TWISTY + [*generate, "--workers", "2", "-o", folder], check=True, capture_output=True, cwd=ROOT)
        generated_seconds = time.perf_counter() - started
        print(f"generated {args.generated} levels with --workers 2 in {generated_seconds:.1f} s", flush=True)
        batches = [
            ("puzzles/", ["puzzles"]),
            (f"{args.generated} generated", sorted(str(p) for p in Path(folder).glob("*.toml"))),
            (f"bench suite, {len(suite)}", suite),
        ]
        rows = []
        with running_cluster(1) as one, running_cluster(2) as two:
            addresses = {"running, 1 worker": one, "running, 2 workers": two}
            for label, paths in batches:
                rows += check_batch(label, paths, args.repeat, addresses)
    for row in rows:
        workers = WORKERS[row["place"]]
        if workers:
            here = rows_here(rows, row)
            started_here = row["place"].startswith("--workers")
            wall_start, cpu_start = (start_up, start_cpu) if started_here else (0.0, 0.0)
            left = row["wall_seconds"] - wall_start - row["work_seconds"] / workers
            row["overhead_per_level_ms"] = round(1000 * left / row["levels"], 1)
            row["cpu_overhead_per_level_ms"] = round(
                1000 * (row["cpu_seconds"] - here["cpu_seconds"] - cpu_start) / row["levels"], 1
            )
    figures = {
        "cpus": os.cpu_count(),
        "start_up_seconds": round(start_up, 2),
        "start_up_cpu_seconds": round(start_cpu, 2),
        "generated_with_2_workers_seconds": round(generated_seconds, 1),
        "rows": rows,
    }
    print("| batch | levels | where | wall s | work s | CPU s | speed-up | overhead per level (wall, CPU) | load |")
    print("|---|---|---|---|---|---|---|---|---|")
    for row in rows:
        overhead = (
            f"{row['overhead_per_level_ms']} ms, {row['cpu_overhead_per_level_ms']} ms"
            if "overhead_per_level_ms" in row
            else ""
        )
        print(
            f"| {row['batch']} | {row['levels']} | {row['place']} | {row['wall_seconds']} | {row['work_seconds']} | "
            f"{row['cpu_seconds']} | {row['speed_up']}x | {overhead} | {row['load_average']} |"
        )
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
