"""The reference engine for Temple Twist: an exact search over full states, in order of turns.

A full state is everything the rest of a round depends on: the down side, the die's room, the variable
walls, the explored targets, every player's hand (cards counted by kind) and whether the Swap card token
has been used. The turn number follows from the cards left, so a state is met at one depth only. The moves
are the plain rules' own (twisty.rules.temple.semantics.card_outcomes), memoised per position and card.

Two exact reductions keep the search small:

- The order: states are taken in order of (turns played + a lower bound on the turns still needed), the
  bound being consistent (it falls by at most one a turn), so the first winning state found at the
  current order is a shortest plan, as in a breadth-first search (A* with a consistent bound). The bound:
  a turn's end explores at most one room, and when the door room is not a room still to explore, one
  more turn must end there after the last one is explored.
- The swap: a plan that swaps can always swap at the turn where the first swapped card is played, by the
  player who plays it (proof in docs/temple.md), with the same cards played on the same turns and so the
  same temple states. The search therefore swaps only to play, at once, a kind of card the player lacks.

Uniqueness: "two plans differ when the sequence of temple states after each turn differs". A second search
to the same depth carries one more bit, whether the temple has left the first plan's sequence of states;
a winning state reached with the bit set is a second plan.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator
from typing import Any

from twisty.errors import LimitReached
from twisty.limits import Deadline
from twisty.rules.temple.model import CARDS, Round, TempleState
from twisty.rules.temple.replayer import PlanTurn, Swap
from twisty.rules.temple.semantics import Position, card_outcomes, explore, max_turns, won
from twisty.solver.temple_answers import FOUND, NONE, SOLVABLE, UNKNOWN, UNSOLVABLE, PlanAnswer, SecondAnswer

NAME = "search"
AVAILABLE = True
# States expanded between two looks at the deadline.
POLL_EVERY = 128

State = tuple
Expand = Callable[[State, int], Iterator[tuple[State, PlanTurn]]]
KINDS = range(len(CARDS))


class Moves:
    """Every outcome of each card from each temple position, computed once: for each resulting position
    the action with the shortest longest fall (so that a bounce-safe outcome is kept when there is one)."""

    def __init__(self, round_: Round, bounce_safe: bool) -> None:
        self.round = round_
        self.limit = round_.bounce if bounce_safe else None
        self.memo: dict[tuple[int, int, int, int], list[tuple[tuple, int, int, int]]] = {}

    def of(self, down: int, die: int, walls: int, card: int) -> list[tuple[tuple, int, int, int]]:
        key = (down, die, walls, card)
        found = self.memo.get(key)
        if found is None:
            best: dict[tuple[int, int, int], tuple[int, tuple]] = {}
            for outcome in card_outcomes(self.round, Position(down, die, walls), CARDS[card]):
                if self.limit is not None and outcome.longest_fall > self.limit:
                    continue
                after = outcome.position
                result = (after.down, after.die, after.walls)
                if result not in best or outcome.longest_fall < best[result][0]:
                    best[result] = (outcome.longest_fall, outcome.action)
            found = [(action, *result) for result, (_, action) in best.items()]
            self.memo[key] = found
        return found


class Bound:
    """A lower bound on the turns still needed from a full state (infinite when no win is left); consistent:
    one turn lowers it by at most one. "At the end of each turn, if the die lies in a revealed room, that
    room is explored": one room a turn. The win needs the die in the door room, so when that room is not
    still to be explored, a turn after the last exploring one must end there. And the door must point down:
    only a quarter turn changes the down side, so with the door not down and no turning card left in any
    hand (nor Now it gets going), the round cannot be won."""

    NEVER = 10**9

    def __init__(self, round_: Round) -> None:
        self.round = round_
        self.full = round_.all_explored
        door_room = round_.door.room
        self.door_bits = sum(1 << index for index, room in enumerate(round_.targets) if room == door_room)
        self.turns_itself = round_.challenges.gets_going is not None

    def of(self, state: State) -> int:
        down, die, _, explored = state[:4]
        door = self.round.door
        if down != door.side and not self.turns_itself and not _turning_left(state[4]):
            return self.NEVER
        missing = self.full & ~explored
        if not missing:
            return 0 if die == door.room and down == door.side else 1
        return missing.bit_count() + (0 if missing & self.door_bits else 1)


def _turning_left(cards: tuple) -> bool:
    """Whether a turn1, turn2 or turnAny is left: in the pool (counts), or in some hand (counts per hand)."""
    if cards and isinstance(cards[0], tuple):
        return any(hand[0] or hand[1] or hand[2] for hand in cards)
    return bool(cards[0] or cards[1] or cards[2])


def _seat_expand(round_: Round, moves: Moves) -> Expand:
    """The turns of a round in seat order, the swap included: "once per round, the current player may swap
    one of their cards with one card of another player, before or after playing". The swap is made only
    where its first card is played at once (see the module's docstring)."""
    players = round_.players

    def expand(state: State, depth: int) -> Iterator[tuple[State, PlanTurn]]:
        down, die, walls, explored, hands, used = state
        player = round_.player_of_turn(depth)
        hand = hands[player]
        if not any(hand):
            return  # "A player with no card on their turn loses the round."
        plays: list[tuple[int, tuple, bool, Swap | None]] = []
        for card in KINDS:
            if hand[card]:
                plays.append((card, hands[:player] + (_moved(hand, card, None),) + hands[player + 1 :], used, None))
            elif round_.swap and not used:
                # Take the card from another player who holds one, giving one of one's own.
                for other in range(players):
                    theirs = hands[other]
                    if other == player or not theirs[card]:
                        continue
                    for gave in KINDS:
                        if not hand[gave]:
                            continue
                        after = list(hands)
                        after[player] = _moved(hand, gave, None)
                        after[other] = _moved(theirs, card, gave)
                        plays.append((card, tuple(after), True, Swap(other, CARDS[gave], CARDS[card])))
        for card, after_hands, now_used, swap in plays:
            for action, new_down, new_die, new_walls in moves.of(down, die, walls, card):
                new_explored = explore(round_, explored, new_die)
                yield (
                    (new_down, new_die, new_walls, new_explored, after_hands, now_used),
                    PlanTurn(player, CARDS[card], action, swap),
                )

    return expand


def _pool_expand(round_: Round, moves: Moves) -> Expand:
    """Pooled: "all cards in one pool, any card on any turn, no seat order, no swap"."""

    def expand(state: State, depth: int) -> Iterator[tuple[State, PlanTurn]]:
        down, die, walls, explored, pool = state
        for card in KINDS:
            if not pool[card]:
                continue
            rest = _moved(pool, card, None)
            for action, new_down, new_die, new_walls in moves.of(down, die, walls, card):
                yield (
                    (new_down, new_die, new_walls, explore(round_, explored, new_die), rest),
                    PlanTurn(None, CARDS[card], action),
                )

    return expand


def _moved(counts: tuple[int, ...], out: int, into: int | None) -> tuple[int, ...]:
    """Card counts with one card of kind `out` taken away and one of kind `into` (if any) added."""
    changed = list(counts)
    changed[out] -= 1
    if into is not None:
        changed[into] += 1
    return tuple(changed)


def _temple_state(state: State) -> TempleState:
    return TempleState(state[0], state[1], state[2], state[3])


def _start(round_: Round, pooled: bool) -> State:
    core = (round_.down, round_.die, round_.walls, 0)
    if pooled:
        return core + (round_.pooled_counts(),)
    return core + (round_.hand_counts(), False)


def _shortest(round_: Round, deadline: Deadline, start: State, expand: Expand, most_turns: int) -> PlanAnswer:
    """The shortest path from `start` to a winning state: states in buckets by turns played + bound,
    deepest first within a bucket; a win found at the current bucket's value is a shortest plan."""
    if deadline.expired():
        return PlanAnswer(UNKNOWN, cap=deadline.cap)
    if round_.challenges.no_entry == round_.die:
        return PlanAnswer(UNSOLVABLE)  # "a die that starts in X makes the round unwinnable"
    bound = Bound(round_)
    parents: dict[Hashable, tuple[State, PlanTurn] | None] = {start: None}
    first = bound.of(start)
    buckets: list[list[list[State]]] = [[] for _ in range(most_turns + 1)]
    if first <= most_turns:
        buckets[first].append([start])
    expanded = 0
    try:
        for order in range(most_turns + 1):
            # buckets[order][depth]: states with depth + bound == order, taken deepest first
            layers = buckets[order]
            while layers:
                depth = len(layers) - 1
                layer = layers[depth]
                if not layer:
                    layers.pop()
                    continue
                state = layer.pop()
                if depth and won(round_, _temple_state(state)):
                    return _answer(parents, state)  # the round ends at the win
                expanded += 1
                if expanded % POLL_EVERY == 0:
                    deadline.check()
                for successor, turn in expand(state, depth):
                    if successor in parents:
                        continue
                    parents[successor] = (state, turn)
                    if won(round_, _temple_state(successor)) and depth + 1 == order:
                        return _answer(parents, successor)
                    total = depth + 1 + bound.of(successor)
                    if total > most_turns:
                        continue
                    target = buckets[total]
                    while len(target) <= depth + 1:
                        target.append([])
                    target[depth + 1].append(successor)
    except LimitReached:
        return PlanAnswer(UNKNOWN, cap=deadline.cap)
    return PlanAnswer(UNSOLVABLE)


def _path(parents: dict, node: Any) -> tuple[tuple[PlanTurn, ...], tuple[Any, ...]]:
    """The turns and the nodes (start left out) on the way to `node`."""
    plan, nodes = [], []
    while parents[node] is not None:
        previous, turn = parents[node]
        plan.append(turn)
        nodes.append(node)
        node = previous
    return tuple(reversed(plan)), tuple(reversed(nodes))


def _answer(parents: dict, state: State) -> PlanAnswer:
    plan, states = _path(parents, state)
    return PlanAnswer(SOLVABLE, plan, tuple(_temple_state(state) for state in states))


def fewest_turns(round_: Round, deadline: Deadline, *, bounce_safe: bool = False, at_least: int = 1) -> PlanAnswer:
    """The shortest winning plan in seat order (the search finds shortest plans itself: `at_least` is not
    needed)."""
    moves = Moves(round_, bounce_safe)
    return _shortest(round_, deadline, _start(round_, False), _seat_expand(round_, moves), max_turns(round_))


def pooled_turns(round_: Round, deadline: Deadline) -> PlanAnswer:
    """The shortest plan with all cards in one pool: "at most as many turns as cards"."""
    moves = Moves(round_, False)
    return _shortest(round_, deadline, _start(round_, True), _pool_expand(round_, moves), round_.card_total())


def second_plan(round_: Round, deadline: Deadline, first: PlanAnswer) -> SecondAnswer:
    """A winning plan of the same length as `first` whose temple states differ from first.states at some
    turn, or NONE: every state within reach of a win in that many turns (by the bound) is visited once,
    each carrying the bit "left the first plan's states". Depth first, states that have left the first plan
    and are nearest a win by the bound first, so that a second plan, when there is one, is met early."""
    assert first.plan is not None and first.states is not None
    target = first.states
    turns = len(target)
    if deadline.expired():
        return SecondAnswer(UNKNOWN, cap=deadline.cap)
    if round_.challenges.no_entry == round_.die:
        return SecondAnswer(NONE)
    bound = Bound(round_)
    expand = _seat_expand(round_, Moves(round_, False))
    start = (_start(round_, False), False)
    parents: dict[Hashable, tuple[tuple, PlanTurn] | None] = {start: None}
    stack: list[tuple[tuple, int]] = [(start, 0)]
    expanded = 0
    try:
        while stack:
            (state, left), depth = stack.pop()
            expanded += 1
            if expanded % POLL_EVERY == 0:
                deadline.check()
            following = []
            for successor, turn in expand(state, depth):
                temple = _temple_state(successor)
                marked = (successor, left or temple != target[depth])
                if marked in parents:
                    continue
                needed = bound.of(successor)
                if depth + 1 + needed > turns:
                    continue
                parents[marked] = ((state, left), turn)
                if won(round_, temple):
                    if marked[1] and depth + 1 == turns:
                        plan, nodes = _path(parents, marked)
                        return SecondAnswer(FOUND, plan, tuple(_temple_state(node[0]) for node in nodes))
                    continue  # the round ends at the win
                if depth + 1 < turns:
                    following.append((marked[1], -needed, marked))
            # Taken from the end: the last pushed (left the first plan, nearest a win) is expanded first.
            following.sort(key=lambda item: (item[0], item[1]))
            stack.extend((marked, depth + 1) for _, _, marked in following)
    except LimitReached:
        return SecondAnswer(UNKNOWN, cap=deadline.cap)
    return SecondAnswer(NONE)
