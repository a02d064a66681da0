""" "Did you mean" for a book's codes, its local rules, the Boss's items and the rule names of [expect], as
for keys, cards and rooms: the message names the close one and stays positioned."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from tests.book_levels import book_text
from twisty.cli import main


def check_message(tmp_path, text: str) -> str:
    level = tmp_path / "book.toml"
    level.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["check", str(level)])
    assert result.exit_code == 2, result.output
    return result.output.splitlines()[0]


@pytest.mark.parametrize(
    ("code", "hint"),
    [
        ("Wf", '(did you mean "Wo" (Wolf)?)'),
        ("Vamp", '(did you mean "Va" (Vampire) or "Sw" (Swamp)?)'),
        ("Dragn", '(did you mean "Dr" (Dragon)?)'),
        ("Zm", '(did you mean "Zo" (Zombie)?)'),
    ],
)
def test_a_mistyped_code_names_the_content_meant(tmp_path, code, hint):
    text = book_text({1: f". . .\n. {code} .\n. . ."}, rows=3, cols=3, exit=[1, 2, 2])
    line = check_message(tmp_path, text)
    # row 1 of the page is line 10 of the file (6 header lines, "[pages]", `1 = """`, row 0); column 3
    expected = f'INVALID    {tmp_path}/book.toml:10:3: unknown content "{code}" on page 1, row 1, col 1 {hint}'
    assert line == expected + " (docs/book.md lists every code and name)"


def test_no_hint_when_nothing_is_close(tmp_path):
    text = book_text({1: ". . .\n. Qx .\n. . ."}, rows=3, cols=3, exit=[1, 2, 2])
    assert check_message(tmp_path, text).endswith(
        'unknown content "Qx" on page 1, row 1, col 1 (docs/book.md lists every code and name)'
    )


def test_a_mistyped_local_rule(tmp_path):
    extra = '[[local]]\nrule = "medussa"\npage = 1\n'
    text = book_text({1: ". . .\n. . .\n. . ."}, rows=3, cols=3, exit=[1, 2, 2], extra=extra)
    assert "unknown local rule 'medussa' (did you mean \"medusa\"?)" in check_message(tmp_path, text)


def test_a_mistyped_rule_name_in_the_claims(tmp_path):
    text = book_text({1: ". . .\n. . .\n. . ."}, rows=3, cols=3, exit=[1, 2, 2]) + '\n[expect]\nrules = ["The Wolff"]\n'
    line = check_message(tmp_path, text)
    assert "[expect] rules: 'The Wolff' is not a rule number (1-27) or name (did you mean \"The Wolf\"?)" in line


def test_a_mistyped_code_in_a_sketchs_open_cell(tmp_path):
    text = book_text({1: ". . .\n. ?{Wo,Rt} .\n. . ."}, rows=3, cols=3, exit=[1, 2, 2])
    sketch = tmp_path / "sketch.toml"
    sketch.write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, ["complete", str(sketch)])
    assert result.exit_code == 2
    assert 'unknown content "Rt" (did you mean "Ra" (Rat)?) in the open cell ?{Wo,Rt}' in result.output
