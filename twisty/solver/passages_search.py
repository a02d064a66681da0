"""The search engine: exact best-first search over sets of consumed blockers on the region graph.

Everything about a route's position except its life is a function of the set S of blockers it has consumed:
the reached areas (hence the items taken, the attack, defence and keys) and the frontier. So a state is S
(a bitmask over blockers) with the best life found for it, as in the genre's standard solver. On top of
that this engine adds:

Dominance. Let damage = start hp + elixirs taken - hp (the life lost in fights so far), doors = the number of
doors opened, and "linking" blockers those that touch another blocker or a goal. State A dominates B when
    A's reached areas include B's, A consumed every linking blocker B consumed, damage_A <= damage_B, and
    either doors_A <= doors_B or A's keys cover every door it may still open.
Why it is sound: let B go on with blockers X and reach a goal. A copies B, skipping every blocker it
already consumed. Each blocker B consumes touches B's reach: one of its areas, all reached by A too, or a
consumed linking blocker, consumed by A too (now or earlier in the copy); so it is on A's frontier. A
consumed blocker that is not linking gives nothing beyond the areas around it, which A has. A's reach
includes B's at every step, so A's attack and defence are at least B's (every fight costs A no more), A
has taken every elixir B has, and A's life exceeds B's at every step by at least damage_B - damage_A >= 0,
so every fight B survives A survives. Keys: each side holds the starting keys plus the keys of its reached
areas minus the doors it opened; A has reached every area B has, and the copy opens no door that B does
not, so A's keys minus B's stay at least doors_B - doors_A >= 0 (or, in the other case, keys never bind A
again). The goal B reaches touches A's reach too, with at least B's life. (Comparing life instead of damage
is unsound: B may pick up later the elixir A already counted; and more areas reached through more doors is
not better: B may reach the key behind that door around another way and keep its own key.)
States are stored by what their future depends on besides life: (reached areas, consumed linking blockers,
keys), one state per such key, the one with the most hp; equal keys mean equal areas and doors_A = doors_B,
so the rule applies both ways. Consumed sets that reach the same areas around a loop thus count once.
Applied four ways: (1) closure: zero-damage fights, and doors once the keys cover every remaining door,
are taken at once, because the state after them dominates the state before; (2) blockers that lead to
nothing (dead-end chains without items or goals) are never consumed; (3) a state is dropped when the
state one fight further on (over any frontier enemy) is known with no more damage, checked when it comes
up for expansion (by then the further state is often known; checking when it is made too cost more than
it saved); (4) a blocker
whose neighbours are all reached or consumed and that touches no goal is never consumed: the state
without it dominates the state with it (same reach, no less hp or keys).

Bound. The final life of any continuation is at most hp + (elixirs not taken yet in areas reachable at
all) - (least damage still needed to touch a goal). The last term is a shortest path over blockers from
the frontier to a goal where each enemy costs its damage at the largest attack and defence the player can
ever have (damage only falls as attack and defence rise) and doors cost 0; it is 0 when a goal is already
reached. Each term bounds its true counterpart, so the bound never falls below the true optimum
(admissible). A state whose bound cannot beat the best route found is pruned. The bound is also
consistent in this sense: consuming blocker b at cost c lowers it by at least c - (b's least damage),
since the relaxation's best set after the step, with b and what b opens added back, is a set for the
state before that counts b at its least damage. So a move whose child could not beat the best route is
skipped without making the child.

Priced bound. The bound above lets every fight happen at the best stats the player can ever have, while
real routes fight most enemies weaker. The priced bound (_Walker.priced_bound) is a Dijkstra over the
damage taken from the state on, each blocker priced at the stats of the equipment within the damage
reached so far; a route's final hp is at most hp + (elixirs within damage D) - D for some D at least the
distance of a goal. It costs a Dijkstra per state, so it is asked lazily: a state that comes up for
expansion gets it once, and if it is lower the state goes back into the queue under it (or is dropped).
Every continuation of a child is a continuation of its parent, so a child's bound is also capped by its
parent's. On suite level b060-01 this cut the expansions from 733,000 to 174,000; where the equipment
comes early it changes little.

Steiner bound. The bound above also lets an area entered through either of two blockers hang from
the area above both in the dominator tree, so it takes that area's elixirs without paying for either way
in. The Steiner bound (_Walker.steiner_bound) pays for the ways in. Take the region graph with each
blocker priced at its least damage (doors 0), and merge the blockers of no least damage into the areas
they join (supernodes: whatever reaches one node of a supernode reaches all of it for nothing). A route
from the state enters every blocker it consumes once, from something reached before, so the blockers it
consumes with, for each, the node it was entered from, form an arborescence rooted at what the state has
reached, which holds every supernode whose elixirs the route takes and one that holds a goal. So the
route's damage plus the elixirs it leaves is at least the least cost of such an arborescence when each
unreached supernode's elixirs may be left at the price of the elixirs (a rooted prize-collecting Steiner
arborescence with the prizes as arcs from the root, after Ljubic et al.). Any feasible solution of the dual
of its cut relaxation is a lower bound on that least cost: sets W of nodes holding a terminal but not the
root, each raised by y(W) >= 0, so that no arc is charged more than its cost by the sets it enters (an arc
from the root to a supernode's prize included). Wong's dual ascent builds one: for each terminal in turn
(the goal, then each supernode with elixirs, in node order), W is what reaches it along arcs whose cost is
not used up yet, raised by the least cost left on an arc into it, until the root reaches the terminal
along used-up arcs or its prize is used up. So the final hp is at most hp + (elixirs not taken) -
(sum of the raises). On the states of suite level b120-01 it came out equal to the exact optimum of that
arborescence problem (CP-SAT) on every one checked, 40 to 55 hp below the dominator-tree relaxation. It
costs a few microseconds, so it is asked lazily like the priced bound, and before it.

Chain bound. The Steiner bound still prices every fight at the least damage, as if the route took all its
equipment before its first fight; real routes fight most enemies before their last piece. On suite level
b120-01 that is the whole of its slack: with every fight priced at the best stats, the best final hp
from each of eight states sampled from its queue came out equal to the Steiner bound to within 4 hp, 35
to 70 hp above the truth (docs/bench-passages.md). The chain bound (_Walker.chain_bound) charges for
the order. Let P be the pieces of equipment not taken yet that the route can still reach, and let the
route take F = {e1, ..., ek} of them in that order. In phase j (after it took e1..ej, the set Cj) its stats
are at most S(Cj), the state's stats plus the gains of Cj, so a blocker x consumed then costs at least
cj(x) = max(least damage of x, damage at S(Cj)) (doors 0). Summing by parts, with p(x) the phase of x and
Rj what the route consumed in phases up to j,
    sum_x c_p(x)(x) = sum_x ck(x) + sum_{j<k} sum_{x in Rj} (cj(x) - cj+1(x)).
The route's arborescence (above) holds the goal and every piece of F, since the route took them all; so
with the elixirs it leaves, the first sum is bounded by the Steiner bound at the prices ck with F's pieces
as terminals every arborescence must hold, like the goal (their supernodes, ascended after the goal).
Without them the bound missed the whole price of the way to a piece off the way to the goal: on 100
states of b120-01's queue, 17 stayed above its optimum, against 4 with them. Rj reaches every piece of
Cj+1 (the route took ej+1 at the end of phase j), so its term is at least the distance, over blockers
weighted cj - cj+1 >= 0, from the state to the farthest piece of Cj+1. So the final hp is at most
Steiner(F) - extra(F), where extra(F) is the least, over the orders of F, of those distances summed: a
dynamic program over the subsets of P, one step per piece added. The bound is the largest of these over
every F in P (F empty: no more equipment, every fight at the state's stats). Several things keep it
affordable. Only the CHAIN_PIECES pieces farthest at the state's own stats are followed one by one, the
rest counted as taken now (that raises every phase's stats, which only lowers prices). Steiner(P)
without pieces to reach, at the lowest prices, caps Steiner(F) for every F (it relaxes the routes that end
with F too); it is asked first, then each set F in the order of the cap minus extra(F), while that can
beat the floor. An ascent stops once its bound cannot beat the floor (every raise only lowers it). A state
passes to the states made from it (ChainHint) the sets F with which no route from it beats the floor; a
state that follows the same pieces skips them, since its routes are routes of the state it was made from
and the floor only rises. Where it is on, the plain Steiner bound is not asked: the cap is an ascent of
the same kind at lower prices, and the state's own bound of least damages caps Steiner(F) in its place
(not the bound the state is queued with, which may be its parent's chain bound, extra already taken off).
It is asked lazily, after the priced bound. It costs a few dozen Steiner ascents per state, several
expansions' time; the race runs a search with it beside one without (_race), and the compiled search can
bound states on both cores (search's `threads`).

Order. States are expanded best bound first (A*), ties broken towards more consumed blockers, so the
first routes found are good ones and the search stops the moment the best remaining bound cannot beat
the best route: that is the optimality proof.

The smallest starting hp comes from one search over needs rather than a search per candidate hp: a route's
need is the least starting hp from which it is legal, the largest of 1 and (cost - net life + 1) over its
fights, where the net life is elixirs taken minus damage taken. States carry their need and net life; on
each state key a state is kept unless another has no more need and no more damage (the dominance rule
above: the copy survives every fight the original survives, from any starting hp); and the search pops the
least lower bound on the need of any continuation (the need so far, and 1 - the bound on the final net
life), so the first time that lower bound reaches the least need of a winning route found, that need is
the answer.

Counting solutions cannot merge states by life (signatures record the stats at each costly fight), so it
walks states (S, costly fights so far) depth-first: for optimal signatures only states from which a route
with final_hp still goes on, for the rest only states from which some route wins. Whether one does is a
decision search from the state's closure (best-first as above, with the wins that count set to at least
that hp); the bound alone let the walk wander for minutes where no route it counts can be found. A
decision search that ends without a win has shown every state it stored to fail, so the searches of one
walk share those states and prune by them as by their own (_Failures).
"""

from __future__ import annotations

import gc
import heapq
import os
import threading
from dataclasses import dataclass, replace

from twisty.rules.passages import Decision, PassagesLevel, fight_damage
from twisty.rules.passages_graph import build_graph
from twisty.solver.passages_verdict import (SOLVABLE, UNKNOWN, UNSOLVABLE, BestRoute, Deadline, MinStartHp,
                                            SolutionCount)

try:
    from twisty.solver import _passages_core
except ImportError:      # built without a C compiler: the Python search below gives the same answers
    _passages_core = None

NAME = "search"

# How many expansions between two looks at the clock.
_CLOCK_EVERY = 256

# The bound of a state from which no goal can be reached: below every hp, at any starting hp.
NO_WIN = -(1 << 62)

# The chain bound follows this many pieces of equipment one by one and counts the rest as taken at once
# (module docstring, "Chain bound"); the compiled core's CHAIN_PIECES is the same.
CHAIN_PIECES = 4
_FAR = 1 << 62      # the distance of what cannot be reached


def _bits(mask: int):
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


class SearchGraph:
    """The region graph as bitmasks, with the precomputed parts of the bound."""

    def __init__(self, level: PassagesLevel, start_hp: int | None = None) -> None:
        graph = build_graph(level)
        self.level = level
        self.graph = graph
        self.blocker_count = len(graph.blockers)
        self.objects = graph.blockers
        self.is_door = [level.things[obj].kind == "door" for obj in graph.blockers]
        self.enemies = [level.things[obj].enemy for obj in graph.blockers]
        self.door_mask = sum(1 << b for b in range(self.blocker_count) if self.is_door[b])
        self.area_atk = [a.atk for a in graph.areas]
        self.area_def = [a.defense for a in graph.areas]
        self.area_keys = [a.keys for a in graph.areas]
        self.area_hp = [a.hp for a in graph.areas]
        self.area_blocker_mask = [sum(1 << b for b in bs) for bs in graph.area_blockers]
        self.area_goal = [gs[0] if gs else -1 for gs in graph.area_goals]
        self.blocker_area_mask = [sum(1 << a for a in areas) for areas in graph.blocker_areas]
        self.blocker_blocker_mask = [sum(1 << c for c in bs) for bs in graph.blocker_blockers]
        self.blocker_goal = [gs[0] if gs else -1 for gs in graph.blocker_goals]
        self.goal_blocker_mask = sum(1 << b for b, goal in enumerate(self.blocker_goal) if goal >= 0)
        self._damage: dict[tuple[int, int, int], int | None] = {}
        # costs_at's tables, keyed by one number: atk * stat_stride + defence.
        self.cost_lists: dict[int, list[int | None]] = {}
        self.free_masks: dict[int, int] = {}

        # The most attack and defence the player can ever have; enemies it cannot harm even then are walls.
        all_atk = level.player.atk + sum(self.area_atk)
        self.defeatable = [self.is_door[b] or self.enemies[b].defense < all_atk for b in range(self.blocker_count)]
        # With a starting hp, enemies that no route survives reaching (the relaxation of the bound says the
        # life left after fighting them is below 1) are walls too; walls shrink the best stats, so repeat.
        while True:
            self.in_principle_areas, in_principle_blockers = self._reachable_in_principle()
            principle = list(_bits(self.in_principle_areas))
            self.max_atk = level.player.atk + sum(self.area_atk[a] for a in principle)
            self.max_def = level.player.defense + sum(self.area_def[a] for a in principle)
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
        self.stat_stride = self.max_def + 1     # no state's defence exceeds max_def
        self.goal_distance = self._goal_distances()
        self.useful_mask = self._useful_blockers() & in_principle_blockers
        self.all_mask = in_principle_blockers
        # Blockers whose consumption matters beyond the areas it reaches: those touching another blocker
        # or a goal. A consumed blocker of any other kind has every area around it reached.
        self.linking_mask = sum(1 << b for b in range(self.blocker_count)
                                if self.graph.blocker_blockers[b] or self.graph.blocker_goals[b])
        self._compiled: tuple | None = None

    # The compiled core's limits (_passages_core.c): 128-bit sets of areas and blockers, 256-bit node sets.
    _COMPILED_SET_BITS = 128
    _COMPILED_NODE_BITS = 256

    def fits_compiled(self) -> bool:
        return (_passages_core is not None and self.areas_count <= self._COMPILED_SET_BITS
                and self.blocker_count <= self._COMPILED_SET_BITS and self.node_count <= self._COMPILED_NODE_BITS)

    @classmethod
    def _set_bytes(cls, mask: int) -> bytes:
        return mask.to_bytes(cls._COMPILED_SET_BITS // 8, "little")

    @classmethod
    def _node_bytes(cls, mask: int) -> bytes:
        return mask.to_bytes(cls._COMPILED_NODE_BITS // 8, "little")

    def compiled_graph(self) -> tuple:
        """This graph in the form the compiled core reads (_passages_core.c, read_graph), made once. The
        core asks each blocker's cost at new stats of costs_at, through a callback: the rules stay here."""
        if self._compiled is None:
            sets, nodes = self._set_bytes, self._node_bytes
            allowed = self.useful_mask
            areas = tuple((self.area_atk[a], self.area_def[a], self.area_keys[a], self.area_hp[a], self.area_goal[a],
                           sets(self.area_blocker_mask[a]), nodes(self.children_mask[a]))
                          for a in range(self.areas_count))
            blockers = tuple((int(self.is_door[b]), self.blocker_goal[b],
                              -1 if self.least_damage[b] is None else self.least_damage[b],
                              -1 if self.goal_distance[b] is None else self.goal_distance[b],
                              sets(self.blocker_area_mask[b]), sets(self.blocker_blocker_mask[b]),
                              sets(self.blocker_blocker_mask[b] & allowed),
                              nodes(self.children_mask[self.areas_count + b]))
                             for b in range(self.blocker_count))

            def costs(atk: int, defense: int) -> list[int]:
                return [-1 if cost is None else cost for cost in self.costs_at(atk, defense)[0]]

            self._compiled = (areas, blockers, tuple(self.positive_value),
                              tuple(0 if extra is None else extra for extra in self.goal_extra),
                              sets(self.door_mask), sets(self.goal_blocker_mask), sets(self.linking_mask),
                              sets(allowed), sets(self.door_mask & allowed), nodes(self.goal_ancestors),
                              self.total_elixirs, self.stat_stride, costs)
        return self._compiled

    def compiled_state(self, state: "_State") -> tuple:
        """A closed state in the form the compiled core reads (_passages_core.c, read_state)."""
        sets = self._set_bytes
        return (sets(state.consumed), sets(state.areas), state.atk, state.defense, state.keys, state.hp,
                state.elixirs, sets(state.frontier), state.goal, self._node_bytes(state.boundary), state.gain)

    def _unsurvivable(self, start_hp: int) -> list[int]:
        """Enemies no route can fight and survive from this starting hp. A route that has just fought
        enemy b has reached and consumed a set of nodes closed under dominators that holds b, with life
        start hp + elixirs taken - damage so far; the tree relaxation's best such set bounds that from
        above (elixirs of the set at least those taken, each fight costing at least its least damage).
        When the bound is below 1, no route survives fighting b."""
        areas = self.areas_count
        value = self.node_value
        best_with = [None] * self.node_count      # the relaxation's best set containing the node
        root = self.graph.start_area
        best_with[root] = value[root]
        for node in self.node_order[1:]:
            parent = self.idom[node]
            if parent is None or best_with[parent] is None:
                continue
            best_with[node] = best_with[parent] - max(0, value[node]) + value[node]
        walls = []
        for b in range(self.blocker_count):
            node = areas + b
            if (self.defeatable[b] and not self.is_door[b] and best_with[node] is not None
                    and start_hp + best_with[node] < 1):
                walls.append(b)
        return walls

    def costs_at(self, atk: int, defense: int) -> tuple[list[int | None], int]:
        """Every blocker's cost at these stats (doors 0, impossible fights None) and the mask of enemies
        that cost nothing. Cached in cost_lists and free_masks under atk * stat_stride + defence, which
        the innermost loops read directly."""
        assert 0 <= defense < self.stat_stride, "a state has more defence than the player can ever have"
        key = atk * self.stat_stride + defense
        costs = self.cost_lists.get(key)
        if costs is None:
            costs = [self.damage(b, atk, defense) for b in range(self.blocker_count)]
            # The free mask goes in first: two racing searches (best_route) may ask at once, and a thread
            # that finds the costs must find the mask too.
            self.free_masks[key] = sum(1 << b for b in range(self.blocker_count)
                                       if costs[b] == 0 and not self.is_door[b])
            self.cost_lists[key] = costs
        return costs, self.free_masks[key]

    def damage(self, b: int, atk: int, defense: int) -> int | None:
        key = (b, atk, defense)
        value = self._damage.get(key, -1)
        if value == -1:
            value = 0 if self.is_door[b] else fight_damage(self.enemies[b], atk, defense)
            self._damage[key] = value
        return value

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
                for a in _bits(self.blocker_area_mask[b] & ~areas):
                    areas |= 1 << a
                    queue_areas.append(a)
                touching = self.blocker_blocker_mask[b]
            for c in _bits(touching & ~blockers):
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
        dominator is the nearest common dominator of the nodes that lead to it."""
        graph = self.graph
        areas, blockers = len(graph.areas), self.blocker_count
        total = areas + blockers + len(self.level.goals)
        defeatable = self.defeatable
        around: list[list[int]] = [[areas + b for b in bs if defeatable[b]] for bs in graph.area_blockers]
        around += [list(graph.blocker_areas[b]) + [areas + c for c in graph.blocker_blockers[b] if defeatable[c]]
                   for b in range(blockers)]
        root = graph.start_area
        rank = [-1] * total             # depth-first discovery rank
        low = [0] * total               # the least rank reachable from the node's subtree by one back step
        idom: list[int | None] = [None] * total
        idom[root] = root
        rank[root] = 0
        order = [root]                  # discovery order: every node after the nodes that dominate it
        unfinished: list[int] = []      # discovered nodes whose component is not closed yet
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
        leading_to: list[list[int]] = [[] for _ in self.level.goals]     # reached nodes next to each goal
        for node, goals in [*enumerate(graph.area_goals), *enumerate(graph.blocker_goals, start=areas)]:
            if rank[node] >= 0:
                for g in goals:
                    leading_to[g].append(node)
        for g, leading in enumerate(leading_to):
            if not leading:
                continue
            common = leading[0]
            for other in leading[1:]:
                while depth[other] > depth[common]:
                    other = idom[other]
                while depth[common] > depth[other]:
                    common = idom[common]
                while other != common:
                    other, common = idom[other], idom[common]
            node = areas + blockers + g
            idom[node] = common
            order.append(node)
        self.node_count = total
        self.node_order = order                 # every node before the nodes it dominates
        self.idom = idom
        self.children_mask = [0] * total
        for node in order[1:]:
            self.children_mask[idom[node]] |= 1 << node

    def _least_damages(self) -> list[int | None]:
        """A lower bound on what each blocker can ever cost: an enemy's damage at the largest attack and
        defence the player can have when fighting it, which leaves out the equipment it dominates (that
        equipment is only reachable after the fight)."""
        areas = len(self.graph.areas)
        behind_atk = [0] * self.node_count
        behind_def = [0] * self.node_count
        for node in reversed(self.node_order):
            if node < areas:
                behind_atk[node] += self.area_atk[node]
                behind_def[node] += self.area_def[node]
            if node != self.graph.start_area:
                parent = self.idom[node]
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
                least.append(fight_damage(self.enemies[b], self.max_atk - behind_atk[node],
                                          self.max_def - behind_def[node]))
        return least

    def _tree_values(self) -> None:
        """The relaxation behind the bound: reach any set of nodes closed under dominators, areas worth
        their elixirs and blockers costing their least damage. `value[x]`: the best such set below x with
        x in it; `goal_value[x]`: the same with a goal in it (None without one)."""
        areas, blockers = len(self.graph.areas), self.blocker_count
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
            for child in _bits(self.children_mask[node]):
                positive = max(0, value[child])
                gain += positive
                if goal_value[child] is not None:
                    extra = goal_value[child] - positive
                    goal_extra = extra if goal_extra is None else max(goal_extra, extra)
            value[node] = weight + gain
            if goal_value[node] is None and goal_extra is not None:
                goal_value[node] = weight + gain + goal_extra
        self.node_value = value
        self.node_goal_value = goal_value
        self.positive_value = [max(0, v) for v in value]
        self.goal_ancestors = sum(1 << n for n in range(self.node_count) if goal_value[n] is not None)
        # What a goal below the node adds to the relaxation beyond the node's own positive value.
        self.goal_extra = [None if g is None else g - p for g, p in zip(goal_value, self.positive_value)]
        self.areas_count = areas
        self.area_items = [(self.area_atk[a], self.area_def[a], self.area_keys[a], self.area_hp[a],
                            self.area_blocker_mask[a], self.area_goal[a], self.children_mask[a])
                           for a in range(areas)]

    def _goal_distances(self) -> list[int | None]:
        """Least total damage, at the best stats ever possible, of a chain of blockers from blocker b
        (b included) to a goal. None when no goal lies beyond b."""
        infinity = float("inf")
        blocker_dist = [infinity] * self.blocker_count
        area_dist = [infinity] * len(self.graph.areas)
        heap: list[tuple[int, int, int]] = []   # (distance, 0 = area / 1 = blocker, index)
        for a, goal in enumerate(self.area_goal):
            if goal >= 0:
                area_dist[a] = 0
                heap.append((0, 0, a))
        for b, goal in enumerate(self.blocker_goal):
            if goal >= 0 and self.least_damage[b] is not None:
                blocker_dist[b] = self.least_damage[b]
                heap.append((blocker_dist[b], 1, b))
        heapq.heapify(heap)
        while heap:
            dist, kind, index = heapq.heappop(heap)
            if kind == 0:
                if dist > area_dist[index]:
                    continue
                neighbours = _bits(self.area_blocker_mask[index])
            else:
                if dist > blocker_dist[index]:
                    continue
                for a in _bits(self.blocker_area_mask[index]):
                    if dist < area_dist[a]:
                        area_dist[a] = dist
                        heapq.heappush(heap, (dist, 0, a))
                neighbours = _bits(self.blocker_blocker_mask[index])
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
        area_alive = [True] * len(self.graph.areas)
        blocker_alive = [self.defeatable[b] for b in range(self.blocker_count)]

        def area_degree(a: int) -> int:
            return sum(blocker_alive[b] for b in self.graph.area_blockers[a])

        def blocker_degree(b: int) -> int:
            return (sum(area_alive[a] for a in self.graph.blocker_areas[b])
                    + sum(blocker_alive[c] for c in self.graph.blocker_blockers[b]))

        changed = True
        while changed:
            changed = False
            for a, area in enumerate(self.graph.areas):
                if (area_alive[a] and a != self.graph.start_area and not area.items
                        and self.area_goal[a] < 0 and area_degree(a) <= 1):
                    area_alive[a] = False
                    changed = True
            for b in range(self.blocker_count):
                if blocker_alive[b] and self.blocker_goal[b] < 0 and blocker_degree(b) <= 1:
                    blocker_alive[b] = False
                    changed = True
        return sum(1 << b for b in range(self.blocker_count) if blocker_alive[b])


@dataclass
class SteinerGraph:
    """The graph of the Steiner bound (module docstring): the region graph with the blockers of no least
    damage merged into the areas they join. Nodes: the supernodes (numbered by their lowest area, then those
    of free blockers alone), then the costly blockers in order; the compiled core builds the same numbering
    (build_steiner_graph), so that both ascend the same duals."""

    supers: int
    count: int
    area_node: list[int]
    node_blocker: dict[int, int]      # costly node -> its blocker
    cost: dict[int, int]              # costly node -> its least damage
    prize: list[int]                  # supernode -> the elixirs of its areas
    goals: int                        # mask of the nodes that hold a goal
    out: list[int]                    # node -> mask of the costly nodes next to it
    next_supers: dict[int, int]       # costly node -> mask of the supernodes next to it
    tails: dict[int, list[int]]       # costly node -> the nodes of its arcs in, in order
    elixirs: int                      # of all areas (an elixir gives at least 1 hp)

    @classmethod
    def for_level(cls, sg: SearchGraph, allowed: int) -> SteinerGraph:
        areas, blockers = sg.areas_count, sg.blocker_count
        live = [b for b in range(blockers) if allowed >> b & 1 and sg.least_damage[b] is not None]
        free = {b for b in live if sg.least_damage[b] == 0}
        parent = list(range(areas + blockers))

        def root_of(x: int) -> int:
            while parent[x] != x:
                parent[x] = parent[parent[x]]
                x = parent[x]
            return x

        for b in sorted(free):
            for a in _bits(sg.blocker_area_mask[b]):
                parent[root_of(areas + b)] = root_of(a)
            for d in _bits(sg.blocker_blocker_mask[b]):
                if d in free:
                    parent[root_of(areas + b)] = root_of(areas + d)
        node_of_root: dict[int, int] = {}
        area_node = [node_of_root.setdefault(root_of(a), len(node_of_root)) for a in range(areas)]
        blocker_node = {b: node_of_root.setdefault(root_of(areas + b), len(node_of_root)) for b in sorted(free)}
        supers = len(node_of_root)
        node_blocker: dict[int, int] = {}
        cost: dict[int, int] = {}
        for b in live:
            if b not in free:
                node = supers + len(node_blocker)
                node_blocker[node], cost[node], blocker_node[b] = b, sg.least_damage[b], node
        count = supers + len(node_blocker)
        prize = [0] * supers
        goals = 0
        for a in range(areas):
            prize[area_node[a]] += sg.area_hp[a]
            if sg.area_goal[a] >= 0:
                goals |= 1 << area_node[a]
        for b in live:
            if sg.blocker_goal[b] >= 0:
                goals |= 1 << blocker_node[b]
        out = [0] * count
        next_supers: dict[int, int] = {}
        tails: dict[int, list[int]] = {}
        for node, b in node_blocker.items():
            near = {area_node[a] for a in _bits(sg.blocker_area_mask[b])}
            near |= {blocker_node[d] for d in _bits(sg.blocker_blocker_mask[b]) if d in free}
            next_supers[node] = sum(1 << n for n in near)
            near |= {blocker_node[d] for d in _bits(sg.blocker_blocker_mask[b]) if d in blocker_node and d not in free}
            tails[node] = sorted(near)
            for t in near:
                out[t] |= 1 << node
        return cls(supers, count, area_node, node_blocker, cost, prize, goals, out, next_supers, tails,
                   sum(sg.area_hp))

    def bound(self, state: _State, cost: dict[int, int | None] | None = None, mandatory: int = 0,
              enough: int = NO_WIN) -> int:
        """Wong's dual ascent from the state (module docstring, "Steiner bound"): hp + the elixirs not
        taken - the sum of the raises, or NO_WIN when no goal can be reached. For the chain bound: `cost`,
        each costly node's price instead of its least damage (None: it cannot be fought); `mandatory`, a
        mask of supernodes every route counted reaches, ascended like the goal, after it and before the
        elixirs. The ascent stops once the bound is down to `enough`, as it only falls from there on."""
        if cost is None:
            cost = self.cost
        root = 0
        for a in _bits(state.areas):
            root |= 1 << self.area_node[a]
        prizes = self.elixirs - state.elixirs       # the elixirs not taken yet
        live = 0
        for node, b in self.node_blocker.items():
            if state.consumed >> b & 1:
                root |= 1 << node | self.next_supers[node]     # and what it opens, for nothing
            else:
                live |= 1 << node
        residual: dict[tuple[int, int], int | None] = {}      # (costly node, tail) -> cost left; None: no arc
        root_residual: dict[int, int | None] = {}
        for node in _bits(live):
            from_root = False
            for t in self.tails[node]:
                if root >> t & 1:
                    from_root, residual[node, t] = True, None
                else:
                    residual[node, t] = cost[node]
            root_residual[node] = cost[node] if from_root else None
        rooted = root
        lower = 0
        for terminal in (-1, *(-2 - m for m in _bits(mandatory & ~root)), *range(self.supers)):
            if terminal == -1:
                if state.goal >= 0:
                    continue
                prize_left, todo = None, self.goals
            elif terminal < 0:
                prize_left, todo = None, 1 << (-2 - terminal)
            else:
                if root >> terminal & 1 or self.prize[terminal] <= 0:
                    continue
                prize_left, todo = self.prize[terminal], 1 << terminal
            if todo & rooted:
                continue
            cut_side, joined, reached = todo, 0, False
            while True:
                # cut_side: the nodes that reach the terminal along arcs of no cost left
                while todo:
                    low = todo & -todo
                    todo ^= low
                    n = low.bit_length() - 1
                    if rooted >> n & 1:
                        reached = True
                        break
                    if n < self.supers:
                        fresh = self.out[n] & live & ~cut_side
                        cut_side |= fresh
                        todo |= fresh
                    elif root_residual[n] == 0:
                        reached = True
                        break
                    else:
                        for t in self.tails[n]:
                            if residual[n, t] == 0 and not cut_side >> t & 1:
                                cut_side |= 1 << t
                                todo |= 1 << t
                if reached:
                    break
                entered = list(_bits(cut_side & live))
                costs_in = [c for c in (prize_left, *(root_residual[m] for m in entered),
                                        *(residual[m, t] for m in entered for t in self.tails[m]
                                          if not cut_side >> t & 1)) if c is not None]
                if not costs_in:
                    return NO_WIN       # no way to a goal
                delta = min(costs_in)
                lower += delta
                if state.hp + prizes - lower <= enough:
                    return state.hp + prizes - lower
                for m in entered:
                    if root_residual[m] is not None:
                        root_residual[m] -= delta
                        if root_residual[m] == 0:
                            joined, reached = joined | 1 << m, True
                    for t in self.tails[m]:
                        if residual[m, t] is not None and not cut_side >> t & 1:
                            residual[m, t] -= delta
                            if residual[m, t] == 0:
                                todo |= 1 << t
                                if rooted >> t & 1:
                                    joined, reached = joined | 1 << m, True
                if prize_left is not None:
                    prize_left -= delta
                    reached = reached or prize_left == 0        # or the terminal's prize is paid off
                if reached:
                    break
                cut_side |= todo
            joined &= ~rooted
            if joined:
                rooted = self._grow_rooted(residual, live, rooted | joined, joined)
        return state.hp + prizes - lower

    def _grow_rooted(self, residual: dict[tuple[int, int], int | None], live: int, rooted: int, seeds: int) -> int:
        """Grow `rooted`, the nodes the root reaches along arcs of no cost left, from `seeds` (just joined)."""
        while seeds:
            low = seeds & -seeds
            seeds ^= low
            n = low.bit_length() - 1
            if n >= self.supers:       # a costly node enters its supernodes for nothing
                fresh = self.next_supers[n] & ~rooted
                rooted |= fresh
                seeds |= fresh
            for m in _bits(self.out[n] & live & ~rooted):
                if residual[m, n] == 0:
                    rooted |= 1 << m
                    seeds |= 1 << m
        return rooted


@dataclass(slots=True)
class _State:
    """A closed state: every free step already taken. Fields other than hp follow from `consumed`."""

    consumed: int
    areas: int
    atk: int
    defense: int
    keys: int
    hp: int
    elixirs: int      # elixir hp taken so far
    frontier: int
    goal: int         # a reached goal, or -1
    boundary: int     # unreached dominator-tree nodes whose immediate dominator is reached
    gain: int         # the sum of the positive tree values over the boundary


@dataclass(frozen=True, slots=True)
class ChainHint:
    """What a state's chain bound learnt for the states made from it: the pieces it followed, and the sets
    of them (bits of `dead`, as the chain bound's masks over `pieces`) with which no route from it beats
    the floor."""

    pieces: tuple[int, ...]
    dead: int


class _Walker:
    """Steps of the search on one SearchGraph, with one starting hp and one set of allowed blockers."""

    def __init__(self, sg: SearchGraph, start_hp: int, allowed: int, closure: bool) -> None:
        self.sg = sg
        # Only the optimum and solvability may skip pointless blockers; counting must not, since opening
        # a pointless door is a solution of its own.
        self.skip_pointless = closure
        self.start_hp = start_hp
        self.allowed = allowed
        self.closure = closure
        self.allowed_doors = sg.door_mask & allowed
        self.allowed_neighbours = [mask & allowed for mask in sg.blocker_blocker_mask]
        # Whether moves must leave the player alive; the least-need search tracks survival itself.
        self.survival = True
        self._steiner: SteinerGraph | None = None

    def initial(self) -> tuple[_State, list[Decision]]:
        sg = self.sg
        player = sg.level.player
        start = sg.graph.start_area
        state = _State(0, 1 << start, player.atk + sg.area_atk[start], player.defense + sg.area_def[start],
                       player.keys + sg.area_keys[start], self.start_hp + sg.area_hp[start],
                       sg.area_hp[start], sg.area_blocker_mask[start] & self.allowed, sg.area_goal[start],
                       sg.children_mask[start], sum(sg.positive_value[n] for n in _bits(sg.children_mask[start])))
        decisions: list[Decision] = []
        if self.closure:
            state = self.close(state, decisions)
        return state, decisions

    def consume(self, state: _State, b: int, cost: int, decisions: list[Decision] | None = None) -> _State:
        """The state after consuming frontier blocker b at life cost `cost`, items taken; with a list of
        `decisions`, then every free step too (dominance rule, application 1), each recorded in it. One
        loop over local values, since this is the search's innermost work."""
        sg = self.sg
        areas_count = sg.areas_count
        area_items = sg.area_items
        positive = sg.positive_value
        blocker_area_mask, blocker_blocker_mask = sg.blocker_area_mask, sg.blocker_blocker_mask
        door_mask = sg.door_mask
        free_masks, stride = sg.free_masks, sg.stat_stride
        allowed = self.allowed
        consumed, areas, boundary, gain = state.consumed, state.areas, state.boundary, state.gain
        atk, defense, keys = state.atk, state.defense, state.keys
        hp, elixirs, frontier, goal = state.hp - cost, state.elixirs, state.frontier, state.goal
        while True:
            consumed |= 1 << b
            if door_mask >> b & 1:
                keys -= 1
            frontier |= blocker_blocker_mask[b]
            if goal < 0:
                goal = sg.blocker_goal[b]
            children = sg.children_mask[areas_count + b]
            new_areas = blocker_area_mask[b] & ~areas
            if new_areas:
                areas |= new_areas
                mask = new_areas
                while mask:
                    low = mask & -mask
                    mask ^= low
                    a_atk, a_def, a_keys, a_hp, a_blockers, a_goal, a_children = area_items[low.bit_length() - 1]
                    children |= a_children
                    atk += a_atk
                    defense += a_def
                    keys += a_keys
                    hp += a_hp
                    elixirs += a_hp
                    frontier |= a_blockers
                    if goal < 0:
                        goal = a_goal
            # The boundary loses the nodes just reached and gains their unreached children.
            newly = new_areas | 1 << (areas_count + b)
            mask = boundary & newly
            while mask:
                low = mask & -mask
                mask ^= low
                gain -= positive[low.bit_length() - 1]
            added = children & ~newly & ~boundary & ~(areas | consumed << areas_count)
            mask = added
            while mask:
                low = mask & -mask
                mask ^= low
                gain += positive[low.bit_length() - 1]
            boundary = (boundary & ~newly) | added
            frontier &= allowed & ~consumed
            if decisions is None:
                break
            # free_step, inlined: this loop is the search's innermost work.
            free = free_masks.get(atk * stride + defense)
            if free is None:
                free = sg.costs_at(atk, defense)[1]
            free &= frontier
            if keys >= 1 and frontier & door_mask and keys >= (self.allowed_doors & ~consumed).bit_count():
                free |= frontier & door_mask
            if not free:
                break
            b = (free & -free).bit_length() - 1
            decisions.append(("open" if door_mask >> b & 1 else "fight", sg.objects[b]))
        return _State(consumed, areas, atk, defense, keys, hp, elixirs, frontier, goal, boundary, gain)

    def key(self, state: _State) -> int:
        """What a state's future depends on besides its life: the reached areas, the consumed blockers
        that touch another blocker or a goal, and the keys held. States with one key differ only in
        consumed blockers whose every neighbour is reached, so the one with more hp dominates the other
        (module docstring)."""
        sg = self.sg
        return (state.areas | (state.consumed & sg.linking_mask) << sg.areas_count
                | state.keys << (sg.areas_count + sg.blocker_count))

    def keys_cover_doors(self, state: _State) -> bool:
        return state.keys >= (self.allowed_doors & ~state.consumed).bit_count()

    def reaches_beyond(self, a: _State, areas: int, linked: int, doors: int) -> bool:
        """The part of the dominance rule (module docstring) that is not about life: state `a` has
        reached these areas and consumed these linking blockers, and opened no more than `doors` doors
        or holds keys for every door left."""
        door_mask = self.sg.door_mask
        return (a.areas & areas == areas and a.consumed & linked == linked
                and ((a.consumed & door_mask).bit_count() <= doors or self.keys_cover_doors(a)))

    def free_step(self, frontier: int, atk: int, defense: int, keys: int, consumed: int) -> int:
        """A frontier blocker that costs nothing (dominance rule, application 1): an enemy that does no
        damage at these stats, or a door once the keys cover every door left; -1 when there is none."""
        sg = self.sg
        free = frontier & sg.costs_at(atk, defense)[1]
        doors = frontier & sg.door_mask
        if keys >= 1 and doors and keys >= (self.allowed_doors & ~consumed).bit_count():
            free |= doors
        return (free & -free).bit_length() - 1

    def close(self, state: _State, decisions: list[Decision]) -> _State:
        """Take every free step; returns the closed state."""
        b = self.free_step(state.frontier, state.atk, state.defense, state.keys, state.consumed)
        if b < 0:
            return state
        decisions.append(("open" if self.sg.is_door[b] else "fight", self.sg.objects[b]))
        return self.consume(state, b, 0, decisions)

    def moves(self, state: _State) -> list[tuple[int, int]]:
        """(blocker, cost) for every blocker that can be consumed now."""
        sg = self.sg
        costs = sg.costs_at(state.atk, state.defense)[0]
        is_door = sg.is_door
        hp, keys, survival = state.hp, state.keys, self.survival
        skip_pointless = self.skip_pointless
        area_mask, allowed_neighbours = sg.blocker_area_mask, self.allowed_neighbours
        areas_left, blockers_left, goal_blockers = ~state.areas, ~state.consumed, sg.goal_blocker_mask
        found = []
        mask = state.frontier
        while mask:
            low = mask & -mask
            mask ^= low
            b = low.bit_length() - 1
            if skip_pointless and not (area_mask[b] & areas_left or allowed_neighbours[b] & blockers_left
                                       or goal_blockers & low):
                continue      # dominance application 4: everything around it is reached already
            if is_door[b]:
                if keys >= 1:
                    found.append((b, 0))
            else:
                cost = costs[b]
                if cost is not None and (cost < hp or not survival):
                    found.append((b, cost))
        return found

    def bound(self, state: _State) -> int:
        """Admissible upper bound on the final hp of any continuation (module docstring): the smaller of
        the dominator-tree relaxation and elixirs-left-minus-distance-to-a-goal."""
        sg = self.sg
        if state.goal >= 0:
            return state.hp + min(state.gain, sg.total_elixirs - state.elixirs)
        goal_extra = None
        goal_extra_of = sg.goal_extra
        mask = state.boundary & sg.goal_ancestors
        while mask:
            low = mask & -mask
            mask ^= low
            extra = goal_extra_of[low.bit_length() - 1]
            if goal_extra is None or extra > goal_extra:
                goal_extra = extra
        if goal_extra is None:
            return NO_WIN     # no goal lies beyond
        nearest = None
        distance = sg.goal_distance
        mask = state.frontier
        while mask:
            low = mask & -mask
            mask ^= low
            dist = distance[low.bit_length() - 1]
            if dist is not None and (nearest is None or dist < nearest):
                nearest = dist
        if nearest is None:
            return NO_WIN
        return state.hp + min(state.gain + goal_extra, sg.total_elixirs - state.elixirs - nearest)

    def priced_bound(self, state: _State, enough: int | None = None, floor: int | None = None) -> int:
        """A second admissible bound on the final hp, aware of when the stats come (module docstring,
        "Priced bound"). dist(x), the least damage any route takes from this state before it reaches node
        x, is bounded below by a Dijkstra over damage where each blocker is priced at the stats of the
        equipment of the areas settled so far: whatever a route has reached after taking damage t lies
        within distance t, so its stats are at most those, and every fight costs it at least the price.
        When the stats grow at distance t, every blocker on the boundary is offered again from t. A route
        that takes damage D in all reaches a goal only if D >= G (the distance of the nearest goal) and
        takes only the elixirs of areas within D; so the final hp is at most hp + the largest, over D >= G,
        of (elixirs within D) - D. The distances are the least fixpoint of these rules, whatever the order
        of equal distances, so the compiled search computes the same number. With `enough`, the answer is
        `enough` as soon as it is known to be at least that, and with `floor`, a number at most `floor` as
        soon as it is known to be at most that: the search only asks whether it is lower than its bound,
        and whether it is still above the best route found."""
        sg = self.sg
        allowed = self.allowed
        area_blockers, blocker_blockers = sg.area_blocker_mask, sg.blocker_blocker_mask
        blocker_areas = sg.blocker_area_mask
        atk, defense = state.atk, state.defense
        areas, settled = state.areas, state.consumed
        front = state.frontier       # the unconsumed allowed blockers next to what is reached
        dist: dict[int, int] = {}
        queue: list[tuple[int, int]] = []

        def offer(at: int, mask: int, costs: list[int | None]) -> None:
            for b in _bits(mask):
                cost = costs[b]
                if cost is not None and (b not in dist or at + cost < dist[b]):
                    dist[b] = at + cost
                    heapq.heappush(queue, (at + cost, b))

        # Distances are settled in increasing order, so the answer grows as they come: once a goal is
        # known (at G), `best` is the largest (elixirs settled) - max(distance, G) so far. No area
        # further on raises it beyond (every elixir not taken yet) - (the distance reached), so the
        # Dijkstra stops there.
        elixirs_left = sg.total_elixirs - state.elixirs
        taken = 0
        goal_known = state.goal >= 0
        best = 0
        offer(0, front, sg.costs_at(atk, defense)[0])
        while queue:
            at, b = heapq.heappop(queue)
            if settled >> b & 1 or at > dist[b]:
                continue
            if goal_known:
                if elixirs_left - at <= best:
                    break
                if enough is not None and state.hp + best >= enough:
                    return enough
            elif floor is not None and state.hp + elixirs_left - at <= floor:
                return state.hp + elixirs_left - at     # every goal is at least `at` away
            settled |= 1 << b
            front &= ~(1 << b)
            if not goal_known and sg.blocker_goal[b] >= 0:
                goal_known, best = True, taken - at
            added = blocker_blockers[b]
            stronger = False
            for a in _bits(blocker_areas[b] & ~areas):
                areas |= 1 << a
                taken += sg.area_hp[a]
                if not goal_known and sg.area_goal[a] >= 0:
                    goal_known, best = True, taken - at
                elif goal_known:
                    best = max(best, taken - at)
                if sg.area_atk[a] or sg.area_def[a]:
                    atk += sg.area_atk[a]
                    defense += sg.area_def[a]
                    stronger = True
                added |= area_blockers[a]
            added &= allowed & ~settled & ~front
            front |= added
            offer(at, front if stronger else added, sg.costs_at(atk, defense)[0])
        if not goal_known:
            return NO_WIN
        return state.hp + best

    def steiner_bound(self, state: _State, enough: int = NO_WIN) -> int:
        """A third admissible bound on the final hp, which pays for the ways into areas with more than one
        (module docstring, "Steiner bound"); once it is down to `enough` it stops there."""
        return self._steiner_graph().bound(state, enough=enough)

    def _steiner_graph(self) -> SteinerGraph:
        if self._steiner is None:
            self._steiner = SteinerGraph.for_level(self.sg, self.allowed)
        return self._steiner

    def chain_bound(self, state: _State, flat: int, floor: int) -> int:
        """A fourth admissible bound on the final hp, aware of when the equipment comes (module docstring,
        "Chain bound"); `flat` is a bound already known for the state (its Steiner bound, or the search's
        bound for it), which caps this one, NO_WIN included."""
        return self.chain_bound_hinted(state, flat, floor, None)[0]

    def chain_bound_hinted(self, state: _State, flat: int, floor: int,
                           hint: ChainHint | None) -> tuple[int, ChainHint | None]:
        """The chain bound, skipping the sets of pieces that `hint` (from the state this one was made
        from) found dead, and the hint for the states made from this one (None when the bound is at most
        the floor). Step for step as the compiled core's chain_bound: the same pieces, folding, order and
        skips, so that both search alike."""
        if flat == NO_WIN:
            return NO_WIN, None
        sg = self.sg
        steiner = self._steiner_graph()
        # The pieces any route can still take: in the areas reached over blockers that can be fought at all.
        passable = {b: 0 for b in _bits(self.allowed) if sg.is_door[b] or sg.least_damage[b] is not None}
        reach = self._chain_distances(state, passable, range(sg.areas_count))
        pieces = [a for a in range(sg.areas_count)
                  if (sg.area_atk[a] or sg.area_def[a]) and not state.areas >> a & 1 and a in reach]
        atk, defense = state.atk, state.defense
        if len(pieces) > CHAIN_PIECES:
            # The CHAIN_PIECES pieces farthest at the state's own stats are followed; the rest count as
            # taken now, which only lowers every price.
            costs = sg.costs_at(atk, defense)[0]
            away = self._chain_distances(state, self._chain_prices(costs), pieces)
            pieces.sort(key=lambda a: -away.get(a, _FAR))
            for a in pieces[CHAIN_PIECES:]:
                atk, defense = atk + sg.area_atk[a], defense + sg.area_def[a]
            del pieces[CHAIN_PIECES:]
        masks = 1 << len(pieces)
        stats = []
        for mask in range(masks):
            taken = [a for i, a in enumerate(pieces) if mask >> i & 1]
            stats.append((atk + sum(sg.area_atk[a] for a in taken), defense + sum(sg.area_def[a] for a in taken)))
        price = [self._chain_prices(sg.costs_at(*stats[mask])[0]) for mask in range(masks)]
        # The full set's prices are the lowest, so its Steiner bound holds for the routes that end with any
        # subset too: it caps them all. Asked first: when it settles the state, no distance is needed.
        cap = min(flat, steiner.bound(state, self._chain_node_prices(price[masks - 1]), enough=floor))
        if cap <= floor:
            return cap, None        # (NO_WIN too)
        # extra[F]: the least extra damage of taking the pieces of F one at a time, over pricing every
        # fight at F's stats. A step's distances depend on the stats before and after it only.
        steps: dict[tuple[tuple[int, int], tuple[int, int]], dict[int, int]] = {}
        extra = [0] + [_FAR] * (masks - 1)
        for mask in range(1, masks):
            for i in range(len(pieces)):
                prev = mask ^ (1 << i)
                if not mask >> i & 1 or extra[prev] >= extra[mask]:
                    continue        # (a step costs at least 0)
                pair = (stats[prev], stats[mask])
                if pair not in steps:
                    weight = {b: before - price[mask][b] for b, before in price[prev].items()}
                    steps[pair] = self._chain_distances(state, weight, pieces)
                far = [steps[pair].get(a, _FAR) for j, a in enumerate(pieces) if mask >> j & 1]
                if _FAR not in far:
                    extra[mask] = min(extra[mask], extra[prev] + max(far))
        # The sets the state it was made from found dead, where it followed the same pieces: every route
        # from here is one from there, so none of them beats the floor (which only rises) with such a set.
        inherited = 0
        if hint is not None and sorted(hint.pieces) == sorted(pieces):
            index = [hint.pieces.index(a) for a in pieces]
            for mask in range(masks):
                theirs = sum(1 << index[i] for i in range(len(pieces)) if mask >> i & 1)
                if hint.dead >> theirs & 1:
                    inherited |= 1 << mask
        # A set's own bound, with its pieces to reach, is asked in the order of the cap's values, while one
        # can beat the floor.
        best = NO_WIN
        value_of = [NO_WIN if extra[mask] == _FAR else cap - extra[mask] for mask in range(masks)]
        for mask in sorted((mask for mask in range(masks) if extra[mask] != _FAR), key=lambda mask: extra[mask]):
            value = cap - extra[mask]
            if value <= floor:
                best = max(best, value)
                break
            if inherited >> mask & 1:
                best = max(best, floor)
                continue
            taken = 0       # (two pieces may share a supernode)
            for i, a in enumerate(pieces):
                if mask >> i & 1:
                    taken |= 1 << steiner.area_node[a]
            own = steiner.bound(state, self._chain_node_prices(price[mask]), taken, floor + extra[mask])
            if own < cap:
                value = NO_WIN if own == NO_WIN else own - extra[mask]
            value_of[mask] = value
            best = max(best, value)
        if best <= floor:
            return best, None
        dead = sum(1 << mask for mask in range(masks)
                   if extra[mask] == _FAR or inherited >> mask & 1 or value_of[mask] <= floor)
        return best, ChainHint(tuple(pieces), dead)

    def _chain_node_prices(self, prices: dict[int, int]) -> dict[int, int | None]:
        """The Steiner graph's costly nodes priced as their blockers (None: cannot be fought)."""
        return {node: prices.get(b) for node, b in self._steiner_graph().node_blocker.items()}

    def _chain_prices(self, costs: list[int | None]) -> dict[int, int]:
        """Each allowed blocker's price at some stats: its damage there, at least its least damage (doors
        0); blockers that cannot be fought there are left out."""
        sg = self.sg
        prices = {}
        for b in _bits(self.allowed):
            if sg.is_door[b]:
                prices[b] = 0
            elif costs[b] is not None and sg.least_damage[b] is not None:
                prices[b] = max(costs[b], sg.least_damage[b])
        return prices

    def _chain_distances(self, state: _State, weight: dict[int, int], targets) -> dict[int, int]:
        """The least weight from the state's reach to each target area it reaches, over the blockers in
        `weight` (a Dijkstra; the compiled core's gives the same distances)."""
        sg = self.sg
        dist = {a: 0 for a in targets if state.areas >> a & 1}
        wanted = {a for a in targets if not state.areas >> a & 1}
        settled, areas = state.consumed, state.areas
        best: dict[int, int] = {}
        queue: list[tuple[int, int]] = []
        for b in _bits(state.frontier):
            if b in weight:
                best[b] = weight[b]
                heapq.heappush(queue, (weight[b], b))
        while queue and wanted:
            at, b = heapq.heappop(queue)
            if settled >> b & 1 or at > best[b]:
                continue
            settled |= 1 << b
            opened = sg.blocker_blocker_mask[b]
            for a in _bits(sg.blocker_area_mask[b] & ~areas):
                areas |= 1 << a
                opened |= sg.area_blocker_mask[a]
                if a in wanted:
                    dist[a] = at
                    wanted.discard(a)
            for c in _bits(opened & ~settled):
                if c in weight and (c not in best or at + weight[c] < best[c]):
                    best[c] = at + weight[c]
                    heapq.heappush(queue, (at + weight[c], c))
        return dist

    def damage_so_far(self, state: _State) -> int:
        return self.start_hp + state.elixirs - state.hp


@dataclass
class _SearchResult:
    best_hp: int | None
    route: tuple[Decision, ...] | None
    complete: bool         # the search ran to the end (the answer is proven)
    expanded: int


def _route_to(sg: SearchGraph, start_hp: int, parents: dict[int, tuple[int | None, tuple[Decision, ...]]],
              key: int, goal: int) -> tuple[tuple[Decision, ...], int]:
    """The route to the state stored under `key` and the hp it ends with, replayed on the search graph.
    A key's state may have been replaced by a better one with other consumed blockers after its children
    were made; their steps stay legal from the better state (same areas, keys and stats, no less hp), except
    that a blocker the better state consumed already is skipped, so the replay keeps only real steps."""
    pieces = []
    at: int | None = key
    while at is not None:
        parent, decisions = parents[at]
        pieces.append(decisions)
        at = parent
    walker = _Walker(sg, start_hp, sg.all_mask, closure=False)
    state, _ = walker.initial()
    of_object = sg.graph.blocker_of_object
    route: list[Decision] = []
    for piece in reversed(pieces):
        for decision in piece:
            b = of_object[decision[1]]
            if state.consumed >> b & 1:
                continue
            state = walker.consume(state, b, sg.damage(b, state.atk, state.defense))
            route.append(decision)
    return tuple(route) + (("goal", goal),), state.hp


def search(sg: SearchGraph, start_hp: int, deadline: Deadline, *, first_win: bool = False, dive: bool = False,
           use_dominance: bool = True, at_least: int = 1, root: _State | None = None,
           failures: _Failures | None = None, compiled: bool = True, priced: bool | None = None,
           steiner: bool = False, chain_from: int | None = None, threads: int = 1) -> _SearchResult:
    """Best-first branch and bound; with `first_win`, stop at the first winning state (solvability).
    `dive` expands the deepest state first: it finds some win fast when wins are plentiful, but it may
    expand a set several times as better ways to it turn up, so refutations are cheaper best bound first.
    Only wins with at least `at_least` hp count. From `root` (a closed state of a walker on
    sg.useful_mask) instead of the level's start; with `failures`, the states known not to reach
    `at_least` prune this search, and when it finds no win its own states join them.
    `priced`: a state that comes up for expansion is first given the priced bound too (best bound first
    only; module docstring); by default only in the compiled search, since in Python its Dijkstra costs more
    than it saves (b060-03: 2.1 s without, 4.4 s with; counting b040-01: 1.2 s without, 3.7 s with).
    `steiner`: likewise the Steiner bound, before the priced bound (best bound first only). The compiled
    search goes without it on a level whose Steiner graph has more than 128 nodes, or a costly blocker with
    more than 24 neighbours (SteinerGraph, build_steiner_graph in the core). `chain_from`: from this many
    expansions on, the chain bound too, after the others (best bound first only; None: never).
    `threads`: 2 lets the compiled search with the chain bound from the start (and without the priced
    bound) bound states on a second core too, once the deadline's spare_core() says it may (always when
    the deadline has none): the same answers, with the expansions in a slightly different order.
    Searches from the start run compiled (_passages_core.c, the same search step for step) when the
    extension is built and the level fits it, unless `compiled` is False."""
    compiled = compiled and root is None and failures is None and sg.fits_compiled()
    priced = (compiled if priced is None else priced) and not dive
    steiner = steiner and not dive
    chain_from = None if dive else chain_from
    if compiled:
        return _search_compiled(sg, start_hp, deadline, first_win, dive, use_dominance, at_least, priced, steiner,
                                chain_from, threads)
    # The search allocates millions of small objects without reference cycles; the cyclic collector
    # would only rescan them again and again (about 13% of the time on large levels).
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _search(sg, start_hp, deadline, first_win, dive, use_dominance, at_least, root, failures, priced,
                       steiner, chain_from)
    finally:
        if collecting:
            gc.enable()


def _search_compiled(sg: SearchGraph, start_hp: int, deadline: Deadline, first_win: bool, dive: bool,
                     use_dominance: bool, at_least: int, priced: bool, steiner: bool,
                     chain_from: int | None, threads: int = 1) -> _SearchResult:
    """_search from the level's start, run by the compiled core. It returns the blockers consumed from
    the root to the best state, each step followed by its closure; replaying them here with the same
    walker gives the route's decisions and must end on a goal with the hp the core reported."""
    walker = _Walker(sg, start_hp, sg.useful_mask, closure=True)
    root, decisions = walker.initial()
    best_hp, complete, expanded, steps = _passages_core.search(
        sg.compiled_graph(), sg.compiled_state(root), deadline, first_win, dive, use_dominance, at_least, priced,
        steiner, -1 if chain_from is None else chain_from, threads)
    if best_hp is None:
        return _SearchResult(None, None, complete, expanded)
    state = root
    for b in steps:
        decisions.append(("open" if sg.is_door[b] else "fight", sg.objects[b]))
        state = walker.consume(state, b, sg.costs_at(state.atk, state.defense)[0][b], decisions)
    if state.goal < 0 or state.hp != best_hp:
        raise AssertionError(f"the compiled search's route ends with {state.hp} hp at goal {state.goal}, "
                             f"not {best_hp} hp at a goal")
    return _SearchResult(best_hp, tuple(decisions) + (("goal", state.goal),), complete, expanded)


class _Failures:
    """What decision searches with one `at_least` learn from each other: closed states from which no
    route reaches a goal with `at_least` hp, the most hp per state key, and where raw steps lead after
    closure (a fact of the level, kept whatever a search finds). A search that ends without a win has
    shown every state it stored to fail: each was expanded with all its children failing, or pruned by a
    bound below `at_least`, or dominated by a stored state (dominance rule, module docstring), which
    fails too. A state that such a failing state dominates fails as well, so a later search may prune
    by them exactly as by its own states."""

    def __init__(self, at_least: int) -> None:
        self.at_least = at_least
        self.states: dict[int, _State] = {}
        self.step_target: dict[int, tuple[int, int]] = {}

    def learn(self, states: dict[int, _State]) -> None:
        """Take the stored states of a search that found no win. It started from a copy of these
        states and only ever replaced one by a state with more hp, so they are all in it already."""
        self.states = states


def _search(sg: SearchGraph, start_hp: int, deadline: Deadline, first_win: bool, dive: bool,
            use_dominance: bool, at_least: int, root: _State | None, failures: _Failures | None,
            priced: bool, steiner: bool, chain_from: int | None) -> _SearchResult:
    walker = _Walker(sg, start_hp, sg.useful_mask, closure=True)
    key = walker.key
    from_start = root is None
    if root is None:
        root, decisions = walker.initial()
    else:
        decisions = []
    root_key = key(root)
    assert failures is None or failures.at_least == at_least, "failures learnt for another at_least"
    # The least damage found per state key, starting from the states known to fail.
    best: dict[int, _State] = {} if failures is None else dict(failures.states)
    if root_key in best and best[root_key].hp >= root.hp:
        return _SearchResult(None, None, True, 0)
    best[root_key] = root
    parents: dict[int, tuple[int | None, tuple[Decision, ...]]] = {root_key: (None, tuple(decisions))}
    # Where one raw step (closed state + a blocker) led after its closure, for dominance application 3.
    step_target: dict[int, tuple[int, int]] = {} if failures is None else failures.step_target
    best_hp: int | None = None
    best_state: _State | None = None
    counter = 0
    expanded = 0
    def entry(state: _State, state_bound: int, cheap: int, refined: bool = False):
        """A heap entry: the order, then the state's bound, the state, its own (cheap) bound, and
        whether the lazy bounds (Steiner, priced) are in the bound already."""
        depth = state.consumed.bit_count()
        if dive:
            return (-depth, -state_bound, counter, state_bound, state, cheap, refined)
        return (-state_bound, -depth, counter, state_bound, state, cheap, refined)

    def finish(complete: bool) -> _SearchResult:
        if best_state is None:
            if complete and failures is not None:
                failures.learn(best)
            return _SearchResult(None, None, complete, expanded)
        if not from_start:
            return _SearchResult(best_hp, None, complete, expanded)     # the route from the start is not known
        route, hp = _route_to(sg, start_hp, parents, key(best_state), best_state.goal)
        return _SearchResult(max(hp, best_hp), route, complete, expanded)

    moves, consume, bound = walker.moves, walker.consume, walker.bound
    step_get, best_get = step_target.get, best.get
    is_door, objects = sg.is_door, sg.objects
    least = sg.least_damage
    root_bound = walker.bound(root)
    heap = [entry(root, root_bound, root_bound)]
    hints: dict[int, ChainHint | None] = {}     # per state key, as its state's ChainHint
    while heap:
        _, _, _, state_bound, state, cheap, refined = heapq.heappop(heap)
        if state_bound < at_least or best_hp is not None and state_bound <= best_hp:
            break
        state_key = key(state)
        if best[state_key] is not state:
            continue          # a better way to this key was found after this entry was queued
        if use_dominance and _dominated(walker, state, state_key, best, step_target):
            continue          # a state one step further on is as good (application 3)
        chain = chain_from is not None and expanded >= chain_from
        if (priced or steiner or chain) and not refined:
            # The lazy bounds, once per state that comes up: the Steiner bound first, then the priced
            # bound and the chain bound, each unless the bounds before it already settle the state.
            floor = at_least - 1 if best_hp is None else best_hp
            tighter = state_bound
            if steiner and not chain:       # (the chain bound asks a Steiner bound of its own, at lower prices)
                tighter = min(tighter, walker.steiner_bound(state, floor))
            if priced and tighter > floor:
                tighter = min(tighter, walker.priced_bound(state, enough=tighter, floor=floor))
            if chain and tighter > floor:
                # (its cap: the state's own bound of least damages, not the one it is queued with, which may
                # be a chain bound with its extra already taken off)
                chained, own_hint = walker.chain_bound_hinted(state, cheap, floor, hints.get(state_key))
                tighter = min(tighter, chained)
                if own_hint is not None:
                    hints[state_key] = own_hint
            if tighter < state_bound:
                # Queued again under the tighter bound, or dropped if that cannot beat the best.
                if tighter >= at_least and (best_hp is None or tighter > best_hp):
                    counter += 1
                    heapq.heappush(heap, entry(state, tighter, cheap, True))
                continue
        if state.goal >= 0 and state.hp >= at_least and (best_hp is None or state.hp > best_hp):
            best_hp, best_state = state.hp, state
            if first_win:
                break
            if state_bound <= best_hp:
                break
        expanded += 1
        if expanded % _CLOCK_EVERY == 0 and deadline.expired():
            return finish(False)
        consumed, base_hp = state.consumed, state.hp - state.elixirs
        floor = at_least - 1 if best_hp is None else best_hp
        for b, cost in moves(state):
            if cheap - cost + least[b] <= floor:
                # The child's bound is at most this, so it would be pruned: the relaxation's best set for
                # the child, with b and what b opens added, is a set for this state that counted b at
                # its least damage instead of its cost (likewise for the distance to a goal).
                continue
            raw = consumed | (1 << b)
            known_step = step_get(raw)
            if known_step is not None:
                # A raw set always closes to the same areas, with the same elixirs taken in all.
                known = best_get(known_step[0])
                if known is not None and known.hp >= base_hp - cost + known_step[1]:
                    continue
            steps: list[Decision] = [("open" if is_door[b] else "fight", objects[b])]
            child = consume(state, b, cost, steps)
            child_key = key(child)
            step_target[raw] = (child_key, child.elixirs)
            known = best_get(child_key)
            if known is not None and known.hp >= child.hp:
                continue
            # Every continuation of the child is one of this state: this state's bound holds for it too.
            child_cheap = bound(child)
            child_bound = min(child_cheap, state_bound)
            if child_bound <= floor:
                continue
            best[child_key] = child
            if chain_from is not None:
                hints[child_key] = hints.get(state_key)     # (what the chain bound learnt here, or inherited)
            parents[child_key] = (state_key, tuple(steps))
            if child.goal >= 0 and child.hp >= at_least and (best_hp is None or child.hp > best_hp):
                best_hp, best_state = child.hp, child
                floor = best_hp
                if first_win:
                    heap = []
                    break
            counter += 1
            heapq.heappush(heap, entry(child, child_bound, child_cheap))
    return finish(True)


def dominates(walker: _Walker, a: _State, b: _State) -> bool:
    """The dominance rule of the module docstring: every continuation of b is matched by one of a that
    ends with at least as much hp."""
    sg = walker.sg
    return (walker.damage_so_far(a) <= walker.damage_so_far(b)
            and walker.reaches_beyond(a, b.areas, b.consumed & sg.linking_mask,
                                      (b.consumed & sg.door_mask).bit_count()))


def _dominated(walker: _Walker, state: _State, own_key: int, best: dict[int, _State],
                step_target: dict[int, tuple[int, int]]) -> bool:
    """Dominance application 3: a known state one enemy step further on dominates `state`, stored under
    `own_key` (the test of `dominates`, with damage so far compared as elixirs - hp, the starting hp
    being common)."""
    sg = walker.sg
    door_mask = sg.door_mask
    consumed = state.consumed
    areas = state.areas
    linked = consumed & sg.linking_mask
    lost = state.elixirs - state.hp
    doors = (consumed & door_mask).bit_count()
    # A step can close to the state's own key: an enemy that touches no other blocker and whose areas
    # are all reached (its raw set was met from a state that had consumed it while another blocker
    # was still to come). The state stored under that key is the state itself, which must not count
    # as dominating itself. No other cycle is possible: along a chain of "dominated by the state one step
    # on", the areas and linking blockers only grow, and with them equal the keys only fall.
    mask = state.frontier & ~door_mask
    while mask:
        low = mask & -mask
        mask ^= low
        step = step_target.get(consumed | low)
        if step is None or step[0] == own_key:
            continue          # see above
        further = best.get(step[0])
        if (further is not None and further.elixirs - further.hp <= lost
                and walker.reaches_beyond(further, areas, linked, doors)):
            return True
    return False


# ----------------------------------------------------------------------------------------- the contract

# From this many blockers on, best_route races the compiled search with the priced bound and the one with
# the Steiner bound.
RACE_BLOCKERS = 40

# The race's priced search gives way after this many seconds, and the search with the chain bound then
# bounds states on both cores. The priced search proves the levels it is the better at within a few
# seconds (alone on one core, b120-00 in 5.0 s against 9.4 s, b120-03 0.4 s against 3.3 s); the long
# ones (b120-01: 35.6 s on one core, 20.3 s on two) need the second core.
PRICED_SECONDS = 4.0


def _cores() -> int:
    """The cores this process may run on (its affinity where the system tells it)."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:      # (not on every system)
        return os.cpu_count() or 1


class _RaceDeadline:
    """The deadline of one of two racing searches: the level's own, or the other search's end (a proof,
    or an error or interrupt that ends the race). `spare`, once set, tells the search that the other
    core is free (spare_core, read by the compiled search)."""

    def __init__(self, deadline: Deadline, stop: threading.Event, spare: threading.Event | None = None) -> None:
        self.deadline = deadline
        self.stop = stop
        self.spare = spare

    def expired(self) -> bool:
        return self.stop.is_set() or self.deadline.expired()

    def spare_core(self) -> bool:
        return self.spare is not None and self.spare.is_set()


def _race(sg: SearchGraph, start_hp: int, deadline: Deadline) -> _SearchResult:
    """The compiled search with the priced bound and with the Steiner bound at once, one per core (the core
    runs without the GIL); the first proof stops the other. Neither is best everywhere: on suite level
    b060-01 the priced search took 2.2 s and the Steiner search 3.9 s, on b090-02 37 s against 19.5 s, on
    b090-03 3.1 s against 0.4 s (one run, docs/bench-passages.md); one search with both bounds was never
    much faster than the better of the two, and slower on some. The Steiner search asks the chain bound
    too, from the first expansion on: it costs several expansions' time per state, and the priced search
    is the faster where the bounds of least damage are close already (alone on one core, b120-00 5.0 s
    priced against 9.4 s with the chain bound). The priced search gives way after PRICED_SECONDS, or once
    the two hold half the memory budget, and the search with the chain bound goes on on both cores
    (threads=2), which proves the long ones (b120-01 in about 22 s). Without a proof, the better route
    found is the answer, unproven."""
    stop, spare = threading.Event(), threading.Event()
    results: dict[bool, _SearchResult] = {}
    failures: list[BaseException] = []

    def run(priced: bool) -> None:
        """The search with the priced bound, or else with the Steiner and chain bounds."""
        own = deadline
        if priced:
            # Its memory goes back when it gives way, and the search with the chain bound goes on.
            left = deadline.remaining()
            memory = None if deadline.memory_bytes is None else deadline.memory_bytes // 2
            own = Deadline(PRICED_SECONDS if left is None else min(left, PRICED_SECONDS), memory)
        try:
            results[priced] = search(sg, start_hp, _RaceDeadline(own, stop, None if priced else spare),
                                     priced=priced, steiner=not priced, chain_from=None if priced else 0,
                                     threads=1 if priced or _cores() < 2 else 2)
        except BaseException as error:        # handed to the caller below, as if the search ran here
            failures.append(error)
            stop.set()                        # an interrupt (Ctrl-C) must not wait for the other search
        else:
            if results[priced].complete:
                stop.set()
        finally:
            if priced:
                spare.set()                   # its core is free from now on

    sg.compiled_graph()             # made once, before two threads could both make it
    other = threading.Thread(target=run, args=(False,), name="passages search with the Steiner bound")
    other.start()
    run(True)
    other.join()
    for failure in failures:
        if not isinstance(failure, Exception):
            raise failure                     # KeyboardInterrupt and the like, whatever the other found
    for result in results.values():
        if result.complete:
            return result
    if failures:
        raise failures[0]
    return max(results.values(), key=lambda result: -1 if result.best_hp is None else result.best_hp)


def best_route(level: PassagesLevel, deadline: Deadline, compiled: bool = True) -> BestRoute:
    """The best route, proven optimal when the search finishes. Levels of RACE_BLOCKERS blockers and more
    race two searches on two cores (_race); smaller ones are done within milliseconds by the first."""
    sg = SearchGraph(level, level.player.hp)
    if compiled and sg.fits_compiled() and sg.blocker_count >= RACE_BLOCKERS:
        result = _race(sg, level.player.hp, deadline)
    else:
        result = search(sg, level.player.hp, deadline, compiled=compiled)
    if result.complete:
        if result.best_hp is None:
            return BestRoute(UNSOLVABLE, proved=True)
        return BestRoute(SOLVABLE, result.best_hp, result.route, proved=True)
    if result.best_hp is None:
        return BestRoute(UNKNOWN)
    return BestRoute(SOLVABLE, result.best_hp, result.route, proved=False)


def start_hp_upper_bound(sg: SearchGraph) -> int:
    """A starting hp with which every fight that can ever happen is survivable: one more than the sum of
    each enemy's worst damage at any stats the player can have. Unsolvable with it = unsolvable at all."""
    level = sg.level
    atks = range(level.player.atk, sg.max_atk + 1)
    defs = range(level.player.defense, sg.max_def + 1)
    worst = 0
    for b in _bits(sg.all_mask):
        if not sg.is_door[b]:
            damages = [fight_damage(sg.enemies[b], a, d) for a in atks for d in defs]
            worst += max((d for d in damages if d is not None), default=0)
    return 1 + worst


def _required_start_hp(sg: SearchGraph, route: tuple[Decision, ...]) -> int:
    """The least starting hp with which `route` is legal: every fight must leave at least 1 hp."""
    walker = _Walker(sg, 0, sg.all_mask, closure=False)
    state, _ = walker.initial()
    of_object = sg.graph.blocker_of_object
    need = 1 - state.hp
    for action, obj in route[:-1]:
        b = of_object[obj]
        cost = sg.damage(b, state.atk, state.defense)
        need = max(need, cost + 1 - state.hp)
        state = walker.consume(state, b, cost)
        need = max(need, 1 - state.hp)
    return max(1, need)


def min_start_hp(level: PassagesLevel, deadline: Deadline) -> MinStartHp:
    """The smallest starting hp that wins: a route found with a starting hp so large that every fight is
    survivable gives a first answer, and the least-need search proves the least (module docstring)."""
    sg = SearchGraph(level)
    witness = search(sg, start_hp_upper_bound(sg), deadline, first_win=True, dive=True)
    if witness.route is None:
        return MinStartHp("none" if witness.complete else UNKNOWN)
    least, _ = _least_need(sg, _required_start_hp(sg, witness.route), deadline)
    return MinStartHp(UNKNOWN) if least is None else MinStartHp("proved", least)


@dataclass(slots=True)
class _NeedEntry:
    state: _State     # hp fields hold the net life: elixirs taken minus damage taken (starting hp 0)
    key: int          # the state's key (_Walker.key)
    need: int         # the least starting hp with which the way here is legal
    bound: int        # the relaxation's bound on the final net life from here
    alive: bool = True
    refined: bool = False     # the Steiner bound is in the order it is queued with


def _least_need(sg: SearchGraph, known: int, deadline: Deadline, compiled: bool = True,
                steiner: bool | None = None) -> tuple[int | None, int]:
    """The least starting hp with which some route wins, given a route that wins with `known`; None when
    time runs out. A route is legal from starting hp H when H >= 1 and H + net > cost before each fight,
    so its need is the largest of 1 and cost - net + 1 over its fights, and it wins from H exactly when
    H >= need. States keep their need and their net life (the life with starting hp 0), and on each
    state key a state is kept unless another has no more need and no more damage (the dominance rule of
    the module docstring, with the need compared too: the copy never needs more). The search pops the
    least lower bound on the need of any continuation: the need so far, and 1 - (the bound on the final
    net life from the relaxation). The first time that lower bound reaches the best need found, that need
    is the least. Returns it with the number of states expanded; runs compiled (_passages_core.c, the same
    search step for step) when it can, unless `compiled` is False. `steiner`: an entry that comes up is
    first given 1 - (the Steiner bound on the final net life) as its lower bound too, and goes back into
    the queue under it if that is higher (or is dropped); by default only compiled, where it took suite
    level b090-02 from 66 to 30 s and changed little elsewhere."""
    walker = _Walker(sg, 0, sg.useful_mask, closure=True)
    walker.survival = False
    root, _ = walker.initial()
    compiled = compiled and sg.fits_compiled()
    steiner = compiled if steiner is None else steiner
    if compiled:
        return _passages_core.least_need(sg.compiled_graph(), sg.compiled_state(root), deadline, known, steiner)
    fronts: dict[int, list[_NeedEntry]] = {}
    best_need = known
    counter = 0
    expanded = 0
    heap: list[tuple[int, int, int, _NeedEntry]] = []

    step_target: dict[int, int] = {}     # raw consumed set -> the key of its closure
    least = sg.least_damage

    def dominated_one_step_on(state: _State, own_key: int, need: int, damage: int) -> bool:
        """Application 3 with needs: a kept state one enemy step further on, with no more need."""
        consumed, areas = state.consumed, state.areas
        linked = consumed & sg.linking_mask
        doors = (consumed & sg.door_mask).bit_count()
        for f in _bits(state.frontier & ~sg.door_mask):
            target = step_target.get(consumed | 1 << f)
            if target == own_key:
                continue      # the state itself (see _dominated)
            for other in fronts.get(target, ()) if target is not None else ():
                further = other.state
                if (other.need <= need and further.elixirs - further.hp <= damage
                        and walker.reaches_beyond(further, areas, linked, doors)):
                    return True
        return False

    def offer(state: _State, need: int) -> None:
        nonlocal counter, best_need
        bound = walker.bound(state)
        low = max(need, 1 - bound)
        if low >= best_need:
            return
        if state.goal >= 0:
            best_need = need      # the route may end here; going on cannot lower its need
            return
        key = walker.key(state)
        damage = state.elixirs - state.hp
        front = fronts.setdefault(key, [])
        for other in front:
            if other.need <= need and other.state.elixirs - other.state.hp <= damage:
                return
        entry = _NeedEntry(state, key, need, bound)
        kept = [entry]
        for other in front:
            if other.need >= need and other.state.elixirs - other.state.hp >= damage:
                other.alive = False
            else:
                kept.append(other)
        fronts[key] = kept
        counter += 1
        heapq.heappush(heap, (low, -state.consumed.bit_count(), counter, entry))

    offer(root, 1)
    while heap:
        low, depth_order, _, entry = heapq.heappop(heap)
        if low >= best_need:
            break
        if not entry.alive:
            continue
        state, need = entry.state, entry.need
        if dominated_one_step_on(state, entry.key, need, state.elixirs - state.hp):
            continue          # application 3, as in the best-route search
        if steiner and not entry.refined:
            tighter = 1 - walker.steiner_bound(state)
            if tighter > low:
                if tighter < best_need:
                    entry.refined = True
                    counter += 1
                    heapq.heappush(heap, (tighter, depth_order, counter, entry))
                continue
        expanded += 1
        if expanded % _CLOCK_EVERY == 0 and deadline.expired():
            return None, expanded
        # A child's bound is at most this state's less (cost - least damage): see _search.
        least_final_need = 1 - entry.bound
        for b, cost in walker.moves(state):
            child_need = max(need, cost - state.hp + 1)
            if child_need >= best_need or least_final_need + cost - least[b] >= best_need:
                continue
            child = walker.consume(state, b, cost, [])
            step_target[state.consumed | 1 << b] = walker.key(child)
            offer(child, child_need)
    return best_need, expanded


def count_solutions(level: PassagesLevel, deadline: Deadline, cap: int, final_hp: int | None) -> SolutionCount:
    sg = SearchGraph(level)
    if final_hp is None:
        best = search(sg, level.player.hp, deadline)
        if not best.complete:
            return SolutionCount(0, 0, False, False)
        final_hp = best.best_hp
    if final_hp is None:
        return SolutionCount(0, 0, False, True)
    optimal, complete = _winning_signatures(sg, deadline, at_least=final_hp, limit=cap + 1)
    others: dict = {}
    if complete and len(optimal) <= cap:
        others, complete = _winning_signatures(sg, deadline, at_least=1, limit=cap + 1)
    for signature, win in optimal.items():
        others.setdefault(signature, win)
    total = len(others)
    # Out of time, the counts are what was found so far: lower bounds, flagged by complete=False.
    ranked = sorted(others.values(), key=lambda win: -win[0])
    return SolutionCount(min(total, cap), min(len(optimal), cap), total > cap, complete,
                         tuple(route for _, route in ranked[:cap]))


class _WinsFrom:
    """Whether some route goes on from a state of a walker on sg.all_mask without closure (the counting
    walk) to a goal with at least `at_least` hp. The closure of the state dominates it (application 1)
    and is one of its continuations, so both have one answer: the search's from the closure. The
    searches share what fails (_Failures), and what wins is kept per state key: with more hp every route
    stays legal."""

    def __init__(self, sg: SearchGraph, deadline: Deadline, at_least: int, compiled: bool = True) -> None:
        self.sg = sg
        self.deadline = deadline
        self.at_least = at_least
        self.closer = _Walker(sg, sg.level.player.hp, sg.useful_mask, closure=True)
        self.winning_hp: dict[int, int] = {}      # state key -> the least hp from which a search found a win
        # The compiled core's decision searches (the same searches, step for step) keep the failures in the
        # core; they go without the priced bound, as the Python searches here.
        self.decider = (_passages_core.Decider(sg.compiled_graph(), at_least, False)
                        if compiled and sg.fits_compiled() else None)
        self.failures = _Failures(at_least) if self.decider is None else None

    def from_state(self, state: _State) -> bool | None:
        """The answer, or None when time ran out."""
        closed = self.closer.close(replace(state, frontier=state.frontier & self.sg.useful_mask), [])
        key = self.closer.key(closed)
        if self.winning_hp.get(key, closed.hp + 1) <= closed.hp:
            return True
        if self.decider is not None:
            wins = self.decider.decide(self.sg.compiled_state(closed), self.deadline)
        else:
            wins = self._decide_in_python(closed, key)
        if wins:
            self.winning_hp[key] = min(closed.hp, self.winning_hp.get(key, closed.hp))
        return wins

    def _decide_in_python(self, closed: _State, key: int) -> bool | None:
        """The decision search of the compiled Decider, in Python, sharing its failures."""
        failing = self.failures.states.get(key)
        if failing is not None and failing.hp >= closed.hp:
            return False      # the search would say so too, after copying every failure
        found = search(self.sg, self.sg.level.player.hp, self.deadline, first_win=True, at_least=self.at_least,
                       root=closed, failures=self.failures)
        if not found.complete:
            return None
        return found.best_hp is not None


def _winning_signatures(sg: SearchGraph, deadline: Deadline, *, at_least: int, limit: int,
                        compiled: bool = True) -> tuple[dict, bool]:
    """Winning signatures whose best route reaches at least `at_least` hp, up to `limit` of them, each with
    (hp, route), and whether the walk finished (or reached the limit) before the deadline. Depth-first over
    (consumed set, costly fights); no closure, since a free fight taken early can change the stats, hence
    the signature, of later fights. The walk enters only states from which some route still reaches
    `at_least` hp (_WinsFrom), so it never wanders where no signature it counts can be found."""
    walker = _Walker(sg, sg.level.player.hp, sg.all_mask, closure=False)
    may_win = _WinsFrom(sg, deadline, at_least, compiled).from_state
    root, _ = walker.initial()
    wins: dict = {}
    seen = set()
    stack = [(root, frozenset(), ())]
    steps = 0
    while stack:
        steps += 1
        if steps % _CLOCK_EVERY == 0 and deadline.expired():
            return wins, False
        state, fights, route = stack.pop()
        key = (state.consumed, fights)
        if key in seen:
            continue
        seen.add(key)
        if walker.bound(state) < at_least:
            continue
        winnable = may_win(state)
        if winnable is None:
            return wins, False
        if not winnable:
            continue
        if state.goal >= 0 and state.hp >= at_least:
            doors = frozenset(sg.objects[b] for b in _bits(state.consumed & sg.door_mask))
            signature = (doors, fights)
            if signature not in wins or wins[signature][0] < state.hp:
                wins[signature] = (state.hp, route + (("goal", state.goal),))
                if len(wins) >= limit:
                    return wins, True
        for b, cost in walker.moves(state):
            child = walker.consume(state, b, cost)
            obj = sg.objects[b]
            if sg.is_door[b]:
                stack.append((child, fights, route + (("open", obj),)))
            else:
                entry = (obj, state.atk, state.defense)
                stack.append((child, fights | {entry} if cost > 0 else fights, route + (("fight", obj),)))
    return wins, True
