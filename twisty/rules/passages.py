"""Twisty Little Passages as plain rules: the level model, combat, moves and a step-by-step replayer.

The rulebook is ../shared/rulebooks/twisty-little-passages.txt; ../shared/rules/passages.md fixes what it
leaves open. Nothing here uses a solver: engines build on these definitions, and every route an engine
reports is replayed here before anyone sees it.
"""

from __future__ import annotations

import bisect
from collections import deque
from collections.abc import Iterable, Iterator
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field, replace

WALL, FLOOR, START, GOAL, OUTSIDE = "#", ".", "S", "G", " "
RESERVED = (WALL, FLOOR, START, GOAL, OUTSIDE)

ITEM_KINDS = ("key", "elixir", "equipment")
BLOCKER_KINDS = ("door", "enemy")
KINDS = ITEM_KINDS + BLOCKER_KINDS

Cell = tuple[int, int]
# A decision of a route: ("open", object index), ("fight", object index) or ("goal", goal index).
Decision = tuple[str, int]


@dataclass(frozen=True)
class Enemy:
    name: str
    hp: int
    atk: int
    defense: int
    first_strike: bool = False
    boss: bool = False


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

    @property
    def is_blocker(self) -> bool:
        return self.kind in BLOCKER_KINDS

    def describe(self) -> str:
        if self.kind == "enemy":
            assert self.enemy is not None
            tags = "".join([", boss" if self.enemy.boss else "", ", first strike" if self.enemy.first_strike else ""])
            return f"{self.enemy.name} (hp {self.enemy.hp}, atk {self.enemy.atk}, def {self.enemy.defense}{tags})"
        called = self.name or self.kind
        if self.kind == "elixir":
            return f"{called} +{self.hp} hp"
        if self.kind == "equipment":
            gains = [f"+{self.atk} atk" if self.atk else "", f"+{self.defense} def" if self.defense else ""]
            return f"{called} " + " ".join(g for g in gains if g)
        return called


@dataclass(frozen=True)
class Stats:
    hp: int
    atk: int = 0
    defense: int = 0
    keys: int = 0


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


def neighbours(cell: Cell) -> Iterator[Cell]:
    """Rule "Moves: up/down/left/right between non-wall cells"."""
    row, col = cell
    yield row - 1, col
    yield row + 1, col
    yield row, col - 1
    yield row, col + 1


# ---------------------------------------------------------------------------------------------- combat


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


def fight_damage(enemy: Enemy, atk: int, defense: int) -> int | None:
    """ "Damage to you = Enemy ATK - Your DEF ... If you have DEF equal to or greater than the enemy ATK,
    the enemy strikes you but does no damage." Total = hits received x max(0, E_atk - D); None when the
    enemy cannot be harmed (the fight is impossible)."""
    hits = hits_received(enemy, atk)
    if hits is None:
        return None
    return hits * max(0, enemy.atk - defense)


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


def _flood(level: PassagesLevel, origin: Cell, seen: set[Cell], consumed: frozenset[int]) -> set[Cell]:
    """`seen` grown by every cell reachable from `origin` (already in it) through cells that are not walls,
    blockers left or goals. Consuming a blocker opens its cell and only what lies beyond it: the reach after
    the step is the reach before it flooded from that cell."""
    blockers_left = {thing.cell for i, thing in enumerate(level.things) if thing.is_blocker and i not in consumed}
    goals = set(level.goals)
    queue = deque([origin])
    while queue:
        cell = queue.popleft()
        for nxt in neighbours(cell):
            if nxt in seen or level.is_wall(nxt) or nxt in blockers_left or nxt in goals:
                continue
            seen.add(nxt)
            queue.append(nxt)
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
        if not thing.is_blocker and index not in state.taken and thing.cell in cells
    ]
    stats = take_items(state.stats, (level.things[index] for index in newly))
    return RouteState(state.consumed, state.taken | frozenset(newly), stats, frozenset(cells)), newly


def _reach(level: PassagesLevel, state: RouteState) -> frozenset[Cell] | set[Cell]:
    """The state's reachable cells: carried by states this module made, found afresh for any other."""
    return state.reached if state.reached else reachable_cells(level, state.consumed)


def take_items(stats: Stats, items: Iterable[Thing]) -> Stats:
    """The stats after taking these items. Elixir: "Add the indicated number of points to your life." Key:
    "Add one key to your inventory." Equipment: "raise the indicated player stat by the displayed amount".
    The one place where an item changes the stats: the rules' replay, the region graph's searches and the
    reference engine all take items through it."""
    hp, atk, defense, keys = stats.hp, stats.atk, stats.defense, stats.keys
    for thing in items:
        if thing.kind == "elixir":
            hp += thing.hp
        elif thing.kind == "key":
            keys += 1
        elif thing.kind == "equipment":
            atk += thing.atk
            defense += thing.defense
        else:
            raise ValueError(f"{thing.kind} is not an item")
    return Stats(hp, atk, defense, keys)


def apply_item(thing: Thing, stats: Stats) -> Stats:
    """The stats after taking one item (take_items)."""
    return take_items(stats, (thing,))


def consume_blocker(thing: Thing, stats: Stats, *, survive: bool = True) -> tuple[Stats, int] | None:
    """Open the door or fight the enemy `thing` with these stats: (the stats after, the life lost), or None
    when the rules do not allow it now. The one place where a blocker changes the stats.

    Door: "Subtract one key from your inventory to open the locked door": it needs a key and spends it.
    Enemy: the fight's damage (fight_damage); "If your life points drop to zero or below, you lose", so the
    fight is allowed only if the damage is below the current hp. With `survive` False that last condition
    is left to the caller: a search for the least starting hp counts life from 0 and turns each fight's
    damage into the starting hp it needs instead."""
    if thing.kind == "door":
        if stats.keys < 1:
            return None
        return pay_for(thing, stats, 0), 0
    if thing.enemy is None:
        raise ValueError(f"{thing.kind} is not a blocker")
    damage = fight_damage(thing.enemy, stats.atk, stats.defense)
    if damage is None or (survive and damage >= stats.hp):
        return None
    return pay_for(thing, stats, damage), damage


def blocker_cost(level: PassagesLevel, index: int, stats: Stats) -> int | None:
    """Life lost by consuming blocker `index` now; None when it cannot be consumed (consume_blocker)."""
    after = consume_blocker(level.things[index], stats)
    return None if after is None else after[1]


def pay_for(thing: Thing, stats: Stats, cost: int) -> Stats:
    """What consuming a blocker takes from the player, `cost` being its blocker_cost. Door: "Subtract one
    key from your inventory to open the locked door". Enemy: the fight's damage comes off your life.
    consume_blocker decides whether and at what cost; callers that know the cost already (the generator's
    explorer) pay it here directly."""
    # Made directly rather than by dataclasses.replace: the generator's explorer calls this for every move.
    return Stats(stats.hp - cost, stats.atk, stats.defense, stats.keys - (thing.kind == "door"))


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
    """Open the door or fight the enemy `index`, then take what became reachable.

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


# -------------------------------------------------------------------------------------------- signature

Signature = tuple[frozenset[int], frozenset[tuple[int, int, int]]]


def signature_entry(level: PassagesLevel, index: int, stats: Stats, cost: int) -> tuple[int, int, int] | None:
    """passages.md: "for each enemy it fights that costs it more than 0 hp, that enemy together with the
    player's (atk, def) at the fight. Fights that cost 0 hp are left out.\""""
    if level.things[index].kind != "enemy" or cost <= 0:
        return None
    return index, stats.atk, stats.defense


# ------------------------------------------------------------------------------------------------ replay


class RouteError(ValueError):
    """A route that does not follow the rules: a bug in whichever engine produced it."""


@dataclass(frozen=True)
class Step:
    action: str  # "take", "open", "fight" or "goal"
    at: Cell
    thing: str  # what was taken, opened or fought ("goal" for the goal)
    damage: int
    stats: Stats  # after the step

    def as_json(self) -> dict:
        return {
            "action": self.action,
            "at": list(self.at),
            "object": self.thing,
            "damage": self.damage,
            "hp": self.stats.hp,
            "atk": self.stats.atk,
            "def": self.stats.defense,
            "keys": self.stats.keys,
        }


@dataclass(frozen=True)
class Replay:
    steps: tuple[Step, ...]
    final_hp: int
    signature: Signature
    decisions: tuple[Decision, ...]


def replay(level: PassagesLevel, decisions: Iterable[Decision]) -> Replay:
    """Apply a route decision by decision with the plain rules; raise RouteError at the first illegal one.

    A route is a list of ("open", i) / ("fight", i) decisions ending with ("goal", g). Items are taken as
    soon as they are reachable and appear as "take" steps."""
    decisions = tuple(decisions)
    state, taken = initial_state(level)
    steps: list[Step] = []
    stats = level.player

    def record_taken(items: list[int]) -> None:
        nonlocal stats
        for item in items:
            stats = apply_item(level.things[item], stats)
            steps.append(Step("take", level.things[item].cell, level.things[item].describe(), 0, stats))

    record_taken(taken)
    doors: set[int] = set()
    fights: set[tuple[int, int, int]] = set()
    for number, (action, index) in enumerate(decisions, start=1):
        if action == "goal":
            if number != len(decisions):
                raise RouteError(f"step {number}: the route goes on after reaching a goal")
            if not 0 <= index < len(level.goals) or index not in reachable_goals(level, state):
                raise RouteError(f"step {number}: goal {index} is not reachable")
            steps.append(Step("goal", level.goals[index], "goal", 0, state.stats))
            return Replay(tuple(steps), state.stats.hp, (frozenset(doors), frozenset(fights)), decisions)
        if not 0 <= index < len(level.things):
            raise RouteError(f"step {number}: no object {index}")
        thing = level.things[index]
        expected = "open" if thing.kind == "door" else "fight" if thing.kind == "enemy" else None
        if action != expected:
            raise RouteError(f"step {number}: cannot {action} a {thing.kind} at {thing.cell}")
        before = state.stats
        try:
            state, cost, taken = consume(level, state, index)
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
