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
from twisty.solver import passages_brute, passages_reference, passages_relax, passages_search
from twisty.solver.passages_relax import best_route_relaxed_first, doors_open, repair, strongest_hero_cap
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
# for 20 - 2 = 18: 162 > 100. So the strongest hero's count proves the tower unwinnable without a search.
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


EITHER_WAY = """
# Either guard (hp 20, atk 80, def 0: 2 strikes of 10, 1 hit of 80) must be fought to reach the dragon (hp 20,
# atk 20: 1 hit of 20): 100 - 80 - 20 = 0, dead. Neither guard alone is on every way, but one of them is on
# each way: the strongest hero's count of the least chain of fights gives 100 - 80 - 20 = 0 by itself.
game = "passages"
win = "boss"
map = '''
#########
#S.Y.a.B#
#.#####.#
#y..b...#
#########
'''
[player]
hp = 100
atk = 10
def = 0
[legend]
y = { kind = "key", colour = "yellow" }
Y = { kind = "door", colour = "yellow" }
a = { kind = "enemy", name = "guard", hp = 20, atk = 80, def = 0 }
b = { kind = "enemy", name = "guard", hp = 20, atk = 80, def = 0 }
B = { kind = "enemy", name = "dragon", hp = 20, atk = 20, def = 0, boss = true }
"""

SHIELD_BEYOND = (
    EITHER_WAY.replace("#S.Y.a.B#", "#S.Y.a.B[#")
    .replace("#.#####.#", "#.#####.##")
    .replace("#y..b...#", "#y..b...##")
    .replace("#########", "##########")
    .replace("[legend]", '[legend]\n"[" = { kind = "equipment", def = 80 }')
)
# The same with a shield of +80 def beyond the dragon, where no route reaches it (the fight that wins ends
# the route). The count holds the hero with the shield: every fight then costs 0, cap 100. The relaxation
# (the door open) still needs a guard (80) and the dragon (20): 0 left, unwinnable.


def test_the_count_and_the_relaxation_prove_towers_unwinnable_and_an_optimal_route_is_followed():
    level = level_from_toml(UNWINNABLE, "unwinnable.toml")
    calls: list[int] = []

    def engine(asked, deadline):
        calls.append(len(asked.things))
        return passages_reference.best_route(asked, deadline)

    assert best_route_relaxed_first(level, Deadline(30), engine) == BestRoute(UNSOLVABLE, proved=True)
    assert calls == []  # the count alone
    assert strongest_hero_cap(level) == 100 - 162
    level = level_from_toml(EITHER_WAY, "either-way.toml")
    assert strongest_hero_cap(level) == 0
    assert best_route_relaxed_first(level, Deadline(30), engine) == BestRoute(UNSOLVABLE, proved=True)
    assert calls == []  # the count alone, by the chain of fights
    level = level_from_toml(SHIELD_BEYOND, "shield-beyond.toml")
    assert strongest_hero_cap(level) == 100
    assert best_route_relaxed_first(level, Deadline(30), engine) == BestRoute(UNSOLVABLE, proved=True)
    assert calls == [4]  # only the relaxed level (the guards, the shield and the dragon) was searched
    calls.clear()
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


@pytest.mark.parametrize("seed", _cases(60, 300))
def test_the_strongest_heros_count_is_never_below_the_real_best(seed):
    """By the brute force: the count's cap is at least the best final hp, and a cap of 0 or less comes only
    with an unwinnable tower."""
    level, text = _tower(seed)
    cap = strongest_hero_cap(level)
    real = passages_brute.best_route(level, Deadline(60))
    assert real.status != "unknown", text
    if cap is not None and cap <= 0:
        assert real.status == UNSOLVABLE, text
    if real.status == SOLVABLE and cap is not None:
        assert cap >= real.final_hp, text


def test_the_count_decides_some_random_towers():
    """It is not idle: of the first 60 random towers, some are proved unwinnable by the count alone, and
    its cap is exact (the best route fights only the unavoidable) on some winnable ones."""
    unwinnable = exact = 0
    for seed in range(60):
        level, _ = _tower(seed)
        cap = strongest_hero_cap(level)
        if cap is None:
            continue
        unwinnable += cap <= 0
        real = passages_brute.best_route(level, Deadline(60))
        exact += real.status == SOLVABLE and real.final_hp == cap
    assert unwinnable >= 3 and exact >= 3


@pytest.mark.parametrize("seed", _cases(30, 150))
def test_the_chain_count_is_never_looser_than_the_unavoidable_fights(seed, monkeypatch):
    """The least chain of fights holds every unavoidable enemy, so its cap is at most the count of those
    alone (the count past MAX_WAY_SPLITS splits, forced here by making that limit 0)."""
    level, text = _tower(seed)
    chain = strongest_hero_cap(level)
    monkeypatch.setattr(passages_relax, "MAX_WAY_SPLITS", 0)
    unavoidable = strongest_hero_cap(level)
    assert (chain is None) == (unavoidable is None), text
    if chain is not None and unavoidable is not None:
        assert chain <= max(unavoidable, 0), text


def _door_colours(level) -> list[str]:
    return sorted({thing.colour for thing in level.things if thing.kind == "door"})


@pytest.mark.parametrize("seed", _cases(40, 200))
def test_a_colour_kept_shut_never_relaxes_below_the_real_best(seed):
    """Every door open but one colour's (that colour's doors and keys kept): by the brute force, the
    relaxed best is never below the real one, and unwinnable relaxed means unwinnable."""
    level, text = _tower(seed)
    colours = _door_colours(level)
    if len(colours) < 2:
        pytest.skip("fewer than two door colours")
    real = passages_brute.best_route(level, Deadline(60))
    assert real.status != "unknown", text
    for kept in colours:
        relaxed = doors_open(level, frozenset(colours) - {kept})
        assert relaxed is not None
        bound = passages_brute.best_route(relaxed.level, Deadline(60))
        assert bound.status != "unknown", text
        if bound.status == UNSOLVABLE:
            assert real.status == UNSOLVABLE, (kept, text)
        if real.status == SOLVABLE:
            assert bound.final_hp >= real.final_hp, (kept, text)


BLUE_SHORT = """
# One blue key for two blue doors on the only way to the dragon: unwinnable. With every door open the
# dragon (one strike, no hit back) leaves all 100 hp; with the yellow doors open and the blue ones kept
# (blue has fewer keys than doors; yellow has enough) the relaxation proves it unwinnable.
game = "passages"
win = "boss"
map = '''
############
#S.y.Y.bBBD#
############
'''
[player]
hp = 100
atk = 10
def = 0
[legend]
y = { kind = "key", colour = "yellow" }
Y = { kind = "door", colour = "yellow" }
b = { kind = "key", colour = "blue" }
B = { kind = "door", colour = "blue" }
D = { kind = "enemy", name = "dragon", hp = 10, atk = 10, def = 0, boss = true }
"""


def test_a_scarce_colour_kept_shut_proves_a_tower_unwinnable():
    level = level_from_toml(BLUE_SHORT, "blue-short.toml")
    calls: list[int] = []

    def engine(asked, deadline):
        calls.append(len(asked.things))
        return passages_reference.best_route(asked, deadline)

    assert strongest_hero_cap(level) == 100
    assert best_route_relaxed_first(level, Deadline(30), engine) == BestRoute(UNSOLVABLE, proved=True)
    assert calls == [1, 4]  # every door open (the dragon), then the blue kept (its key, doors and the dragon)
    assert passages_brute.best_route(level, Deadline(30)).status == UNSOLVABLE
