"""Twisted Tunnels benchmark: exact Clash odds from twisty and from icepool, checked equal, then timed.

icepool does not know the Clash, so its side is written with its own primitives: a MultisetEvaluator that
reads a pool of d6 face by face and keeps the best (face x count, fewest dice) pair, giving a Die of
(score, hits); then `icepool.map` over the two sides' dice applies the winner and wound rules. Every
pool's (score, hits) distribution and every Clash's outcome distribution (winner and wounds) must match
exactly, or the run stops. Both sides are timed cold (twisty's caches cleared, a fresh icepool evaluator),
best of --repeat runs.

    twisty bench tunnels [--json] [--repeat N]

icepool is a benchmark-only dependency: pip install icepool (or the extra: pip install 'twisty[bench]').
"""

from __future__ import annotations

import time
from collections.abc import Callable
from fractions import Fraction
from functools import partial
from typing import Any, TypeVar

from twisty.rules import tunnels

Result = TypeVar("Result")

CASES = [(1, 1), (3, 2), (5, 5), (8, 6), (10, 10), (15, 15), (20, 20), (20, 21), (24, 24)]


def twisty_clash(a_dice: int, b_dice: int) -> dict[tuple[str, int], Fraction]:
    odds = tunnels.clash(tunnels.ClashSide(a_dice), tunnels.ClashSide(b_dice))
    result = {("a", w): p for w, p in odds.wounds_dealt_by_a.items()}
    result.update({("b", w): p for w, p in odds.wounds_dealt_by_b.items()})
    if odds.indecisive:
        result[("indecisive", 0)] = odds.indecisive
    return result


def icepool_functions():
    """(pool, clash) computed by icepool: a pool of n d6 as a Die of (score, hits); a Clash as outcomes."""
    import icepool

    class ScoreAndHits(icepool.MultisetEvaluator):
        """Rule: score = the highest single die or sum of dice showing one number; the face using the fewest
        dice on a tie; hits = dice not in the score."""

        def next_state(self, state, order, outcome, count):
            best_sum, used = state or (0, 0)
            total = outcome * count
            if count and (total > best_sum or (total == best_sum and count < used)):
                return total, count
            return best_sum, used

        def final_outcome(self, final_state, order, outcomes, size):
            best_sum, used = final_state or (0, 0)
            return best_sum, size - used

    def pool(dice: int):
        return ScoreAndHits().evaluate(icepool.d6.pool(dice))

    def clash(a_dice: int, b_dice: int) -> dict[tuple[str, int], Fraction]:
        def judge(a, b):
            (score_a, hits_a), (score_b, hits_b) = a, b
            key_a, key_b = (score_a, hits_a, -a_dice), (score_b, hits_b, -b_dice)
            if key_a > key_b:
                return "a", max(1, hits_a - hits_b)
            if key_b > key_a:
                return "b", max(1, hits_b - hits_a)
            return "indecisive", 0

        return as_fractions(icepool.map(judge, pool(a_dice), pool(b_dice), star=False))

    return pool, clash


def as_fractions(die) -> dict:
    denominator = die.denominator()
    return {outcome: Fraction(quantity, denominator) for outcome, quantity in die.items()}


def best_time(run: Callable[[], Result], repeat: int, reset: Callable[[], None]) -> tuple[float, Result]:
    fastest = float("inf")
    for _ in range(repeat):
        reset()
        start = time.perf_counter()
        result = run()
        fastest = min(fastest, time.perf_counter() - start)
    return fastest, result  # repeat >= 1


def reset_twisty() -> None:
    for cache in (tunnels.pool_outcomes, tunnels._half_multisets, tunnels._clash_core):
        cache.cache_clear()


def run(repeat: int) -> list[dict[str, Any]]:
    icepool_pool, icepool_clash = icepool_functions()
    for dice in sorted({n for case in CASES for n in case}):
        if tunnels.pool_outcomes(dice).distribution() != as_fractions(icepool_pool(dice)):
            raise AssertionError(f"{dice} dice: twisty and icepool disagree on (score, hits)")
    # One untimed Clash each first, so neither side is charged for first-call costs of its modules.
    twisty_clash(2, 2)
    icepool_clash(2, 2)
    rows = []
    for a_dice, b_dice in CASES:
        twisty_seconds, ours = best_time(partial(twisty_clash, a_dice, b_dice), repeat, reset_twisty)
        icepool_seconds, theirs = best_time(partial(icepool_clash, a_dice, b_dice), repeat, lambda: None)
        if ours != theirs:
            raise AssertionError(f"{a_dice}v{b_dice}: twisty and icepool disagree")
        a_wins = sum((p for (side, _), p in ours.items() if side == "a"), Fraction(0))
        rows.append(
            {
                "a_dice": a_dice,
                "b_dice": b_dice,
                "agree": True,
                "outcomes": len(ours),
                "a_wins_float": float(a_wins),
                "twisty_seconds": twisty_seconds,
                "icepool_seconds": icepool_seconds,
                "speedup": icepool_seconds / twisty_seconds,
            }
        )
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    header = ("clash", "outcomes", "P(a wins)", "twisty ms", "icepool ms", "icepool/twisty", "exact match")
    lines = [header] + [
        (
            f"{r['a_dice']}v{r['b_dice']}",
            str(r["outcomes"]),
            f"{r['a_wins_float']:.6f}",
            f"{r['twisty_seconds'] * 1000:.2f}",
            f"{r['icepool_seconds'] * 1000:.2f}",
            f"{r['speedup']:.1f}x",
            "yes" if r["agree"] else "NO",
        )
        for r in rows
    ]
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    out = ["  ".join(cell.rjust(width) for cell, width in zip(line, widths, strict=False)) for line in lines]
    out.insert(1, "  ".join("-" * width for width in widths))
    return "\n".join(out)


def icepool_version() -> str | None:
    """icepool's version, or None when it is not installed."""
    try:
        import icepool
    except ImportError:
        return None
    return str(icepool.__version__)
