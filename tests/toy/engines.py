"""Lights Out's engine contract, and its first engine: brute force over sets of presses, smallest first.

An engine module has NAME and fewest(board, deadline) -> Fewest: the fewest presses that darken the board
(a set of them, and how many sets of that size there are, counted to 2), UNSOLVABLE proved, or UNKNOWN when
the deadline passed. The checker replays the presses before it believes them.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

from tests.toy.rules import Board, Cell, lit_after
from twisty.checking import Outcome
from twisty.limits import Deadline

NAME = "brute"
# The values of twisty.checking.Outcome, so that a checker reads a status as Outcome(status).
SOLVABLE, UNSOLVABLE, UNKNOWN = (outcome.value for outcome in (Outcome.SOLVABLE, Outcome.UNSOLVABLE, Outcome.UNKNOWN))


@dataclass(frozen=True)
class Fewest:
    status: str
    presses: tuple[Cell, ...] | None = None
    sets_of_that_size: int | None = None  # 1 or 2 (2: at least two)


def fewest(board: Board, deadline: Deadline) -> Fewest:
    cells = board.cells
    for size in range(len(cells) + 1):
        found: list[tuple[Cell, ...]] = []
        for presses in itertools.combinations(cells, size):
            if deadline.expired():
                return Fewest(UNKNOWN)
            if not lit_after(board, presses):
                found.append(presses)
                if len(found) == 2:
                    break
        if found:
            return Fewest(SOLVABLE, found[0], len(found))
    return Fewest(UNSOLVABLE)
