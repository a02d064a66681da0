"""Writes long.toml: a 48-page book whose walk crosses gutters, outer edges, two Tunnels and a Titan band.

Pages are 8 rows x 8 columns. The road runs along row 4 between Walls (rows 3 and 5); rows 1-2 and 6 hold
scenery behind Walls. Along the way:
- page 5: a Bridge over a Pit;
- leaf 6 (pages 11|12): the road ends in a Tunnel on the front and resumes from its twin on the back;
- leaf 10 (pages 19|20): two Tunnel pairs (named in [[tunnel]]): the road's, and a side Tunnel that leads
  into a walled pocket (a dead end);
- pages 22|23: a Torch lights Shadows on the road, across the gutter;
- the Titan sits on the road on page 30: his band (rows 3-5 of pages 28-33) blocks the road, so the road
  climbs to row 1 on page 27, runs above the band, crosses down through the band on Chuck's page 31 (Chuck
  alone overrides a band), runs below it along row 6 and climbs back to row 4 on page 34;
- page 38: a Number 2 on the road, with exactly two Trolls around it;
- page 44: two Giants in one column crush the Ogre on the road.
[expect] cells are worked out by hand.

Run: python puzzles/book/build_long.py  (rewrites puzzles/book/long.toml)
"""

from __future__ import annotations

from pathlib import Path

PAGES = 48
WIDTH = 8
WALLS = ["##"] * WIDTH
SCENERY = [
    ["Ru", "Ms", "Go", ".", "Pl", ".", "Im", "Ru"],
    [".", "Sk", ".", "Ms", ".", "Ko", ".", "Pl"],
    ["Pl", ".", "Ru", ".", "Sp", ".", "Ms", "."],
]


def default_page(page: int) -> list[list[str]]:
    scenery = SCENERY[page % 3]
    return [list(WALLS), list(scenery), list(reversed(scenery)), list(WALLS), ["Ru"] * WIDTH, list(WALLS),
            list(scenery), list(WALLS)]


def build() -> dict[int, list[list[str]]]:
    pages = {page: default_page(page) for page in range(1, PAGES + 1)}
    pages[5][4][2], pages[5][4][3] = "Br", "Pi"
    # Leaf 6: the road's Tunnel pair (auto-paired: the only Tunnels on the leaf).
    pages[11][4][3:] = ["Tu", "##", "##", "##", "##"]
    pages[12][4][:6] = ["##", "##", "##", "##", "##", "Tu"]
    # Leaf 10: two pairs, named below.
    pages[19][4][3:] = ["Tu", "##", "##", "##", "##"]
    pages[19][5][1] = "Tu"
    pages[20][4][:3] = ["##", "##", "Tu"]
    pages[20][6][5:8] = ["##", "Tu", "##"]
    # Torch light along the road, across the gutter of spread 11.
    pages[22][4][0], pages[22][4][5], pages[23][4][3] = "To", "Sh", "Sh"
    # The Titan on the road; the detour above, through Chuck's page, and below.
    pages[30][4][3] = "Ti"
    pages[27][1], pages[27][2] = list(WALLS), list(WALLS)
    pages[27][3][5], pages[27][2][5] = "Ru", "Ru"
    pages[27][1][5:] = ["Ru", "Ru", "Ru"]
    pages[27][4][6:] = ["##", "##"]
    for page in (28, 29, 30):
        pages[page][1] = ["Ru"] * WIDTH
        pages[page][2] = list(WALLS)
        pages[page][6] = list(WALLS)
    pages[31][6][0] = "Ch"
    # The crossing column holds Rubble, not Walls, so the walk does not hang on how Chuck treats Walls
    # (an ambiguity docs/book.md lists); the band itself is overridden on Chuck's page by the contract.
    pages[31][3][7], pages[31][5][7] = "Ru", "Ru"
    for page in (32, 33):
        pages[page][1] = list(WALLS)
        pages[page][2] = list(WALLS)
        pages[page][6] = ["Ru"] * WIDTH
    pages[34][6][:3] = ["Ru", "Ru", "Ru"]
    pages[34][6][3:] = ["##"] * 5
    pages[34][5][2] = "Ru"
    pages[34][4][:2] = ["##", "##"]
    # A Number on the road.
    pages[38][4][3] = "2"
    pages[38][3][2], pages[38][5][4] = "Tr", "Tr"
    # Two Giants in one column crush the Ogre on the road.
    pages[44][1][3], pages[44][6][3], pages[44][4][3] = "Gi", "Gi", "Og"
    return pages


DEADLY = [[5, 4, 3], [38, 3, 2], [38, 5, 4], [44, 1, 3], [44, 6, 3]]
PASSABLE = [[5, 4, 2], [5, 4, 4], [22, 4, 5], [23, 4, 3], [38, 4, 3], [44, 4, 3], [31, 4, 0], [31, 3, 4],
            [31, 0, 7]]
IMPASSABLE = [[page, row, col] for page in (28, 33) for row in (3, 4, 5) for col in (0, 7)] + [[30, 4, 3]]


def cells(found: list[list[int]]) -> str:
    return "[" + ", ".join(str(cell) for cell in found) + "]"


def main() -> None:
    lines = [
        "# Read These Before You Die: a long book. Written by build_long.py (edit that, then run it).",
        'game = "book"',
        'title = "The long way round: 48 pages, two Tunnels, a Titan and Chuck"',
        "rows = 8", f"cols = {WIDTH}", "entrance = [1, 4, 0]", f"exit = [{PAGES}, 4, {WIDTH - 1}]", "",
        "[[tunnel]]", "cells = [[19, 4, 3], [20, 4, 2]]", "",
        "[[tunnel]]", "cells = [[19, 5, 1], [20, 6, 6]]", "",
        "[expect]", "solvable = true", "unique = false", "simple_corridor = false",
        "rules = [1, 2, 9, 12, 13, 14, 15, 16, 18, 19, 21]",
        f"deadly = {cells(DEADLY)}", f"passable = {cells(PASSABLE)}", f"impassable = {cells(IMPASSABLE)}", "",
        "[pages]",
    ]
    for page, grid in build().items():
        lines.append(f'{page} = """')
        lines.extend(" ".join(f"{code:<2}" for code in row) for row in grid)
        lines.append('"""')
    Path(__file__).with_name("long.toml").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
