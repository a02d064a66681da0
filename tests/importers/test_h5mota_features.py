"""The loss report as a promise, on towers of our own (tests/towers/h5mota-features, -mini): every block and
event is modelled exactly or named with its place; hidden blocks are absent; the tower's own triggers,
one-way arrows and scripts are named; canPass terrain and airwalls are read as mota-js reads them; the
standard shop of data.js is the level's shop. The census (tests/towers/census.py) reads the JavaScript on
its own and checks each fate against the level and the report."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pyjson5
import pytest

from tests.towers.census import census
from twisty.importers.h5mota import import_range, read_project
from twisty.importers.h5mota_common import Inserted, OwnTrigger, effects, registered_triggers, trigger_words
from twisty.importers.h5mota_shops import NotAShop, ShopFit, linear_price, read_shops
from twisty.rules.passages import Shop
from twisty.solver import passages_reference, passages_search
from twisty.solver.passages_verdict import Deadline

TOWERS = Path(__file__).resolve().parents[1] / "towers"
FEATURES = TOWERS / "h5mota-features"

# Every loss of F1..F3, by hand from the floor files: (floor, what, places).
SPECIAL_WALL = "trigger specialwall: the tower's own code, which may open the block (openDoor); reads flag talking"
WALL = f"yellowWall ({SPECIAL_WALL})"
FEATURE_LOSSES = {
    ("F1", WALL): 24,
    ("F2", WALL): 22,
    ("F3", WALL): 15,
}
FEATURE_PLACES = {
    # (F1: parseInt("F1".substring(2)) is NaN, no case: the merchant's default price, 30)
    (
        "F1",
        "woman (trigger woman: the tower's own code, which runs common event merchant: status:money -= 30, "
        "item:blueKey += 1, flag:price = 30)",
        ((3, 2),),
    ),
    ("F1", f"whiteWall ({SPECIAL_WALL})", ((3, 4),)),
    ("F2", "hidden demon (shown by a script)", ((1, 4),)),
    ("F2", "arrowDown (one way: no way in from down; no way out to left, right, up)", ((2, 3),)),
    ("F2", "blueWall (trigger fakeWall: the tower's own code, which may open the block (openDoor))", ((3, 4),)),
    # (flag:arg1 is the floor's number, NaN on F3: not case 3's 100 gold)
    (
        "F3",
        "man (trigger man: the tower's own code, which runs common event talk: hides itself, flag:talking = 2)",
        ((2, 1),),
    ),
    ("F3", "special door specialDoor", ((2, 2),)),
}


def _import(folder: Path, floors: list[str]):
    imported, report, why = import_range(read_project(folder), floors)
    assert imported is not None, why
    return imported, report


def test_the_feature_tower_is_imported_and_reported_exactly():
    """F1: the slime (hp 20, atk 15, def 2) takes 3 strikes of 8 and hits twice for 10: 180 hp, 10 money;
    its key opens the door to the stair. F2: the altar (touched from its one open side) opens the shop;
    the hidden demon is absent, so the red gem (+2 atk) is reached; the arrow leads down to the old man,
    who talks and leaves, and the stair. F3: the dragon (hp 40, atk 25, def 8), whose battle wins. Buying
    atk (+2 for 10): atk 14 takes 7 strikes of 6, 6 hits of 20 = 120: 60 left. Buying hp (+50): atk 12
    takes 10 strikes, 9 hits = 180 of 230: 50. So 60. Every wall of this tower carries its own trigger
    (as in the classic 50-floor tower), so every wall is in the report."""
    imported, report = _import(FEATURES, ["F1", "F2", "F3"])
    level = imported.level
    assert level.shop == Shop(10, 5, hp=50, atk=2) and not level.player.shopping
    counted = {(loss.floor, loss.what): loss.count for loss in report.losses.values() if loss.what == WALL}
    assert counted == FEATURE_LOSSES
    others = {(loss.floor, loss.what, tuple(loss.places)) for loss in report.losses.values() if loss.what != WALL}
    assert others == FEATURE_PLACES
    assert all(not loss.note for loss in report.losses.values())
    best = passages_search.best_route(level, Deadline(30))
    assert (best.status, best.final_hp) == ("solvable", 60)
    assert passages_reference.best_route(level, Deadline(30)).final_hp == 60


def test_every_block_and_event_of_our_towers_has_a_fate():
    """The census reads the JavaScript on its own: each block and event is modelled (the level has what it
    is at its place) or lost (named at its place); none is unaccounted."""
    for folder, ranges in ((FEATURES, [["F1", "F2", "F3"], ["F2"]]), (TOWERS / "h5mota-mini", [["F1", "F2"]])):
        for floors in ranges:
            fates, level, _ = census(folder, floors)
            assert level is not None
            assert fates and not [fate for fate in fates if not fate.fate.startswith(("modelled", "lost"))]
    fates, _, _ = census(FEATURES, ["F1", "F2", "F3"])
    modelled = {(fate.floor, fate.place): fate.fate for fate in fates if fate.fate.startswith("modelled")}
    assert modelled[("F2", (0, 3))] == "modelled: shop"  # the altar
    assert modelled[("F2", (3, 2))] == "modelled: floor"  # the old man who talks and leaves
    assert modelled[("F1", (2, 1))] == "modelled: floor"  # canPass flower
    assert modelled[("F2", (2, 5))] == "modelled: wall"  # the airwall of the background layer


def test_a_hidden_block_shown_at_the_start_changes_the_answer(tmp_path):
    """With the demon shown from the start (enable true), it bars the gem: atk 12 at most, and the dragon
    then costs 9 hits of 20 = 180 of 180 (or 380 with hp bought): no win. So the hidden block matters, and
    it is absent in the import."""
    copy = tmp_path / "tower"
    shutil.copytree(FEATURES, copy)
    floor = copy / "project" / "floors" / "F2.js"
    floor.write_text(floor.read_text().replace('"enable": false', '"enable": true'), encoding="utf-8")
    imported, report = _import(copy, ["F1", "F2", "F3"])
    assert not any(loss.what.startswith("hidden") for loss in report.losses.values())
    assert passages_search.best_route(imported.level, Deadline(30)).status == "unsolvable"


def test_a_shop_open_from_the_start_needs_no_altar(tmp_path):
    """mustEnable false (the quick shop of mota-js 2.7+): the hero may buy from the start, and F3 alone
    (the tower's stats, 0 money) still cannot buy; F1..F3 as before gives 60."""
    copy = tmp_path / "tower"
    shutil.copytree(FEATURES, copy)
    data = copy / "project" / "data.js"
    data.write_text(data.read_text().replace('"mustEnable": true', '"mustEnable": false', 1), encoding="utf-8")
    imported, _ = _import(copy, ["F1", "F2", "F3"])
    assert imported.level.player.shopping and "from_start = true" in imported.text
    assert passages_search.best_route(imported.level, Deadline(30)).final_hp == 60
    alone, _ = _import(copy, ["F3"])
    assert alone.level.player.shopping and alone.level.shop == Shop(10, 5, hp=50, atk=2)


def test_an_altar_open_on_two_sides_is_a_wall_in_the_report(tmp_path):
    """An altar block with two open neighbours: as a shop cell the hero could walk through it, which the
    game does not allow; so it is a wall, reported, and the level has no shop."""
    copy = tmp_path / "tower"
    shutil.copytree(FEATURES, copy)
    floor = copy / "project" / "floors" / "F2.js"
    text = floor.read_text().replace("[  1,  1,  1,124,  1,  1,  1],", "[  1,  1,  0,124,  1,  1,  1],")
    floor.write_text(text, encoding="utf-8")
    imported, report = _import(copy, ["F2"])
    assert ("F2", "shop altar open on 2 sides") in report.losses
    assert report.losses[("F2", "shop altar open on 2 sides")].places == [(0, 3)]
    assert imported.level.shop is None


MONEY_CHOICE = {
    "need": "status:money>=25",
    "action": [
        {"type": "setValue", "name": "status:money", "operator": "-=", "value": "25"},
        {"type": "setValue", "name": "flag:s", "operator": "+=", "value": "1"},
        {"type": "setValue", "name": "status:def", "operator": "+=", "value": "3"},
    ],
}


@pytest.mark.parametrize(
    ("shop", "expected"),
    [
        ({"id": "s", "mustEnable": False, "choices": [MONEY_CHOICE]}, ShopFit("s", Shop(25, 0, defense=3), True)),
        (
            {"id": "s", "use": "money", "need": "(2+times)*10", "choices": [{"effect": "status:mdef+=5"}]},
            ShopFit("s", Shop(20, 10, mdef=5), False),
        ),
        ({"id": "s", "use": "experience", "need": "10", "choices": [{"effect": "status:atk+=1"}]}, "takes"),
        ({"id": "s", "use": "money", "need": "20+10*times*(times+1)", "choices": []}, "no choices"),
        (
            {"id": "s", "use": "money", "need": "20+10*times*(times+1)", "choices": [{"effect": "status:atk+=1"}]},
            "grows faster",
        ),
        ({"id": "s", "item": True, "choices": []}, "item shop"),
        ({"id": "s", "commonEvent": "shop", "choices": []}, "common event"),
        (
            {"id": "s", "choices": [{**MONEY_CHOICE, "need": "status:exp>=25"}]},
            "needs status:exp>=25 (not money)",
        ),
        ({"id": "s", "choices": [MONEY_CHOICE, MONEY_CHOICE]}, "two choices of def"),
        (
            {"id": "s", "choices": [{**MONEY_CHOICE, "action": [*MONEY_CHOICE["action"], {"type": "hide"}]}]},
            "runs hide",
        ),
    ],
)
def test_standard_shops_fit_twistys_shop_or_say_why_not(shop, expected):
    found = read_shops([shop])["s"]
    if isinstance(expected, ShopFit):
        assert found == expected
    else:
        assert isinstance(found, str) and expected in found


@pytest.mark.parametrize(
    ("text", "value"),
    [("20+2*flag:s", (20, 2)), ("flag:s*3+7", (7, 3)), ("5*(flag:s+2)", (10, 5)), ("-3+10", (7, 0))],
)
def test_prices_are_read_as_linear_expressions(text, value):
    assert linear_price(text, "flag:s") == value


@pytest.mark.parametrize("text", ["flag:s*flag:s", "core.getFlag('s')", "20/flag:s", "((((((((((((((((((1"])
def test_prices_of_other_forms_are_not_read(text):
    with pytest.raises(NotAShop):
        linear_price(text, "flag:s")


# A merchant written the way towers write one (the classic 50-floor tower's idiom, our own text): the
# floor's number picks the price and the goods.
MERCHANT = [
    {
        "type": "switch",
        "condition": "parseInt(core.status.floorId.substring(2))",
        "caseList": [
            {"case": "6", "action": [{"type": "setValue", "name": "flag:price", "value": "50"}]},
            {"case": "31", "action": [{"type": "setValue", "name": "flag:price", "value": "1000"}]},
        ],
    },
    {
        "type": "choices",
        "choices": [
            {
                "action": [
                    {"type": "setValue", "name": "status:money", "operator": "-=", "value": "flag:price"},
                    {
                        "type": "switch",
                        "condition": "parseInt(core.status.floorId.substring(2))",
                        "caseList": [
                            {"case": "6", "action": [{"type": "addValue", "name": "item:blueKey", "value": "1"}]},
                            {
                                "case": "31",
                                "action": [
                                    {"type": "setValue", "name": "item:yellowKey", "operator": "+=", "value": "4"},
                                    {"type": "setValue", "name": "item:blueKey", "operator": "+=", "value": "1"},
                                ],
                            },
                            {"case": "default", "action": [{"type": "setValue", "name": "flag:odd", "value": "7"}]},
                        ],
                    },
                ]
            },
            {"action": []},
        ],
    },
]


@pytest.mark.parametrize(
    ("floor", "expected"),
    [
        ("MT6", ["status:money -= 50", "item:blueKey += 1", "flag:price = 50"]),
        ("MT31", ["status:money -= 1000", "item:yellowKey += 4", "item:blueKey += 1", "flag:price = 1000"]),
        # no case of its own: the default (no price set, so the price stays the flag's name)
        ("MT7", ["status:money -= flag:price", "flag:odd = 7"]),
        ("F1", ["status:money -= flag:price", "flag:odd = 7"]),  # parseInt("") is NaN: no case matches
    ],
)
def test_a_common_events_effects_are_read_for_its_floor(floor, expected):
    assert effects(MERCHANT, floor) == expected


def test_a_trigger_functions_text_names_its_common_events_and_the_floor_argument():
    code = """
    core.registerSystemEvent("man", function (data, callback) {
        var a = parseInt(core.status.floorId.substring(2));
        core.insertAction([{ "type": "insert", "name": "talk", "args": [a, core.nextX(), 0] }]);
    });
    core.registerSystemEvent('wall', function (data, callback) {
        if (core.getFlag('talking') > 0) core.insertAction({'type': 'openDoor', loc: [data.x, data.y]});
    });
    """
    found = registered_triggers([code])
    assert found["man"] == OwnTrigger((Inserted("talk", frozenset({1})),), (), False)
    assert found["wall"] == OwnTrigger((), ("talking",), True)
    talk = [
        {"type": "switch", "condition": "flag:arg1", "caseList": [{"case": "2", "action": [ADD_MONEY]}]},
        {"type": "setValue", "name": "flag:talking", "value": "2"},
        {"type": "hide", "loc": ["core.nextX()", "core.nextY()"]},
    ]
    assert trigger_words({"talk": talk}, found["man"], "MT2") == (
        "the tower's own code, which runs common event talk: status:money += 1000, hides itself, flag:talking = 2"
    )
    assert trigger_words({"talk": talk}, found["man"], "MT3") == (
        "the tower's own code, which runs common event talk: hides itself, flag:talking = 2"
    )


ADD_MONEY = {"type": "addValue", "name": "status:money", "value": "1000"}


def test_the_feature_tower_in_the_older_project_form_reads_the_same(tmp_path):
    """The same tower as a 2.0-2.6 project: items.js wraps its table in "items", and the altar is the
    older shop form (use money, need "10+5*times", one effect per choice). The level, its answer (60)
    and its losses are those of the 2.8 form."""
    copy = tmp_path / "tower"
    shutil.copytree(FEATURES, copy)
    project = copy / "project"
    items = project / "items.js"
    text = items.read_text(encoding="utf-8")
    items.write_text(text.replace("=\n{", '=\n{"items": {', 1).rstrip() + "}\n", encoding="utf-8")
    data = project / "data.js"
    value = pyjson5.decode(data.read_text(encoding="utf-8").split("=", 1)[1])
    value["firstData"]["shops"][0] = {
        "id": "altar",
        "name": "Altar",
        "use": "money",
        "need": "10+5*times",
        "mustEnable": True,
        "choices": [{"text": "hp +50", "effect": "status:hp+=50"}, {"text": "atk +2", "effect": "status:atk+=2"}],
    }
    data.write_text("var data_older_form =\n" + json.dumps(value, ensure_ascii=False), encoding="utf-8")
    older, older_report = _import(copy, ["F1", "F2", "F3"])
    newer, newer_report = _import(FEATURES, ["F1", "F2", "F3"])
    assert older.level == newer.level
    assert [(loss.floor, loss.what, loss.places) for loss in older_report.losses.values()] == [
        (loss.floor, loss.what, loss.places) for loss in newer_report.losses.values()
    ]
    assert passages_search.best_route(older.level, Deadline(30)).final_hp == 60
