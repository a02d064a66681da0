"""One verdict per level, whatever asks (issue 35): over every shipped puzzle, the page's verdict endpoint
(GET /api/verdict, the index's badge) gives the status, the claims that fail and the headline answers that
`twisty check --json` gives for the same file with the same time limit. The page once counted only to 2
solutions whatever the claims, and said FAILED on the armoury maze, which claims 6."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

pytest.importorskip("flask", reason="twisty serve needs flask: pip install 'twisty[serve]'")

from twisty.checking import level_status
from twisty.cli import main
from twisty.games import GAMES
from twisty.serve.app import create_app

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles"
# Every shipped level is decided in a few seconds; both sides get the same, generous limit.
TIMEOUT = 120
# The answers that say most about a level, per game, beside whether it can be won (the registry's
# `headline` entry where the registry has one).
HEADLINES = {
    "passages": ("final_hp", "min_start_hp", "solutions", "optimal_solutions", "unique", "proved"),
    "book": ("moves", "unique"),
    "temple": ("turns", "unique", "bounce_safe", "bounce_safe_turns", "pooled_solvable", "pooled_turns"),
}
CLAIMS = ("valid", "solvable", "expected_solvable", "questions", "expect_failures")


def headline_keys(game: str) -> tuple[str, ...]:
    return tuple(getattr(GAMES[game], "headline", ()) or HEADLINES[game])


@pytest.fixture(scope="module")
def command_line() -> dict[str, dict]:
    """`twisty check --json` of every shipped puzzle, by its path inside puzzles/."""
    result = CliRunner().invoke(main, ["check", "--json", "--timeout", str(TIMEOUT), str(PUZZLES)])
    records = [json.loads(line) for line in result.output.splitlines() if line.startswith("{")]
    assert len(records) == len(list(PUZZLES.rglob("*.toml"))) > 60
    return {Path(record["level"]).relative_to(PUZZLES).as_posix(): record for record in records}


@pytest.fixture(scope="module")
def page() -> dict[str, dict]:
    """The page's verdict of every level it lists in puzzles/."""
    client = create_app(PUZZLES, timeout=TIMEOUT).test_client()
    names = client.get("/api/levels").get_json()["levels"]
    return {name: client.get("/api/verdict", query_string={"path": name}).get_json()["verdict"] for name in names}


def test_the_page_lists_every_shipped_puzzle(command_line, page) -> None:
    assert sorted(page) == sorted(command_line)


def test_the_page_and_the_command_line_give_one_verdict(command_line, page) -> None:
    for name, record in command_line.items():
        shown = page[name]
        assert shown["status"] == level_status(record), name
        mine = shown["record"]
        for key in CLAIMS + headline_keys(record["game"]):
            assert mine.get(key) == record.get(key), (name, key, mine.get(key), record.get(key))
        assert mine["level"] == name  # the page names a level by its path inside the folder


def test_the_armoury_maze_is_ok_with_its_six_solutions(page) -> None:
    verdict = page["passages/13-armoury-maze.toml"]
    assert verdict["status"] == "ok" and verdict["expect_failures"] == []
    assert verdict["record"]["solutions"] == 6  # its [expect] solutions = 6, counted as far as the claim needs


def test_a_level_expected_unsolvable_that_is_unsolvable_is_ok(page) -> None:
    """The badge says whether the level meets its claims: an unwinnable round that claims so is ok (the
    page once showed it orange, as merely unsolvable)."""
    claimed = {name: verdict for name, verdict in page.items() if verdict["record"].get("expected_solvable") is False}
    assert len(claimed) >= 3  # passages 09, temple 04 and 05 among them
    for name, verdict in claimed.items():
        assert verdict["record"]["solvable"] is False and verdict["status"] == "ok", name
