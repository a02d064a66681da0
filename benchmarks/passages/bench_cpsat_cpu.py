"""CP-SAT against the search engine on the passages suite, by CPU time (docs/bench-cpsat.md).

`twisty bench passages --engine cpsat --engine search` measures wall-clock time, which on a shared machine
is mostly the load. This script runs both engines on the same levels in the same run, each under a deadline
of --cpu seconds of CPU time of the process (CP-SAT's two workers together; 60 s of CPU is 30 s on two free
cores), and counts the levels each proves. Every pair of proven answers is compared; a disagreement is
printed as BUG and exits 1.

    python benchmarks/passages/bench_cpsat_cpu.py --bucket 10 --bucket 20 --bucket 40 --json out.json
    python benchmarks/passages/bench_cpsat_cpu.py --level b060-00 --level b060-01
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
import time
from pathlib import Path

from twisty.rules.passages_format import load_passages
from twisty.rules.source import read_level
from twisty.solver import passages_cpsat, passages_search
from twisty.solver.passages_verdict import Deadline

SUITE = Path(__file__).resolve().parents[2] / "twisty" / "bench" / "suites" / "passages"


def cpu_seconds() -> float:
    """CPU time of this process, every thread (CP-SAT's workers) included."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class CpuDeadline(Deadline):
    """A deadline on the CPU time of this process: CP-SAT's waiting thread stops the search the moment it
    has passed (it looks every 50 ms), and there is no wall-clock limit."""

    def __init__(self, seconds: float) -> None:
        super().__init__(None)
        self.ends = cpu_seconds() + seconds

    def expired(self) -> bool:
        return cpu_seconds() >= self.ends

    def remaining(self) -> float | None:
        return None


def run(engine, level, cpu: float) -> dict:
    start_cpu, start_wall = cpu_seconds(), time.perf_counter()
    answer = engine.best_route(level, CpuDeadline(cpu))
    return {
        "status": answer.status,
        "final_hp": answer.final_hp,
        "proved": answer.proved,
        "cpu": round(cpu_seconds() - start_cpu, 3),
        "wall": round(time.perf_counter() - start_wall, 3),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bucket", type=int, action="append", help="blocker counts (default 10, 20, 40, 60)")
    parser.add_argument("--level", action="append", help="only these suite levels (b060-00, ...)")
    parser.add_argument("--cpu", type=float, default=60.0, help="CPU seconds per level and engine")
    parser.add_argument("--json", help="write every run to this file")
    args = parser.parse_args(argv)
    buckets = args.bucket or sorted({int(name[1:4]) for name in args.level or []}) or [10, 20, 40, 60]
    rows, bugs = [], []
    for size in buckets:
        for path in sorted(SUITE.glob(f"b{size:03d}-*.toml")):
            if args.level and path.stem not in args.level:
                continue
            level = load_passages(read_level(path))
            search = run(passages_search, level, args.cpu)
            cpsat = run(passages_cpsat, level, args.cpu)
            both = search["proved"] and cpsat["proved"]
            if both and (search["status"], search["final_hp"]) != (cpsat["status"], cpsat["final_hp"]):
                bugs.append(f"BUG: {path.stem}: search {search}, cpsat {cpsat}")
            row = {"level": path.stem, "bucket": size, "search": search, "cpsat": cpsat, "load": os.getloadavg()[0]}
            rows.append(row)
            print(
                f"{path.stem}  search {search['status']:10} {search['final_hp']!s:>4} {search['cpu']:7.3f} s"
                f"  cpsat {cpsat['status']:10} {cpsat['final_hp']!s:>4} proved={cpsat['proved']!s:5}"
                f" cpu {cpsat['cpu']:7.2f} s wall {cpsat['wall']:7.2f} s  load {row['load']:.1f}",
                file=sys.stderr,
                flush=True,
            )
    print(f"CPU seconds per level (cpsat: both workers), {args.cpu:g} s of CPU per level and engine")
    print("blockers  levels  cpsat proved  median cpu   worst cpu  search proved  search worst  worst ratio")
    for size in buckets:
        members = [row for row in rows if row["bucket"] == size]
        if not members:
            continue
        proved = [row for row in members if row["cpsat"]["proved"]]
        times = [row["cpsat"]["cpu"] if row in proved else args.cpu for row in members]
        search_proved = [row for row in members if row["search"]["proved"]]
        ratios = [row["cpsat"]["cpu"] / max(row["search"]["cpu"], 1e-3) for row in proved if row in search_proved]
        print(
            f"{size:8}  {len(members):6}  {len(proved):>5}/{len(members):<6}  {statistics.median(times):10.2f}"
            f"  {max(times):10.2f}  {len(search_proved):>6}/{len(members):<6}"
            f"  {max(row['search']['cpu'] for row in members):12.3f}"
            f"  {max(ratios) if ratios else float('nan'):10.0f}x"
        )
    for bug in bugs:
        print(bug)
    if args.json:
        Path(args.json).write_text(json.dumps({"cpu_limit": args.cpu, "runs": rows}, indent=1) + "\n")
    return 1 if bugs else 0


if __name__ == "__main__":
    sys.exit(main())
