"""Inferring enemy stats from a printed damage table: exact, and as fast for numbers of 10^9 as for 3.

The reference is a plain scan of every (hp, atk, def) in ranges that provably hold the answer for these
small tables (hp <= (largest entry + 2) x largest ATK, atk <= largest DEF + largest entry + 1, def below the
smallest ATK): the smallest stats that reproduce the whole table, else the longest beginning of the
entries (row by row, hits before life lost) that some stats reproduce.
"""

from __future__ import annotations

import random

import pytest

from twisty.errors import LimitReached
from twisty.limits import Deadline
from twisty.rules.passages import Enemy, fight_damage, hits_received
from twisty.rules.passages_tables import infer_enemy_stats


def scanned(atks, defs, life_lost, hits, first_strike):
    order = []
    for i in range(len(atks)):
        order += [("hits", i, 0)] if hits is not None else []
        order += [("life_lost", i, j) for j in range(len(defs))]
    top = max([v for row in life_lost for v in row] + (hits or [0]))
    smallest, longest = None, -1
    for hp in range(1, (top + 2) * max(atks) + 2):
        for atk in range(0, max(defs) + top + 2):
            for defense in range(0, min(atks)):
                enemy = Enemy("x", hp, atk, defense, first_strike)
                length = 0
                for kind, i, j in order:
                    printed = hits[i] if kind == "hits" else life_lost[i][j]
                    given = hits_received(enemy, atks[i]) if kind == "hits" else fight_damage(enemy, atks[i], defs[j])
                    if given != printed:
                        break
                    length += 1
                if length == len(order) and smallest is None:
                    smallest = (hp, atk, defense)
                longest = max(longest, length)
    return (smallest, None) if smallest else (None, order[longest])


def inferred(atks, defs, life_lost, hits=None, first_strike=False, **options):
    enemy, wrong = infer_enemy_stats(atks, defs, life_lost, hits, first_strike=first_strike, **options)
    return ((enemy.hp, enemy.atk, enemy.defense), None) if enemy else (None, wrong)


def random_table(rng: random.Random):
    """The table of a random small enemy, with one entry (or one hit) changed in most of them."""
    first_strike = rng.random() < 0.3
    enemy = Enemy("x", rng.randint(1, 12), rng.randint(0, 8), rng.randint(0, 3), first_strike)
    atks = sorted(rng.sample(range(enemy.defense + 1, enemy.defense + 8), rng.randint(1, 3)))
    defs = sorted(rng.sample(range(0, 8), rng.randint(1, 3)))
    life_lost = [[fight_damage(enemy, a, d) for d in defs] for a in atks]
    hits = [hits_received(enemy, a) for a in atks] if rng.random() < 0.3 else None
    if rng.random() < 0.6:
        i, j = rng.randrange(len(atks)), rng.randrange(len(defs))
        life_lost[i][j] = max(0, life_lost[i][j] + rng.choice([-2, -1, 1, 2, 5]))
    if hits is not None and rng.random() < 0.3:
        i = rng.randrange(len(atks))
        hits[i] = max(0, hits[i] + rng.choice([-1, 1]))
    if rng.random() < 0.3:
        atks = [a + rng.randint(0, 3) for a in atks]  # ATKs the enemy may not be able to match
    return atks, defs, life_lost, hits, first_strike


def test_inference_agrees_with_a_scan_of_every_stat_on_random_tables():
    rng = random.Random("printed tables")
    outcomes = {"inferred": 0, "refused": 0}
    for _ in range(150):
        atks, defs, life_lost, hits, first_strike = random_table(rng)
        expected = scanned(atks, defs, life_lost, hits, first_strike)
        assert inferred(atks, defs, life_lost, hits, first_strike) == expected, (atks, defs, life_lost, hits)
        outcomes["inferred" if expected[0] else "refused"] += 1
    assert min(outcomes.values()) >= 30  # both outcomes well exercised


def test_the_rulebook_table_and_its_typo():
    # The rulebook's enemy: hp 3, atk 3, def 0 (ATK 1 -> 2 hits, 6/4/2; ATK 2 -> 1 hit, 3/2/1).
    assert inferred([1, 2], [0, 1, 2], [[6, 4, 2], [3, 2, 1]]) == ((3, 3, 0), None)
    # With 5 for 1 at ATK 2, DEF 2 the loss would grow with DEF: that entry is named.
    assert inferred([1, 2], [0, 1, 2], [[6, 4, 2], [3, 2, 5]]) == (None, ("life_lost", 1, 2))


def test_a_wrong_hits_entry_is_named_as_such():
    # hits at ATK 2 must be 1 for the rulebook enemy (3 hp, 2 strikes); 2 hits cannot give 3/2/1.
    assert inferred([1, 2], [0, 1, 2], [[6, 4, 2], [3, 2, 1]], hits=[2, 2]) == (None, ("hits", 1, 0))


def test_large_numbers_are_inferred_exactly():
    # Enemy hp 10^9, atk 10^9, def 10^9 - 10 against ATK 10^9 - 5 (5 a strike: 2 * 10^8 strikes) and
    # ATK 10^9 (10 a strike: 10^8 strikes); DEF 0 and 5.
    hp, atk, defense = 10**9, 10**9, 10**9 - 10
    enemy = Enemy("x", hp, atk, defense)
    atks, defs = [10**9 - 5, 10**9], [0, 5]
    table = [[fight_damage(enemy, a, d) for d in defs] for a in atks]
    assert table == [
        [(2 * 10**8 - 1) * 10**9, (2 * 10**8 - 1) * (10**9 - 5)],
        [(10**8 - 1) * 10**9, (10**8 - 1) * (10**9 - 5)],
    ]
    found, wrong = infer_enemy_stats(atks, defs, table)
    assert wrong is None
    # The smallest stats: 2 * 10^8 strikes of A - E at A = 10^9 - 5 and 10^8 at 10^9 leave E = 10^9 - 10
    # as the only def, and hp is then more than (2 * 10^8 - 1) * 5, so the smallest is that + 1.
    assert (found.hp, found.atk, found.defense) == ((2 * 10**8 - 1) * 5 + 1, atk, defense)
    table[1][1] += 1
    assert infer_enemy_stats(atks, defs, table) == (None, ("life_lost", 1, 1))


def test_a_huge_atk_is_matched_by_the_largest_def():
    # One hit of 10 at ATK 10^9, DEF 0: per-hit damage 10 (atk 10) over one hit (two strikes) is the
    # smallest hp (2) when each strike deals 1, that is def 10^9 - 1. (atk 5 needs 2 hits: 3 strikes.)
    assert inferred([10**9], [0], [[10]]) == ((2, 10, 10**9 - 1), None)
    # Within a limit of 1 no stats do: the entry is named.
    assert inferred([10**9], [0], [[10]], largest=1) == (None, ("life_lost", 0, 0))


def test_hits_that_need_more_than_the_number_limit_of_hp_are_refused():
    # 10^9 hits at ATK 10^9 are 10^9 + 1 strikes of at least 1 each: hp over 10^9, beyond what a level
    # may hold. The hits entry itself is the one no stats within the limit reproduce.
    assert inferred([10**9], [0], [[10**9]], hits=[10**9]) == (None, ("hits", 0, 0))
    assert inferred([10**9], [0], [[10**9]], hits=[10**9], largest=10**9 + 1) == ((10**9 + 1, 1, 10**9 - 1), None)


def test_a_table_with_many_candidate_attacks_polls_the_deadline():
    # One DEF column of 735,134,400 (1,344 divisors, each a candidate enemy atk): an expired deadline stops it.
    with pytest.raises(LimitReached):
        infer_enemy_stats([1, 2, 3], [0], [[735134400]] * 3, deadline=Deadline(0))
