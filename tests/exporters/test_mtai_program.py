"""Exported maps answered by magic-tower-AI's own program: its Java search (AI/src, compiled here) reads each
exported shipped level that fits and must give twisty's answer, the same final life or "No solution!".

magic-tower-AI's search differs from the rules twisty proves in known ways and is not exact (docs/mota.md);
these levels meet none of the ways (no shop, no green door, fewer than 45 fights and doors, no counter),
and on them its search finds twisty's optimum. Runs only
where a copy of ckcz123/magic-tower-AI is named by TWISTY_MAGIC_TOWER_AI and a Java compiler is installed:
`TWISTY_MAGIC_TOWER_AI=~/magic-tower-AI pytest tests/exporters/test_mtai_program.py`.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.exporters.roundtrip import SHIPPED, load
from tests.exporters.test_round_trip import mtai_holds
from twisty.api import check
from twisty.exporters.mtai import export_mtai
from twisty.rules.source import read_level

PROGRAM = os.environ.get("TWISTY_MAGIC_TOWER_AI")
pytestmark = pytest.mark.skipif(
    not (PROGRAM and shutil.which("javac") and shutil.which("java")),
    reason="needs a copy of magic-tower-AI (TWISTY_MAGIC_TOWER_AI) and Java",
)
FITTING = [path for path in SHIPPED if mtai_holds(load(read_level(path)))]


@pytest.fixture(scope="module")
def compiled(tmp_path_factory) -> Path:
    assert PROGRAM is not None
    folder = tmp_path_factory.mktemp("magic-tower-ai")
    for source in (Path(PROGRAM).expanduser() / "AI" / "src").glob("*.java"):
        shutil.copy(source, folder)
    subprocess.run(["javac", *sorted(path.name for path in folder.glob("*.java"))], cwd=folder, check=True)
    return folder


@pytest.mark.parametrize("path", FITTING, ids=lambda path: path.name)
def test_magic_tower_ai_answers_the_exported_maps_as_twisty_does(compiled, path):
    source = read_level(path)
    text = export_mtai(load(source), source, str(path))
    printed = subprocess.run(
        ["java", "Main"], input=text, capture_output=True, text=True, cwd=compiled, timeout=600, check=True
    ).stdout
    after = printed.split("BFS FINISHED")[1]
    verdict = check(path)
    if verdict.final_hp is None:
        assert "No solution!" in after
    else:
        # its route, one line a node with the hero after it: "(f,r,c) -- Hero: (hp,atk,...)"
        assert re.findall(r"Hero: \((-?\d+),", after)[-1] == str(verdict.final_hp)
