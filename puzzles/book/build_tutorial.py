"""Writes tutorial.toml: a spread (or page) per rule of Read These Before You Die, on a 41-page book.

Every page is 7 rows x 6 columns: row 0 Walls, rows 1-3 the rule's demonstration (the rulebook's own
examples), row 4 Walls, row 5 the road the walk follows through every page, row 6 Walls. The path rules
(Bridge, Tunnel, Bow, Molotov, Sword, Mask, Boss) sit on the road itself, so the walk must use them.
The [expect] cells below are worked out by hand from the rulebook and docs/book.md, never by the engine.

Run: python puzzles/book/build_tutorial.py  (rewrites puzzles/book/tutorial.toml)
"""

from __future__ import annotations

from pathlib import Path

EMPTY = ". . . . . ."
WALLS = "## ## ## ## ## ##"
ROAD = "Ru Ru Ru Ru Ru Ru"

# page -> (rule, demo rows 1..3, and optional replacements of rows 4, 5, 6)
PAGES: dict[int, dict] = {
    1: {"rule": "1-2 the bad guys and the Weaklings",
        "demo": ["Sk Mu Wi Og Tr De", "Cy Mn Sp Sn Wr Me", "Go Im Ba Th Cu Ko"]},
    2: {"rule": "3 the Rat: nine on spread 1", "demo": ["Ra Ra Ra Ra Ra .", EMPTY, EMPTY]},
    3: {"rule": "3 the Rat: nine on spread 1", "demo": ["Ra Ra Ra Ra . .", EMPTY, EMPTY]},
    4: {"rule": "3 the Rat: ten on spread 2", "demo": ["Ra Ra Ra Ra Ra .", EMPTY, EMPTY]},
    5: {"rule": "3 the Rat: ten on spread 2", "demo": ["Ra Ra Ra Ra Ra .", EMPTY, EMPTY]},
    6: {"rule": "4 the Wolf: a pack of 3 attacks right", "demo": ["Wo Ru . . . .", "Wo Wo Th . . .", EMPTY]},
    7: {"rule": "4 the Wolf: a pack of 4 attacks left; a lone Wolf",
        "demo": ["Ru Wo Wo . . .", "Ms Wo Wo . . .", ". . . Wo . ."]},
    8: {"rule": "4 the Wolf: a pack of 5 attacks down", "demo": ["Wo Wo Wo . . .", "Wo Ko . . . .", "Wo Go Ms . . ."]},
    9: {"rule": "4 the Wolf: a pack of 6 attacks up", "demo": ["Ru Th . . . .", "Wo Wo Ko . . .", "Wo Wo Wo Wo . ."]},
    10: {"rule": "5 the Mimic: across the gutter", "demo": [". . . . . Mm", EMPTY, EMPTY]},
    11: {"rule": "5 the Mimic: chains, terrain, a Weakling", "demo": ["Dr Mm Mm . . .", "Ru Mm . . . .", "Th Mm Gd . . ."]},
    12: {"rule": "6 the Mage: Wraiths calmed, a Scroll", "demo": ["Wr Wr Wr . . .", "Ru Ma . . . .", ". . . Sc Ma ."]},
    13: {"rule": "6 a Wraith with no Mage; 20 Gold and a Thief", "demo": ["Wr . . . . .", EMPTY, "Gd Th Ru Gd . ."]},
    14: {"rule": "7 three Orcs v two Dwarves; two v two", "demo": ["Or Or Or Dw Dw .", EMPTY, "Or Or Dw Dw . ."]},
    15: {"rule": "7 three Orcs v four Dwarves through one contact; a lone Orc",
         "demo": ["Or Or Or Dw . .", ". . . Dw . Or", ". . Dw Dw . ."]},
    16: {"rule": "8 the Vampire chain stopped by a Swamp", "demo": ["Va Ba Th Sw Cu .", ". . Cu . . .", EMPTY]},
    17: {"rule": "9 Giants with a Swamp and a Gem between", "demo": ["Gi Mu Sw Zo Ge Gi", EMPTY, EMPTY]},
    18: {"rule": "10 the Oracle with four monsters", "demo": ["Og Ru Tr . . .", "## Oc De . . .", "Ms Sk Ru . . ."]},
    19: {"rule": "10 the Oracle with three monsters", "demo": ["Og Ru Tr . . .", "Ms Oc Ru . . .", "Pl De Ms . . ."]},
    20: {"rule": "11 the Reaper", "demo": [EMPTY, ". . Re . . .", EMPTY]},
    21: {"rule": "13 Chuck; 17 Lava across the gutter", "demo": ["Tr Si ## Og . .", "La Ch Re . . .", EMPTY]},
    22: {"rule": "14 deadly terrain, 15 safe terrain, 17 Lava", "demo": ["Si Sw Pi . Go .", "Ru Ms Pl Gd La Th", ". . . . Ru ."]},
    23: {"rule": "19 Numbers", "demo": [". Og Tr . . .", ". 3 De . . .", ". . . Og 3 Tr"]},
    24: {"rule": "21 Torches and Shadows", "demo": ["To Tr Ru Gd Sh .", "To Tr ## Ru Sh .", EMPTY]},
    25: {"rule": "21 the light crosses the gutter", "demo": [". . . . . Sh", EMPTY, EMPTY]},
    26: {"rule": "local: Medusa (her spread declares it)", "demo": ["Ba Go Im Me ## Th", ". . . . . Ko", EMPTY]},
    27: {"rule": "local: a Mirror petrifies the Medusa", "demo": [". . . Mr . .", "Ba Go Im Me ## Th", EMPTY]},
    28: {"rule": "15 the Bridge", "road": "Ru Br Si Ru Ru Ru"},
    29: {"rule": "18 Tunnel (front of leaf 15)", "road": "Ru Ru Tu ## ## ##"},
    30: {"rule": "18 Tunnel (back of leaf 15)", "road": "## ## ## Tu Ru Ru"},
    31: {"rule": "22 the Bow breaks a pack of three", "demo": [EMPTY, EMPTY, ". . . . . ##"],
         "above": "## ## ## ## ## Wo", "road": "Bw Ru Ru Ru Ru Wo", "below": "## ## ## ## ## Wo"},
    32: {"rule": "25 the Molotov and the Swamp that stays", "above": "## ## ## Sw ## ##",
         "road": "Ru Mo Sk Zo Tr Ru"},
    33: {"rule": "23 the Sword", "road": "Ru Ru Sd Ru Ru Ru"},
    34: {"rule": "23 a Dragon on the next page", "road": "Ru Ru Dr Ru Ru Ru"},
    35: {"rule": "24 the Mask", "above": "## ## Mu ## ## ##", "road": "Mk Tr Tr Tr Ru Ru"},
    36: {"rule": "local: the Boss", "road": "Bz Tw Ex Bs Ru Ru"},
    37: {"rule": "(under the Titan's band)"},
    38: {"rule": "12 the Titan", "demo": [EMPTY, ". . . Ti . .", EMPTY]},
    39: {"rule": "(under the Titan's band)"},
    40: {"rule": "(under the Titan's band)"},
    41: {"rule": "(under the Titan's band); the exit"},
}

# Hand-worked claims, as [page, row, col].
DEADLY = (
    [[1, 1, c] for c in range(6)] + [[1, 2, c] for c in range(6)]
    + [[4, 1, c] for c in range(5)] + [[5, 1, c] for c in range(5)]
    + [[6, 1, 0], [6, 2, 0], [6, 2, 1], [6, 1, 1], [6, 2, 2]]
    + [[7, 1, 1], [7, 1, 2], [7, 2, 1], [7, 2, 2], [7, 1, 0], [7, 2, 0]]
    + [[8, 1, 0], [8, 1, 1], [8, 1, 2], [8, 2, 0], [8, 3, 0], [8, 2, 1], [8, 2, 2]]
    + [[9, 2, 0], [9, 2, 1], [9, 3, 0], [9, 3, 1], [9, 3, 2], [9, 3, 3], [9, 1, 0], [9, 1, 1], [9, 2, 2], [9, 2, 3]]
    + [[10, 1, 5], [11, 1, 0], [11, 1, 1], [11, 1, 2], [11, 3, 2]]
    + [[12, 3, 3], [12, 3, 4], [13, 1, 0], [13, 3, 0]]
    + [[14, 1, 0], [14, 1, 1], [14, 1, 2], [15, 1, 3], [15, 2, 3], [15, 3, 2], [15, 3, 3], [15, 2, 5]]
    + [[16, 1, 0], [16, 1, 1], [16, 1, 2], [16, 1, 3], [16, 2, 2]]
    + [[17, 1, 0], [17, 1, 2], [17, 1, 5]]
    + [[19, 1, 0], [19, 1, 2], [19, 3, 1]]
    + [[20, r, c] for r in (1, 2, 3) for c in range(5)] + [[20, 2, 5]]
    + [[22, 1, 0], [22, 1, 1], [22, 1, 2], [22, 1, 4], [22, 2, 3], [22, 2, 4], [22, 2, 5], [22, 3, 4]]
    + [[23, 1, 1], [23, 1, 2], [23, 2, 2], [23, 3, 3], [23, 3, 4], [23, 3, 5]]
    + [[24, 1, 1], [24, 2, 1], [24, 2, 4]]
    + [[26, 1, 3]]
    + [[28, 5, 2], [32, 5, 0], [32, 5, 2], [32, 5, 3], [32, 5, 4], [32, 4, 3], [34, 5, 2], [35, 5, 1],
       [35, 5, 2], [35, 5, 3], [36, 5, 3]]
)
PASSABLE = (
    [[1, 3, c] for c in range(6)] + [[3, 1, c] for c in range(4)] + [[2, 1, c] for c in range(5)]
    + [[7, 3, 3], [8, 3, 1], [8, 3, 2]]
    + [[11, 2, 1], [11, 3, 0], [11, 3, 1]]
    + [[12, 1, 0], [12, 1, 1], [12, 1, 2], [12, 2, 1], [13, 3, 3]]
    + [[14, 1, 3], [14, 1, 4], [14, 3, 0], [14, 3, 1], [14, 3, 2], [14, 3, 3], [15, 1, 0], [15, 1, 1], [15, 1, 2]]
    + [[16, 1, 4], [17, 1, 1], [17, 1, 3], [17, 1, 4]]
    + [[18, 1, 0], [18, 1, 2], [18, 2, 2], [18, 3, 1], [18, 2, 1], [19, 2, 1]]
    + [[20, 1, 5], [20, 3, 5]]
    + [[21, r, c] for r in range(7) for c in range(6)]
    + [[22, 2, 0], [22, 2, 1], [22, 2, 2], [23, 2, 1]]
    + [[24, 1, 4], [24, 1, 0], [24, 2, 0], [25, 1, 5]]
    + [[26, 1, 5], [26, 2, 5], [27, 2, 0], [27, 2, 1], [27, 2, 2], [27, 2, 3], [27, 2, 5]]
    + [[31, 5, 0], [33, 5, 2], [35, 5, 0]]
)
IMPASSABLE = (
    [[18, 2, 0], [26, 1, 0], [26, 1, 1], [26, 1, 2]]
    + [[p, r, c] for p in (36, 37, 38, 39, 40, 41) for r in (1, 2, 3) for c in (0, 5)] + [[38, 2, 3]]
)
FINAL_PASSABLE = [[31, 4, 5], [31, 5, 5], [31, 6, 5], [32, 5, 0], [32, 5, 2], [32, 5, 3], [32, 5, 4],
                  [34, 5, 2], [36, 5, 3]]
FINAL_DEADLY = [[32, 4, 3]]


def page_rows(spec: dict) -> list[str]:
    demo = spec.get("demo", [EMPTY, EMPTY, EMPTY])
    return [WALLS, *demo, spec.get("above", WALLS), spec.get("road", ROAD), spec.get("below", WALLS)]


def cell_list(cells: list[list[int]]) -> str:
    return "[" + ", ".join(str(cell) for cell in cells) + "]"


def main() -> None:
    lines = [
        "# Read These Before You Die: the tutorial. Written by build_tutorial.py (edit that, then run it).",
        "# Each page: row 0 Walls, rows 1-3 one rule's demonstration, row 4 Walls, row 5 the road, row 6 Walls.",
        'game = "book"',
        'title = "Read These Before You Die: a tutorial, one spread per rule"',
        "rows = 7", "cols = 6", "entrance = [1, 5, 0]", "exit = [41, 5, 5]", "",
        "[[local]]", 'rule = "medusa"', "page = 26", "",
        "[[local]]", 'rule = "boss"', "page = 36", 'items = ["Bazooka", "Tweezers", "Excalibur"]', "",
        "[expect]", "solvable = true", "unique = true",
        f"rules = {list(range(1, 28))}",
        f"deadly = {cell_list(DEADLY)}", f"passable = {cell_list(PASSABLE)}",
        f"impassable = {cell_list(IMPASSABLE)}",
        f"final_passable = {cell_list(FINAL_PASSABLE)}", f"final_deadly = {cell_list(FINAL_DEADLY)}", "",
        "[pages]",
    ]
    for page, spec in PAGES.items():
        lines.append(f"# page {page}: rule {spec['rule']}")
        lines.append(f'{page} = """')
        lines.extend(" ".join(f"{code:<2}" for code in row.split()) for row in page_rows(spec))
        lines.append('"""')
    Path(__file__).with_name("tutorial.toml").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
