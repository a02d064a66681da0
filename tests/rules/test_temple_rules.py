"""The plain rules of Temple Twist by hand: turns, falls, walls, each card's outcomes, the challenges, the
swap and the replayer. Every expected value is worked out in the comment above it on the 3 x 3 temple below
(rooms a..i row by row, the pink door under g)."""

from __future__ import annotations

import random

import pytest

from twisty.rules.source import parse_level_bytes
from twisty.rules.temple.loader import load_round
from twisty.rules.temple.model import BOTTOM, LEFT, RIGHT, SIDES, TOP, TempleState, turned
from twisty.rules.temple.replayer import PlanError, PlanTurn, Swap, replay
from twisty.rules.temple.semantics import (
    Position,
    RuleError,
    apply_step,
    card_outcomes,
    explore,
    fall,
    max_turns,
    play_action,
    won,
)

EMPTY = """
+-----+
|a b c|
|     |
|d e f|
|     |
|g h i|
+P----+
"""


def make(drawing: str = EMPTY, **keys: object):
    """A round on a 3 x 3 temple; keys are written as TOML values (strings quoted)."""
    lines = ['game = "temple"']
    keys.setdefault("revealed", [])
    keys.setdefault("door", "pink")
    keys.setdefault("hands", [["turn1"]])
    for key, value in keys.items():
        lines.append(f"{key} = {_toml(value)}")
    lines += ["[temple]", f'map = """{drawing}"""', 'doors = { P = "pink" }', "pieces = 4"]
    return load_round(parse_level_bytes("\n".join(lines).encode(), "<test>"))


def _toml(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml(item) for item in value) + "]"
    return str(value)


def with_challenges(text_keys: dict, challenges: str):
    """A round with a [challenges] table (written after the temple)."""
    lines = ['game = "temple"'] + [f"{key} = {_toml(value)}" for key, value in text_keys.items()]
    lines += ["[temple]", f'map = """{EMPTY}"""', 'doors = { P = "pink" }', "pieces = 4", "[challenges]", challenges]
    return load_round(parse_level_bytes("\n".join(lines).encode(), "<test>"))


def room(round_, name: str) -> int:
    return round_.temple.names.index(name)


def slot(round_, first: str, second: str) -> int:
    return round_.temple.slot_of[(room(round_, first), room(round_, second))]


def names(round_, rooms) -> tuple[str, ...]:
    return tuple(round_.temple.names[r] for r in rooms)


# Turning ----------------------------------------------------------------------------------------------------


def test_a_right_turn_brings_the_right_side_down_and_a_left_turn_the_left():
    # Upright (bottom down) the right side is on the right; a clockwise quarter turn brings it down. Then the
    # top is on the right, and so on: bottom -> right -> top -> left -> bottom. Left turns go the other way.
    assert [SIDES[turned(side, "right")] for side in (BOTTOM, RIGHT, TOP, LEFT)] == ["right", "top", "left", "bottom"]
    assert [SIDES[turned(side, "left")] for side in (BOTTOM, RIGHT, TOP, LEFT)] == ["left", "bottom", "right", "top"]


@pytest.mark.parametrize(
    "down, die, direction, new_down, path",
    [
        # bottom down, die in g (bottom-left corner); turn right: the right side is down, the die rolls along the
        # bottom row toward it: g -> h -> i.
        ("bottom", "g", "right", "right", ("h", "i")),
        # right down, die in i; turn right: the top is down, the die falls up the right column: i -> f -> c.
        ("right", "i", "right", "top", ("f", "c")),
        # top down, die in c; turn right: the left side is down: c -> b -> a.
        ("top", "c", "right", "left", ("b", "a")),
        # left down, die in a; turn right: back to bottom: a -> d -> g.
        ("left", "a", "right", "bottom", ("d", "g")),
        # bottom down, die in i; turn left: the left side is down: i -> h -> g.
        ("bottom", "i", "left", "left", ("h", "g")),
    ],
)
def test_a_quarter_turn_from_each_side_and_the_fall_after_it(down, die, direction, new_down, path):
    round_ = make(down=down, die=die)
    position, dropped = apply_step(round_, Position(round_.down, round_.die, round_.walls), (direction,))
    assert SIDES[position.down] == new_down
    assert names(round_, dropped.path) == path
    assert round_.temple.names[position.die] == path[-1]


# Falling ----------------------------------------------------------------------------------------------------


def test_falls_stop_at_the_frame_a_fixed_wall_and_a_variable_wall():
    fixed = EMPTY.replace("|     |\n|d e f|", "|  #  |\n|d e f|", 1)  # a fixed wall between b and e
    round_ = make(fixed, walls=["e-h"])
    temple = round_.temple
    # h is on the bottom row: the frame stops it at once.
    assert fall(temple, round_.walls, BOTTOM, room(round_, "h")).path == ()
    # b stands on the fixed wall b-e.
    assert fall(temple, round_.walls, BOTTOM, room(round_, "b")).path == ()
    # c falls past f? No wall under c or f: c -> f -> i, stopped by the frame.
    assert names(round_, fall(temple, round_.walls, BOTTOM, room(round_, "c")).path) == ("f", "i")
    # e stands on the variable wall e-h; without it e falls to h.
    assert fall(temple, round_.walls, BOTTOM, room(round_, "e")).path == ()
    assert names(round_, fall(temple, 0, BOTTOM, room(round_, "e")).path) == ("h",)
    # Upward (top down) from h: h -> e is closed by the wall e-h, so h stays.
    assert fall(temple, round_.walls, TOP, room(round_, "h")).path == ()


def test_a_die_that_would_fall_at_the_start_is_refused():
    with pytest.raises(Exception) as raised:
        make(die="b", down="bottom")
    assert "would fall" in str(raised.value) and "into e" in str(raised.value)


# Walls ------------------------------------------------------------------------------------------------------


def test_removing_the_wall_under_the_die_drops_it_and_building_never_moves_it():
    # The die in b stands on the variable wall b-e (bottom down); nothing below e or h.
    round_ = make(walls=["b-e"], die="b")
    start = Position(round_.down, round_.die, round_.walls)
    after, dropped = apply_step(round_, start, ("remove", slot(round_, "b", "e")))
    assert names(round_, dropped.path) == ("e", "h") and after.walls == 0
    # Building the wall e-h under... the die is in b: it does not move, and the supply falls by one.
    built, none = apply_step(round_, start, ("build", slot(round_, "e", "h")))
    assert none is None and built.die == start.die
    assert round_.pieces - built.walls.bit_count() == 2  # 4 pieces, 2 now in the temple


def test_a_fixed_wall_cannot_be_removed_and_an_empty_supply_builds_nothing():
    fixed = EMPTY.replace("|     |\n|d e f|", "|  #  |\n|d e f|", 1)
    round_ = make(fixed, walls=["a-d"], supply=0)
    start = Position(round_.down, round_.die, round_.walls)
    with pytest.raises(RuleError, match="fixed"):
        apply_step(round_, start, ("remove", slot(round_, "b", "e")))
    with pytest.raises(RuleError, match="supply"):
        apply_step(round_, start, ("build", slot(round_, "c", "f")))


def test_move_vacates_and_rebuilds_the_same_slot_with_the_die_fallen_through():
    round_ = make(walls=["b-e"], die="b")
    start = Position(round_.down, round_.die, round_.walls)
    same = slot(round_, "b", "e")
    # Remove b-e: the die falls b -> e -> h; the piece goes back into b-e, now above the die.
    after, falls = play_action(round_, start, "move", (("remove", same), ("build", same)))
    assert round_.temple.names[after.die] == "h" and after.walls == 1 << same
    assert [names(round_, dropped.path) for dropped in falls] == [("e", "h")]
    # Moving it to e-h instead: the die has fallen through before the wall is built below e.
    lower = slot(round_, "e", "h")
    after, _ = play_action(round_, start, "move", (("remove", same), ("build", lower)))
    assert round_.temple.names[after.die] == "h" and after.walls == 1 << lower
    # move is all or nothing: removing alone is not a move.
    with pytest.raises(RuleError):
        play_action(round_, start, "move", (("remove", same),))


def test_two_removals_end_alike_in_either_order_but_fall_differently():
    # The die in b on b-e, and e-h below. b-e first: b -> e (stopped by e-h), then e -> h: two falls of one.
    # e-h first: nothing moves; then b-e: b -> e -> h, one fall of two.
    round_ = make(walls=["b-e", "e-h"], die="b")
    start = Position(round_.down, round_.die, round_.walls)
    upper, lower = slot(round_, "b", "e"), slot(round_, "e", "h")
    first, falls_one = play_action(round_, start, "wall2", (("remove", upper), ("remove", lower)))
    second, falls_two = play_action(round_, start, "wall2", (("remove", lower), ("remove", upper)))
    assert first == second and round_.temple.names[first.die] == "h"
    assert [dropped.length for dropped in falls_one] == [1, 1]
    assert [dropped.length for dropped in falls_two] == [0, 2]
    with pytest.raises(RuleError):  # never one build and one removal
        play_action(round_, start, "wall2", (("remove", upper), ("build", slot(round_, "a", "b"))))


# Each card's outcomes ---------------------------------------------------------------------------------------


def test_turn2_may_change_direction_and_move_the_die_without_changing_the_down_side():
    # Die in h, bottom down. Left: the left side is down, h -> g. Right: bottom again, g stays (bottom row).
    round_ = make(die="h", down="bottom", walls=[])
    start = Position(round_.down, round_.die, round_.walls)
    after, _ = play_action(round_, start, "turn2", (("left",), ("right",)))
    assert after.down == BOTTOM and round_.temple.names[after.die] == "g"


def test_turn_any_has_one_outcome_per_state_of_the_orbit():
    # Empty 3 x 3, die in g, bottom down. Turning right: (right, i), (top, c), (left, a), (bottom, g): the
    # fourth is the start again, the fifth repeats the first. Turning left: (left, g), (top, a), (right, c),
    # (bottom, i), then (left, g) again. With forgoing: 1 + 4 + 4 outcomes.
    round_ = make(die="g")
    outcomes = card_outcomes(round_, Position(round_.down, round_.die, round_.walls), "turnAny")
    ends = [(SIDES[o.position.down], round_.temple.names[o.position.die], len(o.action)) for o in outcomes]
    assert ends == [
        ("bottom", "g", 0),
        ("left", "g", 1),
        ("top", "a", 2),
        ("right", "c", 3),
        ("bottom", "i", 4),
        ("right", "i", 1),
        ("top", "c", 2),
        ("left", "a", 3),
        ("bottom", "g", 4),
    ]


def test_the_outcome_count_of_each_card():
    # Die in g, bottom down, walls a-d and b-e, 4 pieces (2 in the supply); 12 slots, so 10 empty.
    round_ = make(walls=["a-d", "b-e"])
    start = Position(round_.down, round_.die, round_.walls)
    counts = {card: len(card_outcomes(round_, start, card)) for card in ("turn1", "turn2", "wall1", "wall2", "move")}
    # turn1: forgo + left + right = 3. turn2: forgo + 2 single + 4 double = 7.
    # wall1: forgo + 10 builds + 2 removals = 13. wall2: wall1's 13 + C(10, 2) = 45 double builds + 2 ordered
    # double removals = 60. move: forgo + 2 walls x (10 empty + its own slot) = 23.
    assert counts == {"turn1": 3, "turn2": 7, "wall1": 13, "wall2": 60, "move": 23}


def test_every_outcome_is_what_playing_its_action_gives():
    """card_outcomes takes the steps directly (it is the search's inner loop); play_action is the replayer's
    step-by-step account. They must agree on every action of every card, from random positions."""
    rng = random.Random(4)
    round_ = make(walls=["a-d", "e-f"])
    for _ in range(40):
        walls = sum(1 << s for s in rng.sample(round_.temple.variable_slots(), rng.randint(0, 4)))
        down = rng.randrange(4)
        die = fall(round_.temple, walls, down, rng.randrange(9)).end
        position = Position(down, die, walls)
        for card in ("turn1", "turn2", "turnAny", "wall1", "wall2", "move"):
            for outcome in card_outcomes(round_, position, card):
                after, falls = play_action(round_, position, card, outcome.action)
                assert (after, falls) == (outcome.position, outcome.falls)


# Exploring, winning, the challenges --------------------------------------------------------------------------


def test_exploring_happens_at_the_end_of_a_turn_and_in_order_only_the_next_room():
    round_ = with_challenges({"revealed": ["a", "c"], "door": "pink", "hands": [["turn1"]]}, "always_in_order = true")
    a, c = room(round_, "a"), room(round_, "c")
    # In order a then c: resting in c first explores nothing; then a (bit 0), then c (bit 1).
    assert explore(round_, 0, c) == 0
    assert explore(round_, 0, a) == 0b01
    assert explore(round_, 0b01, c) == 0b11
    free = make(revealed=["a", "c"])
    assert explore(free, 0, c) == 0b10


def test_winning_needs_every_room_explored_the_die_in_the_door_room_and_the_door_down():
    round_ = with_challenges({"revealed": ["a"], "door": "pink", "hands": [["turn1"]]}, 'secret_mission = "c"')
    g = room(round_, "g")
    # targets: a (bit 0) and the secret room c (bit 1).
    assert not won(round_, TempleState(BOTTOM, g, 0, 0b01))
    assert won(round_, TempleState(BOTTOM, g, 0, 0b11))
    assert not won(round_, TempleState(LEFT, g, 0, 0b11))  # in the door's room, the door not down


def test_now_it_gets_going_turns_after_a_forgone_turn_too():
    round_ = with_challenges({"die": "g", "revealed": [], "door": "pink", "hands": [["wall1"]]}, 'gets_going = "right"')
    outcomes = card_outcomes(round_, Position(round_.down, round_.die, round_.walls), "wall1")
    forgone = outcomes[0]
    # Forgoing, then the extra right turn: the right side is down and g rolls to i.
    assert forgone.action == () and forgone.position.down == RIGHT
    assert names(round_, forgone.falls[0].path) == ("h", "i")


def test_no_entry_leaves_out_every_way_through_the_room():
    round_ = with_challenges(
        {"walls": ["b-e"], "die": "b", "revealed": [], "door": "pink", "hands": [["wall1"]]}, 'no_entry = "e"'
    )
    start = Position(round_.down, round_.die, round_.walls)
    # Removing b-e drops the die through e: that way loses, so it is not an outcome.
    removals = [o for o in card_outcomes(round_, start, "wall1") if o.action and o.action[0][0] == "remove"]
    assert removals == []
    plan = (PlanTurn(0, "wall1", (("remove", slot(round_, "b", "e")),)),)
    with pytest.raises(PlanError, match="No entry"):
        replay(round_, plan)


# The round, the swap and the replayer ---------------------------------------------------------------------------


def test_the_most_turns_follow_the_hands_in_seat_order_from_the_torch():
    # Hands of 2 and 1 cards. Torch 1: p1, p2, p1, then p2 has none: 3 turns. Torch 2: p2, p1, then p2 has
    # none: 2 turns (p1's second card is never played).
    assert max_turns(make(hands=[["turn1", "turn1"], ["turn1"]])) == 3
    assert max_turns(make(hands=[["turn1", "turn1"], ["turn1"]], torch=2)) == 2


def test_a_plan_replays_with_the_swap_and_wins_at_its_last_turn():
    # Die in g, door under g (pink), revealed c. Player 1 holds wall1, player 2 turnAny. Player 1 swaps the
    # wall1 for the turnAny and turns right twice: g -> h -> i, then i -> f -> c (top down): explores c.
    round_ = make(revealed=["c"], hands=[["wall1"], ["turnAny"]])
    swap = Swap(1, "wall1", "turnAny")
    played = replay(round_, (PlanTurn(0, "turnAny", (("right",), ("right",)), swap),))
    record = played.records[0]
    assert names(round_, [record.state.die]) == ("c",) and record.explored_room == room(round_, "c")
    assert not played.won
    # Two turns right from the top: the left side, c -> b -> a; then bottom, a -> d -> g: the door down.
    round_ = make(revealed=["c"], hands=[["turnAny"], ["turn2"]])
    plan = (PlanTurn(0, "turnAny", (("right",), ("right",))), PlanTurn(1, "turn2", (("right",), ("right",))))
    assert replay(round_, plan).won
    with pytest.raises(PlanError, match="player 2's turn"):
        replay(round_, (plan[0], PlanTurn(0, "turn2", (("right",), ("right",)))))
    with pytest.raises(PlanError, match="holds no turn1"):
        replay(round_, (PlanTurn(0, "turn1", (("left",),)),))
    with pytest.raises(PlanError, match="already used"):
        replay(
            make(revealed=["c"], hands=[["turnAny", "turn1"], ["turn2", "turn1"]]),
            (
                PlanTurn(0, "turn2", (), Swap(1, "turnAny", "turn2")),
                PlanTurn(1, "turn1", (), Swap(0, "turn1", "turnAny")),
            ),
        )
