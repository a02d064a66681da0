"""Exported magic-tower-AI maps against the input rules of magic-tower-AI's reader (its test/ReadMe.txt and
AI/src/Graph.java, as docs/mota.md gives them): the counts, the tile codes, the value lines, the hero line,
one stair each way on a floor, the boss; and one small export worked by hand."""

from __future__ import annotations

import pytest

from tests.exporters.roundtrip import SHIPPED, load, random_level, source_of
from tests.exporters.test_round_trip import mtai_holds
from twisty.exporters.mtai import export_mtai
from twisty.rules.source import read_level

# The current tile codes: road, wall, keys (yellow, blue, red, green), gems (red, blue, green), potions (red,
# blue, green, yellow), sword, shield, shop, doors (yellow, blue, red, green), stairs up and down.
CODES = {0, 1, 21, 22, 23, 24, 27, 28, 29, 31, 32, 33, 34, 35, 36, 40, 81, 82, 83, 84, 87, 88}
FIRST_MONSTER, BOSS = 201, 299
SPECIALS = range(0, 11)  # 0 none, 1 first strike ... 10 mimic


def check_map(text: str) -> None:
    """The map as magic-tower-AI reads it; an AssertionError names the first rule broken."""
    lines = text.split("\n")
    numbers = [[int(word) for word in line.split()] for line in lines]
    assert all(word.lstrip("-").isdigit() for line in lines for word in line.split()), "integers only"
    filled = [row for row in numbers if row]
    floors = filled[0]
    assert len(floors) == 1 and floors[0] >= 1, "first line: the number of floors"
    assert len(filled[1]) == 2, "second line: rows and columns"
    rows, cols = filled[1]
    grids = filled[2 : 2 + floors[0] * rows]
    assert all(len(row) == cols for row in grids), "each map row holds one code per column"
    assert all("\t" in line for line in lines[3 : 3 + rows] if line), "codes of a row are tab-separated"
    values, count = filled[2 + floors[0] * rows], filled[3 + floors[0] * rows]
    assert len(values) == 9, "the nine values: red, blue, green gem; four potions; sword; shield"
    assert len(count) == 1, "the number of monster kinds"
    monsters = filled[4 + floors[0] * rows : 4 + floors[0] * rows + count[0]]
    assert all(len(line) == 6 for line in monsters), "each monster line: id hp atk def money special"
    ids = [line[0] for line in monsters]
    assert len(set(ids)) == len(ids) and all(ident >= FIRST_MONSTER for ident in ids), "monster ids 201+, once"
    assert all(line[1] >= 1 and line[5] in SPECIALS for line in monsters), "hp 1+, special 0-10"
    shop, hero = filled[4 + floors[0] * rows + count[0] :]
    assert len(shop) == 6 and len(hero) == 11, "the shop line (6 numbers) and the hero line (11) end the file"
    codes = [code for row in grids for code in row]
    for code in codes:
        assert code in CODES or code in ids, f"tile code {code}: no meaning, or a monster without a line"
    assert BOSS in codes and BOSS in ids, "the boss (299) on the map, with its line"
    assert (40 in codes) == any(shop[2:]), "a shop cell exactly when the shop line sells something"
    for floor in range(floors[0]):
        grid = grids[floor * rows : (floor + 1) * rows]
        ups = sum(row.count(87) for row in grid)
        downs = sum(row.count(88) for row in grid)
        assert ups <= 1 and downs <= 1, f"floor {floor}: one stair each way (Graph keeps one)"
        above = grids[(floor + 1) * rows : (floor + 2) * rows]
        assert bool(ups) == any(88 in row for row in above), f"floor {floor}: the up stair meets a down stair"
    hp, *_, floor, row, col = hero
    assert hp >= 1 and 0 <= floor < floors[0] and 0 <= row < rows and 0 <= col < cols, "the hero line"
    assert grids[floor * rows + row][col] in (0, 87, 88), "the hero starts on a road"


FITTING = [path for path in SHIPPED if mtai_holds(load(read_level(path)))]


@pytest.mark.parametrize("path", FITTING, ids=lambda path: path.name)
def test_the_shipped_levels_that_fit_follow_the_readers_rules(path):
    source = read_level(path)
    check_map(export_mtai(load(source), source, str(path)))


@pytest.mark.parametrize("number", range(0, 100, 2))
def test_random_towers_that_fit_follow_the_readers_rules(number):
    name, text = random_level(number)
    level = load(source_of(text))
    if mtai_holds(level):
        check_map(export_mtai(level, None, name))


TWO_FLOORS = '''game = "passages"
win = "boss"
[player]
hp = 100
atk = 10
def = 2
money = 3
yellow_keys = 1
[shop]
start = 10
delta = 5
atk = 2
def = 3
[legend]
k = { kind = "key", colour = "blue" }
D = { kind = "door", colour = "blue" }
"+" = { kind = "elixir", hp = 50 }
"*" = { kind = "elixir", hp = 20 }
"/" = { kind = "equipment", name = "sword", atk = 5 }
"!" = { kind = "equipment", mdef = 4 }
"$" = { kind = "shop" }
a = { kind = "enemy", name = "Bat", hp = 20, atk = 15, def = 1, money = 2, specials = [4] }
B = { kind = "enemy", name = "Dragon", hp = 90, atk = 30, def = 5, money = 9, boss = true, first_strike = true }
u = { kind = "stairs", direction = "up" }
d = { kind = "stairs", direction = "down" }
[[floor]]
map = """
#####
#S+k#
#$au#
"""
[[floor]]
map = """
#######
#d*D/B#
###!###
"""
'''


def test_a_small_tower_exported_as_worked_by_hand():
    """Floors padded to 3 x 7 with walls; the 20 potion is the red one (31), the 50 potion the blue one (32):
    potions take the codes red, blue, yellow, green in the order of their life; the sword (atk 5) is the
    red gem's code 27 (the first attack gain), the mdef gem 29; the key and door blue (22, 82); the bat the
    first monster (201, special 4), the boss 299 with its first strike (special 1); the shop line as the
    level says; the hero's yellow key in the hero line, at floor 0, row 1, column 1."""
    level = load(source_of(TWO_FLOORS))
    text = export_mtai(level, None, "two.toml")
    expected = "\n".join(
        [
            "2",
            "3 7",
            "",
            "1\t1\t1\t1\t1\t1\t1",
            "1\t0\t32\t22\t1\t1\t1",
            "1\t40\t201\t87\t1\t1\t1",
            "",
            "1\t1\t1\t1\t1\t1\t1",
            "1\t88\t31\t82\t27\t299\t1",
            "1\t1\t1\t29\t1\t1\t1",
            "",
            "5 0 4 20 50 0 0 0 0",
            "",
            "2",
            "201 20 15 1 2 4",
            "299 90 30 5 9 1",
            "",
            "10 5 0 2 3 0",
            "",
            "100 10 2 0 3 1 0 0 0 1 1",
            "",
        ]
    )
    assert text == expected
    check_map(text)
