"""Traps: the enemies the one solution does not fight get real stats, and fighting them loses.

Step 6 of the generator's pipeline (docs/generator-passages.md). Each enemy still sealed is tried with a
ladder of stats, from those drawn against the player who first meets it to harder ones, and keeps the
first rung with which the level still has its one solution, ending with 1 life at the same starting life.
"""

from __future__ import annotations

import random
from typing import Any

from twisty.generator.passages_bestiary import deadly, draw_enemy, is_sealed, sealed, trap_ladder
from twisty.generator.passages_draft import Draft, set_enemy
from twisty.generator.passages_explore import Explorer, TooMuchWork, Win
from twisty.generator.passages_shape import draft_explorer
from twisty.limits import Deadline


def keeps_unique(draft: Draft, start_hp: int, win: Win, deadline: Deadline | None, oracle: Any | None = None) -> bool:
    """With `start_hp`, `win`'s signature still wins with exactly 1 life and no other signature wins."""
    explorer = draft_explorer(draft.level(start_hp), deadline, oracle)
    try:
        wins = explorer.winning_signatures(start_hp, 1)
    except TooMuchWork:
        return False
    return len(wins) == 1 and wins[0].final_hp == 1 and wins[0].fights == win.fights and wins[0].doors == win.doors


def relax_traps(
    draft: Draft,
    rng: random.Random,
    start_hp: int,
    win: Win,
    share: float,
    deadline: Deadline | None,
    oracle: Any | None = None,
) -> None:
    """Give every enemy the route does not fight real stats from a ladder (drawn against the player who
    first meets it, then harder) that keep the solution unique and tight. An enemy that can be fought but
    only loses is a trap: a `share` of the enemies tries the ladder from its weakest end, the others from
    its strongest; one that no rung suits is made deadly."""
    level = draft.level(start_hp)
    explorer = Explorer(level, budget=10_000_000, deadline=deadline)
    met: dict[int, tuple[int, int]] = {}
    for mask, _ in explorer.replay_states(win.decisions, start_hp):
        here = explorer.info(mask)
        for b in here.frontier:
            met.setdefault(b, (here.atk, here.defense))
    final = explorer.info(explorer.replay_states(win.decisions, start_hp)[-1][0])
    best_atk, best_def = explorer.best_stats
    life = start_hp + explorer.every_item.hp
    number = {level.things[obj].cell: b for b, obj in enumerate(explorer.objects)}
    cells = sorted(cell for cell, thing in draft.things.items() if thing.kind == "enemy" and is_sealed(thing.enemy))
    rng.shuffle(cells)
    for cell in cells:
        atk, defense = met.get(number[cell], (final.atk, final.defense))
        natural = draw_enemy(rng, draft.notes["breeds"][cell], atk, defense)
        # A trap takes the weakest stats that keep the solution; the others the strongest of the ladder
        # (still a plausible monster), so that fewer of them can be fought at all.
        ladder = trap_ladder(natural)
        if rng.random() >= share:
            ladder.reverse()
        ladder.append(deadly(natural, best_atk, best_def, life))
        for candidate in ladder:
            set_enemy(draft, cell, candidate)
            if keeps_unique(draft, start_hp, win, deadline, oracle):
                break
        else:
            set_enemy(draft, cell, sealed(draft.notes["breeds"][cell]))
