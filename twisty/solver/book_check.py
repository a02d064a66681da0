"""`twisty check` and `twisty solve` for Read These Before You Die books: verdict, expectations, report."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from twisty.checking import CheckOptions, CheckOutcome, SolveOutcome
from twisty.render.book import MARK_LEGEND, spread_lines
from twisty.rules.book.contents import RULE_NAMES
from twisty.rules.book.loader import load_book
from twisty.rules.book.model import Book
from twisty.rules.book.static import DEADLY, PASSABLE, PETRIFIED, WALL, Evaluation
from twisty.rules.book.topology import Cell
from twisty.rules.source import LevelSource
from twisty.solver.book import BookVerdict, border, reading_differences, solve_book

_CELL_CLAIMS = {
    # key -> (which evaluation, the statuses that satisfy it, what it means)
    "passable": ("initial", {PASSABLE}, "passable"),
    "deadly": ("initial", {DEADLY}, "deadly"),
    "impassable": ("initial", {WALL, PETRIFIED}, "impassable"),
    "final_passable": ("final", {PASSABLE}, "passable once the walk reaches the exit"),
    "final_deadly": ("final", {DEADLY}, "deadly once the walk reaches the exit"),
}
_FLAG_CLAIMS = ("solvable", "unique", "simple_corridor")


@dataclass
class BookExpectations:
    flags: dict[str, bool] = field(default_factory=dict)
    moves: int | None = None
    cells: dict[str, list[Cell]] = field(default_factory=dict)
    rules: list[int] = field(default_factory=list)


def read_expectations(source: LevelSource, book: Book) -> BookExpectations:
    table = source.data.get("expect", {})
    expect = BookExpectations()
    if not isinstance(table, dict):
        raise source.error("[expect] must be a table", key="expect")
    known = set(_FLAG_CLAIMS) | set(_CELL_CLAIMS) | {"moves", "rules"}
    for key, value in table.items():
        def error(message: str, key: str = key):
            return source.error(message, table="expect", key=key)
        if key not in known:
            raise error(f'unknown [expect] key "{key}" (known: {", ".join(sorted(known))})')
        if key in _FLAG_CLAIMS:
            if not isinstance(value, bool):
                raise error(f"[expect] {key} must be true or false, not {value!r}")
            expect.flags[key] = value
        elif key == "moves":
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise error(f"[expect] moves must be a whole number, not {value!r}")
            expect.moves = value
        elif key == "rules":
            if not isinstance(value, list):
                raise error("[expect] rules must be a list of rule numbers or names")
            by_name = {name.lower(): number for number, name in RULE_NAMES.items()}
            for rule in value:
                number = rule if isinstance(rule, int) and not isinstance(rule, bool) else \
                    by_name.get(rule.lower()) if isinstance(rule, str) else None
                if number not in RULE_NAMES:
                    raise error(f"[expect] rules: {rule!r} is not a rule number (1-27) or name")
                expect.rules.append(number)
        else:
            if not isinstance(value, list):
                raise error(f"[expect] {key} must be a list of [page, row, col] cells")
            cells = []
            for item in value:
                if (not isinstance(item, list) or len(item) != 3
                        or any(isinstance(part, bool) or not isinstance(part, int) for part in item)
                        or not book.shape.contains(tuple(item))):
                    raise error(f"[expect] {key}: {item!r} is not a cell [page, row, col] of this book")
                cells.append((item[0], item[1], item[2]))
            expect.cells[key] = cells
    return expect


def report(source: LevelSource, book: Book, verdict: BookVerdict, expect: BookExpectations,
           timeout: float | None = None) -> dict[str, Any]:
    """The JSON object of `check --json` for a book (keys listed in docs/book.md)."""
    solvable = None if verdict.status == "unknown" else verdict.solvable
    data: dict[str, Any] = {
        "level": source.path,
        "game": "book",
        "title": book.title,
        "valid": True,
        "errors": [],
        "status": verdict.status,
        "solvable": solvable,
        "walk": [list(cell) for cell in verdict.walk],
        "moves": verdict.moves,
        "corridor": [list(cell) for cell in verdict.corridor],
        "unique": verdict.unique if solvable is not None else None,
        "shortest_walks": verdict.shortest_walks,
        "simple_corridor": verdict.simple_corridor if solvable is not None else None,
        "branches": [list(cell) for cell in verdict.branches],
        "dead_ends": [list(cell) for cell in verdict.dead_ends],
        "rules_fired": verdict.rule_names(verdict.rules_fired),
        "rules_fired_numbers": sorted(verdict.rules_fired),
        "walk_rules": verdict.rule_names(verdict.walk_rules),
        "border": [{"cell": list(cell), "status": status, "why": why} for cell, status, why in border(verdict)],
        "pages": [book.shape.first_page, book.shape.last_page],
        "walkers": verdict.walkers,
        "evaluations": verdict.evaluations,
        "seconds": round(verdict.seconds, 3),
    }
    data["ambiguities"] = [
        {"reading": difference.reading, "cells": [list(cell) for cell in difference.cells],
         "solvable": difference.solvable, "moves": difference.moves}
        for difference in reading_differences(book, verdict, timeout=timeout)]
    data["expect_failures"] = expectation_failures(book, verdict, expect, data)
    return data


def ambiguity_lines(data: dict[str, Any]) -> list[str]:
    """Warnings (not failures) for each other reading of the rulebook under which the answer changes."""
    lines = []
    for difference in data["ambiguities"]:
        shown = " ".join(f"{p}.{r}.{c}" for p, r, c in difference["cells"][:12])
        more = f" and {len(difference['cells']) - 12} more" if len(difference["cells"]) > 12 else ""
        walk = ("no walk" if not difference["solvable"] else f"a walk of {difference['moves']} moves")
        lines.append(f"warning: under the reading {difference['reading']}, {len(difference['cells'])} cells "
                     f"change ({shown}{more}) and the book has {walk}")
    return lines


def expectation_failures(book: Book, verdict: BookVerdict, expect: BookExpectations,
                         data: dict[str, Any]) -> list[str]:
    failures = []
    for key, claimed in expect.flags.items():
        actual = data[key]
        if actual is None:
            failures.append(f"{key}: claimed {str(claimed).lower()}, but the search ran out of time")
        elif actual != claimed:
            failures.append(f"{key}: claimed {str(claimed).lower()}, but it is {str(actual).lower()}")
    if expect.moves is not None and data["moves"] != expect.moves:
        failures.append(f"moves: claimed {expect.moves}, but the shortest walk takes {data['moves']}")
    for key, cells in expect.cells.items():
        which, statuses, meaning = _CELL_CLAIMS[key]
        evaluation: Evaluation | None = verdict.initial if which == "initial" else verdict.final
        if evaluation is None:
            failures.append(f"{key}: there is no walk to the exit, so no final state to check")
            continue
        for cell in cells:
            index = book.shape.index(cell)
            if evaluation.status[index] not in statuses:
                chain = "; ".join(evaluation.chain(index)) or "no rule decides it"
                failures.append(f"{key}: {list(cell)} should be {meaning} but is "
                                f"{_status_word(evaluation.status[index])} ({chain})")
    for rule in expect.rules:
        if rule not in verdict.rules_fired:
            failures.append(f"rules: rule {rule} ({RULE_NAMES[rule]}) was expected to decide a cell but did not")
    return failures


def _status_word(status: int) -> str:
    return {PASSABLE: "passable", DEADLY: "deadly", WALL: "impassable (wall)",
            PETRIFIED: "impassable (petrified)"}[status]


def summary_line(data: dict[str, Any]) -> str:
    status = "FAILED" if data["expect_failures"] else "ok"
    if data["status"] == "unknown":
        verdict = "unknown (time limit)"
    elif not data["solvable"]:
        verdict = f"unsolvable (proved), corridor of {len(data['corridor'])} cells"
    else:
        uniqueness = "unique shortest walk" if data["unique"] else "several shortest walks"
        corridor = "a simple path" if data["simple_corridor"] else \
            f"{len(data['branches'])} branches, {len(data['dead_ends'])} dead ends"
        verdict = (f"solvable in {data['moves']} moves ({uniqueness}), corridor of "
                   f"{len(data['corridor'])} cells ({corridor})")
    return (f"{status:<7}{data['level']}: {verdict}; {len(data['rules_fired_numbers'])} rules fired  "
            f"[{data['seconds']:.2f}s]")


def _analyse(source: LevelSource, options: CheckOptions):
    book = load_book(source)
    expect = read_expectations(source, book)
    verdict = solve_book(book, timeout=options.timeout)
    return book, verdict, report(source, book, verdict, expect, options.timeout)


def check(source: LevelSource, options: CheckOptions) -> CheckOutcome:
    _book, _verdict, data = _analyse(source, options)
    return CheckOutcome(data, summary_line(data), list(data["expect_failures"]) + ambiguity_lines(data))


def solve(source: LevelSource, options: CheckOptions) -> SolveOutcome:
    book, verdict, data = _analyse(source, options)
    lines = [book.title or source.path, "", summary_line(data), ""]
    if verdict.walk:
        steps = " ".join(f"{page}.{row}.{col}" for page, row, col in verdict.walk)
        lines += [f"Walk ({len(verdict.walk)} cells, page.row.col): {steps}", ""]
        lines += ["Path rules used by the walk: " + (", ".join(data["walk_rules"]) or "none"), ""]
    if verdict.branches or verdict.dead_ends:
        lines.append("Branches: " + (" ".join(f"{p}.{r}.{c}" for p, r, c in verdict.branches) or "none"))
        lines.append("Dead ends: " + (" ".join(f"{p}.{r}.{c}" for p, r, c in verdict.dead_ends) or "none"))
        lines.append("")
    if data["ambiguities"]:
        lines += ambiguity_lines(data) + [""]
    lines.append(MARK_LEGEND)
    lines.append("")
    lines += spread_lines(book, verdict.initial, verdict.walk)
    return SolveOutcome(data, "\n".join(lines))
