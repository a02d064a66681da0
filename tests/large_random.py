"""Seeded random passages levels of 20 to 120 blockers, for the checks that hold at scale.

Two families: the test mazes of twisty.generator.passages_random (a maze with loops, blockers and items on
random floor cells, stats drawn loosely: many levels end early, unsolvable or easy), and the benchmark
suite's (twisty/bench/suites/passages: built like the towers of the genre, blockers on chokepoints, enemies
stronger with depth, starting life set near the least that wins).
"""

from __future__ import annotations

import random
from pathlib import Path

from twisty.generator.passages_random import random_level
from twisty.rules.passages import PassagesLevel
from twisty.rules.passages_format import load_passages
from twisty.rules.source import read_level

SIZES = (20, 40, 60, 80, 100, 120)
SUITE = Path(__file__).resolve().parents[1] / "twisty" / "bench" / "suites" / "passages"


def maze_level(seed: int, blockers: int) -> PassagesLevel:
    """A test maze with `blockers` doors and enemies, on a maze large enough to hold them with room to spare
    (a w x h maze has about 2wh floor cells)."""
    rng = random.Random(f"maze {blockers} {seed}")
    items = rng.randint(blockers // 4, blockers // 2 + 2)
    cells = (blockers + items) // 2 + 8 + rng.randint(0, blockers // 3)
    wide = rng.randint(max(4, int(cells**0.5) - 1), int(cells**0.5) + 2)
    high = max(3, -(-cells // wide))
    return random_level(
        rng.randrange(1 << 30),
        cells_wide=wide,
        cells_high=high,
        blockers=blockers,
        items=items,
        loops=rng.choice([0.0, 0.1, 0.3]),
        door_share=rng.choice([0.2, 0.35]),
    )


def suite_levels(least: int = 20) -> list[tuple[str, PassagesLevel]]:
    """The benchmark suite's levels of at least `least` blockers (by bucket name), with their names."""
    return [
        (path.stem, load_passages(read_level(path)))
        for path in sorted(SUITE.glob("b*.toml"))
        if int(path.stem[1:4]) >= least
    ]
