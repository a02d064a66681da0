"""The enemies of generated passages levels: the bestiary, stats drawn against a player, and reshaping.

An enemy's stats are drawn backwards from the fight a designer wants: a breed says how many hits the
player takes and how hard, at the atk and def the player has when meeting it. Damage itself is always the
rule's (twisty.rules.passages.fight_damage and hits_received); this module only chooses stats.
"""

from __future__ import annotations

import heapq
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from twisty.rules.passages import Enemy, hits_received


@dataclass(frozen=True)
class Breed:
    """A kind of enemy: how many hits it lands and how hard, at the stats a player should have by then."""

    name: str
    hits: tuple[int, int]
    per_hit: tuple[int, int]
    defense: tuple[int, int]
    first_strike: bool = False


BESTIARY = (
    Breed("Rat", (1, 2), (1, 2), (0, 0)),
    Breed("Bat", (1, 2), (1, 3), (0, 0), first_strike=True),
    Breed("Slime", (3, 5), (1, 1), (0, 0)),
    Breed("Goblin", (1, 3), (2, 3), (0, 1)),
    Breed("Skeleton", (2, 3), (2, 4), (1, 1)),
    Breed("Orc", (2, 4), (2, 4), (0, 1)),
    Breed("Wraith", (1, 2), (3, 5), (0, 1), first_strike=True),
    Breed("Knight", (2, 3), (2, 4), (1, 2)),
    Breed("Troll", (3, 5), (2, 4), (1, 1)),
)
BOSSES = (
    Breed("Minotaur", (3, 5), (3, 5), (0, 1)),
    Breed("Lich", (2, 4), (3, 6), (1, 2), first_strike=True),
    Breed("Dragon", (3, 6), (3, 6), (1, 2)),
)


def draw_enemy(rng: random.Random, breed: Breed, atk: int, defense: int, boss: bool = False) -> Enemy:
    """An enemy of `breed` against a player with (atk, defense): the player takes a number of hits in the
    breed's range, each doing damage in its range. Its hp is chosen so that the player needs exactly
    `hits + 1` strikes (`hits` when it strikes first), the inverse of the rule's hits_received."""
    enemy_def = min(rng.randint(*breed.defense), max(0, atk - 1))
    per_strike = atk - enemy_def
    hits = rng.randint(*breed.hits)
    strikes = hits if breed.first_strike else hits + 1
    strikes = max(strikes, 1)
    hp = rng.randint((strikes - 1) * per_strike + 1, strikes * per_strike)
    enemy_atk = defense + rng.randint(*breed.per_hit)
    enemy = Enemy(breed.name, hp, enemy_atk, enemy_def, breed.first_strike, boss)
    assert hits_received(enemy, atk) == strikes - (not breed.first_strike)
    return enemy


SEALED_DEFENSE = 1000


def sealed(breed: Breed, boss: bool = False) -> Enemy:
    """A placeholder that no player can harm, so that it cannot be fought while the level takes shape."""
    return Enemy(breed.name, 1, 1, SEALED_DEFENSE, breed.first_strike, boss)


def is_sealed(enemy: Enemy | None) -> bool:
    """Whether `enemy` is still the placeholder of `sealed` (no stats given yet)."""
    return enemy is not None and enemy.defense >= SEALED_DEFENSE


def closest_enemy(
    enemy: Enemy, accept: Callable[[Enemy], bool], hp_span: int = 12, atk_span: int = 8, def_span: int = 2
) -> Enemy | None:
    """The smallest change of `enemy`'s hp, atk and def that `accept` takes (ties: fewer hp first)."""
    best: tuple[tuple[int, int, int, int], Enemy] | None = None
    for hp in range(max(1, enemy.hp - hp_span), enemy.hp + hp_span + 1):
        for atk in range(max(0, enemy.atk - atk_span), enemy.atk + atk_span + 1):
            for defense in range(max(0, enemy.defense - def_span), enemy.defense + def_span + 1):
                candidate = replace(enemy, hp=hp, atk=atk, defense=defense)
                if candidate == enemy or not accept(candidate):
                    continue
                change = (
                    abs(hp - enemy.hp) + 2 * abs(atk - enemy.atk) + 3 * abs(defense - enemy.defense),
                    hp,
                    atk,
                    defense,
                )
                if best is None or change < best[0]:
                    best = (change, candidate)
    return None if best is None else best[1]


def deadly(enemy: Enemy, best_atk: int, best_def: int, life: int) -> Enemy:
    """`enemy` made strong enough that even the best equipped player with all the life of the level
    cannot survive it (an enemy that cannot be harmed at all is left as it is)."""
    if enemy.defense >= best_atk:
        return enemy
    if not enemy.first_strike:
        enemy = replace(enemy, hp=max(enemy.hp, best_atk - enemy.defense + 1))
    hits = hits_received(enemy, best_atk)
    assert hits is not None and hits >= 1
    return replace(enemy, atk=best_def - (-life // hits))


def trap_ladder(natural: Enemy) -> list[Enemy]:
    """Candidate stats for a trap, weakest first: harder hits, then more hits as well."""
    ladder = [natural] + [replace(natural, atk=natural.atk + step) for step in (1, 2, 3, 4, 6, 8)]
    for factor, step in ((3, 2), (2, 4), (3, 6), (4, 8)):
        ladder.append(replace(natural, hp=natural.hp * factor // 2 + 1, atk=natural.atk + step))
    return ladder


def stronger_enemy(
    enemy: Enemy,
    accept: Callable[[Enemy], bool],
    hp_span: int = 16,
    atk_span: int = 8,
    def_span: int = 2,
    costs_at_least: tuple[int, int, int] | None = None,
    pays_exactly: tuple[int, int, int | None] | None = None,
) -> Enemy | None:
    """The smallest strengthening of `enemy` (hp, atk and def each the same or more) that `accept` takes,
    the change counted as hp + 2 atk + 3 def (ties: fewer hp first, then less atk). More hp, atk or def never
    makes a fight cheaper at any player's stats (the rule's strikes and hits only grow with them), so such a
    change can only take routes away. The candidates are asked in that order, so the first taken is the
    answer.

    What `accept` asks of the damage, said in numbers: `costs_at_least` (atk, def, damage), it takes only
    candidates that cost a player with that atk and def at least that damage (or that it cannot harm);
    `pays_exactly` (atk, def, damage), only candidates that cost such a player exactly that (None: it cannot
    harm them). For an enemy of the rulebook alone (no tower special) these are checked first on the numbers
    (the rulebook's damage, as fight_damage computes it), and a candidate is made and asked only past them:
    the generator asks hundreds of candidates per enemy, most of which fail, and making each was most of its
    time at 60 blockers. The answer is the same."""
    if not enemy.plain:
        costs_at_least = pays_exactly = None  # (the numbers are the rulebook's damage alone)
    for more_hp, more_atk, more_def in _changes_in_order(
        enemy, (hp_span, atk_span, def_span), costs_at_least, pays_exactly
    ):
        candidate = replace(enemy, hp=enemy.hp + more_hp, atk=enemy.atk + more_atk, defense=enemy.defense + more_def)
        if accept(candidate):
            return candidate
    return None


def _changes_in_order(
    enemy: Enemy,
    spans: tuple[int, int, int],
    costs_at_least: tuple[int, int, int] | None,
    pays_exactly: tuple[int, int, int | None] | None,
) -> Iterator[tuple[int, int, int]]:
    """stronger_enemy's changes (more hp, atk, def) that pass the checks on the numbers, in its order (the
    change hp + 2 atk + 3 def, then fewer hp, then less atk), made as they are asked for. For each (more
    atk, more def) the hp that pass form one run (_hp_run: the damage only grows with the hp), so the
    changes come from merging those runs by a heap, never from going through every change: the boss of a
    120-blocker draft has hundreds of thousands of them (spans of 3 x the attack and of the final life)."""
    hp_span, atk_span, def_span = spans
    runs: list[tuple[int, int, int, int, int]] = []  # (change, more hp, more atk, more def, last more hp)
    for more_atk in range(atk_span + 1):
        for more_def in range(def_span + 1):
            low, high = _hp_run(enemy, more_atk, more_def, hp_span, costs_at_least, pays_exactly)
            if more_atk == more_def == 0:
                low = max(low, 1)  # (no change at all is not a strengthening)
            if low <= high:
                runs.append((low + 2 * more_atk + 3 * more_def, low, more_atk, more_def, high))
    heapq.heapify(runs)
    while runs:
        change, more_hp, more_atk, more_def, high = runs[0]
        yield more_hp, more_atk, more_def
        if more_hp < high:
            heapq.heapreplace(runs, (change + 1, more_hp + 1, more_atk, more_def, high))
        else:
            heapq.heappop(runs)


def _hp_run(
    enemy: Enemy,
    more_atk: int,
    more_def: int,
    hp_span: int,
    costs_at_least: tuple[int, int, int] | None,
    pays_exactly: tuple[int, int, int | None] | None,
) -> tuple[int, int]:
    """The more hp (from, to; empty when from > to) within 0..hp_span with which the enemy with this much
    more atk and def passes the checks on the numbers (stronger_enemy): by the rulebook's damage, strikes
    = ceil(hp / (A - def)) grow with the hp, and hits = strikes (less one without first strike) times
    max(0, atk - D) with them."""
    hp, atk, defense = enemy.hp, enemy.atk + more_atk, enemy.defense + more_def
    spared = 0 if enemy.first_strike else 1  # strikes - hits
    low, high = 0, hp_span
    if costs_at_least is not None:
        player_atk, player_def, at_least = costs_at_least
        per_strike, per_hit = player_atk - defense, max(0, atk - player_def)
        if per_strike > 0 and at_least > 0:  # (one that cannot be harmed costs without end)
            if per_hit == 0:
                return 0, -1
            hits = -(-at_least // per_hit)
            # strikes >= hits + spared: hp + more hp > (hits + spared - 1) x per strike
            low = max(low, (hits + spared - 1) * per_strike + 1 - hp)
    if pays_exactly is not None:
        player_atk, player_def, paid = pays_exactly
        per_strike, per_hit = player_atk - defense, max(0, atk - player_def)
        if per_strike <= 0 or paid is None:
            return (low, high) if per_strike <= 0 and paid is None else (0, -1)
        if per_hit == 0:
            return (low, high) if paid == 0 else (0, -1)
        hits, rest = divmod(paid, per_hit)
        if rest:
            return 0, -1
        strikes = hits + spared
        if strikes < 1:
            return 0, -1
        # (strikes - 1) x per strike < hp + more hp <= strikes x per strike
        low = max(low, (strikes - 1) * per_strike + 1 - hp)
        high = min(high, strikes * per_strike - hp)
    return low, high
