"""`twisty solve` exits as `twisty check` does (0 as expected, 1 a failed claim, unsolvable without claiming
so, or undecided, 2 bad input), for every game, with and without --json; and `generate -n 1 -o FILE.toml`
writes that file for every generator."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from twisty.cli import main

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "puzzles"

# (level, the claim line as shipped, a false claim put in its place)
BROKEN_CLAIMS = {
    "passages": ("passages/01-first-blood.toml", "final_hp = 4", "final_hp = 5"),
    "book": ("book/generated/book-4p-6x8-wolf-rat-seed1.toml", "moves = 48", "moves = 47"),
    "temple": ("temple/01-first-game.toml", "turns = 4", "turns = 3"),
}
# Levels expected unsolvable (ok), and the same with the claim removed (unsolvable without claiming so).
UNSOLVABLE = {
    "passages": "passages/09-not-enough-life.toml",
    "temple": "temple/05-unwinnable-walls-only.toml",
}


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def copy_with(tmp_path: Path, relative: str, old: str, new: str) -> str:
    text = (PUZZLES / relative).read_text(encoding="utf-8")
    assert old in text, f"{relative} no longer says {old!r}"
    target = tmp_path / Path(relative).name
    target.write_text(text.replace(old, new, 1), encoding="utf-8")
    return str(target)


@pytest.mark.parametrize("game", sorted(BROKEN_CLAIMS))
@pytest.mark.parametrize("as_json", [False, True])
def test_solve_exits_1_on_a_failed_claim_as_check_does(tmp_path, game, as_json):
    relative, old, new = BROKEN_CLAIMS[game]
    level = copy_with(tmp_path, relative, old, new)
    flags = ["--json"] if as_json else []
    checked = run("check", level, *flags)
    solved = run("solve", level, *flags)
    assert checked.exit_code == 1, checked.output
    assert solved.exit_code == 1, solved.output
    if as_json:
        record = json.loads(solved.output)
        assert record["expect_failures"] and record["solvable"] is True
    else:
        assert "FAILED" in solved.output


@pytest.mark.parametrize("game", sorted(BROKEN_CLAIMS))
@pytest.mark.parametrize("as_json", [False, True])
def test_solve_exits_0_when_every_claim_holds(game, as_json):
    level = str(PUZZLES / BROKEN_CLAIMS[game][0])
    flags = ["--json"] if as_json else []
    assert run("check", level, *flags).exit_code == 0
    solved = run("solve", level, *flags)
    assert solved.exit_code == 0, solved.output


@pytest.mark.parametrize("game", sorted(UNSOLVABLE))
def test_solve_of_an_unsolvable_level_exits_as_check_does(tmp_path, game):
    relative = UNSOLVABLE[game]
    claimed = str(PUZZLES / relative)
    assert run("check", claimed).exit_code == 0
    assert run("solve", claimed).exit_code == 0  # it says it is unsolvable, and it is
    unclaimed = copy_with(tmp_path, relative, "solvable = false", "")
    assert run("check", unclaimed).exit_code == 1
    solved = run("solve", unclaimed, "--json")
    assert solved.exit_code == 1, solved.output
    assert json.loads(solved.output)["solvable"] is False


def test_solve_exits_1_when_time_runs_out(tmp_path):
    """Undecided within --timeout is exit 1, as for check: the long book cannot be walked in a millisecond."""
    level = str(PUZZLES / "book" / "long.toml")
    checked = run("check", level, "--timeout", "0.001", "--json")
    solved = run("solve", level, "--timeout", "0.001", "--json")
    assert json.loads(checked.output)["solvable"] is None and checked.exit_code == 1
    assert json.loads(solved.output)["solvable"] is None and solved.exit_code == 1


@pytest.mark.parametrize("args", [("solve",), ("solve", "/nonexistent/level.toml")])
def test_solve_bad_input_exits_2(args):
    assert run(*args).exit_code == 2


GENERATORS = {
    "passages": ("generate", "passages", "--size", "4x4", "--blockers", "6", "--difficulty", "easy"),
    "book": ("generate", "book", "--pages", "2", "--size", "4x5", "--rules", "wolf"),
    "temple": ("generate", "temple", "--turns", "2"),
}


@pytest.mark.parametrize("game", sorted(GENERATORS))
def test_generate_one_level_to_a_named_toml_file(tmp_path, game):
    target = tmp_path / "mine.toml"
    result = run(*GENERATORS[game], "-o", str(target))
    assert result.exit_code == 0, result.output
    assert sorted(path.name for path in tmp_path.iterdir()) == ["mine.toml"]
    printed = run(*GENERATORS[game])  # the same seed printed: the same level
    assert target.read_text(encoding="utf-8") == printed.output
    assert run("check", str(target)).exit_code == 0
    again = run(*GENERATORS[game], "-o", str(target))
    assert again.exit_code == 2
    assert f"{target} already exists; use --force to replace existing levels" in again.output


@pytest.mark.parametrize("game", sorted(GENERATORS))
def test_several_levels_cannot_go_to_one_toml_file(tmp_path, game):
    target = tmp_path / "mine.toml"
    result = run(*GENERATORS[game], "-n", "2", "-o", str(target))
    assert result.exit_code == 2
    assert f"-o {target} names one file, and this run makes 2: give a folder (-o DIR)" in result.output
    assert not target.exists()


def test_a_folder_named_like_a_toml_file_stays_a_folder(tmp_path):
    folder = tmp_path / "levels.toml"
    folder.mkdir()
    result = run(*GENERATORS["temple"], "-o", str(folder))
    assert result.exit_code == 0, result.output
    assert [path.name for path in folder.iterdir()] == ["temple-2p-2t-seed1.toml"]
