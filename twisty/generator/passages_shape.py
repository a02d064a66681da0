"""Tightening a draft: its best route ends with exactly 1 life, and exactly one signature wins.

Steps 4 and 5 of the generator's pipeline (docs/generator-passages.md): the smallest starting life that
wins is found with the fast explorer; a best route left with more than 1 life makes the boss that much
stronger; while two signatures win, the draft is repaired (a door walled up, an enemy strengthened or
reshaped) and tightened again. Every fight's damage is the rule's fight_damage.
"""

from __future__ import annotations

import random
from dataclasses import replace
from typing import Any

from twisty.generator.passages_bestiary import closest_enemy
from twisty.generator.passages_draft import Draft, set_enemy
from twisty.generator.passages_engine_explore import explorer_for
from twisty.generator.passages_explore import Explorer, Win
from twisty.limits import Deadline
from twisty.rules.passages import Decision, Enemy, PassagesLevel, fight_damage, start_hp_upper_bound

# Bounds on work, as counts so that results do not depend on the machine.
MAX_REPAIR_ROUNDS = 40
EXPLORE_BUDGET_PER_BLOCKER = 750
SIGNATURE_CAP = 6


def draft_explorer(level: PassagesLevel, deadline: Deadline | None, oracle: Any | None = None) -> Explorer:
    """An explorer with the state budget of a draft: a draft too loose to explore within it is dropped.
    From ENGINE_BLOCKERS blockers on, with the engine's `oracle`, its questions go to the engine instead
    (passages_engine_explore)."""
    return explorer_for(level, EXPLORE_BUDGET_PER_BLOCKER * max(10, len(level.blockers())), deadline, oracle)


def fight_stats(explorer: Explorer, win: Win, start_hp: int) -> dict[int, tuple[int, int]]:
    """Blocker -> the player's (atk, def) when the route of `win` consumes it (free fights included)."""
    states = explorer.replay_states(win.decisions, start_hp)
    stats = {}
    for (action, obj), (mask, _) in zip(win.decisions, states, strict=False):
        if action != "goal":
            here = explorer.info(mask)
            stats[explorer.number[obj]] = (here.atk, here.defense)
    return stats


def strengthen_boss(draft: Draft, explorer: Explorer, route: tuple[Decision, ...], start_hp: int, extra: int) -> bool:
    """Make the boss cost exactly `extra` more life to the best route, which then ends with 1 life."""
    boss_obj = next(i for i, t in enumerate(explorer.level.things) if t.cell == draft.boss)
    boss_number = explorer.objects.index(boss_obj)
    stats = fight_stats(explorer, Win(0, route, frozenset(), 0), start_hp).get(boss_number)
    if stats is None:
        return False
    atk, defense = stats
    boss = draft.things[draft.boss].enemy
    assert boss is not None
    now = fight_damage(boss, atk, defense)
    if now is None:
        return False
    target = now + extra
    stronger = closest_enemy(
        boss, lambda e: fight_damage(e, atk, defense) == target, hp_span=3 * max(1, atk), atk_span=extra + 2, def_span=0
    )
    if stronger is None:
        return False
    set_enemy(draft, draft.boss, stronger)
    return True


def repair_plan(
    draft: Draft, explorer: Explorer, chosen: Win, others: list[Win], start_hp: int, rng: random.Random
) -> bool:
    """Change the draft so that the other winning signatures lose, keeping `chosen` winning.

    Safe changes first (they only remove routes that `chosen` does not take): wall up a door only the
    other solution opens, strengthen an enemy only the other solution fights. Otherwise one reshaping of
    an enemy both fight with different stats, so that the other order costs more than the chosen one."""
    level = explorer.level
    chosen_stats = fight_stats(explorer, chosen, start_hp)
    cell_of = {b: level.things[obj].cell for b, obj in enumerate(explorer.objects)}
    changed = False
    for other in others:
        other_fights = {b: (atk, defense) for b, atk, defense in sorted(other.fights)}
        extra_doors = [b for b in range(len(explorer.objects)) if other.doors >> b & 1 and b not in chosen_stats]
        extra_enemies = [b for b in sorted(other_fights) if b not in chosen_stats]
        if extra_doors:
            cell = cell_of[extra_doors[0]]
            if cell in draft.things:
                del draft.things[cell]
                draft.grid[cell[0]][cell[1]] = "#"
                changed = True
        elif extra_enemies:
            b = extra_enemies[0]
            cell = cell_of[b]
            enemy = draft.things[cell].enemy
            if enemy is not None:
                atk, defense = other_fights[b]
                if rng.random() < 0.5:
                    stronger = replace(enemy, atk=enemy.atk + rng.randint(1, 2))
                else:
                    stronger = replace(enemy, hp=enemy.hp + max(1, atk - enemy.defense) * rng.randint(1, 2))
                set_enemy(draft, cell, stronger)
                changed = True
    if changed:
        return True
    for other in others:
        other_fights = {b: (atk, defense) for b, atk, defense in sorted(other.fights)}
        for b in sorted(other_fights):
            if b not in chosen_stats or chosen_stats[b] == other_fights[b]:
                continue
            enemy = draft.things[cell_of[b]].enemy
            assert enemy is not None
            reshaped = reshaped_for(enemy, chosen_stats[b], other_fights[b])
            if reshaped is not None:
                set_enemy(draft, cell_of[b], reshaped)
                return True
        # The other solution skips a costly fight of the chosen one: make that fight cheaper.
        for b, atk, defense in sorted(chosen.fights):
            if b in other_fights:
                continue
            enemy = draft.things[cell_of[b]].enemy
            assert enemy is not None
            cheaper = cheaper_fight(enemy, atk, defense)
            if cheaper is not None:
                set_enemy(draft, cell_of[b], cheaper)
                return True
    return False


def reshaped_for(enemy: Enemy, mine: tuple[int, int], theirs: tuple[int, int]) -> Enemy | None:
    """The closest `enemy` for which the other stats (`theirs`) pay more, relative to the chosen ones
    (`mine`), than now, the chosen stats paying the same; failing that, one the chosen stats can fight."""
    gap = gap_between(enemy, mine, theirs)
    paid = fight_damage(enemy, *mine)
    reshaped = closest_enemy(enemy, lambda e: gap_between(e, mine, theirs) > gap and fight_damage(e, *mine) == paid)
    if reshaped is None:
        reshaped = closest_enemy(
            enemy, lambda e: gap_between(e, mine, theirs) > gap and fight_damage(e, *mine) is not None
        )
    return reshaped


def cheaper_fight(enemy: Enemy, atk: int, defense: int) -> Enemy | None:
    """The closest `enemy` (same def) that a player with (atk, defense) fights for less, but not for free."""
    now = fight_damage(enemy, atk, defense)
    assert now is not None

    def cheaper(candidate: Enemy) -> bool:
        damage = fight_damage(candidate, atk, defense)
        return damage is not None and 1 <= damage < now

    return closest_enemy(enemy, cheaper, def_span=0)


def gap_between(enemy: Enemy, mine: tuple[int, int], theirs: tuple[int, int]) -> float:
    """How much more the other stats pay than the chosen ones (an impossible fight pays without end)."""
    ours = fight_damage(enemy, *mine)
    other = fight_damage(enemy, *theirs)
    if ours is None:
        return float("-inf")
    if other is None:
        return float("inf")
    return other - ours


def asks_enough(explorer: Explorer, win: Win, draft: Draft) -> bool:
    """A solution worth solving: the boss hurts, and so do some other fights (a level won without a
    scratch has nothing to be tight about)."""
    boss_number = next(b for b, obj in enumerate(explorer.objects) if explorer.level.things[obj].cell == draft.boss)
    costly = {b for b, _, _ in win.fights}
    enemies = sum(1 for door in explorer.is_door if not door)
    return boss_number in costly and len(costly) >= max(min(2, enemies), len(explorer.objects) // 4)


def tighten(
    draft: Draft, rng: random.Random, deadline: Deadline | None, oracle: Any | None = None
) -> tuple[int, Win] | None:
    """Shape the draft until its best route ends with 1 life and no other signature wins. Returns the
    starting life and the one winning signature, or None when the draft cannot be repaired."""
    for _ in range(MAX_REPAIR_ROUNDS):
        level = draft.level(hp=1)
        explorer = draft_explorer(level, deadline, oracle)
        start_hp = explorer.min_start_hp(start_hp_upper_bound(level))
        if start_hp is None:
            return None
        best = explorer.best_route(start_hp)
        assert best is not None
        final, route = best
        if final > 1:
            if not strengthen_boss(draft, explorer, route, start_hp, final - 1):
                return None
            continue
        wins = explorer.winning_signatures(start_hp, SIGNATURE_CAP)
        if len(wins) == 1:
            if not asks_enough(explorer, wins[0], draft):
                return None
            return start_hp, wins[0]
        # Prefer keeping the solution with the most costly fights: it asks most of the player.
        ranked = sorted(wins, key=lambda w: (-len(w.fights), sorted(w.fights), w.doors))
        for chosen in ranked:
            others = [w for w in wins if w is not chosen]
            if repair_plan(draft, explorer, chosen, others, start_hp, rng):
                break
        else:
            return None
    return None
