"""CP-SAT against the search engine on the passages suite, by CPU time (docs/bench-cpsat.md).

`twisty bench passages --engine cpsat --engine search` measures wall-clock time, which on a shared machine
is mostly the load. This script runs both engines on the same levels in the same run, each under a deadline
of --cpu seconds of CPU time of the process (CP-SAT's two workers together; 60 s of CPU is 30 s on two free
cores), and counts the levels each proves. Every pair of proven answers is compared; a disagreement is
printed as BUG and exits 1.

    python benchmarks/passages/bench_cpsat_cpu.py --bucket 10 --bucket 20 --bucket 40 --json out.json
    python benchmarks/passages/bench_cpsat_cpu.py --level b060-00 --level b060-01
    python benchmarks/passages/bench_cpsat_cpu.py --random 200 --cpu 8 [--first 100]

--random N runs the seeded family of the slow differential test instead of the suite
(tests/solver/test_passages_cpsat_order.py): levels the suite's builder makes with 20 to 60 blockers, their
starting life 1 below to 2 above the least that solves them, so life is tight and about a third are
unsolvable.
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import json
import os
import random
import resource
import statistics
import sys
import time
from pathlib import Path

from twisty.rules.passages import PassagesLevel
from twisty.rules.passages_format import load_passages
from twisty.rules.source import read_level
from twisty.solver import passages_cpsat, passages_search
from twisty.solver.passages_verdict import Deadline

SUITE = Path(__file__).resolve().parents[2] / "twisty" / "bench" / "suites" / "passages"
# Map sizes of the suite's builder per blocker count (make_suite.py, BUCKETS, with 30 and 50 between).
RANDOM_SIZES = {20: (15, 11), 30: (19, 13), 40: (21, 15), 50: (23, 17), 60: (25, 19)}
# CPU seconds the search engine gets to find the least starting life of a random level, so that one case
# of the slow differential stays near 10 s of CPU: it took at most 2.3 s on 199 of the 200 levels, 13 s on
# level 20, which therefore starts with 1000 hp (as does any level it leaves unknown).
RANDOM_LEAST_HP_CPU = 3.0


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


@functools.cache
def load_suite_builder():
    path = Path(__file__).resolve().parent / "make_suite.py"
    spec = importlib.util.spec_from_file_location("make_suite", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def random_level(seed: int) -> PassagesLevel:
    """Random level `seed` of the family (see the module's docstring). Its starting life comes from the
    search engine's least starting life: the input is drawn from it, not the answer, which both engines
    then work out on their own."""
    rng = random.Random(f"cpsat order {seed}")
    blockers = rng.choice(sorted(RANDOM_SIZES))
    level = load_suite_builder().build_level(rng.randrange(1 << 30), blockers, *RANDOM_SIZES[blockers])
    least = passages_search.min_start_hp(level, CpuDeadline(RANDOM_LEAST_HP_CPU))
    hp = max(1, (least.value or 1) + rng.randint(-1, 2)) if least.status == "proved" else 1000
    return level.with_start_hp(hp)


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


def compare(name: str, level: PassagesLevel, bucket: int, cpu: float, bugs: list[str]) -> dict:
    """Both engines on one level, CP-SAT second; a disagreement between two proofs goes into `bugs`."""
    search = run(passages_search, level, cpu)
    cpsat = run(passages_cpsat, level, cpu)
    both = search["proved"] and cpsat["proved"]
    if both and (search["status"], search["final_hp"]) != (cpsat["status"], cpsat["final_hp"]):
        bugs.append(f"BUG: {name}: search {search}, cpsat {cpsat}")
    row = {"level": name, "bucket": bucket, "search": search, "cpsat": cpsat, "load": os.getloadavg()[0]}
    print(
        f"{name}  search {search['status']:10} {search['final_hp']!s:>4} {search['cpu']:7.3f} s"
        f"  cpsat {cpsat['status']:10} {cpsat['final_hp']!s:>4} proved={cpsat['proved']!s:5}"
        f" cpu {cpsat['cpu']:7.2f} s wall {cpsat['wall']:7.2f} s  load {row['load']:.1f}",
        file=sys.stderr,
        flush=True,
    )
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bucket", type=int, action="append", help="blocker counts (default 10, 20, 40, 60)")
    parser.add_argument("--level", action="append", help="only these suite levels (b060-00, ...)")
    parser.add_argument("--random", type=int, metavar="N", help="random levels 0..N-1 of the family instead")
    parser.add_argument("--first", type=int, default=0, help="with --random: start at this seed (split runs)")
    parser.add_argument("--cpu", type=float, default=60.0, help="CPU seconds per level and engine")
    parser.add_argument("--json", help="write every run to this file")
    args = parser.parse_args(argv)
    rows: list[dict] = []
    bugs: list[str] = []
    if args.random:
        for seed in range(args.first, args.random):
            level = random_level(seed)
            rows.append(compare(f"random {seed}", level, len(level.blockers()), args.cpu, bugs))
        buckets = sorted({row["bucket"] for row in rows})
    else:
        buckets = args.bucket or sorted({int(name[1:4]) for name in args.level or []}) or [10, 20, 40, 60]
        for size in buckets:
            for path in sorted(SUITE.glob(f"b{size:03d}-*.toml")):
                if not args.level or path.stem in args.level:
                    rows.append(compare(path.stem, load_passages(read_level(path)), size, args.cpu, bugs))
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
