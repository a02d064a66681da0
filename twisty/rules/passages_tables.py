"""Printed damage tables: the enemy stats that reproduce one, found exactly and fast whatever the numbers.

The format lets an enemy be given by the damage table printed in a book instead of its stats: "the stats
are inferred (smallest hp, then atk, then def that reproduce it); a table that no stats reproduce is an
error that names the first wrong entry" (the format notes; docs/passages.md). The rulebook's combat makes
a table a product: at player ATK A and DEF D the life lost is

    hits(A) x max(0, E_atk - D),   hits(A) = ceil(E_hp / (A - E_def)) - 1 (or without the - 1 with first strike)

so the table is one column of hits per ATK row times one row of per-hit damage per DEF column. Nothing here
scans a range of stat values: the enemy's atk is read off the table's cells (two entries of a row fix it,
else it is a column's value plus one of that value's divisors), each atk gives the hits of every row, and
the smallest hp and def for given hits come from a handful of linear inequalities. The work grows with the
table's size and never with its numbers (at most a few thousand candidate atks, by the divisor count of a
number up to 10^9).
"""

from __future__ import annotations

import functools
import math
from typing import Protocol

from twisty.limits import MAX_NUMBER
from twisty.rules.passages import Enemy, table_mismatch

# A printed entry: ("life_lost", row, column) or ("hits", row, 0).
Entry = tuple[str, int, int]


class Clock(Protocol):
    """What the inference needs of the level's Deadline: check() raises LimitReached once it has passed."""

    def check(self) -> None: ...


class _Known:
    """The part of a printed table that is taken as given, per row: its hits (or None), its positive
    entries as distinct (DEF, life lost) pairs, and the lowest DEF among its entries of 0 (or None). That
    is all a row says: a 0 at DEF d means no hits or a per-hit damage of 0 there, and entries of 0 at
    higher DEF follow from the lowest."""

    def __init__(
        self,
        atks: list[int],
        defs: list[int],
        life_lost: list[list[int]],
        hits: list[int] | None,
        order: list[Entry],
        length: int,
    ) -> None:
        self.atks = atks
        self.hits: list[int | None] = [None] * len(atks)
        positive: list[set[tuple[int, int]]] = [set() for _ in atks]
        self.lowest_zero: list[int | None] = [None] * len(atks)
        for kind, i, j in order[:length]:
            if kind == "hits":
                assert hits is not None
                self.hits[i] = hits[i]
            elif life_lost[i][j] > 0:
                positive[i].add((defs[j], life_lost[i][j]))
            else:
                zero = self.lowest_zero[i]
                if zero is None or defs[j] < zero:
                    self.lowest_zero[i] = defs[j]
        self.positive = [sorted(pairs) for pairs in positive]


def infer_enemy_stats(
    atks: list[int],
    defs: list[int],
    life_lost: list[list[int]],
    hits: list[int] | None = None,
    *,
    first_strike: bool = False,
    name: str = "enemy",
    boss: bool = False,
    deadline: Clock | None = None,
    largest: int = MAX_NUMBER,
) -> tuple[Enemy | None, Entry | None]:
    """Stats that reproduce a printed table: the smallest hp, then atk, then def, each at most `largest`
    (the level's number limit). Every ATK printed must be able to harm the enemy (a printed fight
    happens), so its def lies below the smallest ATK.

    Returns (enemy, None) on success, else (None, the first entry no stats reproduce): the entries are
    read row by row, each row's hits (when printed) before its life-lost entries, and the entry named is
    the one after the longest beginning of that order that some stats still reproduce. With `deadline`,
    raises LimitReached once it has passed (the work is bounded by the table's size in any case)."""
    order: list[Entry] = []
    for i in range(len(atks)):
        if hits is not None:
            order.append(("hits", i, 0))
        order.extend(("life_lost", i, j) for j in range(len(defs)))
    if not order:
        return None, ("life_lost", 0, 0)

    def solve(length: int) -> tuple[int, int, int] | None:
        return _smallest_stats(_Known(atks, defs, life_lost, hits, order, length), first_strike, largest, deadline)

    found = solve(len(order))
    if found is not None:
        enemy = Enemy(name, found[0], found[1], found[2], first_strike, boss)
        assert table_mismatch(enemy, atks, defs, life_lost, hits) is None, "inferred stats miss the table"
        return enemy, None
    # Reproducing a beginning of the order gets no easier as it grows, so the longest one is found by halving.
    good, bad = 0, len(order)
    if solve(0) is None:
        return None, order[0]
    while bad - good > 1:
        middle = (good + bad) // 2
        if solve(middle) is None:
            bad = middle
        else:
            good = middle
    return None, order[good]


def _smallest_stats(
    known: _Known, first_strike: bool, largest: int, deadline: Clock | None
) -> tuple[int, int, int] | None:
    """The smallest (hp, atk, def) within `largest` that reproduce the known part of a table, or None."""
    best: tuple[int, int, int] | None = None
    for atk in _candidate_atks(known, largest):
        if deadline is not None:
            deadline.check()
        row_hits = _hits_for_atk(known, atk)
        if row_hits is None:
            continue
        if best is not None and _least_hp(known.atks, row_hits, first_strike) > best[0]:
            continue
        found = _smallest_hp_and_def(known.atks, row_hits, first_strike, largest)
        if found is None:
            continue
        candidate = (found[0], atk, found[1])
        if best is None or candidate < best:
            best = candidate
    return best


def _candidate_atks(known: _Known, largest: int) -> list[int]:
    """Every enemy atk the known entries allow, as a short list taken from the cells (a superset: each is
    checked afterwards). With no positive entry, atk 0 makes every entry 0 and leaves the hits free, so no
    other atk can need less hp: it is the only candidate. A positive entry v at DEF d says the per-hit
    damage E_atk - d divides v; two positive entries of one row at DEF d1 < d2 fix it:
    v1 / v2 = (g + d2 - d1) / g for g = E_atk - d2."""
    positive = [(i, d, v) for i, row in enumerate(known.positive) for d, v in row]
    if not positive:
        return [0]
    for losses in known.positive:
        if len({d for d, _ in losses}) >= 2:
            (d1, v1), (d2, v2) = losses[0], losses[-1]
            if v1 <= v2 or v2 * (d2 - d1) % (v1 - v2):
                return []
            atk = d2 + v2 * (d2 - d1) // (v1 - v2)
            return [atk] if atk <= largest else []
    # Otherwise a row with printed hits fixes the per-hit damage of its positive entry ...
    for i, d, v in positive:
        printed_hits = known.hits[i]
        if printed_hits:
            atk = d + v // printed_hits
            return [atk] if v % printed_hits == 0 and atk <= largest else []
    # ... else it divides every positive entry at that DEF. Largest first: fewer hits, less hp.
    _, d, _ = positive[0]
    common = 0
    for _, other_d, other_v in positive:
        if other_d == d:
            common = math.gcd(common, other_v)
    return [d + g for g in reversed(_divisors(common)) if d + g <= largest]


@functools.lru_cache(maxsize=64)
def _divisors(number: int) -> tuple[int, ...]:
    """The divisors of a positive number, by trial division up to its square root (31,623 steps at 10^9);
    kept, since each beginning of a table tried asks again."""
    small, large = [], []
    for low in range(1, math.isqrt(number) + 1):
        if number % low == 0:
            small.append(low)
            if low * low != number:
                large.append(number // low)
    return tuple(small + large[::-1])


def _hits_for_atk(known: _Known, atk: int) -> list[int | None] | None:
    """The hits each row must take for the enemy to have this atk (None where the row leaves them free),
    or None when the known entries contradict it: an entry at DEF d is hits x max(0, atk - d)."""
    row_hits: list[int | None] = []
    for i, hits in enumerate(known.hits):
        zero = known.lowest_zero[i]
        if zero is not None and zero < atk:  # a 0 where each hit would hurt: no hits in this row
            if hits is None:
                hits = 0
            elif hits != 0:
                return None
        for d, v in known.positive[i]:
            per_hit = atk - d
            if per_hit <= 0 or v % per_hit:
                return None
            if hits is None:
                hits = v // per_hit
            elif hits * per_hit != v:
                return None
        row_hits.append(hits)
    return row_hits


def _least_hp(atks: list[int], row_hits: list[int | None], first_strike: bool) -> int:
    """A lower bound on the hp that gives each row its hits, in one pass: c strikes need more than
    (c - 1)(A - E_def) hp, and E_def < min(atks) (see _smallest_hp_and_def)."""
    floor_def = min(atks) - 1
    return max(
        [
            (hits - (1 if first_strike else 0)) * (atk - floor_def) + 1
            for atk, hits in zip(atks, row_hits, strict=True)
            if hits is not None
        ],
        default=1,
    )


def _smallest_hp_and_def(
    atks: list[int], row_hits: list[int | None], first_strike: bool, largest: int
) -> tuple[int, int] | None:
    """The smallest hp within `largest`, then the smallest def, that give each row its hits, with every
    printed ATK above def; or None.

    A row at ATK A with h hits needs c = h + 1 strikes (h with first strike), and c strikes of A - E_def
    mean (c - 1)(A - E_def) < E_hp <= c (A - E_def). For every pair of rows (i, k) the lower end of i may
    not pass the upper end of k: (c_i - 1)(A_i - E) + 1 <= c_k (A_k - E), which is linear in E = E_def;
    so the defs that work form an interval, found from the pairs. The least hp, max_i (c_i - 1)(A_i - E) + 1,
    only falls as E grows, so it is least at the interval's top; the smallest def with that hp follows
    from the same inequalities."""
    low, high = 0, min(atks) - 1
    # Rows of equal strikes bind through their extremes only: the largest ATK for the lower end of hp,
    # the smallest for the upper end.
    extremes: dict[int, tuple[int, int]] = {}
    for atk, hits in zip(atks, row_hits, strict=True):
        if hits is not None:
            strikes = hits + (0 if first_strike else 1)
            if strikes < 1:
                return None
            least, most = extremes.get(strikes, (atk, atk))
            extremes[strikes] = (min(least, atk), max(most, atk))
    for strikes_i, (_, atk_i) in extremes.items():
        for strikes_k, (atk_k, _) in extremes.items():
            coefficient = strikes_i - 1 - strikes_k
            bound = (strikes_i - 1) * atk_i + 1 - strikes_k * atk_k  # needs bound <= coefficient x E
            if coefficient > 0:
                low = max(low, -(-bound // coefficient))
            elif coefficient < 0:
                high = min(high, bound // coefficient)
            elif bound > 0:
                return None
            if low > high:
                return None
    if low > high:
        return None
    hp = max([(strikes - 1) * (atk - high) + 1 for strikes, (_, atk) in extremes.items()], default=1)
    if hp > largest:
        return None
    defense = max(
        [low]
        + [-(-((strikes - 1) * atk + 1 - hp) // (strikes - 1)) for strikes, (_, atk) in extremes.items() if strikes > 1]
    )
    return hp, defense
