"""Lights Out's generator (the registry's `generator`): a board whose fewest presses are exactly `presses`
and unique, made by pressing a dark board and kept only when the verifying engine agrees."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from tests.toy.engines import SOLVABLE
from tests.toy.rules import DARK, LIT, MAX_SIDE, Board, board_text, lit_after
from twisty.errors import GenerationError, UsageError
from twisty.limits import Deadline


@dataclass(frozen=True)
class Made:
    text: str


def generate_from(params: Mapping[str, Any], seed: int, deadline: Deadline, engine: ModuleType) -> Made:
    rows, _, cols = str(params.get("size", "3x3")).partition("x")
    if not (rows.isdigit() and cols.isdigit() and 1 <= int(rows) <= MAX_SIDE and 1 <= int(cols) <= MAX_SIDE):
        raise UsageError(f'size is "ROWSxCOLS" of 1 to {MAX_SIDE}, not {params.get("size")!r}')
    height, width = int(rows), int(cols)
    presses = params.get("presses", 3)
    if not 1 <= presses <= height * width:
        raise UsageError(f"presses is 1 to {height * width} on a {height}x{width} board, not {presses}")
    chance = random.Random(seed)
    cells = [(r, c) for r in range(height) for c in range(width)]
    dark = Board("", tuple(DARK * width for _ in range(height)))
    while not deadline.expired():
        lit = lit_after(dark, chance.sample(cells, presses))
        rows_made = tuple("".join(LIT if (r, c) in lit else DARK for c in range(width)) for r in range(height))
        board = Board(f"seed {seed}", rows_made)
        answer = engine.fewest(board, deadline)
        if answer.status == SOLVABLE and len(answer.presses) == presses and answer.sets_of_that_size == 1:
            expect = {"solvable": True, "presses": presses, "unique": True}
            return Made(board_text(Board(board.name, rows_made, expect)))
    raise GenerationError(f"seed {seed}: no board with a unique {presses}-press solution within the time limit")
