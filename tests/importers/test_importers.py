"""The importers on our own towers (tests/towers): magic-tower-AI maps in both tile-code versions and a
small h5mota project, each level's answer worked by hand; the loss report; bad files (a positioned
message, exit 2, never a traceback); safe writing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from twisty.cli import main
from twisty.errors import LevelError
from twisty.importers.h5mota import floor_ranges, import_range, read_project
from twisty.importers.mtai import NEW, OLD, detect_codes, import_mtai
from twisty.solver import passages_reference
from twisty.solver.passages_verdict import Deadline

TOWERS = Path(__file__).resolve().parents[1] / "towers"
MINI = TOWERS / "h5mota-mini"


def best_hp(level) -> int | None:
    return passages_reference.best_route(level, Deadline(30)).final_hp


def mtai(name: str, codes: str | None = None):
    path = TOWERS / name
    return import_mtai(path.read_text(encoding="utf-8"), str(path), codes)


def test_two_floors_in_the_current_codes():
    """Floor 1: the 201 costs 6 (strikes of 4, 3 turns, 2 hits of 3); up the stair, the 202 hits twice a
    round (special 4): strikes of 5, 3 turns, 2 rounds of 2 x (6 - 1) = 20; the boss 299 takes 2 strikes
    and hits once for 3 - 1 = 2. 50 - 6 - 20 - 2 = 22."""
    imported, report = mtai("mtai-two-floors.txt")
    level = imported.level
    assert report.exact
    assert [floor.name for floor in level.floors] == ["1", "2"] and len(level.links) == 1
    assert level.guards and best_hp(level) == 22


def test_the_older_codes_are_recognised():
    """Old codes: 15 yellow key, 81 its door, 18 red potion (+50), 11 red gem (+1 atk), 101 a monster, 199
    the boss. hp 70, atk 6: the 101 costs 5 (2 strikes, 1 hit), the boss 24 (4 strikes, 3 hits of 8): 41."""
    imported, report = mtai("mtai-old-codes.txt")
    assert report.exact and best_hp(imported.level) == 41
    with pytest.raises(LevelError, match=r"no boss \(tile 299\)"):
        mtai("mtai-old-codes.txt", NEW)  # read as current codes, 199 is no boss
    assert detect_codes({0, 1, 15, 81}, {101}) == OLD
    assert detect_codes({0, 1, 27, 81}, {201}) == NEW
    assert detect_codes({0, 1, 81}, set()) is None
    assert detect_codes({0, 27, 15}, set()) is None


def test_the_shop_where_atk_beats_hp():
    """As tests/towers/shop-atk.toml: the goblin pays 25, two atk purchases (10, then 15): the dragon
    leaves 10."""
    imported, report = mtai("mtai-shop.txt")
    assert report.exact and imported.level.shop is not None and best_hp(imported.level) == 10


def test_unknown_tile_codes_are_walls_in_the_report(tmp_path):
    text = (TOWERS / "mtai-two-floors.txt").read_text().replace("0\t0\t201\t0\t87", "0\t7\t201\t0\t87", 1)
    imported, report = import_mtai(text, "t.txt")
    assert not report.exact
    assert report.as_json() == [
        {
            "floor": "1",
            "what": "tile code 7",
            "treated_as": "a wall",
            "count": 1,
            "first": [[0, 1]],
            "places": [[0, 1]],
            "kind": "loss",
        }
    ]
    assert best_hp(imported.level) is None  # the wall cuts the hero off


@pytest.mark.parametrize(
    ("change", "expected"),
    [
        (("50 5 1 0 0 0 0 0 0 0 0", "50 5 1 0 0 0 0 0 0 0 x"), "t.txt:21:22: 'x' is not a whole number"),
        (("50 5 1 0 0 0 0 0 0 0 0", "50 5 1 0 0 0 0 0 0 0"), "t.txt:21:21: the file ends where the hero's column"),
        (("50 5 1 0 0 0 0 0 0 0 0", "50 5 1 0 0 0 0 0 0 0 9"), "t.txt:21:22: the hero's column must lie within 0 to 4"),
        (("50 5 1 0 0 0 0 0 0 0 0", "50 5 1 0 0 0 0 0 0 0 0 3"), "t.txt:21:24: more numbers after the hero's line"),
        (("202 12 6 0 0 4", "202 12 6 0 0 15"), "t.txt:16:14: monster 202's special 15 is not one of"),
        (("3\n201 10 4 1 2 0", "4\n201 10 4 1 2 0\n201 1 1 1 1 0"), "t.txt:16:1: monster 201 is defined twice"),
        (("\n0 0 0 0 0 0\n", "\n0 0 5 0 0 0\n"), "t.txt:19:1: the shop's first purchase costs 0"),
    ],
)
def test_bad_maps_are_positioned(change, expected):
    old, new = change
    text = (TOWERS / "mtai-two-floors.txt").read_text()
    assert old in text
    text = text.replace(old, new)
    with pytest.raises(LevelError) as caught:
        import_mtai(text, "t.txt")
    assert str(caught.value).startswith(expected)


def test_a_shop_line_without_a_shop_cell_is_a_loss_not_an_error():
    """A shop line that sells (+5 hp from 10 gold) on a map with no shop cell (40): the import goes on with no
    shop and says so in the report; the tower's worked answer (22, test_two_floors_in_the_current_codes)
    is unchanged."""
    text = (TOWERS / "mtai-two-floors.txt").read_text().replace("\n0 0 0 0 0 0\n", "\n10 5 5 0 0 0\n")
    imported, report = import_mtai(text, "t.txt")
    assert imported.level.shop is None
    assert report.as_json() == [
        {
            "floor": "",
            "what": "shop line without a shop cell (40) on the map",
            "treated_as": "no shop",
            "count": 1,
            "first": [],
            "places": [],
            "kind": "loss",
        }
    ]
    assert best_hp(imported.level) == 22


def test_h5mota_floors_one_by_one_and_together():
    """F1: the gem (+2 atk), the potion (+50) and the green key are reached at once: hp 150, atk 12; the
    slime (hp 20, atk 12, def 2) takes 2 strikes and hits once for 12 - 5 = 7; the yellow key the hero
    starts with opens the door to the stair up: 143. F2 after F1: the bat (special 4) takes 3 strikes and
    hits twice a round for 2 x (15 - 5): 40, then the green door and the stair up: 103. F2 alone starts
    with the tower's stats and no green key: it cannot be won."""
    project = read_project(MINI)
    assert floor_ranges(project, []) == [["F1"], ["F2"]]
    (first, report_1, _), (second, report_2, _) = (import_range(project, floors) for floors in (["F1"], ["F2"]))
    both, report, _ = import_range(project, ["F1", "F2"])
    assert first is not None and second is not None and both is not None
    assert report_1.exact and not report_2.exact and not report.exact
    assert best_hp(first.level) == 143 and best_hp(both.level) == 103
    assert passages_reference.best_route(second.level, Deadline(30)).status == "unsolvable"
    lost = {(loss["floor"], loss["what"], tuple(map(tuple, loss["first"]))) for loss in report.as_json()}
    assert lost == {
        ("F2", "tool pickaxe", ((3, 2),)),
        ("F2", "special 15 (zone)", ((3, 3),)),
        ("F2", "special door specialDoor", ((3, 4),)),
        ("F2", "NPC with an event", ((3, 1),)),
    }
    notes = {loss["what"] for loss in report_2.as_json() if loss["kind"] == "note"}
    assert notes == {"stair down out of the floors imported", "the floors start above the tower's start (F1)"}


@pytest.fixture
def project(tmp_path) -> Path:
    copy = tmp_path / "tower"
    shutil.copytree(MINI, copy)
    return copy / "project"


@pytest.mark.parametrize(
    ("file", "change", "expected"),
    [
        ("enemys.js", ('"hp": 30,', '"hp": 30,,'), "enemys.js:5:34: not an object literal: stray ','"),
        ("floors/F1.js", ("main.floors.F1=", "main.floors.F1 = function () {"), "F1.js:1:18: expected an assignment"),
        ("data.js", ('"floorIds": ["F1", "F2"]', '"floorIds": []'), "data.js:4:15: data.js has no list of floors"),
        ("floors/F2.js", ('"map": [', '"map": "none", "x": ['), "F2.js:8:12: no map of whole numbers"),
    ],
)
def test_bad_project_files_are_positioned(project, file, change, expected):
    path = project / file
    text = path.read_text(encoding="utf-8")
    assert change[0] in text
    path.write_text(text.replace(change[0], change[1], 1), encoding="utf-8")
    result = CliRunner().invoke(main, ["import", "h5mota", str(project), "-o", str(project.parent / "out")])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert expected in result.output, result.output


def test_import_commands_write_safely_and_report(tmp_path):
    runner = CliRunner()
    target = tmp_path / "two.toml"
    source = str(TOWERS / "mtai-two-floors.txt")
    first = runner.invoke(main, ["import", "mtai", source, "-o", str(target)])
    assert first.exit_code == 0, first.output
    assert "nothing of the tower was lost" in first.output
    again = runner.invoke(main, ["import", "mtai", source, "-o", str(target)])
    assert again.exit_code == 2 and "use --force" in again.output
    forced = runner.invoke(main, ["import", "mtai", source, "-o", str(target), "--force", "--json"])
    assert forced.exit_code == 0 and json.loads(forced.output)["exact"] is True
    checked = runner.invoke(main, ["check", "--json", str(target)])
    assert json.loads(checked.output.splitlines()[0])["final_hp"] == 22
    out = tmp_path / "mini"
    made = runner.invoke(main, ["import", "h5mota", str(MINI), "-o", str(out)])
    assert made.exit_code == 0, made.output
    assert sorted(path.name for path in out.iterdir()) == ["F1.toml", "F2.toml"]
    assert "2 levels written" in made.output and "1 of them import without loss" in made.output
    strict = runner.invoke(main, ["import", "h5mota", str(MINI), "-o", str(tmp_path / "strict"), "--strict"])
    assert strict.exit_code == 2 and "--strict" in strict.output and not (tmp_path / "strict").exists()
    ranged = runner.invoke(main, ["import", "h5mota", str(MINI), "-o", str(out), "--floors", "F1..F2", "--json"])
    assert ranged.exit_code == 0 and json.loads(ranged.output)["floors"] == ["F1", "F2"]
    wrong = runner.invoke(main, ["import", "h5mota", str(MINI), "-o", str(out), "--floors", "F2..F1"])
    assert wrong.exit_code == 2 and "F2 comes after F1" in wrong.output
