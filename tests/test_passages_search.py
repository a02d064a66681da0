"""The search engine against independent witnesses: the grid-level brute-force engine on small levels,
CP-SAT on larger ones (slow), and the plain rules for its bound and its dominance rule."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path

import pytest

from twisty.generator.passages_random import random_level
from twisty.rules.passages import (RouteState, blocker_cost, consume, frontier, initial_state, reachable_goals,
                                   replay)
from twisty.solver import passages_brute, passages_search
from twisty.solver.passages_search import NO_WIN, SearchGraph, _bits, _dominated, _Walker, _WinsFrom, dominates
from twisty.solver.passages_verdict import SOLVABLE, Deadline
from tests.passages_helpers import level_from_toml


def small_level(seed: int, max_blockers: int = 8):
    rng = random.Random(seed)
    return random_level(seed, cells_wide=rng.randint(3, 4), cells_high=rng.randint(3, 4),
                        blockers=rng.randint(1, max_blockers), items=rng.randint(0, 5),
                        loops=rng.choice([0.0, 0.1, 0.3]))


def legal_moves_from(level, state: RouteState):
    """Every (state, blocker) move the plain rules allow from `state` on, each reachable state once."""
    stack = [state]
    seen = set()
    while stack:
        state = stack.pop()
        key = (state.consumed, state.stats)
        if key in seen:
            continue
        seen.add(key)
        yield state, None
        for index in frontier(level, state):
            if blocker_cost(level, index, state.stats) is not None:
                yield state, index
                stack.append(consume(level, state, index)[0])


def best_from(level, state: RouteState) -> int | None:
    """The best final hp of any continuation of `state`, by the plain rules, exhaustively."""
    wins = [reached.stats.hp for reached, move in legal_moves_from(level, state)
            if move is None and reachable_goals(level, reached)]
    return max(wins, default=None)


def random_walk(level, rng: random.Random, steps: int):
    """Random legal blocker choices, applied both by the plain rules and by the engine's walker (without
    its closure), yielding the pair of states after each step."""
    graph = SearchGraph(level)
    walker = _Walker(graph, level.player.hp, graph.all_mask | ((1 << graph.blocker_count) - 1), closure=False)
    engine_state, _ = walker.initial()
    rules_state, _ = initial_state(level)
    of_object = graph.graph.blocker_of_object
    yield walker, rules_state, engine_state
    for _ in range(steps):
        options = [i for i in frontier(level, rules_state) if blocker_cost(level, i, rules_state.stats) is not None]
        if not options:
            return
        chosen = rng.choice(options)
        cost = blocker_cost(level, chosen, rules_state.stats)
        rules_state = consume(level, rules_state, chosen)[0]
        engine_state = walker.consume(engine_state, of_object[chosen], cost)
        yield walker, rules_state, engine_state


@pytest.mark.parametrize("chunk", range(11))
def test_agrees_with_brute_force(chunk):
    """220 random levels up to 8 blockers: verdict, final hp (also of the search with the Steiner bound, the
    race's other half, and with the chain bound from the first expansion on), the route's replay, min
    start hp, counts."""
    for seed in range(chunk * 20, chunk * 20 + 20):
        level = small_level(seed)
        expected = passages_brute.best_route(level, Deadline(None))
        found = passages_search.best_route(level, Deadline(None))
        assert (found.status, found.final_hp, found.proved) == (expected.status, expected.final_hp, True), seed
        with_steiner = passages_search.search(SearchGraph(level), level.player.hp, Deadline(None), priced=False,
                                              steiner=True)
        assert with_steiner.complete and with_steiner.best_hp == expected.final_hp, seed
        with_chain = passages_search.search(SearchGraph(level), level.player.hp, Deadline(None), priced=False,
                                            steiner=True, chain_from=0)
        assert with_chain.complete and with_chain.best_hp == expected.final_hp, seed
        if found.status == SOLVABLE:
            assert replay(level, found.decisions).final_hp == found.final_hp, seed
        assert passages_search.min_start_hp(level, Deadline(None)) == \
            passages_brute.min_start_hp(level, Deadline(None)), seed
        cap = 1 + seed % 4
        want = passages_brute.count_solutions(level, Deadline(None), cap, expected.final_hp)
        got = passages_search.count_solutions(level, Deadline(None), cap, found.final_hp)
        assert count_fields(got) == count_fields(want), seed
        signatures = {replay(level, route).signature for route in got.witnesses}
        assert len(signatures) == len(got.witnesses) == min(cap, got.solutions), seed
        if got.witnesses:
            assert replay(level, got.witnesses[0]).final_hp == found.final_hp, seed



def solvable_random_levels(seed: int, count: int, *, wide: tuple[int, int], high: tuple[int, int],
                           blockers: tuple[int, int], items: tuple[int, int], engine):
    """(seed, level, best route) for the next `count` random levels after `seed` that `engine` finds
    solvable."""
    while count:
        seed += 1
        rng = random.Random(seed)
        level = random_level(seed, cells_wide=rng.randint(*wide), cells_high=rng.randint(*high),
                             blockers=rng.randint(*blockers), items=rng.randint(*items),
                             loops=rng.choice([0.1, 0.3, 0.5]))
        best = engine.best_route(level, Deadline(None))
        if best.status == SOLVABLE:
            count -= 1
            yield seed, level, best


def count_fields(count) -> tuple:
    return count.solutions, count.optimal, count.capped, count.complete


def test_counts_agree_with_brute_force_on_larger_levels():
    """Solution counts on 40 random solvable levels of 9 to 14 blockers on wider mazes, where the walk
    leans on its searches to skip what cannot win: the same counts and flags as brute force, and when
    not capped the same solutions as witnesses."""
    capped = 0
    for seed, level, best in solvable_random_levels(5000, 40, wide=(4, 5), high=(3, 4), blockers=(9, 14),
                                                    items=(1, 6), engine=passages_brute):
        cap = 1 + seed % 12
        want = passages_brute.count_solutions(level, Deadline(None), cap, best.final_hp)
        got = passages_search.count_solutions(level, Deadline(None), cap, best.final_hp)
        assert count_fields(got) == count_fields(want), seed
        found = [replay(level, route).signature for route in got.witnesses]
        assert len(set(found)) == len(found) == min(cap, got.solutions), seed
        if not got.capped:      # then the witnesses are every solution
            assert set(found) == {replay(level, route).signature for route in want.witnesses}, seed
        capped += got.capped
    assert 5 < capped < 35


def load_standard_baseline():
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "baselines" / "passages_standard.py"
    spec = importlib.util.spec_from_file_location("passages_standard", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def medium_level(seed: int):
    rng = random.Random(seed)
    return random_level(seed, cells_wide=rng.randint(5, 6), cells_high=rng.randint(4, 5),
                        blockers=rng.randint(10, 16), items=rng.randint(8, 14), loops=rng.choice([0.1, 0.25]),
                        door_share=0.25)


@pytest.mark.parametrize("chunk", range(4))
def test_agrees_with_the_standard_algorithm_at_the_edge_of_solvability(chunk):
    """Medium levels (10 to 16 blockers), where the standard algorithm still visits every consumed set: at
    the least starting hp the search finds, the standard algorithm finds the same best final hp, and one
    hp less it finds no route at all; the same for the search with the Steiner bound (the race's other
    half), and with the chain bound too from the first expansion on (as the race's other half). This
    catches pruning that is only wrong on larger state spaces."""
    standard = load_standard_baseline()
    for seed in range(chunk * 10, chunk * 10 + 10):
        level = medium_level(seed)
        least = passages_search.min_start_hp(level, Deadline(None))
        if least.status != "proved":
            assert standard.best_route(level.with_start_hp(10_000), Deadline(None)).status != SOLVABLE
            continue
        tight = level.with_start_hp(least.value)
        expected = standard.best_route(tight, Deadline(None)).final_hp
        assert passages_search.best_route(tight, Deadline(None)).final_hp == expected, seed
        with_steiner = passages_search.search(SearchGraph(tight), least.value, Deadline(None), priced=False,
                                              steiner=True)
        assert with_steiner.complete and with_steiner.best_hp == expected, seed
        with_chain = passages_search.search(SearchGraph(tight), least.value, Deadline(None), priced=False,
                                            steiner=True, chain_from=0)
        assert with_chain.complete and with_chain.best_hp == expected, seed
        if least.value > 1:
            below = level.with_start_hp(least.value - 1)
            assert standard.best_route(below, Deadline(None)).status != SOLVABLE, seed
        roomy = level.with_start_hp(least.value + 15)
        assert (passages_search.best_route(roomy, Deadline(None)).final_hp
                == standard.best_route(roomy, Deadline(None)).final_hp), seed


def load_suite_builder():
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "passages" / "make_suite.py"
    spec = importlib.util.spec_from_file_location("make_suite", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("seed", [40002, 40004, 30001, 30003])
def test_least_start_hp_is_consistent_with_best_routes_on_benchmark_levels(seed):
    """On benchmark-style levels (30 to 40 blockers) the two searches behind the answers must agree: at
    min_start_hp the best-first search finds a route that the rules replay, and one hp less it finds none
    (min_start_hp comes from the least-need search: another order, states kept by need and damage)."""
    builder = load_suite_builder()
    level = builder.build_level(seed, seed // 1000, 21, 15)
    least = passages_search.min_start_hp(level, Deadline(None))
    assert least.status == "proved"
    at_least = passages_search.best_route(level.with_start_hp(least.value), Deadline(None))
    assert replay(level.with_start_hp(least.value), at_least.decisions).final_hp == at_least.final_hp >= 1
    if least.value > 1:
        assert passages_search.best_route(level.with_start_hp(least.value - 1), Deadline(None)).status != SOLVABLE


def test_bound_is_admissible_along_random_routes():
    """At every state of random walks the bound is at least the best final hp any continuation reaches,
    found exhaustively with the plain rules."""
    checked = 0
    for seed in range(120):
        level = small_level(seed, max_blockers=7)
        rng = random.Random(seed)
        for walker, rules_state, engine_state in random_walk(level, rng, steps=4):
            truth = best_from(level, rules_state)
            assert engine_state.hp == rules_state.stats.hp
            if truth is not None:
                assert walker.bound(engine_state) >= truth, seed
                checked += 1
    assert checked > 150


def test_priced_bound_is_admissible_along_random_routes():
    """The priced bound too is at least the best final hp of any continuation (plain rules, exhaustively),
    at every state of random walks; and its two early answers agree with the full one: at least `enough`
    exactly when the full answer is, at most `floor` exactly when the full answer is, and the full answer
    otherwise."""
    checked = tighter = 0
    for seed in range(320):
        rng = random.Random(seed)
        # More items than small_level draws, so that equipment often comes late (where the bound bites).
        level = random_level(seed, cells_wide=4, cells_high=rng.randint(3, 4), blockers=rng.randint(5, 9),
                             items=rng.randint(3, 7), loops=rng.choice([0.0, 0.2]))
        for walker, rules_state, engine_state in random_walk(level, rng, steps=4):
            truth = best_from(level, rules_state)
            priced = walker.priced_bound(engine_state)
            if truth is not None:
                assert priced >= truth, seed
                checked += 1
                tighter += priced < walker.bound(engine_state)
            else:
                assert priced >= NO_WIN
            for limit in (truth, priced, priced - 1, priced + 1):
                if limit is None or priced == NO_WIN:
                    continue
                early = walker.priced_bound(engine_state, enough=limit)
                assert (early >= limit) == (priced >= limit) and (priced >= limit or early == priced), seed
                early = walker.priced_bound(engine_state, floor=limit)
                assert (early <= limit) == (priced <= limit) and (priced <= limit or early == priced), seed
    assert checked > 600 and tighter > 25


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


def test_steiner_bound_pays_for_one_way_into_each_pocket():
    """Two rooms of an elixir (10 hp) each, each entered by either of two enemies (3 damage each: the
    player strikes first, so an enemy of 2 hp hits once for 3). The best route fights one enemy per room:
    10 - 6 + 20 = 24. The dominator-tree relaxation hangs both rooms from the corridor, free: 10 + 20 = 30.
    The priced bound finds all four enemies at distance 3 and both elixirs within it: 10 + 20 - 3 = 27.
    The Steiner bound pays one way into each room: 10 + 20 - 3 - 3 = 24, the optimum."""
    level = level_from_toml(TWO_POCKETS)
    graph = SearchGraph(level)
    walker = _Walker(graph, level.player.hp, graph.useful_mask, closure=True)
    start, _ = walker.initial()
    assert (walker.bound(start), walker.priced_bound(start), walker.steiner_bound(start)) == (30, 27, 24)
    assert best_from(level, initial_state(level)[0]) == 24


def bounds_at_the_start(text: str) -> tuple[int, int, int, int, int]:
    """A level's bounds at its start, (tree, Steiner, priced, chain), and its best final hp by the plain
    rules' exhaustive search."""
    level = level_from_toml(text)
    graph = SearchGraph(level)
    walker = _Walker(graph, level.player.hp, graph.useful_mask, closure=True)
    start, _ = walker.initial()
    steiner = walker.steiner_bound(start)
    return (walker.bound(start), steiner, walker.priced_bound(start), walker.chain_bound(start, steiner, NO_WIN),
            best_from(level, initial_state(level)[0]))


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


def test_chain_bound_is_admissible_along_random_routes():
    """At every state of random walks on looped levels with equipment: the chain bound (asked with floors
    below and at the truth, which only change what it skips) is at least the best final hp of any
    continuation (plain rules, exhaustively) and at most the Steiner bound; NO_WIN where the Steiner bound
    says so. On levels this small the timing of the equipment seldom matters: it is strictly below the
    Steiner bound on 10 of the 556 states (the benchmark-style test below has more)."""
    checked = tighter = 0
    for seed in range(120):
        rng = random.Random(seed)
        level = random_level(seed, cells_wide=5, cells_high=4, blockers=rng.randint(6, 9), items=rng.randint(5, 9),
                             loops=rng.choice([0.3, 0.6]), door_share=0.1)
        for walker, rules_state, engine_state in random_walk(level, rng, steps=4):
            steiner = walker.steiner_bound(engine_state)
            truth = best_from(level, rules_state)
            if steiner == NO_WIN:
                assert walker.chain_bound(engine_state, steiner, NO_WIN) == NO_WIN, seed
            if truth is None:
                continue
            for floor in (NO_WIN, truth - 1, truth):
                chain = walker.chain_bound(engine_state, steiner, floor)
                assert truth <= chain <= steiner, (seed, floor)
            tighter += walker.chain_bound(engine_state, steiner, NO_WIN) < steiner
            checked += 1
    assert checked > 500 and tighter >= 5, (checked, tighter)


def test_chain_bound_is_admissible_on_benchmark_style_levels():
    """The same on benchmark-style levels of 20 to 40 blockers (tiers of enemies, equipment spread over the
    maze), too large for the plain rules' exhaustive search: along random walks of the search's own moves,
    the chain bound is at least the best final hp that the search without it proves from the state (the
    search is checked against the brute force and the standard algorithm above), and at most the Steiner
    bound. Here the equipment's timing matters: it is strictly below the Steiner bound on 31 of the 52
    states checked."""
    checked = tighter = 0
    builder = load_suite_builder()
    for seed in (20001, 20002, 20003, 20004, 30001, 30002, 30003, 30004, 40001, 40002, 40003, 40004):
        level = builder.build_level(seed, seed // 1000, 21, 15)
        level = level.with_start_hp(level.player.hp + 100)     # (as built, most of them cannot be won)
        rng = random.Random(seed)
        graph = SearchGraph(level, level.player.hp)
        walker = _Walker(graph, level.player.hp, graph.useful_mask, closure=True)
        state, _ = walker.initial()
        for _ in range(20):
            truth = passages_search.search(graph, level.player.hp, Deadline(None), root=state).best_hp
            steiner = walker.steiner_bound(state)
            if truth is not None:
                for floor in (NO_WIN, truth - 1, truth):
                    assert truth <= walker.chain_bound(state, steiner, floor) <= steiner, (seed, floor)
                tighter += walker.chain_bound(state, steiner, NO_WIN) < steiner
                checked += 1
            moves = walker.moves(state)
            if not moves:
                break
            blocker, cost = rng.choice(moves)
            state = walker.consume(state, blocker, cost, [])
    assert checked > 45 and tighter > checked // 3, (checked, tighter)


def exact_steiner_optimum(walker: _Walker, state) -> int | None:
    """The problem the Steiner bound relaxes, solved by brute force over the sets of costly blockers: the
    most hp + (elixirs of the areas reached through the set and the free blockers) - (the set's least
    damages), over the sets through which a goal is reached (None when none is)."""
    sg = walker.sg
    live = [b for b in _bits(walker.allowed & ~state.consumed) if sg.least_damage[b] is not None]
    costly = [b for b in live if sg.least_damage[b] > 0]
    free = sum(1 << b for b in live if sg.least_damage[b] == 0)
    best = None
    for chosen in range(1 << len(costly)):
        picked = sum(1 << b for i, b in enumerate(costly) if chosen >> i & 1)
        usable = free | picked
        areas, consumed, goal = state.areas, state.consumed, state.goal >= 0
        grew = True
        while grew:     # everything reached through usable blockers next to what is reached
            near = 0
            for a in _bits(areas):
                near |= sg.area_blocker_mask[a]
            for b in _bits(consumed):
                near |= sg.blocker_blocker_mask[b]
            fresh = near & usable & ~consumed
            grew = bool(fresh)
            consumed |= fresh
            for b in _bits(fresh):
                areas |= sg.blocker_area_mask[b]
                goal = goal or sg.blocker_goal[b] >= 0
        goal = goal or any(sg.area_goal[a] >= 0 for a in _bits(areas))
        if not goal or consumed & picked != picked:
            continue     # no goal, or a chosen blocker not reached (a smaller set does better)
        value = state.hp + sum(max(0, sg.area_hp[a]) for a in _bits(areas & ~state.areas)) \
            - sum(sg.least_damage[b] for b in _bits(picked))
        best = value if best is None else max(best, value)
    return best


def test_steiner_bound_is_admissible_along_random_routes():
    """At every state of random walks on looped levels: the Steiner bound is at least the exact optimum of
    the arborescence problem it relaxes (brute force over sets of costly blockers; a dual solution never
    exceeds it), which is at least the best final hp of any continuation (plain rules, exhaustively); with
    no way to a goal it says NO_WIN. On these small levels it is mostly equal to the relaxed optimum."""
    checked = exact = 0
    for seed in range(240):
        rng = random.Random(seed)
        level = random_level(seed, cells_wide=5, cells_high=4, blockers=rng.randint(6, 9), items=rng.randint(4, 8),
                             loops=rng.choice([0.4, 0.6, 0.8]))
        for walker, rules_state, engine_state in random_walk(level, rng, steps=4):
            steiner = walker.steiner_bound(engine_state)
            relaxed = exact_steiner_optimum(walker, engine_state)
            truth = best_from(level, rules_state)
            if relaxed is None:
                assert steiner == NO_WIN and truth is None, seed
                continue
            assert steiner >= relaxed, seed
            exact += steiner == relaxed
            if truth is not None:
                assert relaxed >= truth, seed
                checked += 1
    assert checked > 900 and exact > checked // 2, (checked, exact)


@pytest.mark.parametrize("seed", [40004, 30001, 30003, 20001])
def test_steiner_bound_at_the_start_of_benchmark_style_levels(seed):
    """On benchmark-style levels (20 to 40 blockers, 13 to 15 costly ones) the Steiner bound at the start
    is the exact optimum of the problem it relaxes (brute force over the sets of costly blockers), at
    least the level's proven best final hp, and at most the dominator-tree bound."""
    level = load_suite_builder().build_level(seed, seed // 1000, 21, 15)
    graph = SearchGraph(level)
    walker = _Walker(graph, level.player.hp, graph.useful_mask, closure=True)
    start, _ = walker.initial()
    steiner = walker.steiner_bound(start)
    assert steiner == exact_steiner_optimum(walker, start) <= walker.bound(start)
    best = passages_search.best_route(level, Deadline(None))
    assert best.proved and (best.final_hp is None or best.final_hp <= steiner)


def test_bound_falls_at_least_by_the_excess_of_each_step():
    """Consistency, which the search uses to skip children without making them: after consuming blocker b
    at cost c the bound is at most the bound before less (c - b's least damage). Checked on every move
    along random walks of the search's own steps (closure included), on small and medium levels."""
    checked = 0
    for seed in range(200):
        level = small_level(seed) if seed % 2 else medium_level(seed)
        graph = SearchGraph(level, level.player.hp)
        walker = _Walker(graph, level.player.hp, graph.useful_mask, closure=True)
        state, _ = walker.initial()
        rng = random.Random(seed)
        for _ in range(12):
            before = walker.bound(state)
            moves = walker.moves(state)
            if before == NO_WIN or not moves:
                break
            for b, cost in moves:
                child = walker.consume(state, b, cost, [])
                assert walker.bound(child) <= before - cost + graph.least_damage[b], (seed, b)
                checked += 1
            b, cost = rng.choice(moves)
            state = walker.consume(state, b, cost, [])
    assert checked > 300


def test_dominator_tree_matches_the_definition():
    """d dominates x exactly when x cannot be reached from the start with d taken out of the map (goals
    are dead ends, enemies that can never be harmed are walls); the tree's ancestors of x must be exactly
    those nodes. Brute force over every pair, on small and medium levels with loops."""
    checked = 0
    for seed in range(80):
        level = small_level(seed) if seed % 2 else medium_level(seed)
        graph = SearchGraph(level)
        areas, blockers = graph.areas_count, graph.blocker_count
        start = graph.graph.start_area

        def steps_from(node):
            if node < areas:
                yield from (areas + b for b in graph.graph.area_blockers[node] if graph.defeatable[b])
                yield from (areas + blockers + g for g in graph.graph.area_goals[node])
            elif node < areas + blockers:
                b = node - areas
                yield from graph.graph.blocker_areas[b]
                yield from (areas + c for c in graph.graph.blocker_blockers[b] if graph.defeatable[c])
                yield from (areas + blockers + g for g in graph.graph.blocker_goals[b])

        def reachable(without):
            seen, stack = {start}, [start]
            while stack:
                for nxt in steps_from(stack.pop()):
                    if nxt != without and nxt not in seen:
                        seen.add(nxt)
                        stack.append(nxt)
            return seen

        everywhere = reachable(None)
        assert {n for n in range(graph.node_count) if graph.idom[n] is not None} == everywhere
        cut_off = {d: everywhere - reachable(d) for d in everywhere if d != start}
        for x in everywhere - {start}:
            ancestors, at = set(), graph.idom[x]
            while at != start:
                ancestors.add(at)
                at = graph.idom[at]
            assert ancestors == {d for d, lost in cut_off.items() if d != x and x in lost}, (seed, x)
            checked += 1
    assert checked > 1000


def test_dominance_rule_is_sound_on_random_state_pairs():
    """Whenever the rule says A dominates B, A's best continuation is at least B's (plain rules)."""
    pairs = 0
    for seed in range(150):
        level = small_level(seed, max_blockers=7)
        states = {}
        for walk in range(12):
            rng = random.Random(seed * 100 + walk)
            for walker, rules_state, engine_state in random_walk(level, rng, steps=6):
                states[(engine_state.consumed, engine_state.hp)] = (walker, rules_state, engine_state)
        values = list(states.values())
        for walker, rules_a, a in values:
            for _, rules_b, b in values:
                if a is b or a.consumed == b.consumed or not dominates(walker, a, b):
                    continue
                best_b = best_from(level, rules_b)
                if best_b is not None:
                    best_a = best_from(level, rules_a)
                    assert best_a is not None and best_a >= best_b, seed
                    pairs += 1
    assert pairs > 50



@pytest.mark.parametrize("compiled", [False, True])
def test_wins_from_answers_as_the_plain_rules_while_its_searches_share_failures(compiled):
    """The counting walk asks, state after state, whether a route with at least some hp goes on from
    there; the searches that answer share the states they found failing. On random walks, every answer
    is the plain rules' (an exhaustive best continuation), for thresholds below, at and above the
    level's optimum, with the failures of all earlier questions in play: in Python, and in the compiled
    core, which keeps the failures itself (so only the Python run can count answers they gave)."""
    if compiled and passages_search._passages_core is None:
        pytest.skip("the compiled core is not built")
    asked = answered_by_failures = 0
    for seed in range(60):
        level = small_level(seed, max_blockers=8)
        optimum = best_from(level, initial_state(level)[0])
        if optimum is None:
            continue
        walks = [list(random_walk(level, random.Random(seed * 100 + walk), steps=6)) for walk in range(6)]
        for at_least in (1, optimum, optimum + 1):
            wins_from = _WinsFrom(walks[0][0][0].sg, Deadline(None), at_least, compiled)
            for walk in walks:
                for _, rules_state, engine_state in walk:
                    want = best_from(level, rules_state)
                    known_before = 0 if compiled else len(wins_from.failures.states)
                    got = wins_from.from_state(engine_state)
                    assert got == (want is not None and want >= at_least), (seed, at_least)
                    asked += 1
                    answered_by_failures += not got and known_before > 0
    assert asked > 1000 and (compiled or answered_by_failures > 100)


AROUND_THE_DOOR = """
game = "passages"
map = '''
#########
#S.D+k..#
#.###.#.#
#.e...#D#
#######D#
#######G#
'''
[player]
hp = 10
atk = 5
keys = 1
[legend]
D = { kind = "door" }
k = { kind = "key" }
"+" = { kind = "elixir", hp = 4 }
e = { kind = "enemy", hp = 1, atk = 9, def = 0 }
"""


def test_a_superset_with_a_door_and_more_life_is_not_better():
    """Opening the first door takes the elixir and a key but spends the starting key; going around past
    the harmless enemy takes the same things and keeps it, and the goal needs two more keys. The door
    state has consumed more, has more hp and no more damage, yet only the other state wins."""
    level = level_from_toml(AROUND_THE_DOOR)
    graph = SearchGraph(level)
    walker = _Walker(graph, level.player.hp, graph.all_mask, closure=False)
    start, _ = walker.initial()
    first_door = graph.graph.blocker_of_object[level.thing_at[(1, 3)]]
    after_door = walker.consume(start, first_door, 0)
    assert after_door.hp > start.hp and after_door.consumed & ~start.consumed
    assert walker.damage_so_far(after_door) <= walker.damage_so_far(start)
    assert not dominates(walker, after_door, start)
    rules_start, _ = initial_state(level)
    rules_after_door = consume(level, rules_start, level.thing_at[(1, 3)])[0]
    assert best_from(level, rules_after_door) is None and best_from(level, rules_start) == 14


def test_an_enemy_superset_with_less_damage_dominates():
    """The same level from the other side: fighting the harmless enemy first dominates not fighting it."""
    level = level_from_toml(AROUND_THE_DOOR)
    graph = SearchGraph(level)
    walker = _Walker(graph, level.player.hp, graph.all_mask, closure=False)
    start, _ = walker.initial()
    enemy = graph.graph.blocker_of_object[level.thing_at[(3, 2)]]
    after_fight = walker.consume(start, enemy, 0)
    assert dominates(walker, after_fight, start) and not dominates(walker, start, after_fight)
    rules_start, _ = initial_state(level)
    rules_after = consume(level, rules_start, level.thing_at[(3, 2)])[0]
    assert best_from(level, rules_after) >= best_from(level, rules_start)



def test_the_same_areas_reached_around_a_door_dominate_the_door():
    """Opening the first door and fighting the harmless enemy reach the same areas by different blockers.
    The way round keeps the key, so it dominates the door; the door, with one door more opened, does not
    dominate the way round, though it lost no more life."""
    level = level_from_toml(AROUND_THE_DOOR)
    graph = SearchGraph(level)
    walker = _Walker(graph, level.player.hp, graph.all_mask, closure=False)
    start, _ = walker.initial()
    after_door = walker.consume(start, graph.graph.blocker_of_object[level.thing_at[(1, 3)]], 0)
    after_fight = walker.consume(start, graph.graph.blocker_of_object[level.thing_at[(3, 2)]], 0)
    assert after_door.areas == after_fight.areas and after_door.consumed != after_fight.consumed
    assert walker.damage_so_far(after_door) == walker.damage_so_far(after_fight) == 0
    assert dominates(walker, after_fight, after_door) and not dominates(walker, after_door, after_fight)
    assert walker.key(after_door) != walker.key(after_fight)
    rules_start, _ = initial_state(level)
    by_door = consume(level, rules_start, level.thing_at[(1, 3)])[0]
    by_fight = consume(level, rules_start, level.thing_at[(3, 2)])[0]
    assert best_from(level, by_fight) == 14 and best_from(level, by_door) is None


ROUND_THE_BACK = """
game = "passages"
map = '''
##########
#Sf..#####
#.##.#####
#.c.b..gG#
##########
'''
[player]
hp = 20
atk = 10
[legend]
f = { kind = "enemy", hp = 15, atk = 3, def = 0 }
c = { kind = "enemy", hp = 15, atk = 2, def = 0 }
b = { kind = "enemy", hp = 15, atk = 2, def = 0 }
g = { kind = "enemy", hp = 15, atk = 2, def = 0 }
"""


def test_a_step_that_closes_to_the_state_itself_does_not_make_it_dominated():
    """Enemy b touches three areas: the corridor behind f, the room behind c and the way to g. A state
    that took f and c and then b writes where the raw set {f, c, b} leads. The state that took c and b
    alone has reached the same areas, so that raw set is its own frontier step over f (now pointless),
    and it closes to its own key. The state stored under that key is itself; dominance application 3
    must not drop it for being as good as itself, or the only key from which g is fought is lost (every
    enemy here hits once for its attack: c, b, g cost 2 each, f costs 3)."""
    level = level_from_toml(ROUND_THE_BACK)
    graph = SearchGraph(level)
    walker = _Walker(graph, level.player.hp, graph.useful_mask, closure=True)
    start, _ = walker.initial()
    f, c, b = (graph.graph.blocker_of_object[level.thing_at[(row, col)]] for row, col in ((1, 2), (3, 2), (3, 4)))
    all_three = walker.consume(walker.consume(walker.consume(start, f, 3), c, 2), b, 2)
    step_target = {all_three.consumed: (walker.key(all_three), all_three.elixirs)}
    round_the_back = walker.consume(walker.consume(start, c, 2), b, 2)
    assert walker.key(round_the_back) == walker.key(all_three) and round_the_back.hp == 16
    assert round_the_back.frontier >> f & 1 and round_the_back.consumed | 1 << f == all_three.consumed
    own_key = walker.key(round_the_back)
    assert not _dominated(walker, round_the_back, own_key, {own_key: round_the_back}, step_target)
    assert passages_search.best_route(level, Deadline(None)).final_hp == 14


TWO_WAYS = """
game = "passages"
map = '''
############
#Gb..S.a+cG#
############
'''
[player]
hp = 10
atk = 10
[legend]
b = { kind = "enemy", hp = 15, atk = 5, def = 0 }
a = { kind = "enemy", hp = 15, atk = 9, def = 0 }
c = { kind = "enemy", hp = 15, atk = 15, def = 0 }
"+" = { kind = "elixir", hp = 20 }
"""


def test_least_need_takes_the_way_that_needs_less_though_it_ends_lower():
    """Every enemy here takes two strikes, so it hits once for its attack. Left: b costs 5, so it needs 6
    hp and ends with hp - 5. Right: a costs 9 (needs 10) and guards the elixir (+20); then c (15) or, back
    past the start, b (5). The best route from 10 hp fetches the elixir and goes left: 10 - 9 + 20 - 5 = 16.
    The least starting hp is 6, by the left way alone, which ends with 1."""
    level = level_from_toml(TWO_WAYS)
    assert passages_search.min_start_hp(level, Deadline(None)).value == 6
    assert passages_search.best_route(level, Deadline(None)).final_hp == 16
    assert passages_search.best_route(level.with_start_hp(6), Deadline(None)).final_hp == 1
    assert passages_search.best_route(level.with_start_hp(5), Deadline(None)).status != SOLVABLE

@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(10))
def test_agrees_with_cpsat(chunk):
    """500 random levels up to 25 blockers: CP-SAT and the search agree on solvable, final hp, min start hp."""
    passages_cpsat = pytest.importorskip("twisty.solver.passages_cpsat")
    for seed in range(chunk * 50, chunk * 50 + 50):
        rng = random.Random(10_000 + seed)
        level = random_level(10_000 + seed, cells_wide=rng.randint(5, 7), cells_high=rng.randint(4, 6),
                             blockers=rng.randint(1, 25), items=rng.randint(0, 10),
                             loops=rng.choice([0.0, 0.1, 0.3]))
        mine = passages_search.best_route(level, Deadline(None))
        theirs = passages_cpsat.best_route(level, Deadline(None))
        assert (mine.status, mine.final_hp) == (theirs.status, theirs.final_hp), seed
        assert mine.proved and theirs.proved, seed
        if mine.status == SOLVABLE:
            assert replay(level, mine.decisions).final_hp == mine.final_hp, seed
        assert passages_search.min_start_hp(level, Deadline(None)) == \
            passages_cpsat.min_start_hp(level, Deadline(None)), seed



@pytest.mark.slow
def test_counts_agree_with_cpsat_beyond_brute_force():
    """25 random solvable levels of 15 to 22 blockers, too large for brute force: the search's counts
    (the walk guided by its own decision searches) equal CP-SAT's (solve and block signatures)."""
    passages_cpsat = pytest.importorskip("twisty.solver.passages_cpsat")
    for seed, level, best in solvable_random_levels(20_000, 25, wide=(4, 6), high=(4, 5), blockers=(15, 22),
                                                    items=(3, 8), engine=passages_search):
        cap = 1 + seed % 3
        mine = passages_search.count_solutions(level, Deadline(None), cap, best.final_hp)
        theirs = passages_cpsat.count_solutions(level, Deadline(None), cap, best.final_hp)
        assert count_fields(mine) == count_fields(theirs), seed


def test_running_out_of_time_gives_unknown_or_an_unproven_answer_never_a_guess():
    """A deadline that has already passed: the best route is unknown or unproved, the min start hp
    unknown, the counts flagged incomplete (on a level whose answers take far more than 256 steps)."""
    level = load_suite_builder().build_level(40004, 40, 21, 15).with_start_hp(72)
    expired = Deadline(1e-9)
    route = passages_search.best_route(level, expired)
    assert route.status == "unknown" or not route.proved
    assert passages_search.min_start_hp(level, expired).status == "unknown"
    counted = passages_search.count_solutions(level, expired, 5, None)
    assert not counted.complete
    proper = passages_search.best_route(level, Deadline(None))
    assert proper.proved and proper.status == SOLVABLE


def test_unsurvivable_enemies_are_walls_only_when_no_route_survives_them():
    """With a starting hp, SearchGraph turns into walls the enemies whose fight no route survives (the
    bound's relaxation of the life left after them is below 1). Every wall is checked against the plain
    rules: no legal sequence of moves from the start ever fights it. The optimum agrees with brute force."""
    import dataclasses
    walled_levels = 0
    for seed in range(300):
        base = small_level(seed)
        for hp in (1, 5, 15, 40):
            level = dataclasses.replace(base, player=dataclasses.replace(base.player, hp=hp))
            plain, walled = SearchGraph(level), SearchGraph(level, hp)
            walls = {plain.objects[b] for b in range(plain.blocker_count)
                     if plain.defeatable[b] and not walled.defeatable[b]}
            if not walls:
                continue
            walled_levels += 1
            start, _ = initial_state(level)
            for _, index in legal_moves_from(level, start):
                assert index not in walls, (seed, hp, index)
            expected = passages_brute.best_route(level, Deadline(None))
            found = passages_search.best_route(level, Deadline(None))
            assert (found.status, found.final_hp, found.proved) == (expected.status, expected.final_hp, True)
    assert walled_levels >= 5
