"""`twisty render` within one deadline (issue 28, class 3), the walk it draws between a route's steps, and
what --json and --spread all write.

`render --route --timeout 2` of a 120x120 map took 36 s, spent on the route's cells. Every step now shares
the deadline: the walk between steps is worked out in a fraction of a second and polls the deadline, and a
drawing still going DRAWING_GRACE after it is stopped. The deadline test measures CPU time (the shared
machine's wall clock is noisy) against the limit plus 0.5 s, and the wall clock against the limit plus the
grace plus a stated slack.
"""

from __future__ import annotations

import gc
import json
import time
from collections import deque
from pathlib import Path
from xml.etree import ElementTree

import pytest
from click.testing import CliRunner

pytest.importorskip("matplotlib", reason="pictures need matplotlib: pip install 'twisty[pictures]'")

import twisty
from tests.big_levels import serpentine
from twisty.cli import main
from twisty.render.passages import route_legs
from twisty.render.pictures import DRAWING_GRACE
from twisty.rules.passages import neighbours, reachable_cells

ROOT = Path(__file__).resolve().parents[2]
SVG = "{http://www.w3.org/2000/svg}"
# Wall-clock seconds on top of the limit and the grace, for a machine shared with other work.
SLACK = 2.0


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def winding(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("big") / "winding.toml"
    path.write_text(serpentine(120), encoding="utf-8")
    return path


@pytest.mark.parametrize("limit", [2.0, 0.5])
def test_render_of_a_120x120_route_keeps_to_its_deadline(winding: Path, tmp_path: Path, limit: float) -> None:
    output = tmp_path / "winding.png"
    twisty.load(winding)  # the reading of the file is in the deadline; the imports of the first use are not
    # The CPU time of this thread, where the command runs: threads that other tests left in this process
    # (a Dask client's, say) do not count.
    # The objects earlier tests left in this process are set aside from the collector: a full collection
    # over the whole test session's heap is not the command's work (a `twisty render` process has only its own).
    gc.collect()
    gc.freeze()
    try:
        cpu, wall = time.thread_time(), time.perf_counter()
        result = run("render", str(winding), "--route", "--timeout", str(limit), "-o", str(output))
        cpu, wall = time.thread_time() - cpu, time.perf_counter() - wall
    finally:
        gc.unfreeze()
    assert cpu <= limit + 0.5, cpu
    assert wall <= limit + DRAWING_GRACE + SLACK, wall
    assert result.exit_code in (0, 1), result.output
    if result.exit_code == 0:
        assert output.stat().st_size > 10_000
    else:  # the time ran out: said so, and no half picture
        assert "time limit" in result.output
        assert not output.exists() or "drawn without it" in result.output or "shows it" in result.output


def test_render_json_says_what_was_written(winding: Path, tmp_path: Path) -> None:
    output = tmp_path / "winding.svg"
    result = run("render", str(winding), "--route", "--json", "--timeout", "600", "-o", str(output))
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert record["output"] == str(output) and record["format"] == "svg" and record["game"] == "passages"
    assert record["bytes"] == output.stat().st_size
    assert record["answer"] == "route" and record["answer_drawn"] is True and record["cut"] is None
    root = ElementTree.fromstring(output.read_text(encoding="utf-8"))
    steps = [group for group in root.iter(f"{SVG}g") if (group.get("id") or "").startswith("step-")]
    verdict = twisty.check(twisty.load(winding), questions=["route"], timeout=600)
    assert len(steps) == len(verdict.route.steps) == 235  # 234 things on the way, then the goal
    width = float(root.get("width", "0pt").removesuffix("pt")) / 72
    assert abs(width - record["width_inches"]) < 0.02


def test_a_whole_book_is_drawn_spread_by_spread(tmp_path: Path) -> None:
    book = ROOT / "puzzles" / "book" / "tutorial.toml"
    output = tmp_path / "book.svg"
    result = run("render", str(book), "--walk", "--spread", "all", "-o", str(output))
    assert result.exit_code == 0, result.output
    root = ElementTree.fromstring(output.read_text(encoding="utf-8"))
    cells = [group.get("id") for group in root.iter(f"{SVG}g") if (group.get("id") or "").startswith("cell-")]
    model = twisty.load(book).model
    assert len(cells) == len(model.shape.pages) * model.shape.page_size == 41 * 42
    assert run("render", str(book), "--spread", "everything", "-o", str(output)).exit_code == 2


def _bfs_length(level, open_cells: set, start, target) -> int:
    """The baseline: moves of a shortest walk by breadth-first search over the cells open at that point."""
    seen = {start: 0}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        if cell == target:
            return seen[cell]
        for nxt in neighbours(cell):
            if nxt not in seen and (nxt in open_cells or nxt == target):
                seen[nxt] = seen[cell] + 1
                queue.append(nxt)
    raise AssertionError("no walk")


@pytest.mark.parametrize("path", sorted((ROOT / "puzzles" / "passages").rglob("*.toml")), ids=lambda path: path.stem)
def test_each_leg_is_a_shortest_walk_through_the_cells_open_then(path: Path) -> None:
    """Against a plain breadth-first search over the rules' reachable cells, recomputed at every step: the
    leg goes from the cell of the step before to the step's cell, cell by neighbouring cell, through cells
    open at that point, in as few moves as the search finds."""
    level = twisty.load(path)
    model = level.model
    route = twisty.check(level, questions=["route"], timeout=120).route
    if route is None:
        pytest.skip("unsolvable: no route to draw")
    consumed: set[int] = set()
    position = model.start
    for step, leg in zip(route.steps, route_legs(model, route), strict=True):
        if step.action == "buy":
            assert leg == []
            continue
        open_cells = reachable_cells(model, frozenset(consumed))
        assert leg[0] == position and leg[-1] == step.at
        assert all(b in set(neighbours(a)) for a, b in zip(leg, leg[1:], strict=False))
        assert all(cell in open_cells for cell in leg[1:-1])
        assert len(leg) - 1 == _bfs_length(model, open_cells, position, step.at)
        position = step.at
        if step.action in ("open", "fight") or (
            step.action == "take" and model.things[model.thing_at[step.at]].optional
        ):
            consumed.add(model.thing_at[step.at])
