"""Combat arithmetic, table inference, moves and the replayer, against the rulebook and hand-worked cases."""

import pytest

from tests.passages_helpers import level_from_toml
from twisty.rules.passages import Enemy, RouteError, damage_table, fight_damage, hits_received, replay
from twisty.rules.passages_tables import infer_enemy_stats

RULEBOOK_ENEMY = Enemy("rulebook", hp=3, atk=3, defense=0)


def test_rulebook_damage_table():
    # "Player ATK / Hits Received / Life lost @0 DEF @1 DEF @2 DEF: 1 2 6 4 2 / 2 1 3 2 1"
    assert [hits_received(RULEBOOK_ENEMY, atk) for atk in (1, 2)] == [2, 1]
    assert damage_table(RULEBOOK_ENEMY, [1, 2], [0, 1, 2]) == [[6, 4, 2], [3, 2, 1]]


def test_rulebook_worked_examples():
    # "with 1 ATK and 1 DEF, you would lose a total of 4 life points ... With 2 ATK and 1 DEF, you would
    # lose 2 life points in all. With 2 ATK and 2 DEF, you would lose only 1 life point"
    assert fight_damage(RULEBOOK_ENEMY, 1, 1) == 4
    assert fight_damage(RULEBOOK_ENEMY, 2, 1) == 2
    assert fight_damage(RULEBOOK_ENEMY, 2, 2) == 1


@pytest.mark.parametrize(
    "enemy, atk, defense, expected",
    [
        # hp 10, def 2 against ATK 5: 3 per strike, 4 strikes, 3 hits back of 7 - 1 = 6 each.
        (Enemy("a", 10, 7, 2), 5, 1, 18),
        # the same with first strike: 4 hits.
        (Enemy("a", 10, 7, 2, first_strike=True), 5, 1, 24),
        # one strike kills: no hit back, unless it strikes first.
        (Enemy("b", 4, 9, 0), 4, 0, 0),
        (Enemy("b", 4, 9, 0, first_strike=True), 4, 0, 9),
        # DEF at or above the enemy's ATK: hits land but do nothing.
        (Enemy("c", 20, 3, 0), 1, 3, 0),
        # ATK not above the enemy's DEF: it cannot be harmed, the fight is impossible.
        (Enemy("d", 1, 1, 5), 5, 0, None),
    ],
)
def test_hand_worked_fights(enemy, atk, defense, expected):
    assert fight_damage(enemy, atk, defense) == expected


def test_inference_finds_the_smallest_stats():
    enemy, wrong = infer_enemy_stats([1, 2], [0, 1, 2], [[6, 4, 2], [3, 2, 1]])
    assert wrong is None
    # hp 3 is the smallest hp that gives 3 strikes at ATK 1 and 2 at ATK 2; then atk 3; then def 0.
    assert (enemy.hp, enemy.atk, enemy.defense) == (3, 3, 0)


def test_inference_names_the_first_entry_no_stats_reproduce():
    # Row ATK 1 alone fits the rulebook enemy; at ATK 2 the loss cannot grow with DEF.
    _, wrong = infer_enemy_stats([1, 2], [0, 1, 2], [[6, 4, 2], [3, 2, 5]])
    assert wrong == ("life_lost", 1, 2)


LEVEL = """
game = "passages"
map = '''
#########
#S.kDe.G#
#.#######
#+.D.s###
#########
'''
[player]
hp = 5
atk = 1
[legend]
k = { kind = "key" }
D = { kind = "door" }
"+" = { kind = "elixir", hp = 4 }
s = { kind = "equipment", atk = 1 }
e = { kind = "enemy", hp = 3, atk = 3, def = 0 }
"""


def test_replay_takes_items_and_tracks_stats():
    level = level_from_toml(LEVEL)
    things = level.thing_at
    door_to_goal, door_to_sword = things[(1, 4)], things[(3, 3)]
    enemy = things[(1, 5)]
    # Only one key: the sword door first leaves the goal door shut; the goal door first means fighting
    # at ATK 1: 2 hits of 3 = 6 damage against 5 + 4 hp.
    result = replay(level, [("open", door_to_goal), ("fight", enemy), ("goal", 0)])
    assert result.final_hp == 5 + 4 - 6
    assert [step.action for step in result.steps] == ["take", "take", "open", "fight", "goal"]
    with pytest.raises(RouteError, match="cannot be opened"):
        replay(level, [("open", door_to_sword), ("open", door_to_goal)])


def test_replay_refuses_unreachable_and_unsurvivable_moves():
    level = level_from_toml(LEVEL)
    enemy = level.thing_at[(1, 5)]
    with pytest.raises(RouteError, match="not next to"):
        replay(level, [("fight", enemy)])
    weak = level.with_start_hp(2)
    door = level.thing_at[(1, 4)]
    # 2 + 4 = 6 hp and 6 damage: life would drop to 0.
    with pytest.raises(RouteError, match="cannot be opened or survived"):
        replay(weak, [("open", door), ("fight", enemy)])
    with pytest.raises(RouteError, match="does not end at a goal"):
        replay(level, [("open", door)])


def test_goal_is_never_walked_through():
    level = level_from_toml("""
game = "passages"
map = '''
#####
#SGk#
#####
'''
[player]
hp = 1
[legend]
k = { kind = "key" }
""")
    result = replay(level, [("goal", 0)])
    assert result.steps[0].action == "goal"
    assert result.final_hp == 1 and result.steps[-1].stats.keys == 0


def test_the_reach_carried_along_a_route_is_the_reach_found_afresh():
    """consume floods only what a step opens; along random legal sequences on random levels the carried
    reach, the frontier and the goals equal those found by a search of the whole map from the start."""
    import random

    from tests.solver.test_passages_search import random_levels
    from twisty.rules.passages import RouteState, consume, frontier, initial_state, reachable_cells, reachable_goals

    rng = random.Random(7)
    compared = 0
    for _, level in random_levels(11, 40):
        state, _ = initial_state(level.with_start_hp(10**6))
        while True:
            assert state.reached == frozenset(reachable_cells(level, state.consumed))
            fresh = RouteState(state.consumed, state.taken, state.stats)  # no carried reach
            assert frontier(level, state) == frontier(level, fresh)
            assert reachable_goals(level, state) == reachable_goals(level, fresh)
            compared += 1
            moves = [
                index for index in frontier(level, state) if level.things[index].kind == "enemy" or state.stats.keys > 0
            ]
            if not moves:
                break
            try:
                state, _, _ = consume(level, state, rng.choice(moves))
            except ValueError:
                break
    assert compared > 200
