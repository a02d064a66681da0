"""The passages generator: every level it returns is tight (final life 1, min_start_hp = starting life) and
has exactly one solution, as an independent engine (brute force) proves; files round-trip and are
reproducible byte for byte, whatever the number of worker processes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from twisty.cli import main
from twisty.generator.passages import (GenerationError, PassagesParams, generate_level, measure_difficulty,
                                       score_range)
from twisty.generator.passages_explore import Explorer
from twisty.generator.passages_random import random_level
from twisty.generator.passages_writer import level_text
from twisty.rules.passages import replay, start_hp_upper_bound
from twisty.rules.passages_format import load_passages
from twisty.rules.source import parse_level_bytes
from twisty.solver import passages_brute as brute
from twisty.solver.passages_verdict import SOLVABLE, Deadline

SMALL_CASES = ([(PassagesParams(4, 4, 6, difficulty), seed)
                for difficulty in ("easy", "medium", "hard") for seed in range(20)]
               + [(PassagesParams(5, 5, 10, ("easy", "medium", "hard")[seed % 3]), seed) for seed in range(8)])


def load_text(text: str):
    return load_passages(parse_level_bytes(text.encode("utf-8"), "<test>"))


@pytest.mark.parametrize("params,seed", SMALL_CASES,
                         ids=[f"{p.width}x{p.height}-{p.blockers}-{p.difficulty}-{s}" for p, s in SMALL_CASES])
def test_generated_level_is_tight_and_unique_by_brute_force(params, seed):
    made = generate_level(params, seed)
    level = made.level
    assert made.engine_disagreements == 0

    assert replay(level, made.route).final_hp == 1

    best = brute.best_route(level, Deadline(None))
    assert best.status == SOLVABLE and best.final_hp == 1
    count = brute.count_solutions(level, Deadline(None), 5, 1)
    assert count.complete and count.solutions == 1
    # Solvability only grows with the starting life, so it is the smallest that wins when one less loses.
    assert level.player.hp == made.min_start_hp
    assert level.player.hp == 1 or brute.best_route(level.with_start_hp(level.player.hp - 1),
                                                     Deadline(None)).status == "unsolvable"
    if params.blockers <= 6:
        # Brute force's own search over every starting life: exponential, so small levels only.
        lowest = brute.min_start_hp(level, Deadline(None))
        assert lowest.status == "proved" and lowest.value == level.player.hp

    written = load_text(made.text)
    assert written == level
    assert (written.expect.solvable, written.expect.final_hp, written.expect.unique) == (True, 1, True)
    assert written.expect.min_start_hp == level.player.hp

    low, high = score_range(params.difficulty, params.blockers)
    assert low <= made.difficulty.score <= high


def test_header_states_seed_parameters_and_score():
    made = generate_level(PassagesParams(4, 4, 6, "medium"), 11)
    header = [line for line in made.text.splitlines() if line.startswith("#")]
    assert "# seed: 11" in header
    assert any("--size 4x4 --blockers 6 --difficulty medium" in line for line in header)
    score = re.search(r"difficulty score: (\d+)", made.text)
    assert score and int(score.group(1)) == made.difficulty.score


def test_same_seed_same_bytes_and_other_seed_other_level():
    params = PassagesParams(5, 4, 8, "medium")
    first = generate_level(params, 7).text
    assert generate_level(params, 7).text == first
    assert generate_level(params, 8).text != first


def run_cli(args: list[str]):
    return CliRunner().invoke(main, ["generate", "passages", *args])


def test_cli_files_do_not_depend_on_workers(tmp_path: Path):
    common = ["--size", "4x4", "--blockers", "6", "--seed", "3", "-n", "4"]
    one, two = tmp_path / "one", tmp_path / "two"
    assert run_cli([*common, "--workers", "1", "-o", str(one)]).exit_code == 0
    assert run_cli([*common, "--workers", "2", "-o", str(two)]).exit_code == 0
    names = sorted(p.name for p in one.iterdir())
    assert len(names) == 4 and names == sorted(p.name for p in two.iterdir())
    for name in names:
        assert (one / name).read_bytes() == (two / name).read_bytes()
    # Seeds 3..6, each file the level of its own seed.
    assert sorted(re.search(r"# seed: (\d+)", (one / n).read_text()).group(1) for n in names) == ["3", "4", "5", "6"]


def test_written_levels_pass_twisty_check(tmp_path: Path):
    made = run_cli(["--size", "5x4", "--blockers", "8", "--seed", "20", "-n", "3", "-o", str(tmp_path)])
    assert made.exit_code == 0
    checked = CliRunner().invoke(main, ["check", str(tmp_path)])
    assert checked.exit_code == 0, checked.output
    assert "3 levels: 3 ok" in checked.output


def test_cli_says_when_the_folder_cannot_be_made(tmp_path: Path):
    blocker = tmp_path / "plain-file"
    blocker.write_text("not a folder")
    result = run_cli(["--size", "4x4", "--blockers", "5", "-o", str(blocker / "levels")])
    assert result.exit_code == 2
    assert "cannot create the folder" in result.output and "Traceback" not in result.output


def test_a_level_of_one_blocker_is_a_unique_boss_fight():
    made = generate_level(PassagesParams(2, 2, 1, "easy"), 1)
    assert [t.enemy.boss for t in made.level.things if t.kind == "enemy"] == [True]
    assert brute.count_solutions(made.level, Deadline(None), 3, 1).solutions == 1


def test_cli_prints_one_level_that_loads():
    result = run_cli(["--size", "4x4", "--blockers", "5", "--seed", "2", "--difficulty", "easy"])
    assert result.exit_code == 0
    level = load_text(result.output)
    assert level.expect.unique is True and level.expect.min_start_hp == level.player.hp


@pytest.mark.parametrize("args,message", [
    (["--size", "4by4"], "is not WxH"),
    (["--size", "1x5"], "at least 2x2"),
    (["--size", "3x3", "--blockers", "30"], "do not fit"),
    (["--blockers", "0"], "at least 1 blocker"),
    (["--blockers", "2", "--difficulty", "hard"], "at least 3 blockers"),
    (["--difficulty", "brutal"], "brutal"),
    (["-n", "3"], "-o DIR"),
    (["--seed", "-4"], "0 or more"),
    (["--workers", "0"], "--workers"),
])
def test_cli_bad_options_exit_2_with_a_message(args, message):
    result = run_cli(args)
    assert result.exit_code == 2
    assert message in result.output
    assert "Traceback" not in result.output


# -------------------------------------------------------------------------- the explorer and the score

@pytest.mark.parametrize("seed", range(60))
def test_explorer_agrees_with_brute_force_on_random_levels(seed):
    level = random_level(seed, cells_wide=3, cells_high=3, blockers=7, items=5)
    explorer = Explorer(level, budget=10_000_000)
    best = brute.best_route(level, Deadline(None))
    mine = explorer.best_route(level.player.hp)
    assert (mine[0] if mine else None) == (best.final_hp if best.status == SOLVABLE else None)
    if mine:
        assert replay(level, mine[1]).final_hp == mine[0]
    wins = explorer.winning_signatures(level.player.hp, 50)
    count = brute.count_solutions(level, Deadline(None), 50, best.final_hp)
    assert min(len(wins), 50) == count.solutions
    for win in wins:
        assert replay(level, win.decisions).final_hp == win.final_hp
    lowest = brute.min_start_hp(level, Deadline(None))
    expected = lowest.value if lowest.status == "proved" else None
    assert explorer.min_start_hp(start_hp_upper_bound(level)) == expected


def hand_level(map_text: str, legend: str, hp: int) -> str:
    return (f'game = "passages"\nmap = """\n{map_text}\n"""\n\n[player]\nhp = {hp}\natk = 1\n\n'
            f"[legend]\n{legend}\n")


def test_difficulty_counts_a_dead_end_trap_and_a_greedy_loss():
    # a costs 1 and B costs 4 (2 hits of 2): 6 life leaves 1. The Rat b in the dead end also costs 1,
    # can be fought at the start, and then B cannot be survived: a trap, and the cheapest-first player
    # (b and a tie at 1; b comes first in reading order) falls for it at once.
    level = load_text(hand_level("#########\n#b.S.aBG#\n#########",
                                 'a = { kind = "enemy", hp = 2, atk = 1, def = 0 }\n'
                                 'b = { kind = "enemy", name = "Rat", hp = 2, atk = 1, def = 0 }\n'
                                 'B = { kind = "enemy", hp = 3, atk = 2, def = 0, boss = true }', 6))
    best = brute.best_route(level, Deadline(None))
    assert best.final_hp == 1
    measured = measure_difficulty(level, best.decisions)
    assert (measured.traps, measured.first_move_traps, measured.ordered_fights) == (1, 1, 0)
    assert (measured.greedy_wins, measured.greedy_steps) == (False, 0)


def test_difficulty_counts_a_fight_that_must_wait_for_the_sword():
    # c costs 6 at atk 1 but 2 at atk 2 (after a, 2 damage, gives the sword); B costs 3 at atk 2.
    # 2 + 2 + 3 = 7, so 8 life leaves 1. Fighting c first is allowed (6 < 8) but loses.
    level = load_text(hand_level("##########\n#/a.S.cBG#\n##########",
                                 '"/" = { kind = "equipment", atk = 1 }\n'
                                 'a = { kind = "enemy", hp = 2, atk = 2, def = 0 }\n'
                                 'c = { kind = "enemy", hp = 4, atk = 2, def = 0 }\n'
                                 'B = { kind = "enemy", hp = 4, atk = 3, def = 0, boss = true }', 8))
    best = brute.best_route(level, Deadline(None))
    assert best.final_hp == 1
    assert brute.count_solutions(level, Deadline(None), 5, 1).solutions == 1
    measured = measure_difficulty(level, best.decisions)
    assert (measured.traps, measured.ordered_fights) == (0, 1)
    assert measured.greedy_wins


def test_writer_gives_distinct_enemies_distinct_characters():
    made = generate_level(PassagesParams(6, 5, 14, "hard"), 4)
    written = load_text(level_text(made.level, PassagesParams(6, 5, 14, "hard"), 4, made.difficulty))
    assert [t.enemy for t in written.things] == [t.enemy for t in made.level.things]
    assert written.grid == made.level.grid


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(10))
def test_twenty_blocker_levels_are_unique_by_the_other_engine(seed):
    """Levels of benchmark size, verified by the generator's engine, re-checked by CP-SAT."""
    from twisty.solver import passages_cpsat as cpsat
    made = generate_level(PassagesParams(7, 6, 20, "medium"), seed)
    level = made.level
    best = cpsat.best_route(level, Deadline(None))
    assert best.status == SOLVABLE and best.final_hp == 1 and best.proved
    count = cpsat.count_solutions(level, Deadline(None), 3, 1)
    assert count.complete and count.solutions == 1
    lowest = cpsat.min_start_hp(level, Deadline(None))
    assert lowest.value == level.player.hp


# ------------------------------------------------------------------------------------------ the engine

def test_output_does_not_depend_on_the_verifying_engine():
    params = PassagesParams(4, 4, 6, "medium")
    assert generate_level(params, 5, engine=brute).text == generate_level(params, 5).text


class DoubtingEngine:
    """Brute force, except that it always finds a second solution."""

    NAME = "doubting"
    best_route = staticmethod(brute.best_route)
    min_start_hp = staticmethod(brute.min_start_hp)

    def __init__(self) -> None:
        self.asked = 0

    def count_solutions(self, level, deadline, cap, final_hp):
        self.asked += 1
        found = brute.count_solutions(level, deadline, cap, final_hp)
        return type(found)(2, 2, False, True, found.witnesses)


def test_a_level_the_engine_does_not_confirm_is_never_returned():
    doubting = DoubtingEngine()
    with pytest.raises(GenerationError):
        generate_level(PassagesParams(4, 4, 6, "medium"), 5, engine=doubting, max_attempts=30)
    assert doubting.asked >= 1


SHIPPED = sorted((Path(__file__).resolve().parents[1] / "puzzles" / "passages" / "generated").glob("*.toml"))


@pytest.mark.parametrize("path", SHIPPED, ids=[p.name for p in SHIPPED])
def test_shipped_levels_are_what_their_header_regenerates(path: Path):
    """Every shipped level names its seed and options; the generator makes the same bytes from them on
    this machine (work is bounded by counts, never by time)."""
    text = path.read_text(encoding="utf-8")
    seed = int(re.search(r"^# seed: (\d+)$", text, re.M).group(1))
    found = re.search(r"--size (\d+)x(\d+) --blockers (\d+) --difficulty (\w+)", text)
    params = PassagesParams(int(found.group(1)), int(found.group(2)), int(found.group(3)), found.group(4))
    assert generate_level(params, seed).text == text


def test_ten_levels_are_shipped():
    assert len(SHIPPED) >= 10
