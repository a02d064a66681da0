"""Hostile passages input: misspelt keys, every input limit, a printed table with a typo, stats of 10^9.

Each case is a hand-made level; the expected message, position and answer are worked out here by hand.
"""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from tests.passages_helpers import level_from_toml
from twisty.cli import main
from twisty.errors import LevelError, LimitReached, UsageError
from twisty.limits import Deadline
from twisty.rules.passages import start_hp_upper_bound
from twisty.rules.passages_format import MAX_BLOCKERS, MAX_MAP_SIDE, MAX_OBJECTS, MAX_TABLE_SIDE, load_passages
from twisty.rules.source import parse_level_bytes
from twisty.solver import passages_brute, passages_cpsat

BASE = '''game = "passages"
name = "typos"
map = """
##########
#Sk+s.DeG#
##########
"""
[player]
hp = 10
atk = 2
[legend]
k = { kind = "key" }
D = { kind = "door" }
"+" = { kind = "elixir", hp = 4 }
s = { kind = "equipment", name = "sword", atk = 1 }
e = { kind = "enemy", name = "Rat", hp = 3, atk = 3, def = 0 }
[expect]
solvable = true
'''


def error_of(text: str) -> LevelError:
    with pytest.raises(LevelError) as caught:
        level_from_toml(text)
    return caught.value


def test_the_base_level_loads():
    level = level_from_toml(BASE)
    assert [thing.kind for thing in level.things] == ["key", "elixir", "equipment", "door", "enemy"]


@pytest.mark.parametrize(
    "old, new, expected",
    [
        (
            'name = "typos"',
            'nmae = "typos"',
            '2:1: unknown key "nmae" (did you mean "name"?); expected one of: '
            "description, expect, floor, game, legend, map, name, player, shop, win",
        ),
        (
            "atk = 2\n",
            "atck = 2\n",
            '10:1: unknown player stat "atck" in [player] (did you mean "atk"?); expected one of: atk, blue_keys, '
            "def, green_keys, hp, keys, mdef, money, red_keys, yellow_keys",
        ),
        (
            '{ kind = "key" }',
            '{ kind = "key", nmae = "brass" }',
            '12:21: legend "k": unknown key field "nmae" (did you mean "name"?); expected one of: colour, kind, name',
        ),
        (
            '{ kind = "door" }',
            '{ kind = "door", locked = true }',
            '13:22: legend "D": unknown door field "locked"; expected one of: colour, kind, name',
        ),
        (
            'kind = "elixir", hp = 4',
            'kind = "elixir", hpp = 4',
            '14:26: legend "+": unknown elixir field "hpp" (did you mean "hp"?); expected one of: hp, kind, name',
        ),
        (
            'name = "sword", atk = 1',
            'name = "sword", attack = 1',
            '15:43: legend "s": unknown equipment field '
            '"attack" (did you mean "atk"?); expected one of: atk, def, kind, mdef, name',
        ),
        (
            "def = 0 }",
            "def = 0, firststrike = true }",
            '16:63: legend "e": unknown enemy field "firststrike" '
            '(did you mean "first_strike"?); expected one of: atk, boss, break_armour, counter, def, drain, '
            "first_strike, fixed_damage, hits_per_round, hp, kind, money, name, purify, specials, table",
        ),
        (
            'name = "Rat", hp = 3, atk = 3, def = 0',
            'name = "Rat", table = { atk = [2], def = [0], lifelost = [[3]] }',
            '16:69: legend "e": unknown printed table field "lifelost" (did you mean "life_lost"?); expected one of: '
            "atk, def, hits, life_lost",
        ),
        (
            "[player]",
            "[plyer]",
            '8:1: unknown key "plyer" (did you mean "player"?); expected one of: description, '
            "expect, floor, game, legend, map, name, player, shop, win",
        ),
        (
            "solvable = true",
            "solveable = true",
            '18:1: unknown expectation "solveable" in [expect] (did you mean '
            '"solvable"?); expected one of: final_hp, min_start_hp, optimal_solutions, solutions, solvable, unique',
        ),
        (
            'kind = "enemy"',
            'kind = "enmy"',
            '16:7: legend "e": unknown kind \'enmy\' (did you mean "enemy"?); '
            "kinds: key, elixir, equipment, shop, door, enemy, stairs",
        ),
    ],
)
def test_each_misspelt_key_is_named_with_its_position_and_the_keys_expected(old, new, expected):
    assert old in BASE
    assert str(error_of(BASE.replace(old, new))) == f"test.toml:{expected}"


def test_misspelt_keys_are_found_in_dotted_keys_and_table_headers():
    text = (
        'game = "passages"\nplayer.hp = 10\nplayer.atck = 2\nmap = """\n#####\n#SeG#\n#####\n"""\n'
        '[legend.e]\nkind = "enemy"\nhp = 3\natk = 3\ndfe = 0\n'
    )
    error = error_of(text)
    assert (error.line, error.column) == (3, 8) and 'unknown player stat "atck"' in error.message
    error = error_of(text.replace("player.atck", "player.atk"))
    assert (error.line, error.column) == (13, 1)
    assert error.message.startswith('legend "e": unknown enemy field "dfe" (did you mean "def"?)')


def test_the_misspelt_key_makes_check_exit_2_with_one_line(tmp_path):
    path = tmp_path / "typo.toml"
    path.write_text(BASE.replace("atk = 2\n", "atck = 2\n"))
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 2
    assert result.output.splitlines()[0] == (
        f'INVALID    {path}:10:1: unknown player stat "atck" in [player] '
        '(did you mean "atk"?); expected one of: atk, blue_keys, def, green_keys, hp, keys, mdef, money, red_keys, '
        "yellow_keys"
    )


# ------------------------------------------------------------------------------------------------ limits


def level_with_map(rows: list[str], legend: str = "") -> str:
    """A level whose map starts on line 3."""
    return (
        'game = "passages"\nmap = """\n' + "\n".join(rows) + '\n"""\n[player]\nhp = 10\n[legend]\n'
        'k = { kind = "key" }\nD = { kind = "door" }\n' + legend
    )


def test_a_map_of_too_many_rows_is_refused_at_the_first_row_too_many():
    rows = ["#S#", "#G#"] + ["###"] * (MAX_MAP_SIDE - 1)
    error = error_of(level_with_map(rows))
    assert (error.line, error.column) == (3 + MAX_MAP_SIDE, 1)
    assert error.message == (
        f"the map has {MAX_MAP_SIDE + 1} rows; a map may have at most {MAX_MAP_SIDE} rows and {MAX_MAP_SIDE} columns"
    )


def test_a_map_row_too_long_is_refused_at_its_first_cell_too_many():
    rows = ["#SG#", "#" * (MAX_MAP_SIDE + 5)]
    error = error_of(level_with_map(rows))
    assert (error.line, error.column) == (4, MAX_MAP_SIDE + 1)
    assert error.message.startswith(f"this map row has {MAX_MAP_SIDE + 5} cells; a map may have at most")


def test_more_objects_than_the_limit_are_refused_at_the_first_one_too_many():
    # Rows of 100 keys: object number MAX_OBJECTS + 1 (2001) is the first key of row 21 (line 3 + 21).
    assert MAX_OBJECTS % 100 == 0
    rows = ["#SG#"] + ["k" * 100] * (MAX_OBJECTS // 100 + 1)
    error = error_of(level_with_map(rows))
    assert (error.line, error.column) == (3 + MAX_OBJECTS // 100 + 1, 1)
    assert error.message == (
        f"more than {MAX_OBJECTS} objects on the map (items, doors and enemies together); "
        f"a level may have at most {MAX_OBJECTS}"
    )
    assert level_from_toml(level_with_map(rows[:-1])).things[-1].kind == "key"


def test_more_blockers_than_the_limit_are_refused_at_the_first_one_too_many():
    # Rows of 100 doors: door number MAX_BLOCKERS + 1 (301) is the first of row 4 (line 3 + 4).
    assert MAX_BLOCKERS % 100 == 0
    rows = ["#SG#"] + ["D" * 100] * (MAX_BLOCKERS // 100 + 1)
    error = error_of(level_with_map(rows))
    assert (error.line, error.column) == (3 + MAX_BLOCKERS // 100 + 1, 1)
    assert error.message == (
        f"more than {MAX_BLOCKERS} doors and enemies on the map; a level may have at most {MAX_BLOCKERS}"
    )
    assert len(level_from_toml(level_with_map(rows[:-1])).blockers()) == MAX_BLOCKERS


@pytest.mark.parametrize("field", ["atk", "def"])
def test_a_printed_table_side_over_the_limit_is_refused(field):
    side = MAX_TABLE_SIDE + 1
    values = ", ".join(str(v) for v in range(1, side + 1))
    if field == "atk":
        table = f"atk = [{values}], def = [0], life_lost = [{', '.join(['[0]'] * side)}]"
    else:
        table = f"atk = [1], def = [{values}], life_lost = [[{', '.join(['0'] * side)}]]"
    text = level_with_map(["#SeG#"], f'e = {{ kind = "enemy", table = {{ {table} }} }}\n')
    error = error_of(text)
    assert error.line == 10 and text.splitlines()[9][error.column - 1 :].startswith(f"{field} = [")
    assert error.message == (
        f'legend "e": table {field} has {side} entries; a printed table may have at most '
        f"{MAX_TABLE_SIDE} ATK rows and {MAX_TABLE_SIDE} DEF columns"
    )


def test_a_stat_beyond_the_number_limit_is_refused_while_reading():
    error = error_of(BASE.replace("atk = 1 }", "atk = 1000000001 }"))
    assert error.message == (
        "the number 1000000001 is out of range: numbers in a level lie within -1,000,000,000 to 1,000,000,000"
    )


# ---------------------------------------------------------------------------------------- printed tables

TABLE_LEVEL = '''game = "passages"
map = """
#####
#SeG#
#####
"""
[player]
hp = 100
atk = 5
[legend]
e = { kind = "enemy", table = { atk = [5, 10], def = [0, 10, 50], life_lost = [[600, 500, 100], [300, 250, 51]] } }
'''


def test_a_printed_table_of_large_numbers_infers_its_stats():
    # Row ATK 5: 600 / 500 / 100 at DEF 0 / 10 / 50 fix the per-hit damage: g at DEF 50 with
    # 100 (g + 50) = 600 g, so g = 10 and atk 60, 10 hits; ATK 10: 5 hits. 11 and 6 strikes of 5 - E and
    # 10 - E: E = 0 gives hp in (50, 55] & (50, 60] -> 51; E = 1 needs (40, 44] & (45, 54], E = 2 (30, 33]
    # & (40, 48], E = 3 and 4 no better: none. So hp 51, atk 60, def 0; the last entry should be 50.
    level = level_from_toml(TABLE_LEVEL.replace("250, 51]", "250, 50]"))
    enemy = level.things[0].enemy
    assert (enemy.hp, enemy.atk, enemy.defense) == (51, 60, 0)


def test_a_printed_table_with_one_typo_names_the_cell_where_it_is_written():
    error = error_of(TABLE_LEVEL)
    assert error.message == (
        'legend "e": no enemy stats reproduce the printed table; first wrong entry: life_lost at ATK 10, DEF 50 = 51'
    )
    line = TABLE_LEVEL.splitlines()[error.line - 1]
    assert error.line == 11 and line[error.column - 1 :] == "51]] } }"


def test_a_printed_table_against_stats_names_an_entry_the_stats_cannot_fight():
    text = TABLE_LEVEL.replace('kind = "enemy", table = {', 'kind = "enemy", hp = 51, atk = 60, def = 5, table = {')
    error = error_of(text)
    assert error.message == (
        'legend "e": the printed table does not follow from hp 51, atk 60, def 5: life_lost '
        "at ATK 5, DEF 0 = 600 (with those stats ATK 5 cannot harm it)"
    )
    assert TABLE_LEVEL.splitlines()[10].count("600") == 1
    assert text.splitlines()[error.line - 1][error.column - 1 :].startswith("600,")


def test_the_inference_polls_the_levels_deadline():
    # One DEF column of 735,134,400 (1,344 divisors, each a candidate enemy atk): with an expired
    # deadline the loader stops with LimitReached instead of working on.
    text = TABLE_LEVEL.replace(
        "def = [0, 10, 50], life_lost = [[600, 500, 100], [300, 250, 51]]",
        "def = [0], life_lost = [[735134400], [735134400]]",
    )
    source = parse_level_bytes(text.encode(), "t.toml")
    with pytest.raises(LimitReached):
        load_passages(source, Deadline(0))
    # Without a limit it ends with the entry no stats reproduce: ATK 10 with as many hits as ATK 5 would
    # need (c - 1)(10 - E) + 1 <= c (5 - E), so c <= 1 strike, no hit, yet 735,134,400 lost.
    with pytest.raises(LevelError, match="first wrong entry: life_lost at ATK 10, DEF 0 = 735134400"):
        load_passages(source, Deadline(None))


# ---------------------------------------------------------------------------------------- stats of 10^9

FREE_WITH_A_SWORD = '''game = "passages"
map = """
#########
#Ss.e.fG#
#########
"""
[player]
hp = 5
atk = 1
[legend]
s = { kind = "equipment", name = "sword", atk = 1000000000 }
e = { kind = "enemy", name = "Giant", hp = 1000000000, atk = 1000000000, def = 1 }
f = { kind = "enemy", name = "Titan", hp = 7, atk = 1000000000, def = 0 }
[expect]
solvable = true
final_hp = 5
min_start_hp = 1
solutions = 1
'''


@pytest.mark.parametrize("engine", ["cpsat", "brute"])
def test_a_sword_of_10_to_the_9_makes_every_fight_free(tmp_path, engine):
    # The sword lies next to the start, so the player always fights at atk 10^9 + 1. The Giant takes
    # 10^9 / (10^9 + 1 - 1) = 1 strike, the Titan 7 / (10^9 + 1) -> 1 strike: no hit received either way,
    # so the route keeps all 5 hp, a start of 1 hp suffices, and free fights leave no signature: 1 solution.
    path = tmp_path / "sword.toml"
    path.write_text(FREE_WITH_A_SWORD)
    result = CliRunner().invoke(main, ["check", "--json", "--engine", engine, "--timeout", "5", str(path)])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert (data["solvable"], data["final_hp"], data["min_start_hp"], data["solutions"], data["unique"]) == (
        True,
        5,
        1,
        1,
        True,
    )


def test_a_giant_of_10_to_the_9_costs_exactly_10_to_the_9(tmp_path):
    # The Giant now has def 5: 10^9 / (10^9 + 1 - 5) -> 2 strikes, 1 hit of 10^9 - 0. With 10 hp the level
    # is lost, and the least starting hp is 10^9 + 1.
    path = tmp_path / "giant.toml"
    path.write_text(
        FREE_WITH_A_SWORD.replace("def = 1 }", "def = 5 }").replace("hp = 5\n", "hp = 10\n").split("[expect]")[0]
    )
    result = CliRunner().invoke(main, ["check", "--json", "--engine", "cpsat", "--timeout", "5", str(path)])
    data = json.loads(result.output)
    assert (data["solvable"], data["min_start_hp"], data["solutions"]) == (False, 10**9 + 1, 0)


THREE_GIANTS = '''game = "passages"
map = """
#######
#SeeeG#
#######
"""
[player]
hp = 10
atk = 1
[legend]
e = { kind = "enemy", name = "Giant", hp = 1000000000, atk = 1000000000, def = 0 }
'''


def test_a_least_starting_hp_beyond_64_bits_is_too_large_for_cpsat_but_not_for_the_rules():
    # Each Giant takes 10^9 strikes of 1: 10^9 - 1 hits of 10^9. The least starting hp is
    # 3 (10^9 - 1) 10^9 + 1, about 3 * 10^18; CP-SAT's sums over three steps would pass 2^61.
    level = level_from_toml(THREE_GIANTS)
    need = 3 * (10**9 - 1) * 10**9 + 1
    assert start_hp_upper_bound(level) == need
    assert passages_cpsat.best_route(level, Deadline(5)).status == "unsolvable"
    with pytest.raises(UsageError, match="too large for the cpsat engine: life of up to"):
        passages_cpsat.min_start_hp(level, Deadline(5))
    assert passages_brute.min_start_hp(level, Deadline(5)).value == need


def test_a_combat_table_too_large_for_cpsat_is_refused():
    # A corridor of 21 doors, each followed by a weapon of +2^i in a cell of its own, then a guard before
    # the goal: 2^21 attack values (every subset sum of the areas' gains) pass the 20 million entries of
    # the time-step model's combat table (counting) and the guard's 2 million rows in the order model's.
    letters = "ABCEFHIJKLMNOPQRTUVWX"
    corridor = "#S" + "".join("D" + letter for letter in letters) + "gG#"
    rows = ["#" * len(corridor), corridor, "#" * len(corridor)]
    legend = "".join(f'{letter} = {{ kind = "equipment", atk = {2**i} }}\n' for i, letter in enumerate(letters))
    legend += 'g = { kind = "enemy", name = "Guard", hp = 1, atk = 1, def = 0 }\n'
    text = level_with_map(rows, legend).replace("[player]\nhp = 10", "[player]\nhp = 10\nkeys = 21")
    level = level_from_toml(text)
    assert len(level.blockers()) == 22
    with pytest.raises(UsageError, match="more than 20,000,000 entries"):
        passages_cpsat.count_solutions(level, Deadline(30), 10, None)
    with pytest.raises(UsageError, match="more than 2,000,000 rows"):
        passages_cpsat.best_route(level, Deadline(30))
