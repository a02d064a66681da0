"""Benchmark: `twisty check` of a batch in this process, and on a local Dask cluster of 1 and 2 workers.

Run: python benchmarks/cluster/bench_scaling.py [--generated 200 --repeat 1 --json benchmarks/cluster/results.json]

Two batches: the shipped levels (puzzles/) and a batch of generated passages levels (written first with
`twisty generate passages --size 6x5 --blockers 10 --workers 2`, seeds 1..N). Each batch is checked with
the real command line in a fresh process, so start-up counts: in this process (no option), `--workers 1`
and `--workers 2` (each starts its own cluster, which also counts). Every run's JSON lines must equal the
local run's apart from "seconds"; the figures are wall times, the summed "seconds" of the levels (the work
itself), the cluster's start-up (a one-level batch on a cluster less the same in this process) and the
per-task overhead that is left: (wall - start-up - work / workers) / levels.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TWISTY = [sys.executable, "-c", "from twisty.cli import main; main()"]
PLACES = (("here", []), ("1 worker", ["--workers", "1"]), ("2 workers", ["--workers", "2"]))


def timed(arguments: list[str]) -> tuple[float, str, float]:
    """Wall seconds, stdout, and the CPU seconds of the command and every process it started (the workers
    of a local cluster are waited for by the command, so theirs count): a figure that the machine's other
    load does not inflate as it inflates wall times."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(TWISTY + arguments, capture_output=True, text=True, cwd=ROOT)
    seconds = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"twisty {' '.join(arguments)} exited {done.returncode}: {done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return seconds, done.stdout, cpu


def records(output: str) -> tuple[list[dict], float]:
    found, work = [], 0.0
    for line in output.splitlines():
        record = json.loads(line)
        work += record.pop("seconds", 0.0) or 0.0
        found.append(record)
    return found, work


def check_batch(label: str, paths: list[str], repeat: int) -> list[dict]:
    rows = []
    reference = None
    for place, options in PLACES:
        walls, works, cpus = [], [], []
        for _ in range(repeat):
            wall, output, cpu = timed(["check", "--json", *options, *paths])
            cpus.append(cpu)
            found, work = records(output)
            if reference is None:
                reference = found
            elif found != reference:
                raise SystemExit(f"{label}, {place}: the JSON lines differ from the run in this process")
            walls.append(wall)
            works.append(work)
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
        # CPU the cluster costs on top of the work, per level (start-up included).
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
    rows = check_batch("puzzles/", ["puzzles"], args.repeat)
    with tempfile.TemporaryDirectory() as folder:
        started = time.perf_counter()
        generate = ["generate", "passages", "--size", "6x5", "--blockers", "10", "-n", str(args.generated)]
        subprocess.run(TWISTY + [*generate, "--workers", "2", "-o", folder], check=True, capture_output=True, cwd=ROOT)
        generated_seconds = time.perf_counter() - started
        print(f"generated {args.generated} levels with --workers 2 in {generated_seconds:.1f} s", flush=True)
        rows += check_batch(
            f"{args.generated} generated", sorted(str(p) for p in Path(folder).glob("*.toml")), args.repeat
        )
    for row in rows:
        workers = {"here": 0, "1 worker": 1, "2 workers": 2}[row["place"]]
        if workers:
            left = row["wall_seconds"] - start_up - row["work_seconds"] / workers
            row["overhead_per_level_ms"] = round(1000 * left / row["levels"], 1)
            row["cpu_overhead_per_level_ms"] = round(
                1000 * (row["cpu_seconds"] - rows_here(rows, row)["cpu_seconds"] - start_cpu) / row["levels"], 1
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
