"""Property-based hostile input for the importers (issue 28): mutated magic-tower-AI maps and mutated h5mota
projects (JS files truncated, deepened, with huge arrays, non-UTF-8 bytes, NaN and Infinity, odd ids and
odd values), each imported through the command line. The only outcomes allowed: a successful import (exit
0), or exit 2 with one message; never a traceback, an internal error (exit 3), a hang, or a file written
outside -o (the tree around the run is compared before and after).

The default run tries FUZZ_EXAMPLES inputs per reader; `pytest -m slow` runs SLOW_EXAMPLES more.
"""

from __future__ import annotations

import re
import shutil
import tempfile
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from twisty.cli import main

TOWERS = Path(__file__).resolve().parents[1] / "towers"
MINI = TOWERS / "h5mota-mini" / "project"
MTAI_SEEDS = sorted(TOWERS.glob("mtai-*.txt"))
PROJECT_FILES = ["data.js", "enemys.js", "items.js", "maps.js", "floors/F1.js", "floors/F2.js"]
FUZZ_EXAMPLES = 200
SLOW_EXAMPLES = 2000
# A guard against a hang, far above the milliseconds an import of these small inputs takes.
GUARD_TIMEOUT = "20"

NUMBERS = st.sampled_from(
    ["0", "-1", "1.5", "100.5", "-0", "1e999", "-1e999", "NaN", "Infinity", "-Infinity", "+5", ".5", "0x1F"]
    + ["1000000001", "9" * 300, "1" + "0" * 5000, "2e308", "1e-400", "true", "null", '"7"', "[]", "{}"]
)
ODD_IDS = st.sampled_from(
    ["../x", "../../escaped", "/tmp/abs", "", ".", "..", "a/b", "a\\\\b", "F1", "F2", "\\u0000", "F\\ud800"]
    + ["x" * 200, "..%2fx", "CON", "-rf", "．．／x", "MT1 ", "\\n"]  # noqa: RUF001 (fullwidth on purpose)
)
VALUES = st.sampled_from(
    ['"x"', "[]", "{}", "null", "true", "[[[[1]]]]", '{"hp": NaN}', "[0, 0, 0]", '"\\ud800"', '"' + "y" * 500 + '"']
)


def _mutate_js(data: st.DataObject, text: str) -> str:
    """One to three mutations of a JS project file, of the kinds hostile input takes."""
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        kind = data.draw(
            st.sampled_from(["truncate", "deepen", "array", "bytes", "number", "id", "value", "junk", "key"]),
            label="kind",
        )
        at = data.draw(st.integers(0, len(text)), label="at")
        if kind == "truncate":
            text = text[:at]
        elif kind == "deepen":
            depth = data.draw(st.sampled_from([5, 48, 99, 101, 1200]), label="depth")
            inner = data.draw(st.sampled_from(["1", "{}", '"x"']), label="inner")
            brace = text.find("{", at)
            if brace >= 0:
                text = text[: brace + 1] + f'"deep": {"[" * depth}{inner}{"]" * depth}, ' + text[brace + 1 :]
        elif kind == "array":
            size = data.draw(st.sampled_from([201, 5000, 300000]), label="size")
            item = data.draw(st.sampled_from(["0", "201", "[0]", '"a"']), label="item")
            found = text.find("[", at)
            if found >= 0:
                text = text[: found + 1] + ",".join([item] * size) + "," + text[found + 1 :]
        elif kind == "number":
            numbers = list(re.finditer(r"-?\d+(?:\.\d+)?", text))
            if numbers:
                found = numbers[data.draw(st.integers(0, len(numbers) - 1), label="which")]
                text = text[: found.start()] + data.draw(NUMBERS, label="number") + text[found.end() :]
        elif kind == "id":
            strings = list(re.finditer(r'"[A-Za-z0-9_]+"', text))
            if strings:
                found = strings[data.draw(st.integers(0, len(strings) - 1), label="which")]
                text = text[: found.start()] + '"' + data.draw(ODD_IDS, label="id") + '"' + text[found.end() :]
        elif kind == "value":
            values = list(re.finditer(r":\s*([^,\s{}\[\]]+)", text))
            if values:
                found = values[data.draw(st.integers(0, len(values) - 1), label="which")]
                text = text[: found.start(1)] + data.draw(VALUES, label="value") + text[found.end(1) :]
        elif kind == "key":
            keys = list(re.finditer(r'"([A-Za-z]+)"\s*:', text))
            if keys:
                found = keys[data.draw(st.integers(0, len(keys) - 1), label="which")]
                text = text[: found.start(1)] + found.group(1)[::-1] + text[found.end(1) :]
        elif kind == "junk":
            junk = data.draw(st.text(min_size=1, max_size=6), label="junk")
            text = text[:at] + junk + text[at + data.draw(st.integers(0, 3), label="cut") :]
        else:
            text = text[:at] + "\udcff" + text[at:]  # written below as a byte that is not UTF-8
    return text


def _snapshot(root: Path, skip: Path) -> dict[str, bytes]:
    return {
        str(path): path.read_bytes()
        for path in root.rglob("*")
        if path.is_file() and not path.is_symlink() and skip not in path.parents
    }


def _check_outcome(result, before: dict[str, bytes], after: dict[str, bytes], shown: str) -> None:
    assert isinstance(result.exception, SystemExit) or result.exception is None, (
        f"{type(result.exception).__name__}: {result.exception}\n{shown}"
    )
    assert result.exit_code in (0, 2), f"exit {result.exit_code}: {result.output[-2000:]}\n{shown}"
    assert "Traceback" not in result.output
    if result.exit_code == 2:
        messages = [line for line in result.output.splitlines() if line.startswith("twisty: ")]
        assert len(messages) == 1, result.output
    assert after == before, "a file outside -o was written or changed"


def _run_h5mota(data: st.DataObject, base: Path) -> None:
    folder = Path(tempfile.mkdtemp(dir=base))
    try:
        project = folder / "project"
        shutil.copytree(MINI, project)
        (folder / "sentinel.txt").write_text("outside\n")
        for _ in range(data.draw(st.integers(1, 2), label="files")):
            name = data.draw(st.sampled_from(PROJECT_FILES), label="file")
            text = _mutate_js(data, (project / name).read_text(encoding="utf-8", errors="surrogateescape"))
            (project / name).write_bytes(text.encode("utf-8", "surrogateescape"))
        out = folder / "out"
        before = _snapshot(folder, out)
        arguments = ["import", "h5mota", str(project), "-o", str(out), "--timeout", GUARD_TIMEOUT]
        if data.draw(st.booleans(), label="json"):
            arguments.append("--json")
        if data.draw(st.booleans(), label="range"):
            arguments += ["--floors", "F1..F2"]
        result = CliRunner().invoke(main, arguments)
        _check_outcome(result, before, _snapshot(folder, out), f"project {name}")
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _mutate_map(data: st.DataObject, text: str) -> str:
    for _ in range(data.draw(st.integers(1, 3), label="mutations")):
        kind = data.draw(st.sampled_from(["number", "truncate", "line", "bytes", "junk", "count"]), label="kind")
        at = data.draw(st.integers(0, len(text)), label="at")
        if kind == "number":
            numbers = list(re.finditer(r"-?\d+", text))
            if numbers:
                found = numbers[data.draw(st.integers(0, len(numbers) - 1), label="which")]
                text = text[: found.start()] + data.draw(NUMBERS, label="number") + text[found.end() :]
        elif kind == "truncate":
            text = text[:at]
        elif kind == "line":
            lines = text.splitlines(keepends=True)
            if lines:
                index = data.draw(st.integers(0, len(lines) - 1), label="line")
                if data.draw(st.booleans(), label="delete"):
                    del lines[index]
                else:
                    lines.insert(index, lines[index] * data.draw(st.sampled_from([1, 50]), label="times"))
            text = "".join(lines)
        elif kind == "bytes":
            text = text[:at] + "\udcff\udcfe" + text[at:]
        elif kind == "junk":
            text = text[:at] + data.draw(st.text(min_size=1, max_size=4), label="junk") + text[at:]
        else:  # the header's counts, the floors and the sides, made large
            floors = data.draw(st.sampled_from(["100", "0", "1000"]), label="floors")
            text = re.sub(r"^\s*\d+", floors, text, count=1)
    return text


def _run_mtai(data: st.DataObject, base: Path) -> None:
    folder = Path(tempfile.mkdtemp(dir=base))
    try:
        seed = data.draw(st.sampled_from(MTAI_SEEDS), label="seed map")
        text = _mutate_map(data, seed.read_text(encoding="utf-8"))
        source = folder / "map.txt"
        source.write_bytes(text.encode("utf-8", "surrogateescape"))
        out = folder / "out"
        out.mkdir()
        before = _snapshot(folder, out)
        arguments = ["import", "mtai", str(source), "-o", str(out / "map.toml"), "--timeout", GUARD_TIMEOUT]
        codes = data.draw(st.sampled_from([None, "old", "new"]), label="codes")
        if codes:
            arguments += ["--codes", codes]
        result = CliRunner().invoke(main, arguments)
        _check_outcome(result, before, _snapshot(folder, out), text[:2000])
    finally:
        shutil.rmtree(folder, ignore_errors=True)


SETTINGS = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
}


@settings(max_examples=FUZZ_EXAMPLES, derandomize=True, **SETTINGS)
@given(data=st.data())
def test_mutated_h5mota_projects_import_or_are_refused(data: st.DataObject, tmp_path: Path) -> None:
    _run_h5mota(data, tmp_path)


@settings(max_examples=FUZZ_EXAMPLES, derandomize=True, **SETTINGS)
@given(data=st.data())
def test_mutated_mtai_maps_import_or_are_refused(data: st.DataObject, tmp_path: Path) -> None:
    _run_mtai(data, tmp_path)


@pytest.mark.slow
@settings(max_examples=SLOW_EXAMPLES, **SETTINGS)
@given(data=st.data())
def test_mutated_h5mota_projects_long_run(data: st.DataObject, tmp_path: Path) -> None:
    _run_h5mota(data, tmp_path)


@pytest.mark.slow
@settings(max_examples=SLOW_EXAMPLES, **SETTINGS)
@given(data=st.data())
def test_mutated_mtai_maps_long_run(data: st.DataObject, tmp_path: Path) -> None:
    _run_mtai(data, tmp_path)
