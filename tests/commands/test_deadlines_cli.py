"""Honest deadlines (hostile input, round two, class 3): each command of this part that takes --timeout, on a
large input whose work runs far past the limit, ends within the limit plus SLACK, and says that what it did
not finish is unknown.

The deadline itself is the feature under test, so the time is asserted, on CPU time (time.process_time of
this process, every thread counted): the machine's wall clock is shared by several jobs and is noisy, CPU
time is what the work took. Each run is in this process, after a warm-up that imports the modules it needs
(an import is paid once per process, not per level). The natural cost of each input, measured on this
machine with no limit, is in its comment: every one is several times its limit.
"""

from __future__ import annotations

import importlib.util
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from twisty.cli import main

ROOT = Path(__file__).resolve().parents[2]
INPUTS = Path(__file__).resolve().parent / "inputs"
SLACK = 0.5
# The shipped 13x11 level with 68 blockers, by the plain reference engine: over 18 s of CPU without a limit.
BIG_LEVEL = str(ROOT / "puzzles" / "passages" / "large" / "passages-13x11-68-hard-seed1.toml")
# A book sketch of 16 pages of 8x10 with 400 open cells (made from a generated book, seed 3): 23 s of CPU.
BIG_SKETCH = str(INPUTS / "big-sketch.toml")


@pytest.fixture(scope="module")
def huge_book(tmp_path_factory) -> str:
    """The book benchmark's book at 400 pages of 12x16 (every rule family, a Bow's second evaluation):
    checking it takes 4 s of CPU, explaining one cell 1.6 s."""
    spec = importlib.util.spec_from_file_location("book_bench", ROOT / "benchmarks" / "book" / "bench.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    path = tmp_path_factory.mktemp("deadlines") / "huge-book.toml"
    path.write_text(module.generate_book(400, 12, 16, 1), encoding="utf-8")
    return str(path)


@pytest.fixture(scope="module", autouse=True)
def warmed_up():
    """Import what the commands below use (engines, SAT backends, the generators) once, untimed."""
    runner = CliRunner()
    small_book = str(ROOT / "puzzles" / "book" / "generated" / "book-4p-6x8-wolf-rat-seed1.toml")
    for args in (
        ["check", str(ROOT / "puzzles" / "passages" / "01-first-blood.toml"), "--engine", "reference"],
        ["explain", small_book, "1", "1", "1"],
        ["generate", "passages", "--size", "3x3", "--blockers", "3", "--difficulty", "easy"],
        ["generate", "book", "--pages", "1", "--size", "4x4", "--rules", "wolf"],
        ["generate", "tunnels", "--delver", "combat=2,con=3", "--target", "0.5", "--max-rating", "3"],
        ["complete", str(ROOT / "puzzles" / "book" / "sketches" / "wolf-run.sketch"), "--timeout", "0.2"],
    ):
        runner.invoke(main, args)


def timed(*args: str) -> tuple[object, float]:
    started = time.process_time()
    result = CliRunner().invoke(main, list(args))
    return result, time.process_time() - started


CASES = {
    "check passages": (("check", BIG_LEVEL, "--engine", "reference"), 1.0, "unknown (time limit)"),
    "solve passages": (
        ("solve", BIG_LEVEL, "--engine", "reference", "--questions", "route"),
        1.0,
        "unknown (time limit)",
    ),
    # 14x12 with 80 blockers, hard: no level within 60 s of wall clock (17 s of CPU) on this machine.
    "generate passages": (
        ("generate", "passages", "--size", "14x12", "--blockers", "80", "--difficulty", "hard"),
        1.0,
        "time limit of 1 s reached",
    ),
    # 60 pages of 12x16: 3.9 s of CPU.
    "generate book": (("generate", "book", "--pages", "60", "--size", "12x16"), 1.0, "time limit reached"),
    # Every monster up to rating 35 and 8 dice against a delver of 34 Constitution: 3.6 s of CPU.
    "generate tunnels": (
        ("generate", "tunnels", "--delver", "combat=6,con=34", "--target", "0.5", "--max-rating", "35"),
        1.0,
        "no monster found within the time limit",
    ),
    "complete": (("complete", BIG_SKETCH), 1.0, "no answer within the time limit"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_command_ends_within_its_timeout(name):
    args, limit, said = CASES[name]
    result, cpu = timed(*args, "--timeout", str(limit))
    assert result.exit_code in (0, 1), result.output
    assert said in result.output, result.output[-500:]
    assert cpu <= limit + SLACK, f"{name}: {cpu:.2f} s of CPU for a limit of {limit} s"


@pytest.mark.parametrize("command", ["check", "solve"])
def test_a_huge_book_is_unknown_within_the_timeout(huge_book, command):
    result, cpu = timed(command, huge_book, "--timeout", "1", "--json")
    assert result.exit_code == 1, result.output[-500:]
    assert '"solvable": null' in result.output
    assert cpu <= 1 + SLACK, f"{command}: {cpu:.2f} s of CPU for a limit of 1 s"


def test_explain_of_a_huge_book_within_the_timeout(huge_book):
    result, cpu = timed("explain", huge_book, "1", "5", "1", "--timeout", "0.5")
    assert result.exit_code in (0, 1), result.output[-500:]
    assert "unknown" in result.output
    assert cpu <= 0.5 + SLACK, f"explain: {cpu:.2f} s of CPU for a limit of 0.5 s"
