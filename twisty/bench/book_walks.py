"""`twisty bench book --parts random`: the walk search on seeded random path-rule books, against a plain
breadth-first search (`twisty.bench.book_plain`) on the same books in the same run.

For each size class of `twisty.bench.book_random` (small: 3 to 4 pages, 72 to 120 cells; medium; large: 10
pages of 8x10), each book is answered by:

- twisty's walk: `solve_book(..., corridor=False)`: solvability, the shortest walk's length, how many
  shortest walks (up to 2);
- twisty's corridor: `solve_book(..., every_rule=False)`: the same and the corridor with its shape (the
  search stops once the corridor is decided, not going on to every walker for the rules that fire, which
  the plain search does not answer);
- twisty's check: the walk, the three other readings of the ambiguity lint and the corridor, within one
  deadline of `CHECK_SECONDS` as `twisty check` does with its default `--timeout`;
- the plain search: the same answers, the walk's when its layer reaching the exit is done, the corridor's
  when every state was met.

Times are CPU seconds of this process (`time.process_time`): the machine may be shared, and CPU time does not
count what others take. A book whose runs all take under `QUICK` seconds is measured several times, the
runs of both searches in turn, and each figure is the least of its rounds, so that sub-millisecond books are
measured and not the clock's noise. Both searches are handed the loaded book. Loading evaluates it once (to
refuse a Wolf pack over six); twisty's search starts from that evaluation, as `twisty check` does, while the
plain search evaluates every set of removals it meets itself, the empty one included. So that this costs
twisty nothing it would not pay in use, its walk is also timed from a copy without that evaluation
(`walk_from_scratch`): on a book both answer from one or two evaluations the two searches then tie.
An answer counts as decided when it was decided within the size's budget of CPU seconds. The answers both
decided must agree, or the run stops: a speed figure of a wrong answer is worth nothing.
"""

from __future__ import annotations

import dataclasses
import gc
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from twisty.bench.book_plain import PlainAnswers, PlainSearch
from twisty.bench.book_random import SIZES, family_book
from twisty.limits import Deadline
from twisty.rules.book.model import Book
from twisty.solver.book import BookAnalysis, reading_differences, resume_corridor, solve_book

Result = TypeVar("Result")

# Per size: how many books (of the run's `books`, for the small class), and the CPU seconds within which an
# answer counts as decided: the walk's answers, the corridor, and the plain search's whole run.
BUDGETS = {
    "small": {"share": 1.0, "walk": 1.0, "corridor": 2.0, "plain": 10.0},
    "medium": {"share": 0.1, "walk": 10.0, "corridor": 10.0, "plain": 10.0},
    "large": {"share": 0.05, "walk": 10.0, "corridor": 10.0, "plain": 10.0},
}
CHECK_SECONDS = 10.0  # `twisty check`'s default --timeout
QUICK = 0.5  # books whose runs all take under this many seconds are measured `repeat` times
SMALL, SMALL_ROUNDS = 0.01, 25  # and those under this many seconds this many times


class CpuDeadline(Deadline):
    """A deadline on this process's CPU seconds: on a shared machine the wall clock runs on while others
    work, so the budgets here count what the search itself spends. (It watches no memory: neither does the
    plain search.)"""

    def __init__(self, seconds: float | None = None, memory_bytes: int | None = None) -> None:
        super().__init__(seconds, memory_bytes=None)
        self.started = time.process_time()

    def remaining(self) -> float | None:
        if self.seconds is None:
            return None
        return max(0.0, self.seconds - (time.process_time() - self.started))

    def elapsed(self) -> float:
        return time.process_time() - self.started


def timed(work: Callable[[], Result]) -> tuple[Result, float]:
    """The result of `work` and the CPU seconds it took."""
    gc.collect()  # what earlier runs left is not this run's to sweep
    started = time.process_time()
    result = work()
    return result, time.process_time() - started


def fresh(book: Book) -> Book:
    """The book without the loader's first evaluation."""
    return dataclasses.replace(book, cache={})


def walk_answers(verdict: BookAnalysis) -> tuple:
    return (verdict.solvable, verdict.moves, verdict.shortest_walks)


def plain_walk_answers(plain: PlainAnswers) -> tuple:
    return (plain.solvable, plain.moves, plain.shortest_walks)


def corridor_answers(verdict: BookAnalysis) -> tuple:
    return (verdict.corridor, verdict.branches, verdict.dead_ends)


def plain_corridor_answers(plain: PlainAnswers) -> tuple:
    return (plain.corridor, plain.branches, plain.dead_ends)


def full_check(book: Book, seconds: float) -> tuple[bool, float]:
    """Whether `twisty check` answers everything (the walk, the corridor, the three readings) within `seconds`
    of CPU (its time limit, counted on this process's CPU), and the CPU seconds it took."""

    def check() -> bool:
        deadline = CpuDeadline(seconds)
        verdict = solve_book(book, deadline=deadline, keep_for_readings=True)
        differences = reading_differences(book, verdict, deadline=deadline)
        resume_corridor(verdict, deadline)
        decided = verdict.status != "unknown" and verdict.shortest_walks is not None and verdict.corridor is not None
        return decided and all(difference.cap is None for difference in differences)

    return timed(check)


def measure_book(book: Book, budget: dict[str, float], repeat: int) -> dict[str, Any]:
    # Each run of twisty has its own budget of CPU seconds, from its start, as the plain search has.
    def one_round() -> tuple[tuple[BookAnalysis, float], tuple[BookAnalysis, float], PlainAnswers, float]:
        walk = timed(lambda: solve_book(book, deadline=CpuDeadline(budget["walk"]), corridor=False))
        whole = timed(lambda: solve_book(book, deadline=CpuDeadline(budget["corridor"]), every_rule=False))
        first = fresh(book)
        _, scratch = timed(lambda: solve_book(first, deadline=CpuDeadline(budget["walk"]), corridor=False))
        plain, outside = timed(lambda: PlainSearch(book).run(seconds=budget["plain"]))
        # The plain search times its own phases; what its run took outside them counts for both.
        setup = outside - (plain.corridor_seconds if plain.corridor_seconds is not None else outside)
        if plain.walk_seconds is not None:
            plain.walk_seconds += setup
        if plain.corridor_seconds is not None:
            plain.corridor_seconds += setup
        return walk, whole, plain, scratch

    # Quick books are measured over several rounds, the three runs of a round one after the other, and each
    # figure is the least of its rounds: a sub-millisecond figure is otherwise the clock's and the cache's.
    rounds = [one_round()]
    (_, walk_first), (_, whole_first), plain_first, _ = rounds[0]
    slowest = max(walk_first, whole_first, plain_first.corridor_seconds or float("inf"))
    if slowest < QUICK:
        rounds += [one_round() for _ in range((SMALL_ROUNDS if slowest < SMALL else repeat) - 1)]
    walk, whole, plain = rounds[0][0][0], rounds[0][1][0], rounds[0][2]
    walk_seconds = min(found[0][1] for found in rounds)
    whole_seconds = min(found[1][1] for found in rounds)
    scratch_seconds = min(found[3] for found in rounds)
    plain_walk = min((found[2].walk_seconds for found in rounds if found[2].walk_seconds is not None), default=None)
    plain_corridor = min(
        (found[2].corridor_seconds for found in rounds if found[2].corridor_seconds is not None), default=None
    )
    # Decided within the budget, the verdict's last touches (the corridor's shape) included.
    twisty_walk = walk.status != "unknown" and walk.shortest_walks is not None and walk_seconds <= budget["walk"]
    twisty_corridor = whole.corridor is not None and whole_seconds <= budget["corridor"]
    if walk.status != "unknown" and walk.shortest_walks is not None and plain_walk is not None:
        if walk_answers(walk) != plain_walk_answers(plain):
            raise AssertionError(f"{book.title}: twisty {walk_answers(walk)}, plain {plain_walk_answers(plain)}")
    if whole.corridor is not None and plain.corridor is not None:
        if corridor_answers(whole) != plain_corridor_answers(plain):
            raise AssertionError(f"{book.title}: the corridors differ")
    check_decided, check_seconds = full_check(book, CHECK_SECONDS)
    return {
        "title": book.title,
        "cells": book.shape.cell_count,
        "status": walk.status,
        "moves": walk.moves,
        "walkers": whole.walkers,
        "plain_states": plain.states,
        "twisty_walk_seconds": walk_seconds,
        "twisty_corridor_seconds": whole_seconds,
        "twisty_walk_from_scratch_seconds": scratch_seconds,
        "plain_walk_seconds": plain_walk,
        "plain_corridor_seconds": plain_corridor,
        "twisty_walk_decided": twisty_walk,
        "twisty_corridor_decided": twisty_corridor,
        "plain_walk_decided": plain_walk is not None,
        "plain_corridor_decided": plain_corridor is not None,
        "check_decided": check_decided,
        "check_seconds": check_seconds,
    }


def ratios(records: list[dict], ours: str, theirs: str) -> list[float]:
    """Twisty's time over the plain search's, on the books where both decided."""
    decided = ours.replace("_from_scratch", "")
    return [
        record[f"twisty_{ours}_seconds"] / record[f"plain_{theirs}_seconds"]
        for record in records
        if record[f"twisty_{decided}_decided"]
        and record[f"plain_{theirs}_decided"]
        and record[f"plain_{theirs}_seconds"]
    ]


def summarise(size: str, records: list[dict]) -> dict[str, Any]:
    def spread(values: list[float]) -> dict[str, float | None]:
        if not values:
            return {"median": None, "worst": None}
        return {"median": statistics.median(values), "worst": max(values)}

    return {
        "size": size,
        "books": len(records),
        "cells": [min(r["cells"] for r in records), max(r["cells"] for r in records)],
        "solvable": sum(r["status"] == "solvable" for r in records),
        "walk_decided": {
            "twisty": sum(r["twisty_walk_decided"] for r in records),
            "plain": sum(r["plain_walk_decided"] for r in records),
        },
        "corridor_decided": {
            "twisty": sum(r["twisty_corridor_decided"] for r in records),
            "plain": sum(r["plain_corridor_decided"] for r in records),
        },
        "twisty_walk_seconds": spread([r["twisty_walk_seconds"] for r in records]),
        "twisty_corridor_seconds": spread([r["twisty_corridor_seconds"] for r in records]),
        "walk_ratio": spread(ratios(records, "walk", "walk")),
        "walk_from_scratch_ratio": spread(ratios(records, "walk_from_scratch", "walk")),
        "corridor_ratio": spread(ratios(records, "corridor", "corridor")),
        "check_all_answers": sum(r["check_decided"] for r in records),
        "check_seconds": spread([r["check_seconds"] for r in records]),
    }


def run(
    seed: int = 1,
    books: int = 200,
    repeat: int = 5,
    sizes: tuple[str, ...] = tuple(SIZES),
    json_path: str | None = None,
    progress: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Measure every size class; print the table (through `progress`) and return the figures."""
    figures: dict[str, Any] = {"seed": seed, "books": books, "budgets": BUDGETS, "sizes": {}}
    for size in sizes:
        budget = BUDGETS[size]
        count = max(1, round(books * budget["share"]))
        records = []
        for number in range(count):
            records.append(measure_book(family_book(seed + number, size), budget, repeat))
        figures["sizes"][size] = {"summary": summarise(size, records), "books": records}
        progress(f"{size}: {count} books measured")
    for line in table(figures):
        progress(line)
    if json_path:
        Path(json_path).write_text(json.dumps(figures, indent=2) + "\n")
    return figures


def table(figures: dict[str, Any]) -> list[str]:
    def number(value: float | None, digits: int = 2) -> str:
        return "-" if value is None else f"{value:.{digits}f}"

    lines = [
        "random path-rule books: twisty's walk search against a plain breadth-first search (CPU seconds)",
        f"{'size':<7}{'books':>6}{'cells':>10}{'walk decided':>14}{'walk s med/worst':>19}"
        f"{'ratio med/worst':>17}{'corridor decided':>18}{'corridor s med/worst':>22}{'ratio med/worst':>17}"
        f"{'check 10 s':>12}",
    ]
    for size, found in figures["sizes"].items():
        s = found["summary"]
        budget = figures["budgets"][size]
        lines.append(
            f"{size:<7}{s['books']:>6}{s['cells'][0]:>5}-{s['cells'][1]:<4}"
            f"{s['walk_decided']['twisty']:>6} / {s['walk_decided']['plain']:<5}"
            f"{number(s['twisty_walk_seconds']['median'], 3):>9} / {number(s['twisty_walk_seconds']['worst']):<7}"
            f"{number(s['walk_ratio']['median']):>8} / {number(s['walk_ratio']['worst']):<6}"
            f"{s['corridor_decided']['twisty']:>9} / {s['corridor_decided']['plain']:<6}"
            f"{number(s['twisty_corridor_seconds']['median'], 3):>11} / "
            f"{number(s['twisty_corridor_seconds']['worst']):<8}"
            f"{number(s['corridor_ratio']['median']):>8} / {number(s['corridor_ratio']['worst']):<6}"
            f"{s['check_all_answers']:>6} / {s['books']:<4}"
        )
        lines.append(
            f"{'':<7}budgets: walk {budget['walk']:g} s, corridor {budget['corridor']:g} s, plain search "
            f"{budget['plain']:g} s; {s['solvable']} solvable; walk ratio with twisty evaluating the book "
            f"itself too: {number(s['walk_from_scratch_ratio']['median'])} / "
            f"{number(s['walk_from_scratch_ratio']['worst'])}"
        )
    return lines
