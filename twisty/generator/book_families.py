"""The rule families a generated book can teach (`twisty generate book --rules ...`), what each brings to
the page, and what it means for one to matter to the reader.

A family names one rule of the rulebook. It brings contents to three zones around the intended walk: the
walk itself (what the walker steps on), its border (the cells beside the walk, which must all stop the
walker) and the cells near it (within three steps of the walk, where packs, chains and Oracles stand). It
matters when it gives a cell of the walk or of its border its status, in the way the reader must work out:
a Wolf's pack or attack makes a border cell deadly; the Oracle makes a walk cell passable that would kill
otherwise. Each such "firing" has a literal in the SAT model (`StaticModel.fires`, by key) and a plain
check on the rule engine's evaluation (`fires_in`), which verifies every generated book.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from twisty.rules.book.contents import NUMBERS
from twisty.rules.book.evaluation import DEADLY, PASSABLE, PETRIFIED, Evaluation

WALK, BORDER = "walk", "border"
DIGITS = frozenset(NUMBERS)


def _reason(evaluation: Evaluation, index: int, rule: int, verdict: int) -> bool:
    return any(number == rule and given == verdict for number, given, _why in evaluation.reasons.get(index, []))


@dataclass(frozen=True)
class Firing:
    """One way a family matters: the SAT key that says so, the zone and status of the cell, and the plain
    check of the same on the rule engine's evaluation."""

    key: str
    zone: str  # WALK or BORDER
    status: int  # the cell's final status
    check: Callable[[Evaluation, int], bool]


@dataclass(frozen=True)
class Family:
    name: str
    rule: int
    summary: str
    walk: frozenset[str]  # contents the walk may hold because of this family
    border: frozenset[str]  # ... the cells beside the walk
    near: frozenset[str]  # ... the cells two steps from the walk
    firings: tuple[Firing, ...]
    local_medusa: bool = False  # the family needs the Medusa local rule on every spread
    outer: frozenset[str] = frozenset()  # ... the cells three steps from the walk


def _deadly_by(rule: int) -> Callable[[Evaluation, int], bool]:
    return lambda evaluation, index: _reason(evaluation, index, rule, DEADLY)


def _printed(name: str, check: Callable[[Evaluation, int], bool]) -> Callable[[Evaluation, int], bool]:
    return lambda evaluation, index: evaluation.book.contents[index] == name and check(evaluation, index)


def _not_printed(names: frozenset[str], check: Callable[[Evaluation, int], bool]) -> Callable[[Evaluation, int], bool]:
    return lambda evaluation, index: evaluation.book.contents[index] not in names and check(evaluation, index)


def _protected(evaluation: Evaluation, index: int) -> bool:
    """Protected by an Oracle while some rule of phase 5 made it deadly (the Oracle's own cell excluded)."""
    return (
        evaluation.book.contents[index] != "Oracle"
        and _reason(evaluation, index, 10, PASSABLE)
        and any(given == DEADLY for _rule, given, _why in evaluation.reasons.get(index, []))
    )


def _copies(evaluation: Evaluation, index: int) -> bool:
    return evaluation.book.contents[index] == "Mimic" and evaluation.identity[index] not in ("Mimic", "")


PREY = frozenset({"Bandit", "Thief", "Cultist"})
CRUSHABLE = frozenset({"Troll", "Ogre", "Skeleton", "Mummy", "Goblin", "Kobold"})

FAMILIES: dict[str, Family] = {
    family.name: family
    for family in (
        Family(
            "rat",
            3,
            "ten Rats on a spread make every Rat there deadly",
            frozenset(),
            frozenset({"Rat"}),
            frozenset({"Rat"}),
            (Firing("rat", BORDER, DEADLY, _deadly_by(3)),),
            outer=frozenset({"Rat"}),
        ),
        Family(
            "wolf",
            4,
            "a pack of Wolves is deadly, and a pack of 3 to 6 attacks",
            frozenset(),
            frozenset({"Wolf", "", "Rubble"}),
            frozenset({"Wolf"}),
            (Firing("wolf", BORDER, DEADLY, _deadly_by(4)),),
        ),
        Family(
            "mimic",
            5,
            "a Mimic copies the creature toward the gutter",
            frozenset({"Mimic"}),
            frozenset({"Mimic"}),
            frozenset({"Mimic"}),
            (Firing("mimic", BORDER, DEADLY, _copies),),
        ),
        Family(
            "mage",
            6,
            "a Mage calms his page's Wraiths; a Scroll beside him makes both deadly",
            frozenset({"Wraith"}),
            frozenset({"Mage", "Scroll", "Wraith"}),
            frozenset({"Mage", "Scroll"}),
            (
                Firing("mage", BORDER, DEADLY, _deadly_by(6)),
                Firing("mage:walk", WALK, PASSABLE, _printed("Wraith", lambda e, i: _reason(e, i, 6, PASSABLE))),
            ),
        ),
        Family(
            "melee",
            7,
            "joined Orcs and Dwarves fight: the smaller side falls",
            frozenset({"Orc", "Dwarf"}),
            frozenset({"Orc", "Dwarf"}),
            frozenset(),
            (
                Firing("melee", BORDER, DEADLY, _deadly_by(7)),
                Firing("melee:walk", WALK, PASSABLE, lambda e, i: _reason(e, i, 7, PASSABLE)),
            ),
        ),
        Family(
            "vampire",
            8,
            "a Vampire turns the Bandits, Thieves and Cultists it touches, in a chain",
            PREY,
            PREY | {"Vampire"},
            PREY | {"Vampire"},
            (Firing("vampire", BORDER, DEADLY, lambda e, i: e.book.contents[i] in PREY and _reason(e, i, 8, DEADLY)),),
        ),
        Family(
            "giant",
            9,
            "two Giants in line crush the creatures between them",
            CRUSHABLE,
            frozenset({"Giant"}),
            frozenset({"Giant"}),
            (Firing("giant:walk", WALK, PASSABLE, lambda e, i: _reason(e, i, 9, PASSABLE)),),
        ),
        Family(
            "oracle",
            10,
            "four deadly creatures around the Oracle make her eight neighbours safe",
            frozenset({"Troll", "Ogre", "Skeleton", "Spikes"}),
            frozenset(),
            frozenset({"Oracle"}),
            (Firing("oracle:walk", WALK, PASSABLE, _protected),),
        ),
        Family(
            "reaper",
            11,
            "everything within two cells of the Reaper is deadly",
            frozenset(),
            frozenset({"", "Rubble", "Moss"}),
            frozenset(),
            (Firing("reaper", BORDER, DEADLY, _not_printed(frozenset({"Reaper"}), _deadly_by(11))),),
            outer=frozenset({"Reaper"}),
        ),
        Family(
            "lava",
            17,
            "the four cells beside Lava are deadly",
            frozenset(),
            frozenset({"", "Rubble", "Moss"}),
            frozenset({"Lava"}),
            (Firing("lava", BORDER, DEADLY, _not_printed(frozenset({"Lava"}), _deadly_by(17))),),
        ),
        Family(
            "number",
            19,
            "a Number is safe when it counts the creatures around it",
            DIGITS,
            DIGITS,
            frozenset(),
            (
                Firing("number", BORDER, DEADLY, _deadly_by(19)),
                Firing("number:walk", WALK, PASSABLE, lambda e, i: _reason(e, i, 19, PASSABLE)),
            ),
        ),
        Family(
            "thief",
            20,
            "Gold or a Gem beside a Thief is deadly",
            frozenset({"Gold", "Gem"}),
            frozenset({"Gold", "Gem", "Thief"}),
            frozenset({"Thief"}),
            (Firing("thief", BORDER, DEADLY, _deadly_by(20)),),
        ),
        Family(
            "torch",
            21,
            "a Shadow is deadly unless a Torch lights it",
            frozenset({"Shadow"}),
            frozenset({"Shadow"}),
            frozenset({"Torch"}),
            (Firing("torch:walk", WALK, PASSABLE, _printed("Shadow", lambda e, i: _reason(e, i, 21, PASSABLE))),),
        ),
        Family(
            "medusa",
            26,
            "a Medusa petrifies the creatures in her row and column, unless a Mirror sees her",
            frozenset(),
            frozenset({"Troll", "Goblin", "Kobold"}),
            frozenset({"Medusa", "Mirror"}),
            (Firing("medusa", BORDER, PETRIFIED, lambda e, i: e.status[i] == PETRIFIED),),
            local_medusa=True,
        ),
    )
}

# Path rules, taught by the shape of the walk itself (twisty.generator.book_walks).
PATH_FAMILIES = {"bridge": 15, "tunnel": 18, "bow": 22}

# What every generated book may hold besides its families: safe ground and Weaklings for the walk, Walls,
# deadly terrain and bad guys beside it, and some of each around.
BASE_WALK = frozenset({"", "Rubble", "Moss", "Planks", "Goblin", "Imp", "Kobold"})
BASE_BORDER = frozenset({"Wall", "Spikes", "Swamp", "Pit", "Troll", "Ogre", "Skeleton", "Mummy", "Witch", "Zombie"})
BASE_NEAR = frozenset({"", "Rubble", "Moss", "Wall", "Troll", "Ogre", "Skeleton", "Goblin", "Spikes"})
BASE_OUTER = frozenset({"", "Rubble", "Moss", "Wall", "Troll", "Goblin", "Spikes"})
BASE_FAR = frozenset({"", "Rubble", "Moss", "Wall", "Troll", "Spikes"})


def fires_in(evaluation: Evaluation, family: Family, walk: set[int], border: set[int]) -> list[tuple[int, int]]:
    """The cells (with their status) where `family` matters in this evaluation, by the plain rules."""
    found = []
    for firing in family.firings:
        zone = walk if firing.zone == WALK else border
        for index in sorted(zone):
            if evaluation.status[index] == firing.status and firing.check(evaluation, index):
                found.append((index, firing.status))
    return found


def family_names() -> list[str]:
    return sorted(FAMILIES) + sorted(PATH_FAMILIES)
