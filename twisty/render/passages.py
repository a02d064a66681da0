"""Text pictures of passages levels: the walkthrough, and the map with the route drawn on it."""

from __future__ import annotations

from collections import deque
from itertools import chain

from twisty.rules.passages import COLOURS, PassagesLevel, Replay, Stats, TowerStats, neighbours, reachable_cells

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


def _walk(level: PassagesLevel, open_cells: set, start, target) -> list:
    """A shortest walk from start to target through open cells (target may itself be a blocker)."""
    previous = {start: None}
    queue = deque([start])
    links = level.link_map
    while queue:
        cell = queue.popleft()
        if cell == target:
            break
        for nxt in chain(neighbours(cell), links.get(cell, ())):
            if nxt not in previous and (nxt in open_cells or nxt == target):
                previous[nxt] = cell
                queue.append(nxt)
    path = []
    cell = target if target in previous else None
    while cell is not None:
        path.append(cell)
        cell = previous[cell]
    return path[::-1]


def route_map(level: PassagesLevel, route: Replay) -> list[str]:
    """The map with every walked cell marked `*` and each step's cell marked with its step label."""
    grid = [list(row.ljust(level.width)) for row in level.grid]
    consumed: set[int] = set()
    index_at = level.thing_at
    position = level.start
    labels = {}
    walked = set()
    for number, step in enumerate(route.steps, start=1):
        if step.action == "buy":
            continue  # bought from anywhere
        open_cells = reachable_cells(level, frozenset(consumed))
        walked.update(_walk(level, open_cells, position, step.at))
        labels[step.at] = STEP_LABELS[number - 1] if number <= len(STEP_LABELS) else "+"
        position = step.at
        if step.action in ("open", "fight") or (step.action == "take" and level.things[index_at[step.at]].optional):
            consumed.add(index_at[step.at])
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
