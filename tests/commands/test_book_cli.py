"""The book through the command line: invalid books give one positioned message and exit 2."""

import json

import pytest
from click.testing import CliRunner

from tests.book_levels import book_text
from twisty.cli import main

GOOD = {1: "Ru Ru Ru\nRu ## Ru\n## ## Ru"}


def run(tmp_path, text, *arguments):
    level = tmp_path / "book.toml"
    level.write_text(text)
    result = CliRunner().invoke(
        main, [*arguments, str(level)] if arguments[0] != "explain" else ["explain", str(level), *arguments[1:]]
    )
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result, str(level)


def good_text(**changes):
    keywords = {"rows": 3, "cols": 3, "entrance": [1, 0, 0], "exit": [1, 2, 2]} | changes
    pages = keywords.pop("pages", GOOD)
    return book_text(pages, **keywords)


def test_a_good_book_checks_with_its_walk_in_json(tmp_path):
    result, _ = run(
        tmp_path,
        good_text(extra="[expect]\nsolvable = true\nunique = true\nsimple_corridor = false\n"),
        "check",
        "--json",
    )
    assert result.exit_code == 0
    data = json.loads(result.output)
    assert data["walk"] == [[1, 0, 0], [1, 0, 1], [1, 0, 2], [1, 1, 2], [1, 2, 2]]
    assert data["dead_ends"] == [[1, 1, 0]] and data["expect_failures"] == []
    assert data["rules_fired"] == ["Safe terrain and the Bridge", "Wall"]


def test_a_failed_expectation_exits_1_and_names_the_cell(tmp_path):
    result, _ = run(tmp_path, good_text(extra="[expect]\npassable = [[1, 1, 1]]\n"), "check")
    assert result.exit_code == 1
    assert "passable: [1, 1, 1] should be passable but is impassable (wall)" in result.output


# Each invalid book: (the text, the line and column expected, words of the message).
def _ragged():
    return good_text(pages={1: "Ru Ru Ru\nRu ## Ru Ru\n## ## Ru"})


INVALID = {
    "unknown code": (good_text(pages={1: "Ru Ru Ru\nRu Qq Ru\n## ## Ru"}), 10, 4, 'unknown content "Qq"'),
    "wolf pack over six": (book_text({1: "Wo Wo Wo Wo\nWo Wo Wo ."}, rows=2, cols=4), 9, 1, "a pack of 7 Wolves"),
    "unpaired tunnel": (good_text(pages={1: "Ru Tu Ru\nRu ## Ru\n## ## Ru"}), 9, 4, "unpaired Tunnel on page 1"),
    "ragged page": (_ragged(), 10, 10, "page 1, row 1 has 4 cells"),
}


@pytest.mark.parametrize("case", sorted(INVALID))
def test_invalid_books_exit_2_with_one_positioned_message(tmp_path, case):
    text, line, column, words = INVALID[case]
    result, path = run(tmp_path, text, "check")
    assert result.exit_code == 2
    invalid = [row for row in result.output.splitlines() if row.startswith("INVALID")]
    assert len(invalid) == 1
    assert f"{path}:{line}:{column}: " in invalid[0] and words in invalid[0]


def test_no_entrance_is_invalid(tmp_path):
    text = "\n".join(row for row in good_text().splitlines() if not row.startswith("entrance"))
    result, path = run(tmp_path, text, "check")
    assert result.exit_code == 2
    assert f'{path}:1:1: missing key "entrance"' in result.output


def test_solve_draws_the_spread_with_the_walk(tmp_path):
    result, _ = run(tmp_path, good_text(), "solve")
    assert result.exit_code == 0
    lines = result.output.splitlines()
    top = lines.index("              | page 1")
    assert lines[top + 1 : top + 4] == [
        "              | Ru@ Ru* Ru*",
        "              | Ru  ### Ru*",
        "              | ### ### Ru%",
    ]


def test_explain_gives_the_chain_of_rules(tmp_path):
    pages = {1: "Va Ba Th Sw Cu\n. . . . ."}
    result, _ = run(
        tmp_path, book_text(pages, rows=2, cols=5, entrance=[1, 1, 0], exit=[1, 1, 4]), "explain", "1", "0", "2"
    )
    assert result.exit_code == 0
    assert "holds Thief" in result.output
    assert "Thief -> Vampire (spread from page 1, row 0, col 1)" in result.output
    assert "deadly" in result.output


def test_explain_names_the_rats_spread_by_its_pages(tmp_path):
    pages = {1: "Ra . .", 2: "Ra Ra Ra", 3: "Ra Ra Ra"}
    result, _ = run(
        tmp_path, book_text(pages, rows=1, cols=3, entrance=[1, 0, 1], exit=[1, 0, 2]), "explain", "1", "0", "0"
    )
    assert result.exit_code == 0
    assert "rule 3 (The Rat): 1 Rat on the spread of page 1: fewer than ten, safe" in result.output
    assert "Rats on spread" not in result.output


def test_explain_outside_the_book_exits_2(tmp_path):
    result, _ = run(tmp_path, good_text(), "explain", "7", "0", "0")
    assert result.exit_code == 2 and "no cell page 7" in result.output


def test_the_legend_in_docs_lists_every_code():
    from pathlib import Path

    from twisty.rules.book.contents import CONTENTS

    legend = (Path(__file__).resolve().parents[2] / "docs" / "book.md").read_text()
    missing = [
        content.code
        for content in CONTENTS.values()
        if f"`{content.code}` {content.name}" not in legend and not content.name.isdigit()
    ]
    assert missing == []


def test_missing_rows_and_a_gap_between_pages_are_positioned(tmp_path):
    text = "\n".join(row for row in good_text().splitlines() if not row.startswith("rows"))
    result, path = run(tmp_path, text, "check")
    assert result.exit_code == 2 and f'{path}:1:1: missing key "rows"' in result.output
    gap = book_text({1: "Ru", 3: "Ru"}, rows=1, cols=1)
    result, path = run(tmp_path, gap, "check")
    assert result.exit_code == 2
    assert f"{path}:11:1: pages must be one consecutive run: page 2 is missing" in result.output


def test_two_entrances_are_invalid_at_the_second(tmp_path):
    text = good_text().replace("exit = ", "entrance = [1, 0, 1]\nexit = ", 1)
    result, path = run(tmp_path, text, "check")
    assert result.exit_code == 2 and f"{path}:5:" in result.output


def test_a_leaf_with_two_tunnels_a_side_needs_named_pairs(tmp_path):
    pages = {1: "Tu Tu", 2: "Tu Tu"}
    result, path = run(tmp_path, book_text(pages, rows=1, cols=2), "check")
    assert result.exit_code == 2
    assert f"{path}:9:1: leaf 1 holds 2 Tunnels on page 1 and 2 on page 2" in result.output
    named = book_text(
        pages,
        rows=1,
        cols=2,
        extra="[[tunnel]]\ncells = [[1, 0, 0], [2, 0, 0]]\n[[tunnel]]\ncells = [[1, 0, 1], [2, 0, 1]]\n",
    )
    result, _ = run(tmp_path, named, "check")
    assert result.exit_code == 0


def test_a_tunnel_pair_on_two_leaves_is_refused_at_its_cells(tmp_path):
    pages = {1: "Tu", 2: ".", 3: "Tu", 4: "."}
    text = book_text(pages, rows=1, cols=1, extra="[[tunnel]]\ncells = [[1, 0, 0], [3, 0, 0]]\n")
    result, path = run(tmp_path, text, "check")
    assert result.exit_code == 2
    assert f"{path}:7:1: a Tunnel pair must be the front and back of one leaf, not pages 1 and 3" in result.output


def test_check_with_the_sat_engine_gives_the_same_walk_and_names_the_engine(tmp_path):
    rules, _ = run(tmp_path, good_text(), "check", "--json")
    sat, _ = run(tmp_path, good_text(), "check", "--json", "--engine", "sat")
    assert (rules.exit_code, sat.exit_code) == (0, 0)
    by_rules, by_sat = json.loads(rules.output), json.loads(sat.output)
    assert (by_rules["engine"], by_sat["engine"]) == ("rules", "sat")
    for key in ("solvable", "moves", "unique", "shortest_walks", "walk", "corridor"):
        assert by_sat[key] == by_rules[key], key
