"""Benchmark: wall time of `twisty generate passages` for a batch of levels, the way a designer runs it.

Run: python benchmarks/generator/bench_passages.py [--count 20 --size 7x6 --blockers 20 --difficulty medium
     --workers 2 --repeat 3 --seed 1 --json benchmarks/generator/results.json]

Each repeat generates `count` levels (seeds seed + repeat * count, ...) with the real command line in a
fresh process, so start-up and process-pool costs are counted. It then reads the files back and reports
the blockers on the map, the starting life and the difficulty scores, and the per-level times measured in
one process (one level after the other) for the first batch.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def run_batch(args: argparse.Namespace, first_seed: int, folder: Path) -> float:
    command = [
        sys.executable,
        "-c",
        "from twisty.cli import main; main()",
        "generate",
        "passages",
        "--size",
        args.size,
        "--blockers",
        str(args.blockers),
        "--difficulty",
        args.difficulty,
        "--seed",
        str(first_seed),
        "-n",
        str(args.count),
        "--workers",
        str(args.workers),
        "-o",
        str(folder),
    ]
    started = time.perf_counter()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def level_facts(folder: Path) -> list[dict]:
    facts = []
    for path in sorted(folder.glob("*.toml")):
        text = path.read_text(encoding="utf-8")
        facts.append(
            {
                "file": path.name,
                "blockers_on_map": int(re.search(r"\((\d+) blockers on the map\)", text).group(1)),
                "start_hp": int(re.search(r"^hp = (\d+)$", text, re.M).group(1)),
                "score": int(re.search(r"difficulty score: (\d+)", text).group(1)),
            }
        )
    return facts


def per_level_seconds(args: argparse.Namespace, first_seed: int) -> list[float]:
    """One level after the other in this process, with the engine the command's `auto` picks."""
    from twisty.games import GAMES
    from twisty.generator.passages import PassagesParams, generate_level
    from twisty.limits import Deadline

    engine = GAMES["passages"].auto_engine().load()
    width, height = (int(v) for v in args.size.lower().split("x"))
    params = PassagesParams(width, height, args.blockers, args.difficulty)
    times = []
    for seed in range(first_seed, first_seed + args.count):
        started = time.perf_counter()
        generate_level(params, seed, engine, Deadline(None))
        times.append(time.perf_counter() - started)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=20)
    parser.add_argument("--size", default="7x6")
    parser.add_argument("--blockers", type=int, default=20)
    parser.add_argument("--difficulty", default="medium")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", default=None, help="Write the figures to this file.")
    args = parser.parse_args()

    batches = []
    facts: list[dict] = []
    for repeat in range(args.repeat):
        first_seed = args.seed + repeat * args.count
        with tempfile.TemporaryDirectory() as folder:
            seconds = run_batch(args, first_seed, Path(folder))
            facts += level_facts(Path(folder))
        batches.append(round(seconds, 2))
        print(
            f"batch {repeat + 1}: {args.count} levels (seeds {first_seed}..{first_seed + args.count - 1}) "
            f"in {seconds:.1f} s with --workers {args.workers}",
            flush=True,
        )
    singles = per_level_seconds(args, args.seed)
    figures = {
        "command": f"twisty generate passages --size {args.size} --blockers {args.blockers} "
        f"--difficulty {args.difficulty} -n {args.count} --workers {args.workers}",
        "cpus": os.cpu_count(),
        "batch_seconds": batches,
        "batch_median_seconds": statistics.median(batches),
        "level_seconds_one_process": [round(t, 2) for t in singles],
        "level_median_seconds": round(statistics.median(singles), 2),
        "level_max_seconds": round(max(singles), 2),
        "blockers_on_map_median": statistics.median(f["blockers_on_map"] for f in facts),
        "start_hp_median": statistics.median(f["start_hp"] for f in facts),
        "score_median": statistics.median(f["score"] for f in facts),
    }
    print(
        f"median batch: {figures['batch_median_seconds']} s for {args.count} levels; one level in one "
        f"process: median {figures['level_median_seconds']} s, max {figures['level_max_seconds']} s; "
        f"blockers on the map: median {figures['blockers_on_map_median']}"
    )
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
