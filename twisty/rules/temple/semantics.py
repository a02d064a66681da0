"""The plain rules of Temple Twist: gravity, the steps a card may take, every outcome of each card, the
challenge cards, exploring and winning. No solver inside; the reference search and the replayer use these
functions, and the SAT model (twisty.encodings.temple_sat) restates each of them as clauses.

A card's action is a tuple of steps: ("left",) or ("right",) (a quarter turn), ("build", slot) or
("remove", slot). The empty tuple is a forgone action ("you may forgo the action. You must still discard
the card").
"""

from __future__ import annotations

from dataclasses import dataclass

from twisty.rules.temple.model import CARDS, SIDES, TURNS, Round, Temple, TempleState, turned

Step = tuple
Action = tuple[Step, ...]


class RuleError(ValueError):
    """A step or a card the rules do not allow (the message says which rule)."""


@dataclass(frozen=True)
class Fall:
    """One fall of the die: where it started and the rooms it entered, in order. "A fall's length is the
    number of rooms the die enters."""

    start: int
    path: tuple[int, ...]

    @property
    def length(self) -> int:
        return len(self.path)

    @property
    def end(self) -> int:
        return self.path[-1] if self.path else self.start


@dataclass(frozen=True)
class Position:
    """The temple during a turn: the down side, the die's room and the variable walls (a mask)."""

    down: int
    die: int
    walls: int


def fall(temple: Temple, walls: int, down: int, die: int) -> Fall:
    """The rule: "After every change (each single quarter turn, each wall removed) the die falls toward the
    down side, room by room, until a wall in the slot below it or the frame stops it." The frame stops it on
    every side, doors included."""
    blocked = walls | temple.fixed
    path: list[int] = []
    room = die
    while True:
        below = temple.next_room[down][room]
        if below < 0 or blocked >> temple.slot_below[down][room] & 1:
            return Fall(die, tuple(path))
        room = below
        path.append(room)


def rests(temple: Temple, walls: int, down: int, die: int) -> bool:
    return not fall(temple, walls, down, die).path


def supply_of(round_: Round, walls: int) -> int:
    """The pieces outside the temple: the round's pieces less the walls standing in it."""
    return round_.pieces - walls.bit_count()


def apply_step(round_: Round, position: Position, step: Step) -> tuple[Position, Fall | None]:
    """One step of a card: a quarter turn (the die falls), a wall built ("Building a wall never moves the
    die") or a wall removed (the die falls). Raises RuleError for a step the rules forbid."""
    temple = round_.temple
    kind = step[0]
    if kind in TURNS:
        down = turned(position.down, kind)
        dropped = fall(temple, position.walls, down, position.die)
        return Position(down, dropped.end, position.walls), dropped
    if kind not in ("build", "remove") or len(step) != 2 or not 0 <= step[1] < len(temple.slots):
        raise RuleError(f"no such step {step!r}")
    slot = step[1]
    bit = 1 << slot
    if temple.fixed & bit:
        raise RuleError(f"the slot {temple.slot_name(slot)} holds a fixed wall, which cannot be changed")
    if kind == "build":
        if position.walls & bit:
            raise RuleError(f"the slot {temple.slot_name(slot)} already holds a wall")
        if supply_of(round_, position.walls) < 1:
            raise RuleError("no variable wall is left in the supply to build")
        return Position(position.down, position.die, position.walls | bit), None
    if not position.walls & bit:
        raise RuleError(f"there is no variable wall at {temple.slot_name(slot)} to remove")
    walls = position.walls & ~bit
    dropped = fall(temple, walls, position.down, position.die)
    return Position(position.down, dropped.end, walls), dropped


def check_action(card: str, action: Action) -> None:
    """Whether `card` allows `action` (the table of action cards); RuleError if not. Every action may be
    forgone (the empty action)."""
    if card not in CARDS:
        raise RuleError(f"no card {card!r}")
    if not action:
        return
    kinds = [step[0] for step in action]
    turns = all(kind in TURNS for kind in kinds)
    if card == "turn1" and not (turns and len(action) == 1):
        raise RuleError("turn1 turns the temple once, left or right")
    if card == "turn2" and not (turns and len(action) <= 2):
        raise RuleError("turn2 turns the temple up to twice")
    if card == "turnAny" and not (turns and len(set(kinds)) == 1):
        raise RuleError("turnAny turns the temple any number of times, all in one direction")
    if card == "wall1" and not (len(action) == 1 and kinds[0] in ("build", "remove")):
        raise RuleError("wall1 builds one wall or removes one wall")
    if card == "wall2" and not (len(action) <= 2 and len(set(kinds)) == 1 and kinds[0] in ("build", "remove")):
        raise RuleError("wall2 builds two walls or removes two walls (never one of each), or only one")
    if card == "move" and kinds != ["remove", "build"]:
        raise RuleError("move removes one wall and then builds it back in (all or nothing)")


def play_action(round_: Round, position: Position, card: str, action: Action) -> tuple[Position, tuple[Fall, ...]]:
    """A card's action played out step by step: the temple after it and the falls on the way."""
    check_action(card, action)
    falls = []
    for step in action:
        position, dropped = apply_step(round_, position, step)
        if dropped is not None:
            falls.append(dropped)
    return position, tuple(falls)


def enters(falls: tuple[Fall, ...], room: int | None) -> bool:
    """No entry: "the die may never fall through X or rest in X"."""
    return room is not None and any(room in dropped.path for dropped in falls)


def gets_going(round_: Round, position: Position) -> tuple[Position, Fall | None]:
    """Now it gets going (direction d): "after every turn the temple turns once more in direction d (the die
    falls), before the explore check" (forgone and winning turns included)."""
    direction = round_.challenges.gets_going
    if direction is None:
        return position, None
    return apply_step(round_, position, (direction,))


def explore(round_: Round, explored: int, die: int) -> int:
    """The rule: "At the end of each turn, if the die lies in a revealed room, that room is explored." Always in order:
    "only the next room of the order is explored at a turn's end". Secret mission X: X "explored at any
    time"."""
    revealed = round_.revealed
    if round_.challenges.in_order:
        done = (explored & ((1 << len(revealed)) - 1)).bit_count()
        if done < len(revealed) and revealed[done] == die:
            explored |= 1 << done
    else:
        for index, room in enumerate(revealed):
            if room == die:
                explored |= 1 << index
    if round_.challenges.secret == die:
        explored |= 1 << len(revealed)
    return explored


def won(round_: Round, state: TempleState) -> bool:
    """The rule: "The round is won at the end of a turn when every revealed room has been explored (at the end of this
    or an earlier turn) and the die lies in the room of the revealed door with that door pointing down." """
    door = round_.door
    return state.explored == round_.all_explored and state.die == door.room and state.down == door.side


@dataclass(frozen=True)
class Outcome:
    """One way a card can be played from a position, the gets-going turn included: the action, the temple
    after the turn (before exploring) and every fall on the way."""

    action: Action
    position: Position
    falls: tuple[Fall, ...]

    @property
    def longest_fall(self) -> int:
        return max((dropped.length for dropped in self.falls), default=0)


def card_outcomes(round_: Round, position: Position, card: str) -> list[Outcome]:
    """Every way to play `card` from `position`, forgoing included, each followed by the gets-going turn;
    ways in which the die enters the No entry room are left out (they lose the round). The same steps as
    apply_step, taken directly (this is the reference search's inner loop):

    - turn1: left or right; turn2: one or two quarter turns, each left or right;
    - turnAny: "k >= 1 quarter turns in one direction": the die's (down, room) after each turn follows from
      the one before (the walls stand still), so once one repeats, further turns repeat it;
    - wall1: build one (from the supply) or remove one; wall2: also two builds (different empty slots, two
      pieces) or two removals "in either order, the die falling after each" (same end, other falls);
    - move: remove one (the die falls), then build it into any empty slot, the one it left included.
    """
    temple = round_.temple
    going = round_.challenges.gets_going
    forbidden = round_.challenges.no_entry
    found: list[Outcome] = []

    def finish(action: Action, down: int, die: int, walls: int, falls: tuple[Fall, ...]) -> None:
        if going is not None:
            down = turned(down, going)
            extra = fall(temple, walls, down, die)
            falls += (extra,)
            die = extra.end
        if forbidden is None or not enters(falls, forbidden):
            found.append(Outcome(action, Position(down, die, walls), falls))

    down, die, walls = position.down, position.die, position.walls
    finish((), down, die, walls, ())
    if card in ("turn1", "turn2", "turnAny"):
        for direction in TURNS:
            first_down = turned(down, direction)
            first = fall(temple, walls, first_down, die)
            if forbidden is not None and forbidden in first.path:
                continue
            finish(((direction,),), first_down, first.end, walls, (first,))
            if card == "turn2":
                for second_direction in TURNS:
                    second_down = turned(first_down, second_direction)
                    second = fall(temple, walls, second_down, first.end)
                    finish(((direction,), (second_direction,)), second_down, second.end, walls, (first, second))
            elif card == "turnAny":
                seen = {(first_down, first.end)}
                falls: tuple[Fall, ...] = (first,)
                now_down, now_die = first_down, first.end
                while True:
                    now_down = turned(now_down, direction)
                    dropped = fall(temple, walls, now_down, now_die)
                    now_die = dropped.end
                    falls += (dropped,)
                    if (now_down, now_die) in seen or (forbidden is not None and forbidden in dropped.path):
                        break
                    seen.add((now_down, now_die))
                    finish(((direction,),) * len(falls), now_down, now_die, walls, falls)
        return found
    movable = walls & ~temple.fixed
    empty = [slot for slot in temple.variable_slots() if not walls >> slot & 1]
    standing = [slot for slot in temple.variable_slots() if movable >> slot & 1]
    supply = supply_of(round_, walls)
    removed: dict[int, tuple[int, Fall]] = {}
    for slot in standing:
        after = walls & ~(1 << slot)
        removed[slot] = (after, fall(temple, after, down, die))
    if card in ("wall1", "wall2"):
        if supply >= 1:
            for slot in empty:
                finish((("build", slot),), down, die, walls | 1 << slot, ())
        for slot, (after, dropped) in removed.items():
            finish((("remove", slot),), down, dropped.end, after, (dropped,))
    if card == "wall2":
        if supply >= 2:
            for index, first_slot in enumerate(empty):
                for second_slot in empty[index + 1 :]:
                    finish(
                        (("build", first_slot), ("build", second_slot)),
                        down,
                        die,
                        walls | 1 << first_slot | 1 << second_slot,
                        (),
                    )
        for first_slot, (after, dropped) in removed.items():
            for second_slot in standing:
                if second_slot != first_slot:
                    last = after & ~(1 << second_slot)
                    second = fall(temple, last, down, dropped.end)
                    finish((("remove", first_slot), ("remove", second_slot)), down, second.end, last, (dropped, second))
    if card == "move":
        for slot, (after, dropped) in removed.items():
            for target in sorted(empty + [slot]):
                finish((("remove", slot), ("build", target)), down, dropped.end, after | 1 << target, (dropped,))
    return found


def max_turns(round_: Round) -> int:
    """The most turns a round can last: "A player with no card on their turn loses the round." Players play
    in seat order from the torch holder, one card a turn; a swap trades one card for one, so it changes no
    hand's size."""
    played = [0] * round_.players
    sizes = [len(hand) for hand in round_.hands]
    turn = 0
    while True:
        player = round_.player_of_turn(turn)
        if played[player] >= sizes[player]:
            return turn
        played[player] += 1
        turn += 1


def describe_action(temple: Temple, card: str, action: Action) -> str:
    """An action in words, for plans."""
    if not action:
        return "forgo the action"
    kinds = [step[0] for step in action]
    if kinds[0] in TURNS:
        if card == "turnAny" and len(action) > 1:
            return f"turn {kinds[0]} {len(action)} times"
        return "turn " + ", then ".join(kinds)
    if card == "move":
        return f"move the wall {temple.slot_name(action[0][1])} to {temple.slot_name(action[1][1])}"
    verb = "build" if kinds[0] == "build" else "remove"
    return f"{verb} " + " and ".join(temple.slot_name(step[1]) for step in action)


def side_name(side: int) -> str:
    return SIDES[side]
