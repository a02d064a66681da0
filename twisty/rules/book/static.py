"""The static rules: which cells are deadly, passable or impassable, phase by phase as in docs/book.md.

Each rule is one function: its docstring quotes the rulebook, and it returns the cells it decides and why
(`Decision`s). `evaluate` runs the phases in docs/book.md's order, each phase reading the ones before it:

1. identity (Mimic), 2. removal (by the path, then Giant crush), 3. conversion (Vampire),
4. groups (Wolf, Orcs and Dwarves, Rat), 5. intrinsic and area effects, 6. overrides (Chuck, Oracle,
Medusa).

`removed` carries the creatures and items the walk has taken away (Bow, Molotov, Sword, Boss): the path
rules in `path.py` call `evaluate` again with a larger `removed` whenever that changes.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterator, Mapping
from typing import NamedTuple

from twisty.limits import Deadline
from twisty.rules.book.contents import (
    BOSS_RULE,
    CONTENTS,
    CREATURES,
    DEADLY_TERRAIN,
    ITEMS,
    MEDUSA_RULE,
    MONSTER,
    NUMBERS,
    PREY,
    SAFE_TERRAIN,
    WEAKLING,
)
from twisty.rules.book.evaluation import DEADLY, PASSABLE, PETRIFIED, WALL, Evaluation
from twisty.rules.book.model import Book
from twisty.rules.book.topology import DIRECTIONS, DOWN, LEFT, RIGHT, UP, spread_of

# A rule's verdict only ever makes a cell worse in phase 5; the overrides of phase 6 set it outright.
_SEVERITY = {PASSABLE: 0, DEADLY: 1, WALL: 2, PETRIFIED: 2}

# Creatures no rule can take away (the Oracle is "immune to all effects"; "the rules bend around Chuck").
IMMUNE = frozenset({"Oracle", "Chuck"})

WOLF_ATTACK = {3: RIGHT, 4: LEFT, 5: DOWN, 6: UP}
_BAD_GUYS = frozenset(name for name, content in CONTENTS.items() if content.family == MONSTER) - {"Boss"}
_WEAKLINGS = frozenset(name for name, content in CONTENTS.items() if content.family == WEAKLING)
MAX_PACK = 6


# Other reasonable readings of the rulebook (docs/book.md, "Ambiguity"); the default reading is docs/book.md's.
CONVERSION_BEFORE_CRUSH = "conversion-before-crush"  # phase 3 (Vampire) before the Giant crush of phase 2
CHUCK_KEEPS_WALLS = "chuck-keeps-walls"  # Walls on Chuck's page stay impassable
REMOVED_MAGE_CALMS = "removed-mage-calms"  # a removed Mage still calms his page's Wraiths
READINGS = (CONVERSION_BEFORE_CRUSH, CHUCK_KEEPS_WALLS, REMOVED_MAGE_CALMS)


class Decision(NamedTuple):
    """One rule's word on one cell: the status it gives (None: only changes what the cell is) and why."""

    index: int  # type: ignore[assignment]  # the cell's index; it shadows tuple.index, never called here
    verdict: int | None
    why: str


class PackTooLarge(Exception):
    """A Wolf pack of more than six: the level is invalid ("A pack can never contain more than six")."""

    def __init__(self, cells: list[int]) -> None:
        super().__init__(f"a pack of {len(cells)} Wolves (at most {MAX_PACK})")
        self.cells = cells


def a(name: str) -> str:
    """The name with its indefinite article ("an Ogre", "a Troll")."""
    return f"{'an' if name[:1].lower() in 'aeiou' else 'a'} {name}"


def where(book: Book, index: int) -> str:
    page, row, col = book.shape.cell(index)
    return f"page {page}, row {row}, col {col}"


class _Context:
    """The evaluation under way: what each cell is now and the status decided so far."""

    def __init__(
        self,
        book: Book,
        removed: Mapping[int, tuple[int, str]],
        reading: frozenset[str],
        deadline: Deadline | None = None,
        explain: bool = True,
    ) -> None:
        self.explain = explain
        # Called after every rule (and once per page while the tables are built): the level's deadline
        # raises LimitReached there, so one evaluation of a large book never overruns it by much.
        self.poll = deadline.check if deadline is not None else None
        book.shape.build_tables(self.poll)
        self.reading = reading
        self.removed_identity: dict[int, str] = {}
        self.book = book
        self.shape = book.shape
        self.steps = book.shape.step_table()
        self.orthogonal = book.shape.orthogonal_table()
        self.king = book.shape.king_table()
        self.identity = list(book.contents)
        self.removed: dict[int, tuple[int, str]] = {}
        self.path_removed = removed
        self.status = [PASSABLE] * len(self.identity)
        self.reasons: dict[int, list[tuple[int, int | None, str]]] = {}
        self.fired: set[int] = set()
        self.wall_like: set[int] = set()  # Walls and Titan-band cells: opaque, not protected
        self.pages = {page: book.shape.page_cells(page) for page in book.shape.pages}
        self._by_name: dict[str, list[int]] | None = None

    def page_of(self, index: int) -> int:
        return index // self.shape.page_size + self.shape.first_page

    def record(self, rule: int, decisions: list[Decision], *, override: bool = False) -> None:
        if self.poll is not None:
            self.poll()
        if not self.explain:
            # The same verdicts without keeping why (the walk search asks for the statuses alone).
            if decisions:
                self.fired.add(rule)
            status = self.status
            for index, verdict, _why in decisions:
                if verdict is not None and (override or _SEVERITY[verdict] > _SEVERITY[status[index]]):
                    status[index] = verdict
            return
        for index, verdict, why in decisions:
            self.reasons.setdefault(index, []).append((rule, verdict, why))
            self.fired.add(rule)
            if verdict is None:
                continue
            if override or _SEVERITY[verdict] > _SEVERITY[self.status[index]]:
                self.status[index] = verdict

    def remove(self, rule: int, index: int, why: str) -> None:
        self.removed[index] = (rule, why)
        self.removed_identity[index] = self.identity[index]
        self.become(index, "")

    def become(self, index: int, name: str) -> None:
        self.identity[index] = name
        self._by_name = None

    def cells_by_name(self) -> dict[str, list[int]]:
        """The cells of each content now (after the identity changes made so far), in index order."""
        if self._by_name is None:
            by_name: dict[str, list[int]] = {}
            for index, what in enumerate(self.identity):
                if what:
                    by_name.setdefault(what, []).append(index)
            self._by_name = by_name
        return self._by_name

    def cells_of(self, name: str) -> list[int]:
        """The cells that are `name` now, in index order."""
        return self.cells_by_name().get(name, [])

    def cells_of_any(self, names: Collection[str]) -> list[int]:
        by_name = self.cells_by_name()
        return sorted(index for name in by_name.keys() & set(names) for index in by_name[name])

    def where(self, index: int) -> str:
        """`where` for the rules' words; nothing when the evaluation keeps none (`explain` off)."""
        return where(self.book, index) if self.explain else ""

    def is_creature(self, index: int) -> bool:
        return self.identity[index] in CREATURES

    def spread_rows(self) -> Iterator[list[int]]:
        """Each row of each spread as one line of cells, left page then right page (across the gutter)."""
        width = self.shape.width
        spreads: dict[int, list[int]] = {}
        for page in self.shape.pages:
            spreads.setdefault(spread_of(page), []).append(page)
        for pages in spreads.values():
            for row in range(self.shape.height):
                line: list[int] = []
                for page in sorted(pages):
                    start = self.pages[page][0] + row * width
                    line.extend(range(start, start + width))
                yield line

    def page_columns(self):
        width, height = self.shape.width, self.shape.height
        for cells in self.pages.values():
            for col in range(width):
                yield [cells[row * width + col] for row in range(height)]

    def light_ray(self, index: int, direction: int) -> list[int]:
        """Cells along a spread-bounded ray, up to (not including) the first Wall or Titan-band cell."""
        spread = spread_of(self.page_of(index))
        found = []
        here, heading = index, direction
        while True:
            moved = self.steps[here][heading]
            if moved is None:
                break
            here, heading = moved
            if here == index or spread_of(self.page_of(here)) != spread or here in self.wall_like:
                break
            found.append(here)
        return found


# --- phase 1: identity ------------------------------------------------------------------------------


def rule_mimic(ctx: _Context) -> list[Decision]:
    """Rule 5, the Mimic: "It copies the identity and the powers of its horizontal neighbor: on a left-hand
    page (even-numbered), it copies the cell to its right; on a right-hand page (odd-numbered), it copies the
    cell to its left. Always toward the inside of the book. It only copies monsters and other living
    creatures. If the neighboring cell contains terrain, an item, or a Wall, the Mimic copies nothing and
    remains harmless and passable. If several Mimics copy one another, follow the chain back to the first
    non-Mimic cell."

    Never beyond the spread; a chain that loops back across the gutter copies nothing (docs/book.md, phase 1).
    """
    decisions = []
    contents = ctx.book.contents
    for index in [i for i, what in enumerate(contents) if what == "Mimic"]:
        here, seen = index, {index}
        spread = spread_of(ctx.page_of(index))
        copied = None
        while True:
            toward_gutter = RIGHT if ctx.page_of(here) % 2 == 0 else LEFT
            moved = ctx.steps[here][toward_gutter]
            if moved is None or spread_of(ctx.page_of(moved[0])) != spread or moved[0] in seen:
                break
            here = moved[0]
            seen.add(here)
            if contents[here] != "Mimic":
                copied = here if contents[here] in CREATURES else None
                break
        if copied is None:
            decisions.append(Decision(index, PASSABLE, "a Mimic that copies nothing stays harmless and passable"))
        else:
            ctx.become(index, contents[copied])
            decisions.append(Decision(index, None, f"Mimic -> {contents[copied]} (copied from {ctx.where(copied)})"))
    return decisions


# --- phase 2: removal -------------------------------------------------------------------------------


def apply_path_removals(ctx: _Context) -> None:
    """Creatures and items already taken away by the walk (Bow, Molotov, Sword, Boss) are gone."""
    for index, (rule, why) in ctx.path_removed.items():
        ctx.remove(rule, index, why)
        ctx.record(rule, [Decision(index, PASSABLE, why)])


def rule_giant_crush(ctx: _Context) -> list[Decision]:
    """Rule 9, the Giant: "If two Giants are aligned on the same row or the same column of a spread, every
    creature strictly between them is crushed and their cells become passable. Careful! Terrain and items
    remain unchanged. The Giants themselves stay deadly."

    A row runs across the gutter; a column is one page's column (docs/book.md, phase 2).
    """
    decisions: list[Decision] = []
    if len(ctx.cells_of("Giant")) < 2:
        return decisions  # no two Giants: nothing between them
    lines = list(ctx.spread_rows()) + list(ctx.page_columns())
    for line in lines:
        giants = [position for position, index in enumerate(line) if ctx.identity[index] == "Giant"]
        if len(giants) < 2:
            continue
        first, last = line[giants[0]], line[giants[-1]]
        for index in line[giants[0] + 1 : giants[-1]]:
            what = ctx.identity[index]
            if what in CREATURES and what != "Giant" and what not in IMMUNE:
                why = f"{what} crushed between the Giants at {ctx.where(first)} and {ctx.where(last)}"
                ctx.remove(9, index, why)
                decisions.append(Decision(index, PASSABLE, why))
    return decisions


# --- phase 3: conversion ----------------------------------------------------------------------------


def rule_vampire_conversion(ctx: _Context) -> list[Decision]:
    """Rule 8, the Vampire: "The Bandits, Thieves, and Cultists in any of the four cells orthogonally adjacent
    to him become deadly Vampires in turn. Each new victim then contaminates the adjacent prey, always
    orthogonally, and so on until there's nothing left to convert. Never diagonally. Anything that isn't
    prey halts the spread."
    """
    decisions = []
    queue = deque(ctx.cells_of("Vampire"))
    while queue:
        vampire = queue.popleft()
        for other in ctx.orthogonal[vampire]:
            prey = ctx.identity[other]
            if prey in PREY:
                ctx.become(other, "Vampire")
                decisions.append(Decision(other, None, f"{prey} -> Vampire (spread from {ctx.where(vampire)})"))
                queue.append(other)
    return decisions


# --- phase 4: groups --------------------------------------------------------------------------------


def _components(ctx: _Context, members: set[int]) -> list[list[int]]:
    groups, seen = [], set()
    for start in sorted(members):
        if start in seen:
            continue
        group, queue = [], [start]
        seen.add(start)
        while queue:
            here = queue.pop()
            group.append(here)
            for other in ctx.orthogonal[here]:
                if other in members and other not in seen:
                    seen.add(other)
                    queue.append(other)
        groups.append(sorted(group))
    return groups


def rule_wolf(ctx: _Context) -> list[Decision]:
    """Rule 4, the Wolf: "A lone Wolf is just a large depressed dog. Its cell stays passable. But place two
    Wolves in orthogonally adjacent cells [...] they form a pack, and all their cells become deadly at once.
    Once a pack contains three or more, each Wolf also attacks one adjacent cell, which becomes deadly in
    turn." 3 Wolves: to the right; 4: to the left; 5: downward; 6: upward. "A pack can never contain more
    than six Wolves."

    The attack direction is read in each Wolf's own page, and the attacked cell is found with `step`.
    """
    decisions = []
    for pack in _components(ctx, set(ctx.cells_of("Wolf"))):
        size = len(pack)
        if size > MAX_PACK:
            raise PackTooLarge(pack)
        if size == 1:
            decisions.append(Decision(pack[0], PASSABLE, "a lone Wolf stays passable"))
            continue
        for wolf in pack:
            decisions.append(Decision(wolf, DEADLY, f"a Wolf in a pack of {size}"))
        if size in WOLF_ATTACK:
            direction = WOLF_ATTACK[size]
            for wolf in pack:
                moved = ctx.steps[wolf][direction]
                if moved is not None:
                    decisions.append(
                        Decision(moved[0], DEADLY, f"attacked by the Wolf at {ctx.where(wolf)} (pack of {size})")
                    )
    return decisions


def rule_orcs_and_dwarves(ctx: _Context) -> list[Decision]:
    """Rule 7, Orcs and Dwarves: "As soon as an Orc and a Dwarf share a side, a melee breaks out. [...] Count
    both sides. The smaller one is cut to pieces and its cells become passable. The majority side, naturally,
    remains thoroughly deadly. On a tie, they slaughter each other to the last man: all the cells then become
    passable. Outside a melee, an Orc or a Dwarf stays deadly."

    A melee is a connected set of Orc and Dwarf cells holding both kinds (docs/book.md, phase 4).
    """
    decisions = []
    fighters = set(ctx.cells_of_any(("Orc", "Dwarf")))
    for group in _components(ctx, fighters):
        orcs = [index for index in group if ctx.identity[index] == "Orc"]
        dwarves = [index for index in group if ctx.identity[index] == "Dwarf"]
        if not orcs or not dwarves:
            for index in group:
                decisions.append(Decision(index, DEADLY, f"{a(ctx.identity[index])} outside any melee"))
            continue
        tally = f"{len(orcs)} Orcs v {len(dwarves)} Dwarves"
        for side, other in ((orcs, dwarves), (dwarves, orcs)):
            for index in side:
                if len(side) < len(other):
                    decisions.append(Decision(index, PASSABLE, f"the smaller side of a melee ({tally}) is cut down"))
                elif len(side) == len(other):
                    decisions.append(Decision(index, PASSABLE, f"a tied melee ({tally}): all fall"))
                else:
                    decisions.append(Decision(index, DEADLY, f"the larger side of a melee ({tally})"))
    return decisions


def rule_rat(ctx: _Context) -> list[Decision]:
    """Rule 3, the Rat: "ten Rats on a spread, and every Rat on that spread becomes deadly. Nine, you walk
    through. Ten, you die."
    """
    by_spread: dict[int, list[int]] = {}
    for index in ctx.cells_of("Rat"):
        by_spread.setdefault(spread_of(ctx.page_of(index)), []).append(index)
    decisions = []
    for spread, rats in by_spread.items():
        verdict = DEADLY if len(rats) >= 10 else PASSABLE
        why = f"{rat_count(len(rats))} on {spread_name(ctx.shape.spread_pages(spread))}"
        why += ": ten or more, every Rat there turns deadly" if verdict == DEADLY else ": fewer than ten, safe"
        for index in rats:
            decisions.append(Decision(index, verdict, why))
    return decisions


def rat_count(count: int) -> str:
    """ "1 Rat", "9 Rats" (the rulebook's "Nine Rats on the spread")."""
    return f"{count} Rat" if count == 1 else f"{count} Rats"


def spread_name(pages: list[int]) -> str:
    """A spread as a reader finds it, by its pages: "the spread of pages 2-3", or "the spread of page 1" (page 1
    is alone on the first spread, and a level may hold one page of a spread only)."""
    if len(pages) == 1:
        return f"the spread of page {pages[0]}"
    return f"the spread of pages {pages[0]}-{pages[-1]}"


# --- phase 5: intrinsic and area effects --------------------------------------------------------------


def rule_wall(ctx: _Context) -> list[Decision]:
    """Rule 16, Wall: "The Wall is impassable and opaque: it blocks your passage, torchlight, prying eyes"."""
    walls = ctx.cells_of("Wall")
    ctx.wall_like.update(walls)
    return [Decision(index, WALL, "a Wall") for index in walls]


def rule_titan(ctx: _Context) -> list[Decision]:
    """Rule 12, the Titan: "His presence makes a band of three rows deadly: his own, the one above, and the one
    below. [...] this band extends across three spreads — six pages in all: the spread containing the Titan,
    the one before it, and the one after it. [...] This band blocks light and acts as a Wall."

    Rows beyond the page's top or bottom are not wrapped: the band is clipped to the page (docs/book.md).
    """
    decisions = []
    height, width = ctx.shape.height, ctx.shape.width
    for titan in ctx.cells_of("Titan"):
        page, row, _col = ctx.shape.cell(titan)
        spread = spread_of(page)
        for other_spread in (spread - 1, spread, spread + 1):
            for band_page in ctx.shape.spread_pages(other_spread):
                start = ctx.pages[band_page][0]
                for band_row in range(max(0, row - 1), min(height, row + 2)):
                    for col in range(width):
                        index = start + band_row * width + col
                        ctx.wall_like.add(index)
                        decisions.append(Decision(index, WALL, f"in the band of the Titan at {ctx.where(titan)}"))
    return decisions


def rule_bad_guys(ctx: _Context, mage_pages: set[int]) -> list[Decision]:
    """Rule 1, the bad guys: "they're all deadly [...] You may only pass through their cells if an item or
    some other effect neutralizes them."

    Wraiths on a page with a Mage are left to rule 6; the Boss to its local rule.
    """
    decisions = []
    for index in ctx.cells_of_any(_BAD_GUYS):
        what = ctx.identity[index]
        if what == "Wraith" and ctx.page_of(index) in mage_pages:
            continue
        decisions.append(Decision(index, DEADLY, f"{a(what)} (a bad guy)" if ctx.explain else ""))
    return decisions


def rule_weaklings(ctx: _Context) -> list[Decision]:
    """Rule 2, the Weaklings: "the Goblin, the Imp, the Bandit, the Thief, the Cultist, and the Kobold.
    [...] their cells are safe and passable. [...] Until, of course, another rule decides those cells are
    deadly."
    """
    if not ctx.explain:
        return [Decision(index, PASSABLE, "") for index in ctx.cells_of_any(_WEAKLINGS)]
    return [
        Decision(index, PASSABLE, f"{a(ctx.identity[index])} (a Weakling)") for index in ctx.cells_of_any(_WEAKLINGS)
    ]


def rule_mage(ctx: _Context, mage_pages: set[int]) -> list[Decision]:
    """Rule 6, the Mage: "An isolated Mage is safe. [...] as long as a Mage is present on the page, all the
    Wraiths on that same page are harmless. [...] But if a Scroll occupies any of the Mage's eight
    neighboring cells, the Mage becomes deadly himself."
    """
    decisions = []
    for index in ctx.cells_of_any(("Mage", "Wraith")):
        what = ctx.identity[index]
        if what == "Mage":
            scrolls = [other for other in ctx.king[index] if ctx.identity[other] == "Scroll"]
            if scrolls:
                decisions.append(Decision(index, DEADLY, f"a Mage beside the Scroll at {ctx.where(scrolls[0])}"))
            else:
                decisions.append(Decision(index, PASSABLE, "a Mage with no Scroll beside him is safe"))
        elif what == "Wraith" and ctx.page_of(index) in mage_pages:
            decisions.append(
                Decision(index, PASSABLE, f"a Wraith made harmless by the Mage on page {ctx.page_of(index)}")
            )
    return decisions


def rule_vampire(ctx: _Context) -> list[Decision]:
    """Rule 8, the Vampire: "The Vampire is deadly."  (Converted prey are Vampires too.)"""
    return [Decision(index, DEADLY, "a Vampire") for index in ctx.cells_of("Vampire")]


def rule_giant(ctx: _Context) -> list[Decision]:
    """Rule 9, the Giant: "The Giants themselves stay deadly." (A Giant kills whether paired or not.)"""
    return [Decision(index, DEADLY, "a Giant") for index in ctx.cells_of("Giant")]


def rule_reaper(ctx: _Context) -> list[Decision]:
    """Rule 11, the Reaper: "Every cell within two cells of the Reaper becomes deadly, diagonals included."

    Within two cells = within two king moves through `step` (docs/book.md).
    """
    decisions = []
    for reaper in ctx.cells_of("Reaper"):
        decisions.append(Decision(reaper, DEADLY, "a Reaper"))
        reach, frontier = {reaper}, [reaper]
        for _ in range(2):
            frontier = [other for here in frontier for other in ctx.king[here] if other not in reach]
            reach.update(frontier)
        for index in sorted(reach - {reaper}):
            decisions.append(Decision(index, DEADLY, f"within two cells of the Reaper at {ctx.where(reaper)}"))
    return decisions


def rule_deadly_terrain(ctx: _Context) -> list[Decision]:
    """Rule 14, deadly terrain: "Spikes, Swamps, and Pits are deadly.\""""
    if not ctx.explain:
        return [Decision(index, DEADLY, "") for index in ctx.cells_of_any(DEADLY_TERRAIN)]
    return [
        Decision(index, DEADLY, f"{ctx.identity[index]} (deadly terrain)") for index in ctx.cells_of_any(DEADLY_TERRAIN)
    ]


def rule_safe_terrain(ctx: _Context) -> list[Decision]:
    """Rule 15, safe terrain and the Bridge: "Rubble, Moss, and Planks are passable without danger. The Bridge
    is safe." (The Bridge's jump is a path rule, in path.py.)"""
    if not ctx.explain:
        return [Decision(index, PASSABLE, "") for index in ctx.cells_of_any(SAFE_TERRAIN)]
    return [
        Decision(index, PASSABLE, f"{ctx.identity[index]} (safe terrain)") for index in ctx.cells_of_any(SAFE_TERRAIN)
    ]


def rule_lava(ctx: _Context) -> list[Decision]:
    """Rule 17, Lava: "Its four orthogonally adjacent cells become deadly as well. [...] never diagonally.\""""
    decisions = []
    for lava in ctx.cells_of("Lava"):
        decisions.append(Decision(lava, DEADLY, "Lava"))
        for other in ctx.orthogonal[lava]:
            decisions.append(Decision(other, DEADLY, f"beside the Lava at {ctx.where(lava)}"))
    return decisions


def rule_tunnel(ctx: _Context) -> list[Decision]:
    """Rule 18, Tunnel: "Their cells are safe and let you pass directly from one side to the other."
    (The passage itself is a path rule.)"""
    return [Decision(index, PASSABLE, "a Tunnel (safe)") for index in ctx.cells_of("Tunnel")]


def rule_number(ctx: _Context) -> list[Decision]:
    """Rule 19, Number: "The digit tells you exactly how many of the cell's eight neighboring cells must
    contain creatures. If the count matches, the cell is safe. Otherwise, it kills you.\""""
    decisions = []
    for index in ctx.cells_of_any(NUMBERS):
        what = ctx.identity[index]
        if what in NUMBERS:
            count = sum(1 for other in ctx.king[index] if ctx.identity[other] in CREATURES)
            wanted = NUMBERS[what]
            if count == wanted:
                decisions.append(Decision(index, PASSABLE, f"Number {wanted}: {count} creatures around, it matches"))
            else:
                decisions.append(Decision(index, DEADLY, f"Number {wanted}: {count} creatures around, wrong count"))
    return decisions


def rule_safe_items(ctx: _Context, mage_cells: set[int]) -> list[Decision]:
    """Rule 20, safe items: "Gold and Gems become deadly when a Thief occupies one of the four cells
    orthogonally adjacent to them. The Scroll is also safe, but... if it occupies any of a Mage's eight
    neighboring cells, it becomes deadly."

    Every other item (Bow, Sword, Mask, Molotov, Mirror, the Boss's weapons) is safe to stand on too.
    """
    decisions = []
    for index in ctx.cells_of_any(ITEMS - {"Torch"}):
        what = ctx.identity[index]
        if what in ("Gold", "Gem"):
            thieves = [other for other in ctx.orthogonal[index] if ctx.identity[other] == "Thief"]
            if thieves:
                decisions.append(Decision(index, DEADLY, f"{what} guarded by the Thief at {ctx.where(thieves[0])}"))
                continue
        if what == "Scroll":
            mages = [other for other in ctx.king[index] if other in mage_cells]
            if mages:
                decisions.append(Decision(index, DEADLY, f"a Scroll beside the Mage at {ctx.where(mages[0])}"))
                continue
        decisions.append(Decision(index, PASSABLE, f"{what} (a safe item)" if ctx.explain else ""))
    return decisions


def rule_torches_and_shadows(ctx: _Context) -> list[Decision]:
    """Rule 21, torches and shadows: "A Shadow is deadly. Unless it's lit. The Torch is safe. Its light runs
    the full length of its row and its column, but never beyond its spread; Walls stop the beam. [...] This
    light makes Shadows safe — nothing else."
    """
    lit_by: dict[int, int] = {}
    decisions = []
    for torch in ctx.cells_of("Torch"):
        decisions.append(Decision(torch, PASSABLE, "a Torch (safe)"))
        for direction in DIRECTIONS:
            for index in ctx.light_ray(torch, direction):
                lit_by.setdefault(index, torch)
    for shadow in ctx.cells_of("Shadow"):
        if shadow in lit_by:
            decisions.append(Decision(shadow, PASSABLE, f"a Shadow lit by the Torch at {ctx.where(lit_by[shadow])}"))
        else:
            decisions.append(Decision(shadow, DEADLY, "a Shadow no Torch lights"))
    return decisions


def rule_boss(ctx: _Context) -> list[Decision]:
    """Local rule, the Boss: "To kill it, pick up the three hidden weapons: Bazooka, Tweezers, Excalibur."
    Until the walker holds them all, the Boss is deadly (path.py removes it then)."""
    return [
        Decision(index, DEADLY, "the Boss, alive until the walker holds its weapons") for index in ctx.cells_of("Boss")
    ]


def rule_passable_creatures(ctx: _Context) -> list[tuple[int, list[Decision]]]:
    """The Oracle and Chuck are safe in themselves (rules 10 and 13); their overrides come in phase 6."""
    return [
        (10, [Decision(index, PASSABLE, "the Oracle is always safe") for index in ctx.cells_of("Oracle")]),
        (13, [Decision(index, PASSABLE, "Chuck") for index in ctx.cells_of("Chuck")]),
    ]


# --- phase 6: overrides -----------------------------------------------------------------------------


def rule_chuck(ctx: _Context) -> list[Decision]:
    """Rule 13, Chuck: "A Chuck cell makes its entire page passable: monsters, terrain, and items included."

    Walls and Titan-band cells on his page become passable too, but still stop light (docs/book.md, phase 6).
    """
    decisions = []
    for page in sorted({ctx.page_of(index) for index in ctx.cells_of("Chuck")}):
        chuck = next(index for index in ctx.pages[page] if ctx.identity[index] == "Chuck")
        for index in ctx.pages[page]:
            if CHUCK_KEEPS_WALLS in ctx.reading and ctx.identity[index] == "Wall":
                continue
            decisions.append(Decision(index, PASSABLE, f"on Chuck's page (Chuck at {ctx.where(chuck)})"))
    return decisions


def oracle_threats(ctx: _Context) -> dict[int, list[int]]:
    """Rule 10, the Oracle's count: "If at least four of the eight cells around her contain deadly monsters".

    Counted as the cells stand after phase 5, before any override (docs/book.md, phase 6): Chuck's page does not
    change whether the Oracle protects, so a Troll on Chuck's own page still counts. "Deadly monsters" are
    creatures whose cell is deadly; Titan-band cells are Walls, not deadly, and do not count.
    """
    return {
        oracle: [
            index for index in ctx.king[oracle] if ctx.identity[index] in CREATURES and ctx.status[index] == DEADLY
        ]
        for oracle in ctx.cells_of("Oracle")
    }


def rule_oracle(ctx: _Context, threats: Mapping[int, list[int]]) -> list[Decision]:
    """Rule 10, the Oracle: "She is always safe, passable, and immune to all effects. No rule can make her
    deadly. If at least four of the eight cells around her contain deadly monsters, all eight neighboring
    cells become safe and passable except Wall cells."

    `threats` are her deadly neighbours counted before any override (oracle_threats).
    """
    decisions = []
    for oracle in ctx.cells_of("Oracle"):
        decisions.append(Decision(oracle, PASSABLE, "the Oracle is immune to all effects"))
        around = ctx.king[oracle]
        count = len(threats.get(oracle, ()))
        if count < 4:
            continue
        for index in around:
            if index not in ctx.wall_like:
                decisions.append(
                    Decision(
                        index,
                        PASSABLE,
                        f"protected by the Oracle at {ctx.where(oracle)} ({count} deadly creatures around her)",
                    )
                )
    return decisions


def rule_medusa(ctx: _Context) -> list[Decision]:
    """Local rule, Medusa and Mirror: "On this spread, a Medusa petrifies every creature in her row and column,
    up to the first Wall, except other Medusas. A petrified creature is impassable. A Mirror in a Medusa's row
    or column, with no Wall between them, petrifies the Medusa: her cell becomes safe and she no longer
    petrifies any creatures."

    The Oracle and Chuck are immune to petrification (docs/book.md).
    """
    decisions = []
    for medusa in ctx.cells_of("Medusa"):
        if spread_of(ctx.page_of(medusa)) not in ctx.book.medusa_spreads:
            continue
        seen = [index for direction in DIRECTIONS for index in ctx.light_ray(medusa, direction)]
        mirrors = [index for index in seen if ctx.identity[index] == "Mirror"]
        if mirrors:
            decisions.append(Decision(medusa, PASSABLE, f"a Medusa petrified by the Mirror at {ctx.where(mirrors[0])}"))
            continue
        for index in seen:
            what = ctx.identity[index]
            if what in CREATURES and what != "Medusa" and what not in IMMUNE:
                decisions.append(Decision(index, PETRIFIED, f"{what} petrified by the Medusa at {ctx.where(medusa)}"))
    return decisions


# --- the phases in order ----------------------------------------------------------------------------


def evaluate(
    book: Book,
    removed: Mapping[int, tuple[int, str]] | None = None,
    reading: frozenset[str] = frozenset(),
    deadline: Deadline | None = None,
    *,
    explain: bool = True,
) -> Evaluation:
    """Decide every cell of the book, given what the walk has removed so far.

    `reading` names the other readings (READINGS) to apply instead of docs/book.md's; empty for the contract.
    `deadline` (the level's) is polled between rules: past it, LimitReached is raised. Without `explain`, the
    reasons are not kept (the rules' words are not even written where that costs most) and are worked out
    when first asked for (`Evaluation.reasons`).
    """
    ctx = _Context(book, removed or {}, reading, deadline, explain)
    ctx.record(5, rule_mimic(ctx))
    apply_path_removals(ctx)
    if CONVERSION_BEFORE_CRUSH in reading:
        ctx.record(8, rule_vampire_conversion(ctx))
        ctx.record(9, rule_giant_crush(ctx))
    else:
        ctx.record(9, rule_giant_crush(ctx))
        ctx.record(8, rule_vampire_conversion(ctx))
    ctx.record(4, rule_wolf(ctx))
    ctx.record(7, rule_orcs_and_dwarves(ctx))
    ctx.record(3, rule_rat(ctx))

    ctx.record(16, rule_wall(ctx))
    ctx.record(12, rule_titan(ctx))
    mage_cells = set(ctx.cells_of("Mage"))
    mage_pages = {ctx.page_of(index) for index in mage_cells}
    if REMOVED_MAGE_CALMS in reading:
        mage_pages |= {ctx.page_of(index) for index, what in ctx.removed_identity.items() if what == "Mage"}
    ctx.record(1, rule_bad_guys(ctx, mage_pages))
    ctx.record(2, rule_weaklings(ctx))
    ctx.record(6, rule_mage(ctx, mage_pages))
    ctx.record(8, rule_vampire(ctx))
    ctx.record(9, rule_giant(ctx))
    ctx.record(11, rule_reaper(ctx))
    ctx.record(14, rule_deadly_terrain(ctx))
    ctx.record(15, rule_safe_terrain(ctx))
    ctx.record(17, rule_lava(ctx))
    ctx.record(18, rule_tunnel(ctx))
    ctx.record(19, rule_number(ctx))
    ctx.record(20, rule_safe_items(ctx, mage_cells))
    ctx.record(21, rule_torches_and_shadows(ctx))
    ctx.record(BOSS_RULE, rule_boss(ctx))
    for rule, decisions in rule_passable_creatures(ctx):
        ctx.record(rule, decisions)

    threats = oracle_threats(ctx)  # before Chuck's override (docs/book.md, phase 6)
    ctx.record(13, rule_chuck(ctx), override=True)
    ctx.record(10, rule_oracle(ctx, threats), override=True)
    ctx.record(MEDUSA_RULE, rule_medusa(ctx), override=True)
    return Evaluation(
        book,
        ctx.removed,
        ctx.identity,
        ctx.status,
        ctx.reasons if explain else None,
        ctx.fired,
        None if explain else (lambda later: evaluate(book, removed, reading, later).reasons),
    )
