"""Lights Out's checker (the registry's `checker`): check(level, options) -> verdict and solve_text(verdict),
on the shared engine contract (twisty.checking.VerdictBase for what every verdict derives, twisty.claims for
the [expect] claims, the registry for the engine)."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from tests.toy.engines import SOLVABLE
from tests.toy.rules import Board, Cell, lit_after
from twisty.checking import CheckOptions, Outcome, VerdictBase, summary_start
from twisty.claims import Claims
from twisty.errors import EngineBug
from twisty.games import GAMES
from twisty.rules.level import Level

CLAIM_QUESTIONS = {"solvable": "presses", "presses": "presses", "unique": "unique"}


@dataclass(frozen=True, repr=False)
class LightsVerdict(VerdictBase):
    board: Board
    path: str
    outcome: Outcome
    presses: tuple[Cell, ...] | None
    unique: bool | None
    engine: str
    questions: frozenset[str]
    seconds: float
    limit: str
    expect_failures: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "level": self.path,
            "game": "lights",
            "name": self.board.name,
            "valid": True,
            "errors": [],
            "solvable": self.solvable,
            "presses": None if self.presses is None else len(self.presses),
            "pressed": None if self.presses is None else [list(cell) for cell in self.presses],
            "unique": self.unique,
            "engine": self.engine,
            "questions": sorted(self.questions),
            "limit": self.limit,
            "seconds": round(self.seconds, 3),
            "expected_solvable": self.board.expect.get("solvable"),
            "expect_failures": list(self.expect_failures),
        }

    def summary(self) -> str:
        data = self.to_json()
        if self.solvable is None:
            said = f"unknown ({self.limit} limit)"
        elif not self.solvable:
            said = "cannot be darkened (proved)"
        else:
            said = f"dark after {data['presses']} presses ({'unique' if self.unique else 'not unique'})"
        return f"{summary_start(data)}{said}  [{self.engine}]"

    def details(self) -> list[str]:
        return list(self.expect_failures)


def check(level: Level, options: CheckOptions) -> LightsVerdict:
    started = time.perf_counter()
    board: Board = level.model
    game = GAMES["lights"]
    engine = game.checking_engine(options.engine)
    asked = frozenset(game.question_names) if options.questions is None else options.questions
    answer = engine.load().fewest(board, options.deadline)
    if answer.status == SOLVABLE and (answer.presses is None or lit_after(board, answer.presses)):
        raise EngineBug(f"engine {engine.name} reported presses that leave lights lit")
    presses = answer.presses if answer.status == SOLVABLE else None
    unique = None
    if "unique" in asked and answer.status != "unknown":
        unique = answer.status == SOLVABLE and answer.sets_of_that_size == 1
    fields: dict[str, Any] = dict(
        board=board,
        path=level.path,
        outcome=Outcome(answer.status),  # an engine's statuses are the values of Outcome
        presses=presses,
        unique=unique,
        engine=engine.name,
        questions=asked,
        seconds=time.perf_counter() - started,
        limit=options.deadline.cap,
    )
    data = LightsVerdict(**fields).to_json()
    claims = Claims(asked=asked, within=f"{data['limit']} limit", questions=CLAIM_QUESTIONS)
    decided = data["solvable"] is not None
    claims.compare("solvable", board.expect.get("solvable"), data["solvable"], decided=decided)
    claims.compare(
        "presses", board.expect.get("presses"), data["presses"], decided=decided, none_means="it cannot be darkened"
    )
    claims.compare("unique", board.expect.get("unique"), data["unique"], decided=data["unique"] is not None)
    return LightsVerdict(**fields, expect_failures=tuple(claims.failures))


def solve_text(verdict: LightsVerdict) -> str:
    lines = [verdict.board.name or verdict.path, "", verdict.summary()]
    if verdict.presses is not None:
        pressed = set(verdict.presses)
        lines += ["", "Press the lights marked *:"]
        lines += [
            "  " + "".join("*" if (r, c) in pressed else char for c, char in enumerate(row))
            for r, row in enumerate(verdict.board.rows)
        ]
    return "\n".join(lines)
