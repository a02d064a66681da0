"""Twisty Little Passages as a CP-SAT model over the order in which the blockers are consumed.

A route consumes some of the blockers (doors and enemies) one at a time, and between two of them takes every
item of every area within reach ("Taking an item never hurts, so an engine may take every item of a
reachable area at once", docs/passages.md). Here each blocker b has a literal used[b] and a position, and
each pair of blockers a literal saying which of the two comes first. What the player holds when consuming b
follows from the pairs: an area is reached before b when it is the start area or some other blocker next to
it comes before b, and the atk, def, keys and elixirs before b are those of the areas reached before b. No
step index appears anywhere, so the model grows with the pairs of blockers, not with steps x blockers x
stats as the time-step model (twisty.encodings.passages_cpsat) does.

The model answers the best final hp and solvability only. Besides the rules it holds dominance rules
(add_new_ground, add_free_fights_first) that leave out routes no better than a route they keep, so it does
not keep every signature: counting uses the time-step model. Nothing here solves or prints; the engine
(twisty.solver.passages_cpsat) builds, solves and decodes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ortools.sat.python import cp_model

from twisty.encodings.passages_cpsat import (
    MAX_MODEL_MAGNITUDE,
    Clock,
    LevelModel,
    LinearTerm,
    Literal,
    TooLarge,
    literal_or,
    negated,
    require_a_goal,
    sum_of,
)
from twisty.rules.passages import PassagesLevel, fight_damage, stat_sums
from twisty.rules.passages_graph import LevelGraph, build_graph

# Rows of the combat tables of all enemies together (one row per atk and def value an enemy can meet):
# CP-SAT expands each table into literals before it can be interrupted, so a level beyond this is refused
# (TooLarge) rather than left to run past its deadline.
MAX_COMBAT_ROWS = 2_000_000


@dataclass
class OrderModel(LevelModel):
    """The CP-SAT model of one level over the order of its blockers, and the variables read back."""

    used: list[cp_model.IntVar] = field(default_factory=list)  # blocker b is consumed by the route
    position: list[cp_model.IntVar] = field(default_factory=list)  # its place in the order
    used_count: cp_model.IntVar | None = None
    first: dict[tuple[int, int], cp_model.IntVar] = field(default_factory=dict)  # (i, j), i < j: i before j
    # Nodes of the region graph (areas 0..A-1, then blockers A..A+B-1) that dominate each node from the
    # start: every way from the start area to the node passes through them.
    dominators: list[frozenset[int]] = field(default_factory=list)
    reached: list[Literal] = field(default_factory=list)  # area a is reached by the end of the route
    damage_of: dict[int, cp_model.IntVar] = field(default_factory=dict)  # life lost fighting enemy b
    goal_reached: list[Literal] = field(default_factory=list)
    final_hp: cp_model.IntVar = field(init=False)  # made by add_final_hp
    # Largest life the player can ever have: a fight costing this much or more is never survivable, so
    # those rows are left out of the combat tables (which keeps every sum of the model within 64 bits).
    life_cap: int = 0
    combat_rows: int = 0  # rows of the combat tables, a measure of CP-SAT's setup work
    before_cache: dict[tuple[int, int], Literal] = field(default_factory=dict)
    threshold_cache: dict[tuple[str, int, int], Literal] = field(default_factory=dict)
    costly_cache: dict[int, Literal] = field(default_factory=dict)

    @property
    def blockers(self) -> range:
        return range(len(self.graph.blockers))

    def node(self, b: int) -> int:
        """Blocker b's node in the region graph of `dominators`."""
        return len(self.graph.areas) + b

    def exempt(self, b: int) -> bool:
        """A blocker worth consuming even with every area around it reached: it touches a goal or another
        blocker, so its cell opens more than its areas."""
        return bool(self.graph.blocker_goals[b] or self.graph.blocker_blockers[b])

    def precedes(self, i: int, j: int) -> Literal:
        """Blocker i is consumed before blocker j (used blockers come before every unused one)."""
        return self.first[(i, j)] if i < j else negated(self.first[(j, i)])

    def before(self, a: int, b: int) -> Literal:
        """Area a is reached before blocker b is consumed: the start area, or another blocker next to a
        comes before b. Read only where b is used, so an area that b dominates is not (the blockers before
        b were all reachable without b). An area that dominates b is, and the model says so (redundant)."""
        if a == self.graph.start_area:
            return True
        if self.node(b) in self.dominators[a]:
            return False
        key = (a, b)
        if key not in self.before_cache:
            others = [self.precedes(o, b) for o in self.graph.area_blockers[a] if o != b]
            lit = self.before_cache[key] = literal_or(self.model, others, f"before_a{a}_b{b}")
            if a in self.dominators[self.node(b)] and lit is not True:
                # Every way to b passes through a.
                self.model.add_bool_or([~self.used[b]] + ([] if lit is False else [lit]))
        return self.before_cache[key]

    def held_before(self, attribute: str, b: int) -> LinearTerm:
        """The player's atk, defense or keys (an Area attribute; hp: the elixirs) just before consuming b:
        the starting value plus the gains of the areas reached before b."""
        start = {"atk": self.level.player.atk, "defense": self.level.player.defense, "keys": self.level.player.keys}
        return start.get(attribute, 0) + sum_of(
            (getattr(area, attribute), self.before(a, b)) for a, area in enumerate(self.graph.areas)
        )


def compute_dominators(graph: LevelGraph) -> list[frozenset[int]]:
    """The dominators of every node of the region graph (areas 0..A-1, then blockers A..A+B-1) from the
    start area, by the iterative data-flow rule dom(n) = {n} + the meet of dom(p) over n's neighbours.
    A node no way reaches keeps every node as a dominator (it is never reached, so anything holds)."""
    areas = len(graph.areas)
    total = areas + len(graph.blockers)
    neighbours: list[list[int]] = [[] for _ in range(total)]
    for b in range(len(graph.blockers)):
        for a in graph.blocker_areas[b]:
            neighbours[a].append(areas + b)
            neighbours[areas + b].append(a)
        for other in graph.blocker_blockers[b]:
            neighbours[areas + b].append(areas + other)
    everything = frozenset(range(total))
    dom = [everything] * total
    dom[graph.start_area] = frozenset({graph.start_area})
    changed = True
    while changed:
        changed = False
        for n in range(total):
            if n == graph.start_area or not neighbours[n]:
                continue
            meet = frozenset.intersection(*(dom[p] for p in neighbours[n])) | {n}
            if meet != dom[n]:
                dom[n] = meet
                changed = True
    return dom


# ------------------------------------------------------------------------------------------------ rules


def add_order(om: OrderModel) -> None:
    """ "Where obstacles are in the way, you must follow the rules for interacting with them": a route
    consumes its blockers one at a time, each at most once. The used blockers take positions 0..used-1 in
    the order of the route; the unused ones the positions after them, in the order of their numbers (they
    are no part of the route, so any fixed order will do and one is chosen)."""
    model = om.model
    n = len(om.graph.blockers)
    om.used = [model.new_bool_var(f"used_b{b}") for b in om.blockers]
    om.position = [model.new_int_var(0, max(n - 1, 0), f"position_b{b}") for b in om.blockers]
    om.used_count = count = model.new_int_var(0, n, "used_count")
    model.add(count == sum(om.used))
    # One blocker per position.
    model.add_all_different(om.position)
    for b in om.blockers:
        # Used blockers first.
        model.add(om.position[b] <= count - 1).only_enforce_if(om.used[b])
        model.add(om.position[b] >= count).only_enforce_if(~om.used[b])
    for i in om.blockers:
        om.check_time()
        for j in range(i + 1, n):
            lit = model.new_bool_var(f"first_b{i}_b{j}")
            om.first[(i, j)] = lit
            # The pair's literal tells which position is smaller.
            model.add(om.position[i] + 1 <= om.position[j]).only_enforce_if(lit)
            model.add(om.position[j] + 1 <= om.position[i]).only_enforce_if(~lit)
            # Unused blockers in the order of their numbers.
            model.add_bool_or([om.used[i], om.used[j], lit])


def add_reachability(om: OrderModel) -> None:
    """ "At any time, you may move anywhere there is an unobstructed path": a door or enemy can be consumed
    only from a reachable cell, so a used blocker touches an area reached before it or a blocker consumed
    before it (whose cell is floor since). A goal cell is never walked through, so goals carry nothing."""
    graph, model = om.graph, om.model
    for b in om.blockers:
        om.check_time()
        near = [om.before(a, b) for a in graph.blocker_areas[b]] + [
            om.precedes(o, b) for o in graph.blocker_blockers[b]
        ]
        if any(lit is True for lit in near):
            continue
        # Next to the reachable part when consumed.
        model.add_bool_or([~om.used[b]] + [lit for lit in near if lit is not False])


def add_dominators(om: OrderModel) -> None:
    """Redundant with add_reachability, stated for the solver: a blocker is consumed only after every
    blocker that dominates it (every way from the start to it passes through them)."""
    model = om.model
    for b in om.blockers:
        for node in om.dominators[om.node(b)]:
            d = node - len(om.graph.areas)
            if 0 <= d != b:
                # The dominating blocker comes first.
                model.add_implication(om.used[b], om.precedes(d, b))


def add_keys(om: OrderModel) -> None:
    """Locked portal: "Requires a key to open. Subtract one key from your inventory to open the locked
    door." Keys come from the start and from the key items of the areas reached ("Add one key to your
    inventory"): a door is opened only with starting keys + keys of the areas reached before it - doors
    opened before it >= 1."""
    doors = om.doors()
    for o in doors:
        om.check_time()
        spent = sum_of((1, om.precedes(other, o)) for other in doors if other != o)
        # A key left to open this door.
        om.model.add(om.held_before("keys", o) - spent >= 1).only_enforce_if(om.used[o])


def add_combat(om: OrderModel) -> None:
    """ "When you choose to engage an enemy, find the row and column in the enemy's damage table
    corresponding to your current ATK and DEF values." Each enemy's table runs over the atk and def values
    the player can hold before it (the start plus the gains of some areas it does not dominate), and its
    stats at the fight are those of the areas reached before it. "If an enemy has DEF equal to or greater
    than your ATK, you cannot harm it (and the path cannot be unblocked)": such rows are not in the table,
    nor are fights no life can survive. An enemy not fought costs nothing."""
    model, graph, player = om.model, om.graph, om.level.player
    for b in om.enemies():
        om.check_time()
        enemy = om.level.things[graph.blockers[b]].enemy
        assert enemy is not None  # b runs over the enemies
        before = [a for a in range(len(graph.areas)) if om.node(b) not in om.dominators[a]]
        per_stat = MAX_COMBAT_ROWS - om.combat_rows
        atk_values = stat_sums(player.atk, (graph.areas[a].atk for a in before), per_stat)
        def_values = stat_sums(player.defense, (graph.areas[a].defense for a in before), per_stat)
        if atk_values is None or def_values is None or len(atk_values) * len(def_values) > per_stat:
            raise TooLarge(f"the combat tables of the enemies have more than {MAX_COMBAT_ROWS:,} rows")
        om.combat_rows += len(atk_values) * len(def_values)
        rows = []
        for atk in atk_values:
            for defense in def_values:
                lost = fight_damage(enemy, atk, defense)
                if lost is not None and lost < om.life_cap:
                    rows.append((1, atk, defense, lost))
        lost_var = model.new_int_var(0, max((row[3] for row in rows), default=0), f"damage_b{b}")
        om.damage_of[b] = lost_var
        if not rows:
            # Never harmed, or never survived: never fought.
            model.add(om.used[b] == 0)
            continue
        fight_atk = model.new_int_var_from_domain(cp_model.Domain.from_values(atk_values), f"fight_atk_b{b}")
        fight_def = model.new_int_var_from_domain(cp_model.Domain.from_values(def_values), f"fight_def_b{b}")
        rows.append((0, atk_values[0], def_values[0], 0))
        # The damage table, and nothing when not fought.
        model.add_allowed_assignments([om.used[b], fight_atk, fight_def, lost_var], rows)
        # The stats at the fight are those held before it.
        model.add(fight_atk == om.held_before("atk", b)).only_enforce_if(om.used[b])
        model.add(fight_def == om.held_before("defense", b)).only_enforce_if(om.used[b])


def add_life(om: OrderModel) -> None:
    """ "If your life points drop to zero or below, you lose": after every fight, starting hp + the elixirs
    of the areas reached before it ("Add the indicated number of points to your life") - the damage of
    every fight up to it >= 1. Between fights life only grows, so this is every moment of the route;
    elixirs behind the enemy just fought only arrive after the fight."""
    model = om.model
    enemies = om.enemies()
    for e in enemies:
        om.check_time()
        earlier: list[LinearTerm] = []
        for other in enemies:
            top = list(om.damage_of[other].proto.domain)[-1]
            if other == e or top == 0:
                continue
            # other's damage when it comes before e (at least: more only tightens the bound below).
            part = model.new_int_var(0, top, f"damage_b{other}_before_b{e}")
            model.add(part >= om.damage_of[other]).only_enforce_if(om.precedes(other, e))
            earlier.append(part)
        # Life stays >= 1 through this fight.
        model.add(om.start_hp + om.held_before("hp", e) - sum(earlier) - om.damage_of[e] >= 1).only_enforce_if(
            om.used[e]
        )


def add_goal(om: OrderModel) -> None:
    """ "If you reach the point marked GOAL with life points remaining ... you have solved the puzzle!" After
    its last blocker the route steps onto a goal next to a reached area or a consumed blocker."""
    graph, model = om.graph, om.model
    om.reached = []
    for a in range(len(graph.areas)):
        around: list[Literal] = [om.used[b] for b in graph.area_blockers[a]]
        om.reached.append(True if a == graph.start_area else literal_or(model, around, f"reached_a{a}"))
    om.goal_reached = require_a_goal(om, om.reached, list(om.used))


def add_final_hp(om: OrderModel, largest_start_hp: int) -> None:
    """passages.md: "`final_hp` is hp at that moment": start + every elixir taken - every damage."""
    top = largest_start_hp + sum(area.hp for area in om.graph.areas)
    om.final_hp = om.model.new_int_var(1, max(1, top), "final_hp")
    elixirs = sum_of((area.hp, om.reached[a]) for a, area in enumerate(om.graph.areas))
    # Life when stepping onto the goal.
    om.model.add(om.final_hp == om.start_hp + elixirs - sum(om.damage_of.values()))


# ------------------------------------------------------------------------------- dominance (best hp only)


def add_new_ground(om: OrderModel) -> None:
    """Dominance for the best hp and solvability: a blocker that touches no goal and no other blocker is
    consumed only while some area next to it is not reached yet. Else consuming it opens nothing new: its
    cell joins areas already joined and holds no item, while it costs a key or life, so the route without
    that step is legal (keys and life only grow) and ends with no less hp."""
    graph, model = om.graph, om.model
    for b in om.blockers:
        if om.exempt(b):
            continue
        unreached = [negated(om.before(a, b)) for a in graph.blocker_areas[b]]
        if any(lit is True for lit in unreached):
            continue
        # Some area around it is new.
        model.add_bool_or([~om.used[b]] + [lit for lit in unreached if lit is not False])


def at_least_before(om: OrderModel, stat: str, threshold: int, b: int) -> Literal:
    """A literal equal to "the player's atk (or defense) just before consuming b is >= threshold"."""
    key = (stat, threshold, b)
    if key not in om.threshold_cache:
        start = om.level.player.atk if stat == "atk" else om.level.player.defense
        if threshold <= start:
            om.threshold_cache[key] = True
        elif threshold > start + sum(getattr(area, stat) for area in om.graph.areas):
            om.threshold_cache[key] = False
        else:
            held = om.held_before(stat, b)
            lit = om.model.new_bool_var(f"{stat}_ge{threshold}_b{b}")
            om.model.add(held >= threshold).only_enforce_if(lit)
            om.model.add(held <= threshold - 1).only_enforce_if(~lit)
            om.threshold_cache[key] = lit
    return om.threshold_cache[key]


def costly(om: OrderModel, b: int) -> Literal:
    """Consuming b costs something: it is a door (a key), or a fight that costs life."""
    if om.kind(b) == "door":
        return True
    if b not in om.costly_cache:
        lit = om.model.new_bool_var(f"costly_b{b}")
        om.model.add(om.damage_of[b] >= 1).only_enforce_if(lit)
        om.model.add(om.damage_of[b] <= 0).only_enforce_if(~lit)
        om.costly_cache[b] = lit
    return om.costly_cache[b]


def add_free_fights_first(om: OrderModel) -> None:
    """Dominance for the best hp and solvability: when, before a costly step (a door, or a fight that
    costs life), an enemy is on offer that the player can fight at no cost and that opens new ground (or
    touches a goal or another blocker), that free fight comes before the costly step.

    Why no best route is lost: rebuild any route step by step, and before each of its costly steps first
    fight every such free enemy on offer (over and over while new ones come on offer), dropping later the
    steps that no longer open anything new (add_new_ground). A free fight leaves life as it was and only
    adds reach, items, keys and stats; damage never grows with atk or def; so every later step stays legal
    at no greater cost, the goal stays reached, and the rebuilt route keeps this rule and add_new_ground
    with no less final hp."""
    model, graph = om.model, om.graph
    for z in om.enemies():
        om.check_time()
        enemy = om.level.things[graph.blockers[z]].enemy
        assert enemy is not None  # z runs over the enemies
        for e in om.blockers:
            if e == z:
                continue
            harmable = at_least_before(om, "atk", enemy.defense + 1, e)
            if harmable is False:
                continue
            unhurt_ways = [at_least_before(om, "defense", enemy.atk, e)]
            if not enemy.first_strike:
                unhurt_ways.append(at_least_before(om, "atk", enemy.defense + enemy.hp, e))
            unhurt = literal_or(model, unhurt_ways, f"unhurt_b{z}_before_b{e}")
            if unhurt is False:
                continue
            near = [om.before(a, e) for a in graph.blocker_areas[z]] + [
                om.precedes(o, e) for o in graph.blocker_blockers[z] if o != e
            ]
            on_offer = literal_or(model, near, f"on_offer_b{z}_before_b{e}")
            if on_offer is False:
                continue
            condition: list[Literal] = [om.used[e], harmable, unhurt, on_offer, costly(om, e)]
            if not om.exempt(z):
                fresh = [negated(om.before(a, e)) for a in graph.blocker_areas[z]]
                new_ground = literal_or(model, fresh, f"new_ground_b{z}_before_b{e}")
                if new_ground is False:
                    continue
                condition.append(new_ground)
            if any(lit is False for lit in condition):
                continue
            # The free fight comes first.
            model.add_bool_and([om.precedes(z, e)]).only_enforce_if([lit for lit in condition if lit is not True])


# ------------------------------------------------------------------------------------------ the model


def build_order_model(
    level: PassagesLevel,
    *,
    start_hp: tuple[int, int] | None = None,
    deadline: Clock | None = None,
) -> OrderModel:
    """The whole model. `start_hp` = (low, high) makes the starting hp a variable in that range (for
    min_start_hp); by default it is the level's. With a `deadline`, raises OutOfTime as soon as it has
    passed; raises TooLarge for a level the model cannot hold exactly."""
    graph = build_graph(level)
    om = OrderModel(level, graph, deadline=deadline)
    om.check_time()
    largest_start_hp = level.player.hp if start_hp is None else start_hp[1]
    om.life_cap = largest_start_hp + sum(area.hp for area in graph.areas)
    if (len(graph.blockers) + 2) * om.life_cap > MAX_MODEL_MAGNITUDE:
        raise TooLarge(
            f"life of up to {om.life_cap:,} over {len(graph.blockers)} blockers does not fit CP-SAT's 64-bit arithmetic"
        )
    om.dominators = compute_dominators(graph)
    om.start_hp = level.player.hp if start_hp is None else om.model.new_int_var(start_hp[0], start_hp[1], "start_hp")
    add_order(om)
    add_reachability(om)
    add_dominators(om)
    add_keys(om)
    add_combat(om)
    add_life(om)
    add_goal(om)
    add_final_hp(om, largest_start_hp)
    add_new_ground(om)
    add_free_fights_first(om)
    om.check_time()
    return om


def decode_decisions(om: OrderModel, solver: cp_model.CpSolver) -> tuple[tuple[str, int], ...]:
    """The route of a solution as decisions: the used blockers in the order of their positions, then a
    reached goal."""
    order = sorted((solver.value(om.position[b]), b) for b in om.blockers if solver.boolean_value(om.used[b]))
    decisions = []
    for _, b in order:
        obj = om.graph.blockers[b]
        decisions.append(("open" if om.kind(b) == "door" else "fight", obj))
    goal = next(
        g for g, lit in enumerate(om.goal_reached) if lit is True or (lit is not False and solver.boolean_value(lit))
    )
    decisions.append(("goal", goal))
    return tuple(decisions)
