"""The previous counting code of the search engine, kept as the baseline of the counting benchmark.

Until the counting engine (passages_count) replaced it, the search engine counted solutions with this walk:
depth first over every (consumed set, costly fights) pair, without the closure (a free fight taken early can
change the stats, hence the signature, of later fights), entering only states from which a counted route can
still go on, as the core's Decider decides (for optimal signatures, from which a route with final_hp goes on;
for the rest, from which some route wins). Every (set, fights) pair below a winnable state is walked, so a
level whose one solution can be played in many orders is walked once per order. `twisty bench passages
--questions count` runs it beside the counting engine in the same run (ratios), and the tests hold the two
to the same counts on the shipped suite and puzzles.
"""

from __future__ import annotations

from twisty.rules.passages import Decision, PassagesLevel, signature_entry
from twisty.solver import passages_reference, passages_search
from twisty.solver.passages_reference import Position
from twisty.solver.passages_search import SearchGraph, fits, search
from twisty.solver.passages_search_graph import bits
from twisty.solver.passages_verdict import Deadline, SolutionCount, witnesses_kept

NAME = "search-walk"

# How many steps of the counting walk between two looks at the clock.
_CLOCK_EVERY = 256


def count_solutions(level: PassagesLevel, deadline: Deadline, cap: int, final_hp: int | None) -> SolutionCount:
    """Distinct winning signatures up to `cap`, and those that reach `final_hp` (the best when None)."""
    hp = level.player.hp
    sg = SearchGraph(level, hp)
    if not fits(sg, hp):
        return passages_reference.count_solutions(level, deadline, cap, final_hp)
    try:
        if final_hp is None:
            best = search(sg, hp, deadline)
            if not best.complete:
                return SolutionCount(0, 0, False, False)
            final_hp = best.best_hp
        if final_hp is None:
            return SolutionCount(0, 0, False, True)
        optimal, complete = _winning_signatures(sg, deadline, at_least=final_hp, limit=cap + 1)
        others: dict = {}
        if complete and len(optimal) <= cap:
            others, complete = _winning_signatures(sg, deadline, at_least=1, limit=cap + 1)
    except MemoryError:
        deadline.out_of_memory = True
        return SolutionCount(0, 0, False, False)
    for signature, win in optimal.items():
        others.setdefault(signature, win)
    total = len(others)
    # Out of time, the counts are what was found so far: lower bounds, flagged by complete=False.
    ranked = sorted(others.values(), key=lambda win: -win[0])
    return SolutionCount(
        min(total, cap),
        min(len(optimal), cap),
        total > cap,
        complete,
        tuple(route for _, route in ranked[: witnesses_kept(cap)]),
    )


def _winning_signatures(sg: SearchGraph, deadline: Deadline, *, at_least: int, limit: int) -> tuple[dict, bool]:
    """Winning signatures whose best route reaches at least `at_least` hp, up to `limit` of them, each with
    (hp, route), and whether the walk finished (or reached the limit) before the deadline. Depth-first over
    (consumed set, costly fights), every move by the rules (RegionWalk); the walk enters only states from
    which some route still reaches `at_least` hp, as the core's Decider finds (module docstring)."""
    walk = sg.walk
    level = sg.level
    decider = passages_search._passages_core.Decider(sg.compiled_graph(), at_least, False)
    root = walk.start(level.player)
    wins: dict = {}
    seen = set()
    stack: list[tuple[Position, frozenset, tuple[Decision, ...]]] = [(root, frozenset(), ())]
    steps = 0
    while stack:
        steps += 1
        if steps % _CLOCK_EVERY == 0 and deadline.expired():
            return wins, False
        at, fights, route = stack.pop()
        if (at.consumed, fights) in seen:
            continue
        seen.add((at.consumed, fights))
        winnable = decider.decide(sg.compiled_state(at), deadline)
        if winnable is None:
            return wins, False
        if not winnable:
            continue
        if at.goal >= 0 and at.stats.hp >= at_least:
            doors = frozenset(sg.objects[b] for b in bits(at.consumed & sg.door_mask))
            signature = (doors, fights)
            if signature not in wins or wins[signature][0] < at.stats.hp:
                wins[signature] = (at.stats.hp, route + (("goal", at.goal),))
                if len(wins) >= limit:
                    return wins, True
        for b in bits(at.frontier):
            moved = walk.step(at, b)
            if moved is None:
                continue
            child, cost = moved
            entry = signature_entry(level, sg.objects[b], at.stats, cost)
            stack.append((child, fights | {entry} if entry else fights, route + (walk.decision(b),)))
    return wins, True
