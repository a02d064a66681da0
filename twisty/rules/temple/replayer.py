"""Replaying a Temple Twist plan turn by turn with the plain rules: whose turn it is, the swap, the card in
hand, the action the card allows, every fall, the challenge cards, exploring and the win. Every plan an
engine reports passes through here before it is shown; a plan the rules refute raises PlanError.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from twisty.rules.temple.model import CARDS, Round, TempleState
from twisty.rules.temple.semantics import (
    Action,
    Fall,
    Position,
    RuleError,
    describe_action,
    enters,
    explore,
    gets_going,
    play_action,
    side_name,
    won,
)


class PlanError(ValueError):
    """A plan the rules refute (the message names the turn and the rule)."""


@dataclass(frozen=True)
class Swap:
    """The Swap card token: the current player gives one card of kind `gave` to player `other` (0-based seat)
    and takes one card of kind `got` from them, before playing."""

    other: int
    gave: str
    got: str


@dataclass(frozen=True)
class PlanTurn:
    """One turn of a plan: who plays (0-based seat; None when all cards are one pool), which card, its
    action, and the swap made before playing (if any)."""

    player: int | None
    card: str
    action: Action
    swap: Swap | None = None


@dataclass(frozen=True)
class TurnRecord:
    """A turn as replayed: the turn, the falls on the way (the gets-going fall last), the temple after it,
    the room explored at its end (if any) and whether a fall was longer than the round's bounce limit."""

    number: int
    turn: PlanTurn
    falls: tuple[Fall, ...]
    state: TempleState
    explored_room: int | None
    may_bounce: bool
    won: bool


@dataclass(frozen=True)
class Replay:
    round: Round
    records: tuple[TurnRecord, ...]
    pooled: bool

    @property
    def won(self) -> bool:
        return bool(self.records) and self.records[-1].won

    @property
    def states(self) -> tuple[TempleState, ...]:
        return tuple(record.state for record in self.records)

    @property
    def bounce_safe(self) -> bool:
        return not any(record.may_bounce for record in self.records)

    def as_json(self) -> list[dict[str, Any]]:
        return [record_json(self.round, record) for record in self.records]


def replay(round_: Round, plan: tuple[PlanTurn, ...] | list[PlanTurn], *, pooled: bool = False) -> Replay:
    """Play `plan` from the round's start. Pooled: "all cards in one pool, any card on any turn, no seat
    order, no swap, at most as many turns as cards". Raises PlanError at the first turn the rules refute,
    or when the round was won before the plan's last turn ("The round ends at the win")."""
    temple = round_.temple
    if round_.challenges.no_entry == round_.die:
        raise PlanError("the die starts in the No entry room: the round is lost before it starts")
    hands = [list(hand) for hand in round_.hands]
    pool = [card for hand in round_.hands for card in hand]
    swapped = False
    position = Position(round_.down, round_.die, round_.walls)
    explored = 0
    records: list[TurnRecord] = []
    for number, turn in enumerate(plan, start=1):
        where = f"turn {number}"
        if records and records[-1].won:
            raise PlanError(f"{where}: the round was already won at the end of turn {number - 1}")
        if pooled:
            if turn.player is not None or turn.swap is not None:
                raise PlanError(f"{where}: a pooled plan has no players and no swap")
            held = pool
        else:
            expected = round_.player_of_turn(number - 1)
            if turn.player != expected:
                raise PlanError(
                    f"{where}: it is player {expected + 1}'s turn, not player "
                    f"{'?' if turn.player is None else turn.player + 1}'s"
                )
            held = hands[expected]
            if not held:
                raise PlanError(f"{where}: player {expected + 1} has no card: the round is lost")
            if turn.swap is not None:
                _swap(round_, hands, expected, turn.swap, swapped, where)
                swapped = True
        if turn.card not in held:
            holder = "the pool" if pooled or turn.player is None else f"player {turn.player + 1}"
            raise PlanError(f"{where}: {holder} holds no {turn.card} card")
        held.remove(turn.card)
        try:
            position, falls = play_action(round_, position, turn.card, turn.action)
            position, extra = gets_going(round_, position)
        except RuleError as error:
            raise PlanError(f"{where}: {error}") from None
        if extra is not None:
            falls += (extra,)
        no_entry = round_.challenges.no_entry
        if no_entry is not None and enters(falls, no_entry):
            raise PlanError(f"{where}: the die enters the No entry room {temple.names[no_entry]}: the round is lost")
        before = explored
        explored = explore(round_, explored, position.die)
        state = TempleState(position.down, position.die, position.walls, explored)
        records.append(
            TurnRecord(
                number,
                turn,
                falls,
                state,
                position.die if explored != before else None,
                any(dropped.length > round_.bounce for dropped in falls),
                won(round_, state),
            )
        )
    return Replay(round_, tuple(records), pooled)


def _swap(round_: Round, hands: list[list[str]], player: int, swap: Swap, used: bool, where: str) -> None:
    """The rule: "Swap card: once per round, the current player may swap one of their cards with one card of another
    player, before or after playing." The other player always agrees (full information)."""
    if not round_.swap:
        raise PlanError(f"{where}: this round is played without the Swap card token")
    if used:
        raise PlanError(f"{where}: the Swap card token was already used this round")
    if not 0 <= swap.other < round_.players or swap.other == player:
        raise PlanError(f"{where}: no other player {swap.other + 1} to swap with")
    if swap.gave not in CARDS or swap.gave not in hands[player]:
        raise PlanError(f"{where}: player {player + 1} holds no {swap.gave} card to give")
    if swap.got not in CARDS or swap.got not in hands[swap.other]:
        raise PlanError(f"{where}: player {swap.other + 1} holds no {swap.got} card to give")
    hands[player].remove(swap.gave)
    hands[swap.other].remove(swap.got)
    hands[player].append(swap.got)
    hands[swap.other].append(swap.gave)


def record_json(round_: Round, record: TurnRecord) -> dict[str, Any]:
    """A replayed turn as the JSON of a plan: player (1-based, null when pooled), card, action in words and
    as steps, the swap, the die's path, the falls, the temple after the turn."""
    temple = round_.temple
    turn = record.turn
    steps = [[step[0]] if len(step) == 1 else [step[0], temple.slot_name(step[1])] for step in turn.action]
    path = [temple.names[record.falls[0].start]] if record.falls else []
    for dropped in record.falls:
        path += [temple.names[room] for room in dropped.path]
    state = record.state
    return {
        "turn": record.number,
        "player": None if turn.player is None else turn.player + 1,
        "card": turn.card,
        "action": describe_action(temple, turn.card, turn.action),
        "steps": steps,
        "swap": None
        if turn.swap is None
        else {"with": turn.swap.other + 1, "gave": turn.swap.gave, "got": turn.swap.got},
        "path": path,
        "falls": [dropped.length for dropped in record.falls],
        "may_bounce": record.may_bounce,
        "down": side_name(state.down),
        "die": temple.names[state.die],
        "walls": sorted(temple.slot_name(slot) for slot in range(len(temple.slots)) if state.walls >> slot & 1),
        "supply": round_.pieces - state.walls.bit_count(),
        "explored": [temple.names[room] for index, room in enumerate(round_.targets) if state.explored >> index & 1],
        "won": record.won,
    }
