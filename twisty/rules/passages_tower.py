"""What a tower's features change in the rules beyond one step: which items can hurt, the purchases that can
wait, and a starting life that survives every fight (docs/mota.md).

Taking an item never hurts in the rulebook's combat: damage only falls as attack and defence rise. That is
what lets every engine take the items of an area the moment it is reached. Four tower specials break it:
break armour adds 0.9 x the hero's def, counter 0.1 x the hero's atk per round, purify 3 x the hero's mdef,
and mimic copies the hero's atk and def. So here each stat of the hero gets a class:

- "monotone": no enemy on the map has a special that reads it against the hero. The formula's every term is
  then non-increasing in it (docs/mota.md, "Items that can hurt"), so more of it is never worse, anywhere.
- "gain-safe": some enemy has such a special, but every rise of this stat by a gain on the map (an item's or
  a purchase's) was checked, at every combination of the values the hero can hold (the sums of the gains,
  stat_sums), to cost no fight more. Taking such an item at once is still never worse; comparing two
  different values of the stat proves nothing.
- "unsafe": the check failed or was too large to make. Items raising the stat are decisions (Thing.optional:
  they block the way until taken), and a purchase of it may wait.
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from itertools import product

from twisty.rules.passages import PURCHASES, PassagesLevel, Thing, stat_sums
from twisty.rules.passages_combat import (
    BREAK_ARMOUR,
    COUNTER,
    DOUBLE,
    DRAIN,
    FIXED,
    MIMIC,
    MULTIPLE,
    PURIFY,
    STATS_AGAINST_HERO,
    TRIPLE,
    Enemy,
    fight_damage,
)

MONOTONE, GAIN_SAFE, UNSAFE = "monotone", "gain-safe", "unsafe"
TOWER_STATS = ("atk", "def", "mdef")
# The check of one stat looks at no more than this many combinations of held values, per enemy and gain:
# past it the stat counts as unsafe (which is always exact, only slower to search).
MAX_CHECKED_POINTS = 200_000
# Values of one stat that the check lists (stat_sums' cap).
MAX_HELD_VALUES = 512


def max_purchases(level: PassagesLevel) -> int:
    """The most purchases any route can make: all the money there is (the hero's and every monster's) spent
    on purchases of rising price. 0 without a shop."""
    shop = level.shop
    if shop is None:
        return 0
    money = level.player.money + sum(thing.enemy.money for thing in level.things if thing.enemy is not None)
    count = 0
    while shop.price(count) <= money and count < MAX_HELD_VALUES:
        money -= shop.price(count)
        count += 1
    return count


def stat_gains(level: PassagesLevel, stat: str) -> list[int]:
    """Every gain of `stat` the hero can get: each item's, and the shop's once per purchase it can make."""
    gains = [_gain(thing, stat) for thing in level.things if thing.kind == "equipment" and _gain(thing, stat)]
    shop = level.shop
    if shop is not None and shop.gain(PURCHASES.index(stat)):
        gains += [shop.gain(PURCHASES.index(stat))] * max_purchases(level)
    return gains


def _gain(thing: Thing, stat: str) -> int:
    return {"atk": thing.atk, "def": thing.defense, "mdef": thing.mdef}[stat]


def _base(level: PassagesLevel, stat: str) -> int:
    player = level.player
    return {"atk": player.atk, "def": player.defense, "mdef": player.mdef}[stat]


def stat_classes(level: PassagesLevel) -> dict[str, str]:
    """The class of each of atk, def and mdef in this level (module docstring)."""
    against = {stat: [e for e in _enemies(level) if stat in _stats_against(e)] for stat in TOWER_STATS}
    classes = {}
    held: dict[str, list[int] | None] = {}
    for stat in TOWER_STATS:
        held[stat] = stat_sums(_base(level, stat), stat_gains(level, stat), MAX_HELD_VALUES)
    for stat in TOWER_STATS:
        if not against[stat]:
            classes[stat] = MONOTONE
        elif _never_hurts(against[stat], stat, sorted(set(stat_gains(level, stat))), held):
            classes[stat] = GAIN_SAFE
        else:
            classes[stat] = UNSAFE
    return classes


def _enemies(level: PassagesLevel) -> list[Enemy]:
    return list({thing.enemy for thing in level.things if thing.enemy is not None})


def _stats_against(enemy: Enemy) -> frozenset[str]:
    return frozenset().union(*(STATS_AGAINST_HERO.get(special, frozenset()) for special in enemy.specials))


def _never_hurts(enemies: list[Enemy], stat: str, gains: list[int], held: dict[str, list[int] | None]) -> bool:
    """Whether raising `stat` by any of `gains` costs no fight with these enemies more, at every combination
    of held values (an impossible fight counting as the dearest)."""
    if not gains:
        return True
    if any(values is None for values in held.values()):
        return False
    atks, defs, mdefs = held["atk"], held["def"], held["mdef"]
    assert atks is not None and defs is not None and mdefs is not None
    if len(atks) * len(defs) * len(mdefs) * len(gains) * len(enemies) > MAX_CHECKED_POINTS:
        return False
    position = TOWER_STATS.index(stat)
    for enemy, point, gain in product(enemies, product(atks, defs, mdefs), gains):
        before = fight_damage(enemy, *point)
        if before is None:
            continue
        raised = list(point)
        raised[position] += gain
        after = fight_damage(enemy, raised[0], raised[1], raised[2])
        if after is None or after > before:
            return False
    return True


def with_optional_items(level: PassagesLevel) -> PassagesLevel:
    """The level with every item that can hurt marked as a decision (Thing.optional): equipment that raises
    an unsafe stat. A level of the rulebook's combat comes back as it is."""
    if not any(thing.enemy is not None and _stats_against(thing.enemy) for thing in level.things):
        return level
    classes = stat_classes(level)
    things = tuple(
        replace(thing, optional=any(classes[stat] == UNSAFE and _gain(thing, stat) for stat in TOWER_STATS))
        if thing.kind == "equipment"
        else thing
        for thing in level.things
    )
    return level if things == level.things else replace(level, things=things)


def worst_damage(enemy: Enemy, atk: int, defense: int, mdef: int) -> int:
    """An upper bound on what one fight with `enemy` can cost a hero whose atk, def and mdef never exceed
    these (leaving out drain, which takes a part of the life instead): each term of the formula at its
    largest, at least one point of damage per strike landed (the fight needs hit >= 1, so turns <= its hp)."""
    specials = enemy.specials
    monster_atk = max(enemy.atk, atk) if MIMIC in specials else enemy.atk
    multiplier = 2 if DOUBLE in specials else 1
    multiplier *= 3 if TRIPLE in specials else 1
    multiplier *= enemy.hits_per_round if MULTIPLE in specials else 1
    per = multiplier * max(monster_atk, 0)
    turns = enemy.hp
    counter = _ceil(atk * enemy.counter) if COUNTER in specials else 0
    init = per + (_ceil(defense * enemy.break_armour) if BREAK_ARMOUR in specials else 0)
    init += _ceil(mdef * enemy.purify) if PURIFY in specials else 0
    fixed = enemy.fixed_damage if FIXED in specials else 0
    return init + turns * (per + counter) + fixed


def _ceil(value: Fraction | int) -> int:
    return -(-value.numerator // value.denominator) if isinstance(value, Fraction) else value


def tower_start_hp_upper_bound(level: PassagesLevel) -> int:
    """A starting hp with which every fight that can ever happen is survivable: if the level cannot be won
    with it, no starting hp wins. Every other fight costs at most its worst_damage (at the largest stats the
    hero can ever hold); a drain of v (v < 1) leaves at least (1 - v) of the life before the fight, less
    that. So a start of (1 + all the worst damages) / (product of the (1 - v)) keeps at least 1 hp after
    every fight, whatever their order. A drain of 1 or more can never be survived."""
    atk, defense, mdef = (_base(level, stat) + sum(stat_gains(level, stat)) for stat in TOWER_STATS)
    worst = 0
    kept = Fraction(1)
    for thing in level.things:
        enemy = thing.enemy
        if enemy is None:
            continue
        worst += worst_damage(enemy, atk, defense, mdef)
        if DRAIN in enemy.specials and enemy.drain < 1:
            kept *= 1 - enemy.drain
    return _ceil(Fraction(1 + worst) / kept)
