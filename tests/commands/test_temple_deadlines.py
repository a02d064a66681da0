"""Honest deadlines on a big temple round (hostile input, round two, class 3): check, solve and generate end
within their --timeout plus SLACK, and say that what they did not finish is unknown.

The round is tests/temple_rounds.GREAT_TEMPLE: an 8 x 7 temple with four seats of six cards, mostly wall cards,
so that one state has thousands of successors (wall2's pairs of builds alone are C(92, 2)). No engine answers
every question within a minute of CPU, so every run below is cut by its deadline; a quiet machine may find
its 8-turn win within the limit (the plan replayed by the rules), and then only what is left is unknown.

The deadline itself is the feature under test, so the time is asserted, on CPU time (time.process_time of
this process, every thread counted) as tests/commands/test_deadlines_cli.py does: the machine's wall clock is
shared by several jobs and is noisy, CPU time is what the work took. A warm-up imports the engines and the
SAT backend first (an import is paid once per process, not per round).
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from tests.temple_rounds import GREAT_TEMPLE
from twisty.cli import main

ROOT = Path(__file__).resolve().parents[2]
SLACK = 0.5
LIMIT = 3.0


@pytest.fixture(scope="module")
def great_round(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("temple-deadlines") / "great.toml"
    path.write_text(GREAT_TEMPLE, encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module", autouse=True)
def warmed_up():
    runner = CliRunner()
    first_game = str(ROOT / "puzzles" / "temple" / "01-first-game.toml")
    for engine in ("search", "sat", "auto"):
        runner.invoke(main, ["check", first_game, "--engine", engine])
    runner.invoke(main, ["generate", "temple", "--turns", "2"])


def timed(*args: str) -> tuple[object, float]:
    started = time.process_time()
    result = CliRunner().invoke(main, list(args))
    return result, time.process_time() - started


@pytest.mark.parametrize("engine", ["search", "sat", "auto"])
def test_check_of_the_great_temple_ends_within_its_timeout(great_round, engine):
    result, cpu = timed("check", great_round, "--engine", engine, "--timeout", str(LIMIT), "--json")
    verdict = json.loads(result.output.splitlines()[0])
    # Either nothing was decided (unknown, exit 1) or the win was found within the limit: the round has no
    # claims, so the verdict is ok (exit 0) with the questions the limit cut left unknown, never guessed.
    if verdict["solvable"] is None:
        assert (verdict["status"], result.exit_code) == ("unknown", 1), result.output[-500:]
    else:
        assert verdict["solvable"] is True and verdict["status"] == "ok" and result.exit_code == 0
        assert verdict["unique"] is None, "uniqueness is not decided within a minute"
    assert cpu <= LIMIT + SLACK, f"check --engine {engine}: {cpu:.2f} s of CPU for a limit of {LIMIT} s"


def test_solve_of_the_great_temple_ends_within_its_timeout(great_round):
    result, cpu = timed("solve", great_round, "--timeout", str(LIMIT))
    # Unknown within the limit (exit 1), or the 8-turn win found in time (a quiet machine may): never a guess.
    if result.exit_code == 0:
        assert "won in 8 turns" in result.output, result.output[-500:]
    else:
        assert result.exit_code == 1 and "unknown (time limit)" in result.output, result.output[-500:]
    assert cpu <= LIMIT + SLACK, f"solve: {cpu:.2f} s of CPU for a limit of {LIMIT} s"


@pytest.mark.parametrize("limit", [2.0, 3.0])
def test_generate_on_the_great_temple_ends_within_its_timeout(great_round, limit):
    # Six turns of four seats on the 8 x 7 temple: planting a play and proving it takes far longer.
    args = ("generate", "temple", "--temple", great_round, "--players", "4", "--turns", "6", "--json")
    result, cpu = timed(*args, "--timeout", str(limit))
    assert result.exit_code == 1, result.output[-500:]
    record = json.loads(result.stdout)
    assert record["file"] is None and "no round within the time limit" in record["error"]
    assert cpu <= limit + SLACK, f"generate: {cpu:.2f} s of CPU for a limit of {limit} s"
