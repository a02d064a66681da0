"""Exported towers played by mota-js itself: the engine, replaying twisty's best route as a player's moves
(tests/exporters/engine_play.py), must win with exactly the life twisty claims, for every solvable shipped
level and the random levels of the round trips.

Runs only where a copy of ckcz123/mota-js is named by TWISTY_MOTA_JS and Chromium is installed (it starts a
browser per level, a few seconds each): `TWISTY_MOTA_JS=~/mota-js pytest tests/exporters/test_engine_play.py`.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.exporters.engine_play import Engine, moves
from tests.exporters.roundtrip import SHIPPED, load, random_level, source_of
from twisty.api import solve
from twisty.exporters.h5mota import export_h5mota
from twisty.rules.source import read_level

MOTA_JS = os.environ.get("TWISTY_MOTA_JS")
BROWSER = next(
    (found for name in ("chromium", "chromium-browser", "google-chrome") if (found := shutil.which(name))), None
)
pytestmark = pytest.mark.skipif(
    not (MOTA_JS and BROWSER), reason="needs a copy of mota-js (TWISTY_MOTA_JS) and Chromium"
)


@pytest.fixture(scope="module")
def engine():
    assert MOTA_JS is not None and BROWSER is not None
    running = Engine(Path(MOTA_JS).expanduser(), BROWSER)
    yield running
    running.close()


def _play(engine: Engine, text: bytes, source, name: str) -> None:
    level = load(source)
    verdict = solve(text, questions=["route"])
    if verdict.route is None:
        pytest.skip("unsolvable: no route to play")
    assert engine.play(export_h5mota(level, source, name), moves(level, verdict.route)) == f"WIN {verdict.final_hp}"


@pytest.mark.parametrize("path", SHIPPED, ids=lambda path: path.name)
def test_mota_js_plays_the_shipped_levels_as_twisty_says(engine, path):
    _play(engine, path.read_bytes(), read_level(path), str(path))


@pytest.mark.parametrize("number", range(100))
def test_mota_js_plays_the_random_levels_as_twisty_says(engine, number):
    name, text = random_level(number)
    _play(engine, text.encode(), source_of(text, f"{name}.toml"), name)
