"""Routes through a given blocker (the compiled search's `must`, behind GeneratorOracle.route_through, which the
route-first generator asks when it opens a trap) against the brute force, which shares nothing with the
search but the rules: on random small levels, for every enemy that costs life even at the best stats a
player can have, some winning route fights it exactly when some winning signature of the brute force's
full list holds it (a fight that costs life is in the signature), and the route found replays by the
plain rules with that fight in it."""

from __future__ import annotations

import random

import pytest

from twisty.generator.passages_random import random_level
from twisty.rules.passages import fight_damage, replay
from twisty.solver import passages_brute, passages_search
from twisty.solver.passages_verdict import SOLVABLE, Deadline

needs_core = pytest.mark.skipif(
    not passages_search.COMPILED_AVAILABLE, reason="the compiled core is not built (no C compiler at install time)"
)


def costly_enemies(level) -> list[int]:
    """The enemies that cost life at every stats a player of the level can have (at the best, so at all)."""
    atk = level.player.atk + sum(thing.atk for thing in level.things if thing.kind == "equipment")
    defense = level.player.defense + sum(thing.defense for thing in level.things if thing.kind == "equipment")
    out = []
    for number, thing in enumerate(level.things):
        if thing.kind == "enemy":
            assert thing.enemy is not None
            damage = fight_damage(thing.enemy, atk, defense)
            if damage is not None and damage > 0:
                out.append(number)
    return out


def assert_routes_through_agree(first_seed: int, count: int, dive: bool = True) -> int:
    """Over the next `count` solvable random levels: the answers agree with the brute force. Returns how
    many (level, enemy) questions had a route through the enemy."""
    through = 0
    seed = first_seed
    while count:
        seed += 1
        rng = random.Random(seed)
        level = random_level(
            seed,
            cells_wide=rng.randint(3, 5),
            cells_high=rng.randint(3, 4),
            blockers=rng.randint(2, 12),
            items=rng.randint(0, 6),
            loops=rng.choice([0.0, 0.1, 0.3, 0.5]),
            door_share=rng.choice([0.0, 0.25]),
        )
        best = passages_brute.best_route(level, Deadline(None))
        if best.status != SOLVABLE:
            continue
        count -= 1
        every = passages_brute.count_solutions(level, Deadline(None), 100_000, best.final_hp)
        assert every.complete and not every.capped, seed
        fought = set()
        for route in every.witnesses:
            fought |= {obj for obj, _, _ in replay(level, route).signature[1]}
        for obj in costly_enemies(level):
            found = passages_search.generator_oracle.route_through(level, level.player.hp, obj, Deadline(None), dive)
            assert (found is not None) == (obj in fought), (seed, obj)
            if found is not None:
                through += 1
                replayed = replay(level, found[1])
                assert replayed.final_hp == found[0] >= 1, (seed, obj)
                assert ("fight", obj) in found[1], (seed, obj)
    return through


@needs_core
@pytest.mark.parametrize("chunk", range(3))
@pytest.mark.parametrize("dive", [True, False], ids=["dive first", "best first"])
def test_routes_through_an_enemy_agree_with_the_brute_force(chunk, dive):
    """90 random solvable levels of 2 to 12 blockers, every enemy that always costs life; by the dive (which
    answers all of these within its count) and by the best-first search alone."""
    assert assert_routes_through_agree(70_000 + chunk * 1000, 30, dive) > 0


@needs_core
@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(20))
def test_routes_through_an_enemy_agree_with_the_brute_force_on_more_levels(chunk):
    """600 more random solvable levels."""
    assert_routes_through_agree(170_000 + chunk * 1000, 30)
