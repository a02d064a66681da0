"""The Book's static rules as a circuit over what the cells hold: the model, and phases 1 to 4 (phases 5 and
6 are in `book_sat_effects`, and `book_sat.build_static` runs them all).

Every cell has a domain, the contents it may hold: one content for a fixed cell, several for a free one.
`holds(cell, name)` is a one-hot choice over the domain (a constant for a fixed cell). Each rule is one
function below that adds gates relating what the cells hold to what they are after its phase and to
"deadly", "wall-like" and "passable"; its docstring quotes the rule. The phases run in docs/book.md's order,
each reading the ones before it, exactly as the rule engine (`twisty.rules.book.static`) does:

1. identity (Mimic), 2. removal (by the walk, given as input literals, then the Giant crush), 3. conversion
(Vampire), 4. groups (Wolf, Orcs and Dwarves, Rat), 5. intrinsic and area effects, 6. overrides (Chuck,
Oracle, Medusa).

Groups and chains are least fixpoints. A fixed book's fixpoint folds to constants at any depth; over free
cells a chain is unrolled to a bound and a constraint holds every model to books whose chains end within it
(a Vampire chain of at most `chain_bound` conversions, a melee of at most `melee_bound` fighters; a Wolf
pack is at most six by the rulebook). The bounds only narrow what a generator may build; they never make
the circuit disagree with the rules on a book it accepts.
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field

from twisty.encodings.book_circuit import Circuit
from twisty.rules.book.contents import CONTENTS, CREATURES, ITEMS, MONSTER, PREY
from twisty.rules.book.topology import LEFT, RIGHT, BookShape, spread_of

IMMUNE = frozenset({"Oracle", "Chuck"})
BAD_GUYS = frozenset(name for name, content in CONTENTS.items() if content.family == MONSTER) - {"Boss"}
WOLF_ATTACK = {3: RIGHT, 4: LEFT, 5: 2, 6: 0}  # pack size -> direction (DOWN is 2, UP is 0)
MAX_PACK = 6
# Bounds on chains over free cells (see the module's docstring); a fixed book is exact at any length.
CHAIN_BOUND = 12
MELEE_BOUND = 8

Identity = dict[str, int]  # content name -> literal "the cell is this now" (names absent: false)


@dataclass(frozen=True)
class BookFrame:
    """What the rules need of a book besides its contents: the shape and the local rules."""

    shape: BookShape
    medusa_spreads: frozenset[int] = frozenset()

    @property
    def size(self) -> int:
        return self.shape.cell_count

    def page_of(self, index: int) -> int:
        return index // self.shape.page_size + self.shape.first_page

    def spread_of_cell(self, index: int) -> int:
        return spread_of(self.page_of(index))


class Contents:
    """What each cell holds: a one-hot choice over its domain ("" is an empty cell)."""

    def __init__(self, circuit: Circuit, frame: BookFrame, domains: Sequence[frozenset[str]]) -> None:
        self.circuit = circuit
        self.frame = frame
        self.domains = list(domains)
        self.choice: list[dict[str, int]] = []
        for index, domain in enumerate(self.domains):
            if not domain:
                raise ValueError(f"cell {frame.shape.cell(index)} may hold nothing at all")
            if len(domain) == 1:
                self.choice.append({next(iter(domain)): circuit.true})
                continue
            literals = {name: circuit.var(("holds", index, name)) for name in sorted(domain)}
            circuit.exactly_one(list(literals.values()))
            self.choice.append(literals)

    def holds(self, index: int, name: str) -> int:
        return self.choice[index].get(name, self.circuit.false)

    def may_hold(self, index: int, names: frozenset[str] | set[str]) -> bool:
        return not self.domains[index].isdisjoint(names)

    def read(self, true: frozenset[int] | set[int]) -> list[str]:
        """The content of every cell in a model (given its true variables)."""
        found = []
        for literals in self.choice:
            found.append(
                next(name for name, literal in literals.items() if literal == self.circuit.true or literal in true)
            )
        return found


@dataclass
class StaticModel:
    """One evaluation of the book as circuit literals: for a given set of removals by the walk (`removed`,
    cell -> literal), what every cell is and its status after all six phases. `tag` keeps the names of
    several evaluations of one book apart (one per epoch of the walk)."""

    circuit: Circuit
    contents: Contents
    removed: Mapping[int, int]
    tag: Hashable = 0
    chain_bound: int = CHAIN_BOUND
    melee_bound: int = MELEE_BOUND
    identity: list[Identity] = field(default_factory=list)  # after phase 1
    now: list[Identity] = field(default_factory=list)  # after phases 2-4 (what phase 5 reads)
    crushed: list[int] = field(default_factory=list)
    vampire: list[int] = field(default_factory=list)
    deadly_reasons: list[list[int]] = field(default_factory=list)  # phase 5's deadly verdicts
    wall_like: list[int] = field(default_factory=list)
    deadly5: list[int] = field(default_factory=list)
    # The final statuses (exactly one of the four is true for every cell).
    passable: list[int] = field(default_factory=list)
    deadly: list[int] = field(default_factory=list)
    wall: list[int] = field(default_factory=list)
    petrified: list[int] = field(default_factory=list)
    # fires[key][cell]: a rule gives the cell its status in a way the reader must see (for the generator):
    # keys are rule families ("wolf": a Wolf's pack or attack makes it deadly), "...:walk" for the passable
    # side of a rule ("melee:walk": the smaller side of a melee, cut down).
    fires: dict[str, dict[int, int]] = field(default_factory=dict)

    @property
    def frame(self) -> BookFrame:
        return self.contents.frame

    @property
    def shape(self) -> BookShape:
        return self.contents.frame.shape

    def now_is(self, index: int, name: str) -> int:
        return self.now[index].get(name, self.circuit.false)

    def now_any(self, index: int, names: frozenset[str] | set[str]) -> int:
        return self.circuit.or_(literal for name, literal in self.now[index].items() if name in names)

    def creature(self, index: int) -> int:
        """The cell holds a creature now (after removal and conversion)."""
        return self.now_any(index, CREATURES)

    def item(self, index: int) -> int:
        return self.now_any(index, ITEMS)

    def fire(self, family: str, index: int, literal: int) -> None:
        if literal != self.circuit.false:
            cells = self.fires.setdefault(family, {})
            cells[index] = self.circuit.or_([cells.get(index, self.circuit.false), literal])

    def deadly_because(self, index: int, literal: int) -> None:
        if literal != self.circuit.false:
            self.deadly_reasons[index].append(literal)


# --- phase 1: identity ------------------------------------------------------------------------------


def mimic_chain(frame: BookFrame, index: int) -> list[int]:
    """The cells a Mimic at `index` looks along, toward the gutter, within its spread, until the chain
    would loop back (the same walk as the rule engine's)."""
    steps = frame.shape.step_table()
    spread = frame.spread_of_cell(index)
    chain: list[int] = []
    seen, here = {index}, index
    while True:
        toward_gutter = RIGHT if frame.page_of(here) % 2 == 0 else LEFT
        moved = steps[here][toward_gutter]
        if moved is None or frame.spread_of_cell(moved[0]) != spread or moved[0] in seen:
            return chain
        here = moved[0]
        seen.add(here)
        chain.append(here)


def rule_mimic(model: StaticModel) -> None:
    """Rule 5, the Mimic: "It copies the identity and the powers of its horizontal neighbor: on a left-hand
    page (even-numbered), it copies the cell to its right; on a right-hand page (odd-numbered), it copies
    the cell to its left. [...] It only copies monsters and other living creatures. If the neighboring cell
    contains terrain, an item, or a Wall, the Mimic copies nothing and remains harmless and passable. If
    several Mimics copy one another, follow the chain back to the first non-Mimic cell."

    A Mimic that copies nothing keeps the identity "Mimic": a harmless creature (it counts for Numbers).
    """
    c, contents = model.circuit, model.contents
    for index in range(model.frame.size):
        identity: Identity = {name: literal for name, literal in contents.choice[index].items() if literal != c.false}
        mimic = identity.pop("Mimic", c.false)
        if mimic != c.false:
            copies: dict[str, list[int]] = {}
            run = [mimic]  # the Mimic, and every Mimic of the chain before the cell looked at
            for other in mimic_chain(model.frame, index):
                for name, literal in contents.choice[other].items():
                    if name != "Mimic" and name in CREATURES:
                        copies.setdefault(name, []).append(c.and_([*run, literal]))
                run.append(contents.holds(other, "Mimic"))
                if run[-1] == c.false:
                    break
            copied_any = []
            for name, ways in copies.items():
                copied = c.or_(ways)
                copied_any.append(copied)
                identity[name] = c.or_([identity.get(name, c.false), copied])
            copies_something = c.or_(copied_any)
            identity["Mimic"] = c.and_([mimic, -copies_something])
            model.fire("mimic", index, copies_something)
        model.identity.append({name: literal for name, literal in identity.items() if literal != c.false})


# --- phase 2: removal -------------------------------------------------------------------------------


def spread_rows(frame: BookFrame) -> list[list[int]]:
    """Each row of each spread as one line of cells, left page then right page (across the gutter)."""
    shape, lines = frame.shape, []
    spreads: dict[int, list[int]] = {}
    for page in shape.pages:
        spreads.setdefault(spread_of(page), []).append(page)
    for pages in spreads.values():
        for row in range(shape.height):
            line: list[int] = []
            for page in sorted(pages):
                start = shape.page_cells(page)[0] + row * shape.width
                line.extend(range(start, start + shape.width))
            lines.append(line)
    return lines


def page_columns(frame: BookFrame) -> list[list[int]]:
    shape = frame.shape
    return [
        [shape.page_cells(page)[0] + row * shape.width + col for row in range(shape.height)]
        for page in shape.pages
        for col in range(shape.width)
    ]


def rule_path_removal_and_giant_crush(model: StaticModel) -> None:
    """Phase 2. What the walk removed (Bow, Molotov, Sword, Boss) is gone; then rule 9, the Giant: "If two
    Giants are aligned on the same row or the same column of a spread, every creature strictly between them
    is crushed and their cells become passable. Careful! Terrain and items remain unchanged. The Giants
    themselves stay deadly."

    A row runs across the gutter; a column is one page's column. The Oracle and Chuck are immune.
    """
    c, frame = model.circuit, model.frame
    after_walk: list[Identity] = []
    for index, identity in enumerate(model.identity):
        gone = model.removed.get(index, c.false)
        after_walk.append(
            {name: c.and_([literal, -gone]) for name, literal in identity.items()} if gone != c.false else identity
        )
    giant = [identity.get("Giant", c.false) for identity in after_walk]
    between: list[list[int]] = [[] for _ in range(frame.size)]
    for line in spread_rows(frame) + page_columns(frame):
        if sum(1 for index in line if giant[index] != c.false) < 2:
            continue
        before = c.false
        prefix = []
        for index in line:
            prefix.append(before)
            before = c.or_([before, giant[index]])
        after = c.false
        for position in range(len(line) - 1, -1, -1):
            index = line[position]
            between[index].append(c.and_([prefix[position], after]))
            after = c.or_([after, giant[index]])
    for index, identity in enumerate(after_walk):
        crushable = [
            literal
            for name, literal in identity.items()
            if name in CREATURES and name != "Giant" and name not in IMMUNE
        ]
        crushed = c.and_([c.or_(crushable), c.or_(between[index])]) if crushable and between[index] else c.false
        model.crushed.append(crushed)
        model.fire("giant:walk", index, crushed)
        if crushed != c.false:
            identity = {
                name: (
                    c.and_([literal, -crushed])
                    if name in CREATURES and name != "Giant" and name not in IMMUNE
                    else literal
                )
                for name, literal in identity.items()
            }
        model.now.append({name: literal for name, literal in identity.items() if literal != c.false})


# --- phase 3: conversion ----------------------------------------------------------------------------


def rule_vampire_conversion(model: StaticModel) -> None:
    """Rule 8, the Vampire: "The Bandits, Thieves, and Cultists in any of the four cells orthogonally adjacent
    to him become deadly Vampires in turn. Each new victim then contaminates the adjacent prey, always
    orthogonally, and so on until there's nothing left to convert. Never diagonally. Anything that isn't
    prey halts the spread."

    A least fixpoint: layer k holds the Vampires after k rounds of conversion.
    """
    c, frame = model.circuit, model.frame
    orthogonal = frame.shape.orthogonal_table()
    prey = [model.now_any(index, PREY) for index in range(frame.size)]
    layer = [model.now_is(index, "Vampire") for index in range(frame.size)]
    if all(literal == c.false for literal in layer):
        model.vampire = layer
        return
    candidates = [index for index in range(frame.size) if prey[index] != c.false]
    # Unrolled for `chain_bound` rounds past the last round in which a fixed cell was converted: a chain of
    # fixed cells is followed to its end however long, a chain through free cells to the bound.
    rounds_left = model.chain_bound
    while True:
        following = list(layer)
        for index in candidates:
            following[index] = c.or_([layer[index], c.and_([prey[index], c.or_(layer[n] for n in orthogonal[index])])])
        if following == layer:
            break
        fixed_grew = any(following[index] == c.true and layer[index] != c.true for index in candidates)
        layer = following
        rounds_left = model.chain_bound if fixed_grew else rounds_left - 1
        if rounds_left == 0:
            # Unrolled to the bound: every model must have reached the fixpoint by then.
            for index in candidates:
                c.require(-c.and_([prey[index], -layer[index], c.or_(layer[n] for n in orthogonal[index])]))
            break
    model.vampire = layer
    for index in candidates:
        converted = c.and_([prey[index], layer[index]])
        model.fire("vampire", index, converted)
        if converted == c.false:
            continue
        identity = {
            name: (c.and_([literal, -converted]) if name in PREY else literal)
            for name, literal in model.now[index].items()
        }
        identity["Vampire"] = c.or_([identity.get("Vampire", c.false), converted])
        model.now[index] = {name: literal for name, literal in identity.items() if literal != c.false}


# --- phase 4: groups --------------------------------------------------------------------------------


def _reach_within(
    circuit: Circuit, orthogonal: Sequence[tuple[int, ...]], start: int, member: Sequence[int], radius: int
) -> dict[int, int]:
    """cell -> literal "joined to `start` through members in at most `radius` steps" (start a member)."""
    ball = {start: 0}
    frontier = [start]
    for distance in range(1, radius + 1):
        following = []
        for here in frontier:
            for other in orthogonal[here]:
                if other not in ball and member[other] != circuit.false:
                    ball[other] = distance
                    following.append(other)
        frontier = following
    reach = {cell: (member[start] if cell == start else circuit.false) for cell in ball}
    for distance in range(1, radius + 1):
        reach = {
            cell: (
                literal
                if ball[cell] > distance or cell == start
                else circuit.or_(
                    [
                        literal,
                        circuit.and_([member[cell], circuit.or_(reach[n] for n in orthogonal[cell] if n in reach)]),
                    ]
                )
            )
            for cell, literal in reach.items()
        }
    return reach


def largest_group(orthogonal: Sequence[tuple[int, ...]], members: set[int]) -> int:
    """The size of the largest orthogonally joined group of `members` (1 when there are none)."""
    largest, seen = 1, set()
    for start in members:
        if start in seen:
            continue
        group, frontier = {start}, [start]
        while frontier:
            here = frontier.pop()
            for other in orthogonal[here]:
                if other in members and other not in group:
                    group.add(other)
                    frontier.append(other)
        seen |= group
        largest = max(largest, len(group))
    return largest


@dataclass
class Wolves:
    pack: list[int]  # the cell holds a Wolf of a pack of two or more (deadly)
    size_is: dict[int, dict[int, int]]  # wolf cell -> {3: literal, ..., 6: literal} "its pack has this size"


def rule_wolf(model: StaticModel) -> Wolves:
    """Rule 4, the Wolf: "A lone Wolf is just a large depressed dog. Its cell stays passable. But place two
    Wolves in orthogonally adjacent cells [...] they form a pack, and all their cells become deadly at once.
    Once a pack contains three or more, each Wolf also attacks one adjacent cell, which becomes deadly in
    turn." 3 Wolves: to the right; 4: to the left; 5: downward; 6: upward. "A pack can never contain more
    than six Wolves."

    A pack of at most six lies within five steps of each of its Wolves, so each Wolf counts the Wolves joined
    to it within five steps; a seventh within reach of some Wolf of any larger pack is forbidden.
    """
    c, frame = model.circuit, model.frame
    orthogonal = frame.shape.orthogonal_table()
    wolf = [model.now_is(index, "Wolf") for index in range(frame.size)]
    pack = [c.false] * frame.size
    size_is: dict[int, dict[int, int]] = {}
    for index in range(frame.size):
        if wolf[index] == c.false:
            continue
        pack[index] = c.and_([wolf[index], c.or_(wolf[n] for n in orthogonal[index])])
        model.deadly_because(index, pack[index])
        model.fire("wolf", index, pack[index])
        if all(wolf[n] == c.false for n in orthogonal[index]):
            continue
        joined = _reach_within(c, orthogonal, index, wolf, MAX_PACK - 1)
        counts = c.at_least(list(joined.values()), MAX_PACK + 1)
        c.require(-c.and_([wolf[index], counts[MAX_PACK + 1]]))
        size_is[index] = {size: c.and_([wolf[index], counts[size], -counts[size + 1]]) for size in WOLF_ATTACK}
    return Wolves(pack, size_is)


def rule_orcs_and_dwarves(model: StaticModel) -> None:
    """Rule 7, Orcs and Dwarves: "As soon as an Orc and a Dwarf share a side, a melee breaks out. It pits
    every Orc joined to that Orc against every Dwarf joined to that Dwarf. [...] Count both sides. The smaller
    one is cut to pieces and its cells become passable. The majority side, naturally, remains thoroughly
    deadly. On a tie, they slaughter each other to the last man: all the cells then become passable.
    Outside a melee, an Orc or a Dwarf stays deadly."

    A melee is a connected set of Orc and Dwarf cells holding both kinds. Each fighter counts the Orcs and
    the Dwarves joined to it; a melee holds at most `melee_bound` fighters, or the largest group of fixed
    fighters when that is larger.
    """
    c, frame = model.circuit, model.frame
    orthogonal = frame.shape.orthogonal_table()
    orc = [model.now_is(index, "Orc") for index in range(frame.size)]
    dwarf = [model.now_is(index, "Dwarf") for index in range(frame.size)]
    fighter = [c.or_([orc[index], dwarf[index]]) for index in range(frame.size)]
    bound = max(model.melee_bound, largest_group(orthogonal, {i for i in range(frame.size) if fighter[i] == c.true}))
    for index in range(frame.size):
        if fighter[index] == c.false:
            continue
        joined = _reach_within(c, orthogonal, index, fighter, bound - 1)
        orcs = c.at_least([c.and_([literal, orc[cell]]) for cell, literal in joined.items()], bound + 1)
        dwarves = c.at_least([c.and_([literal, dwarf[cell]]) for cell, literal in joined.items()], bound + 1)
        if len(joined) > bound:
            c.require(-c.at_least(list(joined.values()), bound + 1)[bound + 1])
        more_orcs = c.or_(c.and_([orcs[j], -dwarves[j]]) for j in range(1, bound + 2))
        more_dwarves = c.or_(c.and_([dwarves[j], -orcs[j]]) for j in range(1, bound + 2))
        in_melee = c.and_([orcs[1], dwarves[1]])
        deadly = c.or_(
            [
                c.and_([fighter[index], -in_melee]),
                c.and_([orc[index], more_orcs]),
                c.and_([dwarf[index], more_dwarves]),
            ]
        )
        model.deadly_because(index, deadly)
        model.fire("melee", index, c.and_([in_melee, deadly]))
        model.fire("melee:walk", index, c.and_([fighter[index], in_melee, -deadly]))


def rule_rat(model: StaticModel) -> None:
    """Rule 3, the Rat: "ten Rats on a spread, and every Rat on that spread becomes deadly. Nine, you walk
    through. Ten, you die."
    """
    c, frame = model.circuit, model.frame
    by_spread: dict[int, list[int]] = {}
    for index in range(frame.size):
        if model.now_is(index, "Rat") != c.false:
            by_spread.setdefault(frame.spread_of_cell(index), []).append(index)
    for rats in by_spread.values():
        ten = c.at_least([model.now_is(index, "Rat") for index in rats], 10)[10]
        for index in rats:
            deadly = c.and_([model.now_is(index, "Rat"), ten])
            model.deadly_because(index, deadly)
            model.fire("rat", index, deadly)
