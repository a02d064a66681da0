"""The shared engine contract: the claim comparison every game uses (twisty.claims) and the keys every
verdict's record carries (twisty.checking.RECORD_KEYS, record_gaps, VerdictBase)."""

from __future__ import annotations

from pathlib import Path

import pytest

import twisty
from twisty.checking import RECORD_KEYS, UnloadedVerdict, level_status, record_gaps
from twisty.claims import Claims, toml_word

ROOT = Path(__file__).resolve().parents[1]


def test_values_are_written_as_the_level_file_writes_them():
    assert [toml_word(value) for value in (True, False, None, 7, "x")] == ["true", "false", "none", "7", "x"]


def test_a_claim_is_compared_only_when_its_question_was_asked():
    claims = Claims(asked={"win"}, within="time limit", questions={"turns": "win", "unique": "unique"})
    claims.compare("unique", True, False)  # not asked: not checked, though it would fail
    claims.compare("turns", 4, 4)  # holds
    claims.compare("turns", 3, 4)
    claims.compare("other", False, True)  # a claim named by no question is always checked
    assert claims.failures == ["turns: claimed 3, but it is 4", "other: claimed false, but it is true"]
    assert claims.made("unique", True) is None and claims.made("turns", 5) == 5


def test_an_undecided_or_missing_answer_fails_its_claim_with_the_reason():
    claims = Claims(asked=(), within="memory limit")
    claims.compare("solvable", True, None, decided=False)
    claims.compare("turns", 4, None, none_means="the round cannot be won")
    claims.compare("turns", None, 9)  # no claim made
    claims.undecided("moves", 12, "the shortest walk")
    claims.fail("solutions", 6, "there are more than 2 (raise --max-solutions)")
    assert claims.failures == [
        "solvable: claimed true, but it could not be decided within the memory limit",
        "turns: claimed 4, but the round cannot be won",
        "moves: claimed 12, but the shortest walk could not be decided within the memory limit",
        "solutions: claimed 6, but there are more than 2 (raise --max-solutions)",
    ]


@pytest.mark.parametrize(
    "path, headline",
    [
        # Hand-checked answers of the shipped levels (their [expect] tables say the same).
        ("puzzles/passages/01-first-blood.toml", {"solvable": True, "unique": True}),
        ("puzzles/temple/01-first-game.toml", {"solvable": True}),
        ("puzzles/book/tutorial.toml", {"solvable": True}),
    ],
)
def test_every_games_verdict_keeps_the_record_contract(path: str, headline: dict[str, object]):
    verdict = twisty.check(ROOT / path)
    data = verdict.to_json()
    assert record_gaps(data) == []
    assert {key: data[key] for key in headline} == headline
    assert verdict.solvable is data["solvable"] and verdict.status == level_status(data) == "ok"
    assert repr(verdict).startswith(f"{type(verdict).__name__}(game={data['game']!r}, name=")
    assert len(repr(verdict)) < 200


def test_the_verdict_of_a_level_not_loaded_keeps_it_too():
    verdict = UnloadedVerdict("x.toml", "temple", "time limit", None, True, 0.5)
    data = verdict.to_json()
    assert record_gaps(data) == []
    assert (verdict.solvable, verdict.status, data["turns"], data["questions"][0]) == (None, "unknown", None, "bounce")


def test_record_gaps_name_what_a_record_lacks():
    data = {key: None for key in RECORD_KEYS} | {"game": "temple", "level": "x", "name": "", "valid": True}
    data |= {"errors": [], "questions": ["win", "route"], "expect_failures": [], "solvable": "yes"}
    assert record_gaps(data) == [
        "no turns",
        "no unique",
        "solvable is not true, false or null",
        "question 'route' is not temple's",
    ]
    assert record_gaps({"game": "chess"})[-1] == "game 'chess' is not in the registry"
