"""`--json` on every command that prints results: the structure of the command tree, and the records of the
commands that gained it (generate passages and temple, explain) checked against what they print for people."""

from __future__ import annotations

import json
from pathlib import Path

import click
from click.testing import CliRunner

from twisty.cli import main

ROOT = Path(__file__).resolve().parents[2]
TUTORIAL = str(ROOT / "puzzles" / "book" / "tutorial.toml")
# Commands that print no results of their own to read by a script: the page's server.
WITHOUT_RESULTS = {"serve"}


def leaf_commands(group: click.Group, prefix: str = "") -> dict[str, click.Command]:
    found = {}
    context = click.Context(group)
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        assert command is not None
        path = f"{prefix}{name}"
        if isinstance(command, click.Group):
            found |= leaf_commands(command, path + " ")
        else:
            found[path] = command
    return found


def test_every_command_that_prints_results_takes_json():
    lacking = [
        path
        for path, command in leaf_commands(main).items()
        if path not in WITHOUT_RESULTS and not any("--json" in param.opts for param in command.params)
    ]
    assert lacking == []


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_generate_passages_json_names_the_file_and_its_facts(tmp_path):
    args = ("generate", "passages", "--size", "4x4", "--blockers", "6", "--difficulty", "easy", "-n", "2")
    result = run(*args, "-o", str(tmp_path), "--json")
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.output.splitlines()]
    assert [record["seed"] for record in records] == [1, 2]
    for record in records:
        level = Path(record["file"])
        assert level.parent == tmp_path
        checked = json.loads(run("check", str(level), "--json").output)
        assert checked["min_start_hp"] == record["min_start_hp"]  # the facts are the level's, checked again
        assert set(record) == {"seed", "file", "blockers", "min_start_hp", "difficulty_score", "drafts", "seconds"}


def test_generate_passages_json_without_a_folder_carries_the_level():
    args = ("generate", "passages", "--size", "4x4", "--blockers", "6", "--difficulty", "easy")
    record = json.loads(run(*args, "--json").output)
    assert record["file"] is None and record["level"] == run(*args).output


def test_generate_passages_json_reports_a_seed_that_failed():
    args = ("generate", "passages", "--size", "8x8", "--blockers", "30", "--timeout", "0.001", "--json")
    result = run(*args)
    assert result.exit_code == 1
    record = json.loads(result.stdout)
    assert record["file"] is None and "time limit of 0.001 s reached for seed 1" in record["error"]


def test_explain_json_says_what_the_text_says():
    record = json.loads(run("explain", TUTORIAL, "1", "5", "1", "--json").output)
    text = run("explain", TUTORIAL, "1", "5", "1").output
    assert record["content"] == "Rubble" and "holds Rubble" in text
    assert [moment["cell_status"] for moment in record["moments"]] == ["passable"]
    assert record["moments"][0]["chain"][0] in text
    assert f"(step {record['walk_step']} of {record['walk_steps']})" in text


def test_explain_json_when_the_book_cannot_be_evaluated_in_time():
    result = run("explain", str(ROOT / "puzzles" / "book" / "long.toml"), "1", "5", "1", "--json", "--timeout", "0.001")
    assert result.exit_code == 1
    record = json.loads(result.stdout)
    assert record["status"] == "unknown" and record["cap"] == "time limit"


def test_generate_temple_json_names_the_file_and_the_rounds_facts(tmp_path):
    args = ("generate", "temple", "--turns", "2", "--seed", "3", "-n", "2", "--json")
    result = run(*args, "-o", str(tmp_path))
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in result.output.splitlines()]
    assert [record["seed"] for record in records] == [3, 4]
    for record in records:
        checked = json.loads(run("check", record["file"], "--json").output)
        assert checked["status"] == "ok"
        facts = ("turns", "unique", "bounce_safe_turns", "pooled_turns")
        assert {key: record[key] for key in facts} == {key: checked[key] for key in facts} | {"turns": 2}
    printed = json.loads(run("generate", "temple", "--turns", "2", "--seed", "3", "--json").output)
    assert (
        printed["file"] is None and printed["level"] == run("generate", "temple", "--turns", "2", "--seed", "3").output
    )
