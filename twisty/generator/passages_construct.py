"""Route-first shaping of large passages levels: the intended route first, then one change per competing route.

The sampling pipeline (passages_shape, passages_traps) tightens a draft around whatever its best route
turns out to be, and asks for every signature after each change; from about 50 blockers that costs minutes a
level. This is the way of cspuz and Simon Tatham's generators instead: the solution is fixed first, and
the solver is asked only for a counterexample, which the next change removes.

1. The intended route is the one passages_draft.walk_route drew (its enemies have stats drawn against the
   player who meets them there), or the draft's best route when that ends with more life
   (best_route_first); every other enemy stays sealed (no player can harm it) while the level takes shape,
   so the only rivals are routes through the intended route's own blockers and the doors.
2. The starting life is the least with which the intended route wins; when it then ends with more than
   1 life, the boss (its last fight) is made to cost at least that much more, the least such change (a
   boss that costs k more than that still leaves 1 life, from k more starting life).
3. The engine's counting walks, with the intended route as the signature already known
   (`generator_oracle.others`), name up to WITNESSES_PER_ROUND other winning signatures: the witnesses
   against uniqueness. Each witness is removed by one change (remove_witness), in this order:
   - an enemy the witness fights, at other stats than the intended route or not at all, strengthened (hp,
     atk, def each the same or more: passages_bestiary.stronger_enemy) to cost the witness all its spare
     life, while the intended route's fight (if any) costs exactly what it did;
   - an enemy only the witness fights sealed again; a door only the witness opens replaced by a sealed
     guard (so the count of blockers stays what was asked): every route through it is gone at once;
   - failing those, a shared enemy made to cost the witness more at its stats (it comes back weaker).
   None of these changes makes any fight cheaper for anyone or costs the intended route anything, so a
   witness removed stays removed and the intended route keeps its life to the point.
4. When no witness of a round can be removed so (each skips a costly fight of the intended route, or no
   strengthening within the spans separates the two at a shared fight), the best of them (most life
   left) becomes the intended route, with stats drawn for it (refit), and step 2 again.
5. When no witness is left, the intended route is the one solution and ends with 1 life. Then traps
   (set_traps): every sealed enemy gets the weakest (or, for the share that is not to be a trap, the
   strongest) rung of its trap ladder with which no witness appears, one question per rung (trap_witness:
   whether some winning route fights the enemy, when it costs life at every stats; else a counting walk;
   rungs the last witness shows too weak are skipped), else deadly stats. With one life less nothing wins (a route
   that wins then wins now, and it is not the intended one, which ends with 0). passages_verify proves all
   of it again with the engine before the level is written.

Every step is deterministic: the witnesses come from single-threaded exact searches in a fixed order,
changes are chosen in sorted order, and work is bounded by MAX_ROUNDS.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from twisty.generator.passages_bestiary import (
    BESTIARY,
    deadly,
    draw_enemy,
    is_sealed,
    sealed,
    stronger_enemy,
    trap_ladder,
)
from twisty.generator.passages_draft import Draft, set_enemy
from twisty.generator.passages_explore import Explorer
from twisty.generator.passages_maze import Cell
from twisty.limits import Deadline
from twisty.rules.passages import Decision, Enemy, PassagesLevel, RouteError, Thing, fight_damage, replay

# Rounds of witnesses per draft, and witnesses asked for in one round: counts, never time.
MAX_ROUNDS = 60
WITNESSES_PER_ROUND = 16
# The life the intended route is first replayed with, far above anything a level needs.
AMPLE_LIFE = 10**6
# The search for a better intended route than the drawn one stops after this many looks at the clock (256
# expansions each: a count, never time) with the best route it has by then (best_route_first).
BEST_ROUTE_LOOKS = 40
# How many times a better route than the intended one becomes the intended route, with stats drawn for it,
# before the rounds (best_route_first).
REFITS = 3
# The breed of the guard that replaces a door only a witness opens.
GUARD_BREED = BESTIARY[-1]


@dataclass(frozen=True)
class Fights:
    """What a route does, by cell: the player's (atk, def) and the damage at every fight (free ones too),
    the doors it opens, and its final life."""

    at: dict[Cell, tuple[int, int, int]]
    doors: frozenset[Cell]
    final_hp: int


def route_decisions(level: PassagesLevel, cells: list[Cell]) -> tuple[Decision, ...]:
    """The decisions of the route that consumes the blockers at `cells` in order, then reaches the goal."""
    index = {thing.cell: i for i, thing in enumerate(level.things)}
    steps = tuple(("open" if level.things[index[c]].kind == "door" else "fight", index[c]) for c in cells)
    return steps + (("goal", 0),)


def fights_of(level: PassagesLevel, decisions: tuple[Decision, ...]) -> Fights:
    """The fights and doors of a route, replayed by the rules."""
    replayed = replay(level, decisions)
    at: dict[Cell, tuple[int, int, int]] = {}
    doors = set()
    for step in replayed.steps:
        if step.action == "fight":
            at[step.at] = (step.stats.atk, step.stats.defense, step.damage)
        elif step.action == "open":
            doors.add(step.at)
    return Fights(at, frozenset(doors), replayed.final_hp)


def least_life(level: PassagesLevel, decisions: tuple[Decision, ...]) -> tuple[int, int] | None:
    """The least starting life with which the route wins, and the life it ends with then; None when the
    route breaks a rule whatever its life (a fight that cannot be won)."""
    try:
        replayed = replay(level.with_start_hp(AMPLE_LIFE), decisions)
    except RouteError:
        return None
    # A fight is allowed only while its damage is below the life before it: each fight asks the starting
    # life to exceed what the route has lost by then, less its elixirs.
    least = max(1, 1 + AMPLE_LIFE - replayed.final_hp)
    for step in replayed.steps:
        if step.action == "fight":
            before = step.stats.hp + step.damage
            least = max(least, step.damage + 1 + AMPLE_LIFE - before)
    return least, least - AMPLE_LIFE + replayed.final_hp


def tighten_route(draft: Draft, cells: list[Cell]) -> int | None:
    """The least starting life of the intended route, after making the boss (its last fight) cost the
    route all the life it would have left beyond 1; None when the route cannot win or the boss cannot be
    shaped so."""
    level = draft.level(AMPLE_LIFE)
    decisions = route_decisions(level, cells)
    found = least_life(level, decisions)
    if found is None:
        return None
    start_hp, final_hp = found
    if final_hp == 1:
        return start_hp
    # The boss is fought last, with final_hp + its damage life: costing final_hp - 1 more keeps it allowed.
    atk, defense, now = fights_of(level.with_start_hp(start_hp), decisions).at[draft.boss]
    boss = draft.things[draft.boss].enemy
    assert boss is not None
    # At least that much more: a boss that costs k more still leaves 1 life, from k more starting life.
    target = now + final_hp - 1

    def costs_enough(candidate: Enemy) -> bool:
        paid = fight_damage(candidate, atk, defense)
        return paid is not None and paid >= target

    stronger = stronger_enemy(
        boss, costs_enough, hp_span=3 * max(1, atk), atk_span=final_hp + 1, costs_at_least=(atk, defense, target)
    )
    if stronger is None:
        return None
    set_enemy(draft, draft.boss, stronger)
    found = least_life(draft.level(AMPLE_LIFE), decisions)
    return found[0] if found is not None and found[1] == 1 else None


def other_wins(
    oracle: Any, level: PassagesLevel, decisions: tuple[Decision, ...], cap: int, deadline: Deadline
) -> list[tuple[int, tuple[Decision, ...]]]:
    """The oracle's witnesses against the route `decisions` being the one solution of `level` (up to `cap`,
    each with its final life); an answer cut short by the deadline stops the level (LimitReached)."""
    try:
        return list(oracle.others(level, level.player.hp, decisions, cap, deadline))
    except MemoryError:
        deadline.check()
        raise


def first_met(
    level: PassagesLevel, decisions: tuple[Decision, ...]
) -> tuple[dict[Cell, tuple[int, int]], tuple[int, int]]:
    """The (atk, def) of the player who first meets each blocker along the route, by cell, and the route's
    last (atk, def) (for those it never meets)."""
    explorer = Explorer(level, budget=10**12)
    number_to_cell = [level.things[obj].cell for obj in explorer.objects]
    met: dict[Cell, tuple[int, int]] = {}
    states = explorer.replay_states(decisions, level.player.hp)
    for mask, _ in states:
        here = explorer.info(mask)
        for b in here.frontier:
            met.setdefault(number_to_cell[b], (here.atk, here.defense))
    final = explorer.info(states[-1][0])
    return met, (final.atk, final.defense)


def set_traps(
    draft: Draft,
    rng: random.Random,
    start_hp: int,
    decisions: tuple[Decision, ...],
    share: float,
    deadline: Deadline,
    oracle: Any,
) -> None:
    """Give every enemy still sealed (the intended route never fights one) real stats: a `share` of them
    the weakest rung of their trap ladder (drawn against the player who first meets them along the route)
    that keeps the intended route the one solution, the others the strongest rung that does; a deadly
    enemy when no rung does. One question per rung tried: is there another winning signature?
    (trap_witness). The intended route fights none of them, so it keeps its life to the point; a rung whose
    witness would still have life left after the fight at the witness's stats is skipped without asking."""
    level = draft.level(start_hp)
    met, last = first_met(level, decisions)
    best = strongest(level)
    cells = sorted(cell for cell, thing in draft.things.items() if thing.kind == "enemy" and is_sealed(thing.enemy))
    rng.shuffle(cells)
    for cell in cells:
        deadline.check()
        atk, defense = met.get(cell, last)
        natural = draw_enemy(rng, draft.notes["breeds"][cell], atk, defense)
        ladder = trap_ladder(natural)
        if rng.random() >= share:
            ladder.reverse()
        chosen = deadly(natural, *best)
        beaten: list[tuple[int, int, int]] = []  # (atk, def, damage it could pay) of witnesses at this cell
        for candidate in ladder:
            if any(not _stops(candidate, *witness) for witness in beaten):
                continue
            set_enemy(draft, cell, candidate)
            witnesses = trap_witness(oracle, draft.level(start_hp), decisions, cell, best, deadline)
            if not witnesses:
                chosen = candidate
                break
            at = fights_of(draft.level(start_hp), witnesses[0][1]).at.get(cell)
            if at is not None:
                beaten.append((at[0], at[1], at[2] + witnesses[0][0]))
        set_enemy(draft, cell, chosen)


def trap_witness(
    oracle: Any,
    level: PassagesLevel,
    decisions: tuple[Decision, ...],
    cell: Cell,
    best: tuple[int, int, int],
    deadline: Deadline,
) -> list[tuple[int, tuple[Decision, ...]]]:
    """A winning route of another signature than the intended route `decisions`, now that the enemy at
    `cell` has its candidate stats, with its final life (empty: there is none). The intended route was the
    one solution before, and the other routes that do not fight this enemy are what they were, so any
    other solution fights it. When it costs life even at the `best` stats a player can have (so at every
    stats), every route that fights it has it in its signature, which the intended route has not: the
    question is then only whether some route through it wins, one search of the engine's
    (`route_through`) instead of a counting walk. Else (it could be a free fight, which a signature leaves
    out), the counting engine's walk answers."""
    obj = level.thing_at[cell]
    enemy = level.things[obj].enemy
    assert enemy is not None
    damage = fight_damage(enemy, best[0], best[1])
    if damage is None:
        return []  # no player of the level can harm it: no route fights it
    if damage > 0 and hasattr(oracle, "route_through"):
        try:
            found = oracle.route_through(level, level.player.hp, obj, deadline)
        except MemoryError:
            deadline.check()
            raise
        return [] if found is None else [found]
    return other_wins(oracle, level, decisions, 1, deadline)


def _stops(enemy: Enemy, atk: int, defense: int, could_pay: int) -> bool:
    """Whether `enemy` costs a player with (atk, def) at least `could_pay` (or cannot be beaten by it)."""
    paid = fight_damage(enemy, atk, defense)
    return paid is None or paid >= could_pay


def costlier(
    enemy: Enemy,
    atk: int,
    defense: int,
    damage: int,
    spare: int,
    keep: Callable[[Enemy], bool],
    at_most_spare: bool = False,
    pays_exactly: tuple[int, int, int | None] | None = None,
) -> Enemy | None:
    """The smallest strengthening of `enemy` that `keep` accepts and that costs a player with (atk,
    defense) at least `spare` more than `damage` (a fight it cannot win counts as costing without end);
    failing that (unless `at_most_spare`), one that costs it more at all. `pays_exactly`: what `keep` asks,
    in numbers, when it asks that another player pay the same (stronger_enemy)."""

    def costs(at_least: int) -> Callable[[Enemy], bool]:
        def accept(candidate: Enemy) -> bool:
            paid = fight_damage(candidate, atk, defense)
            return (paid is None or paid >= at_least) and keep(candidate)

        return accept

    def stronger(at_least: int) -> Enemy | None:
        return stronger_enemy(
            enemy, costs(at_least), costs_at_least=(atk, defense, at_least), pays_exactly=pays_exactly
        )

    return stronger(damage + spare) or (None if at_most_spare else stronger(damage + 1))


def pays_the_same(atk: int, defense: int, paid: int | None) -> Callable[[Enemy], bool]:
    """Whether an enemy costs a player with (atk, def) exactly `paid` (None: cannot be beaten)."""

    def accept(candidate: Enemy) -> bool:
        return fight_damage(candidate, atk, defense) == paid

    return accept


def anything(candidate: Enemy) -> bool:
    return True


def remove_witness(draft: Draft, mine: Fights, theirs: Fights) -> bool:
    """Change one blocker so that the witness `theirs` costs more, the intended route `mine` exactly the
    same, and no fight less for anyone (module docstring, step 3). False when no such change exists.

    In order of preference: a strengthening that costs the witness all its spare life (it then loses, and
    the enemy may stay a trap); else an enemy only the witness fights sealed again, or a door only it opens
    replaced by a sealed guard (the witness, and every route through that blocker, is gone at once; set_traps
    gives them stats at the end); else an
    enemy both fight at other stats made to cost the witness more (it comes back weaker, or not at all)."""
    spare = theirs.final_hp  # what the witness must lose more to lose
    shared: list[tuple[Cell, Enemy, int, int, int, Callable[[Enemy], bool], tuple[int, int, int | None]]] = []
    for cell in sorted(theirs.at):
        atk, defense, _ = theirs.at[cell]
        enemy = draft.things[cell].enemy
        assert enemy is not None
        damage = fight_damage(enemy, atk, defense)
        if damage is None:
            continue
        same: tuple[int, int, int | None] | None = None
        if cell in mine.at:
            my_atk, my_defense, _ = mine.at[cell]
            if (my_atk, my_defense) == (atk, defense):
                continue
            same = (my_atk, my_defense, fight_damage(enemy, my_atk, my_defense))
            keep = pays_the_same(*same)
            shared.append((cell, enemy, atk, defense, damage, keep, same))
        else:
            keep = anything
        stronger = costlier(enemy, atk, defense, damage, spare, keep, at_most_spare=True, pays_exactly=same)
        if stronger is not None:
            set_enemy(draft, cell, stronger)
            return True
    for cell in sorted(set(theirs.at) - set(mine.at)):
        enemy = draft.things[cell].enemy
        assert enemy is not None
        set_enemy(draft, cell, sealed(draft.notes["breeds"][cell]))
        return True
    for cell in sorted(theirs.doors - mine.doors):
        draft.things[cell] = Thing("enemy", "e", cell, enemy=sealed(GUARD_BREED))
        draft.notes["breeds"][cell] = GUARD_BREED
        return True
    for cell, enemy, atk, defense, damage, keep, same in shared:
        stronger = costlier(enemy, atk, defense, damage, spare, keep, pays_exactly=same)
        if stronger is not None:
            set_enemy(draft, cell, stronger)
            return True
    return False


def strongest(level: PassagesLevel) -> tuple[int, int, int]:
    """The best atk and def a player of the level can have (every piece of equipment), and all its life."""
    things = level.things
    return (
        level.player.atk + sum(t.atk for t in things if t.kind == "equipment"),
        level.player.defense + sum(t.defense for t in things if t.kind == "equipment"),
        level.player.hp + sum(t.hp for t in things if t.kind == "elixir"),
    )


def asks_enough(level: PassagesLevel, decisions: tuple[Decision, ...], boss: Cell) -> bool:
    """A solution worth solving (as passages_shape.asks_enough): the boss hurts, and so do at least a
    fifth of the blockers' fights. (The repair pipeline asks a quarter of the drafts it repairs; route
    first shapes the draft's best route, which takes no detour: at 120 blockers the best routes of drafts
    fight 12 to 33 enemies, and a quarter, 30, dropped nearly every draft.)"""
    costly = {cell for cell, (_, _, damage) in fights_of(level, decisions).at.items() if damage > 0}
    enemies = sum(1 for thing in level.things if thing.kind == "enemy")
    return boss in costly and len(costly) >= max(min(2, enemies), len(level.blockers()) // 5)


def best_route_first(
    draft: Draft, rng: random.Random, cells: list[Cell], deadline: Deadline, oracle: Any
) -> list[Cell]:
    """The intended route to shape the draft around (module docstring, step 1): the drawn route, or a
    better one. The search engine looks for the best route of the draft as it stands (its other enemies
    sealed, from the least starting life of the intended route; the best it finds within BEST_ROUTE_LOOKS
    looks). A route that ends with more life than the intended route is a witness no change can remove
    without costing the intended route (step 4), so it would replace the intended route in the rounds
    anyway; but a route is better mostly because it meets the drawn route's enemies later, at stats they
    were not drawn for, where many cost nothing (at 120 blockers the best route of a draft fought 17 of its
    38 enemies for life where the drawn route fought 46), and it would then ask too little. So the better
    route becomes the intended route with stats drawn for it (refit), and the search is asked again, up to
    REFITS times."""
    for _ in range(REFITS):
        start_hp = tighten_route(draft, cells)
        if start_hp is None:
            return cells
        level = draft.level(start_hp)
        try:
            found = oracle.good_route(level, start_hp, BEST_ROUTE_LOOKS, deadline)
        except MemoryError:
            # (the oracle's way of saying the deadline passed, or the memory ran out: as in other_wins)
            deadline.check()
            raise
        if found is None or found[0] <= 1:
            return cells
        better = boss_last([level.things[obj].cell for action, obj in found[1] if action != "goal"], draft.boss)
        refit(draft, rng, cells, fights_of(level, route_decisions(level, better)))
        cells = better
    return cells


def boss_last(cells: list[Cell], boss: Cell) -> list[Cell]:
    """A route's blockers with its boss fight moved to the end. A route may fight on after the boss before it
    steps onto the goal (docs/passages.md: having a goal in reach does not end the route); what it does
    after the boss it can do before, at the same stats (nothing lies behind the boss but the goal) and with
    more life at every step (the boss not yet paid), so the route with the boss last ends with the same life,
    as the intended route must for tighten_route to shape it."""
    if boss not in cells:
        return cells
    at = cells.index(boss)
    return cells[:at] + cells[at + 1 :] + [boss]


def refit(draft: Draft, rng: random.Random, old: list[Cell], new: Fights) -> None:
    """Make `new` the route the draft's enemies are drawn for, as passages_draft.walk_route draws them
    for the route it walks: every enemy it fights gets stats drawn against the player it meets there (its
    breed's hits and damage at that atk and def), and every enemy the old route fought and it does not is
    sealed again (set_traps gives it stats at the end)."""
    breeds = draft.notes["breeds"]
    for cell in old:
        if cell not in new.at and draft.things[cell].kind == "enemy":
            set_enemy(draft, cell, sealed(breeds[cell], boss=cell == draft.boss))
    for cell in sorted(new.at):
        atk, defense, _ = new.at[cell]
        set_enemy(draft, cell, draw_enemy(rng, breeds[cell], atk, defense, boss=cell == draft.boss))


def shape_route_first(
    draft: Draft, rng: random.Random, cells: list[Cell], share: float, deadline: Deadline, oracle: Any
) -> tuple[int, tuple[Decision, ...]] | None:
    """Shape the draft around its intended route (`cells`, the blockers walk_route consumed) until that
    route alone wins, ending with 1 life. Returns the starting life and the route's decisions, or None
    when the draft cannot be shaped within MAX_ROUNDS rounds."""
    cells = best_route_first(draft, rng, cells, deadline, oracle)
    for _ in range(MAX_ROUNDS):
        deadline.check()
        start_hp = tighten_route(draft, cells)
        if start_hp is None:
            return None
        level = draft.level(start_hp)
        decisions = route_decisions(level, cells)
        if not asks_enough(level, decisions, draft.boss):
            # Removing witnesses never changes what the intended route pays, and a better route taken
            # instead skips fights: a route that asks too little now is not worth the counting walks.
            return None
        witnesses = other_wins(oracle, level, decisions, WITNESSES_PER_ROUND, deadline)
        if not witnesses:
            set_traps(draft, rng, start_hp, decisions, share, deadline, oracle)
            return start_hp, decisions
        mine = fights_of(level, decisions)
        removed = [remove_witness(draft, mine, fights_of(level, other)) for _, other in witnesses]
        if not any(removed):
            # No witness can be made to cost more without costing the intended route: the best of them is
            # at least as good a plan (step 4), and becomes the intended route, with stats drawn for it.
            _, best = max(witnesses, key=lambda witness: witness[0])
            better = boss_last([level.things[obj].cell for action, obj in best if action != "goal"], draft.boss)
            refit(draft, rng, cells, fights_of(level, route_decisions(level, better)))
            cells = better
    return None


__all__ = ["MAX_ROUNDS", "WITNESSES_PER_ROUND", "asks_enough", "shape_route_first"]
