"""The reference engine on towers against the brute force, which shares nothing with it but the rules: the
brute force walks the grid, tries every purchase at every moment it is allowed (the reference engine buys as
soon as it can) and never fights a free monster early. Random tiny towers: one or two floors, keys and
doors of colours, gems, potions, monsters with specials and money, a shop, sometimes a boss that wins."""

from __future__ import annotations

import random

import pytest

from twisty.rules.passages import replay
from twisty.rules.passages_format import load_passages
from twisty.rules.source import parse_level_bytes
from twisty.solver import passages_brute, passages_reference
from twisty.solver.passages_verdict import Deadline

SPECIALS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 22]


def random_tower(seed: int) -> str:
    """A tiny random tower as a level file: at most 6 doors and monsters, so the brute force stays quick."""
    rng = random.Random(seed)
    floors = rng.choice([1, 1, 2])
    boss = rng.random() < 0.4
    shop = rng.random() < 0.4
    width, height = rng.randint(4, 6), rng.randint(3, 4)
    legend = {
        "y": '{ kind = "key", colour = "yellow" }',
        "Y": '{ kind = "door", colour = "yellow" }',
        "g": '{ kind = "key", colour = "green" }',
        "D": '{ kind = "door", colour = "green" }',
        "+": f'{{ kind = "elixir", hp = {rng.randint(1, 20)} }}',
        "/": f'{{ kind = "equipment", atk = {rng.randint(1, 3)} }}',
        "]": f'{{ kind = "equipment", def = {rng.randint(1, 3)} }}',
        "!": f'{{ kind = "equipment", mdef = {rng.randint(1, 5)} }}',
        "$": '{ kind = "shop" }',
        "u": '{ kind = "stairs", direction = "up" }',
        "d": '{ kind = "stairs", direction = "down" }',
    }
    monsters = "abcefh"
    for symbol in monsters:
        chosen = rng.sample(SPECIALS, rng.choice([0, 1, 1, 2]))
        extra = ""
        if 11 in chosen:
            extra += f", drain = {rng.choice(['0.1', '0.25', '0.5'])}"
        if 22 in chosen:
            extra += f", fixed_damage = {rng.randint(1, 10)}"
        if 6 in chosen:
            extra += f", hits_per_round = {rng.randint(2, 4)}"
        legend[symbol] = (
            f'{{ kind = "enemy", name = "{symbol}", hp = {rng.randint(3, 20)}, atk = {rng.randint(2, 12)}, '
            f"def = {rng.randint(0, 3)}, money = {rng.randint(0, 6)}, specials = {sorted(chosen)}{extra} }}"
        )
    boss_stats = f"hp = {rng.randint(5, 30)}, atk = {rng.randint(3, 15)}, def = 1"
    legend["B"] = f'{{ kind = "enemy", name = "boss", {boss_stats}, boss = true }}'
    pieces = rng.sample("yYgD+/]!", rng.randint(2, 5)) + ["$"] * shop + rng.sample(monsters, rng.randint(1, 4))
    maps = []
    for floor in range(floors):
        cells = [(r, c) for r in range(height) for c in range(width)]
        rng.shuffle(cells)
        grid = [["#" if rng.random() < 0.2 else "." for _ in range(width)] for _ in range(height)]
        fixed = []
        if floor == 0:
            fixed.append("S")
        if floor < floors - 1:
            fixed.append("u")
        if floor > 0:
            fixed.append("d")
        if floor == floors - 1:
            fixed.append("B" if boss else "G")
        share = pieces[floor::floors]
        for symbol, (r, c) in zip(fixed + share, cells, strict=False):
            grid[r][c] = symbol
        maps.append("\n".join("#" + "".join(row) + "#" for row in grid))
    border = "#" * (width + 2)
    used = {char for text in maps for char in text}
    lines = ['game = "passages"', 'win = "boss"' if boss else ""]
    if floors == 1:
        lines += ['map = """', border, maps[0], border, '"""']
    lines += ["[player]", f"hp = {rng.randint(10, 60)}", f"atk = {rng.randint(2, 8)}", f"def = {rng.randint(0, 3)}"]
    lines += [f"money = {rng.randint(0, 5)}", f"yellow_keys = {rng.randint(0, 1)}"]
    if shop:
        lines += ["[shop]", f"start = {rng.randint(5, 10)}", f"delta = {rng.randint(0, 4)}"]
        gains = {stat: rng.randint(0, 3) * (5 if stat == "hp" else 1) for stat in ("hp", "atk", "def", "mdef")}
        gains["atk"] = gains["atk"] or 1
        lines += [f"{stat} = {gain}" for stat, gain in gains.items()]
    lines.append("[legend]")
    lines += [f'"{symbol}" = {entry}' for symbol, entry in legend.items() if symbol in used]
    for number, text in enumerate(maps):
        lines += (
            ["[[floor]]", f'name = "F{number + 1}"', 'map = """', border, text, border, '"""'] if floors > 1 else []
        )
    return "\n".join(line for line in lines if line) + "\n"


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
