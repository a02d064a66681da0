"""The genre's standard solver, written plainly: the baseline of `twisty bench passages`.

Public Magic Tower / Tower of the Sorcerer solvers all run this algorithm: compress the map into a graph of
areas joined by blockers, take every item of a reached area at once, fight zero-damage enemies at once, and
search over the sets of consumed blockers keeping the best life per set. There is no bound, no dominance
between different sets and no ordering: every reachable set is visited (breadth first), and the answer is
the best life among the sets from which a goal is reached.

Same contract as the project's engines for `best_route` (twisty.solver.passages_verdict); it answers
nothing else. Sets are bitmask ints and the graph is precomputed, so that the comparison measures the
algorithm rather than the bookkeeping.
"""

from __future__ import annotations

from collections import deque

from twisty.rules.passages import PassagesLevel, fight_damage
from twisty.rules.passages_graph import build_graph
from twisty.solver.passages_verdict import SOLVABLE, UNKNOWN, UNSOLVABLE, BestRoute, Deadline

NAME = "standard"


def best_route(level: PassagesLevel, deadline: Deadline) -> BestRoute:
    graph = build_graph(level)
    count = len(graph.blockers)
    is_door = [level.things[obj].kind == "door" for obj in graph.blockers]
    enemy = [level.things[obj].enemy for obj in graph.blockers]
    area_blockers = [sum(1 << b for b in bs) for bs in graph.area_blockers]
    blocker_areas = [list(areas) for areas in graph.blocker_areas]
    blocker_blockers = [sum(1 << c for c in bs) for bs in graph.blocker_blockers]

    def reach_goal(areas: int, consumed: int) -> int:
        for a in range(len(graph.areas)):
            if areas >> a & 1 and graph.area_goals[a]:
                return graph.area_goals[a][0]
        for b in range(count):
            if consumed >> b & 1 and graph.blocker_goals[b]:
                return graph.blocker_goals[b][0]
        return -1

    def step(state, b):
        """Consume blocker b, then take the items of every newly reached area."""
        consumed, areas, atk, defense, keys, hp, front = state
        if is_door[b]:
            keys -= 1
        else:
            hp -= fight_damage(enemy[b], atk, defense)
        consumed |= 1 << b
        front |= blocker_blockers[b]
        for a in blocker_areas[b]:
            if not areas >> a & 1:
                areas |= 1 << a
                area = graph.areas[a]
                atk, defense, keys, hp = atk + area.atk, defense + area.defense, keys + area.keys, hp + area.hp
                front |= area_blockers[a]
        return consumed, areas, atk, defense, keys, hp, front & ~consumed

    def free_fights(state, route):
        """Greedy: fight every enemy on the frontier that costs nothing, until none is left."""
        progress = True
        while progress:
            progress = False
            for b in range(count):
                if state[6] >> b & 1 and not is_door[b] and fight_damage(enemy[b], state[2], state[3]) == 0:
                    state = step(state, b)
                    route.append(("fight", graph.blockers[b]))
                    progress = True
        return state

    start = graph.start_area
    area = graph.areas[start]
    player = level.player
    root_route: list = []
    root = free_fights((0, 1 << start, player.atk + area.atk, player.defense + area.defense,
                        player.keys + area.keys, player.hp + area.hp, area_blockers[start]), root_route)
    best_hp = {root[0]: root[5]}
    parent = {root[0]: (None, tuple(root_route))}
    queue = deque([root])
    visited = 0
    while queue:
        state = queue.popleft()
        if best_hp[state[0]] != state[5]:
            continue
        visited += 1
        if visited % 256 == 0 and deadline.expired():
            return BestRoute(UNKNOWN)
        consumed, _, atk, defense, keys, hp, front = state
        for b in range(count):
            if not front >> b & 1:
                continue
            if is_door[b]:
                if keys < 1:
                    continue
            else:
                damage = fight_damage(enemy[b], atk, defense)
                if damage is None or damage >= hp:
                    continue
            route = [("open" if is_door[b] else "fight", graph.blockers[b])]
            child = free_fights(step(state, b), route)
            if child[0] in best_hp and best_hp[child[0]] >= child[5]:
                continue
            best_hp[child[0]] = child[5]
            parent[child[0]] = (consumed, tuple(route))
            queue.append(child)

    # The best life among the sets from which a goal is reached (a goal never changes life).
    best = None
    for consumed, hp in sorted(best_hp.items(), key=lambda item: -item[1]):
        goal = reach_goal(_areas_of(graph, consumed), consumed)
        if goal >= 0:
            best = (consumed, hp, goal)
            break
    if best is None:
        return BestRoute(UNSOLVABLE, proved=True)
    consumed, hp, goal = best
    pieces = []
    key = consumed
    while key is not None:
        key, piece = parent[key]
        pieces.append(piece)
    decisions = tuple(d for piece in reversed(pieces) for d in piece) + (("goal", goal),)
    return BestRoute(SOLVABLE, hp, decisions, proved=True)


def _areas_of(graph, consumed: int) -> int:
    areas = 1 << graph.start_area
    for b in range(len(graph.blockers)):
        if consumed >> b & 1:
            for a in graph.blocker_areas[b]:
                areas |= 1 << a
    return areas
