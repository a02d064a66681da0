"""Property-based hostile input for `twisty complete`: book sketches, shipped and mutated (open cells written
every way, bad codes in their braces, the mutations of the level fuzz: bytes, numbers, nesting, keys, lines),
completed with --timeout. Whatever the bytes, a run ends with exit 0, 1 or 2, one message, no traceback,
within its --timeout plus SLACK (CPU time), and with --json prints exactly one JSON object when it exits 0 or 1.

The default run tries FUZZ_EXAMPLES sketches; `pytest -m slow` runs SLOW_EXAMPLES more.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from tests.commands.test_hostile_fuzz import _mutate
from twisty.cli import main
from twisty.rules.book.contents import CONTENTS

ROOT = Path(__file__).resolve().parents[2]
# The shipped sketches, and a small one that completes within the limit (so that every outcome is met).
SKETCHES = sorted((ROOT / "puzzles" / "book" / "sketches").glob("*.sketch")) + [
    Path(__file__).resolve().parent / "inputs" / "small.sketch"
]
TIMEOUT = 1.0
SLACK = 0.5
FUZZ_EXAMPLES = 200
SLOW_EXAMPLES = 2000
CODES = sorted({content.code for content in CONTENTS.values()} | {".", "Wf", "??", "", "Bs", "Bw", "?"})
CELL = re.compile(r"(?<![\w?{,])(\?\{[^}\s]*\}|\?|##|[A-Za-z0-9.]{1,2})(?=\s|$)", re.M)


def _open_cells(data: st.DataObject, text: str) -> str:
    """Open or close some cells of the pages: `?`, `?{codes}` (some codes bad or empty), or a code."""
    head, marker, pages = text.partition("[pages]")
    if not marker:
        return text
    cells = list(CELL.finditer(pages))
    for _ in range(data.draw(st.integers(0, 6), label="cells changed")):
        if not cells:
            break
        found = cells[data.draw(st.integers(0, len(cells) - 1), label="which cell")]
        choice = data.draw(
            st.one_of(
                st.just("?"),
                st.lists(st.sampled_from(CODES), min_size=0, max_size=4).map(
                    lambda codes: "?{" + ",".join(codes) + "}"
                ),
                st.sampled_from(CODES),
            ),
            label="new cell",
        )
        pages = pages[: found.start()] + choice + pages[found.end() :]
        cells = list(CELL.finditer(pages))
    return head + marker + pages


def _run(data: st.DataObject, tmp_path: Path) -> None:
    seed = data.draw(st.sampled_from(SKETCHES), label="sketch")
    text = _open_cells(data, seed.read_text(encoding="utf-8"))
    if data.draw(st.booleans(), label="mutate"):
        text = _mutate(data, text)
    sketch = tmp_path / "fuzzed.sketch"
    sketch.write_bytes(text.encode("utf-8", "surrogatepass"))
    as_json = data.draw(st.booleans(), label="json")
    args = ["complete", str(sketch), "--timeout", str(TIMEOUT), *(["--json"] if as_json else [])]
    started = time.process_time()  # CPU time: the shared machine's wall clock is noisy
    result = CliRunner().invoke(main, args)
    elapsed = time.process_time() - started
    assert isinstance(result.exception, SystemExit) or result.exception is None, (
        f"{type(result.exception).__name__}: {result.exception}\n{text[:2000]}"
    )
    assert result.exit_code in (0, 1, 2), result.output
    event(f"exit {result.exit_code}")
    assert "Traceback" not in result.output and "internal error" not in result.output, result.output
    if result.exit_code == 2:
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    elif as_json:
        record = json.loads(result.stdout)  # exactly one object
        assert record["status"] in ("completed", "conflict", "unknown")
    assert elapsed <= TIMEOUT + SLACK, f"{elapsed:.2f} s of CPU for\n{text[:2000]}"


@settings(
    max_examples=FUZZ_EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_fuzzed_sketches_end_cleanly(data: st.DataObject, tmp_path: Path) -> None:
    _run(data, tmp_path)


@pytest.mark.slow
@settings(
    max_examples=SLOW_EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(data=st.data())
def test_fuzzed_sketches_end_cleanly_long_run(data: st.DataObject, tmp_path: Path) -> None:
    _run(data, tmp_path)
