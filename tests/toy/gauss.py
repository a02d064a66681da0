"""Lights Out's second engine: the presses as a linear system over GF(2) (each light's final state is the
sum of its start and the presses that toggle it), solved by elimination; the fewest presses is the lightest
of the particular solution plus each combination of the null space's basis."""

from __future__ import annotations

import itertools

from tests.toy.engines import SOLVABLE, UNKNOWN, UNSOLVABLE, Fewest
from tests.toy.rules import Board
from twisty.limits import Deadline

NAME = "gauss"


def fewest(board: Board, deadline: Deadline) -> Fewest:
    cells = board.cells
    count = len(cells)
    lit = board.lit()
    # Row i: the presses that toggle light i (bit j: press j), and whether light i starts lit (bit count).
    rows = []
    for light in cells:
        mask = sum(1 << j for j, press in enumerate(cells) if light in board.toggled_by(press))
        rows.append(mask | ((1 << count) if light in lit else 0))
    pivots: list[int] = []
    rank = 0
    for column in range(count):
        pivot = next((i for i in range(rank, len(rows)) if rows[i] >> column & 1), None)
        if pivot is None:
            continue
        rows[rank], rows[pivot] = rows[pivot], rows[rank]
        for i in range(len(rows)):
            if i != rank and rows[i] >> column & 1:
                rows[i] ^= rows[rank]
        pivots.append(column)
        rank += 1
    if any(row == 1 << count for row in rows[rank:]):
        return Fewest(UNSOLVABLE)  # 0 = 1: no set of presses darkens the board
    free = [column for column in range(count) if column not in pivots]
    best: list[int] = []
    for choice in itertools.product((0, 1), repeat=len(free)):
        if deadline.expired():
            return Fewest(UNKNOWN)
        x = sum(bit << column for bit, column in zip(choice, free, strict=True))
        for i, column in enumerate(pivots):
            parity = bin(rows[i] & x & ~(1 << column)).count("1") & 1
            if (rows[i] >> count & 1) ^ parity:
                x |= 1 << column
        best.append(x)
    lightest = min(bin(x).count("1") for x in best)
    chosen = [x for x in best if bin(x).count("1") == lightest]
    presses = tuple(cells[j] for j in range(count) if chosen[0] >> j & 1)
    return Fewest(SOLVABLE, presses, min(len(chosen), 2))
