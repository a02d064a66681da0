"""Untrusted input, round two (the command line's part): one hand-made reproducer per class, with its exact
exit code and message. Class 6: files replaced without --force; class 8: unclear messages and exit codes."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from twisty.cli import main

ROOT = Path(__file__).resolve().parents[2]
FIRST_BLOOD = str(ROOT / "puzzles" / "passages" / "01-first-blood.toml")

pytest.importorskip("matplotlib")


def run(*args: str):
    return CliRunner().invoke(main, list(args))


# Class 6: every command that writes goes through the shared safe writer. --------------------------------

PICTURE_WRITERS = {
    "render": lambda out: ("render", FIRST_BLOOD, "-o", out),
    "odds save": lambda out: ("odds", "save", "--rating", "4", "--level", "3", "--plot", out),
    "odds clash": lambda out: ("odds", "clash", "3", "2", "--plot", out),
    "odds fight": lambda out: (
        "odds",
        "fight",
        "--delver",
        "combat=2,con=4",
        "--monster",
        "rating=3,dice=1",
        "--plot",
        out,
    ),
}


@pytest.mark.parametrize("command", sorted(PICTURE_WRITERS))
@pytest.mark.parametrize("suffix", [".svg", ".png"])
def test_an_existing_picture_is_kept_without_force(tmp_path, command, suffix):
    target = tmp_path / f"mine{suffix}"
    target.write_text("a designer's file\n")
    result = run(*PICTURE_WRITERS[command](str(target)))
    assert result.exit_code == 2, result.output
    assert f"twisty: {target} already exists; use --force to replace existing pictures" in result.output
    assert target.read_text() == "a designer's file\n"
    assert "Traceback" not in result.output


@pytest.mark.parametrize("command", sorted(PICTURE_WRITERS))
def test_force_replaces_the_picture_whole(tmp_path, command):
    target = tmp_path / "mine.svg"
    target.write_text("a designer's file\n")
    result = run(*PICTURE_WRITERS[command](str(target)), "--force")
    assert result.exit_code == 0, result.output
    assert target.read_text().lstrip().startswith("<svg") or "<svg" in target.read_text()[:400]
    assert [path.name for path in tmp_path.iterdir()] == ["mine.svg"]  # no temporary file left behind


@pytest.mark.parametrize("command", sorted(PICTURE_WRITERS))
def test_a_picture_is_never_written_through_a_link(tmp_path, command):
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    link = tmp_path / "out.svg"
    link.symlink_to(victim)
    result = run(*PICTURE_WRITERS[command](str(link)), "--force")
    assert result.exit_code == 2
    assert f"twisty: {link} is a symbolic link; refusing to write through it (remove it first)" in result.output
    assert victim.read_text() == "precious\n" and link.is_symlink()


def test_a_picture_into_a_missing_folder_is_refused_before_the_work(tmp_path):
    target = tmp_path / "missing" / "out.svg"
    result = run("render", FIRST_BLOOD, "--route", "-o", str(target))
    assert result.exit_code == 2
    assert f"twisty: {target}: the folder {target.parent} does not exist" in result.output
    assert not target.parent.exists()


def test_the_book_bench_keeps_an_existing_json_file(tmp_path):
    target = tmp_path / "figures.json"
    target.write_text("{}\n")
    # Refused before any benchmark runs (the part asked for would take seconds).
    result = run("bench", "book", "--parts", "walk", "--json", str(target))
    assert result.exit_code == 2
    assert f"twisty: {target} already exists; use --force to replace existing files" in result.output
    assert target.read_text() == "{}\n"


def test_the_safe_writer_takes_bytes_and_keeps_the_umask_mode(tmp_path):
    from twisty.commands.writing import file_mode, write_files

    target = tmp_path / "picture.png"
    write_files([(target, b"\x89PNG\r\n")], force=False)
    assert target.read_bytes() == b"\x89PNG\r\n"
    assert os.stat(target).st_mode & 0o777 == file_mode()


# Class 8: clear messages and exit codes. ----------------------------------------------------------------

SKETCH = ROOT / "puzzles" / "book" / "sketches" / "wolf-run.sketch"


def test_a_sketch_whose_entrance_is_its_exit_is_positioned(tmp_path):
    sketch = tmp_path / "loop.toml"
    sketch.write_text(
        'game = "book"\nrows = 3\ncols = 3\nentrance = [1, 1, 0]\nexit = [1, 1, 0]\n\n'
        '[pages]\n1 = """\n?  ?  ?\n?  ?  ?\n?  ?  ?\n"""\n'
    )
    result = run("complete", str(sketch))
    assert result.exit_code == 2, result.output
    assert result.output == (
        f"twisty: {sketch}:5:1: the exit is the entrance (page 1, row 1, col 0): a sketch needs a corridor "
        "to fill between two cells\n"
    )


def test_complete_checks_its_target_before_the_work(tmp_path):
    target = tmp_path / "missing" / "dir" / "x.toml"
    result = run("complete", str(SKETCH), "-o", str(target))
    assert result.exit_code == 2, result.output
    assert result.output == f"twisty: {target}: the folder {target.parent} does not exist\n"


def test_complete_json_says_unknown_when_time_runs_out(tmp_path):
    result = run("complete", str(SKETCH), "--json", "--timeout", "0.001")
    assert result.exit_code == 1, result.output
    record = json.loads(result.stdout)  # exactly one JSON object on stdout; the note goes to stderr
    assert record == {
        "sketch": str(SKETCH),
        "status": "unknown",
        "completed": None,
        "cap": "time limit",
        "reason": "no answer within the time limit",
    }
    assert result.stderr == f"twisty: {SKETCH}: unknown: no answer within the time limit\n"
