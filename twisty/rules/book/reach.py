"""A bound on the cells any walk can stand on, found without searching the path states.

The walk search meets every set of removals a walk can make; proving that no walk reaches the exit means
meeting them all, and a field of Dragons and a Sword can make thousands. This bound decides many such books
at once: when the exit is outside it, no walk reaches the exit.

It is sound, not exact: a fixpoint over what some walk may have removed, granting every walker everything
any walker may have removed. Start with nothing removed. A cell is *possibly passable* when the book before
the walk makes it passable, or when a removal in the set could make it passable:

- any removal: the cell itself, and a Number among its eight neighbours (its count);
- a Reaper's, every cell in its reach; a Scroll's, a Mage beside it; a Mage's, a Scroll beside him; a
  Thief's, Gold and Gems beside it;
- a Wolf's, in its pack and the cells beside it (a smaller pack, another attack); an Orc's or a Dwarf's, in
  its melee; a Rat's, among the Rats of its spread; a Vampire's or a prey's (Bandit, Thief, Cultist), in the
  chain of Vampires and prey it belongs to (what it converted turns back);
- any of those, or a Mage's, a Torch's or a Mirror's, beside an Oracle: they may make a creature deadly
  (a Wraith no Mage calms, a cell a pack now attacks), and four deadly creatures around an Oracle make her
  neighbours safe.

A Giant's removal (what it crushed comes back, anything at all), a Titan's (its band of Walls lifts) or a
Medusa's (what she petrified is itself again) may reach anywhere: then there is no bound (None). Otherwise
what a cell is stays as before the walk or becomes empty (or, in a Vampire's chain, its own prey again), and
a walker (a cell, a disguise, the page of a Sword held) may enter: a possibly passable cell by a step, a
Bridge's landing or a Tunnel's far end; from the Mask, a creature beside it, then creatures of that kind;
and no other cell. It may pick up any Sword it reaches and loses it beyond the Sword's pages. What the
walkers so reached may remove joins the set: the possible targets of every Bow reached, the Zombies in reach
of every Molotov reached with their eight neighbours, every Dragon a walker holding a Sword steps or lands on
within the Sword's pages, the Boss once every weapon of its rule was reached. The set only grows; when it
stops growing, the cells reached are the bound.
"""

from __future__ import annotations

from twisty.rules.book.contents import BOSS_RULE, CREATURES, ITEMS, PREY
from twisty.rules.book.evaluation import PASSABLE
from twisty.rules.book.path import PathRules, PathState
from twisty.rules.book.static import IMMUNE
from twisty.rules.book.topology import spread_of

# Contents whose removal may change any cell (see the module's docstring): no bound.
UNBOUNDED = frozenset({"Giant", "Titan", "Medusa"})
# Contents whose removal may make a creature beside an Oracle deadly.
TURNING = frozenset({"Wolf", "Orc", "Dwarf", "Rat", "Vampire", "Bandit", "Thief", "Cultist", "Mage", "Torch", "Mirror"})
PREY_CHAIN = frozenset({"Vampire", "Bandit", "Thief", "Cultist"})
NUMBERS = frozenset(str(digit) for digit in range(9))
NO_SWORD = -1

Walker = tuple[int, str | None, int]  # (cell, disguise, page of the Sword held or NO_SWORD)


class _Bound:
    def __init__(self, rules: PathRules) -> None:
        self.rules = rules
        self.book, self.shape = rules.book, rules.shape
        self.contents = rules.book.contents
        self.king, self.orthogonal = self.shape.king_table(), self.shape.orthogonal_table()
        identity = rules.evaluation(PathState()).identity
        self.status = rules.evaluation(PathState()).status
        # What a cell may be: what it is before the walk (a Mimic's copy, a converted prey) and its printed
        # content (a prey whose Vampire is removed). A crushed Mimic's copy is not known: no kinds.
        self.kinds = [
            ({what, identity[index]} - {""}) if not (what == "Mimic" and identity[index] == "") else set()
            for index, what in enumerate(self.contents)
        ]
        self.oracles = [index for index, found in enumerate(self.kinds) if "Oracle" in found]

    def page(self, cell: int) -> int:
        return cell // self.shape.page_size + self.shape.first_page

    def group(self, start: int, members: frozenset[str]) -> set[int]:
        """The cells joined to `start` by steps through cells of one of the `members` kinds."""
        found, pending = {start}, [start]
        while pending:
            for other in self.orthogonal[pending.pop()]:
                if other not in found and self.kinds[other] & members:
                    found.add(other)
                    pending.append(other)
        return found

    def possibly_passable(self, removed: set[int]) -> list[bool] | None:
        """Per cell, whether a walk that removed some of `removed` may find it passable; None: no bound."""
        kinds, king = self.kinds, self.king
        if any(not kinds[index] or kinds[index] & UNBOUNDED for index in removed if self.contents[index]):
            return None
        contents = self.contents
        changed = set(removed)
        turning = False
        for index in removed:
            found = kinds[index]
            turning = turning or bool(found & TURNING)
            changed.update(other for other in king[index] if contents[other] in NUMBERS)
            if "Reaper" in found:
                changed.update(other for near in king[index] for other in (near, *king[near]))
            if "Scroll" in found:
                changed.update(other for other in king[index] if "Mage" in kinds[other])
            if "Mage" in found:
                changed.update(other for other in king[index] if contents[other] == "Scroll")
            if "Thief" in found:
                changed.update(other for other in self.orthogonal[index] if contents[other] in ("Gold", "Gem"))
            if "Wolf" in found:
                pack = self.group(index, frozenset({"Wolf"}))
                changed |= pack | {other for cell in pack for other in self.orthogonal[cell]}
            if found & {"Orc", "Dwarf"}:
                changed |= self.group(index, frozenset({"Orc", "Dwarf"}))
            if "Rat" in found:
                spread = spread_of(self.page(index))
                changed |= {
                    cell for cell, there in enumerate(kinds) if "Rat" in there and spread_of(self.page(cell)) == spread
                }
            if found & PREY_CHAIN:
                changed |= self.group(index, PREY_CHAIN)
        if turning:
            changed |= {other for oracle in self.oracles for other in king[oracle]}
        passable = [found == PASSABLE for found in self.status]
        for cell in changed:
            passable[cell] = True
        return passable

    def explore(self, possibly: list[bool]) -> tuple[set[int], set[int]]:
        """The cells the walkers may stand on, and what they may remove (see the module's docstring)."""
        contents, kinds, steps, tunnels = self.contents, self.kinds, self.rules.steps, self.book.tunnels
        start = self.shape.index(self.book.entrance)
        seen: set[Walker] = set()
        pending: list[Walker] = []
        reached: set[int] = set()
        removes: set[int] = set()

        def visit(cell: int, disguise: str | None, sword: int) -> None:
            held_now: tuple[int, ...] = (sword,)
            if disguise is None:  # arriving (a step under the Mask is no arrival: the path rules' too)
                if sword != NO_SWORD and abs(self.page(cell) - sword) > 1:
                    sword = NO_SWORD  # beyond the Sword's pages it is lost
                held_now = (sword, self.page(cell)) if contents[cell] == "Sword" else (sword,)
            for held in held_now:
                walker = (cell, disguise, held)
                if walker not in seen:
                    seen.add(walker)
                    pending.append(walker)
                    reached.add(cell)

        def enter(cell: int, sword: int) -> None:
            if "Dragon" in kinds[cell] and sword != NO_SWORD and abs(self.page(cell) - sword) <= 1:
                removes.add(cell)  # slain (it may then be passable, within the next round's bound)
            for landing in (cell, tunnels[cell]) if cell in tunnels else (cell,):
                if possibly[landing]:
                    visit(landing, None, sword)

        visit(start, None, NO_SWORD)
        while pending:
            here, disguise, sword = pending.pop()
            for moved in steps[here]:
                if moved is None:
                    continue
                target, heading = moved
                if disguise is None:
                    enter(target, sword)
                    if contents[here] == "Mask":
                        for under in kinds[target] & CREATURES:
                            visit(target, under, sword)
                    if contents[here] == "Bridge":
                        beyond = steps[target][heading]
                        if beyond is not None:
                            enter(beyond[0], sword)
                else:
                    if possibly[target]:
                        visit(target, None, sword)
                    if disguise in kinds[target]:
                        visit(target, disguise, sword)
        for cell in reached:
            if contents[cell] == "Bow":
                removes.update(self.rules.possible_targets(cell))
            elif contents[cell] == "Molotov":
                for zombie in self.rules.possible_targets(cell):
                    removes.add(zombie)
                    removes.update(
                        other
                        for other in self.king[zombie]
                        if (contents[other] in CREATURES or contents[other] in ITEMS)
                        and contents[other] not in IMMUNE
                        and other != cell
                    )
        held = {contents[cell] for cell in reached}
        for rule in self.book.bosses:
            if set(rule.items) <= held:
                removes.update(cell for cell, what in enumerate(contents) if what == "Boss")
        return reached, removes


def cells_a_walk_may_reach(rules: PathRules) -> set[int] | None:
    """The cells a walker may stand on in some walk (a superset of the corridor), or None when a removal the
    walk may make may change the book anywhere (no bound)."""
    bound = _Bound(rules)
    removed: set[int] = set()
    while True:
        possibly = bound.possibly_passable(removed)
        if possibly is None:
            return None
        reached, removes = bound.explore(possibly)
        if removes <= removed:
            return reached
        removed |= removes


# The path rules a move may use, by the content that makes it possible (docs/book.md, "rules_fired").
PATH_RULES = {"Bridge": 15, "Tunnel": 18, "Bow": 22, "Sword": 23, "Mask": 24, "Molotov": 25, "Boss": BOSS_RULE}


def rules_that_may_fire(rules: PathRules, reach: set[int]) -> set[int]:
    """The rules that may fire in some walk (a superset of `rules_fired`), for a book whose cells a walk may
    reach are bounded by `reach` (`cells_a_walk_may_reach`: then no Giant, Titan or Medusa is ever removed).

    A static rule decides the cells of the contents it names, and the walk only removes contents: what a cell
    is changes otherwise only where a removal undoes what another rule did, and with Giants, Titans and
    Medusas staying that is a prey freed from a removed Vampire (a Weakling again, rule 2) and a Wraith whose
    Mage was removed (a bad guy, rule 1). So every static rule that fires in some walk fires before the walk,
    or is one of those two. A path rule fires only from its content, within reach: a Bow or a Molotov with
    something it could hit, a Sword with a Dragon within its pages, the Mask, a Bridge, a Tunnel, the Boss."""
    before = rules.evaluation(PathState())
    found = set(before.fired)
    kinds = set(rules.book.contents) | set(before.identity)
    if "Wraith" in kinds:
        found.add(1)
    if kinds & PREY:
        found.add(2)
    contents = rules.book.contents
    for cell in reach:
        what = contents[cell]
        if what in ("Bow", "Molotov") and not rules.possible_targets(cell):
            continue  # nothing it could ever hit
        if what == "Sword" and not rules.sword_reach.get(rules.page_of(cell)):
            continue  # no Dragon it could ever slay
        if what in PATH_RULES:
            found.add(PATH_RULES[what])
    if "Boss" in kinds:
        found.add(BOSS_RULE)
    return found
