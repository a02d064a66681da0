"""Benchmark: a generated book (default 90 pages of 12x16) is loaded, evaluated and its walk found.

Run: python benchmarks/book/bench.py [--pages 90 --rows 12 --cols 16 --seed 1 --repeat 3 --json out.json]
or:  twisty bench book

The book: a road along the middle row runs through every page (over each outer edge and each gutter);
Walls line it above and below, and the rest of every page is filled at random with creatures, terrain and
items of every rule (Rats, Wolf pairs, Mimics, Vampires and their prey, Giants, Orcs and Dwarves, Oracles,
Reapers, Lava, Numbers, Torches and Shadows, two Titans, a Chuck), plus a Bow on the road whose shot forces
a second evaluation of the whole book.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from twisty.rules.book.contents import code_of
from twisty.rules.book.loader import load_book
from twisty.rules.book.static import evaluate
from twisty.rules.source import parse_level_bytes
from twisty.solver.book import solve_book

FILL = ["Rubble", "Moss", "Planks", ""] * 6 + [
    "Troll",
    "Ogre",
    "Skeleton",
    "Zombie",
    "Dragon",
    "Wraith",
    "Goblin",
    "Imp",
    "Thief",
    "Bandit",
    "Cultist",
    "Kobold",
    "Rat",
    "Rat",
    "Mimic",
    "Mage",
    "Orc",
    "Dwarf",
    "Vampire",
    "Giant",
    "Oracle",
    "Spikes",
    "Swamp",
    "Pit",
    "Lava",
    "Gold",
    "Gem",
    "Scroll",
    "Torch",
    "Shadow",
    "Shadow",
    "Wall",
    "3",
    "2",
    "1",
    "Reaper",
]


def generate_book(pages: int, rows: int, cols: int, seed: int) -> str:
    chooser = random.Random(seed)
    road = rows // 2
    grids: dict[int, list[list[str]]] = {}
    for page in range(1, pages + 1):
        grid = [[chooser.choice(FILL) for _ in range(cols)] for _ in range(rows)]
        for row in range(rows):
            for col in range(cols):
                if grid[row][col] == "Reaper" and abs(row - road) < 4:
                    grid[row][col] = "Moss"  # a Reaper may not reach over the road's Walls
        grid[road] = ["Rubble"] * cols
        grid[road - 1] = ["Wall"] * cols
        grid[road + 1] = ["Wall"] * cols
        grids[page] = grid
    # Wolves in pairs only (a random fill could make a pack of seven, which is an invalid book).
    for page in range(3, pages + 1, 7):
        grids[page][0][2], grids[page][0][3] = "Wolf", "Wolf"
        grids[page][0][4] = "Rubble"
        grids[page][1][2] = grids[page][1][3] = "Rubble"
    for titan_page in (20, 60):
        if titan_page <= pages:
            grids[titan_page][1][5] = "Titan"
    if pages >= 45:
        grids[45][0][0] = "Chuck"
    grids[2][road][3] = "Bow"
    grids[2][road - 5][3] = "Troll"  # five cells above the Bow: its shot re-evaluates the book
    lines = [
        'game = "book"',
        f'title = "generated {pages} pages of {rows}x{cols}, seed {seed}"',
        f"rows = {rows}",
        f"cols = {cols}",
        f"entrance = [1, {road}, 0]",
        f"exit = [{pages}, {road}, {cols - 1}]",
        "[pages]",
    ]
    for page, grid in grids.items():
        lines.append(f'{page} = """')
        lines.extend(" ".join(f"{code_of(name):<2}" for name in row) for row in grid)
        lines.append('"""')
    return "\n".join(lines) + "\n"


def run(
    pages: int = 90, rows: int = 12, cols: int = 16, seed: int = 1, repeat: int = 3, json_path: str | None = None
) -> dict:
    text = generate_book(pages, rows, cols, seed)
    timings = {"load": [], "evaluate": [], "load_evaluate_and_walk": []}
    verdict = None
    for _ in range(repeat):
        started = time.perf_counter()
        book = load_book(parse_level_bytes(text.encode(), "generated.toml"))
        loaded = time.perf_counter()
        verdict = solve_book(book)
        finished = time.perf_counter()
        timings["load"].append(loaded - started)
        timings["load_evaluate_and_walk"].append(finished - started)
        again = time.perf_counter()
        evaluate(book)
        timings["evaluate"].append(time.perf_counter() - again)
    assert verdict is not None
    result = {
        "book": f"{pages} pages of {rows}x{cols}, seed {seed}",
        "cells": pages * rows * cols,
        "status": verdict.status,
        "walk_cells": len(verdict.walk),
        "corridor_cells": len(verdict.corridor),
        "evaluations": verdict.evaluations,
        "rules_fired": len(verdict.rules_fired),
        "seconds_median": {key: round(statistics.median(values), 3) for key, values in timings.items()},
        "seconds_max": {key: round(max(values), 3) for key, values in timings.items()},
    }
    print(
        f"book: {result['book']} ({result['cells']} cells), {verdict.status}, walk of "
        f"{result['walk_cells']} cells, corridor {result['corridor_cells']}, {verdict.evaluations} evaluations"
    )
    print(f"{'phase':<26}{'median s':>10}{'max s':>10}")
    for key in timings:
        print(f"{key:<26}{result['seconds_median'][key]:>10.3f}{result['seconds_max'][key]:>10.3f}")
    if json_path:
        with open(json_path, "w") as handle:
            json.dump(result, handle, indent=2)
    return result


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pages", type=int, default=90)
    parser.add_argument("--rows", type=int, default=12)
    parser.add_argument("--cols", type=int, default=16)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--json", dest="json_path")
    arguments = parser.parse_args()
    run(arguments.pages, arguments.rows, arguments.cols, arguments.seed, arguments.repeat, arguments.json_path)
