"""The search engine's graph: everything its compiled core reads about a level, made in Python.

The core (twisty/solver/_passages_core.c) searches over sets of consumed blockers on the region graph
(twisty.rules.passages_graph). What it needs beyond the graph is made here once per question, where the
rules are at hand: each area's gains (the rules' take_items on its items), which blockers can ever be
fought, the dominator tree of the map, each blocker's least damage, the values of the dominator-tree
relaxation behind the search's first bound, the distances to a goal, the blockers worth consuming at all,
and, through a callback, every blocker's cost at any stats the core meets (the rules' fight_damage). It
also packs states for the core (compiled_state), read from the reference engine's RegionWalk: wherever a
route is followed in Python, it is followed by the rules' own functions.

Towers (docs/mota.md). The core holds a tower's keys of several colours, magic defence, specials and
bosses packed into what it had (_pack_stats, _add_bosses): the defence and the magic defence as one number,
defence x mdef_scale + mdef, which adds up as the gains do (mdef_scale is one more than all the magic defence
there is, so the magic defence never carries into the defence); the keys as one number with a field per key
colour; each boss whose defeat wins as one more blocker after the region graph's, whose fight ends the route
(to the region graph and the walk it is a goal). The costs are the rules' fight_damage on the unpacked stats.
The core's bounds and dominance need more reached areas never to make a fight dearer; a level where some gain
can (an unsafe stat: the level has optional items) or with drain is in NOT_COMPILED and goes elsewhere.

Shops. A shop whose cells are all in one area and whose purchases raise no unsafe stat is held as chains
of purchase blockers (_add_purchases): for each kind on offer, purchase blockers numbered after the bosses,
the first next to the shop's area, each opening a pseudo-area worth that kind's gain, which leads to the next
of the kind; as many of each kind as all the money there is can buy (max_purchases). To the core a purchase
is a door that needs money (the header comment of _passages_core.c, "Towers", proves the dominance rule with
them); a route's purchase blocker becomes the rules' ("buy", choice). Any other shop: fits_compiled is False.

Numbers. Every stat of a level is at most 10^9 (twisty.limits.MAX_NUMBER), so one fight can cost up to
about 10^18 and a sum of many would leave the core's 64-bit integers. No route survives a fight that costs
more than all the life it can ever have (its starting hp and every elixir, far below MAX_COST under the
input limits), so the cost callback reports any such fight as impossible, and a level whose least damages
or starting hp would put the core's sums near the limit does not fit (fits_compiled): the engine then asks
the reference engine, which counts in Python's integers.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterator

from twisty.rules.passages import COLOURS, PURCHASES, Enemy, PassagesLevel, Stats, TowerStats, fight_damage, take_items
from twisty.rules.passages_graph import build_graph
from twisty.rules.passages_tower import MONOTONE, UNSAFE, max_purchases, stat_classes
from twisty.solver.passages_reference import Position, RegionWalk

# The largest cost the compiled core takes (its MAX_COST): a fight that costs more is reported impossible.
MAX_COST = 1 << 48
# The compiled core's sets: 128-bit sets of areas and of blockers, 256-bit sets of dominator-tree nodes.
SET_BITS = 128
NODE_BITS = 256
# The bits of the core's packed numbers (its MAX_NUMBER is 2^56): the keys of every colour, the defence with
# the magic defence.
MAX_PACKED_BITS = 55
# The tower features the core does not hold (docs/mota.md): life drained in proportion to itself, items that
# are decisions. Levels with them go to the reference engine (and so do shops it cannot hold: fits_compiled).
NOT_COMPILED = frozenset({"drain", "optional items"})


def bits(mask: int) -> Iterator[int]:
    """The members of a bit set, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class SearchGraph:
    """The region graph as bitmasks, with the precomputed parts of the search's bounds. With a starting hp,
    the enemies that no route survives from it are walls.

    Towers (docs/mota.md) are packed into what the core holds (module docstring of passages_search_graph,
    "Towers"): the magic defence into the defence, the keys of each colour into one number, and each boss
    whose defeat wins becomes a blocker of the core after the region graph's, which ends the route."""

    def __init__(self, level: PassagesLevel, start_hp: int | None = None) -> None:
        graph = build_graph(level)
        self.level = level
        self.graph = graph
        self.walk = RegionWalk(level, graph)
        self._add_bosses()
        self.is_door = [level.things[obj].kind == "door" for obj in self.objects]
        self.enemies: list[Enemy | None] = [level.things[obj].enemy for obj in self.objects]  # None: a door
        gains: list[Stats] = [take_items(Stats(0), items) for items in self.walk.area_items]
        self.area_has_items = [bool(items) for items in self.walk.area_items]
        self._add_purchases(gains)
        self.blocker_count = len(self.is_door)
        self.areas_count = len(gains)
        self.door_mask = sum(1 << b for b in range(self.blocker_count) if self.is_door[b])
        self._pack_stats(gains)
        self.area_atk = [gain.atk for gain in gains]
        plain_keys = self.key_colours == ("",)
        self.area_def = (
            [self.packed_defense(gain) for gain in gains] if self.mdef_scale > 1 else [g.defense for g in gains]
        )
        self.area_keys = [gain.keys for gain in gains] if plain_keys else [self.packed_keys(gain) for gain in gains]
        self.area_hp = [gain.hp for gain in gains]
        self.area_blocker_mask = [sum(1 << b for b in bs) for bs in self.area_blockers]
        self.area_goal = [gs[0] if gs else -1 for gs in self.area_goals]
        self.blocker_area_mask = [sum(1 << a for a in areas) for areas in self.blocker_areas]
        self.blocker_blocker_mask = [sum(1 << c for c in bs) for bs in self.blocker_blockers]
        self.blocker_goal = [gs[0] if gs else -1 for gs in self.blocker_goals]
        self.goal_blocker_mask = sum(1 << b for b, goal in enumerate(self.blocker_goal) if goal >= 0)

        # The most attack and defence the player can ever have; enemies it cannot harm even then are walls
        # (in a tower, at the most of every stat: no fight impossible there is possible with less, as the
        # stats the core answers make no fight dearer as they rise, docs/mota.md).
        all_atk = level.player.atk + sum(self.area_atk)
        all_def = self.packed_defense(level.player) + sum(self.area_def)
        self.defeatable = [
            self.is_door[b]
            or (self.damage(b, all_atk, all_def) is not None if self.towers else self.enemy(b).defense < all_atk)
            for b in range(self.blocker_count)
        ]
        # With a starting hp, enemies that no route survives reaching (the relaxation of the bound says the
        # life left after fighting them is below 1) are walls too; walls shrink the best stats, so repeat.
        while True:
            self.in_principle_areas, in_principle_blockers = self._reachable_in_principle()
            principle = list(bits(self.in_principle_areas))
            self.max_atk = level.player.atk + sum(self.area_atk[a] for a in principle)
            self.max_def = self.packed_defense(level.player) + sum(self.area_def[a] for a in principle)
            self.total_elixirs = sum(self.area_hp[a] for a in principle)
            self._build_dominator_tree()
            self.least_damage = self._least_damages()
            self._tree_values()
            if start_hp is None:
                break
            walls = self._unsurvivable(start_hp)
            if not walls:
                break
            for b in walls:
                self.defeatable[b] = False
        self.goal_distance = self._goal_distances()
        self.useful_mask = self._useful_blockers() & in_principle_blockers
        self.all_mask = in_principle_blockers
        # Blockers whose consumption matters beyond the areas it reaches: those touching another blocker
        # or a goal. A consumed blocker of any other kind has every area around it reached.
        self.linking_mask = sum(
            1 << b for b in range(self.blocker_count) if self.blocker_blockers[b] or self.blocker_goals[b]
        )
        # With a shop the money and the purchases matter too ("Shops" in the module docstring).
        self.linking_mask |= self.purchase_mask | self.money_mask
        self._compiled: dict[int, tuple] = {}

    def _add_bosses(self) -> None:
        """The region graph's lists, with each boss whose defeat wins made a blocker of the core: numbered
        after the region graph's blockers, next to whatever its goal cell is next to, with that goal as the
        only goal it touches; the goals it guards are no goals of the areas and blockers around them (they are
        reached only through the fight). Its fight ends the route (the core's `ends`), so what lies around it
        is never reached through it: the lists here say what touches what, as the core's bounds read them."""
        graph, level = self.graph, self.level
        count = len(graph.blockers)
        guarded = [(goal, guard) for goal, guard in enumerate(level.guards) if guard is not None]
        boss_of_goal = {goal: count + i for i, (goal, _) in enumerate(guarded)}
        self.boss_goal = [goal for goal, _ in guarded]  # per boss, from blocker number `count` on
        self.boss_mask = sum(1 << boss for boss in boss_of_goal.values())
        self.objects = graph.blockers + tuple(guard for _, guard in guarded)
        if not guarded:
            self.area_blockers, self.blocker_blockers = list(graph.area_blockers), list(graph.blocker_blockers)
            self.blocker_areas, self.area_goals = list(graph.blocker_areas), list(graph.area_goals)
            self.blocker_goals = list(graph.blocker_goals)
            return
        self.area_blockers = [
            (*bs, *(boss_of_goal[goal] for goal in goals if goal in boss_of_goal))
            for bs, goals in zip(graph.area_blockers, graph.area_goals, strict=True)
        ]
        self.blocker_blockers = [
            (*bs, *(boss_of_goal[goal] for goal in goals if goal in boss_of_goal))
            for bs, goals in zip(graph.blocker_blockers, graph.blocker_goals, strict=True)
        ]
        self.blocker_areas = list(graph.blocker_areas)
        for goal, _ in guarded:
            self.blocker_areas.append(tuple(a for a, goals in enumerate(graph.area_goals) if goal in goals))
            self.blocker_blockers.append(tuple(b for b, goals in enumerate(graph.blocker_goals) if goal in goals))
        self.area_goals = [tuple(goal for goal in goals if goal not in boss_of_goal) for goals in graph.area_goals]
        self.blocker_goals = [
            tuple(goal for goal in goals if goal not in boss_of_goal) for goals in graph.blocker_goals
        ]
        self.blocker_goals += [(goal,) for goal, _ in guarded]

    def _add_purchases(self, gains: list[Stats]) -> None:
        """A shop as the core holds it ("Shops" in the module docstring): for each kind on offer, a chain of
        purchase blockers from the shop's area, the i-th of a kind opening a pseudo-area worth that kind's
        gain, which leads to the (i+1)-th; as many of each kind as money can ever buy (max_purchases). Appends
        to `gains` and to the graph's lists; sets what the core reads of money and purchases."""
        level, shop = self.level, self.level.shop
        self.purchase_choice: list[int] = []  # per purchase blocker, from purchase_base on: its PURCHASES index
        self.purchase_base = len(self.is_door)
        self.purchase_mask = self.money_mask = 0
        self.start_money = level.player.money
        self.shop_compiled = True
        self.blocker_money: list[int] = []
        if shop is None:
            return
        self.blocker_money = [0 if enemy is None else enemy.money for enemy in self.enemies]
        shop_areas = [a for a, items in enumerate(self.walk.area_items) if any(t.kind == "shop" for t in items)]
        if level.player.shopping:  # (a shop open from the start: its area is the start's)
            shop_areas = [self.walk.start_area]
        classes = stat_classes(level)
        # The core holds a shop in one area whose purchases raise no stat that can hurt (docs/mota.md).
        self.shop_compiled = len(shop_areas) <= 1 and all(
            classes.get(PURCHASES[choice], MONOTONE) != UNSAFE for choice in shop.choices
        )
        if not shop_areas or not self.shop_compiled:
            return
        most = max_purchases(level)
        self.money_mask = sum(1 << b for b, money in enumerate(self.blocker_money) if money)
        for choice in shop.choices:
            before = shop_areas[0]
            for _ in range(most):
                b, area = len(self.is_door), len(gains)
                gain, stat = shop.gain(choice), PURCHASES[choice]
                gains.append(
                    TowerStats(
                        hp=gain * (stat == "hp"),
                        atk=gain * (stat == "atk"),
                        defense=gain * (stat == "def"),
                        mdef=gain * (stat == "mdef"),
                    )
                )
                self.area_has_items.append(True)
                self.area_blockers[before] = (*self.area_blockers[before], b)
                self.area_blockers.append(())
                self.area_goals.append(())
                self.blocker_areas.append((before, area))
                self.blocker_blockers.append(())
                self.blocker_goals.append(())
                self.is_door.append(True)
                self.enemies.append(None)
                self.blocker_money.append(0)
                self.purchase_choice.append(choice)
                self.purchase_mask |= 1 << b
                before = area

    def _pack_stats(self, gains: list[Stats]) -> None:
        """How the core holds a tower's stats (module docstring, "Towers"): the defence and the magic defence
        as one number, defence x mdef_scale + mdef, where mdef_scale is one more than the most magic defence
        the hero can ever have (1 without any: the defence alone); the keys as one number with a field per
        key colour the level has, the rulebook's key first, each wide enough for every key of it there is."""
        level = self.level
        player = level.player
        self.mdef_scale = 1 + player.mdef + sum(gain.mdef for gain in gains)
        used = {thing.colour for thing in level.things}
        colours = [""] + [colour for colour in COLOURS if colour in used or player.colour_keys(colour)]
        self.key_colours = tuple(colours)
        keys_of = {colour: player.colour_keys(colour) for colour in colours}
        for thing in level.things:
            if thing.kind == "key":
                keys_of[thing.colour] += 1
        fields = []
        shift = 0
        for colour in colours:
            width = max(1, keys_of[colour].bit_length())
            fields.append((shift, (1 << width) - 1))
            shift += width
        self.key_fields = tuple(fields)
        self.key_bits_used = shift
        things = level.things
        self.door_field = [
            colours.index(things[obj].colour) if things[obj].kind == "door" else -1 for obj in self.objects
        ] + [-1] * len(self.purchase_choice)
        # Whether a fight here is more than the rulebook's: specials or magic defence anywhere.
        self.towers = self.mdef_scale > 1 or "specials" in level.features

    def packed_defense(self, stats: Stats) -> int:
        """The defence as the core holds it: with the magic defence (_pack_stats)."""
        return stats.defense * self.mdef_scale + stats.mdef

    def packed_keys(self, stats: Stats) -> int:
        """The keys as the core holds them: a field per colour (_pack_stats)."""
        fields = zip(self.key_colours, self.key_fields, strict=True)
        return sum(stats.colour_keys(colour) << shift for colour, (shift, _) in fields)

    def damage(self, b: int, atk: int, packed_defense: int) -> int | None:
        """The rules' damage of fighting blocker b (an enemy) at these stats, the defence packed with the
        magic defence; None when it cannot be harmed."""
        if self.mdef_scale == 1:
            return fight_damage(self.enemy(b), atk, packed_defense)
        defense, mdef = divmod(packed_defense, self.mdef_scale)
        return fight_damage(self.enemy(b), atk, defense, mdef)

    def enemy(self, b: int) -> Enemy:
        """The enemy that blocker b is (asked only of blockers that are not doors)."""
        enemy = self.enemies[b]
        assert enemy is not None, f"blocker {b} is a door"
        return enemy

    def fits_compiled(self, start_hp: int) -> bool:
        """Whether the compiled core can hold this level searched from `start_hp`: its sets, and its numbers
        (module docstring: every least damage below MAX_COST, so that the core's sums over at most 128 of
        them stay far within 64 bits, and all the life a route can ever have below MAX_COST, so that a
        cost above it is rightly an impossible fight)."""
        return (
            not self.level.features & NOT_COMPILED
            and self.shop_compiled
            and self.areas_count <= SET_BITS
            and self.blocker_count <= SET_BITS
            and self.node_count <= NODE_BITS
            and all(least is None or least < MAX_COST for least in self.least_damage)
            and start_hp + self.total_elixirs < MAX_COST
            and self.key_bits_used <= MAX_PACKED_BITS
            and (self.max_def + 1) < 1 << MAX_PACKED_BITS
        )

    def costs(self, atk: int, defense: int) -> list[int]:
        """Every blocker's cost at these stats, as the core reads it: a door 0, an enemy its damage by the
        rules, -1 where it cannot be harmed or costs more than MAX_COST (no route survives that). In a tower
        the defence comes packed with the magic defence (_pack_stats)."""
        out = []
        if self.towers:
            for b in range(self.blocker_count):
                damage = None if self.is_door[b] else self.damage(b, atk, defense)
                out.append(0 if self.is_door[b] else -1 if damage is None or damage >= MAX_COST else damage)
            return out
        for b in range(self.blocker_count):
            if self.is_door[b]:
                out.append(0)
            else:
                damage = fight_damage(self.enemy(b), atk, defense)
                out.append(-1 if damage is None or damage >= MAX_COST else damage)
        return out

    def compiled_graph(self, allowed: int | None = None) -> tuple:
        """This graph in the form the compiled core reads (_passages_core.c, read_graph), made once per set
        of allowed blockers (by default the ones worth consuming, useful_mask): the search's moves and
        free steps stay within them. The core asks each blocker's cost at new stats of `costs`."""
        allowed = self.useful_mask if allowed is None else allowed
        if allowed not in self._compiled:
            sets, nodes = set_bytes, _node_bytes
            areas = tuple(
                (
                    self.area_atk[a],
                    self.area_def[a],
                    self.area_keys[a],
                    self.area_hp[a],
                    self.area_goal[a],
                    sets(self.area_blocker_mask[a]),
                    nodes(self.children_mask[a]),
                )
                for a in range(self.areas_count)
            )
            blockers = tuple(
                (
                    int(self.is_door[b]),
                    self.blocker_goal[b],
                    -1 if self.least_damage[b] is None else self.least_damage[b],
                    -1 if self.goal_distance[b] is None else self.goal_distance[b],
                    sets(self.blocker_area_mask[b]),
                    sets(self.blocker_blocker_mask[b]),
                    sets(self.blocker_blocker_mask[b] & allowed),
                    nodes(self.children_mask[self.areas_count + b]),
                    self.door_field[b],
                    int(self.boss_mask >> b & 1),
                    self.blocker_money[b] if self.money_mask >> b & 1 else 0,  # (money_mask: only with a shop)
                    int(self.purchase_mask >> b & 1),
                )
                for b in range(self.blocker_count)
            )
            costs: Callable[[int, int], list[int]] = self.costs
            self._compiled[allowed] = (
                areas,
                blockers,
                tuple(self.positive_value),
                tuple(0 if extra is None else extra for extra in self.goal_extra),
                sets(self.door_mask),
                sets(self.goal_blocker_mask),
                sets(self.linking_mask),
                sets(allowed),
                sets(self.door_mask & allowed),
                nodes(self.goal_ancestors),
                self.total_elixirs,
                costs,
                self.key_fields,
                sets(self.boss_mask),
                self._compiled_shop(),
            )
        return self._compiled[allowed]

    def _compiled_shop(self) -> tuple[int, int, int]:
        """The shop as the core reads it: (the starting money, the first price, the rise per purchase); (0, 0, 0)
        without purchase blockers."""
        shop = self.level.shop
        if shop is None or not self.purchase_mask:
            return (0, 0, 0)
        return (self.start_money, shop.start, shop.delta)

    def compiled_state(self, at: Position) -> tuple:
        """A position of the region walk in the form the compiled core reads (_passages_core.c, read_state):
        what it reached; the core works out the rest."""
        elixirs = sum(self.area_hp[a] for a in bits(at.areas))
        stats = at.stats
        frontier, goal = at.frontier, at.goal
        extra = self.boss_mask | self.purchase_mask
        if extra:
            # The walk's frontier has no bosses (to it they are goals) and no purchase blockers (to it a
            # purchase is a move of its own), and its goal may be one a boss guards.
            for a in bits(at.areas):
                frontier |= self.area_blocker_mask[a] & extra
            for b in bits(at.consumed):
                frontier |= self.blocker_blocker_mask[b] & extra
            plain = [g for a in bits(at.areas) for g in self.area_goals[a]]
            plain += [g for b in bits(at.consumed) for g in self.blocker_goals[b]]
            goal = goal if goal in plain else min(plain, default=-1)
        return (
            set_bytes(at.consumed),
            set_bytes(at.areas),
            stats.atk,
            self.packed_defense(stats),
            self.packed_keys(stats),
            stats.hp,
            elixirs,
            set_bytes(frontier),
            goal,
        )

    def _unsurvivable(self, start_hp: int) -> list[int]:
        """Enemies no route can fight and survive from this starting hp. A route that has just fought
        enemy b has reached and consumed a set of nodes closed under dominators that holds b, with life
        start hp + elixirs taken - damage so far; the tree relaxation's best such set bounds that from
        above (elixirs of the set at least those taken, each fight costing at least its least damage).
        When the bound is below 1, no route survives fighting b."""
        areas = self.areas_count
        value = self.node_value
        best_with: list[int | None] = [None] * self.node_count  # the relaxation's best set containing the node
        root = self.graph.start_area
        best_with[root] = value[root]
        for node in self.node_order[1:]:
            parent = self.idom[node]
            best_of_parent = None if parent is None else best_with[parent]
            if best_of_parent is None:
                continue
            best_with[node] = best_of_parent - max(0, value[node]) + value[node]
        walls = []
        for b in range(self.blocker_count):
            best = best_with[areas + b]
            if self.defeatable[b] and not self.is_door[b] and best is not None and start_hp + best < 1:
                walls.append(b)
        return walls

    def _reachable_in_principle(self) -> tuple[int, int]:
        """Areas and blockers reachable if every defeatable blocker could be consumed (goals stay closed)."""
        areas = 1 << self.graph.start_area
        blockers = 0
        queue_areas = [self.graph.start_area]
        queue_blockers: list[int] = []
        while queue_areas or queue_blockers:
            if queue_areas:
                touching = self.area_blocker_mask[queue_areas.pop()]
            else:
                b = queue_blockers.pop()
                if self.boss_mask >> b & 1:
                    continue  # a boss's fight ends the route: nothing is reached through it
                for a in bits(self.blocker_area_mask[b] & ~areas):
                    areas |= 1 << a
                    queue_areas.append(a)
                touching = self.blocker_blocker_mask[b]
            for c in bits(touching & ~blockers):
                if self.defeatable[c]:
                    blockers |= 1 << c
                    queue_blockers.append(c)
        return areas, blockers

    # Nodes of the dominator tree: areas 0..A-1, blockers A..A+B-1, goals A+B.. (goals are dead ends).
    def _build_dominator_tree(self) -> None:
        """Immediate dominators from the start area: node d dominates x when every way from the start to
        x passes d. A route reaches x only after consuming every blocker that dominates it, whatever it
        did before.
        Between areas and blockers every step goes both ways, so the graph is undirected but for the
        goals, which are never walked through: there the dominators are the cut vertices (Hopcroft and
        Tarjan's biconnected components, one depth-first search). In the component that a cut vertex u
        separates from the start, u dominates every node, and no other node does: any two nodes of a
        biconnected component are joined by two ways with no inner node in common. A goal's immediate
        dominator is the nearest common dominator of the nodes that lead to it. A boss whose defeat wins is a
        dead end too (its fight ends the route): its immediate dominator is found the same way, and it is the
        immediate dominator of the goal it guards."""
        graph = self.graph
        areas, blockers = self.areas_count, self.blocker_count
        total = areas + blockers + len(self.level.goals)
        defeatable = self.defeatable
        bosses = self.boss_mask

        walked = [defeatable[b] and not bosses >> b & 1 for b in range(blockers)]
        around: list[list[int]] = [[areas + b for b in bs if walked[b]] for bs in self.area_blockers]
        around += [
            list(self.blocker_areas[b]) + [areas + c for c in self.blocker_blockers[b] if walked[c]]
            if not bosses >> b & 1
            else []
            for b in range(blockers)
        ]
        root = graph.start_area
        rank = [-1] * total  # depth-first discovery rank
        low = [0] * total  # the least rank reachable from the node's subtree by one back step
        idom = [-1] * total  # -1: not reached
        idom[root] = root
        rank[root] = 0
        order = [root]  # discovery order: every node after the nodes that dominate it
        unfinished: list[int] = []  # discovered nodes whose component is not closed yet
        stack = [(root, iter(around[root]))]
        while stack:
            node, rest = stack[-1]
            for nxt in rest:
                if rank[nxt] < 0:
                    rank[nxt] = low[nxt] = len(order)
                    order.append(nxt)
                    unfinished.append(nxt)
                    stack.append((nxt, iter(around[nxt])))
                    break
                if rank[nxt] < low[node]:
                    low[node] = rank[nxt]
            else:
                stack.pop()
                if stack:
                    parent = stack[-1][0]
                    if low[node] < low[parent]:
                        low[parent] = low[node]
                    if low[node] >= rank[parent]:
                        # parent separates node's component from the start.
                        while True:
                            member = unfinished.pop()
                            idom[member] = parent
                            if member == node:
                                break
        depth = [0] * total
        for node in order[1:]:
            depth[node] = depth[idom[node]] + 1

        def hang(node: int, leading: list[int]) -> None:
            """A dead end below the nearest common dominator of the reached nodes that lead to it."""
            if not leading:
                return
            common = leading[0]
            for other in leading[1:]:
                while depth[other] > depth[common]:
                    other = idom[other]
                while depth[common] > depth[other]:
                    common = idom[common]
                while other != common:
                    other, common = idom[other], idom[common]
            idom[node] = common
            depth[node] = depth[common] + 1
            order.append(node)

        touching = [*enumerate(self.area_blockers), *enumerate(self.blocker_blockers, start=areas)]
        for boss in bits(bosses):
            if defeatable[boss]:
                hang(areas + boss, [node for node, bs in touching if rank[node] >= 0 and boss in bs])
        leading_to: list[list[int]] = [[] for _ in self.level.goals]  # reached nodes next to each goal
        for node, goals in [*enumerate(self.area_goals), *enumerate(self.blocker_goals, start=areas)]:
            if idom[node] >= 0:
                for g in goals:
                    leading_to[g].append(node)
        for g, leading in enumerate(leading_to):
            hang(areas + blockers + g, leading)
        self.node_count = total
        self.node_order = order  # every node before the nodes it dominates
        self.idom: list[int | None] = [d if d >= 0 else None for d in idom]
        self.children_mask = [0] * total
        for node in order[1:]:
            self.children_mask[idom[node]] |= 1 << node

    def _least_damages(self) -> list[int | None]:
        """A lower bound on what each blocker can ever cost: an enemy's damage at the largest attack and
        defence the player can have when fighting it, which leaves out the equipment it dominates (that
        equipment is only reachable after the fight)."""
        areas = self.areas_count
        behind_atk = [0] * self.node_count
        behind_def = [0] * self.node_count
        for node in reversed(self.node_order):
            if node < areas:
                behind_atk[node] += self.area_atk[node]
                behind_def[node] += self.area_def[node]
            if node != self.graph.start_area:
                parent = self.idom[node]
                assert parent is not None  # every node of the order but the start has a dominator
                behind_atk[parent] += behind_atk[node]
                behind_def[parent] += behind_def[node]
        least: list[int | None] = []
        for b in range(self.blocker_count):
            if self.is_door[b]:
                least.append(0)
            elif not self.defeatable[b] or self.idom[areas + b] is None:
                least.append(None)
            else:
                node = areas + b
                atk, defense = self.max_atk - behind_atk[node], self.max_def - behind_def[node]
                least.append(self.damage(b, atk, defense) if self.towers else fight_damage(self.enemy(b), atk, defense))
        return least

    def _tree_values(self) -> None:
        """The relaxation behind the bound: reach any set of nodes closed under dominators, areas worth
        their elixirs and blockers costing their least damage. `value[x]`: the best such set below x with
        x in it; `goal_value[x]`: the same with a goal in it (None without one)."""
        areas, blockers = self.areas_count, self.blocker_count
        value = [0] * self.node_count
        goal_value: list[int | None] = [None] * self.node_count
        for node in reversed(self.node_order):
            if node < areas:
                weight = self.area_hp[node]
            elif node < areas + blockers:
                weight = -(self.least_damage[node - areas] or 0)
            else:
                weight = 0
                goal_value[node] = 0
            gain = 0
            goal_extra = None
            for child in bits(self.children_mask[node]):
                positive = max(0, value[child])
                gain += positive
                child_goal = goal_value[child]
                if child_goal is not None:
                    extra = child_goal - positive
                    goal_extra = extra if goal_extra is None else max(goal_extra, extra)
            value[node] = weight + gain
            if goal_value[node] is None and goal_extra is not None:
                goal_value[node] = weight + gain + goal_extra
        self.node_value = value
        self.node_goal_value = goal_value
        self.positive_value = [max(0, v) for v in value]
        self.goal_ancestors = sum(1 << n for n in range(self.node_count) if goal_value[n] is not None)
        # What a goal below the node adds to the relaxation beyond the node's own positive value.
        self.goal_extra = [None if g is None else g - p for g, p in zip(goal_value, self.positive_value, strict=True)]

    def _goal_distances(self) -> list[int | None]:
        """Least total damage, at the best stats ever possible, of a chain of blockers from blocker b
        (b included) to a goal. None when no goal lies beyond b."""
        infinity = float("inf")
        blocker_dist: list[float] = [infinity] * self.blocker_count
        area_dist: list[float] = [infinity] * self.areas_count
        heap: list[tuple[float, int, int]] = []  # (distance, 0 = area / 1 = blocker, index)
        for a, goal in enumerate(self.area_goal):
            if goal >= 0:
                area_dist[a] = 0
                heap.append((0, 0, a))
        for b, goal in enumerate(self.blocker_goal):
            least = self.least_damage[b]
            if goal >= 0 and least is not None:
                blocker_dist[b] = least
                heap.append((least, 1, b))
        heapq.heapify(heap)
        while heap:
            dist, kind, index = heapq.heappop(heap)
            if kind == 0:
                if dist > area_dist[index]:
                    continue
                neighbours = bits(self.area_blocker_mask[index])
            else:
                if dist > blocker_dist[index]:
                    continue
                for a in bits(self.blocker_area_mask[index]):
                    if dist < area_dist[a]:
                        area_dist[a] = dist
                        heapq.heappush(heap, (dist, 0, a))
                neighbours = bits(self.blocker_blocker_mask[index])
            for c in neighbours:
                cost = self.least_damage[c]
                if cost is not None and dist + cost < blocker_dist[c]:
                    blocker_dist[c] = dist + cost
                    heapq.heappush(heap, (dist + cost, 1, c))
        return [None if d == infinity else int(d) for d in blocker_dist]

    def _useful_blockers(self) -> int:
        """Blockers outside dead ends: strip, again and again, every blocker that touches only one node
        (area or blocker) and no goal, and every area other than the start's with no items, no goal and
        at most one blocker left around it. Consuming a stripped blocker only costs life or a key."""
        area_alive = [True] * self.areas_count
        blocker_alive = [self.defeatable[b] for b in range(self.blocker_count)]

        def area_degree(a: int) -> int:
            return sum(blocker_alive[b] for b in self.area_blockers[a])

        def blocker_degree(b: int) -> int:
            return sum(area_alive[a] for a in self.blocker_areas[b]) + sum(
                blocker_alive[c] for c in self.blocker_blockers[b]
            )

        changed = True
        while changed:
            changed = False
            for a in range(self.areas_count):
                if (
                    area_alive[a]
                    and a != self.graph.start_area
                    and not self.area_has_items[a]
                    and self.area_goal[a] < 0
                    and area_degree(a) <= 1
                ):
                    area_alive[a] = False
                    changed = True
            for b in range(self.blocker_count):
                # (with a shop, a fight that pays money is never a dead end: the money buys)
                if (
                    blocker_alive[b]
                    and self.blocker_goal[b] < 0
                    and not self.money_mask >> b & 1
                    and blocker_degree(b) <= 1
                ):
                    blocker_alive[b] = False
                    changed = True
        return sum(1 << b for b in range(self.blocker_count) if blocker_alive[b])


def set_bytes(mask: int) -> bytes:
    return mask.to_bytes(SET_BITS // 8, "little")


def _node_bytes(mask: int) -> bytes:
    return mask.to_bytes(NODE_BITS // 8, "little")
