"""The reference engine on towers against the brute force, which shares nothing with it but the rules: the
brute force walks the grid, tries every purchase at every moment it is allowed (the reference engine buys as
soon as it can) and never fights a free monster early. Random tiny towers: one or two floors, keys and
doors of colours, gems, potions, monsters with specials and money, a shop, sometimes a boss that wins."""

from __future__ import annotations

import pytest

from tests.towers_random import random_tower
from twisty.rules.passages import replay
from twisty.rules.passages_format import load_passages
from twisty.rules.source import parse_level_bytes
from twisty.solver import passages_brute, passages_reference
from twisty.solver.passages_verdict import Deadline


def _level(seed: int):
    text = random_tower(seed)
    return load_passages(parse_level_bytes(text.encode(), f"tower-{seed}.toml")), text


def _cases(count: int, slow: int = 0) -> list:
    """Seeds 0..count-1, then seeds up to `slow` that run only with -m slow."""
    return list(range(count)) + [pytest.param(seed, marks=pytest.mark.slow) for seed in range(count, slow)]


@pytest.mark.parametrize("seed", _cases(40, 200))
def test_reference_matches_the_brute_force_on_random_towers(seed):
    level, text = _level(seed)
    reference = passages_reference.best_route(level, Deadline(60))
    brute = passages_brute.best_route(level, Deadline(60))
    assert reference.status == brute.status, text
    assert reference.final_hp == brute.final_hp, text
    for answer in (reference, brute):
        if answer.decisions is not None:
            assert replay(level, answer.decisions).final_hp == answer.final_hp
    least = passages_reference.min_start_hp(level, Deadline(60))
    assert least.status != "unknown", text
    # The brute force's bisection tries each starting hp by enumeration: only its decided answers count.
    by_brute = passages_brute.min_start_hp(level, Deadline(10))
    assert by_brute.status == "unknown" or least == by_brute, text
    counted = passages_reference.count_solutions(level, Deadline(60), 50, reference.final_hp)
    enumerated = passages_brute.count_solutions(level, Deadline(30), 50, brute.final_hp)
    assert counted.complete, text
    if enumerated.complete:  # (the enumeration tries every purchase at every moment: it may run out of time)
        assert (counted.solutions, counted.optimal, counted.capped) == (
            enumerated.solutions,
            enumerated.optimal,
            enumerated.capped,
        ), text


def test_the_random_towers_cover_the_features():
    seen = set()
    for seed in range(40):
        seen |= _level(seed)[0].features
    assert seen >= {"floors", "colours", "mdef", "money", "shop", "specials", "drain", "boss", "optional items"}
