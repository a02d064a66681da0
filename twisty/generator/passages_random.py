"""Seeded random passages levels for differential tests and benchmark suites.

These levels are not tuned for players (that is twisty.generator.passages); they are varied, small or
large on demand, and reproducible from a seed: a maze with some loops, blockers on corridor cells, items
scattered, enemies with stats drawn so that many fights are possible but not all.
"""

from __future__ import annotations

import random

from twisty.rules.passages import Enemy, PassagesLevel, Stats, Thing


def maze(rng: random.Random, cells_wide: int, cells_high: int, loops: float) -> list[list[str]]:
    """A perfect maze on a (2w+1) x (2h+1) grid by randomized depth-first search, then `loops` of the
    remaining walls between corridors knocked out."""
    width, height = 2 * cells_wide + 1, 2 * cells_high + 1
    grid = [["#"] * width for _ in range(height)]
    stack = [(0, 0)]
    visited = {(0, 0)}
    grid[1][1] = "."
    while stack:
        x, y = stack[-1]
        options = [
            (x + dx, y + dy)
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if 0 <= x + dx < cells_wide and 0 <= y + dy < cells_high and (x + dx, y + dy) not in visited
        ]
        if not options:
            stack.pop()
            continue
        nx, ny = rng.choice(options)
        grid[2 * y + 1 + (ny - y)][2 * x + 1 + (nx - x)] = "."
        grid[2 * ny + 1][2 * nx + 1] = "."
        visited.add((nx, ny))
        stack.append((nx, ny))
    inner_walls = [
        (r, c) for r in range(1, height - 1) for c in range(1, width - 1) if grid[r][c] == "#" and (r % 2) != (c % 2)
    ]
    for r, c in rng.sample(inner_walls, int(len(inner_walls) * loops)):
        grid[r][c] = "."
    return grid


def random_enemy(rng: random.Random, strength: int, number: int) -> Enemy:
    """An enemy whose stats grow with `strength` (the player's attack budget)."""
    defense = rng.randint(0, max(0, strength - 1))
    return Enemy(
        name=f"Foe{number}",
        hp=rng.randint(1, 4 + 3 * strength),
        atk=rng.randint(0, 2 + 2 * strength),
        defense=defense,
        first_strike=rng.random() < 0.15,
        boss=False,
    )


def random_level(
    seed: int,
    *,
    cells_wide: int = 3,
    cells_high: int = 3,
    blockers: int = 6,
    items: int = 4,
    loops: float = 0.15,
    door_share: float = 0.35,
) -> PassagesLevel:
    """A reproducible random level with `blockers` doors and enemies and `items` items."""
    rng = random.Random(seed)
    grid = maze(rng, cells_wide, cells_high, loops)
    floor = [(r, c) for r, row in enumerate(grid) for c, ch in enumerate(row) if ch == "."]
    needed = blockers + items + 2
    if needed > len(floor):
        raise ValueError(f"a {cells_wide}x{cells_high} maze has {len(floor)} floor cells; {needed} needed")
    chosen = rng.sample(floor, needed)
    start, goal = chosen[0], chosen[1]
    player = Stats(hp=rng.randint(5, 40), atk=rng.randint(1, 4), defense=rng.randint(0, 2), keys=rng.randint(0, 1))
    things = []
    for number, cell in enumerate(chosen[2 : 2 + blockers]):
        if rng.random() < door_share:
            things.append(Thing("door", "D", cell))
        else:
            things.append(Thing("enemy", "e", cell, enemy=random_enemy(rng, player.atk, number)))
    for cell in chosen[2 + blockers :]:
        roll = rng.random()
        if roll < 0.3:
            things.append(Thing("key", "k", cell))
        elif roll < 0.6:
            things.append(Thing("elixir", "+", cell, hp=rng.randint(1, 12)))
        else:
            atk, defense = rng.choice([(1, 0), (0, 1), (2, 0), (0, 2), (1, 1)])
            things.append(Thing("equipment", "s", cell, atk=atk, defense=defense))
    return assemble_level(grid, start, goal, things, player, name=f"random {seed}")


def assemble_level(
    grid: list[list[str]], start: tuple[int, int], goal: tuple[int, int], things: list[Thing], player: Stats, name: str
) -> PassagesLevel:
    """Draw the start, the goal and every object onto the maze and make the level (objects in map order)."""
    grid[start[0]][start[1]] = "S"
    grid[goal[0]][goal[1]] = "G"
    for thing in things:
        grid[thing.cell[0]][thing.cell[1]] = thing.symbol
    things.sort(key=lambda thing: thing.cell)
    return PassagesLevel(tuple("".join(row) for row in grid), start, (goal,), tuple(things), player, name=name)
