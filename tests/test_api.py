"""The Python API as a user meets it: one test per game and per function (load, check, solve, generate,
odds), the TwistyError kinds docs/api.md names for bad arguments (with the command line's messages), short
reprs, and the parity of `twisty check --json` with `twisty.check` over every shipped puzzle."""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

import twisty
from twisty.cli import main

ROOT = Path(__file__).resolve().parents[1]
PUZZLES = ROOT / "puzzles"
FIRST_BLOOD = str(PUZZLES / "passages" / "01-first-blood.toml")
TUTORIAL = str(PUZZLES / "book" / "tutorial.toml")
WOLF_RAT = str(PUZZLES / "book" / "generated" / "book-4p-6x8-wolf-rat-seed1.toml")
FIRST_GAME = str(PUZZLES / "temple" / "01-first-game.toml")


def cli(*args: str):
    return CliRunner().invoke(main, list(args))


def cli_error(*args: str) -> str:
    """The message of a command line refusal: click's "Error: ..." line, or twisty's "twisty: ..." line."""
    result = cli(*args)
    assert result.exit_code == 2, result.output
    line = [line for line in result.output.splitlines() if line.startswith(("Error: ", "twisty: "))][-1]
    return line.split(": ", 1)[1]


# Class 7 of the second hostile round: each reproducer, with the exact kind and message. ---------------------


@pytest.mark.parametrize(
    ("call", "kind", "message"),
    [
        (
            lambda: twisty.load(None),
            twisty.UsageError,
            "a level is a path, TOML text, a file's bytes or a twisty.Level, not NoneType",
        ),
        (
            lambda: twisty.load(3.5),
            twisty.UsageError,
            "a level is a path, TOML text, a file's bytes or a twisty.Level, not float",
        ),
        (
            lambda: twisty.load(""),
            twisty.UsageError,
            "a level's path is a non-empty string without NUL characters, not ''",
        ),
        (
            lambda: twisty.check(FIRST_BLOOD, timeout=math.nan),
            twisty.UsageError,
            "timeout: nan is not a number of seconds above 0 and at most 604800",
        ),
        (
            lambda: twisty.check(FIRST_BLOOD, timeout=math.inf),
            twisty.UsageError,
            "timeout: inf is not a number of seconds above 0 and at most 604800",
        ),
        (
            lambda: twisty.load(FIRST_BLOOD, timeout=-1),
            twisty.UsageError,
            "timeout: -1 is not a number of seconds above 0 and at most 604800",
        ),
        (
            lambda: twisty.check(FIRST_BLOOD, timeout=True),
            twisty.UsageError,
            "timeout: True is not a number of seconds",
        ),
        (
            lambda: twisty.check(FIRST_BLOOD, max_solutions="a"),
            twisty.UsageError,
            "max_solutions must be a whole number, got 'a'",
        ),
        (
            lambda: twisty.check(FIRST_BLOOD, max_solutions=0),
            twisty.UsageError,
            "max_solutions must be in 1..1000000, got 0",
        ),
        (lambda: twisty.odds("clash", a=-1, b=2), twisty.UsageError, "a must be in 0..40, got -1"),
        (lambda: twisty.odds("clash", a=2.5, b=2), twisty.UsageError, "a must be a whole number, got 2.5"),
        (
            lambda: twisty.check(FIRST_BLOOD, timout=3),
            twisty.UsageError,
            (
                'check() takes no parameter "timout" (did you mean "timeout"?) '
                "(it takes level, questions, engine, timeout, max_solutions, progress)"
            ),
        ),
        (lambda: twisty.load(), twisty.UsageError, "load(): missing a required argument: 'path_or_text'"),
        (
            lambda: twisty.check(FIRST_BLOOD, questions=["walk"]),
            twisty.UsageError,
            "passages has no question walk (questions: route, min-hp, count)",
        ),
        (
            lambda: twisty.check(FIRST_BLOOD, engine="sat"),
            twisty.UsageError,
            'no engine "sat" for passages (engines: auto, search, cpsat, reference, brute)',
        ),
        (
            lambda: twisty.generate("passages", sizee="4x4"),
            twisty.UsageError,
            (
                'generate("passages") takes no parameter "sizee" (did you mean "size"?) '
                "(it takes size, width, height, blockers, difficulty, method)"
            ),
        ),
        (lambda: twisty.generate("passages", blockers="6"), twisty.UsageError, "blockers is a whole number, not '6'"),
        (lambda: twisty.generate("temple", players=0), twisty.UsageError, "players must be 1 to 6"),
        (
            lambda: twisty.generate("chess"),
            twisty.UsageError,
            'unknown game "chess" (games: book, passages, temple, tunnels)',
        ),
        (
            lambda: twisty.odds("dice"),
            twisty.UsageError,
            "the kind of odds must be one of save, clash, fight, got 'dice'",
        ),
        (
            lambda: twisty.odds("fight", delver="combat=2,con=4,speed=1", monster="rating=3,dice=1"),
            twisty.UsageError,
            "unknown key 'speed' in the delver; keys: armor, armour, combat, con, constitution, dice, luck, shield",
        ),
        (
            lambda: twisty.odds("save", ratin=3, level=1),
            twisty.UsageError,
            "odds('save') takes no ratin (did you mean \"rating\"?) (it takes rating, level, difficulty)",
        ),
    ],
)
def test_bad_arguments_raise_the_documented_kinds(call, kind, message):
    with pytest.raises(kind) as raised:
        call()
    assert type(raised.value) is kind
    assert str(raised.value) == message


@pytest.mark.parametrize(
    ("api_call", "command"),
    [
        # The same value refused by both, with the same words (the command line adds its option's name).
        (lambda: twisty.check(FIRST_BLOOD, timeout="0"), ("check", FIRST_BLOOD, "--timeout", "0")),
        (lambda: twisty.check(FIRST_BLOOD, engine="sats"), ("check", FIRST_BLOOD, "--engine", "sats")),
        (lambda: twisty.check(FIRST_BLOOD, questions="rout"), ("check", FIRST_BLOOD, "--questions", "rout")),
        (
            lambda: twisty.odds("fight", delver="combat=3,con=5,speed=2", monster="rating=3,dice=2"),
            ("odds", "fight", "--delver", "combat=3,con=5,speed=2", "--monster", "rating=3,dice=2"),
        ),
        (
            lambda: twisty.odds("clash", a=3, b=3, upper_hand="a", flat_footed="a"),
            ("odds", "clash", "3", "3", "--upper-hand", "a", "--flat-footed", "a"),
        ),
        (
            lambda: twisty.generate("tunnels", delver="combat=3,con=5", target="0.5", survival="0.9"),
            ("generate", "tunnels", "--delver", "combat=3,con=5", "--target", "0.5", "--survival", "0.9"),
        ),
    ],
)
def test_the_api_and_the_command_line_refuse_with_the_same_message(api_call, command):
    with pytest.raises(twisty.UsageError) as raised:
        api_call()
    api_message = str(raised.value).removeprefix("timeout: ")
    assert cli_error(*command).endswith(api_message)


def test_bad_level_input_is_a_positioned_level_error():
    with pytest.raises(twisty.LevelError) as raised:
        twisty.check('game = "passages"\nmap = 3\n')
    assert (raised.value.path, raised.value.line, raised.value.column) == ("<text>", 1, 1)
    with pytest.raises(twisty.LevelError, match="cannot read the file"):
        twisty.load("no/such/level.toml")


def test_a_path_that_starts_with_game_is_a_path(tmp_path, monkeypatch):
    """A file named game1.toml is read as a file (a name like "game..." once passed for TOML text)."""
    monkeypatch.chdir(tmp_path)
    Path("game1.toml").write_text(Path(FIRST_BLOOD).read_text())
    assert twisty.load("game1.toml").path == "game1.toml"


# One test per game and per function. ----------------------------------------------------------------------


def test_passages_load_check_solve():
    level = twisty.load(FIRST_BLOOD)
    assert (level.game, level.name) == ("passages", "First blood")
    verdict = twisty.check(level)
    # The level's own claims, hand-checked in its file: 4 hp left, 4 the least start, one solution.
    assert (verdict.outcome, verdict.final_hp, verdict.min_start_hp, verdict.unique) == (
        twisty.Outcome.SOLVABLE,
        4,
        4,
        True,
    )
    assert verdict.status == "ok" and verdict.expect_failures == ()
    solved = twisty.solve(FIRST_BLOOD, questions="route")
    assert [step.action for step in solved.route.steps][-1] == "goal"


def test_book_load_check_solve():
    level = twisty.load(WOLF_RAT)
    assert level.game == "book"
    verdict = twisty.check(level, questions=["walk"])
    assert (verdict.moves, verdict.unique, verdict.simple_corridor) == (48, True, True)  # its [expect] claims
    walk = twisty.solve(WOLF_RAT, questions="walk").walk
    assert len(walk) == 49 and walk[0] == verdict.walk[0]


def test_temple_load_check_solve():
    level = twisty.load(FIRST_GAME)
    assert (level.game, level.name) == ("temple", "The first game")
    verdict = twisty.check(FIRST_GAME, questions="win,unique")
    assert (verdict.turns, verdict.unique) == (4, True)
    plan = twisty.solve(level, questions="win").plan
    assert len(plan.records) == 4


def test_tunnels_odds_of_each_kind_match_the_command_line():
    save = twisty.odds("save", rating=4, level=3)
    assert save.to_json() == json.loads(cli("odds", "save", "--rating", "4", "--level", "3", "--json").output)
    clash = twisty.odds("clash", a=3, b=2, upper_hand="b", armour="a=1")
    assert clash.to_json() == json.loads(
        cli("odds", "clash", "3", "2", "--upper-hand", "b", "--armour", "a=1", "--json").output
    )
    fight = twisty.odds("fight", delver={"combat": 3, "con": 8}, monster="rating=5,dice=2", level=2)
    printed = cli(
        "odds", "fight", "--delver", "combat=3,con=8", "--monster", "rating=5,dice=2", "--level", "2", "--json"
    )
    assert fight.to_json() == json.loads(printed.output)
    # A fight the delver cannot lose: 9 dice against 1 die and rating 1 (every Clash is won unless 1 die beats 9).
    assert twisty.odds("fight", delver="combat=9,con=50", monster="rating=1,dice=1").result.win > Fraction(99, 100)


def test_generate_passages_and_book_are_verified():
    made = twisty.generate("passages", seed=3, size="4x4", blockers=6, difficulty="easy")
    assert made.answer.final_hp == 1 and made.answer.unique is True
    assert twisty.check(made.source.text).to_json()["final_hp"] == 1  # read back from its text, checked again
    book = twisty.generate("book", seed=2, pages=2, size="4x5", rules=["wolf"])
    assert book.answer.unique is True and book.answer.expect_failures == ()


def test_generate_temple_gives_the_turns_asked_for():
    made = twisty.generate("temple", seed=2, players=2, turns=3)
    assert made.game == "temple"
    assert (made.answer.turns, made.answer.unique) == (3, True)
    again = twisty.check(made.source.text, questions="win,unique", engine="search")  # the other engine
    assert (again.turns, again.unique) == (3, True)
    printed = cli("generate", "temple", "--seed", "2", "--players", "2", "--turns", "3")
    assert printed.output == made.source.text


def test_generate_temple_takes_the_command_lines_yes_no_options():
    """bounce_safe and swap are the command line's --bounce-safe and --swap/--no-swap: the same seed and options
    give the same round, and the round is what they ask for (checked again by the other engine)."""
    made = twisty.generate("temple", seed=3, players=2, turns=3, bounce_safe=True, swap=False)
    printed = cli("generate", "temple", "--seed", "3", "--players", "2", "--turns", "3", "--bounce-safe", "--no-swap")
    assert printed.output == made.source.text
    assert "swap = false" in made.source.text
    again = twisty.check(made.source.text, questions="win,unique,bounce", engine="search")
    assert (again.turns, again.unique, again.to_json()["bounce_safe_turns"]) == (3, True, 3)
    assert again.plan is not None and again.plan.bounce_safe
    # The defaults are the command line's too: swap on, bounce-safe not asked for.
    plain = twisty.generate("temple", seed=3, players=2, turns=3, bounce_safe=False, swap=True)
    assert plain.source.text == cli("generate", "temple", "--seed", "3", "--players", "2", "--turns", "3").output
    assert "swap = false" not in plain.source.text
    with pytest.raises(twisty.UsageError, match="swap is True or False, not 'no'"):
        twisty.generate("temple", swap="no")
    with pytest.raises(twisty.UsageError, match="bounce_safe is True or False, not 1"):
        twisty.generate("temple", bounce_safe=1)


def test_generate_tunnels_is_the_command_lines_search():
    found = twisty.generate("tunnels", delver="combat=3,con=8", target=Fraction(1, 2), max_rating=20)
    printed = cli(
        "generate", "tunnels", "--delver", "combat=3,con=8", "--target", "1/2", "--max-rating", "20", "--json"
    )
    assert found.to_json() == json.loads(printed.output)
    # The monster found is as close to 1/2 as any other in the box: a brute force over the same box.
    best_gap = min(
        abs(
            twisty.odds("fight", delver="combat=3,con=8", monster=f"rating={rating},dice={dice}").result.win
            - Fraction(1, 2)
        )
        for rating in range(1, 21)
        for dice in range(1, 9)
    )
    assert found.choice.gap == best_gap


# Reprs and types. -------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "expected"),
    [
        (
            FIRST_BLOOD,
            "PassagesVerdict(game='passages', name='First blood', status='ok', solvable=True, final_hp=4, "
            "min_start_hp=4, unique=True)",
        ),
        (
            FIRST_GAME,
            "TempleVerdict(game='temple', name='The first game', status='ok', solvable=True, turns=4, unique=True)",
        ),
    ],
)
def test_a_verdicts_repr_is_short(path, expected):
    assert repr(twisty.check(path)) == expected


def test_book_level_and_odds_reprs_are_short():
    verdict = twisty.check(WOLF_RAT, questions="walk")
    assert repr(verdict).startswith("BookVerdict(game='book', name=") and "moves=48, unique=True)" in repr(verdict)
    assert repr(twisty.load(FIRST_BLOOD)) == (f"Level(game='passages', path='{FIRST_BLOOD}', name='First blood')")
    long_fight = twisty.odds("fight", delver="combat=4,con=20", monster="rating=20,dice=3")
    assert len(repr(long_fight)) < 200 and repr(long_fight).startswith("Odds(kind='fight', win=0.")


def test_check_and_odds_are_typed_precisely():
    import typing

    from twisty import api

    hints = typing.get_type_hints(api.odds, globalns=vars(api))
    assert hints["return"] is api.Odds
    assert api.check.__annotations__["return"] == "Verdict"
    assert api.Verdict == "PassagesVerdict | BookVerdict | TempleVerdict"


# One verdict per level, whatever asks. -------------------------------------------------------------------


def _without_time(record: dict) -> dict:
    return {key: value for key, value in record.items() if key != "seconds"}


def test_check_json_and_the_api_agree_on_every_shipped_puzzle():
    """Every shipped level: `twisty check --json` and twisty.check give the same record (status, claims, every
    answer), so the same headline answers."""
    from twisty.checking import headline_of, level_status

    result = cli("check", str(PUZZLES), "--json")
    printed = [json.loads(line) for line in result.output.splitlines()]
    assert len(printed) == len(list(PUZZLES.rglob("*.toml"))) > 60
    for record in printed:
        verdict = twisty.check(record["level"])
        assert _without_time(verdict.to_json()) == _without_time(record), record["level"]
        assert verdict.status == level_status(record) == "ok", record["level"]
        assert headline_of(verdict.to_json()) == headline_of(record)


def test_check_record_never_raises_for_bad_level_text():
    from twisty.api import check_record

    record = check_record(b'game = "passages"\nmap = 3\n', name="mine.toml")
    assert record.status == "invalid" and record.verdict is None
    assert record.summary == "INVALID    mine.toml:1:1: missing [player] table (at least hp = ...)"
    assert record.data["errors"] == [{"line": 1, "column": 1, "message": "missing [player] table (at least hp = ...)"}]
    assert check_record(b"\xff\xfe", name="x.toml").status == "invalid"


def test_the_api_counts_only_as_far_as_the_claims_need_as_check_does():
    """The armoury maze claims 6 solutions: the API counts to 6 (not 2), as `twisty check` does."""
    armoury = str(PUZZLES / "passages" / "13-armoury-maze.toml")
    verdict = twisty.check(armoury)
    assert verdict.status == "ok" and verdict.solutions == 6
    # Counting to 2 whatever the claims (as the page once did) cannot confirm the claim of 6.
    assert twisty.check(armoury, max_solutions=2).status == "failed"


def test_check_record_takes_a_deadline_made_before_and_keeps_the_level():
    """The page makes one deadline for a whole view: check_record shares it, and hands back the level loaded."""
    from twisty.api import check_record
    from twisty.limits import Deadline

    record = check_record(Path(FIRST_BLOOD).read_bytes(), name="mine.toml", deadline=Deadline(5))
    assert record.status == "ok" and record.level.game == "passages" and record.level.path == "mine.toml"
    spent = Deadline(1e-9)  # already passed: every answer unknown, no exception
    time_out = check_record(str(PUZZLES / "passages" / "large" / "passages-13x11-68-hard-seed1.toml"), deadline=spent)
    assert time_out.verdict is not None and time_out.verdict.solvable is None
    with pytest.raises(twisty.UsageError, match="not both"):
        check_record(FIRST_BLOOD, timeout=1, deadline=Deadline(1))
