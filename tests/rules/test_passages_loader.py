"""Every kind of bad passages input gives one LevelError with its line and column."""

import pytest

from tests.passages_helpers import level_from_toml
from twisty.api import checker_for
from twisty.rules.source import MAX_LEVEL_BYTES, LevelError, parse_level_bytes, read_level

GOOD = """game = "passages"
name = "ok"
map = '''
#######
#S.e.G#
#######
'''
[player]
hp = 10
atk = 2
[legend]
e = { kind = "enemy", hp = 3, atk = 3, def = 0 }
"""


def error_of(text: str) -> LevelError:
    with pytest.raises(LevelError) as caught:
        level_from_toml(text)
    return caught.value


def test_good_level_loads():
    level = level_from_toml(GOOD)
    assert level.start == (1, 1) and level.goals == ((1, 5),)
    assert level.things[0].enemy.hp == 3 and level.player.atk == 2


def test_broken_toml_is_positioned():
    error = error_of(GOOD.replace("hp = 10", "hp = = 10"))
    assert (error.line, error.column) == (9, 6)
    assert "broken TOML" in error.message


def test_unknown_map_character_is_positioned():
    error = error_of(GOOD.replace("#S.e.G#", "#S.e?G#"))
    assert (error.line, error.column) == (5, 5)
    assert '"?"' in error.message


@pytest.mark.parametrize(
    "old, new, message, line",
    [
        ("#S.e.G#", "#..e.G#", "no start", 3),
        ("#S.e.G#", "#S.e..#", "no goal", 3),
        ("#S.e.G#", "#SSe.G#", "second start", 5),
    ],
)
def test_start_and_goal_rules(old, new, message, line):
    error = error_of(GOOD.replace(old, new))
    assert message in error.message and error.line == line


@pytest.mark.parametrize(
    "old, new, message, line, column",
    [
        ("hp = 10", "hp = -3", "player hp must be at least 1", 9, 1),
        ("atk = 2", "atk = 1.5", "player atk must be a whole number", 10, 1),
        ("atk = 2", 'atk = "2"', "player atk must be a whole number", 10, 1),
        ("def = 0 }", "def = -1 }", "def must be at least 0", 12, 40),
        ('kind = "enemy"', 'kind = "dragon"', "unknown kind 'dragon'", 12, 7),
        ("hp = 3,", "hp = 3, speed = 2,", 'unknown enemy field "speed"', 12, 31),
    ],
)
def test_bad_values_are_positioned(old, new, message, line, column):
    error = error_of(GOOD.replace(old, new))
    assert message in error.message
    assert (error.line, error.column) == (line, column)


def test_printed_table_that_no_stats_reproduce_names_the_first_wrong_entry():
    text = GOOD.replace(
        "hp = 3, atk = 3, def = 0", "table = { atk = [1, 2], def = [0, 1, 2], life_lost = [[6, 4, 2], [3, 2, 5]] }"
    )
    error = error_of(text)
    assert "no enemy stats reproduce" in error.message
    assert "ATK 2, DEF 2 = 5" in error.message
    assert error.line == 12


def test_printed_table_only_infers_stats():
    text = GOOD.replace(
        "hp = 3, atk = 3, def = 0", "table = { atk = [1, 2], def = [0, 1, 2], life_lost = [[6, 4, 2], [3, 2, 1]] }"
    )
    enemy = level_from_toml(text).things[0].enemy
    assert (enemy.hp, enemy.atk, enemy.defense) == (3, 3, 0)


def test_printed_table_against_stats():
    text = GOOD.replace("def = 0 }", "def = 0, table = { atk = [1], def = [0], life_lost = [[5]] } }")
    error = error_of(text)
    assert "does not follow from hp 3, atk 3, def 0" in error.message and "(the stats give 6)" in error.message


def test_unknown_game_and_missing_game():
    source = parse_level_bytes(GOOD.replace('"passages"', '"chess"').encode(), "x.toml")
    with pytest.raises(LevelError) as caught:
        checker_for(source)
    assert 'unknown game "chess"' in caught.value.message and caught.value.line == 1
    with pytest.raises(LevelError, match='missing key "game"'):
        parse_level_bytes(GOOD.replace('game = "passages"\n', "").encode(), "x.toml")


def test_binary_junk_and_bad_encoding():
    with pytest.raises(LevelError, match="binary data") as caught:
        parse_level_bytes(b"game = 1\n\x00\x01\x02", "junk.bin")
    assert (caught.value.line, caught.value.column) == (2, 1)
    with pytest.raises(LevelError, match="not UTF-8") as caught:
        parse_level_bytes(b'game = "passages"\nname = "\xff"\n', "latin.toml")
    assert (caught.value.line, caught.value.column) == (2, 9)


def test_huge_file_is_refused_before_reading(tmp_path):
    huge = tmp_path / "huge.toml"
    huge.write_bytes(b"#" * (MAX_LEVEL_BYTES + 1))
    with pytest.raises(LevelError, match="at most"):
        read_level(huge)


def test_unknown_top_level_key_and_reserved_legend():
    error = error_of(GOOD.replace('name = "ok"', 'nmae = "ok"'))
    assert 'unknown key "nmae"' in error.message and error.line == 2
    error = error_of(GOOD + 'S = { kind = "key" }\n')
    assert "reserved" in error.message and error.line == 13
