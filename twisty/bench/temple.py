"""Temple Twist benchmark: rounds of the base game on the standard temple (4 players, the 12 start cards),
answered by every engine of the registry, the answers checked equal, the times measured.

    twisty bench temple [--json] [--repeat N] [--timeout SECONDS]

Each engine is timed twice per round: on "win" and "unique" (the fewest turns and the uniqueness proof),
and on every question. Each run has its own deadline; the fastest of --repeat runs counts (a run that
reaches the deadline is not repeated: its answers stay unknown). The engines must agree on every answer both
decide.
"""

from __future__ import annotations

import time
from contextlib import closing
from typing import Any

from twisty.batch import HERE, Lost, Progress, Tasks, Where, map_tasks
from twisty.games import GAMES
from twisty.limits import Deadline
from twisty.rules.source import parse_level_bytes
from twisty.rules.temple.loader import load_round
from twisty.rules.temple.model import Round
from twisty.solver.temple_portfolio import TempleAnalysis, analyse_with

# The rulebook's first game as puzzles/temple/01-first-game.toml has it: the pink door down, the first game's
# walls, two rooms revealed, the 12 start cards (two of each) dealt to four players.
FIRST_GAME = """
game = "temple"
name = "The first game"
revealed = ["crypt", "jade"]
door = "pink"
hands = [
    ["turn2", "turn1", "turnAny"],
    ["wall2", "wall2", "turnAny"],
    ["wall1", "turn2", "move"],
    ["move", "wall1", "turn1"],
]
"""
# Another deal of the same cards, with the blue door and two other rooms: a longer round, not unique.
SECOND_DEAL = """
game = "temple"
name = "Another deal"
revealed = ["fate", "jade"]
door = "blue"
hands = [
    ["turn1", "turn2", "wall1"],
    ["turnAny", "wall2", "move"],
    ["turn1", "turn2", "wall1"],
    ["turnAny", "wall2", "move"],
]
"""
CASES = (("first game", FIRST_GAME), ("another deal", SECOND_DEAL))
QUESTION_SETS = (("win+unique", frozenset({"win", "unique"})), ("all", None))


def bench_round(text: str) -> Round:
    return load_round(parse_level_bytes(text.encode("utf-8"), "<bench>"))


def answers(analysis: TempleAnalysis) -> dict[str, Any]:
    return {
        "solvable": analysis.solvable,
        "turns": analysis.turns,
        "unique": analysis.unique,
        "bounce_safe": analysis.bounce_safe,
        "bounce_safe_turns": analysis.bounce_safe_turns,
        "pooled_solvable": analysis.pooled_solvable,
        "pooled_turns": analysis.pooled_turns,
    }


# Each answer and the answer that says whether it was decided (None: unknown).
DECIDED_BY = {
    "solvable": "solvable",
    "turns": "solvable",
    "unique": "unique",
    "bounce_safe": "bounce_safe",
    "bounce_safe_turns": "bounce_safe",
    "pooled_solvable": "pooled_solvable",
    "pooled_turns": "pooled_solvable",
}


def run(
    repeat: int = 3,
    timeout: float = 60.0,
    cases: tuple[tuple[str, str], ...] | None = None,
    where: Where = HERE,
    progress: Progress | None = None,
) -> tuple[list[dict[str, Any]], list[str]]:
    """One row per round (CASES unless given), engine and question set: the answers and the fastest time;
    and the rounds a cluster lost, with the reason. A round is one task (here or on a cluster: `where`),
    its engines timed one after the other in one process. Raises AssertionError when two engines disagree
    on a round."""
    chosen = [(case, text, repeat, timeout) for case, text in (CASES if cases is None else cases)]
    rows: list[dict[str, Any]] = []
    lost: list[str] = []
    with closing(map_tasks(Tasks(bench_case, chosen, "bench-temple", len(chosen)), where, progress)) as answers:
        for (case, *_), result in zip(chosen, answers, strict=True):
            if isinstance(result, Lost):
                lost.append(f"{case}: not run: {result.reason}")
            else:
                rows += result
    return rows, lost


def bench_case(case_job: tuple[str, str, int, float]) -> list[dict[str, Any]]:
    """The rows of one round (its name and file text, the runs per engine, the seconds per run)."""
    case, text, repeat, timeout = case_job
    game = GAMES["temple"]
    rows = []
    round_ = bench_round(text)
    found: dict[str, dict[str, Any]] = {}
    for engine in game.engines:
        module = engine.load()
        for label, questions in QUESTION_SETS:
            fastest = float("inf")
            analysis = None
            for _ in range(repeat):
                deadline = Deadline(timeout)
                started = time.perf_counter()
                analysis = analyse_with(round_, deadline, module, questions=questions)
                fastest = min(fastest, time.perf_counter() - started)
                if deadline.expired():
                    break
            assert analysis is not None
            result = answers(analysis)
            if label == "all":
                found[engine.name] = result
            rows.append(
                {
                    "round": case,
                    "players": round_.players,
                    "cards": round_.card_total(),
                    "engine": engine.name,
                    "questions": label,
                    **result,
                    "seconds": fastest,
                }
            )
    for key, decider in DECIDED_BY.items():
        decided = {result[key] for result in found.values() if result[decider] is not None}
        if len(decided) > 1:
            raise AssertionError(f"{case}: the engines disagree on {key}: {found}")
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    header = ("round", "engine", "questions", "turns", "unique", "bounce-safe", "pooled", "seconds")

    def shown(value: Any, decided: Any = True) -> str:
        if decided is None:
            return "?"
        return "-" if value is None else "yes" if value is True else "no" if value is False else str(value)

    lines = [header] + [
        (
            row["round"],
            row["engine"],
            row["questions"],
            shown(row["turns"], row["solvable"]),
            shown(row["unique"], row["unique"]),
            shown(row["bounce_safe_turns"], row["bounce_safe"]) if row["questions"] == "all" else "",
            shown(row["pooled_turns"], row["pooled_solvable"]) if row["questions"] == "all" else "",
            f"{row['seconds']:.3f}",
        )
        for row in rows
    ]
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    out = ["  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)).rstrip() for line in lines]
    out.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(out)
