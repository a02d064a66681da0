"""The public towers as their players know them (issue 30), when their sources are on this machine: each
floor's every block and event has its fate (tests/towers/census.py reads the JavaScript on its own), and
what the game does where twisty cannot follow is named with what it is, as read by hand from the towers'
own JavaScript (events.js, plugins.js, the floors). Their content is not copied into twisty: set
TWISTY_PUBLIC_TOWERS to a folder holding them (tests/towers/README.md says how to make it); without it
these tests are skipped.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.towers.census import census
from twisty.importers.h5mota import floor_ranges, import_range, read_project
from twisty.importers.mtai import import_mtai
from twisty.rules.passages import Shop
from twisty.solver.passages import analyse
from twisty.solver.passages_verdict import Deadline

PUBLIC = Path(os.environ.get("TWISTY_PUBLIC_TOWERS", "/nonexistent"))
CHESS = PUBLIC / "motaDiffusionChess-e2f5022"
SAMPLE = PUBLIC / "mota-js"
MTAI = PUBLIC / "magic-tower-AI" / "test"
MTAI_OLD = PUBLIC / "magic-tower-AI-8d237fa" / "test"


def _needs(folder: Path) -> None:
    if not folder.is_dir():
        pytest.skip(f"{folder.name} is not in TWISTY_PUBLIC_TOWERS")


def _losses(folder: Path, floor: str) -> dict[str, list[tuple[int, int]]]:
    project = read_project(folder)
    _, report, _ = import_range(project, [floor])
    return {loss.what: loss.places for loss in report.losses.values() if loss.floor == floor and not loss.note}


def test_every_block_and_event_of_the_50_floor_tower_has_its_fate():
    """Floor by floor, each block (the map's tiles, the background and foreground layers) and each event is
    modelled (the level holds what it is at its place) or lost (named at its place); none unaccounted."""
    _needs(CHESS)
    project = read_project(CHESS)
    unaccounted = []
    for floors in floor_ranges(project, []):
        fates, _, _ = census(CHESS, floors)
        assert fates
        unaccounted += [fate for fate in fates if fate.fate.startswith("unaccounted")]
    assert unaccounted == []


def test_the_merchants_and_the_old_man_of_the_50_floor_tower_are_named_with_what_they_do():
    """By hand from the tower's events.js (common events 商人 and 对话, run by plugins.js's triggers "woman"
    and "man"): the merchant of MT6 sells a blue key for 50 gold, of MT7 five yellow keys for 50, of MT31 a
    blue and four yellow keys for 1000; the old man talks and leaves, and sets flag talking to 2, which lets
    the hero through one yellow wall (plugins.js "specialwall"); the white walls open on contact."""
    _needs(CHESS)
    sold = {
        "MT6": "status:money -= 50, item:blueKey += 1",
        "MT7": "status:money -= 50, item:yellowKey += 5",
        "MT31": "status:money -= 1000, item:yellowKey += 4, item:blueKey += 1",
    }
    for floor, goods in sold.items():
        merchants = [what for what in _losses(CHESS, floor) if what.startswith("woman")]
        assert len(merchants) == 1 and f"runs common event 商人: {goods}," in merchants[0]
    old_man = [what for what in _losses(CHESS, "MT6") if what.startswith("man ")]
    assert len(old_man) == 1 and "hides itself, flag:talking = 2" in old_man[0]
    for floor, count in (("MT14", 1), ("MT35", 24)):
        white = [places for what, places in _losses(CHESS, floor).items() if what.startswith("whiteWall")]
        assert [len(places) for places in white] == [count]
        assert any("may open the block" in what for what in _losses(CHESS, floor) if what.startswith("whiteWall"))


def test_the_50_floor_towers_hidden_blocks_are_absent():
    """MT3's demon king (x 5, y 7) and its four guards, MT10's up stair (x 6, y 11) and MT32's knight (x 10,
    y 1) are hidden until a script shows them (`"enable": false` at those places of their floors' events;
    places here are (row, column))."""
    _needs(CHESS)
    assert _losses(CHESS, "MT3")["hidden redKing (shown by a script)"] == [(7, 5)]
    assert len(_losses(CHESS, "MT3")["hidden womanMagician (shown by a script)"]) == 4
    assert _losses(CHESS, "MT10")["hidden upFloor (shown by a script)"] == [(11, 6)]
    assert _losses(CHESS, "MT32")["hidden yellowKnight (shown by a script)"] == [(1, 10)]


def test_the_mota_js_sample_reads_its_shop_and_its_arrows():
    """mota-js's sample tower: shop1 (20 + 2n gold for +800 hp or +4 atk, open from the start) is the
    level's shop; the eight arrows of sample1 (canPass terrain, one way) are floor cells named one-way."""
    _needs(SAMPLE)
    project = read_project(SAMPLE)
    imported, _, _ = import_range(project, ["sample0"])
    assert imported is not None
    assert imported.level.shop == Shop(20, 2, hp=800, atk=4) and imported.level.player.shopping
    arrows = {what: places for what, places in _losses(SAMPLE, "sample1").items() if what.startswith("arrow")}
    assert sum(len(places) for places in arrows.values()) == 8
    assert all("(one way:" in what for what in arrows)


@pytest.mark.slow
@pytest.mark.parametrize(
    ("folder", "name", "status"),
    [
        (MTAI, "单层-最简单", 13),  # magic-tower-AI's own answer: 13
        (MTAI, "宿命的华音", "unsolvable"),  # its "No solution!"
        (MTAI, "无上之光", "unsolvable"),  # its "No solution!"
        (MTAI_OLD, "24层魔塔", "unsolvable"),  # the independent relaxation (every door open)
    ],
)
def test_magic_tower_ais_maps_are_decided_as_their_authors_say(folder, name, status):
    _needs(folder)
    path = folder / f"{name}.txt"
    imported, report = import_mtai(path.read_text(encoding="utf-8"), str(path), name=name)
    assert report.exact
    level = imported.level
    best = analyse(level, Deadline(600), questions=frozenset({"route"})).best
    assert best.proved
    assert (best.final_hp if isinstance(status, int) else best.status) == status
