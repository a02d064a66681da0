"""The brute force: enumerate every route with the plain rules on the grid. Exponential; tiny levels only.

It walks the grid itself (no region graph, no bounds, no dominance), so that it is a witness independent
of everything but the rules in the differential tests: the reference engine (passages_reference) and the
search engine both work on the region graph. Two routes are merged only when they reach the same consumed
set with the same signature, because then everything that follows is identical: items are a function of
the consumed set and life lost is a function of the signature. In a tower (docs/mota.md) that is no longer
so (purchases change the stats, drain the damage), and the stats join what must be the same; every
purchase is tried at every moment it is allowed, where the other engines buy as soon as they can.
"""

from __future__ import annotations

from twisty.rules.passages import (
    PURCHASES,
    Decision,
    PassagesLevel,
    RouteState,
    Signature,
    SignatureFight,
    arrive,
    blocker_cost,
    consume,
    frontier,
    initial_state,
    purchase,
    reachable_goals,
    signature_entry,
    start_hp_upper_bound,
)
from twisty.rules.passages_tower import UNSAFE, stat_classes, tower_start_hp_upper_bound
from twisty.solver.passages_verdict import (
    SOLVABLE,
    UNKNOWN,
    UNSOLVABLE,
    BestRoute,
    Deadline,
    MinStartHp,
    SolutionCount,
    witnesses_kept,
)

NAME = "brute"
_ACTIONS = {"door": "open", "enemy": "fight", "equipment": "take"}


class _OutOfTime(Exception):
    pass


def winning_signatures(
    level: PassagesLevel, deadline: Deadline, *, canonical: bool = False
) -> dict[Signature, tuple[int, tuple[Decision, ...]]]:
    """Every winning signature with the best final hp it reaches and a route that reaches it. With
    `canonical`, only routes in the form solutions are counted in (docs/mota.md): a purchase the hero can
    afford is made at once, unless one on offer raises a stat that can hurt."""
    waits = canonical and level.shop is not None and _purchases_may_wait(level)
    state, _ = initial_state(level)
    wins: dict[Signature, tuple[int, tuple[Decision, ...]]] = {}
    seen = set()
    stack: list[tuple[RouteState, frozenset[int], frozenset[SignatureFight], tuple[Decision, ...]]] = [
        (state, frozenset(), frozenset(), ())
    ]
    tower = bool(level.features)
    while stack:
        if deadline.expired():
            raise _OutOfTime
        state, doors, fights, decisions = stack.pop()
        key = (state.consumed, doors, fights, state.stats if tower else None)
        if key in seen:
            continue
        seen.add(key)
        for goal in reachable_goals(level, state):
            arrived = arrive(level, goal, state.stats)
            if arrived is None:
                continue
            guard = level.guard(goal)
            entry = None if guard is None else signature_entry(level, guard, state.stats, arrived[1])
            signature = (doors, fights | {entry} if entry else fights)
            if signature not in wins or wins[signature][0] < arrived[0].hp:
                wins[signature] = (arrived[0].hp, decisions + (("goal", goal),))
            if not level.guards:
                break  # (every plain goal ends the same)
        bought_any = False
        for choice in level.shop.choices if level.shop is not None else ():
            try:
                bought = purchase(level, state, choice)
            except ValueError:
                continue
            bought_any = True
            stack.append((bought, doors, fights, decisions + (("buy", choice),)))
        if canonical and bought_any and not waits:
            continue
        for index in frontier(level, state):
            cost = blocker_cost(level, index, state.stats)
            if cost is None:
                continue
            after, cost, _ = consume(level, state, index)
            kind = level.things[index].kind
            entry = signature_entry(level, index, state.stats, cost)
            stack.append(
                (
                    after,
                    doors | {index} if kind == "door" else doors,
                    fights | {entry} if entry else fights,
                    decisions + ((_ACTIONS[kind], index),),
                )
            )
    return wins


def _purchases_may_wait(level: PassagesLevel) -> bool:
    assert level.shop is not None
    classes = stat_classes(level)
    return any(choice and classes[PURCHASES[choice]] == UNSAFE for choice in level.shop.choices)


def best_route(level: PassagesLevel, deadline: Deadline) -> BestRoute:
    try:
        wins = winning_signatures(level, deadline)
    except _OutOfTime:
        return BestRoute(UNKNOWN)
    if not wins:
        return BestRoute(UNSOLVABLE, proved=True)
    hp, decisions = max(wins.values(), key=lambda win: win[0])
    return BestRoute(SOLVABLE, hp, decisions, proved=True)


def min_start_hp(level: PassagesLevel, deadline: Deadline) -> MinStartHp:
    """Solvability only grows with the starting hp, so a binary search over it is exact."""

    def solvable(hp: int) -> bool:
        return bool(winning_signatures(level.with_start_hp(hp), deadline))

    try:
        high = tower_start_hp_upper_bound(level) if level.features else start_hp_upper_bound(level)
        if not solvable(high):
            return MinStartHp("none")
        low = 1
        while low < high:
            middle = (low + high) // 2
            if solvable(middle):
                high = middle
            else:
                low = middle + 1
    except _OutOfTime:
        return MinStartHp(UNKNOWN)
    return MinStartHp("proved", low)


def count_solutions(level: PassagesLevel, deadline: Deadline, cap: int, final_hp: int | None) -> SolutionCount:
    try:
        wins = winning_signatures(level, deadline, canonical=True)
    except _OutOfTime:
        return SolutionCount(0, 0, False, False)
    ranked = sorted(wins.values(), key=lambda win: -win[0])
    optimal = sum(1 for hp, _ in ranked if hp == final_hp)
    return SolutionCount(
        min(len(ranked), cap),
        min(optimal, cap),
        len(ranked) > cap,
        True,
        tuple(decisions for _, decisions in ranked[: witnesses_kept(cap)]),
    )
