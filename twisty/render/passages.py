"""Text pictures of passages levels: the walkthrough, and the map with the route drawn on it."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from heapq import heappop, heappush
from itertools import chain, count

from twisty.limits import Deadline
from twisty.rules.passages import COLOURS, Cell, PassagesLevel, Replay, Stats, TowerStats, neighbours

STEP_LABELS = "123456789abcdefghijklmnopqrstuvwxyzABCDEFHIJKLMNOPQRTUVWXYZ"
WALKED = "*"


def stats_text(stats: Stats) -> str:
    if not isinstance(stats, TowerStats):
        return f"hp {stats.hp:>3}  atk {stats.atk:>2}  def {stats.defense:>2}  keys {stats.keys}"
    coloured = "/".join(str(count) for count in stats.coloured)
    plain = f" + {stats.keys}" if stats.keys else ""
    return (
        f"hp {stats.hp:>3}  atk {stats.atk:>2}  def {stats.defense:>2}  mdef {stats.mdef}  money {stats.money}  "
        f"keys {coloured} ({'/'.join(colour[0] for colour in COLOURS)}){plain}"
    )


def place_text(level: PassagesLevel, cell: tuple[int, int]) -> str:
    """Where a cell is, as a walkthrough says it: (row,col), on a tower with its floor."""
    floor, (row, col) = level.floor_of(cell)
    return f"{floor} ({row},{col})" if floor else f"({row},{col})"


def walkthrough(level: PassagesLevel, route: Replay) -> list[str]:
    lines = [f"start           {stats_text(level.player)}"]
    for number, step in enumerate(route.steps, start=1):
        label = STEP_LABELS[number - 1] if number <= len(STEP_LABELS) else "+"
        where = place_text(level, step.at)
        if step.action == "fight":
            what = f"fight {step.thing} at {where}: -{step.damage} hp"
        elif step.action == "goal":
            what = f"reach the goal at {where}" if level.guard_at(step.at) is None else "the boss is defeated: won"
        elif step.action == "buy":
            what = f"buy {step.thing} at the shop"
        elif step.action == "take" and step.thing == "shop":
            what = f"visit the shop at {where} (buy from now on)"
        else:
            what = f"{step.action} {step.thing} at {where}"
        lines.append(f"{label:>2}. {what}")
        lines.append(f"      -> {stats_text(step.stats)}")
    return lines


def route_legs(level: PassagesLevel, route: Replay, deadline: Deadline | None = None) -> list[list[Cell]]:
    """For each step of the route, the cells the hero walks to reach it: a shortest walk from the cell of
    the step before (the start for the first) to the step's own cell, through the cells open at that point
    ("you may move anywhere there is an unobstructed path": not walls, doors and enemies left, or goals),
    the step's cell last. A purchase is made from anywhere and walks nowhere (an empty leg).

    What is open grows as the route consumes blockers (the reach flooded from each consumed cell, as the
    rules do), so the whole route costs one flood of the map plus one search per step; each search is
    A* towards the step's cell (a breadth-first search on a tower, whose stairs join far cells). Polls
    `deadline` as it goes and raises LimitReached when it has passed."""
    blockers = {thing.cell for thing in level.things if thing.is_blocker}
    goals = set(level.goals)
    links = level.link_map

    def open_cell(cell: Cell) -> bool:
        return not level.is_wall(cell) and cell not in blockers and cell not in goals

    reach = {level.start}
    _flood_open(level, level.start, reach, open_cell, deadline)
    legs: list[list[Cell]] = []
    position = level.start
    for step in route.steps:
        if step.action == "buy":
            legs.append([])
            continue
        legs.append(_shortest_walk(reach, links, position, step.at, deadline))
        position = step.at
        if step.at in blockers and step.action in ("open", "fight", "take"):
            blockers.discard(step.at)
            reach.add(step.at)
            _flood_open(level, step.at, reach, open_cell, deadline)
    return legs


# Cells looked at between two polls of the deadline (a poll costs a clock read).
_POLL_EVERY = 2048


def _flood_open(
    level: PassagesLevel, origin: Cell, reach: set[Cell], open_cell: Callable[[Cell], bool], deadline: Deadline | None
) -> None:
    """Grow `reach` (which holds `origin`) by every open cell reachable from origin."""
    links = level.link_map
    queue = deque([origin])
    popped = 0
    while queue:
        cell = queue.popleft()
        popped += 1
        if deadline is not None and popped % _POLL_EVERY == 0:
            deadline.check()
        for nxt in chain(neighbours(cell), links.get(cell, ())) if links else neighbours(cell):
            if nxt not in reach and open_cell(nxt):
                reach.add(nxt)
                queue.append(nxt)


def _shortest_walk(
    reach: set[Cell], links: dict[Cell, tuple[Cell, ...]], start: Cell, target: Cell, deadline: Deadline | None
) -> list[Cell]:
    """A shortest walk from start to target through `reach` (the target may lie outside it: a blocker or a
    goal); [start, ..., target], or [target] alone when no walk exists (never on a replayed route)."""
    if start == target:
        return [target]
    previous: dict[Cell, Cell | None] = {start: None}

    # A* with the Manhattan distance, which never overestimates a walk of unit moves on one map; stairs
    # join far cells in one move, so a tower is searched breadth-first (distance 0 for every cell).
    def estimate(cell: Cell) -> int:
        return 0 if links else abs(cell[0] - target[0]) + abs(cell[1] - target[1])

    order = count()
    frontier: list[tuple[int, int, int, Cell]] = [(estimate(start), 0, next(order), start)]
    walked = {start: 0}
    popped = 0
    found = False
    while frontier:
        _, steps, _, cell = heappop(frontier)
        if steps > walked[cell]:
            continue
        if cell == target:
            found = True
            break
        popped += 1
        if deadline is not None and popped % _POLL_EVERY == 0:
            deadline.check()
        for nxt in chain(neighbours(cell), links.get(cell, ())) if links else neighbours(cell):
            if (nxt in reach or nxt == target) and steps + 1 < walked.get(nxt, steps + 2):
                walked[nxt] = steps + 1
                previous[nxt] = cell
                heappush(frontier, (steps + 1 + estimate(nxt), steps + 1, next(order), nxt))
    if not found:
        return [target]
    path: list[Cell] = []
    here: Cell | None = target
    while here is not None:
        path.append(here)
        here = previous[here]
    return path[::-1]


def route_map(level: PassagesLevel, route: Replay, deadline: Deadline | None = None) -> list[str]:
    """The map with every walked cell marked `*` and each step's cell marked with its step label."""
    grid = [list(row.ljust(level.width)) for row in level.grid]
    labels = {}
    walked: set[Cell] = set()
    for number, (step, leg) in enumerate(zip(route.steps, route_legs(level, route, deadline), strict=True), start=1):
        if step.action == "buy":
            continue  # bought from anywhere
        walked.update(leg)
        labels[step.at] = STEP_LABELS[number - 1] if number <= len(STEP_LABELS) else "+"
    for r, c in walked:
        if grid[r][c] == ".":
            grid[r][c] = WALKED
    for (r, c), label in labels.items():
        grid[r][c] = label
    return ["".join(row).rstrip() for row in grid]


def legend_lines(level: PassagesLevel) -> list[str]:
    seen: dict[str, str] = {}
    for thing in level.things:
        seen.setdefault(thing.symbol, thing.describe())
    return [f"  {symbol}  {text}" for symbol, text in sorted(seen.items())]
