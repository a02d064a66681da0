"""The grid engine against the search engine on random levels of 20 to 120 blockers: the agreement table of
docs/contributing.md ("A second opinion at scale").

    python benchmarks/passages/grid_agreement.py [--seeds 12] [--limit 60] [--rows rows.jsonl] [--json out.json]
    python benchmarks/passages/grid_agreement.py --table-from rows.jsonl

Families (tests/large_random.py): random test mazes of 20 to 120 blockers with the life they were drawn with
("maze"), the same mazes with the least starting life that wins, by the search engine ("maze, tight"), and the
benchmark suite's levels of 20 to 120 blockers ("suite"). On each level the search engine answers the best
route and the least starting hp with no limit; then the grid engine answers the best route, the least
starting hp and uniqueness (a count to 1), each within --limit seconds of CPU. Where both engines prove an
answer the two must agree: a difference is printed as BUG and the script exits 1. Times are CPU seconds of
this process (the machine is shared; the load is printed beside them). --rows appends each level's answers
as a line of JSON as soon as it is done (a long run stopped half-way keeps what it found; --table-from makes
the table of such a file).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.large_random import SIZES, maze_level, suite_levels  # noqa: E402
from tests.timing import CpuDeadline  # noqa: E402
from twisty.rules.passages import PassagesLevel  # noqa: E402
from twisty.solver import passages_grid, passages_search  # noqa: E402
from twisty.solver.passages_verdict import SOLVABLE  # noqa: E402

# CPU seconds per question for the search engine (its answers are the reference here; a level it does not
# settle within this is left out of the comparison and counted apart).
SEARCH_LIMIT = 300.0
FAMILIES = ["maze", "maze, tight", "suite"]


def timed(call):
    started = time.process_time()
    result = call()
    return result, time.process_time() - started


def compare(family: str, name: str, level: PassagesLevel, limit: float) -> dict:
    """One level's answers by both engines, with CPU times and the agreement of every proved pair."""
    best, search_best = timed(lambda: passages_search.best_route(level, CpuDeadline(SEARCH_LIMIT)))
    least, search_least = timed(lambda: passages_search.min_start_hp(level, CpuDeadline(SEARCH_LIMIT)))
    grid, grid_best = timed(lambda: passages_grid.best_route(level, CpuDeadline(limit)))
    grid_least, grid_least_s = timed(lambda: passages_grid.min_start_hp(level, CpuDeadline(limit)))
    row = {
        "family": family,
        "level": name,
        "blockers": len(level.blockers()),
        "search": {
            "status": best.status,
            "final_hp": best.final_hp,
            "proved": best.proved,
            "least": [least.status, least.value],
        },
        "grid": {"status": grid.status, "final_hp": grid.final_hp, "proved": grid.proved},
        "grid_least": [grid_least.status, grid_least.value],
        "seconds": {"search": search_best + search_least, "grid_best": grid_best, "grid_least": grid_least_s},
        "bugs": [],
    }
    if grid.proved and best.proved and (grid.status, grid.final_hp) != (best.status, best.final_hp):
        row["bugs"].append(f"best route: grid {grid.status} {grid.final_hp}, search {best.status} {best.final_hp}")
    if "unknown" not in (grid_least.status, least.status) and grid_least != least:
        row["bugs"].append(f"least start hp: grid {grid_least}, search {least}")
    if best.status == SOLVABLE and best.proved and grid.proved:
        theirs = passages_search.count_solutions(level, CpuDeadline(SEARCH_LIMIT), 1, best.final_hp)
        mine, grid_count = timed(lambda: passages_grid.count_solutions(level, CpuDeadline(limit), 1, best.final_hp))
        row["grid_unique"] = (mine.solutions == 1 and not mine.capped) if mine.complete else None
        row["seconds"]["grid_count"] = grid_count
        if mine.complete and theirs.complete and (mine.solutions, mine.capped) != (theirs.solutions, theirs.capped):
            found = f"grid {mine.solutions, mine.capped}, search {theirs.solutions, theirs.capped}"
            row["bugs"].append(f"count to 1: {found}")
    return row


def levels(seeds: int):
    for blockers in SIZES:
        for seed in range(seeds):
            level = maze_level(seed, blockers)
            yield "maze", blockers, f"maze {blockers} {seed}", level
            least = passages_search.min_start_hp(level, CpuDeadline(SEARCH_LIMIT))
            if least.status == "proved":
                yield "maze, tight", blockers, f"maze {blockers} {seed} tight", level.with_start_hp(least.value)
    for name, level in suite_levels(20):
        yield "suite", int(name[1:4]), name, level


def table(rows: list[dict], limit: float) -> list[str]:
    """Per family and size (a markdown table): how many answers the grid engine proved within the limit,
    how many disagree with the search engine's (0, or the script has failed), and CPU seconds: the grid
    engine's best route and least starting hp together, median and worst, the search engine's on the
    same questions, and the worst ratio of the two over the levels both settled."""
    lines = [
        "| family | blockers | levels | best route proved | least hp proved | unique decided | disagree | "
        "grid CPU s median | grid CPU s worst | search CPU s worst | worst ratio grid/search |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    groups: dict[tuple[str, int], list[dict]] = {}
    for row in rows:
        groups.setdefault((row["family"], row["size"]), []).append(row)
    for (family, size), members in sorted(groups.items(), key=lambda item: (FAMILIES.index(item[0][0]), item[0][1])):
        proved = sum(1 for r in members if r["grid"]["proved"])
        least = sum(1 for r in members if r["grid_least"][0] != "unknown")
        asked = [r for r in members if "grid_unique" in r]
        decided = sum(1 for r in asked if r["grid_unique"] is not None)
        grid_seconds = [r["seconds"]["grid_best"] + r["seconds"]["grid_least"] for r in members]
        ratios = [
            (r["seconds"]["grid_best"] + r["seconds"]["grid_least"]) / max(r["seconds"]["search"], 1e-3)
            for r in members
            if r["grid"]["proved"] and r["search"]["proved"] and r["grid_least"][0] != "unknown"
        ]
        cells = [
            family,
            str(size),
            str(len(members)),
            f"{proved}/{len(members)}",
            f"{least}/{len(members)}",
            f"{decided}/{len(asked)}",
            str(sum(1 for r in members if r["bugs"])),
            f"{statistics.median(grid_seconds):.3f}",
            f"{max(grid_seconds):.3f}",
            f"{max(r['seconds']['search'] for r in members):.3f}",
            f"{max(ratios):.1f}" if ratios else "-",
        ]
        lines.append("| " + " | ".join(cells) + " |")
    lines.append(f"(grid engine: {limit:g} s of CPU a question; search engine: {SEARCH_LIMIT:g} s)")
    return lines


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=12, help="random mazes per size")
    parser.add_argument("--limit", type=float, default=60.0, help="CPU seconds per question for the grid engine")
    parser.add_argument("--json", type=Path, help="write every level's answers and times here")
    parser.add_argument("--rows", type=Path, help="append each level's answers here as it is done (JSON lines)")
    parser.add_argument("--table-from", type=Path, help="print the table of a --rows file and stop")
    options = parser.parse_args()
    if options.table_from:
        kept = [json.loads(line) for line in options.table_from.read_text().splitlines() if line.strip()]
        print("\n".join(table(kept, kept[0]["limit"] if kept else options.limit)))
        return 1 if any(row["bugs"] for row in kept) else 0
    rows = []
    for family, size, name, level in levels(options.seeds):
        row = compare(family, name, level, options.limit)
        row["size"] = size
        row["limit"] = options.limit
        row["load"] = os.getloadavg()[0]
        rows.append(row)
        for bug in row["bugs"]:
            print(f"BUG: {name}: {bug}", flush=True)
        print(f"{name}: {row['grid']} {row['seconds']}", file=sys.stderr, flush=True)
        if options.rows:
            with options.rows.open("a") as out:
                out.write(json.dumps(row) + "\n")
    lines = table(rows, options.limit)
    load = os.getloadavg()
    lines.append(f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f} (2 cores)")
    print("\n".join(lines))
    if options.json:
        options.json.write_text(json.dumps({"limit": options.limit, "rows": rows, "load": load}, indent=1) + "\n")
    return 1 if any(row["bugs"] for row in rows) else 0


if __name__ == "__main__":
    sys.exit(main())
