"""`twisty export h5mota` and `twisty export mtai` on the command line: the files written and read back, safe
writing (--force, symbolic links, nothing written when a level is refused), --json, --timeout, and bad input
(one message with the file and the place, exit 2, never a traceback)."""

from __future__ import annotations

import json
import os

from click.testing import CliRunner

from tests.exporters.roundtrip import PUZZLES
from twisty.cli import main

TWO_EXITS = PUZZLES / "14-two-exits.toml"
FIRST_BLOOD = PUZZLES / "01-first-blood.toml"
ARMOURY = PUZZLES / "13-armoury-maze.toml"  # (an item of atk and def: no magic-tower-AI map)
BOOK = PUZZLES.parents[0] / "book" / "tutorial.toml"


def run(*args: str):
    result = CliRunner().invoke(main, list(args))
    assert "Traceback" not in result.output
    return result


def test_an_exported_project_imports_back_with_the_command_it_names(tmp_path):
    project = tmp_path / "project"
    result = run("export", "h5mota", str(TWO_EXITS), "-o", str(project))
    assert result.exit_code == 0, result.output
    assert f"import back: twisty import h5mota {project} --floors MT1..MT1 -o DIR" in result.output
    assert sorted(path.name for path in project.rglob("*.js")) == sorted(
        ["data.js", "enemys.js", "items.js", "maps.js", "icons.js", "MT1.js", "exit.js"]
    )
    back = run("import", "h5mota", str(project), "--floors", "MT1..MT1", "-o", str(tmp_path / "levels"))
    assert back.exit_code == 0, back.output
    assert "nothing of the tower was lost" in back.output
    checked = run("check", str(tmp_path / "levels" / "MT1.toml"), "--json")
    verdict = json.loads(checked.output.splitlines()[0])
    assert (verdict["final_hp"], verdict["min_start_hp"]) == (6, 5)  # the level's own [expect]


def test_nothing_is_replaced_without_force_nor_written_through_a_link(tmp_path):
    project = tmp_path / "project"
    assert run("export", "h5mota", str(TWO_EXITS), "-o", str(project)).exit_code == 0
    before = (project / "data.js").read_bytes()
    again = run("export", "h5mota", str(FIRST_BLOOD), "-o", str(project))
    assert again.exit_code == 2
    assert "data.js already exists" in again.output and "--force" in again.output
    assert (project / "data.js").read_bytes() == before
    assert run("export", "h5mota", str(FIRST_BLOOD), "-o", str(project), "--force").exit_code == 0
    assert (project / "data.js").read_bytes() != before
    elsewhere = tmp_path / "elsewhere.js"
    elsewhere.write_text("kept", encoding="utf-8")
    (project / "maps.js").unlink()
    (project / "maps.js").symlink_to(elsewhere)
    linked = run("export", "h5mota", str(FIRST_BLOOD), "-o", str(project), "--force")
    assert linked.exit_code == 2 and "symbolic link" in linked.output
    assert elsewhere.read_text(encoding="utf-8") == "kept"
    (tmp_path / "real").mkdir()
    (tmp_path / "link").symlink_to(tmp_path / "real")
    folder = run("export", "h5mota", str(FIRST_BLOOD), "-o", str(tmp_path / "link"))
    assert folder.exit_code == 2 and "symbolic link" in folder.output
    assert not list((tmp_path / "real").iterdir())


def test_several_levels_make_a_project_each_and_json_names_them(tmp_path):
    result = run("export", "h5mota", str(TWO_EXITS), str(FIRST_BLOOD), "-o", str(tmp_path / "out"), "--json")
    assert result.exit_code == 0, result.output
    lines = [json.loads(line) for line in result.output.splitlines()]
    assert [line["written"] for line in lines] == [
        str(tmp_path / "out" / "14-two-exits"),
        str(tmp_path / "out" / "01-first-blood"),
    ]
    assert lines[0]["floors"] == ["MT1"] and lines[0]["exit_floor"] is True and "floors/exit.js" in lines[0]["files"]
    assert (tmp_path / "out" / "01-first-blood" / "floors" / "MT1.js").is_file()
    twice = run("export", "h5mota", str(TWO_EXITS), str(TWO_EXITS), "-o", str(tmp_path / "again"))
    assert twice.exit_code == 2 and "two levels named 14-two-exits" in twice.output


def test_a_refused_level_writes_nothing(tmp_path):
    """The second level cannot be exported: the first is not written either."""
    level = tmp_path / "drain.toml"
    level.write_text(
        'game = "passages"\nmap = """\n#Sv.G#\n"""\n[player]\nhp = 100\natk = 5\n[legend]\n'
        'v = { kind = "enemy", hp = 5, atk = 9, def = 0, specials = [11], drain = 0.29 }\n',
        encoding="utf-8",
    )
    result = run("export", "h5mota", str(TWO_EXITS), str(level), "-o", str(tmp_path / "out"))
    assert result.exit_code == 2
    assert result.output.startswith(f"twisty: {level}:9:1: cannot be exported to h5mota: the strength 0.29")
    assert not (tmp_path / "out").exists()
    mtai = run("export", "mtai", str(ARMOURY), "-o", str(tmp_path / "map.txt"))
    assert mtai.exit_code == 2 and "cannot be exported to magic-tower-AI" in mtai.output
    assert not (tmp_path / "map.txt").exists()


def test_export_mtai_writes_safely(tmp_path):
    target = tmp_path / "map.txt"
    result = run("export", "mtai", str(TWO_EXITS), "-o", str(target), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {"floors": 1, "format": "mtai", "level": str(TWO_EXITS), "written": str(target)}
    first = target.read_text(encoding="utf-8")
    assert first.startswith("1\n3 11\n")
    again = run("export", "mtai", str(FIRST_BLOOD), "-o", str(target))
    assert again.exit_code == 2 and "already exists" in again.output
    assert target.read_text(encoding="utf-8") == first
    assert run("export", "mtai", str(FIRST_BLOOD), "-o", str(target), "--force").exit_code == 0
    back = run("import", "mtai", str(target), "-o", str(tmp_path / "back.toml"))
    assert back.exit_code == 0 and "nothing of the tower was lost" in back.output


def test_bad_input_is_one_message(tmp_path):
    broken = tmp_path / "broken.toml"
    broken.write_text('game = "passages"\nmap = """\n#SxG#\n"""\n[player]\nhp = 5\n', encoding="utf-8")
    for form, out in (("h5mota", tmp_path / "p"), ("mtai", tmp_path / "m.txt")):
        result = run("export", form, str(broken), "-o", str(out))
        assert result.exit_code == 2
        assert result.output.startswith(f"twisty: {broken}:3:3: unknown map character")
        book = run("export", form, str(BOOK), "-o", str(out))
        assert book.exit_code == 2 and "only passages levels" in book.output
        missing = run("export", form, str(tmp_path / "none.toml"), "-o", str(out))
        assert missing.exit_code == 2 and len(missing.output.strip().splitlines()) == 1


def test_a_level_that_is_no_regular_file_and_a_map_behind_a_link_are_refused(tmp_path):
    """A FIFO named as the level is refused at once (never read, which would wait for a writer), and
    --force does not write a map through a symbolic link."""
    fifo = tmp_path / "level.toml"
    os.mkfifo(fifo)
    for form, out in (("h5mota", tmp_path / "p"), ("mtai", tmp_path / "m.txt")):
        result = run("export", form, str(fifo), "-o", str(out))
        assert result.exit_code == 2 and "FIFO" in result.output and not out.exists()
    link = tmp_path / "map.txt"
    link.symlink_to(tmp_path / "elsewhere.txt")
    linked = run("export", "mtai", str(TWO_EXITS), "-o", str(link), "--force")
    assert linked.exit_code == 2 and "symbolic link" in linked.output
    assert not (tmp_path / "elsewhere.txt").exists()


def test_a_time_limit_writes_nothing(tmp_path):
    result = run("export", "h5mota", str(TWO_EXITS), "-o", str(tmp_path / "p"), "--timeout", "0.000001")
    assert result.exit_code == 1
    assert "unknown: time limit reached while exporting" in result.output and "nothing written" in result.output
    assert not (tmp_path / "p").exists()
    result = run("export", "mtai", str(TWO_EXITS), "-o", str(tmp_path / "m.txt"), "--timeout", "0.000001")
    assert result.exit_code == 1 and not (tmp_path / "m.txt").exists()
    assert run("export", "mtai", str(TWO_EXITS), "-o", str(tmp_path / "m.txt"), "--timeout", "0").exit_code == 2


def test_help_names_both_formats():
    result = run("export", "--help")
    assert result.exit_code == 0 and "h5mota" in result.output and "mtai" in result.output
