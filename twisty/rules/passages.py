"""Twisty Little Passages as plain rules: the level model, combat, moves and a step-by-step replayer.

The rules are those of the rulebook *Twisty Little Passages*; docs/passages.md states them as implemented,
with the meaning twisty takes where the rulebook leaves room. Nothing here uses a solver: engines build on
these definitions, and every route an engine reports is replayed here before anyone sees it.
"""

from __future__ import annotations

import bisect
from collections import deque
from collections.abc import Iterable, Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import chain
from typing import cast

from twisty.rules.passages_combat import (
    DRAIN,
    Enemy,
    damage_table,
    describe_enemy,
    fight_damage,
    hits_received,
    strikes_needed,
    table_mismatch,
)

__all__ = ["Enemy", "damage_table", "fight_damage", "hits_received", "strikes_needed", "table_mismatch"]

WALL, FLOOR, START, GOAL, OUTSIDE = "#", ".", "S", "G", " "
RESERVED = (WALL, FLOOR, START, GOAL, OUTSIDE)

# "shop" is the tower's shop cell: stepping on it lets the hero buy from then on (docs/mota.md).
ITEM_KINDS = ("key", "elixir", "equipment", "shop")
BLOCKER_KINDS = ("door", "enemy")
KINDS = ITEM_KINDS + BLOCKER_KINDS
# The key and door colours of the towers; "" is the rulebook's one kind of key.
COLOURS = ("yellow", "blue", "red", "green")
# What a purchase can give, in the order of a ("buy", choice) decision.
PURCHASES = ("hp", "atk", "def", "mdef")

Cell = tuple[int, int]
# A decision of a route: ("open", object index), ("fight", object index), ("take", object index) for an
# item that is a decision (Thing.optional), ("buy", choice) for a purchase (PURCHASES[choice]), or
# ("goal", goal index) to end.
Decision = tuple[str, int]


@dataclass(frozen=True)
class Thing:
    """One object on the map: each occurrence of a legend character is its own object."""

    kind: str
    symbol: str
    cell: Cell
    hp: int = 0  # elixir: life restored
    atk: int = 0  # equipment
    defense: int = 0  # equipment
    enemy: Enemy | None = None
    name: str = ""  # as the legend names it ("sword"); enemies carry theirs in `enemy`
    mdef: int = 0  # equipment (a tower's green gem)
    colour: str = ""  # key and door: one of COLOURS, or "" for the rulebook's key
    # Equipment that can make a later fight cost more (tower_rules.optional_items): taking it is a decision,
    # and it blocks the way like a door until it is taken.
    optional: bool = False
    # A boss whose defeat wins the level (win = "boss"): its cell is a goal, guarded by the fight.
    wins: bool = False
    # Whether taking or consuming it reads any tower stat (a colour, mdef, money, or it is a decision): the
    # rules' functions keep the rulebook's stats and their quick way for every other thing.
    tower: bool = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        money = self.enemy is not None and bool(self.enemy.money)
        object.__setattr__(
            self, "tower", bool(self.colour or self.mdef or self.optional or money or self.kind == "shop")
        )

    @property
    def is_blocker(self) -> bool:
        """Whether it blocks the way until consumed: doors, enemies (but a boss that wins is a goal), and
        items that are decisions."""
        return (self.kind in BLOCKER_KINDS and not self.wins) or self.optional

    @property
    def is_item(self) -> bool:
        """Whether it is taken the moment it is reachable."""
        return self.kind in ITEM_KINDS and not self.optional

    def describe(self) -> str:
        if self.kind == "enemy":
            assert self.enemy is not None
            return describe_enemy(self.enemy)
        called = self.name or self.kind
        if self.kind == "elixir":
            return f"{called} +{self.hp} hp"
        if self.kind == "equipment":
            gains = [
                f"+{value} {stat}" for stat, value in (("atk", self.atk), ("def", self.defense), ("mdef", self.mdef))
            ]
            return f"{called} " + " ".join(gain for gain in gains if not gain.startswith("+0 "))
        if self.colour and called == self.kind:
            return f"{self.colour} {called}"
        return called


@dataclass(frozen=True)
class Stats:
    """The player's stats. The rulebook's four are fields; a tower's others read as nothing here and are
    held by TowerStats, so that a level without tower features makes and compares the stats it always did."""

    hp: int
    atk: int = 0
    defense: int = 0
    keys: int = 0
    # (class attributes, not fields: TowerStats makes them fields)
    mdef = 0
    money = 0
    coloured = cast(tuple[int, ...], ())  # a key count per COLOURS; () reads as none
    purchases = 0
    shopping = False

    def colour_keys(self, colour: str) -> int:
        """Keys of `colour` held ("" for the rulebook's keys)."""
        if not colour:
            return self.keys
        return self.coloured[COLOURS.index(colour)] if self.coloured else 0


@dataclass(frozen=True)
class TowerStats(Stats):
    """The stats of a tower (docs/mota.md): magic defence, money, keys of four colours, the purchases made so
    far (each costs more than the last) and whether the hero has stepped on a shop."""

    mdef: int = 0
    money: int = 0
    coloured: tuple[int, ...] = (0, 0, 0, 0)
    purchases: int = 0
    shopping: bool = False


@dataclass(frozen=True)
class Shop:
    """A tower's shop: "Purchase n (counting from 0) costs start + delta x n and gives exactly one of the
    non-zero hp / atk / def / mdef gains, chosen by the hero." """

    start: int
    delta: int
    hp: int = 0
    atk: int = 0
    defense: int = 0
    mdef: int = 0

    def price(self, purchases: int) -> int:
        return self.start + self.delta * purchases

    def gain(self, choice: int) -> int:
        return (self.hp, self.atk, self.defense, self.mdef)[choice]

    @property
    def choices(self) -> tuple[int, ...]:
        """The purchases on offer (indices of PURCHASES): those that give something."""
        return tuple(choice for choice in range(len(PURCHASES)) if self.gain(choice))


@dataclass(frozen=True)
class Floor:
    """One floor of a tower: its name and the rows of the level's grid it takes (floors are stacked on the
    grid, bottom floor first, one row of outside between two)."""

    name: str
    first_row: int
    height: int


@dataclass(frozen=True)
class Expectations:
    solvable: bool | None = None
    final_hp: int | None = None
    unique: bool | None = None
    min_start_hp: int | None = None
    solutions: int | None = None
    optimal_solutions: int | None = None


@dataclass(frozen=True)
class PassagesLevel:
    grid: tuple[str, ...]
    start: Cell
    goals: tuple[Cell, ...]
    things: tuple[Thing, ...]
    player: Stats
    name: str = ""
    description: str = ""
    expect: Expectations = field(default_factory=Expectations)
    # The tower features (docs/mota.md); a level without them is the rulebook's.
    floors: tuple[Floor, ...] = ()  # () for a level of one map
    links: tuple[
        tuple[Cell, Cell], ...
    ] = ()  # stairs: "the up stair of floor f and the down stair of f+1 are one place"
    shop: Shop | None = None
    # Per goal, the object index of the boss that guards it (win = "boss"); () when no goal is guarded.
    guards: tuple[int | None, ...] = ()

    @property
    def height(self) -> int:
        return len(self.grid)

    @property
    def width(self) -> int:
        return max((len(row) for row in self.grid), default=0)

    def char(self, cell: Cell) -> str:
        row, col = cell
        if 0 <= row < len(self.grid) and 0 <= col < len(self.grid[row]):
            return self.grid[row][col]
        return OUTSIDE

    def is_wall(self, cell: Cell) -> bool:
        return self.char(cell) in (WALL, OUTSIDE)

    @property
    def thing_at(self) -> dict[Cell, int]:
        return {thing.cell: index for index, thing in enumerate(self.things)}

    def blockers(self) -> list[int]:
        return [i for i, thing in enumerate(self.things) if thing.is_blocker]

    def with_start_hp(self, hp: int) -> PassagesLevel:
        return replace(self, player=replace(self.player, hp=hp))

    @cached_property
    def link_map(self) -> dict[Cell, tuple[Cell, ...]]:
        """The cells each cell is one place with (its stairs' other ends); empty without floors."""
        joined: dict[Cell, list[Cell]] = {}
        for one, other in self.links:
            joined.setdefault(one, []).append(other)
            joined.setdefault(other, []).append(one)
        return {cell: tuple(others) for cell, others in joined.items()}

    def guard(self, goal: int) -> int | None:
        """The boss guarding goal `goal` (its object index), or None for a plain goal."""
        return self.guards[goal] if self.guards else None

    def guard_at(self, cell: Cell) -> int | None:
        """The boss guarding the goal at `cell`, or None."""
        return self.guard(self.goals.index(cell)) if self.guards and cell in self.goals else None

    def floor_of(self, cell: Cell) -> tuple[str, Cell]:
        """The floor a cell of the grid is on and its place there; ("", cell) on a level of one map."""
        for floor in self.floors:
            if floor.first_row <= cell[0] < floor.first_row + floor.height:
                return floor.name, (cell[0] - floor.first_row, cell[1])
        return "", cell

    @cached_property
    def features(self) -> frozenset[str]:
        """The tower features this level uses (docs/mota.md), which not every engine answers: "floors",
        "colours", "mdef", "money", "shop", "specials", "drain", "optional items" and "boss"."""
        found = set()
        if self.floors:
            found.add("floors")
        if self.shop is not None:
            found.add("shop")
        if self.guards:
            found.add("boss")
        stats = self.player
        if stats.mdef:
            found.add("mdef")
        if stats.money:
            found.add("money")
        if any(stats.coloured):
            found.add("colours")
        for thing in self.things:
            if thing.colour:
                found.add("colours")
            if thing.mdef:
                found.add("mdef")
            if thing.optional:
                found.add("optional items")
            enemy = thing.enemy
            if enemy is not None:
                if enemy.money:
                    found.add("money")
                if enemy.specials:
                    found.add("specials")
                if enemy.drain and DRAIN in enemy.specials:
                    found.add("drain")
        return frozenset(found)


def neighbours(cell: Cell) -> Iterator[Cell]:
    """Rule "Moves: up/down/left/right between non-wall cells"."""
    row, col = cell
    yield row - 1, col
    yield row + 1, col
    yield row, col - 1
    yield row, col + 1


# ---------------------------------------------------------------------------------------------- combat


def stat_sums(base: int, gains: Iterable[int], cap: int) -> list[int] | None:
    """Every value of base + a sum of some of `gains`, in increasing order: the atk (or def) a player can
    hold when the gains are those of the items (or of whole areas, whose items are taken together). Built
    from the gains themselves, never over a range of values, so a +10^9 sword adds one value, not 10^9.
    None when there are more than `cap` values (the caller's bound on its work)."""
    sums = {base}
    for gain in gains:
        if gain:
            sums |= {value + gain for value in sums}
            if len(sums) > cap:
                return None
    return sorted(sums)


# Attack values start_hp_upper_bound lists exactly; with more it uses a looser bound found in one pass.
_BOUND_ATK_VALUES = 4096


def start_hp_upper_bound(level: PassagesLevel) -> int:
    """A starting hp that lets every possible fight happen: 1 + the worst damage of every enemy over
    all stats the player can have. If the level cannot be solved with it, no starting hp suffices.

    Damage only falls as atk and def rise (fewer strikes, less per hit), so an enemy's worst damage is the
    one at the weakest atk the player can hold that harms it, with the weakest def. The weakest stats are
    those after taking the items around the start (taking an item never hurts, so a route takes them
    first); the atks held are those plus sums of other equipment (stat_sums), not a range of values. Where
    those sums are too many to list, the weakest harmful atk is taken as no more than the starting atk
    (when it harms) or the starting atk plus the smallest gain, which still bounds the damage from above."""
    start, _ = initial_state(level)
    base, defense = start.stats.atk, start.stats.defense
    gains = [thing.atk for index, thing in enumerate(level.things) if thing.atk and index not in start.taken]
    held = stat_sums(base, gains, _BOUND_ATK_VALUES)
    worst = 0
    for thing in level.things:
        enemy = thing.enemy
        if enemy is None or base + sum(gains) <= enemy.defense:
            continue
        if held is not None:
            weakest = held[bisect.bisect_right(held, enemy.defense)]
        else:
            weakest = max(enemy.defense + 1, base if base > enemy.defense else base + min(gains))
        worst += fight_damage(enemy, weakest, defense) or 0
    return 1 + worst


# ---------------------------------------------------------------------------------------- moves & state


@dataclass(frozen=True)
class RouteState:
    """Where a route stands: which blockers are gone, which items taken, and the player's stats.

    Items are taken the moment they are reachable: passages.md says "Taking an item never hurts, so an
    engine may take every item of a reachable area at once", and routes are counted in that form (see
    docs/passages.md: a player who leaves a sword on the floor has not found another solution).
    """

    consumed: frozenset[int]
    taken: frozenset[int]
    stats: Stats
    # The cells reachable with these blockers consumed (reachable_cells), carried along so that each step
    # only floods what it opens instead of the whole map again.
    reached: frozenset[Cell] = frozenset()


def reachable_cells(level: PassagesLevel, consumed: frozenset[int]) -> set[Cell]:
    """Cells the player can walk to: "you may move anywhere there is an unobstructed path". Doors and
    enemies block until consumed; a goal ends the route, so it is never walked through."""
    return _flood(level, level.start, {level.start}, consumed)


def _flood(
    level: PassagesLevel,
    origin: Cell,
    seen: set[Cell],
    consumed: AbstractSet[int],
    blocked: AbstractSet[Cell] | None = None,
    added: list[Cell] | None = None,
) -> set[Cell]:
    """`seen` grown by every cell reachable from `origin` (already in it) through cells that are not walls,
    blockers left or goals. Consuming a blocker opens its cell and only what lies beyond it: the reach after
    the step is the reach before it flooded from that cell. Stairs: "The up stair of floor f and the down
    stair of floor f+1 are one place" (docs/mota.md), so a stair's other end is one step away. `blocked`,
    when given, is the cells of the blockers left (else found from `consumed`); `added` collects the cells
    new to `seen`."""
    if blocked is None:
        blocked = {thing.cell for i, thing in enumerate(level.things) if thing.is_blocker and i not in consumed}
    goals = set(level.goals)
    links = level.link_map
    queue = deque([origin])
    while queue:
        cell = queue.popleft()
        for nxt in chain(neighbours(cell), links.get(cell, ())) if links else neighbours(cell):
            if nxt in seen or level.is_wall(nxt) or nxt in blocked or nxt in goals:
                continue
            seen.add(nxt)
            queue.append(nxt)
            if added is not None:
                added.append(nxt)
    return seen


def touches(cells: AbstractSet[Cell], target: Cell) -> bool:
    return any(nxt in cells for nxt in neighbours(target))


def initial_state(level: PassagesLevel) -> tuple[RouteState, list[int]]:
    state = RouteState(frozenset(), frozenset(), level.player, frozenset(reachable_cells(level, frozenset())))
    return collect_items(level, state)


def collect_items(level: PassagesLevel, state: RouteState) -> tuple[RouteState, list[int]]:
    """Take every item now reachable, in map order. Returns the new state and the items taken."""
    cells = _reach(level, state)
    newly = [
        index
        for index, thing in enumerate(level.things)
        if thing.is_item and index not in state.taken and thing.cell in cells
    ]
    stats = take_items(state.stats, (level.things[index] for index in newly))
    return RouteState(state.consumed, state.taken | frozenset(newly), stats, frozenset(cells)), newly


def _reach(level: PassagesLevel, state: RouteState) -> frozenset[Cell] | set[Cell]:
    """The state's reachable cells: carried by states this module made, found afresh for any other."""
    return state.reached if state.reached else reachable_cells(level, state.consumed)


def take_items(stats: Stats, items: Iterable[Thing]) -> Stats:
    """The stats after taking these items. Elixir: "Add the indicated number of points to your life." Key:
    "Add one key to your inventory." Equipment: "raise the indicated player stat by the displayed amount".
    Towers (docs/mota.md): "keys add one of their colour"; "Gems, potions, sword and shield add their
    values" (mdef too); a shop cell: "once the hero has stepped on a shop cell, it may buy". The one place
    where an item changes the stats: the rules' replay, the region graph's searches and the reference engine
    all take items through it."""
    hp, atk, defense, keys, mdef, shopping = stats.hp, stats.atk, stats.defense, stats.keys, stats.mdef, stats.shopping
    coloured: list[int] | None = None
    for thing in items:
        kind = thing.kind
        if kind == "elixir":
            hp += thing.hp
        elif kind == "key":
            if thing.colour:
                if coloured is None:
                    coloured = list(stats.coloured or (0,) * len(COLOURS))
                coloured[COLOURS.index(thing.colour)] += 1
            else:
                keys += 1
        elif kind == "equipment":
            atk += thing.atk
            defense += thing.defense
            mdef += thing.mdef
        elif kind == "shop":
            shopping = True
        else:
            raise ValueError(f"{kind} is not an item")
    if type(stats) is Stats and coloured is None and not mdef and not shopping:
        return Stats(hp, atk, defense, keys)
    return TowerStats(
        hp,
        atk,
        defense,
        keys,
        mdef,
        stats.money,
        tuple(coloured) if coloured is not None else stats.coloured or (0,) * len(COLOURS),
        stats.purchases,
        shopping,
    )


def apply_item(thing: Thing, stats: Stats) -> Stats:
    """The stats after taking one item (take_items)."""
    return take_items(stats, (thing,))


def consume_blocker(thing: Thing, stats: Stats, *, survive: bool = True) -> tuple[Stats, int] | None:
    """Open the door, fight the enemy or take the optional item `thing` with these stats: (the stats after,
    the life lost), or None when the rules do not allow it now. The one place where a blocker changes the
    stats.

    Door: "Subtract one key from your inventory to open the locked door": it needs a key and spends it (in a
    tower, "a door needs and consumes one key of its colour"). Enemy: the fight's damage (fight_damage); "If
    your life points drop to zero or below, you lose", so the fight is allowed only if the damage is below
    the current hp ("the hero must survive with at least 1 hp"). With `survive` False that last condition
    is left to the caller: a search for the least starting hp counts life from 0 and turns each fight's
    damage into the starting hp it needs instead (not with drain, whose damage depends on the life itself).
    An optional item is taken (take_items) and costs nothing."""
    if thing.kind == "door":
        if (stats.colour_keys(thing.colour) if thing.colour else stats.keys) < 1:
            return None
        return pay_for(thing, stats, 0), 0
    enemy = thing.enemy
    if enemy is None:
        if thing.optional:
            return take_items(stats, (thing,)), 0
        raise ValueError(f"{thing.kind} is not a blocker")
    if enemy.specials or stats.mdef:
        if not survive and enemy.drain:
            raise ValueError("drain takes a part of the life itself: the fight needs the real life")
        damage = fight_damage(enemy, stats.atk, stats.defense, stats.mdef, stats.hp)
    else:
        damage = fight_damage(enemy, stats.atk, stats.defense)
    if damage is None or (survive and damage >= stats.hp):
        return None
    return pay_for(thing, stats, damage), damage


def blocker_cost(level: PassagesLevel, index: int, stats: Stats) -> int | None:
    """Life lost by consuming blocker `index` now; None when it cannot be consumed (consume_blocker)."""
    after = consume_blocker(level.things[index], stats)
    return None if after is None else after[1]


def pay_for(thing: Thing, stats: Stats, cost: int) -> Stats:
    """What consuming a blocker takes from the player, `cost` being its blocker_cost. Door: "Subtract one
    key from your inventory to open the locked door" (of its colour in a tower). Enemy: the fight's damage
    comes off your life, and "The monster's money is gained". An optional item: its gains (take_items).
    consume_blocker decides whether and at what cost; callers that know the cost already (the generator's
    explorer) pay it here directly."""
    if (
        type(stats) is Stats
        and not thing.colour
        and not thing.optional
        and (thing.enemy is None or not thing.enemy.money)
    ):
        # Made directly rather than by dataclasses.replace: the generator's explorer calls this for every move.
        return Stats(stats.hp - cost, stats.atk, stats.defense, stats.keys - (thing.kind == "door"))
    if thing.optional:
        return take_items(stats, (thing,))
    tower = stats if isinstance(stats, TowerStats) else TowerStats(stats.hp, stats.atk, stats.defense, stats.keys)
    if thing.kind == "door":
        if not thing.colour:
            return replace(tower, keys=tower.keys - 1)
        coloured = list(tower.coloured)
        coloured[COLOURS.index(thing.colour)] -= 1
        return replace(tower, coloured=tuple(coloured))
    assert thing.enemy is not None
    return replace(tower, hp=tower.hp - cost, money=tower.money + thing.enemy.money)


def buy(shop: Shop, stats: Stats, choice: int) -> Stats | None:
    """One purchase: "once the hero has stepped on a shop cell, it may buy at any later moment, from
    anywhere (the genre's quick shop). Purchase n (counting from 0) costs start + delta x n and gives
    exactly one of the non-zero hp / atk / def / mdef gains, chosen by the hero." None when it may not buy
    now (no shop visited, too little money, or nothing of that kind on offer)."""
    price = shop.price(stats.purchases)
    gain = shop.gain(choice) if 0 <= choice < len(PURCHASES) else 0
    if not stats.shopping or stats.money < price or not gain:
        return None
    assert isinstance(stats, TowerStats)
    stat = PURCHASES[choice]
    after = replace(stats, money=stats.money - price, purchases=stats.purchases + 1)
    if stat == "hp":
        return replace(after, hp=after.hp + gain)
    if stat == "atk":
        return replace(after, atk=after.atk + gain)
    if stat == "def":
        return replace(after, defense=after.defense + gain)
    return replace(after, mdef=after.mdef + gain)


def arrive(level: PassagesLevel, goal: int, stats: Stats) -> tuple[Stats, int] | None:
    """Stepping onto goal `goal` with these stats: (the stats at the end, the life lost on the way in), or
    None when it is not allowed. A plain goal ends the route as it is; a guarded one is the boss whose
    defeat wins: "The tower is won when the boss is defeated; the score is the hp left after that fight"."""
    guard = level.guard(goal)
    if guard is None:
        return stats, 0
    return consume_blocker(level.things[guard], stats)


def frontier(level: PassagesLevel, state: RouteState) -> list[int]:
    """Blockers next to the reachable cells that are not consumed yet."""
    cells = _reach(level, state)
    return [
        i
        for i, thing in enumerate(level.things)
        if thing.is_blocker and i not in state.consumed and touches(cells, thing.cell)
    ]


def reachable_goals(level: PassagesLevel, state: RouteState) -> list[int]:
    cells = _reach(level, state)
    return [g for g, goal in enumerate(level.goals) if touches(cells, goal)]


def consume(level: PassagesLevel, state: RouteState, index: int) -> tuple[RouteState, int, list[int]]:
    """Open the door, fight the enemy or take the optional item `index`, then take what became reachable.

    Returns the new state, the life lost and the items taken. Raises ValueError when not allowed."""
    if index in state.consumed or not level.things[index].is_blocker:
        raise ValueError("not a blocker left on the map")
    if index not in frontier(level, state):
        raise ValueError("not next to any cell the player can reach")
    after = consume_blocker(level.things[index], state.stats)
    if after is None:
        raise ValueError("cannot be opened or survived with the current stats")
    stats, cost = after
    consumed = state.consumed | {index}
    cell = level.things[index].cell
    reached = frozenset(_flood(level, cell, set(_reach(level, state)) | {cell}, consumed))
    after_items, taken = collect_items(level, RouteState(consumed, state.taken, stats, reached))
    return after_items, cost, taken


def purchase(level: PassagesLevel, state: RouteState, choice: int) -> RouteState:
    """Buy PURCHASES[choice] at the shop (buy). Raises ValueError when not allowed."""
    stats = None if level.shop is None else buy(level.shop, state.stats, choice)
    if stats is None:
        raise ValueError("no shop visited, not enough money, or nothing of that kind on offer")
    return replace(state, stats=stats)


# -------------------------------------------------------------------------------------------- signature

SignatureFight = tuple[int, ...]
Signature = tuple[frozenset[int], frozenset[SignatureFight]]


def signature_entry(level: PassagesLevel, index: int, stats: Stats, cost: int) -> SignatureFight | None:
    """passages.md: "for each enemy it fights that costs it more than 0 hp, that enemy together with the
    player's (atk, def) at the fight. Fights that cost 0 hp are left out." (In a tower with magic defence,
    the player's mdef too: it changes the fight as much.)"""
    if level.things[index].kind != "enemy" or cost <= 0:
        return None
    if stats.mdef:
        return index, stats.atk, stats.defense, stats.mdef
    return index, stats.atk, stats.defense


# ------------------------------------------------------------------------------------------------ replay


class RouteError(ValueError):
    """A route that does not follow the rules: a bug in whichever engine produced it."""


@dataclass(frozen=True)
class Step:
    action: str  # "take", "open", "fight", "buy" or "goal"
    at: Cell
    thing: str  # what was taken, opened, fought or bought ("goal" for the goal)
    damage: int
    stats: Stats  # after the step

    def as_json(self) -> dict:
        data = {
            "action": self.action,
            "at": list(self.at),
            "object": self.thing,
            "damage": self.damage,
            "hp": self.stats.hp,
            "atk": self.stats.atk,
            "def": self.stats.defense,
            "keys": self.stats.keys,
        }
        if isinstance(self.stats, TowerStats):
            data |= {"mdef": self.stats.mdef, "money": self.stats.money, "purchases": self.stats.purchases}
            data |= {f"{colour}_keys": count for colour, count in zip(COLOURS, self.stats.coloured, strict=True)}
        return data


@dataclass(frozen=True)
class Replay:
    steps: tuple[Step, ...]
    final_hp: int
    signature: Signature
    decisions: tuple[Decision, ...]


# The action a route names for consuming each kind of blocker.
_ACTIONS = {"door": "open", "enemy": "fight", "equipment": "take"}


def replay(level: PassagesLevel, decisions: Iterable[Decision]) -> Replay:
    """Apply a route decision by decision with the plain rules; raise RouteError at the first illegal one.

    A route is a list of ("open", i) / ("fight", i) / ("take", i) (an optional item) / ("buy", choice)
    decisions ending with ("goal", g). Items are taken as soon as they are reachable and appear as "take"
    steps; a goal guarded by a boss appears as the fight, then the goal."""
    decisions = tuple(decisions)
    state = _Follow(level)
    taken = state.take_reached(list(state.reach))
    steps: list[Step] = []
    stats = level.player

    def record_taken(items: list[int]) -> None:
        nonlocal stats
        for item in items:
            stats = apply_item(level.things[item], stats)
            steps.append(Step("take", level.things[item].cell, level.things[item].describe(), 0, stats))

    record_taken(taken)
    doors: set[int] = set()
    fights: set[SignatureFight] = set()
    for number, (action, index) in enumerate(decisions, start=1):
        if action == "goal":
            if number != len(decisions):
                raise RouteError(f"step {number}: the route goes on after reaching a goal")
            if not 0 <= index < len(level.goals) or not touches(state.reach, level.goals[index]):
                raise RouteError(f"step {number}: goal {index} is not reachable")
            arrived = arrive(level, index, state.stats)
            if arrived is None:
                raise RouteError(f"step {number}: the boss at {level.goals[index]} cannot be defeated now")
            final, cost = arrived
            guard = level.guard(index)
            if guard is not None:
                boss = level.things[guard]
                steps.append(Step("fight", boss.cell, boss.describe(), cost, final))
                entry = signature_entry(level, guard, state.stats, cost)
                if entry is not None:
                    fights.add(entry)
            steps.append(Step("goal", level.goals[index], "goal", 0, final))
            return Replay(tuple(steps), final.hp, (frozenset(doors), frozenset(fights)), decisions)
        if action == "buy":
            bought = None if level.shop is None else buy(level.shop, state.stats, index)
            if bought is None:
                raise RouteError(
                    f"step {number}: buy {index}: no shop visited, not enough money, or nothing of that kind on offer"
                )
            state.stats = stats = bought
            steps.append(Step("buy", level.start, PURCHASES[index], 0, stats))
            continue
        if not 0 <= index < len(level.things):
            raise RouteError(f"step {number}: no object {index}")
        thing = level.things[index]
        expected = _ACTIONS.get(thing.kind) if thing.is_blocker else None
        if action != expected:
            raise RouteError(f"step {number}: cannot {action} a {thing.kind} at {thing.cell}")
        before = state.stats
        try:
            cost, taken = state.consume(index)
        except ValueError as exc:
            raise RouteError(f"step {number}: {action} {thing.describe()} at {thing.cell}: {exc}") from None
        stats = pay_for(thing, before, cost)  # (the step itself; the items it opens come next)
        steps.append(Step(action, thing.cell, thing.describe(), cost, stats))
        if thing.kind == "door":
            doors.add(index)
        entry = signature_entry(level, index, before, cost)
        if entry is not None:
            fights.add(entry)
        record_taken(taken)
    raise RouteError("the route does not end at a goal")


class _Follow:
    """A route's position as the replay follows it, kept in place: the same steps as `consume` (the reach
    grows by the flood from each blocker consumed; the items it reaches are taken at once, in map order),
    without copying the reach at every step, so that a route of hundreds of steps on a 200 x 200 map is
    replayed in a fraction of a second."""

    def __init__(self, level: PassagesLevel) -> None:
        self.level = level
        self.consumed: set[int] = set()
        self.blocked = {thing.cell for thing in level.things if thing.is_blocker}
        self.items_at = {thing.cell: index for index, thing in enumerate(level.things) if thing.is_item}
        self.stats = level.player
        self.reach = _flood(level, level.start, {level.start}, self.consumed, self.blocked)

    def take_reached(self, cells: list[Cell]) -> list[int]:
        """Take the items on these newly reached cells, in map order; the items taken."""
        newly = sorted(self.items_at[cell] for cell in cells if cell in self.items_at)
        self.stats = take_items(self.stats, (self.level.things[index] for index in newly))
        return newly

    def consume(self, index: int) -> tuple[int, list[int]]:
        """`consume` in place: the life lost and the items taken. Raises ValueError when not allowed."""
        thing = self.level.things[index]
        if index in self.consumed or not thing.is_blocker:
            raise ValueError("not a blocker left on the map")
        if not touches(self.reach, thing.cell):
            raise ValueError("not next to any cell the player can reach")
        after = consume_blocker(thing, self.stats)
        if after is None:
            raise ValueError("cannot be opened or survived with the current stats")
        self.stats, cost = after
        self.consumed.add(index)
        self.blocked.discard(thing.cell)
        added = [thing.cell]
        self.reach.add(thing.cell)
        _flood(self.level, thing.cell, self.reach, self.consumed, self.blocked, added)
        return cost, self.take_reached(added)
