"""An exact reduction of a tower before its best route is searched: the fights that cost nothing, ever, are
taken out of the level.

A tower range with a strong hero is full of monsters it kills without a scratch (the classic 50-floor
tower's first eight floors, with the tower's starting hero of atk 100 and def 100: 87 of 143 blockers). The
search engine's compiled core takes such fights at once already (its closure), but each is still a blocker
of its graph, which holds at most 128: the range went to the reference engine, minutes slower.

`free_fights_removed` finds the stats the hero holds for certain: those after the start's closure (every
item reachable at the start taken, every fight that costs 0 there fought, again and again until nothing
changes). A monster that costs 0 at those stats, whose damage never rises as the hero's stats do (no
special that reads a stat against the hero, no drain), that pays no money a shop could spend and that is no
boss, is then a floor cell.

Why the best route is the same (twisty.rules.passages_tower's classes: the level has no unsafe stat, else
nothing is taken out). A route of the level may begin with the start's closure: its fights cost 0 and its
items never hurt, so the route after it does at least as well. From then on the hero's atk, def and mdef are
at least the closure's, so each monster taken out costs it 0 wherever it meets one, and fighting it only
opens cells: the route without those fights is a route of the reduced level with the same hp, taking its
items no later. Conversely a route of the reduced level is followed in the level by fighting, before each
of its steps, every monster taken out that stands next to the reach (`restore`): each costs 0, and the
reach before each step is then the reduced level's, so the same fights and purchases happen at the same
stats and the route ends with the same hp. The route given back is the level's own, replayed by the plain
rules before anyone sees it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from twisty.rules.passages import (
    Decision,
    PassagesLevel,
    RouteState,
    Stats,
    Thing,
    consume,
    fight_damage,
    frontier,
    initial_state,
    purchase,
)
from twisty.rules.passages_combat import DRAIN, STATS_AGAINST_HERO


@dataclass(frozen=True)
class Reduced:
    """A reduced level and, per object of it, the index of the same object in the level."""

    level: PassagesLevel
    real_index: tuple[int, ...]
    removed: frozenset[int]  # object indices in the level


def _never_costly(level: PassagesLevel, thing: Thing, stats: Stats) -> bool:
    """Whether fighting `thing` costs 0 at these stats and at any stats above them."""
    enemy = thing.enemy
    if enemy is None or thing.wins or enemy.boss or not thing.is_blocker:
        return False
    if DRAIN in enemy.specials or any(STATS_AGAINST_HERO.get(special) for special in enemy.specials):
        return False
    if enemy.money and level.shop is not None:
        return False
    return fight_damage(enemy, stats.atk, stats.defense, stats.mdef, stats.hp) == 0


def free_fights_removed(level: PassagesLevel) -> Reduced | None:
    """The level without the fights that never cost anything (module docstring); None when there are none
    or when the level has items that are decisions (an unsafe stat)."""
    if "optional items" in level.features:
        return None
    state, _ = initial_state(level)
    held = _closed(level, state).stats
    removed = frozenset(index for index, thing in enumerate(level.things) if _never_costly(level, thing, held))
    if not removed:
        return None
    kept = tuple(index for index in range(len(level.things)) if index not in removed)
    new_index = {old: new for new, old in enumerate(kept)}
    reduced = replace(
        level,
        things=tuple(level.things[index] for index in kept),
        guards=tuple(None if guard is None else new_index[guard] for guard in level.guards),
    )
    return Reduced(reduced, kept, removed)


def _closed(level: PassagesLevel, state: RouteState) -> RouteState:
    """The state with every fight next to its reach that never costs anything (at its stats) fought, again
    and again until none is left: the start's closure."""
    while True:
        found = [index for index in frontier(level, state) if _never_costly(level, level.things[index], state.stats)]
        if not found:
            return state
        state, _, _ = consume(level, state, found[0])


def restore(level: PassagesLevel, reduced: Reduced, decisions: tuple[Decision, ...]) -> tuple[Decision, ...]:
    """A route of the reduced level as a route of the level: before each step, every monster taken out that
    stands next to the reach is fought (module docstring). The caller replays it."""
    state, _ = initial_state(level)
    route: list[Decision] = []

    def close(at: RouteState) -> RouteState:
        while True:
            found = [index for index in frontier(level, at) if index in reduced.removed]
            if not found:
                return at
            for index in found:
                at, _, _ = consume(level, at, index)
                route.append(("fight", index))

    for action, index in decisions:
        state = close(state)
        if action == "buy":
            state = purchase(level, state, index)
            route.append((action, index))
        elif action == "goal":
            route.append((action, index))
        else:
            real = reduced.real_index[index]
            state, _, _ = consume(level, state, real)
            route.append((action, real))
    return tuple(route)
