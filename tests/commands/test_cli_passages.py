"""`twisty check` and `twisty solve` on passages levels, through click's CliRunner."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from twisty.cli import main

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles" / "passages"

VALID = """game = "passages"
name = "corridor"
map = '''
#########
#S..e..G#
#.#######
#...s####
#########
'''
[player]
hp = 7
atk = 1
[legend]
e = { kind = "enemy", name = "Goblin", hp = 3, atk = 3, def = 0 }
s = { kind = "equipment", name = "sword", atk = 1 }
[expect]
solvable = true
final_hp = 4
"""


def run(*args):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def write(tmp_path: Path, text, name="level.toml") -> str:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text)
    return str(path)


def test_json_keys_and_values(tmp_path):
    result = run("check", "--json", "--engine", "brute", write(tmp_path, VALID))
    assert result.exit_code == 0, result.output
    record = json.loads(result.output.strip())
    for key in (
        "level",
        "game",
        "valid",
        "errors",
        "solvable",
        "final_hp",
        "min_start_hp",
        "solutions",
        "solutions_capped",
        "optimal_solutions",
        "unique",
        "route",
        "proved",
        "engine",
        "seconds",
        "expect_failures",
    ):
        assert key in record
    # Sword first (ATK 2: one hit of 3), then the goblin: 7 - 3 = 4; 4 hp is also the least that works.
    assert (record["solvable"], record["final_hp"], record["min_start_hp"], record["unique"]) == (True, 4, 4, True)
    assert [step["action"] for step in record["route"]] == ["take", "fight", "goal"]
    assert record["route"][1] == {
        "action": "fight",
        "at": [1, 4],
        "object": "Goblin (hp 3, atk 3, def 0)",
        "damage": 3,
        "hp": 4,
        "atk": 2,
        "def": 0,
        "keys": 0,
    }


def test_a_count_cut_short_says_so_with_what_it_found(tmp_path):
    """A solvable level whose count ran out of time: the counts are not reported as exact, and the text says
    the count is unknown and how many solutions were found (the corridor has exactly one)."""
    from dataclasses import replace

    from twisty.limits import Deadline
    from twisty.report.passages import verdict_of
    from twisty.rules.passages_format import load_passages
    from twisty.rules.source import read_level
    from twisty.solver.passages import analyse

    path = write(tmp_path, VALID)
    level = load_passages(read_level(path))
    analysis = analyse(level, Deadline(), engine="brute")
    assert analysis.count.complete and analysis.count.solutions == 1
    cut_short = verdict_of(level, path, replace(analysis, count=replace(analysis.count, complete=False)))
    assert (cut_short.solutions, cut_short.optimal_solutions, cut_short.unique, cut_short.solutions_at_least) == (
        None,
        None,
        None,
        1,
    )
    assert "solution count unknown (time limit, 1 found so far)" in cut_short.summary()
    complete = verdict_of(level, path, analysis)
    assert complete.solutions_at_least is None
    assert "1 solution (unique)" in complete.summary()


def test_analyse_tells_each_question_as_it_starts_and_a_pipe_gets_no_status_line(tmp_path):
    """The three questions of a solvable level, in the order they are answered; the CLI draws its status
    line only on a terminal, so captured output carries no cursor codes."""
    from twisty.limits import Deadline
    from twisty.rules.passages_format import load_passages
    from twisty.rules.source import read_level
    from twisty.solver.passages import analyse

    path = write(tmp_path, VALID)
    phases: list[str] = []
    analyse(load_passages(read_level(path)), Deadline(), engine="brute", progress=phases.append)
    assert phases == ["best route", "least starting hp", "counting solutions"]
    result = run("check", path)
    assert result.exit_code == 0 and "\033[K" not in result.output and "best route..." not in result.output


def test_failed_expectation_exits_1_and_says_why(tmp_path):
    result = run("check", "--engine", "brute", write(tmp_path, VALID.replace("final_hp = 4", "final_hp = 3")))
    assert result.exit_code == 1
    assert "better solution than the designer's reaches the goal with 4 hp" in result.output
    result = run("check", "--engine", "brute", write(tmp_path, VALID.replace("final_hp = 4", "final_hp = 5")))
    assert result.exit_code == 1
    assert "final_hp: claimed 5, but it is 4" in result.output


@pytest.mark.parametrize(
    "text, message",
    [
        (VALID.replace("hp = 7", "hp = = 7"), ":11:6: broken TOML"),
        (VALID.replace("#S..e..G#", "#S..e.?G#"), ':5:7: unknown map character "?"'),
        (VALID.replace("#S..e..G#", "#...e..G#"), ":3:1: the map has no start S"),
        (VALID.replace("atk = 1\n[legend]", "atk = -1\n[legend]"), ":12:1: player atk must be at least 0"),
        (VALID.replace("hp = 7", "hp = 7.5"), ":11:1: player hp must be a whole number"),
        (VALID.replace('kind = "equipment"', 'kind = "potion"'), ":15:7: legend \"s\": unknown kind 'potion'"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", ":3:1: binary data"),
        (
            VALID.replace("hp = 3, atk = 3, def = 0", "table = { atk = [1, 2], def = [0], life_lost = [[6], [5]] }"),
            "no enemy stats reproduce the printed table; first wrong entry: life_lost at ATK 2, DEF 0 = 5",
        ),
        (VALID.replace('game = "passages"', 'game = "checkers"'), ':1:1: unknown game "checkers"'),
    ],
)
def test_invalid_levels_exit_2_with_one_positioned_message(tmp_path, text, message):
    path = write(tmp_path, text)
    result = run("check", path)
    assert result.exit_code == 2
    assert "Traceback" not in result.output
    lines = [line for line in result.output.splitlines() if path in line]
    assert len(lines) == 1 and message in lines[0], result.output


def test_invalid_json_record(tmp_path):
    path = write(tmp_path, VALID.replace("#S..e..G#", "#S..e.?G#"))
    result = run("check", "--json", path)
    assert result.exit_code == 2
    record = json.loads(result.output)
    assert record["valid"] is False
    assert record["errors"][0]["line"] == 5 and record["errors"][0]["column"] == 7


def test_missing_file_and_empty_folder(tmp_path):
    result = run("check", str(tmp_path / "nope.toml"))
    assert result.exit_code == 2 and "cannot read the file" in result.output
    result = run("check", str(tmp_path))
    assert result.exit_code == 2 and "no level files" in result.output


def test_solve_prints_walkthrough_and_map(tmp_path):
    result = run("solve", "--engine", "brute", write(tmp_path, VALID))
    assert result.exit_code == 0
    assert "fight Goblin (hp 3, atk 3, def 0) at (1,4): -3 hp" in result.output
    # The route map: start, walked cells, the steps' labels (1 sword, 2 goblin, 3 goal).
    assert "#S**2**3#" in result.output and "#***1####" in result.output


def test_solve_of_bad_file_exits_2(tmp_path):
    result = run("solve", write(tmp_path, "game = 'passages'\nmap = 3\n[player]\nhp = 1\n"))
    assert result.exit_code == 2
    assert "the map must be a multi-line string" in result.output


def test_second_solution_is_shown_when_not_unique():
    result = run("solve", "--engine", "brute", str(PUZZLES / "14-two-exits.toml"))
    assert result.exit_code == 0
    assert "Not unique: a second solution reaches the goal with 5 hp" in result.output


def test_hand_made_puzzles_pass_with_the_reference_engine():
    # The generated levels below puzzles/passages/generated are too large for enumeration.
    hand_made = sorted(str(path) for path in PUZZLES.glob("*.toml"))
    assert len(hand_made) >= 12
    result = run("check", "--engine", "brute", *hand_made)
    assert result.exit_code == 0, result.output
    assert f"{len(hand_made)} levels: {len(hand_made)} ok" in result.output


def test_every_shipped_puzzle_passes_the_main_job():
    result = run("check", str(PUZZLES.parent))
    assert result.exit_code == 0, result.output
    assert "0 failed expectations, 0 unsolvable, 0 unknown, 0 invalid" in result.output


def test_a_search_past_the_memory_budget_stops_with_unknown_and_says_so():
    """A hard level with no time limit would fill the machine; past the memory budget (here 1 MB through
    TWISTY_MEMORY_MB, less than Python itself uses) the answers are undecided, the report names the
    memory limit, and the designer's claims fail as undecided rather than the run crashing."""
    level = str(Path(__file__).resolve().parents[2] / "twisty" / "bench" / "suites" / "passages" / "b040-01.toml")
    result = CliRunner(env={"TWISTY_MEMORY_MB": "1"}).invoke(
        main, ["check", "--json", "--engine", "search", level], catch_exceptions=False
    )
    assert result.exit_code == 1, result.output
    record = json.loads(result.output.strip())
    # The search looks at the memory after its first 256 expansions, long before it finds any route here.
    assert (record["limit"], record["solvable"], record["proved"]) == ("memory", None, False)
    assert record["min_start_hp_status"] == "unknown"
    assert record["expect_failures"] == [
        f"{key}: claimed {value}, but it could not be decided within the memory limit"
        for key, value in (("solvable", "true"), ("final_hp", 3), ("min_start_hp", 898))
    ]
    plain = CliRunner(env={"TWISTY_MEMORY_MB": "1"}).invoke(main, ["check", "--engine", "search", level])
    assert "unknown (memory limit), min start hp unknown" in plain.output
