"""What a format cannot hold is refused: one LevelError naming the level file, the place (the legend entry,
or the map cell) and what the format lacks; never a file of another level. And the check of the engine's
floating-point floors against a brute force of JavaScript's arithmetic."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest

from tests.exporters.roundtrip import load, source_of
from twisty.errors import LevelError
from twisty.exporters.h5mota import engine_floor_matches, export_h5mota, floor_bound_holds
from twisty.exporters.mtai import export_mtai

PLAYER = "[player]\nhp = 100\natk = 5\n"


def refusal(text: str, form: str) -> LevelError:
    source = source_of(text, "level.toml")
    export = export_h5mota if form == "h5mota" else export_mtai
    with pytest.raises(LevelError) as caught:
        export(load(source), source, "level.toml")
    return caught.value


def one_map(rows: str, legend: str, extra: str = "") -> str:
    return f'game = "passages"\n{extra}map = """\n{rows}\n"""\n{PLAYER}[legend]\n{legend}\n'


def test_two_up_stairs_to_one_floor_are_refused_at_the_second():
    text = (
        'game = "passages"\n'
        + PLAYER
        + '[legend]\nu = { kind = "stairs", direction = "up" }\nd = { kind = "stairs", direction = "down" }\n'
        + '[[floor]]\nname = "low"\nmap = """\n#Su.u#\n"""\n[[floor]]\nname = "high"\nmap = """\n#d..G#\n"""\n'
    )
    for form in ("h5mota", "mtai"):
        error = refusal(text, form)
        assert "floor low has 2 up stairs" in error.message
        assert error.message.startswith("floor low, row 0, column 4: cannot be exported to")
        assert (error.path, error.line, error.column) == ("level.toml", 11, 5)


def test_a_goal_below_the_top_floor_is_refused_by_h5mota():
    text = (
        'game = "passages"\n'
        + PLAYER
        + '[legend]\nu = { kind = "stairs", direction = "up" }\nd = { kind = "stairs", direction = "down" }\n'
        + '[[floor]]\nmap = """\n#SuG#\n"""\n[[floor]]\nmap = """\n#d..#\n"""\n'
    )
    error = refusal(text, "h5mota")
    assert "a goal on floor 1, below the top floor" in error.message
    assert (error.line, error.column) == (10, 4)


def test_strengths_that_differ_between_monsters_are_refused_by_h5mota():
    legend = (
        'a = { kind = "enemy", hp = 5, atk = 9, def = 0, specials = [7], break_armour = 0.5 }\n'
        'b = { kind = "enemy", hp = 5, atk = 9, def = 0, specials = [7] }'
    )
    error = refusal(one_map("#Sa.b.G#", legend), "h5mota")
    assert "strengths 0.5, 0.9" in error.message and "breakArmor" in error.message
    assert (error.line, error.column) == (9, 1)  # the legend entry of the first such monster


def test_a_drain_the_engine_floors_differently_is_refused_by_h5mota():
    """0.29 is held by JavaScript as 0.28999999999999998: Math.floor(0.29 * 100) is 28, twisty's 29."""
    assert math.floor(0.29 * 100) == 28
    legend = 'v = { kind = "enemy", hp = 5, atk = 9, def = 0, specials = [11], drain = 0.29 }'
    error = refusal(one_map("#Sv.G#", legend), "h5mota")
    assert "0.29" in error.message and "a little below it" in error.message
    accepted = one_map("#Sv.G#", legend.replace("0.29", "0.3"))
    assert "floors" in export_h5mota(load(source_of(accepted)), None, "level.toml").files["floors/MT1.js"]


def test_keys_of_no_colour_beside_all_four_colours_are_refused():
    legend = "\n".join(
        [f'{c[0]} = {{ kind = "key", colour = "{c}" }}' for c in ("yellow", "blue", "red", "green")]
        + ['k = { kind = "key" }']
    )
    for form in ("h5mota", "mtai"):
        error = refusal(one_map("#Sybrgk.G#", legend), form)
        assert "keys of no colour besides keys of all four colours" in error.message


@pytest.mark.parametrize(
    ("legend", "rows", "message"),
    [
        (
            'a = { kind = "enemy", hp = 5, atk = 9, def = 0, specials = [1, 4] }',
            "#Sa.G#",
            "specials 1 (first strike), 4",
        ),
        ('a = { kind = "enemy", hp = 5, atk = 9, def = 0, specials = [22], fixed_damage = 3 }', "#Sa.G#", "special 22"),
        (
            'a = { kind = "enemy", hp = 5, atk = 9, def = 0, specials = [6], hits_per_round = 3 }',
            "#Sa.G#",
            "hits per round of 3",
        ),
        ('s = { kind = "equipment", atk = 1, def = 1 }', "#Ss.G#", "more than one stat"),
        (
            "\n".join(f'{n} = {{ kind = "elixir", hp = {n} }}' for n in range(1, 6)),
            "#S12345G#",
            "5 potions of different life (1, 2, 3, 4, 5); the format has 4",
        ),
    ],
)
def test_what_magic_tower_ai_has_no_field_for_is_refused_at_its_legend_entry(legend, rows, message):
    error = refusal(one_map(rows, legend), "mtai")
    assert message in error.message
    assert error.line is not None and error.line >= 9


def test_a_goal_needs_a_hero_who_can_harm_the_harmless_boss_of_magic_tower_ai():
    text = 'game = "passages"\nmap = """\n#S.G#\n"""\n[player]\nhp = 5\n'
    assert "give the hero atk 1 or more" in refusal(text, "mtai").message


def test_bosses_of_different_kinds_and_green_keys_at_the_start_are_refused_by_mtai():
    legend = (
        'B = { kind = "enemy", hp = 5, atk = 9, def = 0, boss = true }\n'
        'C = { kind = "enemy", hp = 6, atk = 9, def = 0, boss = true }'
    )
    assert "bosses of different kinds" in refusal(one_map("#SB.C#", legend, 'win = "boss"\n'), "mtai").message
    text = one_map("#S.G#", "").replace("atk = 5\n", "atk = 5\ngreen_keys = 1\n")
    assert "starts with green keys" in refusal(text, "mtai").message


def test_the_floor_check_is_sound_against_javascripts_arithmetic():
    """For every strength of up to three decimals up to 3, the proven bound (used for stats past 100,000)
    never passes a strength that JavaScript's doubles floor differently at some n up to 2,000 (Python's
    floats are the same IEEE doubles), and it passes most: 2,566 of 3,000."""
    largest = 2_000
    passed = 0
    strengths = {Fraction(p, q) for q in (10, 100, 1000) for p in range(1, 3 * q + 1)}
    for strength in sorted(strengths):
        if floor_bound_holds(strength, largest):
            double = float(strength)
            assert all(
                math.floor(double * n) == strength.numerator * n // strength.denominator for n in range(largest + 1)
            ), strength
            passed += 1
    assert (len(strengths), passed) == (3000, 2566)


def test_the_floor_check_of_small_stats_tries_every_value():
    """Up to 100,000 the check tries every value: 0.29 fails at 100 (28 against 29) and passes below it."""
    assert engine_floor_matches(Fraction(29, 100), 99) and not engine_floor_matches(Fraction(29, 100), 100)
    assert not floor_bound_holds(Fraction(29, 100), 99)
