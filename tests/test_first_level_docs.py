"""The "your first level" walk-throughs (docs/first-*.md) run as written, so that they cannot rot.

Each page is read top to bottom in a fresh folder: a fenced block whose info is "toml NAME" writes the file
NAME (a later block of the same name replaces it, as the reader's editor would); a "console" block holds
commands (`$ twisty ...`, an optional `# exit N` comment giving the exit code) each followed by what it
prints. Printed lines must match the page's exactly, except that `...` inside a line stands for any text (a
time, a file's size) and a line of `...` alone for any number of lines.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

from twisty.cli import main

DOCS = Path(__file__).resolve().parents[1] / "docs"
PAGES = sorted(DOCS.glob("first-*.md"))
FENCE = re.compile(r"^```(\S*)[ \t]*(\S*)[ \t]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)


def steps(page: Path) -> list[tuple[str, str, str]]:
    """("file", name, text) and ("command", line, expected output) in the page's order."""
    found: list[tuple[str, str, str]] = []
    for kind, name, body in FENCE.findall(page.read_text(encoding="utf-8")):
        if kind == "toml" and name:
            found.append(("file", name, body))
        elif kind == "console":
            for chunk in re.split(r"^\$ ", body, flags=re.MULTILINE)[1:]:
                command, _, output = chunk.partition("\n")
                found.append(("command", command, output))
    return found


def matches(expected: str, actual: str) -> bool:
    """Whether the printed text fits the page's (see the module's docstring for `...`)."""
    pattern = []
    for line in expected.rstrip("\n").split("\n"):
        if line == "...":
            pattern.append(r"(?:[^\n]*\n)*?")
        else:
            pattern.append(".*?".join(re.escape(part) for part in line.split("...")) + r"\n")
    return re.fullmatch("".join(pattern), actual.rstrip("\n") + "\n") is not None


def test_every_game_has_a_walk_through_linked_from_the_readme():
    readme = (DOCS.parent / "README.md").read_text(encoding="utf-8")
    assert [page.name for page in PAGES] == [
        "first-fight-tunnels.md",
        "first-level-book.md",
        "first-level-passages.md",
        "first-level-temple.md",
    ]
    assert all(f"docs/{page.name}" in readme for page in PAGES)


@pytest.mark.parametrize("page", PAGES, ids=[page.stem for page in PAGES])
def test_the_walk_through_runs_as_written(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    pytest.importorskip("matplotlib")
    monkeypatch.chdir(tmp_path)
    ran = 0
    for kind, first, second in steps(page):
        if kind == "file":
            (tmp_path / first).write_text(second, encoding="utf-8")
            continue
        words, _, comment = first.partition("#")
        exit_code = int(re.match(r"\s*exit (\d+)", comment).group(1)) if comment else 0
        args = shlex.split(words)
        assert args[0] == "twisty", first
        result = CliRunner().invoke(main, args[1:])
        assert result.exit_code == exit_code, f"{first}\n{result.output}"
        assert matches(second, result.output), f"$ {first}\nthe page says:\n{second}\ntwisty prints:\n{result.output}"
        ran += 1
    assert ran >= 4  # check, a fix checked again, solve, render (or their odds counterparts)


def test_the_matching_is_strict_where_the_page_is():
    assert matches("ok  a: 7 hp  [search, ...s]\n", "ok  a: 7 hp  [search, 0.12s]\n")
    assert not matches("ok  a: 7 hp  [search, ...s]\n", "ok  a: 6 hp  [search, 0.12s]\n")
    assert matches("first\n...\nlast\n", "first\nany\nlines\nlast\n")
    assert not matches("first\nlast\n", "first\nextra\nlast\n")
