"""`twisty generate book`: each book's only walk is its corridor, each named rule matters beside it, and the
files are what `twisty check` passes. Every claim here is checked by the rule engine (or by hand), never by
the generator's own model."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import twisty
from tests.book_levels import make_book
from twisty.cli import main
from twisty.errors import GenerationError
from twisty.generator import book as generator
from twisty.generator.book import BookParams, generate_book
from twisty.generator.book_families import FAMILIES, fires_in
from twisty.rules.book.loader import load_book
from twisty.rules.book.static import DEADLY, PASSABLE, evaluate
from twisty.rules.source import parse_level_bytes
from twisty.solver.book import solve_book

MUST_SHOW = [
    "--pages",
    "6",
    "--size",
    "6x8",
    "--rules",
    "wolf,vampire,oracle,melee,rat,mimic",
    "--seed",
    "7",
    "-n",
    "3",
]


def test_the_issue_run_writes_three_books_that_check_clean(tmp_path):
    out = tmp_path / "books"
    result = CliRunner().invoke(main, ["generate", "book", *MUST_SHOW, "-o", str(out)])
    assert result.exit_code == 0, result.output
    files = sorted(out.glob("*.toml"))
    assert [path.name for path in files] == [
        f"book-6p-6x8-wolf-vampire-oracle-melee-rat-mimic-seed{seed}.toml" for seed in (7, 8, 9)
    ]
    checked = CliRunner().invoke(main, ["check", "--json", str(out)])
    assert checked.exit_code == 0, checked.output
    for line in checked.output.splitlines():
        data = json.loads(line)
        assert data["expect_failures"] == []
        assert (data["solvable"], data["unique"], data["shortest_walks"], data["simple_corridor"]) == (
            True,
            True,
            1,
            True,
        )
        assert data["branches"] == [] and data["dead_ends"] == []
        # The walk runs from the first page to the last and the corridor is exactly the walk.
        assert data["walk"][0][0] == 1 and data["walk"][-1][0] == 6
        assert sorted(map(tuple, data["corridor"])) == sorted(map(tuple, data["walk"]))
        fired = set(data["rules_fired"])
        assert {"The Wolf", "The Vampire", "The Oracle", "Orcs and Dwarves", "The Rat", "The Mimic"} <= fired


def test_each_named_family_decides_a_cell_on_the_walk_or_beside_it_by_the_rule_engine():
    params = BookParams(pages=6, rows=6, cols=8, rules=("wolf", "vampire", "oracle", "melee", "rat", "mimic"))
    made = generate_book(params, 7)
    book = load_book(parse_level_bytes(made.text.encode(), "made.toml"))
    verdict = solve_book(book)
    shape = book.shape
    walk = {shape.index(cell) for cell in verdict.walk}
    border = {shape.index(other) for cell in verdict.walk for other in shape.neighbours4(cell)} - walk
    for name in params.rules:
        found = fires_in(verdict.initial, FAMILIES[name], walk, border)
        assert found, name
        for index, status in found:
            chain = verdict.initial.deciding_rules(index)
            assert FAMILIES[name].rule in chain or name == "mimic", (name, shape.cell(index), chain)
            assert verdict.initial.status[index] == status


def test_a_seed_gives_the_same_book_and_another_seed_another():
    params = BookParams(pages=2, rows=5, cols=6, rules=("wolf", "lava"))
    first, again, other = (generate_book(params, seed).text for seed in (3, 3, 4))
    assert first == again
    assert first != other


@pytest.mark.parametrize(
    "rules", [("reaper", "thief", "torch"), ("giant", "mage", "medusa"), ("number", "lava", "rat", "wolf")]
)
def test_other_families_fire_too(rules):
    made = generate_book(BookParams(pages=2, rows=8, cols=10, rules=rules), 1)
    verdict = twisty.check(made.text)
    assert verdict.expect_failures == ()
    assert (verdict.unique, verdict.simple_corridor) == (True, True)
    assert set(made.fired) == set(rules)


def test_path_rules_shape_the_walk_and_the_walk_uses_them():
    made = generate_book(BookParams(pages=4, rows=6, cols=8, rules=("bridge", "tunnel", "bow")), 2)
    verdict = solve_book(load_book(parse_level_bytes(made.text.encode(), "made.toml")))
    assert {15, 18, 22} <= verdict.walk_rules
    assert (verdict.shortest_walks, verdict.simple_corridor) == (1, True)
    assert twisty.check(made.text).expect_failures == ()


def test_a_refuted_book_is_refined_and_the_bound_on_rounds_is_reported(monkeypatch):
    calls = []

    def refuse(book, walk, params, border, deadline, engine=None):
        calls.append(1)
        return solve_book(book), {}, "refused for the test"

    monkeypatch.setattr(generator, "verify", refuse)
    monkeypatch.setattr(generator, "WALK_ATTEMPTS", 1)
    with pytest.raises(GenerationError, match=f"bound of {generator.MAX_ROUNDS} rounds"):
        generate_book(BookParams(pages=1, rows=5, cols=6, rules=("lava",)), 1)
    assert len(calls) == generator.MAX_ROUNDS


def test_firing_is_read_from_the_rule_engine_on_a_hand_made_book():
    # Row 1 is the walk (entrance (1,1,0), exit (1,1,4)). Two Wolves sit above it at (1,0,1) and (1,0,2):
    # a pack of two, both deadly by rule 4, both beside the walk. The Thief beside the Gold at (1,2,3)/(1,2,4)
    # makes the Gold deadly by rule 20; the Thief itself is a passable Weakling, so the bottom row blocks
    # nothing else: it is a wall of Spikes elsewhere.
    book = make_book(
        {1: "## Wo Wo ## ##\nRu Ru Ru Ru Ru\nSi Si Si Th Gd"}, rows=3, cols=5, entrance=[1, 1, 0], exit=[1, 1, 4]
    )
    evaluation = evaluate(book)
    shape = book.shape
    walk = {shape.index((1, 1, col)) for col in range(5)}
    border = {shape.index((1, row, col)) for row in (0, 2) for col in range(5)}
    wolves = fires_in(evaluation, FAMILIES["wolf"], walk, border)
    assert [(shape.cell(index), status) for index, status in wolves] == [((1, 0, 1), DEADLY), ((1, 0, 2), DEADLY)]
    thief = fires_in(evaluation, FAMILIES["thief"], walk, border)
    assert [(shape.cell(index), status) for index, status in thief] == [((1, 2, 4), DEADLY)]
    assert fires_in(evaluation, FAMILIES["oracle"], walk, border) == []
    assert evaluation.status[shape.index((1, 2, 3))] == PASSABLE


def run(*arguments):
    result = CliRunner().invoke(main, list(arguments))
    assert "Traceback" not in result.output
    return result


def test_bad_options_are_usage_errors(tmp_path):
    result = run("generate", "book", "--rules", "wolf,dragons", "-o", str(tmp_path))
    assert result.exit_code == 2 and "unknown rule family dragons" in result.output
    result = run("generate", "book", "--size", "6by8")
    assert result.exit_code == 2 and "ROWSxCOLS" in result.output
    result = run("generate", "book", "-n", "2")
    assert result.exit_code == 2 and "-n above 1 needs a folder" in result.output


def test_existing_files_are_kept_without_force_and_links_are_never_written_through(tmp_path):
    arguments = ["generate", "book", "--pages", "1", "--size", "5x6", "--rules", "lava", "-o", str(tmp_path)]
    assert run(*arguments).exit_code == 0
    (written,) = tmp_path.glob("*.toml")
    before = written.read_text()
    refused = run(*arguments)
    assert refused.exit_code == 2 and "already exists" in refused.output
    assert written.read_text() == before
    written.unlink()
    target = tmp_path / "elsewhere.txt"
    target.write_text("keep me")
    Path(written).symlink_to(target)
    linked = run(*arguments, "--force")
    assert linked.exit_code == 2 and "symbolic link" in linked.output
    assert target.read_text() == "keep me"


def test_the_json_of_a_generated_book(tmp_path):
    result = run("generate", "book", "--pages", "2", "--size", "5x6", "--rules", "wolf", "--json", "-o", str(tmp_path))
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["moves"] == len(data["walk"]) - 1
    assert data["fired"]["wolf"] and all(entry["status"] == DEADLY for entry in data["fired"]["wolf"])
