"""The compiled core of the search engine on towers (docs/mota.md): keys of several colours, magic defence,
the specials whose damage is a function of the hero's stats, money and a shop, floors and the boss whose
defeat wins. Its answers are held to the reference engine (which shares the rules and the region graph with
it: build_graph and RegionWalk), to the brute force on the tiny towers (which shares only the rules: it walks
the grid), and to the hand-worked answers of tests/towers; the reference engine is made
unreachable from the search engine in these tests, so that a level the core would give away fails instead
of passing on the reference engine's answer."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from tests.passages_helpers import level_from_toml
from tests.towers_random import random_tower
from twisty.errors import UsageError
from twisty.games import GAMES
from twisty.rules.passages import replay
from twisty.solver import passages_brute, passages_reference, passages_search
from twisty.solver.passages_search_graph import NOT_COMPILED, SearchGraph
from twisty.solver.passages_verdict import Deadline

pytestmark = pytest.mark.skipif(
    not passages_search.COMPILED_AVAILABLE, reason="the compiled core is not built (no C compiler at install time)"
)
TOWERS = Path(__file__).parent.parent / "towers"


@pytest.fixture
def core_only(monkeypatch):
    """The search engine with no way to the reference engine: every question must be the core's."""

    def refuse(*args, **kwargs):
        raise AssertionError("the search engine gave the level to the reference engine")

    for name in ("best_route", "min_start_hp"):
        monkeypatch.setattr(passages_search.passages_reference, name, refuse)


def _held_by_core(level) -> bool:
    hp = level.player.hp
    return not level.features & NOT_COMPILED and passages_search.fits(SearchGraph(level, hp), hp)


def _tower(seed: int, pieces: int = 0):
    text = random_tower(seed, compiled=True, pieces=pieces)
    return level_from_toml(text, f"tower-{seed}.toml"), text


def _cases(count: int, slow: int = 0) -> list:
    """Seeds 0..count-1, then seeds up to `slow` that run only with -m slow."""
    return list(range(count)) + [pytest.param(seed, marks=pytest.mark.slow) for seed in range(count, slow)]


def _reference_answers(level):
    """The reference engine's best route and least starting hp (called before the core_only fixture's
    patch is in place: it is the fixture of the test that asks)."""
    return passages_reference.best_route(level, Deadline(60)), passages_reference.min_start_hp(level, Deadline(60))


@pytest.mark.parametrize("pieces", [0, 6])
@pytest.mark.parametrize("seed", _cases(30, 150))
def test_the_core_answers_random_towers_as_the_reference_engine(seed, pieces, monkeypatch, request):
    level, text = _tower(seed, pieces)
    if not _held_by_core(level):
        pytest.skip("a tower with a feature the core does not hold (the registry sends it to the reference engine)")
    reference, least = _reference_answers(level)
    request.getfixturevalue("core_only")
    found = passages_search.best_route(level, Deadline(60))
    assert (found.status, found.final_hp, found.proved) == (reference.status, reference.final_hp, True), text
    if found.decisions is not None:
        assert replay(level, found.decisions).final_hp == found.final_hp, text
    assert passages_search.min_start_hp(level, Deadline(60)) == least, text


@pytest.mark.parametrize("seed", _cases(30, 150))
def test_each_of_the_cores_bounds_answers_random_towers_as_the_reference_engine(seed):
    level, text = _tower(seed, 6)
    if not _held_by_core(level):
        pytest.skip("a tower with a feature the core does not hold")
    reference = passages_reference.best_route(level, Deadline(60))
    hp = level.player.hp
    sg = SearchGraph(level, hp)
    for options in (
        {"priced": False},
        {"priced": True},
        {"priced": False, "steiner": True, "chain_from": 0},
        {"priced": False, "steiner": True, "chain_from": 0, "threads": 2},
        {"use_dominance": False, "priced": False},
    ):
        result = passages_search.search(sg, hp, Deadline(60), **options)
        assert result.complete, (options, text)
        assert result.best_hp == reference.final_hp, (options, text)
        if result.route is not None:
            assert replay(level, result.route).final_hp == result.best_hp, (options, text)
    won = passages_search.search(sg, hp, Deadline(60), first_win=True)
    assert (won.best_hp is None) == (reference.final_hp is None), text


@pytest.mark.parametrize("seed", _cases(30, 120))
def test_the_core_answers_tiny_towers_as_the_brute_force(seed, core_only):
    level, text = _tower(seed)
    if not _held_by_core(level):
        pytest.skip("a tower with a feature the core does not hold")
    brute = passages_brute.best_route(level, Deadline(60))
    found = passages_search.best_route(level, Deadline(60))
    assert (found.status, found.final_hp) == (brute.status, brute.final_hp), text


def test_the_random_towers_the_core_holds_cover_its_features():
    seen: set[str] = set()
    held = 0
    for seed in range(30):
        for pieces in (0, 6):
            level, _ = _tower(seed, pieces)
            if _held_by_core(level):
                held += 1
                seen |= level.features
    assert held >= 30
    assert seen >= {"floors", "colours", "mdef", "money", "specials", "boss", "shop"}


@pytest.mark.parametrize("path", sorted(TOWERS.glob("*.toml")), ids=lambda path: path.stem)
def test_the_core_gives_the_hand_worked_answers_of_the_test_towers(path, monkeypatch, request):
    level = level_from_toml(path.read_text(), str(path))
    if not _held_by_core(level):
        assert level.features & NOT_COMPILED, "a tower the core refuses only for a feature it does not hold"
        pytest.skip(f"the core does not hold {sorted(level.features & NOT_COMPILED)}")
    request.getfixturevalue("core_only")
    found = passages_search.best_route(level, Deadline(60))
    assert found.final_hp == level.expect.final_hp
    if level.expect.min_start_hp is not None:
        assert passages_search.min_start_hp(level, Deadline(60)).value == level.expect.min_start_hp


BOSS_TOWER = """
game = "passages"
win = "boss"
map = '''
#########
#S...B+.#
#.#######
#a#######
#+#######
#########
'''
[player]
hp = 50
atk = 10
def = 0
[legend]
a = { kind = "enemy", name = "guard", hp = 30, atk = 8, def = 0 }
B = { kind = "enemy", name = "boss", hp = 20, atk = 5, def = 0, boss = true }
"+" = { kind = "elixir", hp = 100 }
"""


def test_the_boss_fight_ends_the_route_and_what_it_uncovers_is_not_taken(core_only):
    """By hand: the guard, off the way to the boss, takes 3 strikes of 10 and hits back twice for 8 (16);
    the elixir below it gives 100; the boss takes 2 strikes and hits back once for 5. Best: guard, elixir,
    boss: 50 - 16 + 100 - 5 = 129. The elixir behind the boss is never taken (the fight ends the tower)."""
    level = level_from_toml(BOSS_TOWER)
    assert _held_by_core(level)
    found = passages_search.best_route(level, Deadline(10))
    assert (found.final_hp, found.proved) == (129, True)
    assert found.decisions is not None and found.decisions[-1][0] == "goal"
    assert replay(level, found.decisions).final_hp == 129
    # The boss straight away needs 6 (6 - 5 = 1 left); the guard's way needs 17 first: the least start is 6.
    assert passages_search.min_start_hp(level, Deadline(10)).value == 6


# Every tower feature a level can have (PassagesLevel.features).
TOWER_FEATURES = frozenset(
    {"floors", "colours", "mdef", "money", "shop", "specials", "drain", "optional items", "boss"}
)


def test_the_registry_says_the_search_engine_answers_exactly_what_its_core_holds():
    search_engine = GAMES["passages"].engine("search")
    assert search_engine.features is not None
    assert search_engine.features | NOT_COMPILED == TOWER_FEATURES
    assert not search_engine.features & NOT_COMPILED


@pytest.mark.parametrize(
    ("path", "chosen", "skipped"),
    [
        ("two-floors.toml", "search", set()),
        ("green-key.toml", "search", set()),
        ("special-09.toml", "search", set()),
        ("shop-atk.toml", "search", set()),
        ("special-11.toml", "reference", {"search"}),
        ("break-armour-gem.toml", "reference", {"search"}),
    ],
)
def test_the_portfolio_uses_the_core_where_it_can_and_says_why_not_elsewhere(path, chosen, skipped):
    level = level_from_toml((TOWERS / path).read_text(), path)
    game = GAMES["passages"]
    assert game.auto_engine(level.features).name == chosen
    reasons = game.skipped_engines(level.features)
    assert set(reasons) == skipped
    for reason in reasons.values():
        assert any(feature in reason for feature in level.features & NOT_COMPILED)
    if skipped:
        with pytest.raises(UsageError, match="engines that do: auto, reference, brute"):
            game.chosen_engine("search", level.features)


TWO_SHOPS = """
game = "passages"
map = '''
#########
#$.S.a.$G
#########
'''
[player]
hp = 30
atk = 5
def = 0
money = 10
[shop]
start = 10
delta = 0
atk = 5
[legend]
"$" = { kind = "shop" }
a = { kind = "enemy", name = "guard", hp = 20, atk = 4, def = 0 }
"""


def test_a_shop_in_two_areas_goes_to_the_reference_engine_with_its_answer():
    """The core holds one shop area (its purchase chains start there). Here two: the search engine answers
    with the reference engine. By hand: buy at the left shop first (atk 10): the guard takes 2 strikes and
    hits once for 4, so 26; without the purchase, 4 strikes and 3 hits, 18."""
    level = level_from_toml(TWO_SHOPS)
    sg = SearchGraph(level, level.player.hp)
    assert not sg.shop_compiled and not passages_search.fits(sg, level.player.hp)
    found = passages_search.best_route(level, Deadline(10))
    assert (found.final_hp, found.proved) == (26, True)
    assert found.decisions is not None and ("buy", 1) in found.decisions


def test_the_tree_and_priced_bounds_stay_above_the_optimum_along_best_routes_of_shop_towers():
    """Admissibility with purchase blockers: every state of an optimal route can still reach the optimum, so
    no bound there may be below it (the reference engine's answer)."""
    core = passages_search._passages_core
    checked = 0
    for pieces in (0, 6, 12):
        for seed in range(120):
            level, text = _tower(seed, pieces)
            if level.shop is None or not _held_by_core(level):
                continue
            hp = level.player.hp
            sg = SearchGraph(level, hp)
            if not sg.purchase_mask:
                continue
            best = passages_reference.best_route(level, Deadline(60)).final_hp
            root = sg.compiled_state(sg.walk.start(replace(level.player, hp=hp)))
            graph = sg.compiled_graph()
            found = core.search(graph, root, Deadline(60), False, False, True, 1, False, False, -1, 1)
            assert found[0] == best, text
            if best is None:
                continue
            checked += 1
            for state in core.follow(graph, root, found[3], False):
                for which in ("tree", "priced"):
                    assert core.bound(graph, state, which) >= best, (which, text)
    assert checked >= 20
