"""The bench's baseline for Temple Twist: a plain breadth-first search over full states, written for the bench
alone and sharing no code with the engines (only the plain rules of twisty.rules.temple.semantics).

A full state is the temple state (down side, die, variable walls, explored targets), every hand counted by
card kind and whether the Swap card token is used. Each card's outcomes come from playing every action the
card allows step by step with the rules (`apply_step`), memoised per temple position and card. The swap is
tried in every form the model allows (any card given for any card of any other player, before playing). The
four questions:

- fewest turns: layer after layer from the start, until a layer holds a won state (or none is left);
- unique: a second search to the same depth over (full state, whether the temple has left the first plan's
  sequence of states); a won state at that depth that has left it is another plan;
- bounce-safe: the first search with only the outcomes whose every fall is at most the round's bounce;
- pooled: the first search over (temple state, the pool's counts).

Each search takes the time of its own deadline (`Deadline.check` at every state), so a round it cannot finish
is unknown.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from twisty.errors import LimitReached
from twisty.limits import Deadline
from twisty.rules.temple.model import CARDS, TURNS, Round, TempleState
from twisty.rules.temple.semantics import (
    Position,
    RuleError,
    apply_step,
    explore,
    gets_going,
    max_turns,
    won,
)


@dataclass(frozen=True)
class PlainAnswers:
    """The baseline's answers (None: not decided within the deadline)."""

    solvable: bool | None
    turns: int | None
    unique: bool | None
    bounce_safe: bool | None
    bounce_safe_turns: int | None
    pooled_solvable: bool | None
    pooled_turns: int | None


class PlainMoves:
    """Every outcome of each card from each position, by playing each action with the rules: the position
    after it and the longest fall on the way (the gets-going turn included); memoised."""

    def __init__(self, round_: Round) -> None:
        self.round = round_
        self.memo: dict[tuple[int, int, int, str], dict[tuple[int, int, int], int]] = {}

    def of(self, down: int, die: int, walls: int, card: str) -> dict[tuple[int, int, int], int]:
        key = (down, die, walls, card)
        if key not in self.memo:
            found: dict[tuple[int, int, int], int] = {}
            for end, longest in self._played(Position(down, die, walls), card):
                if end is not None:
                    after = (end.down, end.die, end.walls)
                    found[after] = min(longest, found.get(after, longest))
            self.memo[key] = found
        return self.memo[key]

    def _steps(self, start: Position, steps: list[tuple]) -> tuple[Position | None, int]:
        """The steps played one by one; None when a step is not allowed or the die enters No entry."""
        forbidden = self.round.challenges.no_entry
        position, longest = start, 0
        for step in steps:
            try:
                position, dropped = apply_step(self.round, position, step)
            except RuleError:
                return None, 0
            if dropped is not None:
                if forbidden in dropped.path:
                    return None, 0
                longest = max(longest, dropped.length)
        return self._going(position, longest)

    def _going(self, position: Position, longest: int) -> tuple[Position | None, int]:
        after, dropped = gets_going(self.round, position)
        if dropped is not None:
            if self.round.challenges.no_entry in dropped.path:
                return None, 0
            longest = max(longest, dropped.length)
        return after, longest

    def _played(self, start: Position, card: str):
        temple = self.round.temple
        yield self._steps(start, [])  # "Any action may be forgone"
        if card in ("turn1", "turn2"):
            for first in TURNS:
                yield self._steps(start, [(first,)])
                if card == "turn2":
                    for second in TURNS:
                        yield self._steps(start, [(first,), (second,)])
        elif card == "turnAny":
            # k >= 1 turns in one direction: each k is the k - 1 before and one more; once the die's (down,
            # room) repeats, further turns repeat what came before (the walls do not change).
            forbidden = self.round.challenges.no_entry
            for direction in TURNS:
                position, longest, seen = start, 0, set()
                while (position.down, position.die) not in seen:
                    seen.add((position.down, position.die))
                    position, dropped = apply_step(self.round, position, (direction,))
                    assert dropped is not None
                    if forbidden in dropped.path:
                        break
                    longest = max(longest, dropped.length)
                    yield self._going(position, longest)
        elif card in ("wall1", "wall2"):
            # Builds go into empty slots that can take a wall, removals take a wall standing (the rules refuse
            # the rest); two of a kind in either order.
            empty = [slot for slot in temple.variable_slots() if not start.walls >> slot & 1]
            standing = [slot for slot in temple.variable_slots() if start.walls >> slot & 1]
            for kind, slots in (("build", empty), ("remove", standing)):
                for slot in slots:
                    yield self._steps(start, [(kind, slot)])
                    if card == "wall2":
                        for other in slots:
                            if other != slot:
                                yield self._steps(start, [(kind, slot), (kind, other)])
        elif card == "move":
            for slot in temple.variable_slots():
                if start.walls >> slot & 1:
                    for target in temple.variable_slots():
                        if target == slot or not start.walls >> target & 1:
                            yield self._steps(start, [("remove", slot), ("build", target)])


def _hand_options(round_: Round, hands: tuple, used: bool, player: int):
    """The hands after the swap (or none), "once per round, ... one of their cards with one card of another
    player": every (other player, card given, card taken)."""
    yield hands, used
    if not round_.swap or used:
        return
    mine = hands[player]
    for other, theirs in enumerate(hands):
        if other == player:
            continue
        for gave in range(len(CARDS)):
            for got in range(len(CARDS)):
                if mine[gave] and theirs[got] and gave != got:
                    after = list(hands)
                    changed_mine, changed_theirs = list(mine), list(theirs)
                    changed_mine[gave] -= 1
                    changed_mine[got] += 1
                    changed_theirs[got] -= 1
                    changed_theirs[gave] += 1
                    after[player], after[other] = tuple(changed_mine), tuple(changed_theirs)
                    yield tuple(after), True


def _seat_successors(round_: Round, moves: PlainMoves, state: tuple, depth: int, bounce: int | None):
    down, die, walls, explored, hands, used = state
    player = round_.player_of_turn(depth)
    seen = set()
    for options, now_used in _hand_options(round_, hands, used, player):
        hand = options[player]
        for kind, count in enumerate(hand):
            if not count:
                continue
            after_hand = hand[:kind] + (count - 1,) + hand[kind + 1 :]
            after_hands = options[:player] + (after_hand,) + options[player + 1 :]
            for (new_down, new_die, new_walls), longest in moves.of(down, die, walls, CARDS[kind]).items():
                if bounce is not None and longest > bounce:
                    continue
                successor = (new_down, new_die, new_walls, explore(round_, explored, new_die), after_hands, now_used)
                if successor not in seen:
                    seen.add(successor)
                    yield successor


def _pool_successors(round_: Round, moves: PlainMoves, state: tuple, depth: int, bounce: int | None):
    down, die, walls, explored, pool = state
    for kind, count in enumerate(pool):
        if count:
            rest = pool[:kind] + (count - 1,) + pool[kind + 1 :]
            for new_down, new_die, new_walls in moves.of(down, die, walls, CARDS[kind]):
                yield (new_down, new_die, new_walls, explore(round_, explored, new_die), rest)


def _won(round_: Round, state: tuple) -> bool:
    return won(round_, TempleState(state[0], state[1], state[2], state[3]))


def breadth_first(round_: Round, deadline: Deadline, *, pooled: bool = False, bounce: int | None = None):
    """The fewest turns and the temple states of a shortest plan, or (None, None) when no plan exists."""
    moves = PlainMoves(round_)
    core: tuple = (round_.down, round_.die, round_.walls, 0)
    start: tuple
    if pooled:
        start, successors, most = core + (round_.pooled_counts(),), _pool_successors, round_.card_total()
    else:
        start, successors, most = core + (round_.hand_counts(), False), _seat_successors, max_turns(round_)
    if round_.challenges.no_entry == round_.die:
        return None, None
    parent: dict[tuple, tuple | None] = {start: None}
    layer = [start]
    for depth in range(most):
        following = []
        for state in layer:
            deadline.check()
            for successor in successors(round_, moves, state, depth, bounce):
                if successor in parent:
                    continue
                parent[successor] = state
                if _won(round_, successor):
                    states = []
                    node: tuple | None = successor
                    while node is not None and node != start:
                        states.append(TempleState(node[0], node[1], node[2], node[3]))
                        node = parent[node]
                    return depth + 1, tuple(reversed(states))
                following.append(successor)
        layer = following
    return None, None


def another_plan(round_: Round, deadline: Deadline, first: tuple[TempleState, ...]) -> bool:
    """Whether a plan of len(first) turns goes through another sequence of temple states."""
    moves = PlainMoves(round_)
    start = ((round_.down, round_.die, round_.walls, 0, round_.hand_counts(), False), False)
    layer, seen = [start], {start}
    turns = len(first)
    for depth in range(turns):
        following = []
        for state, left in layer:
            deadline.check()
            for successor in _seat_successors(round_, moves, state, depth, None):
                now_left = left or TempleState(*successor[:4]) != first[depth]
                if (successor, now_left) in seen:
                    continue
                seen.add((successor, now_left))
                if _won(round_, successor):
                    if depth + 1 == turns and now_left:
                        return True
                    continue  # the round ends at the win
                following.append((successor, now_left))
        layer = following
    return False


def answer_all(round_: Round, deadline: Deadline) -> PlainAnswers:
    """Every question of the round, each decided or None where the deadline passed first."""
    found: dict[str, Any] = dict.fromkeys(PlainAnswers.__dataclass_fields__)
    try:
        turns, states = breadth_first(round_, deadline)
        found["solvable"], found["turns"] = turns is not None, turns
        found["unique"] = states is not None and not another_plan(round_, deadline, states)
        safe, _ = breadth_first(round_, deadline, bounce=round_.bounce)
        found["bounce_safe"], found["bounce_safe_turns"] = safe is not None, safe
        pooled, _ = breadth_first(round_, deadline, pooled=True)
        found["pooled_solvable"], found["pooled_turns"] = pooled is not None, pooled
    except LimitReached:
        pass
    return PlainAnswers(**found)
