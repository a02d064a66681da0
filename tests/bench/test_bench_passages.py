"""`twisty bench passages` through the CLI, on tiny suites made of the shipped puzzles."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from click.testing import CliRunner

from twisty.bench import passages as passages_bench
from twisty.cli import main
from twisty.rules.passages_format import load_passages
from twisty.rules.source import read_level
from twisty.solver.passages_verdict import UNSOLVABLE, BestRoute

ROOT = Path(__file__).resolve().parents[2]
PUZZLES = ROOT / "puzzles" / "passages"


def make_suite(folder: Path, names: list[str]) -> Path:
    folder.mkdir()
    for name in names:
        shutil.copy(PUZZLES / name, folder / name)
    return folder


def test_bench_prints_a_table_and_json_that_agree_with_the_puzzles(tmp_path):
    suite = make_suite(tmp_path / "suite", ["05-fetch-the-sword.toml", "03-one-key-two-doors.toml"])
    runner = CliRunner()
    table = runner.invoke(
        main,
        ["bench", "passages", "--suite", str(suite), "--limit", "20", "--engine", "search", "--engine", "reference"],
    )
    assert table.exit_code == 0, table.output
    assert "search" in table.output and "reference" in table.output and "2/2" in table.output
    # Not a terminal: a progress line per level and engine on stderr, the table alone on stdout.
    progress = table.stderr.splitlines()
    assert len(progress) == 4 and progress[0].startswith("[1/4] ") and progress[-1].startswith("[4/4] ")
    assert any("05-fetch-the-sword.toml reference: solvable, proved" in line for line in progress)
    assert "[1/4]" not in table.stdout
    as_json = runner.invoke(
        main,
        [
            "bench",
            "passages",
            "--suite",
            str(suite),
            "--limit",
            "20",
            "--engine",
            "search",
            "--engine",
            "reference",
            "--json",
        ],
    )
    assert as_json.exit_code == 0
    data = json.loads(as_json.stdout.strip().splitlines()[-1])
    assert data["disagreements"] == []
    sword = next(level for level in data["levels"] if level["level"] == "05-fetch-the-sword.toml")
    # The puzzle's own [expect]: solvable with final_hp 1.
    assert sword["runs"]["search"]["final_hp"] == sword["runs"]["reference"]["final_hp"] == 1
    assert all(run["proved"] for level in data["levels"] for run in level["runs"].values())


def test_bench_reports_an_answer_that_contradicts_the_level_as_a_bug(tmp_path):
    suite = make_suite(tmp_path / "suite", ["05-fetch-the-sword.toml"])
    level = suite / "05-fetch-the-sword.toml"
    level.write_text(level.read_text().replace("final_hp = 1", "final_hp = 2"))
    result = CliRunner().invoke(main, ["bench", "passages", "--suite", str(suite), "--engine", "search"])
    assert result.exit_code == 1
    assert "BUG: 05-fetch-the-sword.toml: search says final hp 1, [expect] final_hp = 2" in result.output


def test_bench_refuses_an_unknown_engine(tmp_path):
    suite = make_suite(tmp_path / "suite", ["05-fetch-the-sword.toml"])
    result = CliRunner().invoke(main, ["bench", "passages", "--suite", str(suite), "--engine", "magic"])
    assert result.exit_code == 2
    assert "unknown or unavailable engine magic" in result.output


class ScriptedClock:
    """A clock that moves only when the fake engine says its run took so long."""

    def __init__(self) -> None:
        self.now = 100.0

    def perf_counter(self) -> float:
        return self.now


class ScriptedEngine:
    """best_route takes the next of the scripted durations and answers 'unsolvable, proved'."""

    def __init__(self, clock: ScriptedClock, durations: list[float]) -> None:
        self.clock = clock
        self.durations = list(durations)
        self.calls = 0

    def best_route(self, level, deadline):
        self.clock.now += self.durations[self.calls]
        self.calls += 1
        return BestRoute(UNSOLVABLE, proved=True)


def test_quick_runs_are_timed_five_times_and_keep_the_median(monkeypatch):
    """A run under 50 ms is repeated to five in all and keeps the median time (one of a millisecond measured
    once moves by a third between benches); a longer run is timed once."""
    clock = ScriptedClock()
    monkeypatch.setattr(passages_bench, "time", clock)
    level = load_passages(read_level(PUZZLES / "05-fetch-the-sword.toml"))
    quick = ScriptedEngine(clock, [0.004, 0.001, 0.030, 0.002, 0.003])
    run = passages_bench.run_engine(quick, level, 30.0)
    assert quick.calls == 5 and abs(run.seconds - 0.003) < 1e-9 and run.proved
    slow = ScriptedEngine(clock, [0.8, 0.001])
    run = passages_bench.run_engine(slow, level, 30.0)
    assert slow.calls == 1 and abs(run.seconds - 0.8) < 1e-9


def test_count_bench_compares_the_counting_engine_with_the_previous_walk(tmp_path):
    """--questions count: per level, uniqueness and counts to 10 by both counting codes; the counts of the
    puzzles' own [expect] (06: 2 solutions, 1 optimal; 12: 3, all optimal) and no disagreement."""
    suite = make_suite(tmp_path / "suite", ["06-first-strike.toml", "12-ten-steps.toml", "09-not-enough-life.toml"])
    result = CliRunner().invoke(main, ["bench", "passages", "--suite", str(suite), "--questions", "count", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.strip().splitlines()[-1])
    assert data["disagreements"] == []
    by_name = {level["level"]: level for level in data["levels"]}
    assert by_name["09-not-enough-life.toml"]["runs"] == {}  # unsolvable: nothing to count
    for name, counted in (("06-first-strike.toml", [2, 1, False]), ("12-ten-steps.toml", [3, 3, False])):
        runs = by_name[name]["runs"]
        assert runs["count10"]["count"]["answer"] == runs["count10"]["walk"]["answer"] == counted
        assert runs["unique"]["count"]["answer"] == [1, 1, True]
    table = CliRunner().invoke(main, ["bench", "passages", "--suite", str(suite), "--questions", "count"])
    assert table.exit_code == 0 and "unique by count" in table.stdout and "whole check" in table.stdout


def test_generate_bench_times_each_generator_and_checks_every_level(tmp_path):
    """`twisty bench generate`: seeds 1 and 2 at 8 blockers, made by this release's generator and by the
    "previous release" (here this very tree, given as the baseline), each in a process of its own; every
    level made passes this release's check (final life 1, unique, least starting life), and the table has
    the ratio of the two."""
    baseline = tmp_path / "previous"
    baseline.mkdir()
    (baseline / "twisty").symlink_to(ROOT / "twisty")
    (baseline / "RELEASE").write_text("this tree\n")
    arguments = ["bench", "generate", "--blockers", "8", "--seeds", "2", "--baseline", str(baseline)]
    result = CliRunner().invoke(main, [*arguments, "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.strip().splitlines()[-1])
    assert data["disagreements"] == [] and data["baseline"] == f"{baseline} (this tree)"
    (row,) = data["rows"]
    assert row["blockers"] == 8 and row["current"]["made"] == row["previous"]["made"] == 2
    assert all(run["checked"] for runs in data["runs"]["8"].values() for run in runs)
    assert row["compared"] == 2 and row["worst_ratio"] > 0
    table = CliRunner().invoke(main, arguments)
    assert table.exit_code == 0 and "vs previous" in table.stdout and "previous" in table.stdout


def test_generate_bench_keeps_the_levels_it_makes_as_the_generator_writes_them(tmp_path):
    """`--keep DIR` writes each level this release's generator makes, under the name `twisty generate
    passages` gives it and with the same bytes as that command makes from the same seed and options;
    `--first-seed` starts the seeds there; a file already in the folder is left as it is."""
    kept = tmp_path / "kept"
    arguments = ["bench", "generate", "--blockers", "8", "--seeds", "1", "--first-seed", "3", "--keep", str(kept)]
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 0, result.output
    (path,) = kept.iterdir()
    made = CliRunner().invoke(main, ["generate", "passages", "--size", "5x4", "--blockers", "8", "--seed", "3"])
    assert made.exit_code == 0, made.output
    assert path.name == "passages-5x4-8-medium-seed3.toml"
    assert path.read_text(encoding="utf-8") == made.stdout
    path.write_text("mine\n", encoding="utf-8")
    again = CliRunner().invoke(main, arguments)
    assert again.exit_code == 0 and path.read_text(encoding="utf-8") == "mine\n"
    assert "left as it is" in again.stderr


def test_generate_bench_with_a_cpu_limit_stops_a_level_past_it():
    """`--cpu-limit`: the limit is the process's CPU time, which the kernel enforces (the deadline is the
    feature under test here): one second of CPU is far below what a 60-blocker level takes (about 5 s
    and more for seeds 1 and 2), so the seed gives no level and says why."""
    arguments = ["bench", "generate", "--blockers", "60", "--seeds", "1", "--limit", "1", "--cpu-limit", "--json"]
    result = CliRunner().invoke(main, arguments)
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout.strip().splitlines()[-1])
    (run,) = data["runs"]["60"]["current"]
    assert data["cpu_limit"] and not run["made"] and run["why"] == "CPU limit of 1 s reached"
