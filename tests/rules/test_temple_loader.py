"""The Temple Twist level format: the standard temple, defaults, and one positioned error for each kind of bad
round (line and column counted by hand in the texts below)."""

from __future__ import annotations

import random

import pytest
from click.testing import CliRunner

from twisty.cli import main
from twisty.errors import LevelError
from twisty.generator.temple import random_round
from twisty.rules.source import parse_level_bytes
from twisty.rules.temple.loader import load_round, standard_temple
from twisty.rules.temple.model import BOTTOM, LEFT, RIGHT
from twisty.rules.temple.writer import round_text

ROUND = """game = "temple"
revealed = ["fate", "jade"]
door = "blue"
hands = [["turn1", "wall1"], ["turn2"]]
"""


def load(text: str):
    return load_round(parse_level_bytes(text.encode(), "round.toml"))


def error_of(text: str) -> LevelError:
    with pytest.raises(LevelError) as raised:
        load(text)
    return raised.value


def test_the_standard_temple_matches_the_rulebooks_components():
    temple = standard_temple()
    # 16 rooms: 13 with room cards and the 3 door rooms; three doors on three different sides.
    assert (temple.rows, temple.cols, len(temple.card_rooms)) == (4, 4, 13)
    assert sorted(door.name for door in temple.doors) == ["blue", "green", "pink"]
    assert len({door.side for door in temple.doors}) == 3
    assert {temple.names[door.room] for door in temple.doors} == {"blue_gate", "green_gate", "pink_gate"}
    # "8 variable walls": 5 stand in the temple for the first game; two fixed inner walls.
    assert temple.pieces == 8 and temple.default_walls.bit_count() == 5 and temple.fixed.bit_count() == 2


def test_a_round_lists_only_what_changes_and_the_die_starts_at_the_door_pointing_down():
    round_ = load(ROUND)
    assert round_.temple == standard_temple()
    # "Is this your first game? Then the pink door points down." The die starts in its room.
    assert round_.down == BOTTOM and round_.temple.names[round_.die] == "pink_gate"
    assert (round_.supply, round_.pieces, round_.bounce, round_.torch, round_.swap) == (3, 8, 2, 1, True)
    left = load(ROUND + 'down = "left"\n')
    assert left.down == LEFT and left.temple.names[left.die] == "blue_gate"
    right = load(ROUND + 'down = "right"\n')
    assert right.down == RIGHT and right.temple.names[right.die] == "green_gate"


def test_a_die_that_would_fall_is_refused_where_it_is_named():
    error = error_of(ROUND + 'die = "bats"\n')
    # bats (row 0) has no wall below it: it would fall into fate. `die` is on line 5.
    assert (error.line, error.column) == (5, 1)
    assert "would fall" in error.message and "into fate" in error.message


def test_no_door_pointing_down_needs_the_die_named():
    error = error_of(ROUND + 'down = "top"\n')
    assert (error.line, error.column) == (5, 1) and "no door points down" in error.message


def test_two_doors_on_one_side_are_refused_at_the_second():
    text = '''game = "temple"
revealed = []
door = "pink"
hands = [["turn1"]]
[temple]
map = """
+---+
|a b|
|   |
|c d|
+P-G+
"""
doors = { P = "pink", G = "green" }
'''
    error = error_of(text)
    # The bottom frame is line 11; G stands in column 4.
    assert (error.line, error.column) == (11, 4) and "two doors on the bottom side" in error.message


def test_a_wall_on_a_fixed_slot_and_a_wall_between_rooms_that_do_not_touch():
    fixed = error_of(ROUND + 'walls = ["fate-jade"]\n')
    assert fixed.line == 5 and "fixed wall" in fixed.message
    apart = error_of(ROUND + 'walls = ["altar-pool"]\n')
    assert "not side by side" in apart.message


def test_an_unknown_card_names_the_one_probably_meant():
    error = error_of(ROUND.replace('"turn2"', '"trun2"'))
    assert error.line == 4 and 'did you mean "turn2"' in error.message


def test_an_unmodelled_challenge_card_is_refused_and_a_misspelt_one_gets_a_hint():
    unmodelled = error_of(ROUND + "[challenges]\npoor_visibility = true\n")
    assert (unmodelled.line, unmodelled.column) == (6, 1) and "not modelled" in unmodelled.message
    misspelt = error_of(ROUND + '[challenges]\nno_entri = "idol"\n')
    assert 'did you mean "no_entry"' in misspelt.message and misspelt.line == 6


def test_misspelt_keys_rooms_and_claims_get_a_hint():
    assert 'did you mean "revealed"' in error_of(ROUND.replace("revealed", "reveled")).message
    assert 'did you mean "fate"' in error_of(ROUND.replace('"fate"', '"fat"')).message
    assert 'did you mean "turns"' in error_of(ROUND + "[expect]\nturn = 3\n").message


def test_the_secret_room_must_be_a_hidden_room_card():
    error = error_of(ROUND + '[challenges]\nsecret_mission = "fate"\n')
    assert "not revealed" in error.message
    error = error_of(ROUND + '[challenges]\nsecret_mission = "pink_gate"\n')
    assert "room-card room" in error.message


def test_the_input_limits():
    # "Each person may hold at most 6 action cards"
    assert "at most 6" in error_of(ROUND.replace('["turn2"]', '["turn2"' + ', "turn1"' * 6 + "]")).message
    assert "at most 8 players" in error_of(ROUND.replace("hands = [", "hands = [" + '["turn1"], ' * 8)).message
    big = "+" + "-" * 17 + "+\n" + ("|" + "a" * 17 + "|\n") * 17 + "+" + "-" * 17 + "+\n"
    error = error_of(f'game = "temple"\nrevealed = []\ndoor = "x"\nhands = [[]]\n[temple]\nmap = """\n{big}"""\n')
    assert "at most 8 x 8 rooms" in error.message and error.line == 7
    assert "at most 64" in error_of(ROUND + "bounce = 65\n").message
    assert "at least 1" in error_of(ROUND + "torch = 0\n").message


def test_the_map_is_read_with_positions():
    text = '''game = "temple"
revealed = []
door = "pink"
hands = [["turn1"]]
[temple]
map = """
+---+
|a b|
|x  |
|c d|
+P--+
"""
doors = { P = "pink" }
'''
    error = error_of(text)
    # "x" stands on line 9, column 2: between a and c, where only a space, - or # may stand.
    assert (error.line, error.column) == (9, 2) and "'x' between two rooms" in error.message


def test_written_rounds_load_back_the_same():
    for seed in range(30):
        round_ = random_round(random.Random(seed))
        assert load(round_text(round_)) == round_


def test_a_bad_round_is_one_invalid_line_and_exit_2(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text(ROUND + 'die = "bats"\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(path)])
    assert result.exit_code == 2
    lines = [line for line in result.output.splitlines() if line.startswith("INVALID")]
    assert len(lines) == 1 and f"{path}:5:1:" in lines[0] and "Traceback" not in result.output
