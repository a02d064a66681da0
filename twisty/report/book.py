"""`twisty check` and `twisty solve` for Read These Before You Die books: verdict, expectations, report.

One deadline per level (`CheckOptions.deadline`, made before the file was read) covers loading (the first
evaluation of the book), the walk search and the three other readings of the ambiguity lint. An answer a cap
left undecided is `null` in the JSON and "unknown" in the text, with the cap named; a claim about it fails.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from twisty.checking import CheckOptions, Outcome, VerdictBase, summary_start
from twisty.claims import Claims
from twisty.errors import did_you_mean
from twisty.games.book import GAME
from twisty.limits import Deadline
from twisty.render.book import MARK_LEGEND, spread_lines
from twisty.rules.book.contents import RULE_NAMES
from twisty.rules.book.evaluation import DEADLY, PASSABLE, PETRIFIED, WALL, Evaluation
from twisty.rules.book.loader import MAX_LIST_ITEMS
from twisty.rules.book.model import Book
from twisty.rules.book.topology import Cell
from twisty.rules.level import Level
from twisty.rules.source import LevelSource, unknown_key_error
from twisty.solver.book import BookAnalysis, border, reading_differences, resume_corridor

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


def read_expectations(source: LevelSource, book: Book | None) -> BookExpectations:
    """The [expect] claims; `book` None (not evaluated within the deadline) skips checking that cells lie in
    it, everything else is still checked."""
    table = source.data.get("expect", {})
    expect = BookExpectations()
    if not isinstance(table, dict):
        raise source.error("[expect] must be a table", key="expect")
    known = set(_FLAG_CLAIMS) | set(_CELL_CLAIMS) | {"moves", "rules"}
    for key, value in table.items():

        def error(message: str, key: str = key):
            return source.error(message, table="expect", key=key)

        if key not in known:
            raise unknown_key_error(source, key, known, table="expect")
        if isinstance(value, list) and len(value) > MAX_LIST_ITEMS:
            raise error(f"[expect] {key} lists {len(value):,} entries; a list may hold at most {MAX_LIST_ITEMS:,}")
        if key in _FLAG_CLAIMS:
            if not isinstance(value, bool):
                raise error(f"[expect] {key} must be true or false, not {value!r:.40}")
            expect.flags[key] = value
        elif key == "moves":
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise error(f"[expect] moves must be a whole number, not {value!r:.40}")
            expect.moves = value
        elif key == "rules":
            if not isinstance(value, list):
                raise error("[expect] rules must be a list of rule numbers or names")
            by_name = {name.lower(): number for number, name in RULE_NAMES.items()}
            for rule in value:
                number = (
                    rule
                    if isinstance(rule, int) and not isinstance(rule, bool)
                    else by_name.get(rule.lower())
                    if isinstance(rule, str)
                    else None
                )
                if number not in RULE_NAMES:
                    hint = did_you_mean(rule, RULE_NAMES.values()) if isinstance(rule, str) else ""
                    raise error(f"[expect] rules: {rule!r:.40} is not a rule number (1-27) or name{hint}")
                expect.rules.append(number)
        else:
            if not isinstance(value, list):
                raise error(f"[expect] {key} must be a list of [page, row, col] cells")
            cells = []
            for item in value:
                if (
                    not isinstance(item, list)
                    or len(item) != 3
                    or any(isinstance(part, bool) or not isinstance(part, int) for part in item)
                    or (book is not None and not book.shape.contains(tuple(item)))
                ):
                    raise error(f"[expect] {key}: {item!r:.40} is not a cell [page, row, col] of this book")
                cells.append((item[0], item[1], item[2]))
            expect.cells[key] = cells
    return expect


def report(
    source: LevelSource,
    book: Book,
    verdict: BookAnalysis,
    expect: BookExpectations,
    deadline: Deadline | None = None,
    readings: bool = True,
) -> dict[str, Any]:
    """The JSON object of `check --json` for a book (keys listed in docs/book.md). The ambiguity lint's
    readings share `deadline` with everything before them."""

    def cells_or_none(cells: list[Cell] | None) -> list[list[int]] | None:
        return None if cells is None else [list(cell) for cell in cells]

    # The readings first, then the corridor with the time they leave (docs/book.md, "Unknown answers").
    differences = reading_differences(book, verdict, deadline=deadline) if readings else []
    resume_corridor(verdict, deadline)
    data: dict[str, Any] = {
        "level": source.path,
        "game": "book",
        "title": book.title,
        "valid": True,
        "errors": [],
        "status": verdict.status,
        "cap": verdict.cap,
        "undecided": verdict.undecided(),
        "solvable": verdict.solvable,
        "walk": [list(cell) for cell in verdict.walk],
        "moves": verdict.moves,
        "corridor": cells_or_none(verdict.corridor),
        "unique": verdict.unique,
        "shortest_walks": verdict.shortest_walks,
        "simple_corridor": verdict.simple_corridor,
        "branches": cells_or_none(verdict.branches),
        "dead_ends": cells_or_none(verdict.dead_ends),
        "rules_fired": verdict.rule_names(verdict.rules_fired),
        "rules_fired_numbers": sorted(verdict.rules_fired),
        "walk_rules": verdict.rule_names(verdict.walk_rules),
        "border": [{"cell": list(cell), "status": status, "why": why} for cell, status, why in border(verdict)],
        "pages": [book.shape.first_page, book.shape.last_page],
        "walkers": verdict.walkers,
        "evaluations": verdict.evaluations,
    }
    data["ambiguities"] = [
        {
            "reading": difference.reading,
            "cells": cells_or_none(difference.cells),
            "solvable": difference.solvable,
            "moves": difference.moves,
            "cap": difference.cap,
        }
        for difference in differences
    ]
    data["expect_failures"] = expectation_failures(book, verdict, expect, data)
    data["seconds"] = round(deadline.elapsed() if deadline is not None else verdict.seconds, 3)
    return data


def unevaluated_report(
    source: LevelSource, expect: BookExpectations, cap: str, deadline: Deadline | None
) -> dict[str, Any]:
    """The JSON object for a book whose first evaluation a cap stopped: every answer is unknown."""
    data: dict[str, Any] = {
        "level": source.path,
        "game": "book",
        "title": source.data.get("title", ""),
        "valid": True,
        "errors": [],
        "status": "unknown",
        "cap": cap,
        "undecided": [
            "evaluation",
            "solvable",
            "moves",
            "unique",
            "shortest_walks",
            "corridor",
            "simple_corridor",
            "branches",
            "dead_ends",
            "ambiguities",
        ],
        "solvable": None,
        "walk": [],
        "moves": None,
        "corridor": None,
        "unique": None,
        "shortest_walks": None,
        "simple_corridor": None,
        "branches": None,
        "dead_ends": None,
        "rules_fired": [],
        "rules_fired_numbers": [],
        "walk_rules": [],
        "border": [],
        "pages": None,
        "walkers": 0,
        "evaluations": 0,
        "ambiguities": [],
    }
    claims = [
        *expect.flags,
        *(["moves"] if expect.moves is not None else []),
        *expect.cells,
        *(["rules"] if expect.rules else []),
    ]
    data["expect_failures"] = [
        f"{key}: could not be decided within the {cap} (the book was not evaluated)" for key in claims
    ]
    data["seconds"] = round(deadline.elapsed(), 3) if deadline is not None else 0.0
    return data


def ambiguity_lines(data: dict[str, Any]) -> list[str]:
    """Warnings (not failures) for each other reading of the rulebook under which the answer changes, and a
    note for each reading a cap left uncompared."""
    lines = []
    for difference in data["ambiguities"]:
        cells = difference["cells"] or []
        shown = " ".join(f"{p}.{r}.{c}" for p, r, c in cells[:12])
        more = f" and {len(cells) - 12} more" if len(cells) > 12 else ""
        if difference["cap"] is not None:
            changed = f"; {len(cells)} cells change ({shown}{more})" if cells else ""
            lines.append(
                f"note: the reading {difference['reading']} could not be compared within the "
                f"{difference['cap']}{changed}"
            )
            continue
        walk = "no walk" if not difference["solvable"] else f"a walk of {difference['moves']} moves"
        lines.append(
            f"warning: under the reading {difference['reading']}, {len(cells)} cells "
            f"change ({shown}{more}) and the book has {walk}"
        )
    return lines


def expectation_failures(
    book: Book, verdict: BookAnalysis, expect: BookExpectations, data: dict[str, Any]
) -> list[str]:
    """Each claim that does not hold, or that a cap left undecided (it fails, naming the cap; twisty.claims)."""
    claims = Claims(asked=data.get("questions", ()), within=str(verdict.cap))
    for key, claimed in expect.flags.items():
        claims.compare(key, claimed, data[key], decided=data[key] is not None)
    if expect.moves is not None and data["moves"] != expect.moves:
        if verdict.status == "unknown":
            claims.undecided("moves", expect.moves, "the shortest walk")
        elif data["moves"] is None:
            claims.fail("moves", expect.moves, "there is no walk to the exit")
        else:
            claims.fail("moves", expect.moves, f"the shortest walk takes {data['moves']}")
    failures = claims.failures
    undecided = f"could not be decided within the {verdict.cap}"
    for key, cells in expect.cells.items():
        which, statuses, meaning = _CELL_CLAIMS[key]
        evaluation: Evaluation | None = verdict.initial if which == "initial" else verdict.final
        if evaluation is None:
            if verdict.status == "unknown":
                failures.append(f"{key}: no walk was found and the book's state {undecided}")
            else:
                failures.append(f"{key}: there is no walk to the exit, so no final state to check")
            continue
        for cell in cells:
            index = book.shape.index(cell)
            if evaluation.status[index] not in statuses:
                chain = "; ".join(evaluation.chain(index)) or "no rule decides it"
                failures.append(
                    f"{key}: {list(cell)} should be {meaning} but is {_status_word(evaluation.status[index])} ({chain})"
                )
    for rule in expect.rules:
        if rule in verdict.rules_fired:
            continue
        if verdict.complete:
            failures.append(f"rules: rule {rule} ({RULE_NAMES[rule]}) was expected to decide a cell but did not")
        else:
            failures.append(
                f"rules: whether rule {rule} ({RULE_NAMES[rule]}) decides a cell {undecided} "
                f"(it decided none before the search stopped)"
            )
    return failures


def _status_word(status: int) -> str:
    return {PASSABLE: "passable", DEADLY: "deadly", WALL: "impassable (wall)", PETRIFIED: "impassable (petrified)"}[
        status
    ]


def summary_line(data: dict[str, Any]) -> str:
    cap = data.get("cap")
    if data["status"] == "unknown":
        stage = "the book was evaluated" if "evaluation" in data["undecided"] else "a walk was found"
        verdict = f"unknown ({cap} reached before {stage})"
    elif not data["solvable"]:
        known = data["corridor"] is not None
        corridor = f"corridor of {len(data['corridor'])} cells" if known else f"corridor unknown ({cap} reached)"
        verdict = f"unsolvable (proved), {corridor}"
    else:
        uniqueness = (
            "uniqueness unknown"
            if data["unique"] is None
            else "unique shortest walk"
            if data["unique"]
            else "several shortest walks"
        )
        if data["corridor"] is None:
            corridor = f"corridor unknown ({cap} reached)"
        else:
            shape = (
                "a simple path"
                if data["simple_corridor"]
                else f"{len(data['branches'])} branches, {len(data['dead_ends'])} dead ends"
            )
            corridor = f"corridor of {len(data['corridor'])} cells ({shape})"
        verdict = f"solvable in {data['moves']} moves ({uniqueness}), {corridor}"
    fired = len(data["rules_fired_numbers"])
    # The corridor may be decided before every walker was met (then the rules fired are those met so far).
    rules = (
        f"at least {fired} rules fired ({cap} reached)"
        if "rules_fired" in data["undecided"]
        else f"{fired} rules fired"
    )
    return f"{summary_start(data)}{verdict}; {rules}  [{data['seconds']:.2f}s]"


@dataclass(frozen=True, repr=False)
class BookVerdict(VerdictBase):
    """What twisty says of one book: whether a walk crosses it and the shortest one (replayed by the path
    rules), the corridor and its shape, uniqueness, the rules that decided cells, the other readings under
    which the answer changes, and the [expect] claims that fail. What a cap stopped is None, and `cap`
    names the cap. `to_json()` is the object `check --json` prints (keys in docs/book.md)."""

    path: str
    book: Book | None  # None when the book could not even be evaluated within the deadline
    analysis: BookAnalysis | None
    data: Mapping[str, Any] = field(repr=False)

    @property
    def outcome(self) -> Outcome:
        return Outcome.of(self.data["solvable"])

    @property
    def walk(self) -> list[Cell]:
        return [(page, row, col) for page, row, col in self.data["walk"]]

    @property
    def moves(self) -> int | None:
        return self.data["moves"]

    @property
    def unique(self) -> bool | None:
        return self.data["unique"]

    @property
    def simple_corridor(self) -> bool | None:
        return self.data["simple_corridor"]

    @property
    def cap(self) -> str | None:
        return self.data["cap"]

    @property
    def expect_failures(self) -> tuple[str, ...]:
        return tuple(self.data["expect_failures"])

    def to_json(self) -> dict[str, Any]:
        return copy.deepcopy(dict(self.data))

    def summary(self) -> str:
        return summary_line(self.to_json())

    def details(self) -> list[str]:
        data = self.to_json()
        return list(data["expect_failures"]) + ambiguity_lines(data)


# A book whose first evaluation the deadline stopped is answered here, every answer unknown (twisty.api).
CHECKS_UNLOADED = True


def check(level: Level, options: CheckOptions) -> BookVerdict:
    """The book's verdict within the level's one deadline (loading has happened within it too). When the
    deadline passed while the book was first evaluated, there is no model (level.stopped_by names the cap)
    and every answer is unknown."""
    source, deadline = level.source, options.deadline
    asked = {"walk", "readings"} if options.questions is None else set(options.questions) & {"walk", "readings"}
    engine = GAME.checking_engine(options.engine)
    if level.stopped_by is not None:
        data = unevaluated_report(source, read_expectations(source, None), level.stopped_by, deadline)
        data["engine"] = engine.name
        return BookVerdict(level.path, None, None, _finish(data, source, asked))
    book: Book = level.model
    expect = read_expectations(source, book)
    analysis = engine.load().analyse(book, deadline=deadline)
    data = report(source, book, analysis, expect, deadline, readings="readings" in asked)
    data["engine"] = engine.name
    return BookVerdict(level.path, book, analysis, _finish(data, source, asked))


def _finish(data: dict[str, Any], source: LevelSource, asked: set[str]) -> Mapping[str, Any]:
    expect = source.data.get("expect")
    data["expected_solvable"] = expect.get("solvable") if isinstance(expect, dict) else None
    title = source.data.get("title")
    data.setdefault("name", title if isinstance(title, str) else "")  # every game's record names its level
    data["questions"] = sorted(asked | {"walk"})
    return MappingProxyType(data)


def solve_text(verdict: BookVerdict) -> str:
    """What `twisty solve` prints for a book: the summary, the walk, the shape of the corridor, what a cap
    left unknown, the other readings, and each spread drawn with the walk."""
    book, analysis, data = verdict.book, verdict.analysis, verdict.to_json()
    lines = [(book.title if book is not None else "") or verdict.path, "", summary_line(data), ""]
    if analysis is not None and analysis.walk:
        steps = " ".join(f"{page}.{row}.{col}" for page, row, col in analysis.walk)
        lines += [f"Walk ({len(analysis.walk)} cells, page.row.col): {steps}", ""]
        lines += ["Path rules used by the walk: " + (", ".join(data["walk_rules"]) or "none"), ""]
    if analysis is not None and (analysis.branches or analysis.dead_ends):
        lines.append("Branches: " + (" ".join(f"{p}.{r}.{c}" for p, r, c in analysis.branches or []) or "none"))
        lines.append("Dead ends: " + (" ".join(f"{p}.{r}.{c}" for p, r, c in analysis.dead_ends or []) or "none"))
        lines.append("")
    if data["undecided"]:
        lines += [f"Unknown ({data['cap']} reached): {', '.join(data['undecided'])}", ""]
    if data["ambiguities"]:
        lines += ambiguity_lines(data) + [""]
    if book is not None and analysis is not None and analysis.initial is not None:
        lines.append(MARK_LEGEND)
        lines.append("")
        lines += spread_lines(book, analysis.initial, analysis.walk)
    return "\n".join(lines)
