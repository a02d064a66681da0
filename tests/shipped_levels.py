"""Every shipped level (puzzles/) answered by two engines that share no search code, side by side.

Engine A is the engine that made or first proved the level, asked by name (the default `twisty check` must
also meet the level's [expect]); engine B is the second opinion: for passages the grid engine
(twisty/solver/passages_grid.py: the grid's own cells, never the region graph that the search engine, the
reference engine and CP-SAT all read), for books the SAT engine (the rules as clauses; A is the rule
engine), for Temple rounds the exact search over full states (A is the SAT engine).

tests/test_shipped_levels_second_engine.py asserts that the two agree on every level (under `-m slow`), and
that docs/contributing.md's table, which `python -m tests.shipped_levels` prints, lists every shipped level.
"""

from __future__ import annotations

import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import twisty
from tests.timing import CpuDeadline
from twisty.rules.passages_format import load_passages
from twisty.rules.source import read_level
from twisty.solver import passages_grid
from twisty.solver.book_sat import solve_book_sat
from twisty.solver.passages_verdict import SOLVABLE, UNKNOWN, UNSOLVABLE

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
# CPU seconds per question for engine B (tests/timing.py: CPU, so that the load does not change which
# answers are reached). The grid engine's count (uniqueness) is the costliest question on the large levels
# (70 s on the 60-blocker seed 1) and the one it is not required to settle, so it has less.
LIMIT = 600.0
COUNT_LIMIT = 30.0
# Engine A (the one that made or first proved the levels) and engine B (the second opinion) per game.
FIRST_ENGINE = {"passages": "search", "book": "rules", "temple": "sat"}
SECOND_ENGINE = {"passages": "grid", "book": "sat", "temple": "search"}


def shipped_levels() -> list[Path]:
    return sorted(PUZZLES.rglob("*.toml"))


@dataclass
class Row:
    """One level's answers by both engines, question by question."""

    level: str  # relative to puzzles/
    game: str
    engine_a: str
    engine_b: str
    a: dict[str, Any] = field(default_factory=dict)
    b: dict[str, Any] = field(default_factory=dict)

    @property
    def undecided(self) -> list[str]:
        """The questions engine B did not settle within its limit."""
        return [name for name, value in self.b.items() if value == UNKNOWN]

    @property
    def agree(self) -> bool:
        """Whether B gives A's answer to every question B settled."""
        return all(self.a[name] == value for name, value in self.b.items() if value != UNKNOWN)

    def answers(self) -> str:
        return ", ".join(f"{name} {_shown(value)}" for name, value in self.a.items() if name not in self.undecided)

    def markdown(self) -> str:
        cells = (self.level, self.engine_a, self.engine_b, self.answers(), ", ".join(self.undecided) or "-")
        return "| " + " | ".join(cells) + f" | {'yes' if self.agree else 'NO'} |"


def _shown(value: Any) -> str:
    return (
        {True: "yes", False: "no", None: "?"}.get(value, str(value)) if isinstance(value, bool | None) else str(value)
    )


def confirm(path: Path) -> Row:
    """Both engines' answers on one shipped level. The default check must meet the level's [expect] (an
    AssertionError names the claims that failed); each engine is then asked by name, so that neither
    side changes when the default (auto) engine of a game does."""
    claims = twisty.check(path)
    assert not claims.expect_failures, (path, claims.expect_failures)
    game = claims.to_json()["game"]
    name = str(path.relative_to(PUZZLES))
    data = twisty.check(path, engine=FIRST_ENGINE[game]).to_json()
    if game == "passages":
        return _passages(path, name, data)
    if game == "book":
        return _book(path, name, data)
    other = twisty.check(path, engine=SECOND_ENGINE[game], timeout=LIMIT).to_json()
    engines = (_engine_name(data["engine"]), _engine_name(other["engine"]))
    return Row(name, game, *engines, {f: data[f] for f in _TEMPLE_FIELDS}, {f: other[f] for f in _TEMPLE_FIELDS})


def _book(path: Path, name: str, data: dict[str, Any]) -> Row:
    """The SAT engine's own answers (solve_book_sat: `twisty check --engine sat` would also run the rule
    engine beside it, for the corridor)."""
    sat = solve_book_sat(twisty.load(path).model, deadline=CpuDeadline(LIMIT))
    settled = sat.status != UNKNOWN
    b = {
        "solvable": sat.status == SOLVABLE if settled else UNKNOWN,
        "moves": sat.moves if settled else UNKNOWN,
        "shortest_walks": sat.shortest_walks if settled else UNKNOWN,
        "unique": sat.shortest_walks == 1 if settled and sat.status == SOLVABLE else UNKNOWN,
    }
    if settled and sat.status != SOLVABLE:
        b["unique"] = data["unique"] if data["unique"] in (False, None) else "refuted"
    return Row(name, "book", _engine_name(data["engine"]), "sat", {f: data[f] for f in b}, b)


def _engine_name(engine: Any) -> str:
    return str(engine["best"] if isinstance(engine, dict) else engine)


_TEMPLE_FIELDS = ("solvable", "turns", "unique", "bounce_safe_turns", "pooled_solvable", "pooled_turns")


def _passages(path: Path, name: str, data: dict[str, Any]) -> Row:
    """Engine A's answers (solvable, final hp, least starting hp, solution count and whether capped), and the
    grid engine's: its own best route; the least starting hp by its own search (when A says none) or by
    proving A's value, winning at it and losing one below (winning only gets easier with more life, so the
    two prove the least); the count by its own walk, as far as A counted."""
    level = load_passages(read_level(path))
    engine = _engine_name(data["engine"])
    least = data["min_start_hp"] if data["min_start_hp_status"] == "proved" else data["min_start_hp_status"]
    a = {
        "solvable": data["solvable"],
        "final hp": data["final_hp"] if data["solvable"] else "-",
        "least start hp": least,
        "solutions": data["solutions"],
        "capped": data["solutions_capped"],
    }
    best = passages_grid.best_route(level, CpuDeadline(LIMIT))
    b: dict[str, Any] = {
        "solvable": best.status == SOLVABLE if best.proved else UNKNOWN,
        "final hp": (best.final_hp if best.status == SOLVABLE else "-") if best.proved else UNKNOWN,
        "least start hp": _least_start_hp(level, least),
    }
    cap = max(1, data["solutions"] or 0)
    count = passages_grid.count_solutions(level, CpuDeadline(COUNT_LIMIT), cap, best.final_hp)
    b["solutions"] = count.solutions if count.complete else UNKNOWN
    b["capped"] = count.capped if count.complete else UNKNOWN
    return Row(name, "passages", engine, "grid", a, b)


def _least_start_hp(level: Any, claimed: Any) -> Any:
    """The grid engine's least starting hp: found by its own bisection when A found none, else A's value when
    the grid engine wins with it and loses with one less, "refuted" when not, "unknown" out of time."""
    if not isinstance(claimed, int):
        least = passages_grid.min_start_hp(level, CpuDeadline(LIMIT))
        return least.value if least.status == "proved" else least.status
    wins = passages_grid.best_route(level.with_start_hp(claimed), CpuDeadline(LIMIT)).status
    loses = (
        UNSOLVABLE
        if claimed == 1
        else passages_grid.best_route(level.with_start_hp(claimed - 1), CpuDeadline(LIMIT)).status
    )
    if UNKNOWN in (wins, loses):
        return UNKNOWN
    return claimed if (wins, loses) == (SOLVABLE, UNSOLVABLE) else "refuted"


def main() -> None:
    """Print the table of docs/contributing.md (or the rows of the levels named on the command line), each
    row's CPU seconds on standard error."""
    paths = [Path(arg).resolve() for arg in sys.argv[1:]] or shipped_levels()
    print("| level | engine A | engine B | answers of both | not settled by B | agree |")
    print("|-------|----------|----------|-----------------|------------------|-------|")
    for path in paths:
        started = time.process_time()
        print(confirm(path).markdown(), flush=True)
        print(f"{path.relative_to(PUZZLES)}: {time.process_time() - started:.1f} s of CPU", file=sys.stderr, flush=True)


if __name__ == "__main__":
    main()
