"""The doors-open relaxation (twisty.solver.passages_relax) against the exact engines: on random towers the
relaxed best is never below the real best (and an unwinnable relaxation means an unwinnable tower), and
the answer with the relaxation first is the exact engine's answer. Hand-worked towers show each way the
relaxation settles a tower: a proof of unwinnability, an optimal route followed from the relaxed one, and
a cap on an unproved answer."""

from __future__ import annotations

import pytest

from tests.passages_helpers import level_from_toml
from tests.towers_random import random_tower
from twisty.rules.passages import replay
from twisty.solver import passages_brute, passages_reference, passages_search
from twisty.solver.passages_relax import best_route_relaxed_first, doors_open, repair
from twisty.solver.passages_verdict import SOLVABLE, UNSOLVABLE, BestRoute, Deadline


def _cases(count: int, slow: int = 0) -> list:
    return list(range(count)) + [pytest.param(seed, marks=pytest.mark.slow) for seed in range(count, slow)]


def _tower(seed: int, pieces: int = 0):
    text = random_tower(seed, pieces=pieces)
    return level_from_toml(text, f"tower-{seed}.toml"), text


@pytest.mark.parametrize("seed", _cases(60, 300))
def test_the_relaxed_best_is_never_below_the_real_best(seed):
    """By the brute force (tiny towers), which shares nothing with the relaxation but the rules."""
    level, text = _tower(seed)
    relaxed = doors_open(level)
    if relaxed is None:
        pytest.skip("no door")
    real = passages_brute.best_route(level, Deadline(60))
    bound = passages_brute.best_route(relaxed.level, Deadline(60))
    assert real.status != "unknown" and bound.status != "unknown", text
    if bound.status == UNSOLVABLE:
        assert real.status == UNSOLVABLE, text
    if real.status == SOLVABLE:
        assert bound.final_hp >= real.final_hp, text


@pytest.mark.parametrize("pieces", [0, 6])
@pytest.mark.parametrize("seed", _cases(30, 150))
def test_the_relaxation_first_gives_the_exact_engines_answer(seed, pieces):
    level, text = _tower(seed, pieces)
    if doors_open(level) is None:
        pytest.skip("no door")
    exact = passages_reference.best_route(level, Deadline(60))
    found = best_route_relaxed_first(level, Deadline(60), passages_reference.best_route)
    assert (found.status, found.final_hp, found.proved) == (exact.status, exact.final_hp, exact.proved), text
    if found.decisions is not None:
        assert replay(level, found.decisions).final_hp == found.final_hp, text
    relaxed = doors_open(level)
    assert relaxed is not None
    bound = passages_search.best_route(relaxed.level, Deadline(60))
    if exact.status == SOLVABLE and bound.status == SOLVABLE:
        assert bound.final_hp >= exact.final_hp, text


def test_the_random_towers_have_doors_both_ways():
    """Enough of the random towers have doors, and the relaxation decides some by itself each way."""
    unwinnable = followed = 0
    for seed in range(60):
        level, _ = _tower(seed)
        relaxed = doors_open(level)
        if relaxed is None:
            continue
        bound = passages_reference.best_route(relaxed.level, Deadline(60))
        if bound.status == UNSOLVABLE:
            unwinnable += 1
        elif bound.decisions is not None:
            done = repair(level, relaxed, bound.decisions)
            followed += done is not None and done[0] == bound.final_hp
    assert unwinnable >= 3 and followed >= 20


UNWINNABLE = """
# Even with every door open the dragon (hp 30, atk 20, def 5) takes 10 strikes of 3 and hits back 9 times
# for 20 - 2 = 18: 162 > 100. So the relaxation proves the tower unwinnable without opening a door.
game = "passages"
win = "boss"
map = '''
#########
#S.Y.Y.B#
#.#######
#y#######
#########
'''
[player]
hp = 100
atk = 8
def = 2
[legend]
y = { kind = "key", colour = "yellow" }
Y = { kind = "door", colour = "yellow" }
B = { kind = "enemy", name = "dragon", hp = 30, atk = 20, def = 5, boss = true }
"""

FOLLOWED = """
# Doors open, the best is to take the sword (+4 atk) behind the second door and then fight the dragon:
# atk 12 takes 5 strikes of 7 and 4 hits of 10 = 40: 60 left. In the tower the one key opens the first
# door, the second key lies behind it: the relaxed route is followed with both doors opened. Optimal.
game = "passages"
win = "boss"
map = '''
#########
#S.Y.y.Y/#
#.######.#
#.######B#
#.########
##########
'''
[player]
hp = 100
atk = 8
def = 0
yellow_keys = 1
[legend]
y = { kind = "key", colour = "yellow" }
Y = { kind = "door", colour = "yellow" }
"/" = { kind = "equipment", atk = 4 }
B = { kind = "enemy", name = "dragon", hp = 35, atk = 10, def = 5, boss = true }
"""


def test_the_relaxation_proves_a_tower_unwinnable_and_follows_an_optimal_route():
    level = level_from_toml(UNWINNABLE, "unwinnable.toml")
    calls: list[int] = []

    def engine(asked, deadline):
        calls.append(len(asked.things))
        return passages_reference.best_route(asked, deadline)

    assert best_route_relaxed_first(level, Deadline(30), engine) == BestRoute(UNSOLVABLE, proved=True)
    assert calls == [1]  # only the relaxed level (the dragon alone) was searched
    level = level_from_toml(FOLLOWED, "followed.toml")
    calls.clear()
    found = best_route_relaxed_first(level, Deadline(30), engine)
    assert (found.status, found.final_hp, found.proved) == (SOLVABLE, 60, True)
    assert calls == [2]
    assert [action for action, _ in found.decisions] == ["open", "open", "goal"]
    assert replay(level, found.decisions).final_hp == 60


def test_an_unproved_answer_carries_the_relaxed_best_as_its_cap():
    """The tower above with its second key made an elixir of 1 hp: the second door stays shut, so the
    relaxed route (61: the elixir, the sword, the dragon) cannot be followed. The exact engine is stopped at
    once (it answers unknown); the relaxed best is the cap."""
    no_key = FOLLOWED.replace('y = { kind = "key", colour = "yellow" }', 'y = { kind = "elixir", hp = 1 }')
    level = level_from_toml(no_key, "no-key.toml")

    def engine(asked, deadline):
        if len(asked.things) == len(level.things):
            return BestRoute("unknown")
        return passages_reference.best_route(asked, deadline)

    found = best_route_relaxed_first(level, Deadline(30), engine)
    assert (found.status, found.at_most) == ("unknown", 61)
