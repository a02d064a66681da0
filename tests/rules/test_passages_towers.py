"""Towers in the rules: each monster special against the damage formula worked by hand, magic defence,
money, keys of four colours, floors joined by stairs, shops and the boss whose defeat wins."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction
from pathlib import Path

import pytest

from twisty.errors import LevelError
from twisty.rules.passages import (
    PURCHASES,
    RouteError,
    Shop,
    Stats,
    Thing,
    TowerStats,
    buy,
    consume_blocker,
    fight_damage,
    replay,
)
from twisty.rules.passages_combat import Enemy
from twisty.rules.passages_format import load_passages
from twisty.rules.passages_tower import GAIN_SAFE, MONOTONE, UNSAFE, stat_classes, tower_start_hp_upper_bound
from twisty.rules.passages_writer import level_text
from twisty.rules.source import parse_level_bytes
from twisty.solver import passages_reference
from twisty.solver.passages_verdict import Deadline

TOWERS = Path(__file__).resolve().parents[1] / "towers"

# The monster of every hand computation below: hp 20, atk 10, def 2. Against hero atk 7, def 4: each of the
# hero's strikes takes 7 - 2 = 5, so turns = ceil(20 / 5) = 4; each of its hits takes 10 - 4 = 6; without
# specials the hero takes turns - 1 = 3 hits: 18.
MONSTER = Enemy("monster", 20, 10, 2)


def special(*specials: int, **fields) -> Enemy:
    return Enemy("monster", 20, 10, 2, first_strike=1 in specials, specials=frozenset(specials) - {1}, **fields)


def test_without_specials_and_mdef_the_formula_is_the_rulebooks():
    assert fight_damage(MONSTER, 7, 4) == 18
    assert fight_damage(special(4), 7, 4, 0, 0) == 36  # (the tower path gives the rulebook's numbers)
    for atk in range(3, 30):
        for defense in range(0, 12):
            plain = fight_damage(MONSTER, atk, defense)
            assert fight_damage(Enemy("monster", 20, 10, 2, specials=frozenset({22})), atk, defense) == plain


@pytest.mark.parametrize(
    ("enemy", "atk", "defense", "mdef", "hp", "expected"),
    [
        # 1 first strike: init += per = 6; 6 + 3 x 6.
        (special(1), 7, 4, 0, 100, 24),
        # 2 magic attack: per = mon_atk = 10 (def ignored); 3 x 10.
        (special(2), 7, 4, 0, 100, 30),
        # 3 sturdy: its def is raised to atk - 1 = 6, so each strike takes 1: 20 turns, 19 x 6.
        (special(3), 7, 4, 0, 100, 114),
        # 4 / 5 / 6: per x 2, x 3, x n (4 by default, 3 here).
        (special(4), 7, 4, 0, 100, 36),
        (special(5), 7, 4, 0, 100, 54),
        (special(6), 7, 4, 0, 100, 72),
        (special(6, hits_per_round=3), 7, 4, 0, 100, 54),
        # 7 break armour: init += floor(0.9 x def 4) = 3; 3 + 18.
        (special(7), 7, 4, 0, 100, 21),
        # 8 counter at atk 12: 10 a strike, 2 turns; per 6, counter floor(0.1 x 12) = 1 a turn: 6 + 2 x 1.
        (special(8), 12, 4, 0, 100, 8),
        # mdef 2 alone: 18 - 2.
        (MONSTER, 7, 4, 2, 100, 16),
        # 9 purify with mdef 2: init += 3 x 2 = 6; 6 + 18 - 2.
        (special(9), 7, 4, 2, 100, 22),
        # 10 mimic at atk 9, def 4: its atk and def are the hero's, so a strike takes 9 - 4 = 5 (4 turns)
        # and a hit 9 - 4 = 5: 3 x 5 (the rulebook's monster would cost 2 x 6 = 12 there).
        (special(10), 9, 4, 0, 100, 15),
        # 11 drain 1/4 at 100 hp: init += floor(100 / 4) = 25; 25 + 18; at 7 hp floor(7 / 4) = 1.
        (special(11, drain=Fraction(1, 4)), 7, 4, 0, 100, 43),
        (special(11, drain=Fraction(1, 4)), 7, 4, 0, 7, 19),
        # 22 fixed damage 50: 18 + 50, added after the floor at 0 (mdef 100 leaves 0 + 50).
        (special(22, fixed_damage=50), 7, 4, 0, 100, 68),
        (special(22, fixed_damage=50), 7, 4, 100, 100, 50),
        # mdef above the damage: max(18 - 100, 0).
        (MONSTER, 7, 4, 100, 100, 0),
        # 4 and 1 together: per 12, init 12; 12 + 3 x 12.
        (special(1, 4), 7, 4, 0, 100, 48),
        # break armour with a custom factor 1/2: floor(4 / 2) = 2; 2 + 18.
        (special(7, break_armour=Fraction(1, 2)), 7, 4, 0, 100, 20),
    ],
)
def test_each_special_against_the_formula_by_hand(enemy, atk, defense, mdef, hp, expected):
    assert fight_damage(enemy, atk, defense, mdef, hp) == expected


def test_fights_that_cannot_be_won():
    """ "hit = max(hero_atk - mon_def, 0); if hit == 0: cannot fight"."""
    assert fight_damage(MONSTER, 2, 0) is None
    assert fight_damage(special(3), 2, 0, 0, 100) is None  # sturdy raises no def below its own 2
    assert fight_damage(special(10), 5, 5, 0, 100) is None  # mimic: its def is the hero's 5


def test_a_fight_needs_the_damage_below_the_life():
    """ "A fight is possible only when damage < hero hp (the hero must survive with at least 1 hp)"."""
    thing = Thing("enemy", "e", (0, 0), enemy=special(2))
    assert consume_blocker(thing, Stats(30, 7, 4)) is None
    after = consume_blocker(thing, Stats(31, 7, 4))
    assert after is not None and after[0].hp == 1 and after[1] == 30


def test_money_is_gained_and_doors_take_keys_of_their_colour():
    enemy = Thing("enemy", "e", (0, 0), enemy=Enemy("rich", 5, 0, 0, money=7))
    after = consume_blocker(enemy, TowerStats(10, 5, 0, money=3))
    assert after is not None and after[0].money == 10
    green = Thing("door", "D", (0, 0), colour="green")
    assert consume_blocker(green, TowerStats(10, coloured=(1, 1, 1, 0))) is None
    opened = consume_blocker(green, TowerStats(10, coloured=(0, 0, 0, 2)))
    assert opened is not None and opened[0].coloured == (0, 0, 0, 1)
    plain = Thing("door", "D", (0, 0))
    assert consume_blocker(plain, TowerStats(10, keys=0, coloured=(1, 1, 1, 1))) is None


def test_purchases_cost_start_plus_delta_times_the_purchases_so_far():
    shop = Shop(10, 5, hp=100, atk=2)
    stats = TowerStats(50, 10, 0, money=40, shopping=True)
    bought = []
    while True:
        after = buy(shop, stats, PURCHASES.index("atk"))
        if after is None:
            break
        bought.append(stats.money - after.money)
        stats = after
    assert bought == [10, 15]  # a third would cost 20 with 15 left
    assert stats.atk == 14 and stats.money == 15 and stats.purchases == 2
    assert buy(shop, stats, PURCHASES.index("def")) is None  # nothing of that kind on offer
    assert buy(shop, TowerStats(50, money=99), 0) is None  # no shop visited yet


def test_item_classes_follow_the_specials_on_the_map():
    plain = load(TOWERS / "green-key.toml")
    assert stat_classes(plain) == {"atk": MONOTONE, "def": MONOTONE, "mdef": MONOTONE}
    harmful = load(TOWERS / "break-armour-gem.toml")
    classes = stat_classes(harmful)
    assert classes["def"] == UNSAFE and classes["atk"] == MONOTONE
    assert [thing.optional for thing in harmful.things if thing.kind == "equipment"] == [True]
    # The same monster when every hero it meets still takes a hit: a def gem never costs more.
    safe = load(TOWERS / "break-armour-gem.toml", {"hp = 12, atk = 30": "hp = 60, atk = 30"})
    assert stat_classes(safe)["def"] == GAIN_SAFE
    assert not any(thing.optional for thing in safe.things)


def load(path: Path, replacements: dict[str, str] | None = None):
    text = path.read_text(encoding="utf-8")
    for old, new in (replacements or {}).items():
        assert old in text
        text = text.replace(old, new)
    return load_passages(parse_level_bytes(text.encode(), str(path)))


def test_the_start_hp_bound_survives_every_fight():
    level = load(TOWERS / "specials.toml")
    bound = tower_start_hp_upper_bound(level)
    assert passages_reference.best_route(level.with_start_hp(bound), Deadline(30)).status == "solvable"


def test_stairs_join_floors_and_the_route_names_them():
    level = load(TOWERS / "two-floors.toml")
    assert [floor.name for floor in level.floors] == ["ground", "top"]
    assert len(level.links) == 1
    route = replay(level, [("fight", 0), ("goal", 0)])
    assert [step.action for step in route.steps] == ["fight", "goal"]
    assert level.floor_of(route.steps[-1].at)[0] == "top"


def test_a_boss_fight_ends_the_route_and_scores_its_hp():
    level = load(TOWERS / "shop-atk.toml")
    route = replay(level, [("fight", 0), ("buy", 1), ("buy", 1), ("goal", 0)])
    assert route.final_hp == 10 and [step.action for step in route.steps][-2:] == ["fight", "goal"]
    with pytest.raises(RouteError, match="cannot be defeated"):
        replay(level, [("fight", 0), ("buy", 0), ("buy", 0), ("goal", 0)])


@pytest.mark.parametrize("name", sorted(path.name for path in TOWERS.glob("*.toml")))
def test_written_towers_read_back_the_same(name):
    level = load(TOWERS / name)
    again = load_passages(parse_level_bytes(level_text(level).encode(), "again.toml"))
    # (the writer hands out its own legend characters)
    assert [replace(thing, symbol="") for thing in again.things] == [
        replace(thing, symbol="") for thing in level.things
    ]
    assert (again.player, again.floors, again.links, again.shop, again.guards, again.goals) == (
        level.player,
        level.floors,
        level.links,
        level.shop,
        level.guards,
        level.goals,
    )


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("specials = [2]", "specials = [15]"), "special 15 is not one twisty models"),
        (("specials = [2]", "specials = [2], drain = 0.5"), "drain belongs to special 11"),
        (("specials = [2]", 'specials = "2"'), "specials must be a list"),
        (('colour = "green"', 'colour = "purple"'), "colour must be one of yellow, blue, red, green"),
        (('direction = "up"', 'direction = "sideways"'), 'stairs need direction = "up" or "down"'),
        (("start = 10", "start = 0"), "shop start must be at least 1"),
        (('win = "boss"', 'win = "treasure"'), '"win" must be "goal"'),
        (("from_start = true", 'from_start = "yes"'), "from_start must be true or false"),
        (("from_start = true", "from_start = false"), "needs a shop cell on the map"),
    ],
)
def test_tower_fields_have_positioned_errors(change, message):
    old, new = change
    for path in sorted(TOWERS.glob("*.toml")):
        text = path.read_text(encoding="utf-8")
        if old in text:
            with pytest.raises(LevelError) as caught:
                load_passages(parse_level_bytes(text.replace(old, new, 1).encode(), "t.toml"))
            assert message in str(caught.value)
            assert caught.value.line is not None, str(caught.value)
            return
    raise AssertionError(f"no tower holds {old!r}")


def test_stairs_without_a_floor_to_meet_are_errors():
    text = (TOWERS / "two-floors.toml").read_text(encoding="utf-8")
    broken = text.replace('d = { kind = "stairs", direction = "down" }', 'd = { kind = "elixir", hp = 1 }')
    with pytest.raises(LevelError, match="which has no down stair to meet it") as caught:
        load_passages(parse_level_bytes(broken.encode(), "t.toml"))
    # The error points at the up stair on the map: the first map row holding "u", at its column.
    rows = [(number, row) for number, row in enumerate(broken.splitlines(), start=1) if row.startswith("#")]
    (line, row), *_ = [(number, row) for number, row in rows if row.endswith("#") and "u" in row]
    assert (caught.value.line, caught.value.column) == (line, row.index("u") + 1)
