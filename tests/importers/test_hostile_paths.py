"""Paths taken from file contents (issue 28, class 1): `twisty import h5mota` turns the floor ids of
main.floorIds into file names (floors/<id>.js to read, <id>.toml to write). Each hostile id, relative,
absolute, encoded or with odd characters, is refused at its place in data.js with exit code 2; a project
file that is a symbolic link out of the project folder (or reached through one) is refused too. Every test
runs in a tree with files outside the project and outside -o, and asserts that nothing outside was read
(every file the run opens is recorded) or written (the tree is compared before and after)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from twisty.cli import main

TOWERS = Path(__file__).resolve().parents[1] / "towers"
MINI = TOWERS / "h5mota-mini" / "project"
PLAIN_RULE = (
    'is not a plain name: a floor id names files (floors/<id>.js, <id>.toml), so it may hold letters, digits, "_", '
    '"-" and "." only (not first, no ".."), at most 120 bytes'
)


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """tmp/outside/ (a valid floor file and a sentinel, where a traversal would read or write),
    tmp/work/project/ (the mini tower) and tmp/work/out/ (the -o folder, not made yet)."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "sentinel.txt").write_text("untouched\n")
    shutil.copy(MINI / "floors" / "F2.js", outside / "escaped.js")
    shutil.copy(MINI / "floors" / "F2.js", tmp_path / "escaped.js")
    shutil.copytree(MINI, tmp_path / "work" / "project")
    return tmp_path


def snapshot(root: Path) -> dict[str, bytes]:
    return {str(path): path.read_bytes() for path in root.rglob("*") if path.is_file() and not path.is_symlink()}


def run_import(tree: Path, monkeypatch: pytest.MonkeyPatch, *extra: str) -> tuple[int, str, list[str]]:
    """Import tree/work/project into tree/work/out; the exit code, the output, and every path opened."""
    opened: list[str] = []
    real_open = os.open

    def recording_open(path, *args, **kwargs):  # noqa: ANN001, ANN202 (os.open's own signature)
        opened.append(os.path.realpath(path))
        return real_open(path, *args, **kwargs)

    monkeypatch.setattr(os, "open", recording_open)
    project, out = tree / "work" / "project", tree / "work" / "out"
    result = CliRunner().invoke(main, ["import", "h5mota", str(project), "-o", str(out), *extra])
    monkeypatch.undo()
    assert "Traceback" not in result.output
    return result.exit_code, result.output, opened


def set_floor_ids(tree: Path, ids: str) -> tuple[Path, str]:
    data = tree / "work" / "project" / "data.js"
    text = data.read_text(encoding="utf-8").replace('"floorIds": ["F1", "F2"]', f'"floorIds": ["F1", {ids}]')
    data.write_text(text, encoding="utf-8")
    return data, text


def position_of(text: str, needle: str) -> str:
    """line:column of `needle` in `text`, worked out by plain string search."""
    offset = text.index(needle)
    line = text.count("\n", 0, offset) + 1
    return f"{line}:{offset - text.rfind(chr(10), 0, offset)}"


def assert_nothing_outside(tree: Path, before: dict[str, bytes], opened: list[str]) -> None:
    """Nothing was written anywhere (the import wrote no level), and no file outside the project was read."""
    assert snapshot(tree) == before
    assert not (tree / "work" / "out").exists()
    project = os.path.realpath(tree / "work" / "project")
    assert all(path.startswith(project + os.sep) for path in opened), opened


@pytest.mark.parametrize(
    ("written", "decoded"),
    [
        ('"../../escaped"', "../../escaped"),  # relative: floors/../../escaped.js, out/../../escaped.toml
        ('"../escaped"', "../escaped"),
        ('"F1/../../../escaped"', "F1/../../../escaped"),
        ('"\\u002e\\u002e/\\u002e\\u002e/escaped"', "../../escaped"),  # JSON escapes decode to ../../
        ('"..%2f..%2fescaped"', "..%2f..%2fescaped"),  # percent-encoded
        ('"..\\\\..\\\\escaped"', "..\\..\\escaped"),  # Windows separators
        ('"．．／escaped"', "．．／escaped"),  # fullwidth dots and solidus  # noqa: RUF001
        ('".."', ".."),
        ('"."', "."),
        ('".hidden"', ".hidden"),
        ('"-rf"', "-rf"),
        ('"F\\u0000"', "F?"),  # NUL
        ('"F\\nG"', "F?G"),
        ('""', ""),
    ],
)
def test_relative_and_encoded_floor_ids_are_refused(tree, monkeypatch, written, decoded):
    data, text = set_floor_ids(tree, written)
    before = snapshot(tree)
    code, output, opened = run_import(tree, monkeypatch)
    assert code == 2
    assert output == f'twisty: {data}:{position_of(text, written)}: the floor id "{decoded}" {PLAIN_RULE}\n'
    assert_nothing_outside(tree, before, opened)


def test_an_absolute_floor_id_is_refused(tree, monkeypatch):
    """An absolute id would read /…/outside/escaped.js and write /…/outside/escaped.toml."""
    absolute = str(tree / "outside" / "escaped")
    written = f'"{absolute}"'
    data, text = set_floor_ids(tree, written)
    before = snapshot(tree)
    code, output, opened = run_import(tree, monkeypatch)
    assert code == 2
    assert output == f'twisty: {data}:{position_of(text, written)}: the floor id "{absolute[:37]}..." {PLAIN_RULE}\n'
    assert_nothing_outside(tree, before, opened)
    assert not (tree / "outside" / "escaped.toml").exists()


def test_other_odd_ids_are_refused(tree, monkeypatch):
    """A non-string id, a repeated id and an id too long for a file name."""
    cases = [
        ("5", "a floor id in main.floorIds must be a string, not 5"),
        ('"F1"', 'the floor id "F1" is listed twice in main.floorIds'),
        ('"' + "M" * 121 + '"', f'the floor id "{"M" * 37}..." {PLAIN_RULE}'),
    ]
    for written, message in cases:
        data, text = set_floor_ids(tree, written)
        code, output, _ = run_import(tree, monkeypatch)
        needle = ", " + written
        line_column = position_of(text, needle)
        line, column = map(int, line_column.split(":"))
        assert code == 2, output
        assert output == f"twisty: {data}:{line}:{column + 2}: {message}\n"
        shutil.copy(MINI / "data.js", data)


def test_a_floor_file_that_links_out_of_the_project_is_refused(tree, monkeypatch):
    floor = tree / "work" / "project" / "floors" / "F2.js"
    floor.unlink()
    floor.symlink_to(tree / "outside" / "escaped.js")
    before = snapshot(tree)
    code, output, opened = run_import(tree, monkeypatch)
    assert code == 2
    root = os.path.realpath(tree / "work" / "project")
    assert output.endswith(
        f"twisty: {floor}: a symbolic link that leads out of the folder {root}; refused: only files inside the "
        "folder named are read\n"
    )
    assert_nothing_outside(tree, before, opened)


def test_a_floors_folder_that_links_out_is_refused(tree, monkeypatch):
    floors = tree / "work" / "project" / "floors"
    shutil.rmtree(floors)
    (tree / "outside" / "floors").mkdir()
    for name in ("F1.js", "F2.js"):
        shutil.copy(MINI / "floors" / name, tree / "outside" / "floors" / name)
    floors.symlink_to(tree / "outside" / "floors")
    before = snapshot(tree)
    code, output, opened = run_import(tree, monkeypatch)
    assert code == 2
    root = os.path.realpath(tree / "work" / "project")
    assert output == (
        f"twisty: {floors / 'F1.js'}: a path that leads (through a symbolic link) out of the folder {root}; "
        "refused: only files inside the folder named are read\n"
    )
    assert_nothing_outside(tree, before, opened)


def test_a_project_subfolder_or_data_file_that_links_out_is_refused(tree, monkeypatch):
    """The tower's folder holds project/, a link to a project elsewhere; or data.js is a link out."""
    tower = tree / "work" / "tower"
    tower.mkdir()
    (tower / "project").symlink_to(tree / "work" / "project")
    out = tree / "work" / "out"
    result = CliRunner().invoke(main, ["import", "h5mota", str(tower), "-o", str(out)])
    assert result.exit_code == 2
    assert result.output == (
        f"twisty: {tower / 'project' / 'data.js'}: a path that leads (through a symbolic link) out of the folder "
        f"{os.path.realpath(tower)}; refused: only files inside the folder named are read\n"
    )
    data = tree / "work" / "project" / "data.js"
    shutil.move(data, tree / "outside" / "data.js")
    data.symlink_to(tree / "outside" / "data.js")
    before = snapshot(tree)
    code, output, opened = run_import(tree, monkeypatch)
    assert code == 2 and output.startswith(f"twisty: {data}: a symbolic link that leads out of the folder")
    assert_nothing_outside(tree, before, opened)


def test_links_inside_the_project_are_read(tree, monkeypatch):
    """A floor file linked to another file inside the project is the project's own: imported."""
    project = tree / "work" / "project"
    shutil.move(project / "floors" / "F2.js", project / "F2-copy.js")
    (project / "floors" / "F2.js").symlink_to(project / "F2-copy.js")
    before = snapshot(tree)
    code, output, opened = run_import(tree, monkeypatch)
    assert code == 0, output
    after = snapshot(tree)
    out = os.path.realpath(tree / "work" / "out")
    assert {path for path in after if path not in before} == {f"{out}/F1.toml", f"{out}/F2.toml"}
    assert all(after[path] == content for path, content in before.items())
    assert all(path.startswith(os.path.realpath(project) + os.sep) for path in opened if not path.startswith(out))
