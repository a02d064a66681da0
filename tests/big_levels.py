"""Large levels for the deadline tests of `twisty render` and `twisty serve`, built here rather than shipped:
a passages map of SIZE x SIZE cells whose corridors wind from the top row to the bottom one (the route
walks every cell of them), with an enemy, a key and its door, or an elixir every few cells along it."""

from __future__ import annotations


def serpentine(size: int = 120, every: int = 30) -> str:
    """The level's TOML text: a size x size map (odd rows are corridors, joined at alternate ends), the start
    at the top left, the goal at the end of the last corridor, and a thing every `every` cells of the way:
    Rat, key, door, elixir in turn (each door has its key before it)."""
    grid = [["#"] * size for _ in range(size)]
    rows = list(range(1, size - 1, 2))
    path = []
    for number, row in enumerate(rows):
        columns = range(1, size - 1) if number % 2 == 0 else range(size - 2, 0, -1)
        for col in columns:
            grid[row][col] = "."
            path.append((row, col))
        if number + 1 < len(rows):
            gap = size - 2 if number % 2 == 0 else 1
            grid[row + 1][gap] = "."
            path.append((row + 1, gap))
    (start_row, start_col), (goal_row, goal_col) = path[0], path[-1]
    grid[start_row][start_col] = "S"
    grid[goal_row][goal_col] = "G"
    for number, (row, col) in enumerate(path[3:-3]):
        if number % every == 0:
            grid[row][col] = "rkdp"[(number // every) % 4]
    drawn = "\n".join("".join(row) for row in grid)
    return f'''game = "passages"
name = "A winding {size}x{size} map"
map = """
{drawn}
"""

[player]
hp = 1000
atk = 10
def = 5
keys = 0

[legend]
r = {{ kind = "enemy", name = "Rat", hp = 5, atk = 6, def = 1 }}
k = {{ kind = "key" }}
d = {{ kind = "door" }}
p = {{ kind = "elixir", hp = 3 }}
'''
