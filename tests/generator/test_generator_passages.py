"""The passages generator: every level it returns is tight (final life 1, min_start_hp = starting life) and
has exactly one solution, as an independent engine (brute force) proves; files round-trip and are
reproducible byte for byte, whatever the number of worker processes. The command's file handling (--force,
symbolic links, atomic writes, --timeout, Ctrl-C) is tested in test_generator_files.py."""

from __future__ import annotations

import ast
import hashlib
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from twisty.cli import main
from twisty.errors import GenerationError, LimitReached
from twisty.generator.passages import PassagesParams, generate_level
from twisty.generator.passages_difficulty import measure_difficulty
from twisty.generator.passages_explore import DEADLINE_POLL_EVERY, Explorer
from twisty.generator.passages_params import score_range
from twisty.generator.passages_random import random_level
from twisty.generator.passages_writer import level_text
from twisty.rules.passages import replay, start_hp_upper_bound
from twisty.rules.passages_format import load_passages
from twisty.rules.source import parse_level_bytes
from twisty.solver import passages_brute as brute
from twisty.solver import passages_search as search
from twisty.solver.passages_verdict import SOLVABLE, UNKNOWN, BestRoute, Deadline

ROOT = Path(__file__).resolve().parents[2]

SMALL_CASES = [
    (PassagesParams(4, 4, 6, difficulty), seed) for difficulty in ("easy", "medium", "hard") for seed in range(20)
] + [(PassagesParams(5, 5, 10, ("easy", "medium", "hard")[seed % 3]), seed) for seed in range(8)]


def made_level(params: PassagesParams, seed: int, engine=search, **options):
    """The generator with the engine the command picks by default and no time limit."""
    return generate_level(params, seed, engine, Deadline(None), **options)


def load_text(text: str):
    return load_passages(parse_level_bytes(text.encode("utf-8"), "<test>"))


@pytest.mark.parametrize(
    "params,seed", SMALL_CASES, ids=[f"{p.width}x{p.height}-{p.blockers}-{p.difficulty}-{s}" for p, s in SMALL_CASES]
)
def test_generated_level_is_tight_and_unique_by_brute_force(params, seed):
    made = made_level(params, seed)
    level = made.level
    assert made.engine_disagreements == 0

    assert replay(level, made.route).final_hp == 1

    best = brute.best_route(level, Deadline(None))
    assert best.status == SOLVABLE and best.final_hp == 1
    count = brute.count_solutions(level, Deadline(None), 5, 1)
    assert count.complete and count.solutions == 1
    # Solvability only grows with the starting life, so it is the smallest that wins when one less loses.
    assert level.player.hp == made.min_start_hp
    assert (
        level.player.hp == 1
        or brute.best_route(level.with_start_hp(level.player.hp - 1), Deadline(None)).status == "unsolvable"
    )
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
    made = made_level(PassagesParams(4, 4, 6, "medium"), 11)
    header = [line for line in made.text.splitlines() if line.startswith("#")]
    assert "# seed: 11" in header
    assert any("--size 4x4 --blockers 6 --difficulty medium" in line for line in header)
    score = re.search(r"difficulty score: (\d+)", made.text)
    assert score and int(score.group(1)) == made.difficulty.score


def test_same_seed_same_bytes_and_other_seed_other_level():
    params = PassagesParams(5, 4, 8, "medium")
    first = made_level(params, 7).text
    assert made_level(params, 7).text == first
    assert made_level(params, 8).text != first


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
    made = made_level(PassagesParams(2, 2, 1, "easy"), 1)
    assert [t.enemy.boss for t in made.level.things if t.kind == "enemy"] == [True]
    assert brute.count_solutions(made.level, Deadline(None), 3, 1).solutions == 1


def test_cli_prints_one_level_that_loads():
    result = run_cli(["--size", "4x4", "--blockers", "5", "--seed", "2", "--difficulty", "easy"])
    assert result.exit_code == 0
    level = load_text(result.output)
    assert level.expect.unique is True and level.expect.min_start_hp == level.player.hp


@pytest.mark.parametrize(
    "args,message",
    [
        (["--size", "4by4"], "is not WxH"),
        (["--size", "1x5"], "at least 2x2"),
        (["--size", "3x3", "--blockers", "30"], "do not fit"),
        (["--blockers", "0"], "at least 1 blocker"),
        (["--blockers", "2", "--difficulty", "hard"], "at least 3 blockers"),
        (["--difficulty", "brutal"], "brutal"),
        (["-n", "3"], "-o DIR"),
        (["--seed", "-4"], "Invalid value for '--seed': -4 is not in the range x>=0"),
        (["--workers", "0"], "--workers"),
        (["--method", "route", "--engine", "brute"], "route-first method needs an engine"),
        (["--method", "guess"], "guess"),
    ],
)
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
    return f'game = "passages"\nmap = """\n{map_text}\n"""\n\n[player]\nhp = {hp}\natk = 1\n\n[legend]\n{legend}\n'


def test_difficulty_counts_a_dead_end_trap_and_a_greedy_loss():
    # a costs 1 and B costs 4 (2 hits of 2): 6 life leaves 1. The Rat b in the dead end also costs 1,
    # can be fought at the start, and then B cannot be survived: a trap, and the cheapest-first player
    # (b and a tie at 1; b comes first in reading order) falls for it at once.
    level = load_text(
        hand_level(
            "#########\n#b.S.aBG#\n#########",
            'a = { kind = "enemy", hp = 2, atk = 1, def = 0 }\n'
            'b = { kind = "enemy", name = "Rat", hp = 2, atk = 1, def = 0 }\n'
            'B = { kind = "enemy", hp = 3, atk = 2, def = 0, boss = true }',
            6,
        )
    )
    best = brute.best_route(level, Deadline(None))
    assert best.final_hp == 1
    measured = measure_difficulty(level, best.decisions)
    assert (measured.traps, measured.first_move_traps, measured.ordered_fights) == (1, 1, 0)
    assert (measured.greedy_wins, measured.greedy_steps) == (False, 0)


def test_difficulty_counts_a_fight_that_must_wait_for_the_sword():
    # c costs 6 at atk 1 but 2 at atk 2 (after a, 2 damage, gives the sword); B costs 3 at atk 2.
    # 2 + 2 + 3 = 7, so 8 life leaves 1. Fighting c first is allowed (6 < 8) but loses.
    level = load_text(
        hand_level(
            "##########\n#/a.S.cBG#\n##########",
            '"/" = { kind = "equipment", atk = 1 }\n'
            'a = { kind = "enemy", hp = 2, atk = 2, def = 0 }\n'
            'c = { kind = "enemy", hp = 4, atk = 2, def = 0 }\n'
            'B = { kind = "enemy", hp = 4, atk = 3, def = 0, boss = true }',
            8,
        )
    )
    best = brute.best_route(level, Deadline(None))
    assert best.final_hp == 1
    assert brute.count_solutions(level, Deadline(None), 5, 1).solutions == 1
    measured = measure_difficulty(level, best.decisions)
    assert (measured.traps, measured.ordered_fights) == (0, 1)
    assert measured.greedy_wins


def test_writer_gives_distinct_enemies_distinct_characters():
    made = made_level(PassagesParams(6, 5, 14, "hard"), 4)
    written = load_text(level_text(made.level, PassagesParams(6, 5, 14, "hard"), 4, made.difficulty))
    assert [t.enemy for t in written.things] == [t.enemy for t in made.level.things]
    assert written.grid == made.level.grid


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(10))
def test_twenty_blocker_levels_are_unique_by_the_other_engine(seed):
    """Levels of benchmark size, verified by the generator's engine, re-checked by CP-SAT."""
    from twisty.solver import passages_cpsat as cpsat

    made = made_level(PassagesParams(7, 6, 20, "medium"), seed)
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
    assert made_level(params, 5, engine=brute).text == made_level(params, 5).text


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
    with pytest.raises(GenerationError) as raised:
        made_level(PassagesParams(4, 4, 6, "medium"), 5, engine=doubting, max_attempts=30)
    assert str(raised.value) == ("no medium level of 4x4 cells with 6 blockers found for seed 5 in 30 drafts")
    assert doubting.asked >= 1


# ------------------------------------------------------------------------------------------ the deadline


def test_a_deadline_already_passed_ends_the_seed_before_any_work():
    with pytest.raises(GenerationError) as raised:
        generate_level(PassagesParams(4, 4, 6, "medium"), 3, search, Deadline(0))
    assert str(raised.value) == "time limit of 0 s reached for seed 3 in draft 1 (of at most 400); no level made"


class SwitchedDeadline(Deadline):
    """A deadline that passes when a test says so, not by the clock."""

    def __init__(self) -> None:
        super().__init__(None, memory_bytes=None)
        self.passed = False

    def expired(self) -> bool:
        return self.passed


class EngineOutOfTime:
    """An engine whose deadline passes during its first question: it answers "unknown", as the contract
    says, and is never asked again."""

    NAME = "out of time"

    def __init__(self) -> None:
        self.asked = 0

    def best_route(self, level, deadline):
        self.asked += 1
        deadline.passed = True
        return BestRoute(UNKNOWN)

    min_start_hp = staticmethod(brute.min_start_hp)
    count_solutions = staticmethod(brute.count_solutions)


def test_a_deadline_passed_during_verification_fails_the_seed_and_is_no_disagreement():
    """The level the explorer made is not written unverified, and the engine's "unknown" is the deadline's
    doing, not a refusal: the seed stops there, and says why."""
    engine, deadline = EngineOutOfTime(), SwitchedDeadline()
    with pytest.raises(GenerationError) as raised:
        generate_level(PassagesParams(4, 4, 6, "medium"), 5, engine, deadline)
    # Seed 5 makes its level at the 19th draft (byte-identical since before the deadline existed).
    assert str(raised.value) == "time limit reached for seed 5 in draft 19 (of at most 400); no level made"
    assert engine.asked == 1


def test_the_explorer_polls_the_deadline():
    """A deadline that passes while drafts are being shaped stops the seed within the draft: the clock is
    read every few thousand explored moves, not only between drafts."""
    deadline = SwitchedDeadline()
    level = made_level(PassagesParams(4, 4, 6, "medium"), 5).level.with_start_hp(60)
    explorer = Explorer(level, budget=10_000_000, deadline=deadline)
    explorer.moves(0, 60)
    deadline.passed = True
    with pytest.raises(LimitReached, match="time limit"):
        for _ in range(DEADLINE_POLL_EVERY):
            explorer.moves(0, 60)


def test_the_generator_takes_its_engine_and_imports_none():
    """Engines are handed in (from the registry, by the command or the API): no generator module imports an
    engine, or anything by name at run time; only the engine contract's result types."""
    allowed = ("twisty.errors", "twisty.limits", "twisty.rules.", "twisty.generator.", "twisty.solver.passages_verdict")
    for path in sorted((ROOT / "twisty" / "generator").glob("passages*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
        twisty_modules = {name for name in imported if name and name.startswith("twisty")}
        assert all(name.startswith(allowed) for name in twisty_modules), (path.name, twisty_modules)
        assert "importlib" not in imported, path.name


SHIPPED = sorted((ROOT / "puzzles" / "passages" / "generated").glob("*.toml"))


@pytest.mark.change_detector
@pytest.mark.parametrize("path", SHIPPED, ids=[p.name for p in SHIPPED])
def test_shipped_levels_are_what_their_header_regenerates(path: Path):
    """A change detector (the file against a saved copy, not evidence that its claims are right: `twisty
    check puzzles` and tests/test_shipped_levels_second_engine.py are that): every shipped level names its
    seed and options; the generator makes the same bytes from them on this machine (work is bounded by
    counts, never by time)."""
    text = path.read_text(encoding="utf-8")
    seed = int(re.search(r"^# seed: (\d+)$", text, re.M).group(1))
    found = re.search(r"--size (\d+)x(\d+) --blockers (\d+) --difficulty (\w+)(?: --method (\w+))?", text)
    width, height, blockers, difficulty, method = found.groups()
    params = PassagesParams(int(width), int(height), int(blockers), difficulty, method or "auto")
    assert made_level(params, seed).text == text


def test_ten_levels_are_shipped():
    assert len(SHIPPED) >= 10


# The first 16 hex digits of the SHA-256 of each level file, as the generator wrote them before it was
# split into modules and made to call the rule functions (commit 385d60d): the same levels since. Ten of the
# files changed their bytes when the generator's writer was folded into the passages writer
# (twisty.rules.passages_writer, which hands out legend characters in another order): each of the 25 levels
# was then made before and after the fold and loaded back, with the same map, objects, player and claims.
BEFORE_THE_SPLIT = {
    ("4x4", 6, "easy"): [
        "cfe79a9babc49d2f",
        "3e5921463ca762b6",
        "09933234be44c531",
        "67b14d076e010535",
        "fc6296a6e40cea86",
    ],
    ("4x4", 6, "medium"): [
        "44481acdd3f3752b",
        "7e5de2c26002a181",
        "77b2e74b404a9aad",
        "237fd627674a1687",
        "ccd2d621e64ea326",
    ],
    ("4x4", 6, "hard"): [
        "497ddd0751bacb1a",
        "e7307a4c33d4d938",
        "59b769ec2d31e55e",
        "b648cb1d59051be2",
        "63ebadacbb504e46",
    ],
    ("5x5", 10, "hard"): [
        "8a43825a172ecef4",
        "9422bc31232b2751",
        "6f829668e6bc0cf8",
        "308c709c2ab57c84",
        "302cf21bfdf75d60",
    ],
    ("7x6", 20, "medium"): [
        "28c3746ab6745e94",
        "1a82f3053b2eee52",
        "7ff2e89715bcaf85",
        "29a43ccf9cbe7b62",
        "aac7fe93479f4cd1",
    ],
}


@pytest.mark.change_detector
@pytest.mark.parametrize("size,blockers,difficulty", sorted(BEFORE_THE_SPLIT))
def test_seeds_1_to_5_give_the_same_bytes_as_before_the_split(size, blockers, difficulty):
    """A change detector: the generator's files against digests saved before a refactoring."""
    width, height = (int(part) for part in size.split("x"))
    params = PassagesParams(width, height, blockers, difficulty)
    digests = [hashlib.sha256(made_level(params, seed).text.encode("utf-8")).hexdigest()[:16] for seed in range(1, 6)]
    assert digests == BEFORE_THE_SPLIT[(size, blockers, difficulty)]


LARGE = sorted((ROOT / "puzzles" / "passages" / "large").glob("*.toml"))
# Levels of 60 blockers made route first (`--method auto` from 50 blockers: passages_construct).
ROUTE_FIRST = sorted((ROOT / "puzzles" / "passages" / "route-first").glob("*.toml"))


@pytest.mark.slow
@pytest.mark.change_detector
@pytest.mark.parametrize("path", LARGE + ROUTE_FIRST, ids=[p.name for p in LARGE + ROUTE_FIRST])
def test_large_shipped_levels_are_what_their_header_regenerates(path: Path):
    """A change detector, as test_shipped_levels_are_what_their_header_regenerates: the levels of 60
    blockers and more (made with the engine-backed explorer) regenerate byte for byte from their headers
    too; each takes minutes, so under `-m slow` only (`twisty check` checks their claims in every run, and
    tests/test_shipped_levels_second_engine.py by a second engine)."""
    test_shipped_levels_are_what_their_header_regenerates(path)


def test_large_levels_are_shipped_tight_and_unique():
    """The large levels claim what the generator promises, final life 1 and one solution, on maps of 50
    blockers or more (`twisty check puzzles` proves the claims in every run)."""
    assert LARGE
    for path in LARGE:
        text = path.read_text(encoding="utf-8")
        assert "final_hp = 1" in text and "unique = true" in text, path.name
        on_map = int(re.search(r"\((\d+) blockers on the map\)", text).group(1))
        assert on_map >= 50, path.name


def test_ten_levels_of_60_blockers_are_shipped():
    """Issue 23's levels: at least ten generated levels with 60 blockers on the map (route first, and some made
    by the repair pipeline), each claiming final life 1 and one solution in its [expect] (which `twisty check
    puzzles` proves in every run); route first keeps every blocker asked for on the map."""
    sixty = []
    for path in LARGE + ROUTE_FIRST:
        text = path.read_text(encoding="utf-8")
        assert "final_hp = 1" in text and "unique = true" in text, path.name
        on_map = int(re.search(r"\((\d+) blockers on the map\)", text).group(1))
        if path in ROUTE_FIRST:
            assert on_map == 60 and "--method" not in text, path.name  # made by the default, route first
        if on_map == 60:
            sixty.append(path)
    assert len(sixty) >= 10
