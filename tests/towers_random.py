"""Random towers for the differential tests (docs/mota.md): floors, keys and doors of colours, gems, potions,
monsters with specials and money, a shop (sometimes open from the start), sometimes a boss that wins.

`random_tower(seed)` makes the tiny towers the brute force can enumerate (at most 6 doors and monsters).
With `compiled=True` it leaves out what the search engine's compiled core does not hold (drain), so that
the core answers most of them; `pieces` more things make towers too large for the brute force, still small
for the reference engine."""

from __future__ import annotations

import random

SPECIALS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 22]
COMPILED_SPECIALS = [special for special in SPECIALS if special != 11]


def random_tower(seed: int, *, compiled: bool = False, pieces: int = 0) -> str:
    """A random tower as a level file. With compiled, no drain; with `pieces`, that many more
    things (doors, keys, items, monsters, drawn with repetition) on maps a little larger."""
    rng = random.Random(seed)
    floors = rng.choice([1, 1, 2])
    boss = rng.random() < 0.4
    shop = rng.random() < 0.4
    width, height = rng.randint(4, 6), rng.randint(3, 4)
    if pieces:
        width, height = width + 2, height + 2
    legend = {
        "y": '{ kind = "key", colour = "yellow" }',
        "Y": '{ kind = "door", colour = "yellow" }',
        "g": '{ kind = "key", colour = "green" }',
        "D": '{ kind = "door", colour = "green" }',
        "+": f'{{ kind = "elixir", hp = {rng.randint(1, 20)} }}',
        "/": f'{{ kind = "equipment", atk = {rng.randint(1, 3)} }}',
        "]": f'{{ kind = "equipment", def = {rng.randint(1, 3)} }}',
        "!": f'{{ kind = "equipment", mdef = {rng.randint(1, 5)} }}',
        "$": '{ kind = "shop" }',
        "u": '{ kind = "stairs", direction = "up" }',
        "d": '{ kind = "stairs", direction = "down" }',
    }
    monsters = "abcefh"
    for symbol in monsters:
        chosen = rng.sample(COMPILED_SPECIALS if compiled else SPECIALS, rng.choice([0, 1, 1, 2]))
        extra = ""
        if 11 in chosen:
            extra += f", drain = {rng.choice(['0.1', '0.25', '0.5'])}"
        if 22 in chosen:
            extra += f", fixed_damage = {rng.randint(1, 10)}"
        if 6 in chosen:
            extra += f", hits_per_round = {rng.randint(2, 4)}"
        legend[symbol] = (
            f'{{ kind = "enemy", name = "{symbol}", hp = {rng.randint(3, 20)}, atk = {rng.randint(2, 12)}, '
            f"def = {rng.randint(0, 3)}, money = {rng.randint(0, 6)}, specials = {sorted(chosen)}{extra} }}"
        )
    boss_stats = f"hp = {rng.randint(5, 30)}, atk = {rng.randint(3, 15)}, def = 1"
    legend["B"] = f'{{ kind = "enemy", name = "boss", {boss_stats}, boss = true }}'
    things = rng.sample("yYgD+/]!", rng.randint(2, 5)) + ["$"] * shop + rng.sample(monsters, rng.randint(1, 4))
    things += rng.choices("yYgD+/]!" + monsters * 2, k=pieces)
    maps = []
    for floor in range(floors):
        cells = [(r, c) for r in range(height) for c in range(width)]
        rng.shuffle(cells)
        grid = [["#" if rng.random() < 0.2 else "." for _ in range(width)] for _ in range(height)]
        fixed = []
        if floor == 0:
            fixed.append("S")
        if floor < floors - 1:
            fixed.append("u")
        if floor > 0:
            fixed.append("d")
        if floor == floors - 1:
            fixed.append("B" if boss else "G")
        share = things[floor::floors]
        for symbol, (r, c) in zip(fixed + share, cells, strict=False):
            grid[r][c] = symbol
        maps.append("\n".join("#" + "".join(row) + "#" for row in grid))
    border = "#" * (width + 2)
    used = {char for text in maps for char in text}
    lines = ['game = "passages"', 'win = "boss"' if boss else ""]
    if floors == 1:
        lines += ['map = """', border, maps[0], border, '"""']
    lines += ["[player]", f"hp = {rng.randint(10, 60)}", f"atk = {rng.randint(2, 8)}", f"def = {rng.randint(0, 3)}"]
    lines += [f"money = {rng.randint(0, 5)}", f"yellow_keys = {rng.randint(0, 1)}"]
    if shop:
        lines += ["[shop]", f"start = {rng.randint(5, 10)}", f"delta = {rng.randint(0, 4)}"]
        gains = {stat: rng.randint(0, 3) * (5 if stat == "hp" else 1) for stat in ("hp", "atk", "def", "mdef")}
        gains["atk"] = gains["atk"] or 1
        lines += [f"{stat} = {gain}" for stat, gain in gains.items()]
        # (drawn last, so that the towers drawn before this option stay the same)
        if rng.random() < 0.3:
            lines.append("from_start = true")
    lines.append("[legend]")
    lines += [f'"{symbol}" = {entry}' for symbol, entry in legend.items() if symbol in used]
    for number, text in enumerate(maps):
        lines += (
            ["[[floor]]", f'name = "F{number + 1}"', 'map = """', border, text, border, '"""'] if floors > 1 else []
        )
    return "\n".join(line for line in lines if line) + "\n"
