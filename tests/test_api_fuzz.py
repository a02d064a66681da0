"""Random Python values to every public function of the API (load, check, solve, generate, odds, and the
one verdict function check_record): whatever the arguments, a call returns a result or raises one of the
TwistyError kinds docs/api.md names (LevelError, UsageError, LimitReached, GenerationError), never a bare
TypeError, ValueError or RecursionError, and never EngineBug.

The default run tries FUZZ_EXAMPLES calls per function; `pytest -m slow` runs SLOW_EXAMPLES more.
"""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import twisty
from twisty.api import check_record
from twisty.games import GAMES

ROOT = Path(__file__).resolve().parents[1]
FUZZ_EXAMPLES = 200
SLOW_EXAMPLES = 2000
DOCUMENTED = (twisty.LevelError, twisty.UsageError, twisty.LimitReached, twisty.GenerationError)
SMALL_LEVELS = [
    str(ROOT / "puzzles" / "passages" / "01-first-blood.toml"),
    str(ROOT / "puzzles" / "book" / "generated" / "book-4p-6x8-wolf-rat-seed1.toml"),
    str(ROOT / "puzzles" / "temple" / "05-unwinnable-walls-only.toml"),
]
LEVEL_TEXT = Path(SMALL_LEVELS[0]).read_text(encoding="utf-8")

# Python values of every kind a caller might pass by mistake.
ATOMS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 60),
    st.integers(),
    st.sampled_from([10**9, 10**30, -(2**63), 2**64]),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([math.nan, math.inf, -math.inf, -0.0, 1e-300, 1e300]),
    st.text(max_size=12),
    st.sampled_from(["", "\x00", "/", ".", "..", "a,b", "all", "auto", "x=1", "1/2", "nan", "-1", "combat=2,con=3"]),
    st.binary(max_size=12),
    st.fractions(),
    st.just(Path("no/such.toml")),
    st.just(object()),
    st.just(print),
)
VALUES = st.recursive(
    ATOMS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.tuples(inner, inner),
        st.dictionaries(st.one_of(st.text(max_size=8), st.integers()), inner, max_size=4),
    ),
    max_leaves=8,
)
# Values that are meant to be right, so that calls get past the first check now and then.
GAME_NAMES = st.one_of(st.sampled_from(sorted(GAMES)), VALUES)
LEVELS = st.one_of(
    st.sampled_from(SMALL_LEVELS),
    st.just(LEVEL_TEXT),
    st.just(LEVEL_TEXT.encode()),
    st.just(Path(SMALL_LEVELS[0])),
    VALUES,
)
TIMEOUTS = st.one_of(st.sampled_from([0.5, 1, "0.5"]), VALUES)  # never None: every call ends
QUESTION_NAMES = sorted({name for game in GAMES.values() for name in game.question_names}) + ["all"]
ENGINE_NAMES = sorted({name for game in GAMES.values() for name in game.engine_names()}) + ["auto"]
PARAMETER_NAMES = sorted(
    {param.name for game in GAMES.values() for param in game.generator_params}
    | {"a", "b", "rating", "level", "difficulty", "delver", "monster", "upper_hand", "flat_footed", "luck"}
    | {"shield", "armour", "armour_a", "armour_b", "armour_use", "sized", "timout"}
)
SMALL_INTS = st.integers(-2, 6)
PARAMETERS = st.dictionaries(
    st.sampled_from(PARAMETER_NAMES),
    st.one_of(SMALL_INTS, st.sampled_from(["a", "b", "delver", "4x4"]), VALUES),
    max_size=4,
)


def settled(call: Any) -> Any:
    """Run the call: its result, or the documented error it raised (anything else fails the test)."""
    try:
        return call()
    except DOCUMENTED as error:
        assert str(error), "an error with no message"
        return error


QUICK = settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
LONG = settings(
    max_examples=SLOW_EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)


def _load(data: st.DataObject) -> None:
    level = data.draw(LEVELS, label="level")
    keywords = data.draw(st.dictionaries(st.sampled_from(["timeout", "timout", "name"]), TIMEOUTS, max_size=2))
    result = settled(lambda: twisty.load(level, **keywords))
    assert isinstance(result, (twisty.Level, *DOCUMENTED))


def _check(data: st.DataObject, function: Any) -> None:
    level = data.draw(LEVELS, label="level")
    keywords = {
        "timeout": data.draw(TIMEOUTS, label="timeout"),
        "questions": data.draw(
            st.one_of(
                st.none(),
                st.sampled_from(QUESTION_NAMES),
                st.lists(st.sampled_from(QUESTION_NAMES), max_size=2),
                VALUES,
            )
        ),
        "engine": data.draw(st.one_of(st.just("auto"), st.sampled_from(ENGINE_NAMES), VALUES)),
        "max_solutions": data.draw(st.one_of(st.none(), SMALL_INTS, VALUES)),
    }
    if data.draw(st.booleans(), label="misspelt"):
        keywords[data.draw(st.sampled_from(["question", "engines", "max_solution", "progress"]))] = data.draw(VALUES)
    result = settled(lambda: function(level, **keywords))
    if not isinstance(result, DOCUMENTED):
        assert result.outcome in twisty.Outcome and isinstance(result.to_json(), dict)
        assert len(repr(result)) < 400


def _check_record(data: st.DataObject) -> None:
    level = data.draw(LEVELS, label="level")
    name = data.draw(st.one_of(st.none(), st.text(max_size=8), VALUES), label="name")
    result = settled(lambda: check_record(level, name=name, timeout=data.draw(TIMEOUTS, label="timeout")))
    if not isinstance(result, DOCUMENTED):
        # Never raises for bad level input: an invalid record instead.
        assert result.status in ("ok", "failed", "unsolvable", "unknown", "invalid")
        assert (result.verdict is None) == (result.status == "invalid")
    else:
        assert isinstance(result, twisty.UsageError)  # only arguments are refused by raising


def _generate(data: st.DataObject) -> None:
    game = data.draw(GAME_NAMES, label="game")
    params = data.draw(PARAMETERS, label="params")
    seed = data.draw(st.one_of(st.integers(0, 3), VALUES), label="seed")
    timeout = data.draw(st.one_of(st.just(0.5), VALUES), label="timeout")
    if not isinstance(timeout, (int, float)) or isinstance(timeout, bool) or not 0 < timeout <= 2:
        timeout = data.draw(st.sampled_from([0.5, math.nan, -1, "1", None]), label="bounded timeout")
        if timeout is None and isinstance(game, str) and game in GAMES and GAMES[game].loader is not None:
            timeout = 0.5  # a level generator with good parameters and no limit could run for minutes
    result = settled(lambda: twisty.generate(game, seed=seed, timeout=timeout, **params))
    assert isinstance(result, (twisty.Level, *DOCUMENTED)) or hasattr(result, "to_json")


ODDS_VALUES = st.one_of(
    SMALL_INTS,
    st.sampled_from(["a", "b", "delver", "monster", "absorb", "keep", "combat=2,con=3", "rating=2,dice=1"]),
    st.fixed_dictionaries({"combat": SMALL_INTS, "con": SMALL_INTS}),
    VALUES,
)


def _odds(data: st.DataObject) -> None:
    kind = data.draw(st.one_of(st.sampled_from(["save", "clash", "fight"]), VALUES), label="kind")
    params = data.draw(st.dictionaries(st.sampled_from(PARAMETER_NAMES), ODDS_VALUES, max_size=5), label="params")
    result = settled(lambda: twisty.odds(kind, **params))
    if not isinstance(result, DOCUMENTED):
        assert result.kind == kind and isinstance(result.to_json(), dict)
        assert isinstance(result.result, (Fraction, object))


@QUICK
@given(data=st.data())
def test_load(data: st.DataObject) -> None:
    _load(data)


@pytest.mark.slow
@LONG
@given(data=st.data())
def test_load_long_run(data: st.DataObject) -> None:
    _load(data)


@QUICK
@given(data=st.data())
def test_check(data: st.DataObject) -> None:
    _check(data, twisty.check)


@pytest.mark.slow
@LONG
@given(data=st.data())
def test_check_long_run(data: st.DataObject) -> None:
    _check(data, twisty.check)


@QUICK
@given(data=st.data())
def test_solve(data: st.DataObject) -> None:
    _check(data, twisty.solve)


@pytest.mark.slow
@LONG
@given(data=st.data())
def test_solve_long_run(data: st.DataObject) -> None:
    _check(data, twisty.solve)


@QUICK
@given(data=st.data())
def test_check_record(data: st.DataObject) -> None:
    _check_record(data)


@pytest.mark.slow
@LONG
@given(data=st.data())
def test_check_record_long_run(data: st.DataObject) -> None:
    _check_record(data)


@QUICK
@given(data=st.data())
def test_generate(data: st.DataObject) -> None:
    _generate(data)


@pytest.mark.slow
@LONG
@given(data=st.data())
def test_generate_long_run(data: st.DataObject) -> None:
    _generate(data)


@QUICK
@given(data=st.data())
def test_odds(data: st.DataObject) -> None:
    _odds(data)


@pytest.mark.slow
@LONG
@given(data=st.data())
def test_odds_long_run(data: st.DataObject) -> None:
    _odds(data)
