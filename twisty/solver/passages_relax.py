"""Cheap proofs first: bounds and a relaxation of a tower, answered before the exact search, that can prove
the tower unwinnable, prove a route optimal, or cap the best final hp.

The first is a count (`strongest_hero_cap`, its own proof in its docstring): the hero with every gain of the
tower (every item, and the purchases all the money of the tower can buy, split in every way) against only
the fights no route avoids. A tower that this hero cannot win is unwinnable: magic-tower-AI's 24-floor map
in 0.02 s of CPU, where the relaxation below takes 5 s.

The relaxation here is "every door open, keys free": the level without its doors and its keys
(`doors_open`). Doors cost no life, so the relaxed level is the real one without its key management, which
is where most of a tower's states come from (on magic-tower-AI's 24-floor map the exact search ran past 900
s, the relaxed one proves it unwinnable in seconds).

Soundness (if the relaxed level cannot be won, the real one cannot; the relaxed best hp is at least the
real best). Let L be a level and L' the same level without its doors and keys. Take any winning route R of
L and let R' be R without its door openings. Step by step, with i the steps of R done:

- R' has consumed R's consumed set less the doors, so every cell R reaches R' reaches too: a path of R's
  reach goes through floor, items and consumed blockers, which in L' are floor or consumed (a door is
  floor), and goals are walked through by neither.
- So R' has taken every item R has taken, keys aside, and possibly more, taken earlier. Items that are
  decisions (an unsafe stat's, Thing.optional) R' takes exactly when R does. The classes of the stats
  (twisty.rules.passages_tower) are the same in L and L': they read the enemies, the equipment and the shop,
  none of which the relaxation changes. So each of atk, def, mdef is at least R's when monotone or
  gain-safe (a gain-safe stat was checked at every combination of the values the hero can hold, so taking
  its items earlier never makes a fight dearer) and equal when unsafe. Money and purchases are R's: the
  same fights pay the same, the same purchases cost the same (and the shop cell R steps on, R' reaches).
- Hence every fight of R is next to R''s reach, costs R' no more, and R' has at least R's life before it
  (more elixirs, no more damage; with drain, the life after a fight, hp - floor(v x hp) - rest, does not
  fall as hp rises): R' survives it with at least R's life after. The goal (or the boss) R reaches is next
  to R''s reach, and R' reaches it with at least R's life.

So R' wins L' with a final hp at least R's. The tests hold this against the exact engines on random towers
(tests/solver/test_passages_relax.py): the relaxed best is never below the real one.

The relaxed route may also be followed in L (`repair`): each fight is reached by opening the doors on the
way, with the keys held, and the items the relaxed route had taken by then are fetched the same way. If
that route replays in L with the relaxed best hp, it is optimal in L: nothing in L beats the relaxation.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, replace

from twisty.rules.passages import (
    COLOURS,
    PURCHASES,
    Cell,
    Decision,
    PassagesLevel,
    RouteError,
    Shop,
    Stats,
    TowerStats,
    consume,
    initial_state,
    neighbours,
    purchase,
    reachable_cells,
    replay,
    touches,
)
from twisty.rules.passages_combat import BREAK_ARMOUR, COUNTER, DRAIN, MIMIC, PURIFY, Enemy, tower_damage
from twisty.solver.passages_verdict import SOLVABLE, UNSOLVABLE, BestRoute, Deadline

# The relaxation is asked for at most this part of the time left, so that the exact search keeps the rest
# (the relaxed level has fewer blockers: where it does not settle the tower it is usually done in a
# fraction of this).
RELAXATION_SHARE = 0.5


@dataclass(frozen=True)
class Relaxed:
    """A relaxed level and, per object of it, the index of the same object in the real level."""

    level: PassagesLevel
    real_index: tuple[int, ...]


def doors_open(level: PassagesLevel, colours: frozenset[str] | None = None) -> Relaxed | None:
    """The level with every door open and no keys (module docstring), or only the doors and keys of
    `colours` ("" the rulebook's) gone; None when no door would open.

    With some colours kept the proof is the module docstring's for the colours opened, and for a colour
    kept: R' opens its doors when R does, and holds at least R's keys of it at every step (the same start,
    its keys taken no later, since R''s reach includes R's, and the same doors opened), so each of those
    openings is possible in L' too."""
    opened = _door_colours(level) if colours is None else colours & _door_colours(level)
    if not opened:
        return None
    kept = tuple(
        index
        for index, thing in enumerate(level.things)
        if not (thing.kind in ("door", "key") and thing.colour in opened)
    )
    new_index = {old: new for new, old in enumerate(kept)}
    player = level.player
    if isinstance(player, TowerStats):
        coloured = tuple(
            0 if colour in opened else count for colour, count in zip(COLOURS, player.coloured, strict=False)
        )
        player = replace(player, keys=0 if "" in opened else player.keys, coloured=coloured)
    elif "" in opened:
        player = Stats(player.hp, player.atk, player.defense, 0)
    relaxed = replace(
        level,
        things=tuple(level.things[index] for index in kept),
        player=player,
        guards=tuple(None if guard is None else new_index[guard] for guard in level.guards),
    )
    return Relaxed(relaxed, kept)


def _door_colours(level: PassagesLevel) -> frozenset[str]:
    return frozenset(thing.colour for thing in level.things if thing.kind == "door")


def _scarce_colours(level: PassagesLevel) -> list[str]:
    """The door colours whose keys (held at the start and on the map) are fewer than their doors, the
    scarcest (fewest keys per door) first: where keeping a colour's doors can matter."""
    player = level.player
    found = []
    for colour in _door_colours(level):
        doors = sum(1 for thing in level.things if thing.kind == "door" and thing.colour == colour)
        keys = player.colour_keys(colour) + sum(
            1 for thing in level.things if thing.kind == "key" and thing.colour == colour
        )
        if keys < doors:
            found.append((keys / doors, colour))
    return [colour for _, colour in sorted(found)]


BestRouteOf = Callable[[PassagesLevel, Deadline], BestRoute]


def best_route_relaxed_first(level: PassagesLevel, deadline: Deadline, best_route: BestRouteOf) -> BestRoute:
    """The best route of `level` by `best_route` (an engine's), with the relaxations asked first: every
    door open, then, when some colour has fewer keys than doors and the level has doors of another colour
    too, every door open but that colour's (scarcest first). Unwinnable relaxed means unwinnable; a relaxed
    best route that can be followed in the level with the same hp is optimal; otherwise the exact search
    answers, and an unproved answer carries the least relaxed best (or the count) as its cap
    (BestRoute.at_most)."""
    strongest = strongest_hero_cap(level, deadline)
    if strongest is not None and strongest <= 0:
        return BestRoute(UNSOLVABLE, proved=True)
    colours = _door_colours(level)
    relaxations: list[frozenset[str] | None] = [None]
    if len(colours) > 1:
        relaxations += [colours - {colour} for colour in _scarce_colours(level)]
    left = deadline.remaining()
    share = _Shared(Deadline(None if left is None else left * RELAXATION_SHARE, deadline.memory_bytes), deadline)
    cap = strongest
    for opened in relaxations:
        relaxed = doors_open(level, opened)
        if relaxed is None or share.expired():
            break
        bound = best_route(relaxed.level, share)
        if bound.status == UNSOLVABLE and bound.proved:
            return BestRoute(UNSOLVABLE, proved=True)
        if bound.status != SOLVABLE or not bound.proved or bound.final_hp is None:
            continue
        cap = bound.final_hp if cap is None else min(cap, bound.final_hp)
        if bound.decisions is not None:
            followed = repair(level, relaxed, bound.decisions)
            if followed is not None and followed[0] == bound.final_hp:
                return BestRoute(SOLVABLE, bound.final_hp, followed[1], proved=True)
    answer = best_route(level, deadline)
    return answer if answer.proved or cap is None else replace(answer, at_most=cap)


# The strongest hero's bound gives up past this many splits of the purchases among the stats (each is one
# sum over the fights no route avoids), and past this many cell visits to find those fights (one flood per
# enemy): it is a quick proof or none.
MAX_SPLITS = 20_000
MAX_FLOOD_CELLS = 1_000_000
# The specials whose term of the damage grows with a hero's stat (counter: atk; break armour: def; purify:
# mdef; drain: hp): the bound leaves those terms out, which leaves a damage that falls as the stats rise.
_GROWING = frozenset({COUNTER, BREAK_ARMOUR, PURIFY, DRAIN})


def strongest_hero_cap(level: PassagesLevel, deadline: Deadline | None = None) -> int | None:
    """An upper bound on the final hp of every winning route (at most 0: no route wins), or None when it is
    not worked out (no enemy to count, or past MAX_SPLITS / MAX_FLOOD_CELLS, or the deadline).

    Proof. Take a winning route R. (1) Its stats never exceed the strongest hero's: every elixir's and
    equipment's gain at most once, and purchases: R's money is at most the start's plus every non-boss
    enemy's, so R buys at most n purchases, n the most that money buys in order of price ("Purchase n costs
    start + delta x n"); R's purchases of atk, def, mdef are some (a, d, m) with a + d + m <= n, and its hp
    purchases at most n - a - d - m. (2) R's damage in a fight is at least `_least_damage` at the strongest
    hero's stats for (a, d, m): that function is the fight's damage with the terms that grow with the hero's
    stats left out (each term is >= 0), so it is at most the damage at R's stats, and it does not rise as
    atk, def or mdef rise (more atk, fewer turns; more def, less per turn; more mdef, less after the turns);
    an enemy the strongest atk cannot harm cannot be fought at all. (3) R ends touching one of the level's
    goals (after its boss fight, when it has one): a neighbour of that goal is in R's last reach, and the
    reach is joined to the start through floor, items and consumed blockers, neighbour to neighbour or by a
    stair ("you may move anywhere there is an unobstructed path"). So R fought every enemy on one chain of
    cells from the start to beside a goal: its damage is at least the least sum of `_least_damage` over the
    enemies of any such chain (`_WayGraph.least_costs`, doors and other blockers counted 0), plus that goal's boss.
    Every enemy without which no goal can be touched lies on every such chain, so this is at least their
    sum, the bound before chains were counted (`_unavoidable_enemies`, still used when the chains are
    past their work limit, MAX_WAY_SPLITS). So R's final hp is at most the strongest hero's life (start, every elixir,
    the hp purchases) less those fights, for R's (a, d, m); the bound is the most of that over every
    split."""
    player, shop = level.player, level.shop
    blockers = [i for i, thing in enumerate(level.things) if thing.is_blocker]
    enemies = [i for i in blockers if level.things[i].enemy is not None]
    goal_enemies = [level.guard(goal) for goal in range(len(level.goals))]
    if not enemies and not any(guard is not None for guard in goal_enemies):
        return None
    hp, atk, defense, mdef = player.hp, player.atk, player.defense, player.mdef
    money = player.money
    for thing in level.things:
        hp, atk, defense, mdef = hp + thing.hp, atk + thing.atk, defense + thing.defense, mdef + thing.mdef
        if thing.enemy is not None and not thing.wins:
            money += thing.enemy.money
    splits = _purchase_splits(shop, money) if shop is not None else [(0, 0, 0, 0)]
    if splits is None:
        return None
    way = _WayGraph(level, blockers) if len(splits) <= MAX_WAY_SPLITS else None
    if way is not None and (way.too_large or len(splits) * len(way.edges) > MAX_FLOOD_CELLS):
        way = None  # (a search per split over this many nodes is past the quick proof's work)
    mandatory = [] if way is not None else _unavoidable_enemies(level, blockers, enemies, deadline)
    if mandatory is None:
        return None
    fought = [level.things[i].enemy for i in mandatory]
    guards = [None if guard is None else level.things[guard].enemy for guard in goal_enemies]
    best: int | None = None
    for bought_hp, bought_atk, bought_def, bought_mdef in splits:
        if deadline is not None and deadline.expired():
            return None
        stats = (atk + bought_atk, defense + bought_def, mdef + bought_mdef)
        ends = [0 if guard is None else _least_damage(guard, *stats) for guard in guards]
        if way is not None:
            costs = way.least_costs(stats)
            totals = [
                None if end is None or cost is None else cost + end for cost, end in zip(costs, ends, strict=True)
            ]
        else:
            damages = [_least_damage(enemy, *stats) for enemy in fought if enemy is not None]
            if any(damage is None for damage in damages):
                continue
            totals = [None if end is None else sum(d for d in damages if d is not None) + end for end in ends]
        reachable = [total for total in totals if total is not None]
        if not reachable:
            continue
        life = hp + bought_hp - min(reachable)
        best = life if best is None else max(best, life)
    return 0 if best is None else best


# Chains are counted (one least-cost search over the areas and blockers per split) up to this many splits
# of the purchases, and while splits x nodes stays within MAX_FLOOD_CELLS; past it, the fights no route
# avoids (one flood per enemy, once).
MAX_WAY_SPLITS = 1_000


class _WayGraph:
    """The level's areas (floor and items joined neighbour to neighbour and by stairs) and its blockers as
    the nodes of a graph, for the least damage of a chain of cells from the start to beside each goal
    (strongest_hero_cap's step 3). `too_large` past MAX_FLOOD_CELLS cells."""

    def __init__(self, level: PassagesLevel, blockers: list[int]) -> None:
        cell_of = {level.things[i].cell: i for i in blockers}
        goals = set(level.goals)
        links = level.link_map
        self.level = level
        self.too_large = level.height * level.width > MAX_FLOOD_CELLS
        node_of: dict[Cell, int] = {}  # area cells -> area number; blocker cells -> len(areas) + position
        self.areas = 0
        if self.too_large:
            return
        around: dict[Cell, list[Cell]] = {}
        for row in range(level.height):
            for col in range(level.width):
                cell = (row, col)
                if not level.is_wall(cell) and cell not in goals:
                    around[cell] = [
                        nxt
                        for nxt in (*neighbours(cell), *links.get(cell, ()))
                        if not level.is_wall(nxt) and nxt not in goals
                    ]
        for cell in around:
            if cell in cell_of or cell in node_of:
                continue
            node_of[cell] = self.areas
            stack = [cell]
            while stack:
                at = stack.pop()
                for nxt in around[at]:
                    if nxt not in node_of and nxt not in cell_of:
                        node_of[nxt] = self.areas
                        stack.append(nxt)
            self.areas += 1
        self.blockers = [i for i in blockers if level.things[i].cell in around]
        for position, index in enumerate(self.blockers):
            node_of[level.things[index].cell] = self.areas + position
        self.edges: list[set[int]] = [set() for _ in range(self.areas + len(self.blockers))]
        for cell, nexts in around.items():
            for nxt in nexts:
                if nxt in node_of and node_of[nxt] != node_of[cell]:
                    self.edges[node_of[cell]].add(node_of[nxt])
        self.start = node_of.get(level.start)
        self.beside = [{node_of[nxt] for nxt in neighbours(goal) if nxt in node_of} for goal in level.goals]

    def least_costs(self, stats: tuple[int, int, int]) -> list[int | None]:
        """Per goal, the least sum of `_least_damage` at these stats (atk, def, mdef) over the enemies of a
        chain from the start to beside it (None: no chain); doors and other blockers cost 0, an enemy these
        stats cannot harm is no way."""
        weight: list[int | None] = [0] * len(self.edges)
        for position, index in enumerate(self.blockers):
            enemy = self.level.things[index].enemy
            weight[self.areas + position] = 0 if enemy is None else _least_damage(enemy, *stats)
        best: list[int | None] = [None] * len(self.edges)
        if self.start is None:
            return [None] * len(self.beside)
        best[self.start] = 0
        queue = [(0, self.start)]
        while queue:
            spent, node = heapq.heappop(queue)
            if spent != best[node]:
                continue
            for nxt in self.edges[node]:
                step = weight[nxt]
                if step is None:
                    continue
                total = spent + step
                known = best[nxt]
                if known is None or total < known:
                    best[nxt] = total
                    heapq.heappush(queue, (total, nxt))
        out: list[int | None] = []
        for nodes in self.beside:
            found = [best[node] for node in nodes if best[node] is not None]
            out.append(min(found) if found else None)  # type: ignore[type-var]
        return out


def _purchase_splits(shop: Shop, money: int) -> list[tuple[int, int, int, int]] | None:
    """The gains of every split of the most purchases `money` buys: (hp, atk, def, mdef) gained, the hp
    purchases taking what the others leave (or none when the shop sells no hp); None past MAX_SPLITS."""
    count, spent = 0, 0
    while spent + shop.price(count) <= money and shop.price(count) > 0 and count <= MAX_SPLITS:
        spent += shop.price(count)
        count += 1
    others = [choice for choice in shop.choices if PURCHASES[choice] != "hp"]
    sizes = [1]
    for _ in others:  # (the number of splits of at most `count` among the other stats)
        sizes = [sum(sizes[: total + 1]) for total in range(count + 1)]
        if sum(sizes) > MAX_SPLITS:
            return None
    splits = []
    for amounts in _bounded_tuples(len(others), count):
        gains = [0, 0, 0, 0]
        for choice, amount in zip(others, amounts, strict=True):
            gains[choice] += amount * shop.gain(choice)
        gains[0] += (count - sum(amounts)) * shop.hp
        splits.append((gains[0], gains[1], gains[2], gains[3]))
    return splits


def _bounded_tuples(length: int, total: int) -> list[tuple[int, ...]]:
    """Every tuple of `length` counts >= 0 whose sum is at most `total`."""
    if length == 0:
        return [()]
    return [(first, *rest) for first in range(total + 1) for rest in _bounded_tuples(length - 1, total - first)]


def _unavoidable_enemies(
    level: PassagesLevel, blockers: list[int], enemies: list[int], deadline: Deadline | None
) -> list[int] | None:
    """The enemies without which no goal can be touched, with every other blocker gone (one flood each);
    None past MAX_FLOOD_CELLS or the deadline."""
    everything = frozenset(blockers)
    open_reach = reachable_cells(level, everything)
    if len(open_reach) * len(enemies) > MAX_FLOOD_CELLS:
        return None
    found = []
    for index in enemies:
        if deadline is not None and deadline.expired():
            return None
        if level.things[index].cell not in open_reach and not touches(open_reach, level.things[index].cell):
            continue  # (out of reach even with everything gone: no route fights it)
        cells = reachable_cells(level, everything - {index})
        if not any(touches(cells, goal) for goal in level.goals):
            found.append(index)
    return found


def _least_damage(enemy: Enemy, atk: int, defense: int, mdef: int) -> int | None:
    """The damage of a fight with `enemy` at these stats with the terms that grow with the hero's stats
    left out (_GROWING; mimic, whose atk and def are the hero's, counts 0): at most the true damage at any
    stats up to these, and not rising as they rise; None when this atk cannot harm it."""
    if MIMIC in enemy.specials:
        return 0
    return tower_damage(replace(enemy, specials=enemy.specials - _GROWING), atk, defense, mdef, 0)


class _Shared(Deadline):
    """A part of the level's deadline: expired when its own share or the whole has run out."""

    def __init__(self, share: Deadline, whole: Deadline) -> None:
        super().__init__(share.seconds, share.memory_bytes)
        self.whole = whole

    def expired(self) -> bool:
        return super().expired() or self.whole.expired()


def repair(level: PassagesLevel, relaxed: Relaxed, decisions: tuple[Decision, ...]) -> tuple[int, tuple] | None:
    """The relaxed route followed in the real level (module docstring): before each step, the doors on the
    way to what it fights, and to each item the relaxed route had taken by then, are opened with the keys
    held, fewest doors first. (final hp, decisions) when that replays in the level, else None."""
    real = relaxed.real_index
    wanted: list[Decision] = []
    for action, index in decisions:
        wanted.append((action, real[index]) if action in ("fight", "take", "open") else (action, index))
    items_by_step = _items_reached(relaxed, decisions)
    route: list[Decision] = []
    walker = _Walker(level)
    for number, decision in enumerate(wanted):
        for item in items_by_step[number]:
            _open_way(walker, level.things[real[item]].cell, route, stand_on=True)
        action, index = decision
        if action == "buy":
            route.append(decision)
            if not walker.buy(index):
                return None
            continue
        target = level.goals[index] if action == "goal" else level.things[index].cell
        _open_way(walker, target, route, stand_on=False)
        if action == "goal":
            route.append(decision)
            break
        route.append(decision)
        if not walker.consume(index):
            return None
    try:
        replayed = replay(level, route)
    except RouteError:
        return None
    return replayed.final_hp, tuple(route)


def _items_reached(relaxed: Relaxed, decisions: tuple[Decision, ...]) -> list[list[int]]:
    """For each step of the relaxed route, the items (relaxed indices) the relaxed route had taken before it."""
    level = relaxed.level
    walker = _Walker(level)
    seen: set[int] = set()
    out: list[list[int]] = []
    for action, index in decisions:
        taken = sorted(item for item in walker.items_taken() if item not in seen)
        seen.update(taken)
        out.append(taken)
        if action == "buy":
            walker.buy(index)
        elif action in ("fight", "take", "open"):
            walker.consume(index)
    return out


class _Walker:
    """A position in a level, followed by the rules' own steps (the route is replayed by the plain rules
    afterwards too)."""

    def __init__(self, level: PassagesLevel) -> None:
        self.level = level
        self.state, _ = initial_state(level)

    @property
    def reach(self) -> frozenset[Cell]:
        return self.state.reached

    @property
    def blocked(self) -> set[Cell]:
        consumed = self.state.consumed
        return {
            thing.cell for index, thing in enumerate(self.level.things) if thing.is_blocker and index not in consumed
        }

    def items_taken(self) -> frozenset[int]:
        return self.state.taken

    def consume(self, index: int) -> bool:
        try:
            self.state, _, _ = consume(self.level, self.state, index)
        except ValueError:
            return False
        return True

    def buy(self, choice: int) -> bool:
        try:
            self.state = purchase(self.level, self.state, choice)
        except ValueError:
            return False
        return True


def _open_way(walker: _Walker, target: Cell, route: list[Decision], *, stand_on: bool) -> None:
    """Open, with the keys held, the doors of the way with the fewest doors from the reach to `target` (to
    stand on it, or to stand next to it). Leaves the way as far as the keys go."""
    level = walker.level
    follow = walker
    if (target in follow.reach) if stand_on else any(cell in follow.reach for cell in neighbours(target)):
        return
    door_at = {thing.cell: index for index, thing in enumerate(level.things) if thing.kind == "door"}
    blocked = follow.blocked
    goals = set(level.goals)
    links = level.link_map
    # 0-1 breadth-first search from the reach: a door costs 1, any other open cell 0.
    previous: dict[Cell, Cell | None] = {cell: None for cell in follow.reach}
    queue: deque[tuple[int, Cell]] = deque((0, cell) for cell in follow.reach)
    cost = dict.fromkeys(follow.reach, 0)
    found: Cell | None = None
    while queue:
        spent, cell = queue.popleft()
        if spent > cost.get(cell, spent):
            continue
        if (cell == target) if stand_on else (target in neighbours(cell) and cell in previous):
            found = cell
            break
        for nxt in (*neighbours(cell), *links.get(cell, ())):
            if level.is_wall(nxt) or nxt in goals:
                continue
            if nxt in blocked and nxt not in door_at and not (stand_on and nxt == target):
                continue
            step = spent + (1 if nxt in door_at and nxt in blocked else 0)
            if step < cost.get(nxt, step + 1):
                cost[nxt], previous[nxt] = step, cell
                (queue.appendleft if step == spent else queue.append)((step, nxt))
    if found is None:
        return
    way: list[Cell] = []
    at: Cell | None = found
    while at is not None and at not in follow.reach:
        way.append(at)
        at = previous[at]
    for cell in reversed(way):
        index = door_at.get(cell)
        if index is None or cell not in follow.blocked:
            continue
        if not walker.consume(index):
            return
        route.append(("open", index))
