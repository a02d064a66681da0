"""Benchmark: the Book's walk search with path rules, generation, completion and the SAT engine, each
against a baseline measured in the same run.

Run: python benchmarks/book/bench_sat.py [--json out.json]  or  twisty bench book

- path-rule walk: a 96-cell book (two pages of 6x8) with 5 Bows and 8 Molotovs, walked by the rule engine;
  baseline: the same search remembering every path state (forgetting nothing, as before the fix).
- generate: 10 spreads (pages 2-3) of 8x10 pages with 8 rule families each (rotating through the 14 static
  families), with PySAT (Glucose) and with CP-SAT on the same clauses; the encoding choice.
- complete: a generated 6-page book of 6x8 with 30 of its cells on and beside the walk opened (`?`),
  completed with either backend.
- SAT engine: the two shipped books, the rule engine against the SAT engine.

Times are CPU seconds of this process (the machine is shared: wall time is noisy); counts (walkers,
evaluations, clauses) do not depend on the machine.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from contextlib import contextmanager
from pathlib import Path

from twisty.encodings.book_circuit import CPSAT, PYSAT
from twisty.errors import GenerationError
from twisty.generator.book import BookParams, generate_book
from twisty.generator.book_complete import complete_book
from twisty.generator.book_families import FAMILIES
from twisty.rules.book.contents import FILLABLE, code_of
from twisty.rules.book.loader import load_book, load_sketch
from twisty.rules.book.path import PathRules
from twisty.rules.source import parse_level_bytes, read_level
from twisty.solver.book import solve_book
from twisty.solver.book_sat import solve_book_sat

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles" / "book"
PATH_RULE_CODES = ["Bw", "Mo", "Zo", "Tr", "Ru", ".", ".", ".", "Ms", "Og", "Wo", "Gi", "Th", "Va", "Sk"]
STATIC_FAMILIES = sorted(FAMILIES)


def path_rule_book_text(seed: int = 6) -> str:
    """Two pages of 6x8 drawn from Bows, Molotovs, Zombies, Giants, Wolves, Vampires and plain cells."""
    chooser = random.Random(seed)
    lines = ['game = "book"', "rows = 6", "cols = 8", "entrance = [1, 0, 0]", "exit = [2, 5, 7]", "[pages]"]
    for page in (1, 2):
        lines.append(f'{page} = """')
        lines += [" ".join(chooser.choice(PATH_RULE_CODES) for _ in range(8)) for _ in range(6)]
        lines.append('"""')
    return "\n".join(lines) + "\n"


@contextmanager
def remembering_every_path_state():
    """The walk search as it was: no path state forgotten (PathRules.canonical does nothing)."""
    original = PathRules.canonical
    PathRules.canonical = lambda self, state: state  # type: ignore[method-assign]
    try:
        yield
    finally:
        PathRules.canonical = original  # type: ignore[method-assign]


def cpu(work):
    started = time.process_time()
    result = work()
    return result, time.process_time() - started


def bench_path_walk() -> dict:
    book = load_book(parse_level_bytes(path_rule_book_text().encode(), "path-rules.toml"))
    fast, fast_seconds = cpu(lambda: solve_book(book))
    with remembering_every_path_state():
        slow, slow_seconds = cpu(lambda: solve_book(book))
    assert (fast.status, fast.moves, fast.shortest_walks) == (slow.status, slow.moves, slow.shortest_walks)
    return {
        "cells": book.shape.cell_count,
        "bows": book.contents.count("Bow"),
        "molotovs": book.contents.count("Molotov"),
        "status": fast.status,
        "moves": fast.moves,
        "walkers": fast.walkers,
        "evaluations": fast.evaluations,
        "seconds": round(fast_seconds, 3),
        "baseline_walkers": slow.walkers,
        "baseline_seconds": round(slow_seconds, 3),
        "speedup": round(slow_seconds / max(fast_seconds, 1e-6), 1),
    }


def spread_rules(number: int) -> tuple[str, ...]:
    return tuple(STATIC_FAMILIES[(3 * number + k) % len(STATIC_FAMILIES)] for k in range(8))


def bench_generate(solver: str, spreads: int = 10) -> dict:
    rows = []
    total = 0.0
    wall_started = time.perf_counter()
    for number in range(spreads):
        params = BookParams(pages=2, rows=8, cols=10, rules=spread_rules(number), first_page=2)
        started = time.process_time()
        try:
            made = generate_book(params, number + 1, solver=solver)
        except GenerationError as error:
            total += time.process_time() - started
            rows.append({"seed": number + 1, "rules": list(params.rules), "failed": str(error)})
            continue
        seconds = time.process_time() - started
        total += seconds
        rows.append(
            {
                "seed": number + 1,
                "rules": list(params.rules),
                "moves": made.walk.moves,
                "clauses": made.clauses,
                "rounds": made.rounds,
                "seconds": round(seconds, 3),
            }
        )
    wall = time.perf_counter() - wall_started
    return {
        "solver": solver,
        "spreads": spreads,
        "seconds": round(total, 3),
        "wall_seconds": round(wall, 3),
        "books": rows,
    }


def completion_sketch(open_count: int = 30, seed: int = 7) -> tuple[str, str]:
    """A generated 6-page book of 6x8, and the same with `open_count` of its walk and border cells opened."""
    params = BookParams(pages=6, rows=6, cols=8, rules=("wolf", "vampire", "oracle", "melee", "rat", "mimic"))
    made = generate_book(params, seed)
    book = made.book
    shape = book.shape
    near = set(made.walk.standing) - {made.walk.entrance, made.walk.exit}
    near |= {other for cell in made.walk.standing for other in shape.orthogonal_table()[cell]}
    chosen = sorted(random.Random(seed).sample(sorted(near), open_count))
    names = [code_of(name) for name in book.contents]
    for index in chosen:
        names[index] = "?"
    lines = made.text.split("[pages]")[0].splitlines()
    lines = [line for line in lines if not line.startswith("#")] + ["[pages]"]
    for page in shape.pages:
        start = shape.page_cells(page)[0]
        lines.append(f'{page} = """')
        lines += [
            " ".join(f"{names[start + r * shape.width + c]:<2}" for c in range(shape.width))
            for r in range(shape.height)
        ]
        lines.append('"""')
    return made.text, "\n".join(lines) + "\n"


def bench_complete(solver: str, sketch_text: str) -> dict:
    sketch, open_cells = load_sketch(parse_level_bytes(sketch_text.encode(), "sketch.toml"))
    assert all(domain == FILLABLE for domain in open_cells.values())
    wall_started = time.perf_counter()
    completion, seconds = cpu(lambda: complete_book(sketch, open_cells, solver=solver))
    wall = time.perf_counter() - wall_started
    return {
        "solver": solver,
        "open_cells": len(open_cells),
        "completed": completion.completed,
        "moves": completion.analysis.moves if completion.analysis else None,
        "seconds": round(seconds, 3),
        "wall_seconds": round(wall, 3),
    }


def bench_sat_engine() -> list[dict]:
    found = []
    for name in ("long.toml", "tutorial.toml"):
        book = load_book(read_level(str(PUZZLES / name)))
        rules, rule_seconds = cpu(lambda book=book: solve_book(book))
        sat, sat_seconds = cpu(lambda book=book: solve_book_sat(book))
        assert (rules.status, rules.moves, rules.shortest_walks) == (sat.status, sat.moves, sat.shortest_walks)
        found.append(
            {
                "book": name,
                "cells": book.shape.cell_count,
                "moves": sat.moves,
                "unique": sat.shortest_walks == 1,
                "rules_seconds": round(rule_seconds, 3),
                "sat_seconds": round(sat_seconds, 3),
                "sat_steps": sat.steps,
                "sat_clauses": sat.clauses,
            }
        )
    return found


def run(json_path: str | None = None, parts: tuple[str, ...] = ("walk", "generate", "complete", "sat")) -> dict:
    result: dict = {}
    if "walk" in parts:
        walk = result["path_rule_walk"] = bench_path_walk()
        print(
            f"path-rule walk: {walk['cells']} cells, {walk['bows']} Bows, {walk['molotovs']} Molotovs: "
            f"{walk['status']} in {walk['moves']} moves"
        )
        print(f"  {'search':<34}{'walkers':>10}{'cpu s':>9}")
        print(f"  {'forgetting spent path state':<34}{walk['walkers']:>10,}{walk['seconds']:>9.3f}")
        print(f"  {'remembering every path state':<34}{walk['baseline_walkers']:>10,}{walk['baseline_seconds']:>9.3f}")
        print(f"  speedup {walk['speedup']}x (target: under 1 s)")
    if "generate" in parts:
        result["generate"] = [bench_generate(solver) for solver in (PYSAT, CPSAT)]
        print("generate 10 spreads of 8x10 pages, 8 rule families each (target: under 60 s in total)")
        print(f"  {'solver':<10}{'total cpu s':>12}{'wall s':>9}{'slowest':>10}{'clauses (mean)':>16}")
        for run_ in result["generate"]:
            books = [book for book in run_["books"] if "failed" not in book]
            for book in run_["books"]:
                if "failed" in book:
                    print(f"  {run_['solver']}: {book['failed']}")
            mean = sum(book["clauses"] for book in books) // max(1, len(books))
            slowest = max((book["seconds"] for book in books), default=0.0)
            print(
                f"  {run_['solver']:<10}{run_['seconds']:>12.2f}{run_['wall_seconds']:>9.2f}{slowest:>10.2f}{mean:>16,}"
            )
    if "complete" in parts:
        _book, sketch = completion_sketch()
        result["complete"] = [bench_complete(solver, sketch) for solver in (PYSAT, CPSAT)]
        print("complete a 6-page book of 6x8 with 30 open cells (target: under 10 s)")
        for entry in result["complete"]:
            print(
                f"  {entry['solver']:<10}{entry['seconds']:>8.2f} cpu s {entry['wall_seconds']:>8.2f} wall s  "
                f"completed: {entry['completed']}"
            )
    if "sat" in parts:
        result["sat_engine"] = bench_sat_engine()
        print("the SAT engine against the rule engine on the shipped books")
        for entry in result["sat_engine"]:
            print(
                f"  {entry['book']:<14}{entry['cells']:>6} cells  rules {entry['rules_seconds']:>7.2f} s  "
                f"sat {entry['sat_seconds']:>7.2f} s  ({entry['sat_steps']} steps, {entry['sat_clauses']:,} clauses)"
            )
    if json_path:
        Path(json_path).write_text(json.dumps(result, indent=2) + "\n")
    return result


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--json", dest="json_path")
    parser.add_argument("--parts", default="walk,generate,complete,sat")
    arguments = parser.parse_args()
    run(arguments.json_path, tuple(arguments.parts.split(",")))
