"""Values an import cannot hold as written (issue 28, classes 4, 5 and 8): NaN and Infinity, fractions,
negatives where the model needs more, numbers of hundreds of digits, objects where a number or a
table belongs, an item effect nested 1,200 brackets deep. Each is refused with exit code 2 and one message
at its place in the SOURCE file (line and column found here by plain string search), never changed
quietly, never an internal error; nothing is written."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from twisty.cli import main

MINI = Path(__file__).resolve().parents[1] / "towers" / "h5mota-mini" / "project"
BEYOND = "beyond the numbers twisty holds (-1,000,000,000 to 1,000,000,000)"
SLIME = '"slime": {"name": "Slime", "hp": 20, "atk": 12, "def": 2, "money": 3, "special": 0}'


@pytest.fixture
def project(tmp_path: Path) -> Path:
    shutil.copytree(MINI, tmp_path / "project")
    return tmp_path / "project"


def position(text: str, needle: str, skip: int = 0) -> str:
    """line:column of `needle` (plus `skip` characters) in `text`."""
    offset = text.index(needle) + skip
    return f"{text.count(chr(10), 0, offset) + 1}:{offset - text.rfind(chr(10), 0, offset)}"


CASES = [
    # (file, text replaced, replacement, characters into the replacement where the value starts, message)
    ("data.js", '"hp": 100,', '"hp": NaN,', 6, "the hero's hp is NaN: twisty holds finite numbers only"),
    ("data.js", '"atk": 10,', '"atk": Infinity,', 7, "the hero's atk is Infinity: twisty holds finite numbers only"),
    ("data.js", '"hp": 100,', '"hp": 0,', 6, "the hero's hp is 0: it must be at least 1 for twisty"),
    (
        "data.js",
        '"hp": 100,',
        '"hp": 99.5,',
        6,
        "the hero's hp is 99.5: twisty holds whole numbers here, and rounding would change the play",
    ),
    (
        "data.js",
        '"redGem": 2,',
        '"redGem": -Infinity,',
        10,
        "values.redGem is -Infinity: twisty holds finite numbers only",
    ),
    (
        "data.js",
        '"redPotion": 50,',
        '"redPotion": 1' + "0" * 300 + ",",
        13,
        f"values.redPotion is a number of 301 digits: {BEYOND}",
    ),
    ("data.js", '"firstData": {', '"firstData": 5, "x": {', 13, "data.js's firstData must be an object {...}, not 5"),
    ("data.js", '"hero": {', '"hero": [1], "x": {', 8, "firstData.hero must be an object {...}, not [1]"),
    ("data.js", '"main": {', '"main": "F1", "x": {', 8, 'data.js\'s main must be an object {...}, not "F1"'),
    (
        "enemys.js",
        SLIME,
        SLIME.replace('"hp": 20', '"hp": NaN'),
        33,
        'monster "slime"\'s hp is NaN: twisty holds finite numbers only',
    ),
    (
        "enemys.js",
        SLIME,
        SLIME.replace('"hp": 20', '"hp": 100.5'),
        33,
        'monster "slime"\'s hp is 100.5: twisty holds whole numbers here, and rounding would change the play',
    ),
    (
        "enemys.js",
        SLIME,
        SLIME.replace('"hp": 20', '"hp": -100'),
        33,
        'monster "slime"\'s hp is -100: it must be at least 1 for twisty',
    ),
    (
        "enemys.js",
        SLIME,
        SLIME.replace('"atk": 12', '"atk": -120'),
        44,
        'monster "slime"\'s atk is -120: it must be at least 0 for twisty',
    ),
    (
        "enemys.js",
        SLIME,
        SLIME.replace('"hp": 20', '"hp": 1' + "0" * 299),
        33,
        f'monster "slime"\'s hp is a number of 300 digits: {BEYOND}',
    ),
    (
        "enemys.js",
        SLIME,
        SLIME.replace('"def": 2', '"def": Infinity'),
        55,
        'monster "slime"\'s def is Infinity: twisty holds finite numbers only',
    ),
    (
        "enemys.js",
        SLIME,
        SLIME.replace('"money": 3', '"money": "3"'),
        67,
        'monster "slime"\'s money must be a number, not "3"',
    ),
    (
        "enemys.js",
        SLIME,
        SLIME.replace('"special": 0', '"special": NaN'),
        81,
        'monster "slime"\'s special is NaN: twisty holds finite numbers only',
    ),
    (
        "enemys.js",
        SLIME,
        SLIME.replace('"special": 0', '"special": [0, 4.5]'),
        85,
        'monster "slime"\'s special is 4.5: twisty holds whole numbers here, and rounding would change the play',
    ),
    ("floors/F1.js", '"ratio": 1,', '"ratio": NaN,', 9, "floor F1's ratio is NaN: twisty holds finite numbers only"),
    (
        "floors/F1.js",
        "[  1,  0,201,",
        "[  1,  0,1" + "0" * 299 + ",",
        9,
        f"the tile at x 2, y 1 is a number of 300 digits: {BEYOND}",
    ),
    (
        "floors/F1.js",
        "[  1,  0,201,",
        "[  1,  0,20.5,",
        9,
        "the tile at x 2, y 1 is 20.5: twisty holds whole numbers here, and rounding would change the play",
    ),
    (
        "floors/F1.js",
        "[  1,  0,201,",
        "[  1,  0,NaN,",
        9,
        "the tile at x 2, y 1 is NaN: twisty holds finite numbers only",
    ),
    ("floors/F1.js", '"map": [', '"map": {"0": 1}, "x": [', 7, "no map of whole numbers of at most 200 x 200"),
]


@pytest.mark.parametrize(("file", "old", "new", "skip", "message"), CASES)
def test_values_twisty_cannot_hold_are_refused_at_their_place(project, tmp_path, file, old, new, skip, message):
    path = project / file
    text = path.read_text(encoding="utf-8")
    assert text.count(old) >= 1
    text = text.replace(old, new, 1)
    path.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["import", "h5mota", str(project), "-o", str(out), "--json"])
    assert result.exit_code == 2, result.output
    assert result.output.splitlines()[-1] == f"twisty: {path}:{position(text, new, skip)}: {message}"
    assert "Traceback" not in result.output and not out.exists()


def test_an_item_effect_nested_1200_brackets_deep_is_refused(project, tmp_path):
    path = project / "items.js"
    text = path.read_text(encoding="utf-8")
    old = '"core.status.hero.atk += core.values.redGem * core.status.thisMap.ratio"'
    new = '"core.status.hero.atk += ' + "(" * 1200 + "1" + ")" * 1200 + '"'
    path.write_text(text.replace(old, new), encoding="utf-8")
    result = CliRunner().invoke(main, ["import", "h5mota", str(project), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == (
        f'twisty: {path}:{position(text.replace(old, new), new)}: item "redGem"\'s effect: brackets and signs '
        "nested more than 32 deep (at most 32)"
    )


def test_an_effect_past_the_numbers_is_refused_and_an_odd_one_is_a_loss(project, tmp_path):
    """A gem that gives 10^20 atk cannot be held: refused at the effect. An effect of a form twisty does not
    read (a number with two points, a call it does not know) is a loss, named in the report."""
    path = project / "items.js"
    text = path.read_text(encoding="utf-8")
    old = '"core.status.hero.atk += core.values.redGem * core.status.thisMap.ratio"'
    huge = '"core.status.hero.atk += 100000000000 * 1000000000"'
    path.write_text(text.replace(old, huge), encoding="utf-8")
    result = CliRunner().invoke(main, ["import", "h5mota", str(project), "-o", str(tmp_path / "out")])
    assert result.exit_code == 2
    assert result.output.splitlines()[-1] == (
        f'twisty: {path}:{position(text.replace(old, huge), huge)}: item "redGem" gives atk 1e+20: {BEYOND}'
    )
    for odd, loss in (
        ('"core.status.hero.atk += 1.2.3"', "the number '1.2.3'"),
        ('"core.status.hero.atk += ²"', "the character '²'"),
        ("\"core.addItem('yellowKey', 99999999999)\"", "core.addItem with the count '99999999999'"),
    ):
        path.write_text(text.replace(old, odd), encoding="utf-8")
        result = CliRunner().invoke(main, ["import", "h5mota", str(project), "-o", str(tmp_path / "odd"), "--force"])
        assert result.exit_code == 0, result.output
        assert f"lost: F1: item redGem (its effect: {loss}) x1 at (2,1): a floor cell" in result.output


def test_a_monster_of_hp_0_is_a_loss_where_it_stands(project, tmp_path):
    """mota-js's own sample tower has placeholder monsters of hp 0 on its floors: each is a wall in the
    loss report at its place (the slime of F1 stands at row 1, column 2), not a refusal of the tower."""
    path = project / "enemys.js"
    path.write_text(path.read_text(encoding="utf-8").replace(SLIME, SLIME.replace('"hp": 20', '"hp": 0')), "utf-8")
    result = CliRunner().invoke(main, ["import", "h5mota", str(project), "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "lost: F1: monster slime of hp 0 x1 at (1,2): a wall" in result.output


def test_odd_kinds_of_value_in_events_are_losses_not_errors(project, tmp_path):
    """An event whose type is a list (found by the fuzz: it raised TypeError, exit 3) is an event twisty
    does not play: a loss in the report, and the floor is imported."""
    path = project / "floors" / "F1.js"
    path.write_text(path.read_text(encoding="utf-8").replace('"type": "tip"', '"type": []'), encoding="utf-8")
    result = CliRunner().invoke(main, ["import", "h5mota", str(project), "-o", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    assert "lost: F1: event on first arrival x1: not played" in result.output


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ("50 5 1 0 0", "50 5 1_0 0 0", "21:6: '1_0' is not a whole number"),  # Python's int() took it as 10
        ("50 5 1 0 0", "50 5 +1 0 0", "21:6: '+1' is not a whole number"),
        ("50 5 1 0 0", "50 5 ١ 0 0", "21:6: '١' is not a whole number"),  # an Arabic-Indic one
        (
            "50 5 1 0 0",
            "50 5 1" + "0" * 300 + " 0 0",
            "21:6: the hero's def must lie within 0 to 1,000,000,000, not a number of 301 characters",
        ),
    ],
)
def test_mtai_numbers_are_plain_decimal_integers(tmp_path, old, new, message):
    text = (MINI.parents[1] / "mtai-two-floors.txt").read_text()
    assert old in text
    source = tmp_path / "t.txt"
    source.write_text(text.replace(old, new, 1))
    result = CliRunner().invoke(main, ["import", "mtai", str(source), "-o", str(tmp_path / "t.toml")])
    assert result.exit_code == 2
    assert result.output.startswith(f"twisty: {source}:{message}"), result.output
