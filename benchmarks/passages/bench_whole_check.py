"""The whole check of `twisty check` (best route, least starting hp, uniqueness) on every level of the suite,
by this release and, with --baseline DIR, by a previous release in the same run.

    python benchmarks/passages/bench_whole_check.py [--baseline DIR] [--limit 120] [--json out.json] [levels...]

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
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "twisty" / "bench" / "suites" / "passages"

# What a level's process runs: the portfolio's whole check, timed question by question.
_CHECK_ONE = """
import json, resource, sys, time
from pathlib import Path
from twisty.rules.passages_format import load_passages
from twisty.rules.source import read_level
from twisty.solver import passages
from twisty.solver.passages_verdict import Deadline

def cpu():
    used = resource.getrusage(resource.RUSAGE_SELF)
    return used.ru_utime + used.ru_stime

path, limit = sys.argv[1], float(sys.argv[2])
level = load_passages(read_level(Path(path)))
marks = []
def progress(phase):
    marks.append((phase, time.perf_counter(), cpu()))
started = (time.perf_counter(), cpu())
found = passages.analyse(level, Deadline(limit), max_solutions=1, progress=progress)
marks.append(("end", time.perf_counter(), cpu()))
phases = {marks[i][0]: [marks[i + 1][1] - marks[i][1], marks[i + 1][2] - marks[i][2]] for i in range(len(marks) - 1)}
print(json.dumps({
    "seconds": marks[-1][1] - started[0], "cpu": marks[-1][2] - started[1], "phases": phases,
    "answer": [found.solvable, found.best.final_hp if found.best.proved else None,
               found.min_start.value if found.min_start.status == "proved" else found.min_start.status,
               found.unique],
}))
"""


def check_level(tree: Path, path: Path, limit: float) -> dict:
    environment = dict(os.environ, PYTHONPATH=str(tree))
    done = subprocess.run(
        [sys.executable, "-c", _CHECK_ONE, str(path), str(limit)],
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )
    if done.returncode != 0:
        lines = done.stderr.strip().splitlines()
        return {"failed": lines[-1] if lines else str(done.returncode)}
    return json.loads(done.stdout.strip().splitlines()[-1])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("levels", nargs="*", type=Path, help="level files (default: the whole suite)")
    parser.add_argument("--baseline", type=Path, help="a previous release's tree (previous_release.sh)")
    parser.add_argument("--limit", type=float, default=120.0, help="seconds per level and release")
    parser.add_argument("--json", type=Path, help="write the results here as JSON")
    args = parser.parse_args(argv)
    levels = args.levels or sorted(SUITE.glob("*.toml"))
    trees = [("current", ROOT)] + ([("previous", args.baseline)] if args.baseline else [])
    results: list[dict] = []
    bugs = []
    for path in levels:
        row: dict = {"level": path.stem, "load": [round(x, 2) for x in os.getloadavg()]}
        for name, tree in trees:
            row[name] = check_level(tree, path, args.limit)
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
        "baseline": None if args.baseline is None else str(args.baseline),
        "levels": results,
        "summary": summary,
        "bugs": bugs,
    }
    if args.json:
        args.json.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"{'level':<8} {'release':<9} {'wall s':>8} {'cpu s':>8}  answer")
    for row in results:
        for name, _ in trees:
            r = row[name]
            if "seconds" in r:
                print(f"{row['level']:<8} {name:<9} {r['seconds']:>8.2f} {r['cpu']:>8.2f}  {r['answer']}")
            else:
                print(f"{row['level']:<8} {name:<9} {'failed':>8}  {r['failed']}")
    for line in bugs:
        print(f"BUG: {line}", file=sys.stderr)
    return 1 if bugs else 0


if __name__ == "__main__":
    sys.exit(main())
