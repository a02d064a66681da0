"""The compiled core (twisty/solver/_passages_core.c) through its bindings: its own step against the rules'
functions, each of its bounds against the plain rules' exhaustive optimum and against hand-computed values,
its decision searches against the plain rules, its deadlines, interrupts and caps, its race and its second
core, and its source against a strict C11 compiler."""

from __future__ import annotations

import os
import random
import shutil
import signal
import subprocess
import sys
import sysconfig
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.passages_helpers import level_from_toml
from tests.solver.test_passages_search import best_from, load_suite_builder, medium_level, random_levels, small_level
from tests.timing import HANG_GUARD
from twisty.generator.passages_random import random_level
from twisty.limits import _resident_bytes
from twisty.rules.passages import blocker_cost, consume, frontier, initial_state, reachable_goals, replay
from twisty.solver import passages_search
from twisty.solver.passages_search import SearchGraph, search
from twisty.solver.passages_search_graph import bits
from twisty.solver.passages_verdict import Deadline

pytestmark = pytest.mark.skipif(
    not passages_search.COMPILED_AVAILABLE, reason="the compiled core is not built (no C compiler at install time)"
)
core = passages_search._passages_core
NO_WIN = -(1 << 62)
SOURCE = Path(passages_search.__file__).with_name("_passages_core.c")


@dataclass(frozen=True)
class CoreState:
    """A state as the core gives it back (follow), masks as ints."""

    consumed: int
    areas: int
    atk: int
    defense: int
    keys: int
    hp: int
    elixirs: int
    frontier: int
    goal: int
    raw: tuple

    @classmethod
    def of(cls, raw: tuple) -> CoreState:
        consumed, areas, atk, defense, keys, hp, elixirs, front, goal = raw
        return cls(
            int.from_bytes(consumed, "little"),
            int.from_bytes(areas, "little"),
            atk,
            defense,
            keys,
            hp,
            elixirs,
            int.from_bytes(front, "little"),
            goal,
            raw,
        )


def every_blocker(sg: SearchGraph) -> int:
    return (1 << sg.blocker_count) - 1


def start_of(sg: SearchGraph, allowed: int | None = None, close: bool = False) -> CoreState:
    """The level's start as the core settles it (and closes it with `close`) on the graph of `allowed`."""
    root = sg.compiled_state(sg.walk.start(sg.level.player))
    return CoreState.of(core.follow(sg.compiled_graph(allowed), root, [], close)[0])


def bound(
    sg: SearchGraph,
    state: CoreState,
    which: str,
    floor: int = NO_WIN,
    enough: int | None = None,
    allowed: int | None = None,
):
    return core.bound(sg.compiled_graph(allowed), state.raw, which, floor, enough)


def random_walk(level, rng: random.Random, steps: int):
    """Random legal blocker choices, applied by the plain rules on the grid and by the core's own step (no
    closure, every blocker allowed), yielding (graph, rules state, core state) after each step."""
    sg = SearchGraph(level)
    graph = sg.compiled_graph(every_blocker(sg))
    number = sg.graph.blocker_of_object
    rules_state, _ = initial_state(level)
    chosen: list[int] = []
    states = core.follow(graph, sg.compiled_state(sg.walk.start(level.player)), [], False)
    yield sg, rules_state, CoreState.of(states[0])
    for _ in range(steps):
        options = [i for i in frontier(level, rules_state) if blocker_cost(level, i, rules_state.stats) is not None]
        if not options:
            return
        pick = rng.choice(options)
        rules_state = consume(level, rules_state, pick)[0]
        chosen.append(number[pick])
        after = core.follow(graph, sg.compiled_state(sg.walk.start(level.player)), chosen, False)[-1]
        yield sg, rules_state, CoreState.of(after)


def test_the_cores_step_is_the_rules_step():
    """Along random walks on 300 random levels, the core's own step (hp -= the fight's damage, a key per
    door, each new area's gains, the goal in reach) leaves exactly the state the rules' consume leaves on the
    grid: the same stats, the same blockers consumed, the same items taken (those of the areas reached), a
    goal in reach exactly when the rules see one; and it refuses what the rules refuse."""
    checked = refused = 0
    for seed in range(300):
        level = small_level(seed, max_blockers=10)
        rng = random.Random(seed)
        for sg, rules_state, state in random_walk(level, rng, steps=8):
            stats = rules_state.stats
            assert (state.hp, state.atk, state.defense, state.keys) == (
                stats.hp,
                stats.atk,
                stats.defense,
                stats.keys,
            ), seed
            assert {sg.objects[b] for b in bits(state.consumed)} == set(rules_state.consumed), seed
            taken = {item for a in bits(state.areas) for item in sg.graph.areas[a].items}
            assert taken == set(rules_state.taken), seed
            goals = reachable_goals(level, rules_state)
            assert (state.goal in goals) if goals else state.goal == -1, seed
            checked += 1
            for index in frontier(level, rules_state):
                if blocker_cost(level, index, stats) is None:
                    refusing = [sg.graph.blocker_of_object[index]]
                    with pytest.raises(ValueError):
                        core.follow(sg.compiled_graph(every_blocker(sg)), state.raw, refusing, False)
                    refused += 1
    assert checked > 800 and refused > 300, (checked, refused)


TWO_POCKETS = """
game = "passages"
map = '''
##########
#S......G#
#e#e#e#e##
#.+.#.+.##
##########
'''
[player]
hp = 10
atk = 1
[legend]
e = { kind = "enemy", hp = 2, atk = 3, def = 0 }
"+" = { kind = "elixir", hp = 10 }
"""


def bounds_at_the_start(text: str) -> tuple[int, int, int, int, int]:
    """A level's bounds at its closed start, (tree, Steiner, priced, chain), and its best final hp by the plain
    rules' exhaustive search."""
    level = level_from_toml(text)
    sg = SearchGraph(level)
    start = start_of(sg, close=True)
    return (
        bound(sg, start, "tree"),
        bound(sg, start, "steiner"),
        bound(sg, start, "priced"),
        bound(sg, start, "chain"),
        best_from(level, initial_state(level)[0]),
    )


ONE_FIGHT_BEFORE_THE_LAST_ELIXIR = """
game = "passages"
map = '''
#######
#Sa.eb#
#####G#
'''
[player]
hp = {hp}
atk = 5
[legend]
a = {{ kind = "elixir", hp = 5 }}
b = {{ kind = "elixir", hp = 50 }}
e = {{ kind = "enemy", hp = 10, atk = 6, def = 0 }}
"""


def test_the_entry_bound_counts_no_elixir_beyond_the_fight_that_needs_the_life():
    """The enemy strikes once (10 hp at 5 a strike, the player first): 6 damage, the only way to the goal,
    which lies past the 50-hp elixir. From 1 hp the start holds 1 + 5 = 6, and the fight must leave 1: no
    route wins. The final-hp bounds count the 50 hp first: 6 + 50 - 6 = 50 (the Steiner bound). The entry
    bound of the goal side (the area past the enemy, its 50 hp left out) is 6 - 6 = 0, below 1: dead. From
    2 hp it is 1: the route fights with 7 and keeps 1. The second side (both areas) holds the start:
    entered, no bound."""
    for hp, entry in ((1, 0), (2, 1)):
        level = level_from_toml(ONE_FIGHT_BEFORE_THE_LAST_ELIXIR.format(hp=hp))
        sg = SearchGraph(level)
        start = start_of(sg, close=True)
        assert bound(sg, start, "steiner") == hp + 5 + 50 - 6
        assert bound(sg, start, "entry", 0) == [(entry, 50), (None, 55)]
        found = search(sg, hp, Deadline(None), priced=False, entry=passages_search.ENTRY_NEAREST)
        assert found.complete and found.best_hp == (None if hp == 1 else 1 + 50)


def test_steiner_bound_pays_for_one_way_into_each_pocket():
    """Two rooms of an elixir (10 hp) each, each entered by either of two enemies (3 damage each: the
    player strikes first, so an enemy of 2 hp hits once for 3). The best route fights one enemy per room:
    10 - 6 + 20 = 24. The dominator-tree relaxation hangs both rooms from the corridor, free: 10 + 20 = 30.
    The priced bound finds all four enemies at distance 3 and both elixirs within it: 10 + 20 - 3 = 27.
    The Steiner bound pays one way into each room: 10 + 20 - 3 - 3 = 24, the optimum."""
    tree, steiner, priced, _, best = bounds_at_the_start(TWO_POCKETS)
    assert (tree, priced, steiner, best) == (30, 27, 24, 24)


SWORD_BEHIND_EITHER_GUARD = """
game = "passages"
map = '''
########
#S..bG##
#e#e####
#.w.####
########
'''
[player]
hp = 20
atk = 2
[legend]
e = { kind = "enemy", hp = 3, atk = 5, def = 0 }
b = { kind = "enemy", hp = 9, atk = 4, def = 0 }
w = { kind = "equipment", name = "sword", atk = 1 }
"""


def test_chain_bound_charges_the_fight_before_the_sword():
    """A sword (+1 attack) behind either of two guards (hp 3, attack 5), and a boss (hp 9, attack 4) before
    the goal; 20 hp, attack 2. At attack 2 a guard takes 2 strikes and hits once (5) and the boss takes 5
    strikes and hits 4 times (16); at attack 3 a guard falls at the first strike (0) and the boss takes 3
    (8). The best route takes a guard at attack 2 and the boss with the sword: 20 - 5 - 8 = 7; without the
    sword, 20 - 16 = 4. The sword is behind neither guard alone, so both bounds of least damage price the
    guards at 0 and the boss at 8: tree and Steiner bounds 12. The chain bound: taking no equipment, the
    boss at 16 (4); taking the sword, the boss at 8 plus the extra of the way to it, 5 - 0 over a guard
    (7): 7, the optimum (as the priced bound, whose Dijkstra finds the same)."""
    assert bounds_at_the_start(SWORD_BEHIND_EITHER_GUARD) == (12, 12, 7, 7, 7)


SWORD_BEHIND_A_TOUGH_GUARD = """
game = "passages"
map = '''
#######
#S.bG##
#g#####
#w#####
#######
'''
[player]
hp = 20
atk = 2
[legend]
g = { kind = "enemy", hp = 4, atk = 5, def = 0 }
b = { kind = "enemy", hp = 9, atk = 4, def = 0 }
w = { kind = "equipment", name = "sword", atk = 1 }
"""


def test_chain_bound_pays_for_the_way_to_a_piece_off_the_way_to_the_goal():
    """A sword (+1 attack) in a dead end behind a guard (hp 4, attack 5), and a boss (hp 9, attack 4) before
    the goal; 20 hp, attack 2. The guard takes 2 strikes at attack 2 or 3 and hits once: 5 either way. The
    boss takes 5 strikes at attack 2 and hits 4 times (16), 3 at attack 3 (8). The best route takes the
    guard and the sword, then the boss: 20 - 5 - 8 = 7; without the sword, 20 - 16 = 4. The bounds of least
    damage price the boss at 8 and leave the guard out: tree and Steiner bounds 12. The guard costs the
    same before and after the sword, so the way to the sword has no extra (0), and a Steiner bound that
    need not reach the sword pays nothing for it: 12 again. A route that takes the sword reaches it, so
    the chain bound's Steiner bound for that set holds the sword's area as a terminal: 5 + 8, hence 7, the
    optimum (as the priced bound)."""
    assert bounds_at_the_start(SWORD_BEHIND_A_TOUGH_GUARD) == (12, 12, 7, 7, 7)


def test_tree_and_priced_bounds_are_admissible_along_random_routes():
    """At every state of random walks (320 levels, more items than small_level draws, so that equipment
    often comes late, where the priced bound bites), the tree bound and the priced bound are at least the
    best final hp any continuation reaches, found exhaustively with the plain rules; and the priced bound's
    two early answers agree with the full one: at least `enough` exactly when the full answer is, at most
    `floor` exactly when the full answer is, and the full answer otherwise."""
    checked = tighter = 0
    for seed in range(320):
        rng = random.Random(seed)
        level = random_level(
            seed,
            cells_wide=4,
            cells_high=rng.randint(3, 4),
            blockers=rng.randint(5, 9),
            items=rng.randint(3, 7),
            loops=rng.choice([0.0, 0.2]),
        )
        for sg, rules_state, state in random_walk(level, rng, steps=4):
            truth = best_from(level, rules_state)
            allowed = every_blocker(sg)
            tree = bound(sg, state, "tree", allowed=allowed)
            priced = bound(sg, state, "priced", allowed=allowed)
            if truth is not None:
                assert tree >= truth and priced >= truth, seed
                checked += 1
                tighter += priced < tree
            for limit in (truth, priced, priced - 1, priced + 1):
                if limit is None or priced == NO_WIN:
                    continue
                early = bound(sg, state, "priced", enough=limit, allowed=allowed)
                assert (early >= limit) == (priced >= limit) and (priced >= limit or early == priced), seed
                early = bound(sg, state, "priced", floor=limit, allowed=allowed)
                assert (early <= limit) == (priced <= limit) and (priced <= limit or early == priced), seed
    assert checked > 600 and tighter > 25, (checked, tighter)


def exact_steiner_optimum(sg: SearchGraph, state: CoreState, allowed: int) -> int | None:
    """The problem the Steiner bound relaxes, solved by brute force over the sets of costly blockers among
    the allowed ones: the most hp + (elixirs of the areas reached through the set and the free blockers) -
    (the set's least damages), over the sets through which a goal is reached (None when none is)."""
    live = [b for b in bits(allowed & ~state.consumed) if sg.least_damage[b] is not None]
    costly = [b for b in live if sg.least_damage[b] > 0]
    free = sum(1 << b for b in live if sg.least_damage[b] == 0)
    best = None
    for chosen in range(1 << len(costly)):
        picked = sum(1 << b for i, b in enumerate(costly) if chosen >> i & 1)
        usable = free | picked
        areas, consumed, goal = state.areas, state.consumed, state.goal >= 0
        grew = True
        while grew:  # everything reached through usable blockers next to what is reached
            near = 0
            for a in bits(areas):
                near |= sg.area_blocker_mask[a]
            for b in bits(consumed):
                near |= sg.blocker_blocker_mask[b]
            fresh = near & usable & ~consumed
            grew = bool(fresh)
            consumed |= fresh
            for b in bits(fresh):
                areas |= sg.blocker_area_mask[b]
                goal = goal or sg.blocker_goal[b] >= 0
        goal = goal or any(sg.area_goal[a] >= 0 for a in bits(areas))
        if not goal or consumed & picked != picked:
            continue  # no goal, or a chosen blocker not reached (a smaller set does better)
        value = (
            state.hp
            + sum(max(0, sg.area_hp[a]) for a in bits(areas & ~state.areas))
            - sum(sg.least_damage[b] for b in bits(picked))
        )
        best = value if best is None else max(best, value)
    return best


def test_steiner_and_chain_bounds_are_admissible_along_random_routes():
    """At every state of random walks on 160 looped levels with equipment: the Steiner bound is at least the
    exact optimum of the arborescence problem it relaxes (brute force over sets of costly blockers; a dual
    solution never exceeds it), which is at least the best final hp of any continuation (plain rules,
    exhaustively); with no way to a goal it says NO_WIN. The chain bound, asked with floors below and at
    the truth (which only change what it skips), lies between the truth and the Steiner bound. On these
    small levels the Steiner bound mostly equals the relaxed optimum, and the timing of the equipment
    seldom matters, so the chain bound is below the Steiner bound on a few states only."""
    checked = exact = tighter = 0
    for seed in range(160):
        rng = random.Random(seed)
        level = random_level(
            seed,
            cells_wide=5,
            cells_high=4,
            blockers=rng.randint(6, 9),
            items=rng.randint(4, 9),
            loops=rng.choice([0.3, 0.6, 0.8]),
            door_share=rng.choice([0.1, 0.25]),
        )
        for sg, rules_state, state in random_walk(level, rng, steps=4):
            allowed = every_blocker(sg)
            steiner = bound(sg, state, "steiner", allowed=allowed)
            relaxed = exact_steiner_optimum(sg, state, allowed)
            truth = best_from(level, rules_state)
            if relaxed is None:
                assert steiner == NO_WIN and truth is None, seed
                assert bound(sg, state, "chain", allowed=allowed) == NO_WIN, seed
                continue
            assert steiner >= relaxed, seed
            exact += steiner == relaxed
            if truth is None:
                continue
            assert relaxed >= truth, seed
            for floor in (NO_WIN, truth - 1, truth):
                chain = bound(sg, state, "chain", floor, allowed=allowed)
                assert truth <= chain <= steiner, (seed, floor)
            tighter += bound(sg, state, "chain", allowed=allowed) < steiner
            checked += 1
    assert checked > 600 and exact > checked // 2 and tighter >= 5, (checked, exact, tighter)


def best_from_by_decisions(sg: SearchGraph, state: CoreState, top: int) -> int | None:
    """The best final hp from a state, by the core's decision searches (which never ask the chain bound):
    the largest at_least, up to `top` (the hp with every elixir left), from which a win is found."""
    if not core.Decider(sg.compiled_graph(), 1, False).decide(state.raw, Deadline(None)):
        return None
    low, high = 1, top
    while low < high:
        middle = (low + high + 1) // 2
        if core.Decider(sg.compiled_graph(), middle, False).decide(state.raw, Deadline(None)):
            low = middle
        else:
            high = middle - 1
    return low


def test_chain_bound_is_admissible_on_benchmark_style_levels():
    """The same on benchmark-style levels of 20 to 40 blockers (tiers of enemies, equipment spread over the
    maze), too large for the plain rules' exhaustive search: along random walks of the search's own steps
    (closures included), the chain bound is at least the best final hp that the core's decision searches
    find from the state, and at most the Steiner bound. Here the equipment's timing matters: it is
    strictly below the Steiner bound on a third of the states or more."""
    checked = tighter = 0
    builder = load_suite_builder()
    for seed in (20001, 20002, 20003, 20004, 30001, 30002, 30003, 30004, 40001, 40002, 40003, 40004):
        level = builder.build_level(seed, seed // 1000, 21, 15)
        level = level.with_start_hp(level.player.hp + 100)  # (as built, most of them cannot be won)
        rng = random.Random(seed)
        sg = SearchGraph(level, level.player.hp)
        graph = sg.compiled_graph()
        root = sg.compiled_state(sg.walk.start(level.player))
        steps: list[int] = []
        for _ in range(20):
            state = CoreState.of(core.follow(graph, root, steps, True)[-1])
            steiner = bound(sg, state, "steiner")
            truth = best_from_by_decisions(sg, state, state.hp + sg.total_elixirs - state.elixirs)
            if truth is not None:
                for floor in (NO_WIN, truth - 1, truth):
                    assert truth <= bound(sg, state, "chain", floor) <= steiner, (seed, floor)
                tighter += bound(sg, state, "chain") < steiner
                checked += 1
            moves = [
                b
                for b in bits(state.frontier)
                if sg.is_door[b]
                and state.keys >= 1
                or not sg.is_door[b]
                and 0 <= sg.costs(state.atk, state.defense)[b] < state.hp
            ]
            if not moves:
                break
            steps.append(rng.choice(moves))
    assert checked >= 40 and tighter > checked // 3, (checked, tighter)


@pytest.mark.parametrize("seed", [40004, 30001, 30003, 20001])
def test_steiner_bound_at_the_start_of_benchmark_style_levels(seed):
    """On benchmark-style levels (20 to 40 blockers, 13 to 15 costly ones) the Steiner bound at the closed
    start is the exact optimum of the problem it relaxes (brute force over the sets of costly blockers), at
    least the level's proven best final hp, and at most the dominator-tree bound."""
    level = load_suite_builder().build_level(seed, seed // 1000, 21, 15)
    sg = SearchGraph(level)
    start = start_of(sg, close=True)
    steiner = bound(sg, start, "steiner")
    assert steiner == exact_steiner_optimum(sg, start, sg.useful_mask) <= bound(sg, start, "tree")
    best = passages_search.best_route(level, Deadline(None))
    assert best.proved and (best.final_hp is None or best.final_hp <= steiner)


def test_bound_falls_at_least_by_the_excess_of_each_step():
    """Consistency, which the search uses to skip children without making them: after consuming blocker b
    at cost c (closure included) the tree bound is at most the bound before less (c - b's least damage).
    Checked on every move along random walks of the search's own steps, on small and medium levels."""
    checked = 0
    for seed in range(200):
        level = small_level(seed) if seed % 2 else medium_level(seed)
        sg = SearchGraph(level, level.player.hp)
        graph = sg.compiled_graph()
        root = sg.compiled_state(sg.walk.start(level.player))
        rng = random.Random(seed)
        steps: list[int] = []
        for _ in range(12):
            state = CoreState.of(core.follow(graph, root, steps, True)[-1])
            before = bound(sg, state, "tree")
            costs = sg.costs(state.atk, state.defense)
            moves = [
                b
                for b in bits(state.frontier)
                if sg.is_door[b] and state.keys >= 1 or not sg.is_door[b] and 0 <= costs[b] < state.hp
            ]
            if before == NO_WIN or not moves:
                break
            for b in moves:
                child = CoreState.of(core.follow(graph, root, steps + [b], True)[-1])
                assert bound(sg, child, "tree") <= before - costs[b] + sg.least_damage[b], (seed, b)
                checked += 1
            steps.append(rng.choice(moves))
    assert checked > 300


def test_decisions_answer_as_the_plain_rules_while_they_share_what_fails_and_wins():
    """The counting walk asks, state after state, whether a route with at least some hp goes on from there;
    one Decider answers them all, keeping the states it found failing and winning. On random walks of 60
    levels, every answer is the plain rules' (an exhaustive best continuation), for thresholds below, at and
    above the level's optimum, with everything the earlier questions left in play."""
    asked = 0
    for seed in range(60):
        level = small_level(seed, max_blockers=8)
        optimum = best_from(level, initial_state(level)[0])
        if optimum is None:
            continue
        walks = [list(random_walk(level, random.Random(seed * 100 + walk), steps=6)) for walk in range(6)]
        sg = SearchGraph(level, level.player.hp)
        for at_least in (1, optimum, optimum + 1):
            decider = core.Decider(sg.compiled_graph(), at_least, False)
            for walk in walks:
                for _, rules_state, state in walk:
                    want = best_from(level, rules_state)
                    got = decider.decide(state.raw, Deadline(None))
                    assert got == (want is not None and want >= at_least), (seed, at_least)
                    asked += 1
    assert asked > 1000


def test_an_expired_deadline_stops_the_compiled_searches_unproven():
    """The core asks the deadline by work done: the best-route search without the Steiner and chain bounds
    every 256 expansions, the least-need search every 64 units of work. An expired deadline stops the first
    there, unproven, and the second with no answer."""
    level = load_suite_builder().build_level(40004, 40, 21, 15).with_start_hp(72)
    sg = SearchGraph(level, 72)
    stopped = search(sg, 72, Deadline(1e-9))
    assert not stopped.complete and stopped.expanded == 256
    assert search(sg, 72, Deadline(None)).complete
    plain = SearchGraph(level)
    witness = search(plain, passages_search.start_hp_upper_bound(plain), Deadline(None), first_win=True, dive=True)
    known = passages_search._required_start_hp(plain, witness.route)
    stopped_need, expanded, route, goal = passages_search._least_need(plain, known, Deadline(1e-9))
    assert stopped_need is None and 0 < expanded <= 64 and route is None and goal is None
    assert passages_search.min_start_hp(level, Deadline(1e-9)).status == "unknown"


def test_numbers_beyond_the_cores_range_are_refused_not_wrapped():
    """Python keeps every number it hands the core within range (passages_search_graph); should one ever
    come through, the core refuses it with an error instead of wrapping around: a state with 2^60 hp, and a
    cost callback that answers 2^50."""
    level = small_level(3)
    sg = SearchGraph(level, level.player.hp)
    state = list(sg.compiled_state(sg.walk.start(level.player)))
    state[5] = 1 << 60
    with pytest.raises(OverflowError):
        core.follow(sg.compiled_graph(), tuple(state), [], True)
    graph = list(sg.compiled_graph())
    graph[11] = lambda atk, defense: [1 << 50] * sg.blocker_count  # the cost callback
    with pytest.raises(ValueError):
        core.follow(tuple(graph), sg.compiled_state(sg.walk.start(level.player)), [], True)


@pytest.mark.parametrize("seed", [40002, 40004])
def test_the_race_of_two_searches_answers_as_one_search(seed):
    """best_route races the compiled search with the priced bound and the one with the Steiner bound from 40
    blockers on: at the least starting hp, one below and 20 above, its answer is the one search's, proven,
    and its route replays."""
    level = load_suite_builder().build_level(seed, seed // 1000, 21, 15)
    assert SearchGraph(level).blocker_count >= passages_search.RACE_BLOCKERS
    least = passages_search.min_start_hp(level, Deadline(None)).value
    for hp in (least, least - 1, least + 20):
        tried = level.with_start_hp(hp)
        raced = passages_search.best_route(tried, Deadline(None))
        alone = search(SearchGraph(tried, hp), hp, Deadline(None))
        assert raced.proved and alone.complete and raced.final_hp == alone.best_hp, (seed, hp)
        if raced.decisions:
            assert replay(tried, raced.decisions).final_hp == raced.final_hp


class _NoSpareCore(Deadline):
    """A deadline that never spares the second core (as the race's, while the priced search runs)."""

    def spare_core(self) -> bool:
        return False


def test_the_search_on_two_cores_answers_as_on_one():
    """The compiled search with the chain bound, bounding states on a second core too (threads=2): on the
    suite levels of 40 and 60 blockers and on 80 random levels, the same best final hp, proven, as on one
    core, no win with one hp more, and the route replays by the plain rules. Its expansions come in a
    slightly different order, so only the answers are compared. With a deadline that does not spare the
    second core, it stays on one, and expands exactly the states the one-core search expands."""
    from twisty.bench import passages as passages_bench

    levels = list(passages_bench.load_suite(passages_bench.DEFAULT_SUITE, (40, 60)))
    levels += [(seed, level) for seed, level in random_levels(11, 80)]
    wins = reordered = 0
    for what, level in levels:
        hp = level.player.hp
        sg = SearchGraph(level, hp)
        options = dict(priced=False, steiner=True, chain_from=0)
        one = search(sg, hp, Deadline(None), **options)
        two = search(sg, hp, Deadline(None), threads=2, **options)
        assert one.complete and two.complete and two.best_hp == one.best_hp, what
        reordered += two.expanded != one.expanded  # (the sign that the second core took part)
        held = search(sg, hp, _NoSpareCore(None), threads=2, **options)
        assert (held.best_hp, held.expanded) == (one.best_hp, one.expanded), what
        if two.best_hp is not None:
            wins += 1
            assert replay(level, two.route).final_hp == two.best_hp, what
            beyond = search(sg, hp, Deadline(None), threads=2, at_least=two.best_hp + 1, **options)
            assert beyond.complete and beyond.best_hp is None, what
    assert wins >= 30 and reordered >= 3, (wins, reordered)


def test_the_chain_bound_from_some_expansion_on_saves_expansions():
    """The chain bound from the 50th expansion on (the race's Steiner search asks it from the first; here the
    switch is tested too): on the suite levels of 20 and 40 blockers that take the Steiner search 60 to
    1,400 expansions, the same answers and fewer expansions than without it (b040-05: 587 without, 50
    with)."""
    from twisty.bench import passages as passages_bench

    chosen = ("b020-01.toml", "b020-04.toml", "b040-00.toml", "b040-02.toml", "b040-04.toml", "b040-05.toml")
    for name, level in passages_bench.load_suite(passages_bench.DEFAULT_SUITE, (20, 40)):
        if name not in chosen:
            continue
        sg = SearchGraph(level, level.player.hp)
        plain = search(sg, level.player.hp, Deadline(None), priced=False, steiner=True)
        chained = search(sg, level.player.hp, Deadline(None), priced=False, steiner=True, chain_from=50)
        assert plain.complete and chained.complete and chained.best_hp == plain.best_hp, name
        assert plain.expanded > 50 and chained.expanded < plain.expanded, (name, plain.expanded, chained.expanded)


def long_race_level(monkeypatch: pytest.MonkeyPatch):
    """Suite level b060-01: 17,618 expansions for the search with the Steiner and chain bounds, far more
    than the 256 between two looks at the clock, so that a racing search sees the other's end in time.
    Straight to the race: best_route's first try (FIRST_LOOKS, the same search alone) proves it by itself."""
    from twisty.bench import passages as passages_bench

    monkeypatch.setattr(passages_search, "FIRST_LOOKS", 0)
    return dict(passages_bench.load_suite(passages_bench.DEFAULT_SUITE, (60,)))["b060-01.toml"]


def test_an_error_in_the_other_racing_search_reaches_the_caller(monkeypatch):
    """When no search proves an answer, an error in the search on the other thread is raised to the caller
    (a deadline already passed stops the search that does not fail); a search that runs out of memory
    makes the answer unknown, with the level's deadline saying it was memory."""
    level = long_race_level(monkeypatch)
    real_search = passages_search.search
    raised: list[BaseException] = [RuntimeError("broken")]

    def failing_with_the_steiner_bound(*args, steiner=False, **options):
        if steiner:
            raise raised[0]
        return real_search(*args, steiner=steiner, **options)

    monkeypatch.setattr(passages_search, "search", failing_with_the_steiner_bound)
    with pytest.raises(RuntimeError):
        passages_search.best_route(level, Deadline(1e-9))
    raised[0] = MemoryError("no room")
    deadline = Deadline(1e-9)
    assert passages_search.best_route(level, deadline).status == "unknown"
    assert deadline.cap == "memory"


def test_the_priced_search_gives_way_at_half_the_memory_budget(monkeypatch):
    """With this process already holding more than half the budget (and less than all of it), the priced
    search stops at its first look at the memory and the Steiner search goes on alone to the proof, the
    same optimum as without a budget."""
    level = load_suite_builder().build_level(40004, 40, 21, 15).with_start_hp(90)  # > 256 expansions
    expected = passages_search.best_route(level, Deadline(None, memory_bytes=None))
    real_search = passages_search.search
    ended = {}

    def recording(*args, priced=True, **options):
        result = real_search(*args, priced=priced, **options)
        ended[priced] = result
        return result

    monkeypatch.setattr(passages_search, "search", recording)
    # Straight to the race: the single search's first try (FIRST_LOOKS) would prove this level by itself.
    monkeypatch.setattr(passages_search, "FIRST_LOOKS", 0)
    budget = _resident_bytes() * 3 // 2
    found = passages_search.best_route(level, Deadline(None, memory_bytes=budget))
    assert expected.proved and (found.proved, found.final_hp) == (True, expected.final_hp)
    assert not ended[True].complete and ended[True].expanded < ended[False].expanded
    assert ended[False].complete


def test_an_interrupt_in_one_racing_search_stops_the_other(monkeypatch):
    """Ctrl-C reaches one thread only: the race must stop the other search too (at its next look at the
    clock) instead of waiting for it, and raise the interrupt even if the other had found something."""
    level = long_race_level(monkeypatch)
    real_search = passages_search.search
    finished = []

    def interrupted_with_the_priced_bound(*args, priced=True, **options):
        if priced:
            raise KeyboardInterrupt
        result = real_search(*args, priced=priced, **options)
        finished.append(result)
        return result

    monkeypatch.setattr(passages_search, "search", interrupted_with_the_priced_bound)
    # Straight to the race: the single search's first try (FIRST_LOOKS) proves this level by itself.
    monkeypatch.setattr(passages_search, "FIRST_LOOKS", 0)
    with pytest.raises(KeyboardInterrupt):
        passages_search.best_route(level, Deadline(None))
    assert len(finished) == 1 and not finished[0].complete


class _InterruptedInTheOtherThread(Deadline):
    """A deadline whose look at the clock raises KeyboardInterrupt in any thread but the main one, as a
    pending interrupt would if the second thread were the one to see it."""

    def expired(self) -> bool:
        if threading.current_thread() is not threading.main_thread():
            raise KeyboardInterrupt
        return super().expired()


def test_an_interrupt_raised_inside_the_core_on_the_second_thread_ends_the_race(monkeypatch):
    """An exception raised by the deadline inside the compiled search on the race's second thread comes out
    of the core there, stops the priced search on the main thread and is raised to the caller."""
    monkeypatch.setattr(passages_search, "FIRST_LOOKS", 0)  # straight to the race, as above
    with pytest.raises(KeyboardInterrupt):
        passages_search.best_route(long_race_level(monkeypatch), _InterruptedInTheOtherThread(None))
    assert not racing_threads()


def racing_threads() -> list[threading.Thread]:
    return [
        thread for thread in threading.enumerate() if thread.name.startswith("passages search") and thread.is_alive()
    ]


def slow_level():
    """Suite level b120-01: tens of seconds on either core, long enough to interrupt."""
    from twisty.bench import passages as passages_bench

    return dict(passages_bench.load_suite(passages_bench.DEFAULT_SUITE, (120,)))["b120-01.toml"]


def interrupt_when(ready: Callable[[], bool]) -> threading.Thread:
    """A real SIGINT to this process as soon as `ready()` holds (asked every millisecond, from a thread of its
    own): the moment of the interrupt is an event of the search, not a time, so that a loaded machine (the
    wall clock stretched) still interrupts the search at the moment the test is about; HANG_GUARD seconds
    without it is a failure of the test, not a hang."""

    def wait_then_interrupt() -> None:
        give_up = time.monotonic() + HANG_GUARD
        while not ready():
            if time.monotonic() > give_up:
                return  # the test then fails: no KeyboardInterrupt, or the search ran to its answer
            time.sleep(0.001)
        os.kill(os.getpid(), signal.SIGINT)

    thread = threading.Thread(target=wait_then_interrupt, name="interrupter", daemon=True)
    thread.start()
    return thread


class LookedAt(Deadline):
    """No limit; `looked` is set at the search's first look at the clock (the search is under way)."""

    def __init__(self) -> None:
        super().__init__(None)
        self.looked = threading.Event()

    def expired(self) -> bool:
        self.looked.set()
        return super().expired()


def main_thread_waits_in_join() -> bool:
    """Whether the main thread is blocked joining a thread, called from the race (_race's other.join())."""
    frame = sys._current_frames().get(threading.main_thread().ident or 0)
    names = []
    while frame is not None:
        names.append(frame.f_code.co_name)
        frame = frame.f_back
    return bool(names) and names[0] in ("join", "_wait_for_tstate_lock") and "_race" in names


@pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name != "posix", reason="needs POSIX signals")
def test_ctrl_c_stops_a_compiled_search_with_keyboard_interrupt():
    """A real SIGINT while the main thread is inside the compiled search (released GIL): the core sees it at
    its next look at the clock and the search ends with KeyboardInterrupt instead of running on to its
    answer. The interrupt comes once the search has looked at the clock (it is under way)."""
    level = slow_level()
    sg = SearchGraph(level, level.player.hp)
    deadline = LookedAt()
    interrupter = interrupt_when(deadline.looked.is_set)
    with pytest.raises(KeyboardInterrupt):
        search(sg, level.player.hp, deadline, priced=False, steiner=True, chain_from=0)
    interrupter.join()


@pytest.mark.skipif(not hasattr(signal, "SIGINT") or os.name != "posix", reason="needs POSIX signals")
def test_ctrl_c_while_the_race_waits_for_its_second_search(monkeypatch):
    """A real SIGINT after the priced search gave way, while the main thread waits for the search on the
    second thread: the race stops that search and raises KeyboardInterrupt, and no thread is left
    running. The interrupt comes when the second search has seen the priced one give way and the main
    thread is blocked in its join (so neither the load nor the speed of the machine moves it elsewhere)."""
    monkeypatch.setattr(passages_search, "PRICED_SECONDS", 0.2)
    gave_way = threading.Event()

    class Watched(passages_search._RaceDeadline):
        def expired(self) -> bool:
            if self.spare is not None and self.spare.is_set():  # the second search, once the first gave way
                gave_way.set()
            return super().expired()

    monkeypatch.setattr(passages_search, "_RaceDeadline", Watched)
    interrupter = interrupt_when(lambda: gave_way.is_set() and main_thread_waits_in_join())
    with pytest.raises(KeyboardInterrupt):
        passages_search.best_route(slow_level(), Deadline(None))
    interrupter.join()
    assert gave_way.is_set()
    assert not racing_threads()


def test_the_core_compiles_as_strict_c11():
    """The core builds with a strict C11 compiler (-std=c11 -Wall -Wextra -Werror) against the Python
    headers, as .ci/compile-core checks: no GNU extensions, no pthread spin locks (macOS has none)."""
    compiler = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if compiler is None:
        pytest.skip("no C compiler")
    include = sysconfig.get_paths()["include"]
    done = subprocess.run(
        [
            compiler,
            "-std=c11",
            "-Wall",
            "-Wextra",
            "-Werror",
            "-O2",
            "-pthread",
            "-fPIC",
            f"-I{include}",
            "-c",
            str(SOURCE),
            "-o",
            os.devnull,
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "pthread_spin" not in SOURCE.read_text()
