"""The whole check of `twisty check` (best route, least starting hp, uniqueness) on every level of the suite,
by this release and, with --baseline DIR, by a previous release in the same run.

    python benchmarks/passages/bench_whole_check.py [--baseline DIR] [--limit 120] [--json out.json] [levels...]
    python benchmarks/passages/bench_whole_check.py --table out.json   # the tables of a run saved before

Each level is checked in a Python process of its own (the tree's `twisty` package on its path, so that the
previous release runs its own code), by the portfolio's `analyse` with the default question set and the
count up to 1, as `twisty check` asks; the process reports the wall-clock and CPU time of each question
(CPU time of every thread of the process: the best route races two searches on two cores, and the least
starting hp two more). The two releases alternate level by level, so that they meet the same load; the load
average is recorded beside each level. Their answers must agree (solvable, final hp, least starting hp,
unique): anything else is printed as BUG and the exit code is 1. `benchmarks/generator/previous_release.sh`
makes the previous release's tree.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
from pathlib import Path

from twisty.bench.passages_process import run_in_tree

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "twisty" / "bench" / "suites" / "passages"

# What a level's process runs: the portfolio's whole check, timed question by question.
_CHECK_ONE = """
import json, resource, sys, time
import twisty
from pathlib import Path
from twisty.rules.passages_format import load_passages
from twisty.rules.source import read_level
from twisty.solver import passages
from twisty.solver.passages_verdict import Deadline

def cpu():
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime

path, limit, cpu_limit = sys.argv[1], float(sys.argv[2]), sys.argv[3] == "cpu"
if cpu_limit:
    import math
    resource.setrlimit(resource.RLIMIT_CPU, (math.ceil(limit), math.ceil(limit) + 5))
level = load_passages(read_level(Path(path)))
marks = []
def progress(phase):
    marks.append((phase, time.perf_counter(), cpu()))
started = (time.perf_counter(), cpu())
found = passages.analyse(level, Deadline(None if cpu_limit else limit), max_solutions=1, progress=progress)
marks.append(("end", time.perf_counter(), cpu()))
phases = {marks[i][0]: [marks[i + 1][1] - marks[i][1], marks[i + 1][2] - marks[i][2]] for i in range(len(marks) - 1)}
print(json.dumps({
    "seconds": marks[-1][1] - started[0], "cpu": marks[-1][2] - started[1], "phases": phases,
    "package": twisty.__path__[0],
    "answer": [found.solvable, found.best.final_hp if found.best.proved else None,
               found.min_start.value if found.min_start.status == "proved" else found.min_start.status,
               found.unique],
}))
"""


def check_level(tree: Path, path: Path, limit: float, cpu_limit: bool = False) -> dict:
    """The whole check of one level by the release in `tree`, in a process of its own. With `cpu_limit`
    the check has no deadline and the process `limit` seconds of CPU time (the kernel ends it past them,
    and the level counts as not decided, at the CPU time its process used): the answer then does not
    depend on the machine's load, as a wall-clock limit's does."""
    run = run_in_tree(tree, _CHECK_ONE, [str(path.resolve()), str(limit), "cpu" if cpu_limit else "wall"], cpu_limit)
    if run.stopped:
        return {"seconds": run.seconds, "cpu": run.cpu, "answer": None, "stopped": "CPU limit"}
    if run.answer is None:
        return {"failed": run.failed}
    return run.answer


def level_table(data: dict) -> list[str]:
    """Each level's wall-clock and CPU seconds and answer, release by release."""
    lines = [f"{'level':<8} {'release':<9} {'wall s':>8} {'cpu s':>8}  answer"]
    for row in data["levels"]:
        for name in ("current", "previous"):
            r = row.get(name)
            if r is None:
                continue
            if "seconds" in r:
                lines.append(f"{row['level']:<8} {name:<9} {r['seconds']:>8.2f} {r['cpu']:>8.2f}  {r['answer']}")
            else:
                lines.append(f"{row['level']:<8} {name:<9} {'failed':>8}  {r['failed']}")
    return lines


def decided(result: dict) -> bool:
    """Whether a level's check answered every question (solvable, least starting hp and, for a solvable
    level, final hp and uniqueness) within the limit."""
    answer = result.get("answer")
    if answer is None or answer[0] is None or answer[2] == "unknown":
        return False
    return not answer[0] or (answer[1] is not None and answer[3] is not None)


def size_of(level: str) -> str:
    """The suite's size bucket of a level (its name says it: b060-01 has 60 blockers)."""
    found = re.fullmatch(r"b(\d+)-\d+", level)
    return str(int(found.group(1))) if found else "other"


def size_table(data: dict) -> list[str]:
    """Per size and release: the levels decided within the limit, the median and worst wall-clock and CPU
    seconds (a level not decided counts at what it took, marked >), and per level the previous release's
    CPU time over this one's: the median and the worst (the smallest)."""
    names = [name for name in ("current", "previous") if any(name in row for row in data["levels"])]
    lines = [
        f"{'blockers':>8} {'release':<9} {'decided':>7} {'median wall':>11} {'worst wall':>10} "
        f"{'median cpu':>10} {'worst cpu':>9}  {'previous/current cpu':>20}"
    ]
    lines.append("-" * len(lines[0]))
    sizes = sorted({size_of(row["level"]) for row in data["levels"]}, key=lambda s: (not s.isdigit(), s.zfill(6)))
    for size in sizes + ["all"]:
        rows = [row for row in data["levels"] if size in ("all", size_of(row["level"]))]
        label = f"{size:>8}"
        for name in names:
            runs = [row[name] for row in rows if "seconds" in row.get(name, {})]
            if not runs:
                continue
            late = "" if all(decided(r) for r in runs) else ">"
            worst_wall = max(r["seconds"] for r in runs)
            worst_cpu = max(r["cpu"] for r in runs)
            ratio = ""
            if name == "current" and "previous" in names:
                ratios = [
                    row["previous"]["cpu"] / max(row["current"]["cpu"], 1e-6)
                    for row in rows
                    if "seconds" in row.get("current", {}) and "seconds" in row.get("previous", {})
                ]
                if ratios:
                    ratio = f"{statistics.median(ratios):.2f}x, worst {min(ratios):.2f}x"
            lines.append(
                f"{label} {name:<9} {sum(decided(r) for r in runs):>3}/{len(runs):<3} "
                f"{statistics.median(r['seconds'] for r in runs):>11.2f} {late + format(worst_wall, '.2f'):>10} "
                f"{statistics.median(r['cpu'] for r in runs):>10.2f} {late + format(worst_cpu, '.2f'):>9}  {ratio:>20}"
            )
            label = " " * 8
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("levels", nargs="*", type=Path, help="level files (default: the whole suite)")
    parser.add_argument("--baseline", type=Path, help="a previous release's tree (previous_release.sh)")
    parser.add_argument("--limit", type=float, default=120.0, help="seconds per level and release")
    parser.add_argument(
        "--cpu-limit", action="store_true", help="--limit is CPU seconds (the process's), not wall-clock seconds"
    )
    parser.add_argument("--json", type=Path, help="write the results here as JSON")
    parser.add_argument("--only-baseline", action="store_true", help="check with the previous release only")
    parser.add_argument("--table", type=Path, help="print the tables of a run saved by --json, and run nothing")
    args = parser.parse_args(argv)
    if args.table:
        saved = json.loads(args.table.read_text(encoding="utf-8"))
        print("\n".join(level_table(saved) + [""] + size_table(saved)))
        return 1 if saved["bugs"] else 0
    levels = args.levels or sorted(SUITE.glob("*.toml"))
    trees = [("current", ROOT)] + ([("previous", args.baseline)] if args.baseline else [])
    if args.only_baseline and args.baseline:
        trees = trees[1:]
    results: list[dict] = []
    bugs = []
    for path in levels:
        row: dict = {"level": path.stem, "load": [round(x, 2) for x in os.getloadavg()]}
        for name, tree in trees:
            row[name] = check_level(tree, path, args.limit, args.cpu_limit)
            print(f"{path.stem} {name}: {json.dumps(row[name])}", file=sys.stderr, flush=True)
        answers = [row[name].get("answer") for name, _ in trees]
        # (an answer with a part undecided within the limit is left out of the comparison)
        decided = [a for a in answers if a is not None and a[0] is not None and "unknown" not in a and a[3] is not None]
        if any(answer != decided[0] for answer in decided):
            bugs.append(f"{path.stem}: the releases disagree: {answers}")
        results.append(row)
    summary = {}
    for name, _ in trees:
        done = [row[name] for row in results if "seconds" in row[name]]
        if done:
            summary[name] = {
                "median_seconds": statistics.median(r["seconds"] for r in done),
                "max_seconds": max(r["seconds"] for r in done),
                "median_cpu": statistics.median(r["cpu"] for r in done),
                "max_cpu": max(r["cpu"] for r in done),
            }
    data = {
        "limit": args.limit,
        "cpu_limit": args.cpu_limit,
        "baseline": None if args.baseline is None else str(args.baseline),
        "levels": results,
        "summary": summary,
        "bugs": bugs,
    }
    if args.json:
        args.json.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print("\n".join(level_table(data) + [""] + size_table(data)))
    for line in bugs:
        print(f"BUG: {line}", file=sys.stderr)
    return 1 if bugs else 0


if __name__ == "__main__":
    sys.exit(main())
