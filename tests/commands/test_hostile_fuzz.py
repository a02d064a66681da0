"""Property-based hostile input: generated and mutated level files of every game, checked through the
command line. Whatever the bytes, a run ends with exit 0, 1 or 2, with one message and no traceback, within
its --timeout (in CPU time: CPU_BOUND).

The default run tries FUZZ_EXAMPLES files; `pytest -m slow` runs SLOW_EXAMPLES more.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests import sampling
from tests.timing import cpu_seconds
from twisty.cli import main

ROOT = Path(__file__).resolve().parents[2]
SEEDS = sorted(p for p in (ROOT / "puzzles").rglob("*.toml"))
TIMEOUT = 1.0
# The limit covers everything, asserted on CPU time (tests/timing.py: the wall clock stretches with the load):
# the search races two threads, so a run that keeps its limit spends at most about twice TIMEOUT, plus the
# reading; one that ignored it (a hang, a search of the hard suite levels) far more.
CPU_BOUND = 2 * TIMEOUT + 2.0
FUZZ_EXAMPLES = 200
SLOW_EXAMPLES = 2000
LONG_RUN = "tests/commands/test_hostile_fuzz.py::test_mutated_levels_end_cleanly_long_run"  # (its sample's name)

NUMBERS = st.one_of(
    st.integers(-3, 12), st.sampled_from([0, -1, 10**9, 10**9 + 1, 2**31, 2**63, 2**64, -(2**63), 10**30])
)
NEAR_KEYS = [
    "hp",
    "atk",
    "def",
    "keys",
    "kind",
    "name",
    "map",
    "player",
    "legend",
    "expect",
    "rows",
    "cols",
    "entrance",
    "exit",
    "pages",
    "game",
    "table",
    "boss",
    "first_strike",
    "solvable",
    "final_hp",
]


def _mutate(data: st.DataObject, text: str) -> str:
    """One or a few mutations of the kinds hostile input takes: bytes, numbers, nesting, keys, lines."""
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        kind = data.draw(
            st.sampled_from(["byte", "number", "nest", "dotted", "key", "line", "truncate", "value"]), label="kind"
        )
        if not text:
            text = "game = 'passages'\n"
        at = data.draw(st.integers(0, len(text)), label="at")
        if kind == "byte":
            junk = data.draw(st.text(min_size=1, max_size=4), label="junk")
            cut = data.draw(st.integers(0, 3), label="cut")
            text = text[:at] + junk + text[at + cut :]
        elif kind == "number":
            numbers = list(re.finditer(r"-?\d+", text))
            if numbers:
                found = numbers[data.draw(st.integers(0, len(numbers) - 1), label="which")]
                text = text[: found.start()] + str(data.draw(NUMBERS, label="number")) + text[found.end() :]
        elif kind == "nest":
            depth = data.draw(st.sampled_from([5, 40, 3000]), label="depth")
            text += f"\ndeep = {'[' * depth}{']' * depth}\n"
        elif kind == "dotted":
            parts = data.draw(st.sampled_from([3, 20, 30000]), label="parts")
            text += "\n" + ".".join(["k"] * parts) + " = 1\n"
        elif kind == "key":
            keys = [m for m in re.finditer(r"^\s*([A-Za-z_]+)\s*=", text, re.M)]
            if keys:
                found = keys[data.draw(st.integers(0, len(keys) - 1), label="which key")]
                name = found.group(1)
                wrong = data.draw(
                    st.sampled_from([name[:-1] or "x", name + name[-1], name[::-1], *NEAR_KEYS]), label="new key"
                )
                text = text[: found.start(1)] + wrong + text[found.end(1) :]
        elif kind == "line":
            lines = text.splitlines(keepends=True)
            index = data.draw(st.integers(0, max(0, len(lines) - 1)), label="line")
            if lines:
                if data.draw(st.booleans(), label="delete"):
                    del lines[index]
                else:
                    lines.insert(index, lines[index])
            text = "".join(lines)
        elif kind == "truncate":
            text = text[:at]
        else:
            values = list(re.finditer(r"=\s*(\S+)", text))
            if values:
                found = values[data.draw(st.integers(0, len(values) - 1), label="which value")]
                replacement = data.draw(
                    st.sampled_from(['"x"', "true", "[]", "{}", "1.5", "nan", "inf", "-7", "[1, [2]]", '"""\n"""']),
                    label="value",
                )
                text = text[: found.start(1)] + replacement + text[found.end(1) :]
    return text


def _run_mutated(data: st.DataObject, tmp_path: Path) -> None:
    seed = data.draw(st.sampled_from(SEEDS), label="seed file")
    text = _mutate(data, seed.read_text(encoding="utf-8"))
    level = tmp_path / "fuzzed.toml"
    level.write_text(text, encoding="utf-8")
    result, cpu = cpu_seconds(lambda: CliRunner().invoke(main, ["check", "--timeout", str(TIMEOUT), str(level)]))
    assert isinstance(result.exception, SystemExit) or result.exception is None, (
        f"{type(result.exception).__name__}: {result.exception}\n{text[:2000]}"
    )
    assert result.exit_code in (0, 1, 2), result.output
    assert "Traceback" not in result.output
    if result.exit_code == 2:
        assert len([line for line in result.output.splitlines() if line.startswith("INVALID")]) == 1, result.output
    assert cpu <= CPU_BOUND, f"{cpu:.2f} s of CPU for\n{text[:2000]}"


@settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_mutated_levels_end_cleanly(data: st.DataObject, tmp_path: Path) -> None:
    _run_mutated(data, tmp_path)


@pytest.mark.slow
@sampling.seeded(LONG_RUN)
@settings(
    max_examples=sampling.examples(SLOW_EXAMPLES, LONG_RUN),
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_mutated_levels_end_cleanly_long_run(data: st.DataObject, tmp_path: Path) -> None:
    _run_mutated(data, tmp_path)
