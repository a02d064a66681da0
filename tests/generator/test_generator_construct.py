"""Route-first shaping (twisty/generator/passages_construct.py) and the oracle question it rests on.

The oracle's `others` (the counting engine's witnesses against one route being the only solution) is checked
against brute force's full list of winning signatures; the levels route-first shaping makes are checked by
brute force (tight and unique) and for reproducibility; the strengthening it uses never makes a fight
cheaper, by the rules' own damage function."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from twisty.generator.passages import PassagesParams, generate_level
from twisty.generator.passages_bestiary import stronger_enemy
from twisty.generator.passages_random import random_level
from twisty.rules.passages import Enemy, fight_damage, replay
from twisty.solver import passages_brute as brute
from twisty.solver import passages_search as search
from twisty.solver.passages_verdict import SOLVABLE, Deadline


def solvable_level(seed: int):
    """The first random level of seeds seed, seed + 40, seed + 80, ... that some route wins (about 3 in 4
    do), with brute force's winning signatures: every one of the 40 cases asserts."""
    for candidate in range(seed, seed + 40 * 20, 40):
        level = random_level(candidate, cells_wide=3, cells_high=3, blockers=7, items=4)
        wins = brute.winning_signatures(level, Deadline(None), canonical=True)
        if wins:
            return level, wins
    raise AssertionError(f"no solvable level in 20 draws from seed {seed}")


@pytest.mark.parametrize("seed", range(40))
def test_others_are_every_other_winning_signature_by_brute_force(seed):
    level, wins = solvable_level(seed)
    # The route whose signature is taken as known: the brute-force winner with the least final life.
    known_signature, (_, route) = min(wins.items(), key=lambda item: (item[1][0], repr(item[0])))
    found = search.generator_oracle.others(level, level.player.hp, route, 100, Deadline(None))
    signatures = [replay(level, decisions).signature for _, decisions in found]
    assert len(signatures) == len(set(signatures))
    assert set(signatures) == set(wins) - {known_signature}
    for final_hp, decisions in found:
        assert replay(level, decisions).final_hp == final_hp >= 1
    # A cap stops the walk early, with witnesses of the same kind.
    capped = search.generator_oracle.others(level, level.player.hp, route, 1, Deadline(None))
    assert len(capped) == min(1, len(wins) - 1)


ROUTE_CASES = [(PassagesParams(5, 5, 10, "medium", "route"), seed) for seed in range(4)] + [
    (PassagesParams(6, 5, 14, "hard", "route"), seed) for seed in range(2)
]


@pytest.mark.parametrize(
    "params,seed", ROUTE_CASES, ids=[f"{p.width}x{p.height}-{p.blockers}-{p.difficulty}-{s}" for p, s in ROUTE_CASES]
)
def test_route_first_levels_are_tight_and_unique_by_brute_force(params, seed):
    made = generate_level(params, seed, search, Deadline(None))
    level = made.level
    best = brute.best_route(level, Deadline(None))
    assert best.status == SOLVABLE and best.final_hp == 1
    count = brute.count_solutions(level, Deadline(None), 5, 1)
    assert count.complete and count.solutions == 1
    assert replay(level, made.route).final_hp == 1
    assert brute.best_route(level.with_start_hp(level.player.hp - 1), Deadline(None)).status == "unsolvable"
    assert "--method route" in made.text
    # The same seed makes the same bytes.
    assert generate_level(params, seed, search, Deadline(None)).text == made.text


def test_the_route_method_needs_an_engine_with_an_oracle():
    from twisty.errors import UsageError

    with pytest.raises(UsageError, match="route-first"):
        generate_level(PassagesParams(5, 5, 10, "medium", "route"), 1, brute, Deadline(None))


@pytest.mark.parametrize("seed", range(30))
def test_a_stronger_enemy_never_makes_a_fight_cheaper(seed):
    rng = random.Random(seed)
    enemy = Enemy("Orc", rng.randint(1, 30), rng.randint(1, 12), rng.randint(0, 5), rng.random() < 0.3, False)
    atk, defense = rng.randint(1, 12), rng.randint(0, 8)
    now = fight_damage(enemy, atk, defense)
    wanted = (0 if now is None else now) + rng.randint(1, 10)

    def costs_enough(candidate: Enemy) -> bool:
        paid = fight_damage(candidate, atk, defense)
        return paid is None or paid >= wanted

    stronger = stronger_enemy(enemy, costs_enough)
    assert stronger is not None  # (each of these 30 wants at most 10 more damage: always within reach)
    assert costs_enough(stronger)
    assert stronger.hp >= enemy.hp and stronger.atk >= enemy.atk and stronger.defense >= enemy.defense
    for other_atk in range(1, 14):
        for other_def in range(0, 10):
            before, after = fight_damage(enemy, other_atk, other_def), fight_damage(stronger, other_atk, other_def)
            if before is None:
                assert after is None  # what no one could beat stays so
            elif after is not None:
                assert after >= before


def _costs_and_pays_the_same(
    atk: int, defense: int, wanted: int, my_atk: int, my_defense: int, mine: int | None
) -> Callable[[Enemy], bool]:
    """What remove_witness asks of a candidate: it costs (atk, def) at least `wanted` (or cannot be beaten by
    it), and (my_atk, my_def) exactly `mine`."""

    def accept(candidate: Enemy) -> bool:
        paid = fight_damage(candidate, atk, defense)
        return (paid is None or paid >= wanted) and fight_damage(candidate, my_atk, my_defense) == mine

    return accept


@pytest.mark.parametrize("seed", range(20))
def test_the_checks_on_the_numbers_give_the_strengthening_the_candidates_give(seed):
    """stronger_enemy told in numbers what its acceptance asks (it costs one player at least so much, and
    another exactly what it did, as remove_witness asks) gives the enemy that asking each candidate alone
    gives, over 25 questions per seed, a quarter of them about an enemy with first strike, asked twice; and
    told only the cost, with spans as wide as the boss's, the same as asking each candidate."""
    rng = random.Random(seed)
    found = 0
    for _ in range(25):
        enemy = Enemy("Orc", rng.randint(1, 30), rng.randint(1, 12), rng.randint(0, 5), rng.random() < 0.25, False)
        atk, defense = rng.randint(1, 12), rng.randint(0, 8)
        my_atk, my_defense = rng.randint(1, 12), rng.randint(0, 8)
        now = fight_damage(enemy, atk, defense)
        wanted = (0 if now is None else now) + rng.randint(1, 12)
        mine = fight_damage(enemy, my_atk, my_defense)

        accept = _costs_and_pays_the_same(atk, defense, wanted, my_atk, my_defense, mine)
        alone = stronger_enemy(enemy, accept)
        for _ in range(2):
            told = stronger_enemy(
                enemy, accept, costs_at_least=(atk, defense, wanted), pays_exactly=(my_atk, my_defense, mine)
            )
            assert told == alone, (seed, enemy, atk, defense, my_atk, my_defense, wanted)
        found += alone is not None
        # As the boss's strengthening asks (the cost alone, an enemy it must be able to harm, wide spans).
        spans = dict(hp_span=rng.randint(1, 40), atk_span=rng.randint(0, 30), def_span=rng.randint(0, 3))

        def costs(candidate: Enemy, wanted: int = wanted, atk: int = atk, defense: int = defense) -> bool:
            paid = fight_damage(candidate, atk, defense)
            return paid is not None and paid >= wanted

        expected = stronger_enemy(enemy, costs, **spans)
        assert stronger_enemy(enemy, costs, **spans, costs_at_least=(atk, defense, wanted)) == expected, seed
    assert 0 < found < 25  # (some questions have an answer and some none: both ways are compared)
