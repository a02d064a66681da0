"""Twisty Little Passages as a CP-SAT model over time steps on the region graph.

A route is a sequence of steps t = 1..B (B = number of blockers): at each step the player consumes one
blocker (opens a door or fights an enemy) or does nothing, and "nothing" only happens at the end. Between
steps the player takes every item of every area within reach ("Taking an item never hurts, so an engine may
take every item of a reachable area at once", passages.md), so the player's stats after step s are the
starting stats plus the items of the areas reached by step s, and no item appears as a decision.

State s (s = 0..B) is the situation after s steps; step t acts on state t-1. Reachability uses a fact of
the region graph: a blocker is only consumed when it is next to the reachable part of the map, so the
reachable part is the start area, the consumed blockers and every area next to a consumed blocker.

It keeps every signature, so the engine counts solutions with it; the best route and the least starting
hp come from the smaller model over the order of the blockers (twisty.encodings.passages_cpsat_order).
Nothing here solves or prints; the engine (twisty.solver.passages_cpsat) builds, solves and decodes.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from ortools.sat.python import cp_model, cp_model_helper

from twisty.rules.passages import Enemy, PassagesLevel, Signature, fight_damage, stat_sums
from twisty.rules.passages_graph import LevelGraph, build_graph

# A literal of the model, or a Python bool when the rule fixes it for every route.
Literal = cp_model_helper.Literal | bool
# A linear expression of the model or a plain int (cp_model.LinearExprT also admits numpy integers, which
# the model never holds and which LinearExpr's operators are not typed for).
LinearTerm = cp_model.LinearExpr | int


class Clock(Protocol):
    """What build_model needs of a deadline (twisty.solver.passages_verdict.Deadline)."""

    def expired(self) -> bool: ...


class OutOfTime(Exception):
    """The deadline passed while the model was being built; the engine answers "unknown"."""


class TooLarge(Exception):
    """The level cannot be modelled exactly within CP-SAT's limits (its message says why)."""


# CP-SAT works in 64-bit integers and refuses a model where a linear constraint could overflow them; every
# sum of this model is kept below this bound (a quarter of the 64-bit range, room for the solver's own sums).
MAX_MODEL_MAGNITUDE = 2**61
# Entries of the combat table (blockers x attack values x defence values): each becomes one literal in
# CP-SAT's setup (about 25 microseconds each, see twisty.solver.passages_cpsat) and a few Python objects
# while the model is built. Beyond 20 million the setup alone would take minutes and gigabytes.
MAX_COMBAT_ENTRIES = 20_000_000


@dataclass
class LevelModel:
    """What every CP-SAT model of a level holds: the level, its region graph, the model, the starting hp
    (a number, or a variable for min_start_hp) and the deadline its building watches."""

    level: PassagesLevel
    graph: LevelGraph
    model: cp_model.CpModel = field(default_factory=cp_model.CpModel)
    start_hp: LinearTerm = 0
    deadline: Clock | None = None

    def check_time(self) -> None:
        """Raise OutOfTime once the deadline has passed (building a large level takes seconds)."""
        if self.deadline is not None and self.deadline.expired():
            raise OutOfTime

    def kind(self, b: int) -> str:
        return self.level.things[self.graph.blockers[b]].kind

    def doors(self) -> list[int]:
        return [b for b in range(len(self.graph.blockers)) if self.kind(b) == "door"]

    def enemies(self) -> list[int]:
        return [b for b in range(len(self.graph.blockers)) if self.kind(b) == "enemy"]


@dataclass
class PassagesModel(LevelModel):
    """The CP-SAT model of one level over time steps and the variables the engine reads back."""

    steps: int = 0
    # consume[b][t-1]: blocker b is consumed at step t (t = 1..steps).
    consume: list[list[cp_model.IntVar]] = field(default_factory=list)
    # stop[t-1]: nothing happens at step t.
    stop: list[cp_model.IntVar] = field(default_factory=list)
    # consumed[b][s]: blocker b is gone in state s (s = 0..steps).
    consumed: list[list[Literal]] = field(default_factory=list)
    # reached[a][s]: area a is reachable in state s, so its items are taken.
    reached: list[list[Literal]] = field(default_factory=list)
    # frontier[b][t-1]: blocker b is next to the reachable part of state t-1.
    frontier: list[list[Literal]] = field(default_factory=list)
    chosen: list[cp_model.IntVar] = field(default_factory=list)  # blocker number at step t, steps = stop
    table_index: list[cp_model.IntVar] = field(default_factory=list)  # combat table cell of step t
    damage: list[cp_model.IntVar] = field(default_factory=list)  # life lost at step t
    goal_reached: list[Literal] = field(default_factory=list)
    final_hp: cp_model.IntVar = field(init=False)  # made by add_final_hp
    # fight_code[b]: 0 when enemy b is not fought or costs 0 hp, else 1 + the (atk, def) cell of the fight.
    fight_code: dict[int, cp_model.IntVar] = field(default_factory=dict)
    has_signature: bool = False
    # The atk and def values the player can hold: the starting stat plus the gains of some of the areas
    # (stat_sums), never a range of values, so one +10^9 sword adds one value.
    atk_values: list[int] = field(default_factory=lambda: [0])
    def_values: list[int] = field(default_factory=lambda: [0])
    # Position of a stat value in its list, and the position expressions of each state (made once).
    atk_position_of: dict[int, int] = field(default_factory=dict)
    def_position_of: dict[int, int] = field(default_factory=dict)
    positions: dict[tuple[str, int], LinearTerm] = field(default_factory=dict)
    # Largest life the player can ever have: a fight costing this much or more is never survivable, so its
    # entries are left out of the combat table (which keeps every sum of the model within 64 bits).
    life_cap: int = 0
    code_table: list[int] = field(default_factory=list)  # signature code per combat table index
    # Values of every step's combat table index added up: CP-SAT expands each step's table lookup into one
    # literal per value before it can be interrupted, so this measures the solver's setup work.
    table_values: int = 0

    # ------------------------------------------------------------------------------ derived quantities

    @property
    def atk_count(self) -> int:
        return len(self.atk_values)

    @property
    def def_count(self) -> int:
        return len(self.def_values)

    def area_sum(self, attribute: str, state: int) -> LinearTerm:
        """The total of an item attribute (hp, atk, defense, keys) over the areas reached in `state`."""
        return sum_of((getattr(area, attribute), self.reached[a][state]) for a, area in enumerate(self.graph.areas))

    def atk(self, state: int) -> LinearTerm:
        return self.level.player.atk + self.area_sum("atk", state)

    def defense(self, state: int) -> LinearTerm:
        return self.level.player.defense + self.area_sum("defense", state)

    def doors_opened(self, state: int) -> LinearTerm:
        return sum_of((1, self.consumed[b][state]) for b in self.doors())

    def damage_through(self, step: int) -> LinearTerm:
        return sum(self.damage[:step])

    def cell_code(self, atk: int, defense: int) -> int:
        """1 + the position of (atk, def) in the flattened stats grid; 0 is kept for "no costly fight"."""
        return 1 + self.atk_position_of[atk] * self.def_count + self.def_position_of[defense]

    def stats_of_code(self, code: int) -> tuple[int, int]:
        return self.atk_values[(code - 1) // self.def_count], self.def_values[(code - 1) % self.def_count]

    def position(self, stat: str, state: int) -> LinearTerm:
        """The position of the player's atk (or def) of `state` in atk_values (def_values). Where the
        values are consecutive it is the stat less the smallest; else an element constraint links a
        position variable to the stat."""
        key = (stat, state)
        if key not in self.positions:
            values = self.atk_values if stat == "atk" else self.def_values
            value = self.atk(state) if stat == "atk" else self.defense(state)
            if values[-1] - values[0] + 1 == len(values):
                self.positions[key] = value - values[0]
            else:
                held = self.model.new_int_var_from_domain(cp_model.Domain.from_values(values), f"{stat}_s{state}")
                where = self.model.new_int_var(0, len(values) - 1, f"{stat}_position_s{state}")
                # The stat is one of the values it can take, at that position of their list.
                self.model.add(held == value)
                self.model.add_element(where, values, held)
                self.positions[key] = where
        return self.positions[key]


def sum_of(terms) -> LinearTerm:
    """A linear sum of coefficient x literal, folding literals that are Python bools into the constant."""
    total: LinearTerm = 0
    for coefficient, literal in terms:
        if coefficient == 0 or literal is False:
            continue
        total = total + coefficient * (1 if literal is True else literal)
    return total


def negated(literal: Literal) -> Literal:
    """The negation of a literal; a Python bool stays a bool (~ on a bool would give the int -1 or -2)."""
    return not literal if isinstance(literal, bool) else ~literal


def literal_or(model: cp_model.CpModel, literals: list[Literal], name: str) -> Literal:
    """A literal equal to the disjunction of `literals` (constants folded)."""
    if any(lit is True for lit in literals):
        return True
    variables = [lit for lit in literals if lit is not False]
    if not variables:
        return False
    if len(variables) == 1:
        return variables[0]
    result = model.new_bool_var(name)
    model.add_max_equality(result, variables)
    return result


# ------------------------------------------------------------------------------------------------ rules


def add_steps(pm: PassagesModel) -> None:
    """ "Where obstacles are in the way, you must follow the rules for interacting with them": a route is
    one door or enemy at a time. Each step consumes exactly one blocker or nothing; nothing happens only
    at the end of the route, and no blocker is consumed twice."""
    model, steps = pm.model, pm.steps
    blockers = range(len(pm.graph.blockers))
    pm.consume = [[model.new_bool_var(f"consume_b{b}_t{t}") for t in range(1, steps + 1)] for b in blockers]
    pm.stop = [model.new_bool_var(f"stop_t{t}") for t in range(1, steps + 1)]
    for t in range(steps):
        pm.check_time()
        # One action per step: a blocker or nothing.
        model.add_exactly_one([pm.consume[b][t] for b in blockers] + [pm.stop[t]])
        # Doing nothing ends the route, so stops form a suffix.
        if t + 1 < steps:
            model.add_implication(pm.stop[t], pm.stop[t + 1])
    for b in blockers:
        # A blocker, once consumed, is floor.
        model.add_at_most_one(pm.consume[b])
    # The chosen blocker as a number (steps = nothing), for the combat table lookup.
    pm.chosen = []
    for t in range(steps):
        chosen = model.new_int_var(0, steps, f"chosen_t{t + 1}")
        model.add(chosen == sum(b * pm.consume[b][t] for b in blockers) + steps * pm.stop[t])
        pm.chosen.append(chosen)
    # The consumed set of every state, cumulated step by step.
    pm.consumed = []
    for b in blockers:
        pm.check_time()
        history: list[Literal] = [False]
        for t in range(steps):
            now = model.new_bool_var(f"consumed_b{b}_s{t + 1}")
            model.add(now == sum_of([(1, history[-1])]) + pm.consume[b][t])
            history.append(now)
        pm.consumed.append(history)


def add_reachable_areas(pm: PassagesModel) -> None:
    """ "At any time, you may move anywhere there is an unobstructed path." An area is reachable in state s
    when it is the start area or it touches a blocker consumed by then (that blocker was reachable when it
    was consumed, and a consumed blocker's cell is floor). Exactly that: items come with their areas, so an
    area must not count as reached early (stats too high) nor late (items left behind)."""
    graph, model = pm.graph, pm.model
    pm.reached = []
    for a in range(len(graph.areas)):
        pm.check_time()
        if a == graph.start_area:
            pm.reached.append([True] * (pm.steps + 1))
            continue
        history = [
            literal_or(model, [pm.consumed[b][s] for b in graph.area_blockers[a]], f"reached_a{a}_s{s}")
            for s in range(pm.steps + 1)
        ]
        pm.reached.append(history)


def add_frontier(pm: PassagesModel) -> None:
    """ "Where obstacles are in the way ..." a door or enemy can only be interacted with from a reachable
    cell: blocker b is consumable at step t only when it touches an area reached in state t-1 or a blocker
    consumed by then. A goal cell is never walked through, so goals do not carry reachability."""
    graph, model = pm.graph, pm.model
    pm.frontier = []
    for b in range(len(graph.blockers)):
        pm.check_time()
        row = []
        for t in range(1, pm.steps + 1):
            touching = [pm.reached[a][t - 1] for a in graph.blocker_areas[b]] + [
                pm.consumed[other][t - 1] for other in graph.blocker_blockers[b]
            ]
            near = literal_or(model, touching, f"frontier_b{b}_t{t}")
            # Consumed only when next to the reachable part of the map.
            if near is False:
                model.add(pm.consume[b][t - 1] == 0)
            elif near is not True:
                model.add_implication(pm.consume[b][t - 1], near)
            row.append(near)
        pm.frontier.append(row)


def add_key_budget(pm: PassagesModel) -> None:
    """Door: "Requires a key to open. Subtract one key from your inventory to open the locked door." Keys
    come from the start and from the key items of reached areas ("Add one key to your inventory"). With keys
    counted before step s, a door opened at step s needs one left: doors opened by state s <= starting keys
    + keys of areas reached in state s-1 (by induction this covers every earlier step too)."""
    if not pm.doors():
        return
    for s in range(1, pm.steps + 1):
        pm.check_time()
        # Never more doors opened than keys picked up before the last opening.
        pm.model.add(pm.doors_opened(s) <= pm.level.player.keys + pm.area_sum("keys", s - 1))


def combat_table(pm: PassagesModel) -> tuple[list[int], list[int], list[int]]:
    """The flattened damage table of every blocker over the stats the player can have.

    Entry (blocker b, atk value i, def value j) sits at index (b * atk_count + i) * def_count + j; the last
    block (b = steps) is "nothing happens". Returns the allowed indices, the damage per index and the
    signature code per index (the (atk, def) cell when the fight costs hp, else 0). Left out of the allowed
    indices: an enemy that "cannot be harmed" (that fight is impossible), and a fight that costs at least
    pm.life_cap, more life than the player can ever have ("If your life points drop to zero or below, you
    lose"), so no damage in the model reaches the life cap."""
    level, graph = pm.level, pm.graph
    allowed: list[int] = []
    damage: list[int] = []
    codes: list[int] = []
    cells = [(a, d) for a in pm.atk_values for d in pm.def_values]
    cell_codes = [pm.cell_code(a, d) for a, d in cells]
    losses_of: dict[Enemy, list[int | None]] = {}
    for b in range(pm.steps + 1):
        pm.check_time()
        thing = level.things[graph.blockers[b]] if b < len(graph.blockers) else None
        losses: list[int | None]
        if thing is None or thing.enemy is None:
            losses = [0] * len(cells)
        else:
            if thing.enemy not in losses_of:
                losses_of[thing.enemy] = [_survivable(fight_damage(thing.enemy, a, d), pm.life_cap) for a, d in cells]
            losses = losses_of[thing.enemy]
        base = len(damage)
        allowed.extend(base + k for k, lost in enumerate(losses) if lost is not None)
        damage.extend(lost or 0 for lost in losses)
        codes.extend(code if lost else 0 for code, lost in zip(cell_codes, losses, strict=True))
    return allowed, damage, codes


def _survivable(lost: int | None, life_cap: int) -> int | None:
    return None if lost is None or lost >= life_cap else lost


def add_combat(pm: PassagesModel) -> None:
    """ "When you choose to engage an enemy, find the row and column in the enemy's damage table
    corresponding to your current ATK and DEF values." The damage of step t is the table entry of the
    chosen blocker at the stats of state t-1 (doors and "nothing" cost 0); "If an enemy has DEF equal to or
    greater than your ATK, you cannot harm it (and the path cannot be unblocked)": those entries are not in
    the index's domain, nor are fights no life can survive."""
    model = pm.model
    allowed, damage_table, code_table = combat_table(pm)
    pm.code_table = code_table
    block = pm.atk_count * pm.def_count
    top_damage = max((damage_table[index] for index in allowed), default=0)
    pm.damage, pm.table_index = [], []
    pm.table_values = pm.steps * len(allowed)
    for t in range(1, pm.steps + 1):
        pm.check_time()
        index = model.new_int_var_from_domain(cp_model.Domain.from_values(allowed), f"table_index_t{t}")
        # The table cell of (chosen blocker, atk, def) before the step.
        model.add(
            index == pm.chosen[t - 1] * block + pm.position("atk", t - 1) * pm.def_count + pm.position("def", t - 1)
        )
        lost = model.new_int_var(0, top_damage, f"damage_t{t}")
        # Life lost at this step, read from the enemy's damage table.
        model.add_element(index, damage_table, lost)
        pm.table_index.append(index)
        pm.damage.append(lost)


def add_signature(pm: PassagesModel) -> None:
    """passages.md: "A route's signature is: the set of doors it opens, plus, for each enemy it fights that
    costs it more than 0 hp, that enemy together with the player's (atk, def) at the fight." Doors opened
    are the consumed doors of the last state; per enemy, fight_code is the (atk, def) cell of its fight
    when that fight costs hp, else 0."""
    model = pm.model
    code_table = pm.code_table
    block = pm.atk_count * pm.def_count
    codes = []
    for t, index in enumerate(pm.table_index, start=1):
        code = model.new_int_var(0, block, f"fight_code_t{t}")
        # The (atk, def) cell of this step's fight when it costs hp.
        model.add_element(index, code_table, code)
        codes.append(code)
    for b in pm.enemies():
        pm.check_time()
        if not any(code_table[b * block : (b + 1) * block]):
            continue  # never costs hp at any stats, so never part of a signature
        fight = model.new_int_var(0, block, f"fight_code_b{b}")
        for t in range(pm.steps):
            # The enemy's entry is the code of the step that fights it ...
            model.add(fight == codes[t]).only_enforce_if(pm.consume[b][t])
        # ... and nothing when it is never fought.
        model.add(fight == 0).only_enforce_if(negated(pm.consumed[b][pm.steps]))
        pm.fight_code[b] = fight
    pm.has_signature = True


def add_life(pm: PassagesModel) -> None:
    """ "If your life points drop to zero or below, you lose": after every step, life = starting hp +
    elixirs of the areas reached before the step ("Add the indicated number of points to your life") - all
    damage so far >= 1. Elixirs behind the blocker just fought only arrive after the fight."""
    for t in range(1, pm.steps + 1):
        pm.check_time()
        # Life stays >= 1 through every fight.
        pm.model.add(pm.start_hp + pm.area_sum("hp", t - 1) - pm.damage_through(t) >= 1)


def add_goal(pm: PassagesModel) -> None:
    """ "If you reach the point marked GOAL with life points remaining ... you have solved the puzzle!" At
    the end of the route some goal touches a reached area or a consumed blocker."""
    graph = pm.graph
    end = pm.steps
    areas = [pm.reached[a][end] for a in range(len(graph.areas))]
    pm.goal_reached = require_a_goal(pm, areas, [pm.consumed[b][end] for b in range(len(graph.blockers))])


def require_a_goal(lm: LevelModel, reached: list[Literal], consumed: list[Literal]) -> list[Literal]:
    """A literal per goal, true when the goal touches a reached area or a consumed blocker at the end of the
    route, and the constraint that one of them is true (an empty clause when none can be)."""
    graph = lm.graph
    goals = []
    for g in range(len(lm.level.goals)):
        touching = [reached[a] for a in range(len(graph.areas)) if g in graph.area_goals[a]] + [
            consumed[b] for b in range(len(graph.blockers)) if g in graph.blocker_goals[b]
        ]
        goals.append(literal_or(lm.model, touching, f"goal_{g}"))
    if not any(lit is True for lit in goals):
        # Some goal is reached at the end of the route.
        lm.model.add_bool_or([lit for lit in goals if lit is not False])
    return goals


def add_final_hp(pm: PassagesModel, largest_start_hp: int) -> None:
    """passages.md: "`final_hp` is hp at that moment": start + every elixir taken - every damage."""
    top = largest_start_hp + sum(area.hp for area in pm.graph.areas)
    pm.final_hp = pm.model.new_int_var(1, max(1, top), "final_hp")
    # Life when stepping onto the goal.
    pm.model.add(pm.final_hp == pm.start_hp + pm.area_sum("hp", pm.steps) - pm.damage_through(pm.steps))


def add_symmetry_breaking(pm: PassagesModel) -> None:
    """Many orders of the same steps are the same solution. Forbid blocker p at step t followed by a
    smaller-numbered blocker q at step t+1 when q could have gone first with nothing changed: q was already
    next to the reachable part, atk and def stay the same over both steps, the keys held before step t
    cover both steps' doors and life after both steps stays >= 1 without the elixirs p brings. Then the
    swapped order is a legal route with the same fights at the same stats, the same signature and the same
    final hp, and swapping such pairs strictly lowers the number of out-of-order pairs; so every signature
    keeps a route, at its best final hp."""
    model = pm.model
    for t in range(1, pm.steps):
        pm.check_time()
        # atk and def unchanged from state t-1 to state t+1 (they never decrease).
        same_stats = model.new_bool_var(f"same_stats_t{t}")
        growth = pm.atk(t + 1) - pm.atk(t - 1) + pm.defense(t + 1) - pm.defense(t - 1)
        model.add(growth == 0).only_enforce_if(same_stats)
        model.add(growth >= 1).only_enforce_if(~same_stats)
        # Keys held before step t cover the doors of steps t and t+1.
        keys_cover = model.new_bool_var(f"keys_cover_t{t}")
        spare_keys = pm.level.player.keys + pm.area_sum("keys", t - 1) - pm.doors_opened(t + 1)
        model.add(spare_keys >= 0).only_enforce_if(keys_cover)
        model.add(spare_keys <= -1).only_enforce_if(~keys_cover)
        # Life survives both steps on the elixirs held before step t.
        life_covers = model.new_bool_var(f"life_covers_t{t}")
        spare_life = pm.start_hp + pm.area_sum("hp", t - 1) - pm.damage_through(t + 1)
        model.add(spare_life >= 1).only_enforce_if(life_covers)
        model.add(spare_life <= 0).only_enforce_if(~life_covers)
        for q in range(len(pm.graph.blockers)):
            near = pm.frontier[q][t - 1]
            if near is False:
                continue
            condition: list[Literal] = [pm.consume[q][t], same_stats, keys_cover, life_covers]
            if near is not True:
                condition.append(near)
            # An in-order swap exists: the step before q takes a smaller blocker than q.
            model.add(pm.chosen[t - 1] < q).only_enforce_if(condition)


def build_model(
    level: PassagesLevel,
    *,
    start_hp: tuple[int, int] | None = None,
    signature: bool = True,
    symmetry_breaking: bool = True,
    deadline: Clock | None = None,
) -> PassagesModel:
    """The whole model. `start_hp` = (low, high) makes the starting hp a variable in that range (for
    min_start_hp); by default it is the level's. `signature` adds the variables that read and block
    signatures (only counting needs them). With a `deadline`, raises OutOfTime as soon as it has
    passed; raises TooLarge for a level the model cannot hold exactly (see limit_model)."""
    graph = build_graph(level)
    pm = PassagesModel(level, graph, deadline=deadline)
    pm.check_time()
    pm.steps = len(graph.blockers)
    largest_start_hp = level.player.hp if start_hp is None else start_hp[1]
    limit_model(pm, largest_start_hp)
    if start_hp is None:
        pm.start_hp = level.player.hp
    else:
        pm.start_hp = pm.model.new_int_var(start_hp[0], start_hp[1], "start_hp")
    add_steps(pm)
    add_reachable_areas(pm)
    add_frontier(pm)
    add_key_budget(pm)
    add_combat(pm)
    if signature:
        add_signature(pm)
    add_life(pm)
    add_goal(pm)
    add_final_hp(pm, largest_start_hp)
    if symmetry_breaking:
        add_symmetry_breaking(pm)
    pm.check_time()
    return pm


def limit_model(pm: PassagesModel, largest_start_hp: int) -> None:
    """The stat values and the life cap of the model, or TooLarge when the level cannot be modelled exactly.

    Every sum of the model is bounded by (steps + 2) x the life cap: life is the starting hp plus the
    elixirs less the damage of each step, and no step's damage reaches the life cap (combat_table). With
    stats and elixirs of up to 10^9 that stays far inside 64 bits; what cannot is a starting hp range of
    min_start_hp that ends beyond about 10^16 (enemies that cost 10^18 life). The combat table grows with
    the atk values times the def values the player can hold, at most MAX_COMBAT_ENTRIES in all."""
    graph, player = pm.graph, pm.level.player
    pm.life_cap = largest_start_hp + sum(area.hp for area in graph.areas)
    if (pm.steps + 2) * pm.life_cap > MAX_MODEL_MAGNITUDE:
        raise TooLarge(f"life of up to {pm.life_cap:,} over {pm.steps} steps does not fit CP-SAT's 64-bit arithmetic")
    per_stat = MAX_COMBAT_ENTRIES // (pm.steps + 1)
    atk_values = stat_sums(player.atk, (area.atk for area in graph.areas), per_stat)
    def_values = stat_sums(player.defense, (area.defense for area in graph.areas), per_stat)
    if (
        atk_values is None
        or def_values is None
        or (pm.steps + 1) * len(atk_values) * len(def_values) > MAX_COMBAT_ENTRIES
    ):
        raise TooLarge(
            f"the combat table of {pm.steps} blockers over every atk and def the player can hold "
            f"has more than {MAX_COMBAT_ENTRIES:,} entries"
        )
    pm.atk_values, pm.def_values = atk_values, def_values
    pm.atk_position_of = {value: i for i, value in enumerate(atk_values)}
    pm.def_position_of = {value: i for i, value in enumerate(def_values)}


# ------------------------------------------------------------------------------------ reading solutions


def decode_decisions(pm: PassagesModel, solver: cp_model.CpSolver) -> tuple[tuple[str, int], ...]:
    """The route of a solution as decisions: the blockers step by step, then a reached goal."""
    decisions = []
    for t in range(pm.steps):
        for b, row in enumerate(pm.consume):
            if solver.boolean_value(row[t]):
                obj = pm.graph.blockers[b]
                decisions.append(("open" if pm.level.things[obj].kind == "door" else "fight", obj))
    goal = next(
        g for g, lit in enumerate(pm.goal_reached) if lit is True or (lit is not False and solver.boolean_value(lit))
    )
    decisions.append(("goal", goal))
    return tuple(decisions)


def decode_signature(pm: PassagesModel, solver: cp_model.CpSolver) -> Signature:
    """passages.md: the doors opened, and each enemy fought at a cost with the player's (atk, def)."""
    assert pm.has_signature, "built without signature variables"
    doors = frozenset(pm.graph.blockers[b] for b in pm.doors() if solver.boolean_value(pm.consumed[b][pm.steps]))
    fights = set()
    for b, code in pm.fight_code.items():
        value = solver.value(code)
        if value:
            fights.add((pm.graph.blockers[b], *pm.stats_of_code(value)))
    return doors, frozenset(fights)


def block_signature(pm: PassagesModel, signature: Signature) -> None:
    """Exclude every route with this signature: some door differs, or some costly enemy's entry differs."""
    doors, fights = signature
    model = pm.model
    differs: list[Literal] = []
    number_of = pm.graph.blocker_of_object
    for b in pm.doors():
        opened = pm.consumed[b][pm.steps]
        # A door opened by the signature left shut, or the other way round.
        differs.append(negated(opened) if pm.graph.blockers[b] in doors else opened)
    entry_of = {number_of[obj]: pm.cell_code(atk, defense) for obj, atk, defense in fights}
    for b, code in pm.fight_code.items():
        other = model.new_bool_var(f"differs_b{b}")
        # This enemy's entry (or its absence) differs from the signature's.
        model.add(code != entry_of.get(b, 0)).only_enforce_if(other)
        differs.append(other)
    model.add_bool_or(differs)
