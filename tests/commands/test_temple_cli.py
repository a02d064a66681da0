"""Temple Twist through the command line and the public API: check and solve on the shipped rounds, the JSON
keys, questions, time limits, every plan replayed (an engine whose plan does not replay is an internal
error), and `twisty bench temple`."""

from __future__ import annotations

import json
import types
from pathlib import Path

import pytest
from click.testing import CliRunner

import twisty
from twisty.cli import main
from twisty.errors import EngineBug
from twisty.limits import Deadline
from twisty.rules.source import read_level
from twisty.rules.temple.loader import load_round
from twisty.rules.temple.replayer import PlanTurn
from twisty.solver import temple_search
from twisty.solver.temple_answers import SOLVABLE, PlanAnswer
from twisty.solver.temple_portfolio import analyse_with

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles" / "temple"
FIRST_GAME = PUZZLES / "01-first-game.toml"
KEYS = {
    "level",
    "game",
    "name",
    "valid",
    "errors",
    "solvable",
    "turns",
    "unique",
    "plan",
    "second_plan",
    "bounce_safe",
    "bounce_safe_turns",
    "bounce_safe_plan",
    "pooled_solvable",
    "pooled_turns",
    "status",
    "questions",
    "engine",
    "seconds",
    "limit",
    "expected_solvable",
    "expect_failures",
    "most_turns",
}


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_the_shipped_rounds_pass_check():
    result = run("check", str(PUZZLES))
    assert result.exit_code == 0, result.output
    assert "17 levels: 17 ok" in result.output


def test_the_small_shipped_rounds_pass_with_the_reference_engine_too():
    # The hand-worked rounds and the generated ones: the search engine alone agrees.
    small = [
        str(path)
        for path in sorted(PUZZLES.rglob("*.toml"))
        if path.name not in ("01-first-game.toml", "10-cards-with-no-effect.toml")
    ]
    result = run("check", "--engine", "search", *small)
    assert result.exit_code == 0, result.output


def test_the_first_game_and_its_cosmetic_challenges_are_one_round():
    first = load_round(read_level(FIRST_GAME))
    cosmetic = load_round(read_level(PUZZLES / "10-cards-with-no-effect.toml"))
    assert (first.temple, first.walls, first.die, first.down, first.hands, first.revealed, first.door) == (
        cosmetic.temple,
        cosmetic.walls,
        cosmetic.die,
        cosmetic.down,
        cosmetic.hands,
        cosmetic.revealed,
        cosmetic.door,
    )
    assert cosmetic.challenges.names() == [
        "locked_down",
        "all_in_the_green",
        "light_at_the_end_of_the_tunnel",
        "rosy_prospects",
        "management_matter",
        "cursed_stone",
    ]


def test_check_json_has_the_documented_keys_and_a_replayed_plan():
    result = run("check", "--json", str(PUZZLES / "03-swap-needed.toml"))
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert KEYS <= set(data)
    assert (data["game"], data["status"], data["solvable"], data["turns"], data["unique"]) == (
        "temple",
        "ok",
        True,
        2,
        True,
    )
    first = data["plan"][0]
    # Turn 1 (see the round's comments): player 1 swaps the turn1 away and turns right twice.
    assert first["player"] == 1 and first["swap"]["gave"] == "turn1" and first["swap"]["with"] == 2
    assert first["path"] == ["sw", "s", "se", "e", "ne"] and first["falls"] == [2, 2]
    assert (first["down"], first["die"], first["explored"]) == ("top", "ne", ["ne"])
    assert data["plan"][-1]["won"] is True


def test_only_the_questions_asked_are_answered():
    data = json.loads(run("check", "--json", "--questions", "pooled", str(FIRST_GAME)).output)
    assert data["questions"] == ["pooled"] and data["pooled_turns"] == 4
    assert data["solvable"] is None and data["unique"] is None and data["status"] == "ok"


def test_a_time_limit_gives_unknown_never_a_guess():
    """The limit passes before the file is even read: each answer is unknown, each claim undecided."""
    result = run("check", "--json", "--timeout", "0.000000001", str(FIRST_GAME))
    data = json.loads(result.output)
    assert result.exit_code == 1
    assert data["status"] in ("unknown", "failed") and data["solvable"] is None and data["limit"] == "time"
    assert all("could not be decided" in failure for failure in data["expect_failures"])


def test_a_short_time_limit_gives_proved_answers_or_unknown():
    """A millisecond: what is decided (the search may finish the fewest turns within its first slice of
    work) is the round's true answer ([expect], proved with no limit by test_the_shipped_rounds_pass_check);
    the rest is unknown, named as the time limit."""
    data = json.loads(run("check", "--json", "--timeout", "0.001", str(FIRST_GAME)).output)
    expected = {"solvable": True, "turns": 4, "unique": True, "bounce_safe_turns": 5, "pooled_turns": 4}
    assert all(data[key] in (None, value) for key, value in expected.items())
    assert data["limit"] == "time" or None not in (data[key] for key in expected)


@pytest.mark.parametrize("engine", ["sat", "search", "race"])
def test_a_deadline_already_passed_answers_unknown(engine):
    round_ = load_round(read_level(PUZZLES / "02-out-and-back.toml"))
    module = twisty.games.GAMES["temple"].engine(engine).load()
    deadline = Deadline(0)
    analysis = analyse_with(round_, deadline, module)
    assert (analysis.solvable, analysis.unique, analysis.bounce_safe, analysis.pooled_solvable) == (
        None,
        None,
        None,
        None,
    )


def test_solve_prints_the_plan_with_a_drawing_after_each_turn():
    result = run("solve", str(PUZZLES / "09-gets-going.toml"))
    assert result.exit_code == 0, result.output
    text = result.output
    assert (
        "1. player 1 plays turn1: turn right, then the temple turns right by itself; die: sw > s > se > e > ne" in text
    )
    # After turn 1 the top is down: the drawing is turned upside down (the door P at the top, ne bottom left),
    # the die drawn as @ where ne stands.
    assert "+----P+" in text and "down: top side; die (@) in ne" in text
    assert text.count("die (@) in") == 3  # the start and each of the two turns


def test_the_api_check_gives_the_verdict():
    verdict = twisty.check(str(PUZZLES / "07-always-in-order.toml"))
    assert verdict.outcome is twisty.Outcome.SOLVABLE and verdict.turns == 3 and verdict.unique is True
    assert [record.turn.card for record in verdict.plan.records] == ["turn2", "turn2", "turn2"]
    assert verdict.status == "ok"


def liar_engine(answer: PlanAnswer) -> types.SimpleNamespace:
    """An engine module (twisty.solver.temple_answers' contract) whose fewest turns are always `answer`."""

    def fewest(**kwargs):
        return answer
        yield  # steps: a generator

    engine = types.SimpleNamespace(fewest=fewest, close=lambda: None)
    return types.SimpleNamespace(NAME="liar", solver=lambda round_, deadline: engine)


def test_an_engine_whose_plan_does_not_replay_is_an_internal_error():
    round_ = load_round(read_level(PUZZLES / "02-out-and-back.toml"))
    # Claims a win in one turn with turnAny turned right once: the die ends in se, nothing explored.
    liar = liar_engine(PlanAnswer(SOLVABLE, (PlanTurn(0, "turnAny", (("right",),)),), None))
    with pytest.raises(EngineBug, match="does not win"):
        analyse_with(round_, Deadline(10), liar, questions=frozenset({"win"}))
    # Claims states the rules do not reach.
    honest = temple_search.fewest_turns(round_, Deadline(10))
    liar = liar_engine(PlanAnswer(SOLVABLE, honest.plan, tuple(reversed(honest.states))))
    with pytest.raises(EngineBug, match="temple states"):
        analyse_with(round_, Deadline(10), liar, questions=frozenset({"win"}))


def test_bench_temple_runs_every_engine_and_the_plain_search_on_random_rounds():
    # Rounds 4 and 6 of the family: small (a 3 x 3 temple, 4 seats), answered by the plain search in well
    # under a second; round 10 (4 x 3, 2 seats of 4 cards) too.
    result = run("bench", "temple", "--json", "--rounds", "1", "--seed", "4", "--timeout", "20")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    (row,) = data["rows"]
    assert set(row["runs"]) == {"plain", "race", "search", "sat"} and data["disagreements"] == []
    # Every run answered every question, the same answers (the bench checks it; here the plain search's).
    assert all(entry["answered"] for entry in row["runs"].values())
    plain = row["runs"]["plain"]["answers"]
    assert all(entry["answers"] == plain for entry in row["runs"].values())
    assert data["summary"]["race"]["compared"] == 1 and data["summary"]["race"]["worst_ratio"] > 0
    table = run("bench", "temple", "--rounds", "2", "--seed", "4", "--timeout", "20")
    assert table.exit_code == 0 and "worst ratio" in table.output and "3x3 doors on card rooms" in table.output
