"""The search engine's tables: temple positions and hands as small integers, every card's outcomes from a
position computed once, the hands after each play computed once.

A position is one integer, `walls << 8 | down << 6 | die` (a temple has at most 8 x 8 rooms, so the die takes
6 bits). The outcomes of a card from a position are the positions it can leave (the gets-going turn
included, the ones in which the die enters No entry left out), each with the shortest longest fall that
reaches it, kept in two lists: all of them, and the bounce-safe ones. They are the outcomes of
twisty.rules.temple.semantics.card_outcomes (tests/solver/test_temple_moves.py holds the two equal), taken
here on integers.

Hands are numbered as they are met: an id stands for every player's hand (counts by card kind) or, pooled,
the pool's counts; the plays from an id (the card, the id after it, the swap) are listed once.

Work is counted (outcomes computed, states met) in `Work`, so that a search looks at its deadline after a
fixed amount of work, not after a number of states: one state of a big temple has thousands of outcomes.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from twisty.limits import Deadline
from twisty.rules.temple.model import CARDS, Round, Temple
from twisty.rules.temple.replayer import Swap
from twisty.rules.temple.semantics import Outcome, Position, card_outcomes, explore, max_turns

TURN1, TURN2, TURN_ANY, WALL1, WALL2, MOVE = range(6)
TURNING = (TURN1, TURN2, TURN_ANY)
KINDS = range(len(CARDS))
DIE_BITS, DOWN_SHIFT, WALL_SHIFT = 63, 6, 8


class Work:
    """Work done, counted in units (an outcome computed or a state met is one unit: about a microsecond or
    two). The deadline is looked at every `every` units, and a search pauses (yields) as often, so that it
    can run in slices beside another engine."""

    def __init__(self, deadline: Deadline, every: int = 4096) -> None:
        self.deadline = deadline
        self.every = every
        self.done = 0
        self.next_look = 0  # looked at once at the start
        self.next_pause = every

    def add(self, units: int) -> None:
        """Count `units`; LimitReached (from Deadline.check) once the deadline has passed."""
        self.done += units
        if self.done >= self.next_look:
            self.next_look = self.done + self.every
            self.deadline.check()

    def pause_due(self) -> bool:
        """Whether a pause is due (once every `every` units)."""
        if self.done < self.next_pause:
            return False
        self.next_pause = self.done + self.every
        return True


@functools.lru_cache(maxsize=64)
def rays(temple: Temple) -> tuple[tuple[tuple[tuple[int, int], ...], ...], ...]:
    """rays(temple)[down][room]: the (slot bit, room) pairs the die crosses falling from `room` with `down`
    down; made once per temple (every question of a round, and every round of a temple, read them)."""
    found = []
    for down in range(4):
        per_room = []
        for room in range(temple.room_count):
            ray, here = [], room
            while temple.next_room[down][here] >= 0:
                ray.append((1 << temple.slot_below[down][here], temple.next_room[down][here]))
                here = temple.next_room[down][here]
            per_room.append(tuple(ray))
        found.append(tuple(per_room))
    return tuple(found)


def position(down: int, die: int, walls: int) -> int:
    return walls << WALL_SHIFT | down << DOWN_SHIFT | die


def unpack(where: int) -> tuple[int, int, int]:
    """(down, die, walls) of a position."""
    return (where >> DOWN_SHIFT) & 3, where & DIE_BITS, where >> WALL_SHIFT


class Moves:
    """Every card's outcomes from every position met, as two lists of positions: all, and the bounce-safe ones
    (no fall longer than the round's bounce)."""

    def __init__(self, round_: Round, work: Work) -> None:
        temple = round_.temple
        self.round = round_
        self.work = work
        self.bounce = round_.bounce
        self.fixed = temple.fixed
        self.pieces = round_.pieces
        self.forbidden = -1 if round_.challenges.no_entry is None else round_.challenges.no_entry
        going = round_.challenges.gets_going
        self.going = None if going is None else (1 if going == "right" else 3)
        self.variable = [1 << slot for slot in temple.variable_slots()]
        self.rays = rays(temple)
        self.memo: dict[int, tuple[list[int], list[int]]] = {}
        self.ways_memo: dict[int, dict[int, list[Outcome]]] = {}

    def of(self, where: int, kind: int) -> tuple[list[int], list[int]]:
        """(every outcome, the bounce-safe outcomes) of card `kind` from position `where`."""
        key = where << 3 | kind
        found = self.memo.get(key)
        if found is None:
            best = self.outcomes(where, kind)
            self.work.add(len(best) + 1)
            bounce = self.bounce
            found = (list(best), [after for after, longest in best.items() if longest <= bounce])
            self.memo[key] = found
        return found

    def ways(self, where: int, kind: int) -> dict[int, list[Outcome]]:
        """The rules' own outcomes of card `kind` from `where` (card_outcomes, with their actions), by the
        position they leave; made once per position and card, for the plans' turns."""
        key = where << 3 | kind
        found = self.ways_memo.get(key)
        if found is None:
            down, die, walls = unpack(where)
            found = self.ways_memo[key] = {}
            for outcome in card_outcomes(self.round, Position(down, die, walls), CARDS[kind]):
                end = outcome.position
                found.setdefault(position(end.down, end.die, end.walls), []).append(outcome)
        return found

    def fall(self, blocked: int, down: int, die: int) -> tuple[int, int]:
        """Where the die comes to rest and the rooms it entered (-1 when it entered No entry)."""
        length = 0
        forbidden = self.forbidden
        for bit, room in self.rays[down][die]:
            if blocked & bit:
                break
            die = room
            length += 1
            if room == forbidden:
                return die, -1
        return die, length

    def outcomes(self, where: int, kind: int) -> dict[int, int]:
        """Each position the card can leave, with the shortest longest fall reaching it; the rules of
        card_outcomes (twisty.rules.temple.semantics), whose docstring lists them."""
        down, die, walls = unpack(where)
        fixed, fall, going = self.fixed, self.fall, self.going
        best: dict[int, int] = {}

        def finish(end_down: int, end_die: int, end_walls: int, longest: int) -> None:
            if going is not None:
                end_down = (end_down + going) & 3
                end_die, length = fall(end_walls | fixed, end_down, end_die)
                if length < 0:
                    return
                longest = max(longest, length)
            after = end_walls << WALL_SHIFT | end_down << DOWN_SHIFT | end_die
            if longest < best.get(after, 1 << 30):
                best[after] = longest

        finish(down, die, walls, 0)  # forgone
        blocked = walls | fixed
        if kind in TURNING:
            for step in (3, 1):  # left, right
                first_down = (down + step) & 3
                first_die, first = fall(blocked, first_down, die)
                if first < 0:
                    continue
                finish(first_down, first_die, walls, first)
                if kind == TURN2:
                    for second_step in (3, 1):
                        second_down = (first_down + second_step) & 3
                        second_die, second = fall(blocked, second_down, first_die)
                        if second >= 0:
                            finish(second_down, second_die, walls, max(first, second))
                elif kind == TURN_ANY:
                    seen = {first_down << 6 | first_die}
                    now_down, now_die, longest = first_down, first_die, first
                    while True:
                        now_down = (now_down + step) & 3
                        now_die, length = fall(blocked, now_down, now_die)
                        if length < 0 or (now_down << 6 | now_die) in seen:
                            break
                        seen.add(now_down << 6 | now_die)
                        longest = max(longest, length)
                        finish(now_down, now_die, walls, longest)
            return best
        supply = self.pieces - walls.bit_count()
        empty = [bit for bit in self.variable if not walls & bit]
        standing = [bit for bit in self.variable if walls & bit]
        removed = []
        for bit in standing:
            after = walls & ~bit
            end, length = fall(after | fixed, down, die)
            if length >= 0:
                removed.append((bit, after, end, length))
        if kind in (WALL1, WALL2):
            if supply >= 1:
                for bit in empty:
                    finish(down, die, walls | bit, 0)
            for _, after, end, length in removed:
                finish(down, end, after, length)
        if kind == WALL2:
            if supply >= 2:
                for index, bit in enumerate(empty):
                    with_first = walls | bit
                    for other in empty[index + 1 :]:
                        finish(down, die, with_first | other, 0)
            for first_bit, after, end, length in removed:
                for bit in standing:
                    if bit != first_bit:
                        last = after & ~bit
                        second_end, second = fall(last | fixed, down, end)
                        if second >= 0:
                            finish(down, second_end, last, max(length, second))
        elif kind == MOVE:
            for _, after, end, length in removed:
                finish(down, end, walls, length)  # back into the slot it left
                for other in empty:
                    finish(down, end, after | other, length)
        return best


class Hands:
    """Hands numbered as they are met. Seat order: an id stands for every player's counts by kind; the turn
    number follows from the cards left, and with it the player. Pooled: an id stands for the pool's counts.

    plays(id, swap used) lists (card kind, id after, swap used after, the swap or None). The swap is made
    only to play at once a kind the player lacks (see twisty.solver.temple_search)."""

    def __init__(self, round_: Round, pooled: bool) -> None:
        self.round = round_
        self.pooled = pooled
        self.swapping = round_.swap and not pooled and round_.players > 1
        start = round_.pooled_counts() if pooled else round_.hand_counts()
        self.total = round_.card_total()
        self.ids: dict[tuple, int] = {}
        self.hands: list[tuple] = []
        self.turning: list[bool] = []
        self.turns: list[int] = []  # per id, the turns played
        self.start = self.id_of(start)
        self.cache: dict[int, list[tuple[int, int, int, Swap | None]]] = {}

    @functools.cached_property
    def most_turns(self) -> int:
        """The most turns the round can last ("at most as many turns as cards" pooled)."""
        return self.total if self.pooled else max_turns(self.round)

    def id_of(self, hands: tuple) -> int:
        found = self.ids.get(hands)
        if found is None:
            found = self.ids[hands] = len(self.hands)
            self.hands.append(hands)
            self.turning.append(self._turning_left(hands))
            left = sum(hands) if self.pooled else sum(sum(hand) for hand in hands)
            self.turns.append(self.total - left)
        return found

    def turn_of(self, hid: int) -> int:
        """The turns played (0-based number of the next turn)."""
        return self.turns[hid]

    def _turning_left(self, hands: tuple) -> bool:
        """Whether a turn1, turn2 or turnAny is left (`turning[id]` holds it for every id)."""
        if self.pooled:
            return bool(hands[TURN1] or hands[TURN2] or hands[TURN_ANY])
        return any(hand[TURN1] or hand[TURN2] or hand[TURN_ANY] for hand in hands)

    def plays(self, hid: int, used: int) -> list[tuple[int, int, int, Swap | None]]:
        key = hid << 1 | used
        found = self.cache.get(key)
        if found is None:
            found = self.cache[key] = self._plays(hid, used)
        return found

    def own_kinds(self, hid: int) -> list[int]:
        """The kinds the player whose turn it is (or the pool) holds: the plays without a swap."""
        hands = self.hands[hid]
        hand = hands if self.pooled else hands[self.round.player_of_turn(self.turn_of(hid))]
        return [kind for kind in KINDS if hand[kind]]

    def own_play(self, hid: int, kind: int) -> int:
        """The id after the player (or the pool) plays a card of `kind` they hold, without a swap."""
        hands = self.hands[hid]
        if self.pooled:
            return self.id_of(_less(hands, kind, None))
        player = self.round.player_of_turn(self.turn_of(hid))
        return self.id_of(hands[:player] + (_less(hands[player], kind, None),) + hands[player + 1 :])

    def _plays(self, hid: int, used: int) -> list[tuple[int, int, int, Swap | None]]:
        hands = self.hands[hid]
        if self.pooled:
            return [(kind, self.id_of(_less(hands, kind, None)), 0, None) for kind in KINDS if hands[kind]]
        player = self.round.player_of_turn(self.turn_of(hid))
        hand = hands[player]
        if not any(hand):
            return []  # "A player with no card on their turn loses the round."
        found: list[tuple[int, int, int, Swap | None]] = []
        for kind in KINDS:
            if hand[kind]:
                after = hands[:player] + (_less(hand, kind, None),) + hands[player + 1 :]
                found.append((kind, self.id_of(after), used, None))
            elif self.swapping and not used:
                found.extend(self._swaps_for(hands, player, kind))
        return found

    def swap_plays(self, hid: int, used: int) -> Iterator[tuple[int, int, int, Swap]]:
        """The plays of plays() that swap, made one at a time (for a look that may stop at the first)."""
        if self.pooled or not self.swapping or used:
            return
        hands = self.hands[hid]
        player = self.round.player_of_turn(self.turn_of(hid))
        if not any(hands[player]):
            return
        for kind in KINDS:
            if not hands[player][kind]:
                yield from self._swaps_for(hands, player, kind)

    def swap_kinds(self, hid: int, used: int) -> list[int]:
        """The kinds the player whose turn it is may play only through the swap (another player holds one),
        without making the hands after each swap (first_swap makes one when it is needed)."""
        if self.pooled or not self.swapping or used:
            return []
        hands = self.hands[hid]
        player = self.round.player_of_turn(self.turn_of(hid))
        hand = hands[player]
        if not any(hand):
            return []
        return [
            kind
            for kind in KINDS
            if not hand[kind] and any(theirs[kind] for other, theirs in enumerate(hands) if other != player)
        ]

    def first_swap(self, hid: int, kind: int) -> tuple[int, int, int, Swap]:
        """The first of the swap plays (as plays() lists them) that play a card of `kind`."""
        player = self.round.player_of_turn(self.turn_of(hid))
        return next(self._swaps_for(self.hands[hid], player, kind))

    def _swaps_for(self, hands: tuple, player: int, kind: int) -> Iterator[tuple[int, int, int, Swap]]:
        """Take a card of `kind` (which the player lacks) from another player who holds one, giving one of
        one's own."""
        hand = hands[player]
        for other, theirs in enumerate(hands):
            if other == player or not theirs[kind]:
                continue
            for gave in KINDS:
                if hand[gave]:
                    changed = list(hands)
                    changed[player] = _less(hand, gave, None)
                    changed[other] = _less(theirs, kind, gave)
                    yield kind, self.id_of(tuple(changed)), 1, Swap(other, CARDS[gave], CARDS[kind])


def _less(counts: tuple[int, ...], out: int, into: int | None) -> tuple[int, ...]:
    """Counts with one card of kind `out` taken away and one of kind `into` (if any) added."""
    changed = list(counts)
    changed[out] -= 1
    if into is not None:
        changed[into] += 1
    return tuple(changed)


class ExploreTable:
    """row(explored)[room]: the explored targets after a turn that ends with the die in `room` (the rules'
    explore(), Always in order and Secret mission included), a row made when its mask is first met."""

    def __init__(self, round_: Round) -> None:
        self.round = round_
        self.rooms = range(round_.temple.room_count)
        self.rows: dict[int, list[int]] = {}

    def row(self, explored: int) -> list[int]:
        found = self.rows.get(explored)
        if found is None:
            found = self.rows[explored] = [explore(self.round, explored, room) for room in self.rooms]
        return found
