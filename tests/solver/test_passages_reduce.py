"""The exact reduction of twisty.solver.passages_reduce: fights that never cost anything are taken out of a
tower before its best route is searched, and the route found is followed back in the tower. On random
towers the reduced tower's best is the tower's (the reference engine on both), and the route given back
replays in the tower with that hp; a hand-made tower of 150 free monsters shows what it is for."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.passages_helpers import level_from_toml
from tests.towers_random import random_tower
from twisty.rules.passages import replay
from twisty.solver import passages, passages_reference
from twisty.solver.passages_reduce import free_fights_removed, restore
from twisty.solver.passages_search import SearchGraph, fits
from twisty.solver.passages_verdict import Deadline


def _cases(count: int, slow: int = 0) -> list:
    return list(range(count)) + [pytest.param(seed, marks=pytest.mark.slow) for seed in range(count, slow)]


def _tower(seed: int, pieces: int):
    """A random tower whose hero has 4 more def than drawn: more of its monsters never cost anything."""
    level = level_from_toml(random_tower(seed, pieces=pieces), f"tower-{seed}.toml")
    return replace(level, player=replace(level.player, defense=level.player.defense + 4))


@pytest.mark.parametrize("pieces", [0, 6])
@pytest.mark.parametrize("seed", _cases(150, 600))
def test_the_reduced_tower_has_the_towers_best_route(seed, pieces):
    level = _tower(seed, pieces)
    reduced = free_fights_removed(level)
    if reduced is None:
        pytest.skip("no fight that never costs anything")
    exact = passages_reference.best_route(level, Deadline(60))
    found = passages_reference.best_route(reduced.level, Deadline(60))
    assert (found.status, found.final_hp) == (exact.status, exact.final_hp), random_tower(seed, pieces=pieces)
    if found.decisions is not None:
        back = restore(level, reduced, found.decisions)
        assert replay(level, back).final_hp == exact.final_hp


def test_the_random_towers_have_free_fights():
    reduced = [free_fights_removed(_tower(seed, 6)) for seed in range(60)]
    assert sum(r is not None for r in reduced) >= 10


def _many_slimes() -> str:
    """Two floors of 75 slimes each (hp 10, atk 5: the hero's def 5 takes nothing from them) around the
    stair, a gem of +2 atk behind them, and a dragon (hp 100, atk 30, def 8) whose defeat wins."""
    row = "#" + "a" * 15 + "#"
    first = ["#" * 17, "#S" + "." * 14 + "#", *[row] * 5, "#" + "." * 14 + ">#", "#" * 17]
    second = ["#" * 17, "#<" + "." * 14 + "#", *[row] * 5, "#" + "." * 13 + "/B#", "#" * 17]
    return "\n".join(
        [
            'game = "passages"',
            'win = "boss"',
            "[player]",
            "hp = 200",
            "atk = 10",
            "def = 5",
            "[legend]",
            'a = { kind = "enemy", name = "slime", hp = 10, atk = 5, def = 0, money = 1 }',
            '"/" = { kind = "equipment", atk = 2 }',
            'B = { kind = "enemy", name = "dragon", hp = 100, atk = 30, def = 8, boss = true }',
            '">" = { kind = "stairs", direction = "up" }',
            '"<" = { kind = "stairs", direction = "down" }',
            '[[floor]]\nname = "1"\nmap = """',
            *first,
            '"""\n[[floor]]\nname = "2"\nmap = """',
            *second,
            '"""',
        ]
    )


def test_a_tower_of_free_fights_fits_the_compiled_core_once_reduced():
    """150 blockers: more than the compiled core's 128, until the 150 slimes, which never cost anything, are
    taken out; then the search engine answers. By hand: the gem (atk 12) lies behind the last row of slimes,
    next to the dragon, which takes 25 strikes of 4 and hits back 24 times for 30 - 5 = 25: 600 > 200, so
    the tower cannot be won (without the gem, 49 hits of 25). With the dragon's atk 13 instead, 24 x 8 =
    192: 8 left, every slime fought for nothing on the way."""
    text = _many_slimes()
    level = level_from_toml(text, "slimes.toml")
    assert len(level.blockers()) == 150 and not fits(SearchGraph(level, 200), 200)
    reduced = free_fights_removed(level)
    assert reduced is not None and len(reduced.removed) == 150
    assert fits(SearchGraph(reduced.level, 200), 200)
    analysis = passages.analyse(level, Deadline(60), questions=frozenset({"route"}))
    assert (analysis.best.status, analysis.engines["best"]) == ("unsolvable", "search")
    level = level_from_toml(text.replace("atk = 30, def = 8", "atk = 13, def = 8"), "slimes.toml")
    analysis = passages.analyse(level, Deadline(60), questions=frozenset({"route"}))
    assert (analysis.best.status, analysis.best.final_hp, analysis.best.proved) == ("solvable", 8, True)
    assert analysis.route is not None and analysis.route.final_hp == 8
    fights = [step for step in analysis.route.steps if step.action == "fight"]
    assert all(step.damage == 0 for step in fights[:-1]) and fights[-1].damage == 192
