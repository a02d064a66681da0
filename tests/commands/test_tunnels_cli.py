"""`twisty odds`, `twisty generate tunnels` and `twisty bench tunnels` through click's CliRunner."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from twisty.cli import main


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_save_json_by_level():
    result = run("odds", "save", "--level", "1", "--rating", "3", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    # Hand-worked in test_tunnels_saving: difficulty 9, rating 3.
    assert data["success"] == "503/648"
    assert data["success_float"] == pytest.approx(503 / 648)
    assert data["difficulty"] == 9


def test_save_only_the_flop_fails():
    data = json.loads(run("odds", "save", "--difficulty", "21", "--rating", "500", "--json").output)
    assert data["success"] == "17/18"


def test_save_table_is_readable():
    result = run("odds", "save", "--level", "5", "--rating", "7")
    assert result.exit_code == 0
    assert "difficulty 21" in result.output and "success" in result.output


def test_clash_json_keys_and_values():
    result = run("odds", "clash", "1", "1", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert {"a_wins", "b_wins", "indecisive", "a_wins_float", "b_wins_float", "indecisive_float", "wounds"} <= set(data)
    # One die each: 15/36 each way, 6/36 indecisive; the loser always takes exactly 1 wound.
    assert (data["a_wins"], data["b_wins"], data["indecisive"]) == ("5/12", "5/12", "1/6")
    assert data["wounds"]["a"] == {"0": "7/12", "1": "5/12"}


def test_clash_armour_and_upper_hand():
    data = json.loads(run("odds", "clash", "2", "2", "--upper-hand", "a", "--armour", "b=5", "--json").output)
    assert data["wounds"]["b"] == {"0": "1/1"}
    assert Fraction(data["a_wins"]) > Fraction(data["b_wins"])
    assert data["a"]["upper_hand"] is True and data["b"]["armour"] == 5


def test_clash_flat_footed_with_shield():
    # Luck 0 + shield 7 against one die: no face reaches 7, so the flat-footed side always wins, unhurt,
    # and deals no wound.
    data = json.loads(run("odds", "clash", "0", "1", "--flat-footed", "a", "--shield", "--json").output)
    assert data["a_wins"] == "1/1"
    assert data["wounds"]["b"] == {"0": "1/1"}


def test_clash_table_is_readable():
    result = run("odds", "clash", "4", "3", "--armour", "a=1")
    assert result.exit_code == 0
    assert "a wins" in result.output and "wounds taken" in result.output


def test_fight_json():
    result = run("odds", "fight", "--delver", "combat=1,con=1,luck=5", "--monster", "rating=1,dice=1", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    # The hand-worked chain of test_tunnels_fight.
    assert data["win"] == "3/4"
    assert data["disabled"] == str(Fraction(17, 72))
    assert data["expected_clashes"] == "41/20"
    assert data["constitution"] == {"0": "1/2", "1": "1/2"}


def test_fight_table():
    result = run(
        "odds",
        "fight",
        "--delver",
        "combat=3,con=6,luck=3,armour=1,shield",
        "--monster",
        "mr=8,dice=3",
        "--level",
        "2",
        "--upper-hand",
        "monster",
    )
    assert result.exit_code == 0, result.output
    assert "delver wins" in result.output and "difficulty 12" in result.output


def test_generate_tunnels_hits_the_target():
    result = run(
        "generate",
        "tunnels",
        "--delver",
        "combat=3,con=8,luck=4,armour=1",
        "--target",
        "0.5",
        "--max-rating",
        "20",
        "--max-dice",
        "5",
        "--json",
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    chosen = Fraction(data["monster"]["win"])
    gap = abs(chosen - Fraction(1, 2))
    assert Fraction(data["gap"]) == gap
    # No neighbour in the table is closer than the chosen monster.
    assert all(abs(Fraction(n["win"]) - Fraction(1, 2)) >= gap for n in data["neighbours"])
    assert data["searched"] == 20 * 5


def test_generate_tunnels_says_when_the_answer_is_at_the_edge():
    # More rating only makes a monster harder, so the monster closest to a 0 win chance is the strongest
    # in the box, on its rim, where a harder one may lie just outside.
    result = run(
        "generate",
        "tunnels",
        "--delver",
        "combat=2,con=3",
        "--target",
        "0",
        "--max-rating",
        "3",
        "--max-dice",
        "1",
        "--json",
    )
    data = json.loads(result.output)
    assert (data["monster"]["rating"], data["monster"]["dice"]) == (3, 1)
    assert data["at_search_edge"] is True


def test_generate_tunnels_survival_threshold():
    result = run(
        "generate",
        "tunnels",
        "--delver",
        "combat=2,con=5,luck=3",
        "--survival",
        "9/10",
        "--max-rating",
        "12",
        "--max-dice",
        "4",
        "--json",
    )
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert Fraction(data["monster"]["survival"]) >= Fraction(9, 10)
    assert data["goal"] == "survival"


@pytest.mark.parametrize(
    "args",
    [
        ("odds", "save", "--rating", "3"),
        ("odds", "save", "--level", "1", "--difficulty", "9", "--rating", "3"),
        ("odds", "save", "--level", "0", "--rating", "3"),
        ("odds", "save", "--difficulty", "10000", "--rating", "0"),
        ("odds", "clash", "3", "x"),
        ("odds", "clash", "3", "-1"),
        ("odds", "clash", "3", "2", "--upper-hand", "c"),
        ("odds", "clash", "3", "2", "--armour", "c=1"),
        ("odds", "clash", "3", "2", "--armour", "a=lots"),
        ("odds", "clash", "3", "2", "--flat-footed", "a", "--upper-hand", "a"),
        ("odds", "clash", "3", "2", "--luck", "4"),
        ("odds", "fight", "--delver", "combat=3", "--monster", "rating=3,dice=2"),
        ("odds", "fight", "--delver", "combat=3,con=5,speed=2", "--monster", "rating=3,dice=2"),
        ("odds", "fight", "--delver", "combat=3,con=5", "--monster", "rating=3,dice=0"),
        ("odds", "fight", "--delver", "combat=3,con=five", "--monster", "rating=3,dice=2"),
        ("generate", "tunnels", "--delver", "combat=3,con=5"),
        ("generate", "tunnels", "--delver", "combat=3,con=5", "--target", "1.5"),
        ("generate", "tunnels", "--delver", "combat=3,con=5", "--target", "half"),
        ("generate", "tunnels", "--delver", "combat=3,con=5", "--target", "0.5", "--survival", "0.9"),
        ("generate", "tunnels", "--delver", "combat=3,con=60,armour=40", "--target", "0.5", "--max-rating", "200"),
        ("odds", "fight", "--delver", "combat=9,con=100,armour=50", "--monster", "rating=200,dice=9,armour=50"),
    ],
)
def test_bad_input_is_a_usage_error(args):
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert "Error" in result.output


def test_bench_tunnels_is_registered():
    result = run("bench", "tunnels", "--help")
    assert result.exit_code == 0
    assert "icepool" in result.output


def test_bench_without_icepool_says_how_to_install(monkeypatch):
    # A None entry in sys.modules makes `import icepool` raise ImportError.
    monkeypatch.setitem(__import__("sys").modules, "icepool", None)
    result = CliRunner().invoke(main, ["bench", "tunnels", "--repeat", "1"])
    assert result.exit_code == 2
    assert "pip install icepool" in result.output


@pytest.mark.slow
def test_bench_runs_and_agrees_with_icepool():
    pytest.importorskip("icepool")
    result = run("bench", "tunnels", "--repeat", "1", "--json")
    assert result.exit_code == 0, result.output
    cases = json.loads(result.output)["cases"]
    assert all(case["agree"] for case in cases)
    assert any((case["a_dice"], case["b_dice"]) == (20, 20) for case in cases)


def test_fractions_of_any_length_are_printed_exactly():
    import sys

    from twisty.commands.odds import fraction_text

    limit = sys.get_int_max_str_digits()
    numerator, denominator = fraction_text(Fraction(10**5000 + 1, 3**9000)).split("/")
    assert len(numerator) == 5001 and numerator.startswith("10") and numerator.endswith("01")
    assert len(denominator) == 4295 and denominator.endswith("1")
    assert fraction_text(Fraction(1)) == "1/1"
    assert sys.get_int_max_str_digits() == limit
