"""What a book cell can hold: every content, its short code, its family, and the names of the rules.

Codes are matched case-insensitively, and full names are accepted too (docs/book.md has the legend).
"""

from __future__ import annotations

from dataclasses import dataclass

MONSTER, WEAKLING, SPECIAL, TERRAIN, ITEM = "monster", "weakling", "special creature", "terrain", "item"
CREATURE_FAMILIES = frozenset({MONSTER, WEAKLING, SPECIAL})


@dataclass(frozen=True)
class Content:
    name: str
    code: str
    family: str

    @property
    def is_creature(self) -> bool:
        return self.family in CREATURE_FAMILIES


_CATALOG = [
    # Rule 1, the bad guys (Dragon and Boss are bad guys too: the Sword and the Boss rule name them).
    ("Skeleton", "Sk", MONSTER),
    ("Mummy", "Mu", MONSTER),
    ("Witch", "Wi", MONSTER),
    ("Ogre", "Og", MONSTER),
    ("Troll", "Tr", MONSTER),
    ("Demon", "De", MONSTER),
    ("Cyclops", "Cy", MONSTER),
    ("Minotaur", "Mn", MONSTER),
    ("Spider", "Sp", MONSTER),
    ("Snake", "Sn", MONSTER),
    ("Zombie", "Zo", MONSTER),
    ("Medusa", "Me", MONSTER),
    ("Wraith", "Wr", MONSTER),
    ("Dragon", "Dr", MONSTER),
    ("Boss", "Bs", MONSTER),
    # Rule 2, the Weaklings.
    ("Goblin", "Go", WEAKLING),
    ("Imp", "Im", WEAKLING),
    ("Bandit", "Ba", WEAKLING),
    ("Thief", "Th", WEAKLING),
    ("Cultist", "Cu", WEAKLING),
    ("Kobold", "Ko", WEAKLING),
    # Rules 3 to 13, creatures with rules of their own.
    ("Rat", "Ra", SPECIAL),
    ("Wolf", "Wo", SPECIAL),
    ("Mimic", "Mm", SPECIAL),
    ("Mage", "Ma", SPECIAL),
    ("Orc", "Or", SPECIAL),
    ("Dwarf", "Dw", SPECIAL),
    ("Vampire", "Va", SPECIAL),
    ("Giant", "Gi", SPECIAL),
    ("Oracle", "Oc", SPECIAL),
    ("Reaper", "Re", SPECIAL),
    ("Titan", "Ti", SPECIAL),
    ("Chuck", "Ch", SPECIAL),
    # Terrain, rules 14 to 19 and 21.
    ("Spikes", "Si", TERRAIN),
    ("Swamp", "Sw", TERRAIN),
    ("Pit", "Pi", TERRAIN),
    ("Rubble", "Ru", TERRAIN),
    ("Moss", "Ms", TERRAIN),
    ("Planks", "Pl", TERRAIN),
    ("Bridge", "Br", TERRAIN),
    ("Wall", "##", TERRAIN),
    ("Lava", "La", TERRAIN),
    ("Tunnel", "Tu", TERRAIN),
    ("Shadow", "Sh", TERRAIN),
    *((str(digit), str(digit), TERRAIN) for digit in range(9)),
    # Items, rules 20 to 25 and the local rules.
    ("Gold", "Gd", ITEM),
    ("Gem", "Ge", ITEM),
    ("Scroll", "Sc", ITEM),
    ("Torch", "To", ITEM),
    ("Bow", "Bw", ITEM),
    ("Sword", "Sd", ITEM),
    ("Mask", "Mk", ITEM),
    ("Molotov", "Mo", ITEM),
    ("Mirror", "Mr", ITEM),
    ("Bazooka", "Bz", ITEM),
    ("Tweezers", "Tw", ITEM),
    ("Excalibur", "Ex", ITEM),
]

CONTENTS: dict[str, Content] = {name: Content(name, code, family) for name, code, family in _CATALOG}
EMPTY_CODE = "."

_LOOKUP: dict[str, str] = {}
for _content in CONTENTS.values():
    for _spelling in (_content.name, _content.code):
        if _LOOKUP.setdefault(_spelling.lower(), _content.name) != _content.name:
            raise AssertionError(f"code {_spelling} is ambiguous")
_LOOKUP["empty"] = ""
_LOOKUP[EMPTY_CODE] = ""

CREATURES = frozenset(name for name, content in CONTENTS.items() if content.is_creature)
ITEMS = frozenset(name for name, content in CONTENTS.items() if content.family == ITEM)
NUMBERS = {str(digit): digit for digit in range(9)}
PREY = frozenset({"Bandit", "Thief", "Cultist"})
DEADLY_TERRAIN = frozenset({"Spikes", "Swamp", "Pit"})
SAFE_TERRAIN = frozenset({"Rubble", "Moss", "Planks", "Bridge"})


# Contents whose rule acts on the walk (path rules) or belongs to the Boss's local rule.
PATH_CONTENTS = frozenset({"Bridge", "Tunnel", "Bow", "Sword", "Mask", "Molotov"})
BOSS_CONTENTS = frozenset({"Boss", "Bazooka", "Tweezers", "Excalibur"})
# What an open cell of a sketch (`?` in `twisty complete`) may be filled with: every content whose rules
# are static, and the empty cell.
FILLABLE = frozenset(CONTENTS) - PATH_CONTENTS - BOSS_CONTENTS | {""}


def content_named(token: str) -> str | None:
    """The canonical name for a code or full name (any case); "" for an empty cell; None if unknown."""
    return _LOOKUP.get(token.lower())


def code_of(name: str) -> str:
    return CONTENTS[name].code if name else EMPTY_CODE


RULE_NAMES: dict[int, str] = {
    1: "The bad guys",
    2: "The Weaklings",
    3: "The Rat",
    4: "The Wolf",
    5: "The Mimic",
    6: "The Mage",
    7: "Orcs and Dwarves",
    8: "The Vampire",
    9: "The Giant",
    10: "The Oracle",
    11: "The Reaper",
    12: "The Titan",
    13: "Chuck",
    14: "Deadly terrain",
    15: "Safe terrain and the Bridge",
    16: "Wall",
    17: "Lava",
    18: "Tunnel",
    19: "Number",
    20: "Safe items",
    21: "Torches and Shadows",
    22: "The Bow",
    23: "The Sword",
    24: "The Mask",
    25: "The Molotov Cocktail",
    # The two local rules, numbered after the 25 so that a rule is always one int.
    26: "Medusa and Mirror",
    27: "The Boss",
}
MEDUSA_RULE, BOSS_RULE = 26, 27
