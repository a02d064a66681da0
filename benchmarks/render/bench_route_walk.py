"""Benchmark: the walk `twisty render` and `twisty solve` draw between a route's steps (twisty.render.passages
.route_legs), against the plain algorithm it replaced, on a seeded random family of passages maps.

Run: python benchmarks/render/bench_route_walk.py [--maps 24 --seed 1 --json benchmarks/render/results.json]

The family: mazes (a random spanning tree of rooms, some walls knocked through to make loops) and winding
corridors, from 21x21 to 121x121 cells, with 10 to 250 doors and enemies, keys, elixirs and equipment
scattered on the floor; the route is the one `twisty.check` proves best. For each map:

- route_legs: the open region grown as blockers are consumed, an A* search per step;
- the baseline (written here, for the bench alone): for each step the rules' reachable cells computed
  afresh and a breadth-first search through them, the way the route was walked before;
- the drawing: the picture of the map with its route, written as PNG.

Both walks must give legs of the same length at every step (checked). Times are CPU seconds of this
process (time.process_time), so other work on a shared machine does not count, the least of three runs
each after a garbage collection; the table gives the median, the worst, and the worst ratio of route_legs
to the baseline on any map.
"""

from __future__ import annotations

import argparse
import gc
import json
import random
import statistics
import sys
import time
from collections import deque
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

import twisty  # noqa: E402
from twisty.render import pictures_passages  # noqa: E402
from twisty.render.passages import route_legs  # noqa: E402
from twisty.render.pictures import PictureOptions, picture_bytes  # noqa: E402
from twisty.rules.passages import neighbours, reachable_cells  # noqa: E402

LEGEND = """
[legend]
r = { kind = "enemy", name = "Rat", hp = 5, atk = 6, def = 1 }
o = { kind = "enemy", name = "Orc", hp = 30, atk = 12, def = 2 }
d = { kind = "door" }
k = { kind = "key" }
p = { kind = "elixir", hp = 5 }
s = { kind = "equipment", name = "sword", atk = 1 }
"""


def maze(rng: random.Random, rooms: int, loops: float) -> list[list[str]]:
    """A (2 rooms + 1)-square map: a random spanning tree of the rooms (an iterative depth-first walk),
    with a share `loops` of the remaining walls between rooms knocked through."""
    size = 2 * rooms + 1
    grid = [["#"] * size for _ in range(size)]
    seen = {(0, 0)}
    stack = [(0, 0)]
    grid[1][1] = "."
    while stack:
        row, col = stack[-1]
        options = [
            (row + dr, col + dc)
            for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if 0 <= row + dr < rooms and 0 <= col + dc < rooms and (row + dr, col + dc) not in seen
        ]
        if not options:
            stack.pop()
            continue
        nxt = rng.choice(options)
        seen.add(nxt)
        grid[2 * nxt[0] + 1][2 * nxt[1] + 1] = "."
        grid[row + nxt[0] + 1][col + nxt[1] + 1] = "."
        stack.append(nxt)
    for row in range(1, size - 1):
        for col in range(1, size - 1):
            if grid[row][col] == "#" and (row % 2) != (col % 2) and rng.random() < loops:
                grid[row][col] = "."
    return grid


def winding(size: int) -> list[list[str]]:
    grid = [["#"] * size for _ in range(size)]
    for number, row in enumerate(range(1, size - 1, 2)):
        for col in range(1, size - 1):
            grid[row][col] = "."
        if row + 2 < size - 1:
            grid[row + 1][size - 2 if number % 2 == 0 else 1] = "."
    return grid


def level_text(rng: random.Random, grid: list[list[str]], blockers: int) -> str:
    floor = [(r, c) for r, row in enumerate(grid) for c, char in enumerate(row) if char == "."]
    start, goal = floor[0], floor[-1]
    grid[start[0]][start[1]] = "S"
    grid[goal[0]][goal[1]] = "G"
    free = floor[1:-1]
    rng.shuffle(free)
    doors = 0
    for index, (row, col) in enumerate(free[: blockers + blockers // 2]):
        if index < blockers:
            symbol = rng.choice("rrrod")
            doors += symbol == "d"
        else:
            symbol = rng.choice("kpps")
        grid[row][col] = symbol
    drawn = "\n".join("".join(row) for row in grid)
    return (
        f'game = "passages"\nname = "bench"\nmap = """\n{drawn}\n"""\n\n'
        f"[player]\nhp = 100000\natk = 20\ndef = 3\nkeys = {doors}\n{LEGEND}"
    )


def family(seed: int, count: int) -> list[tuple[str, str]]:
    rng = random.Random(seed)
    found = []
    for number in range(count):
        if number % 3 == 2:
            size = rng.choice([21, 41, 61, 81, 101, 121])
            grid, shape = winding(size), f"winding {size}x{size}"
        else:
            rooms = rng.choice([10, 20, 30, 40, 50, 60])
            loops = rng.choice([0.0, 0.05, 0.2])
            grid, shape = maze(rng, rooms, loops), f"maze {2 * rooms + 1}x{2 * rooms + 1} loops {loops}"
        blockers = rng.choice([10, 40, 100, 250])
        found.append((f"{shape}, {blockers} blockers", level_text(rng, grid, blockers)))
    return found


def baseline_lengths(model, route) -> list[int]:
    """The plain algorithm: per step, the reachable cells afresh, then a breadth-first search."""
    consumed: set[int] = set()
    position = model.start
    lengths = []
    for step in route.steps:
        if step.action == "buy":
            lengths.append(-1)
            continue
        open_cells = reachable_cells(model, frozenset(consumed))
        seen = {position: 0}
        queue = deque([position])
        while queue:
            cell = queue.popleft()
            if cell == step.at:
                break
            for nxt in neighbours(cell):
                if nxt not in seen and (nxt in open_cells or nxt == step.at):
                    seen[nxt] = seen[cell] + 1
                    queue.append(nxt)
        lengths.append(seen[step.at])
        position = step.at
        if step.action in ("open", "fight") or (
            step.action == "take" and model.things[model.thing_at[step.at]].optional
        ):
            consumed.add(model.thing_at[step.at])
    return lengths


def best_of(work, repeats: int = 3):
    """The result of `work` and its least CPU time over `repeats` runs, each after a garbage collection
    (a collection of what the drawings before left would otherwise land in one run or the other)."""
    times = []
    for _ in range(repeats):
        gc.collect()
        started = time.process_time()
        result = work()
        times.append(time.process_time() - started)
    return result, min(times)


def measure(name: str, text: str) -> dict | None:
    level = twisty.load(text)
    verdict = twisty.check(level, questions=["route"], timeout=60)
    if verdict.route is None:
        return None
    model = level.model
    legs, walk = best_of(lambda: route_legs(model, verdict.route))
    lengths, baseline = best_of(lambda: baseline_lengths(model, verdict.route))
    assert [len(leg) - 1 if leg else -1 for leg in legs] == lengths, name
    started = time.process_time()
    picture = pictures_passages.draw(level, verdict, PictureOptions(answer=True))
    size = len(picture_bytes(picture, ".png"))
    drawing = time.process_time() - started
    return {
        "map": name,
        "cells": model.height * model.width,
        "steps": len(verdict.route.steps),
        "route_legs_s": round(walk, 4),
        "baseline_s": round(baseline, 4),
        "ratio": round(walk / baseline, 4) if baseline else None,
        "drawing_s": round(drawing, 3),
        "png_bytes": size,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--maps", type=int, default=24)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", type=Path, default=None)
    arguments = parser.parse_args()
    rows = [row for name, text in family(arguments.seed, arguments.maps) if (row := measure(name, text))]
    print(f"{'map':<40} {'cells':>6} {'steps':>5} {'route_legs':>10} {'baseline':>9} {'ratio':>7} {'drawing':>8}")
    for row in rows:
        print(
            f"{row['map']:<40} {row['cells']:>6} {row['steps']:>5} {row['route_legs_s']:>10.4f} "
            f"{row['baseline_s']:>9.4f} {row['ratio']:>7.4f} {row['drawing_s']:>8.3f}"
        )
    summary = {
        key: {"median": statistics.median(row[key] for row in rows), "worst": max(row[key] for row in rows)}
        for key in ("route_legs_s", "baseline_s", "ratio", "drawing_s")
    }
    print(f"\n{len(rows)} maps solved of {arguments.maps}")
    for key, values in summary.items():
        print(f"{key:<13} median {values['median']:.4f}  worst {values['worst']:.4f}")
    if arguments.json is not None:
        arguments.json.parent.mkdir(parents=True, exist_ok=True)
        arguments.json.write_text(json.dumps({"seed": arguments.seed, "rows": rows, "summary": summary}, indent=1))


if __name__ == "__main__":
    main()
