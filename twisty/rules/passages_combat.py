"""Combat in Twisty Little Passages and in the Magic Tower (魔塔) towers it belongs to: one fight's damage.

The rulebook's combat ("Damage to enemy = Your ATK - Enemy DEF", the enemy striking back after each of your
strikes it survives) is the genre's formula without specials. Real towers add monster specials and magic
defence; the formula twisty follows for them is the one of the h5mota engine (mota-js `getDamageInfo`, as
docs/mota.md gives it), quoted rule by rule in `fight_damage`. With no specials and mdef 0 the two agree
exactly, so a level without the tower features fights as it always did (and takes the old code path).

Everything here is exact integer (and rational) arithmetic: floor(0.9 x def) is computed as 9 x def // 10,
never in floating point.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

# The monster specials twisty models, by their numbers in mota-js `enemys.getSpecials` (1, first strike, is
# the rulebook's `first_strike` and is held there).
FIRST_STRIKE, MAGIC, STURDY, DOUBLE, TRIPLE, MULTIPLE = 1, 2, 3, 4, 5, 6
BREAK_ARMOUR, COUNTER, PURIFY, MIMIC, DRAIN, FIXED = 7, 8, 9, 10, 11, 22
SPECIAL_NAMES = {
    FIRST_STRIKE: "first strike",
    MAGIC: "magic attack",
    STURDY: "sturdy",
    DOUBLE: "double hit",
    TRIPLE: "triple hit",
    MULTIPLE: "multiple hits",
    BREAK_ARMOUR: "break armour",
    COUNTER: "counter",
    PURIFY: "purify",
    MIMIC: "mimic",
    DRAIN: "drain",
    FIXED: "fixed damage",
}
MODELLED_SPECIALS = frozenset(SPECIAL_NAMES)
# Specials that make a fight cost more when a stat of the hero rises (fight_damage): the stats each one
# reads in a way that can go against the hero. Every other special leaves the damage non-increasing in atk,
# def and mdef (docs/mota.md, "Items that can hurt", gives the proof).
STATS_AGAINST_HERO = {
    BREAK_ARMOUR: frozenset({"def"}),
    COUNTER: frozenset({"atk"}),
    PURIFY: frozenset({"mdef"}),
    MIMIC: frozenset({"atk", "def"}),
}
# The default strengths of break armour, counter and purify (mota-js `values`: breakArmor, counterAttack,
# purify) and of multiple hits (`n`).
BREAK_ARMOUR_DEFAULT = Fraction(9, 10)
COUNTER_DEFAULT = Fraction(1, 10)
PURIFY_DEFAULT = Fraction(3)
HITS_DEFAULT = 4


@dataclass(frozen=True)
class Enemy:
    name: str
    hp: int
    atk: int
    defense: int
    first_strike: bool = False
    boss: bool = False
    # The tower features (docs/mota.md). With none of them the enemy fights by the rulebook alone.
    specials: frozenset[int] = frozenset()  # mota specials other than first strike
    money: int = 0  # gained when it is defeated
    hits_per_round: int = HITS_DEFAULT  # special 6: hits in each of its rounds (mota's n)
    drain: Fraction = Fraction(0)  # special 11: the part of the hero's current life taken first (vampire)
    fixed_damage: int = 0  # special 22: damage added to every fight with it
    break_armour: Fraction = BREAK_ARMOUR_DEFAULT  # special 7's factor of the hero's def
    counter: Fraction = COUNTER_DEFAULT  # special 8's factor of the hero's atk
    purify: Fraction = PURIFY_DEFAULT  # special 9's factor of the hero's mdef

    @property
    def plain(self) -> bool:
        """Whether this enemy fights by the rulebook alone (no tower special)."""
        return not self.specials


def strikes_needed(enemy: Enemy, atk: int) -> int | None:
    """ "Damage to enemy = Your ATK - Enemy DEF ... If an enemy has DEF equal to or greater than your ATK,
    you cannot harm it (and the path cannot be unblocked)." Strikes = ceil(E_hp / (A - E_def))."""
    per_strike = atk - enemy.defense
    if per_strike <= 0:
        return None
    return -(-enemy.hp // per_strike)


def hits_received(enemy: Enemy, atk: int) -> int | None:
    """ "You get to surprise most foes and strike first." The enemy strikes back after each of your strikes
    that leaves it alive: strikes - 1 hits, or strikes when it has first strike."""
    strikes = strikes_needed(enemy, atk)
    if strikes is None:
        return None
    return strikes if enemy.first_strike else strikes - 1


def fight_damage(enemy: Enemy, atk: int, defense: int, mdef: int = 0, hp: int = 0) -> int | None:
    """The life one fight costs, None when the enemy cannot be harmed (the fight is impossible).

    Without specials and magic defence, the rulebook: "Damage to you = Enemy ATK - Your DEF ... If you have
    DEF equal to or greater than the enemy ATK, the enemy strikes you but does no damage." Total = hits
    received x max(0, E_atk - D). Otherwise the tower formula (tower_damage); `hp`, the hero's life before
    the fight, matters only to drain."""
    if not enemy.specials and not mdef:
        hits = hits_received(enemy, atk)
        if hits is None:
            return None
        return hits * max(0, enemy.atk - defense)
    return tower_damage(enemy, atk, defense, mdef, hp)


def tower_damage(enemy: Enemy, atk: int, defense: int, mdef: int, hp: int) -> int | None:
    """The damage of one fight by the h5mota formula (docs/mota.md), each line its rule:

        if 11: init += floor(hero_hp * vampire)
        per = mon_atk - hero_def  (if 2: per = mon_atk);  per = max(per, 0)
        if 4: per *= 2;  if 5: per *= 3;  if 6: per *= n
        counter = floor(0.1 * hero_atk) if 8 else 0
        if 1: init += per;  if 7: init += floor(0.9 * hero_def);  if 9: init += floor(3 * hero_mdef)
        hit = max(hero_atk - mon_def, 0);  if hit == 0: cannot fight
        turns = ceil(mon_hp / hit)
        damage = init + (turns - 1) * per + turns * counter - hero_mdef;  damage = max(damage, 0)
        if 22: damage += enemy.damage

    "sturdy and mimic are applied first": 3 sturdy, "its def is raised to hero atk - 1"; 10 mimic, "its
    atk/def copy the hero's"."""
    specials = enemy.specials
    mon_atk, mon_def = enemy.atk, enemy.defense
    if MIMIC in specials:
        mon_atk, mon_def = atk, defense
    if STURDY in specials and mon_def < atk - 1:
        mon_def = atk - 1
    hit = max(atk - mon_def, 0)
    if hit == 0:
        return None
    init = 0
    if DRAIN in specials:
        init += _floor(hp * enemy.drain)
    per = max(mon_atk if MAGIC in specials else mon_atk - defense, 0)
    if DOUBLE in specials:
        per *= 2
    if TRIPLE in specials:
        per *= 3
    if MULTIPLE in specials:
        per *= enemy.hits_per_round
    counter = _floor(atk * enemy.counter) if COUNTER in specials else 0
    if enemy.first_strike:
        init += per
    if BREAK_ARMOUR in specials:
        init += _floor(defense * enemy.break_armour)
    if PURIFY in specials:
        init += _floor(mdef * enemy.purify)
    turns = -(-enemy.hp // hit)
    damage = max(init + (turns - 1) * per + turns * counter - mdef, 0)
    if FIXED in specials:
        damage += enemy.fixed_damage
    return damage


def _floor(value: Fraction | int) -> int:
    return value.numerator // value.denominator if isinstance(value, Fraction) else value


def damage_table(enemy: Enemy, atks: Iterable[int], defs: Iterable[int]) -> list[list[int | None]]:
    """The enemy's printed damage table: one row per player ATK, one column per player DEF."""
    defs = list(defs)
    return [[fight_damage(enemy, atk, defense) for defense in defs] for atk in atks]


def table_mismatch(
    enemy: Enemy, atks: list[int], defs: list[int], life_lost: list[list[int]], hits: list[int] | None = None
) -> tuple[str, int, int] | None:
    """The first printed entry (row-major) that `enemy` does not reproduce: ("life_lost", i, j) or
    ("hits", i, 0); None when the whole table follows from the stats."""
    for i, atk in enumerate(atks):
        if hits is not None and hits_received(enemy, atk) != hits[i]:
            return "hits", i, 0
        for j, defense in enumerate(defs):
            if fight_damage(enemy, atk, defense) != life_lost[i][j]:
                return "life_lost", i, j
    return None


def describe_enemy(enemy: Enemy) -> str:
    tags = [", boss" if enemy.boss else "", ", first strike" if enemy.first_strike else ""]
    tags += [f", {SPECIAL_NAMES[special]}" for special in sorted(enemy.specials)]
    return f"{enemy.name} (hp {enemy.hp}, atk {enemy.atk}, def {enemy.defense}{''.join(tags)})"
