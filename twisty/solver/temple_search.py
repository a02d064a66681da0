"""The search engine for Temple Twist: an exact search over full states, in order of turns.

A full state is everything the rest of a round depends on: the down side, the die's room, the variable
walls, the explored targets, every player's hand (cards counted by kind) and whether the Swap card token
has been used. It is one integer (twisty.solver.temple_moves: the position, the explored targets, the hands'
id and the swap bit); each card's outcomes from a position are computed once. The turn number follows from
the cards left, so a state is met at one depth only.

Two exact reductions keep the search small:

- The order: states are taken in order of (turns played + a lower bound on the turns still needed), the
  bound being consistent (it falls by at most one a turn), so the first winning state found at the
  current order is a shortest plan, as in a breadth-first search (A* with a consistent bound). The bound:
  a turn's end explores at most one room, and when the door room is not a room still to explore, one
  more turn must end there after the last one is explored.
- The swap: a plan that swaps can always swap at the turn where the first swapped card is played, by the
  player who plays it (proof in docs/temple.md), with the same cards played on the same turns and so the
  same temple states. The search therefore swaps only to play, at once, a kind of card the player lacks.

Uniqueness: "two plans differ when the sequence of temple states after each turn differs". A second plan
follows the first plan's temple states up to some turn and leaves them there: the states one turn after the
first plan's temple states, on other temple states, are the starts of a fewest-turns search from all of them
at once (second_steps); a win within the first plan's turns is a second plan.

Each search is a generator that pauses after a fixed amount of work (twisty.solver.temple_moves.Work), so the
deadline is looked at by work done, and the portfolio can run it in slices beside the SAT engine.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator

from twisty.errors import LimitReached
from twisty.limits import Deadline
from twisty.rules.temple.model import CARDS, Round, TempleState
from twisty.rules.temple.replayer import PlanError, PlanTurn, Swap, replay
from twisty.rules.temple.semantics import Action, Position, RuleError, play_action
from twisty.solver.temple_answers import (
    FOUND,
    NONE,
    SOLVABLE,
    UNSOLVABLE,
    PlanAnswer,
    PlanSteps,
    SecondAnswer,
    SecondSteps,
    run_steps,
)
from twisty.solver.temple_lazy import LazyMoves, concrete_plan
from twisty.solver.temple_moves import (
    DOWN_SHIFT,
    MOVE,
    TURNING,
    WALL1,
    WALL2,
    ExploreTable,
    Hands,
    Moves,
    Work,
    position,
    unpack,
)

NAME = "search"
AVAILABLE = True
NEVER = 10**9


class Space:
    """The full states of a round as integers: `((position << hands bits | hands id) << target bits |
    explored) << 1 | swap used`, with the tables to expand them. `lazy`: positions of temple_lazy (walls
    decided when they matter), for the questions that ask for a shortest plan only."""

    HANDS_BITS = 24

    def __init__(
        self,
        round_: Round,
        work: Work,
        *,
        pooled: bool = False,
        bounce_safe: bool = False,
        moves: Moves | LazyMoves | None = None,
        hands: Hands | None = None,
        explored_after: ExploreTable | None = None,
    ) -> None:
        self.round = round_
        self.work = work
        self.pooled = pooled
        self.safe = 1 if bounce_safe else 0
        self.moves = moves if moves is not None else Moves(round_, work)
        self.hands = hands if hands is not None else Hands(round_, pooled)
        self.explored_after = explored_after if explored_after is not None else ExploreTable(round_)
        self.targets = len(round_.targets)
        self.full = round_.all_explored
        self.hands_shift = 1 + self.targets
        self.position_shift = self.hands_shift + self.HANDS_BITS
        door = round_.door
        self.door = door.side << DOWN_SHIFT | door.room
        self.door_side = door.side
        self.door_bits = sum(1 << index for index, room in enumerate(round_.targets) if room == door.room)
        self.turns_itself = round_.challenges.gets_going is not None
        # Per explored mask with targets missing: one turn each, and one more unless the door room is one.
        self.missing_turns = [
            (self.full & ~explored).bit_count() + (0 if self.full & ~explored & self.door_bits else 1)
            for explored in range(self.full + 1)
        ]
        start = (
            self.moves.pack(round_.down, round_.die, round_.walls, ())
            if isinstance(self.moves, LazyMoves)
            else position(round_.down, round_.die, round_.walls)
        )
        self.start = self.pack(self.hands.start, start, 0, 0)

    @property
    def most(self) -> int:
        """The most turns of a plan."""
        return self.hands.most_turns

    def pack(self, hid: int, where: int, explored: int, used: int) -> int:
        return (where << self.position_shift) | (hid << self.hands_shift) | (explored << 1) | used

    def parts(self, state: int) -> tuple[int, int, int, int]:
        """(hands id, position, explored, swap used)."""
        return (
            (state >> self.hands_shift) & ((1 << self.HANDS_BITS) - 1),
            state >> self.position_shift,
            (state >> 1) & ((1 << self.targets) - 1),
            state & 1,
        )

    def ended(self, state: int) -> bool:
        """Whether the temple is won ("The round ends at the win")."""
        explored = (state >> 1) & ((1 << self.targets) - 1)
        return explored == self.full and (state >> self.position_shift) & 0xFF == self.door

    def won(self, state: int) -> bool:
        """Won, and (walls decided late) a plan of the rules: every mandatory credit has a slot."""
        if not self.ended(state):
            return False
        return not isinstance(self.moves, LazyMoves) or self.moves.placeable(state >> self.position_shift)

    def temple_state(self, state: int) -> TempleState:
        _, where, explored, _ = self.parts(state)
        down, die, walls = unpack(where)
        return TempleState(down, die, walls, explored)

    def bound(self, state: int) -> int:
        """A lower bound on the turns still needed (NEVER when no win is left); consistent: one turn lowers it
        by at most one. "At the end of each turn, if the die lies in a revealed room, that room is explored":
        one room a turn. The win needs the die in the door room, so when that room is not still to be
        explored, a turn after the last exploring one must end there. And the door must point down: only a
        quarter turn changes the down side, so with the door not down and no turning card left in any hand
        (nor Now it gets going), the round cannot be won. (`bounds()` is the same, as a fast function.)"""
        return self.bounds()(state)

    def bounds(self) -> Callable[[int], int]:
        """bound() as a function with its tables at hand (it is called for every state met)."""
        full, door, door_side = self.full, self.door, self.door_side
        turning = self.hands.turning
        turns_itself = self.turns_itself
        xmask, hshift, hmask, pshift = (
            (1 << self.targets) - 1,
            self.hands_shift,
            (1 << self.HANDS_BITS) - 1,
            self.position_shift,
        )
        missing_turns = self.missing_turns

        def bound(state: int) -> int:
            where = state >> pshift
            if not turns_itself and (where >> DOWN_SHIFT) & 3 != door_side and not turning[(state >> hshift) & hmask]:
                return NEVER
            explored = (state >> 1) & xmask
            if explored == full:
                return 0 if where & 0xFF == door else 1
            return missing_turns[explored]

        return bound

    def successors(self, state: int) -> list[int]:
        """Every state one turn after `state` (not deduplicated)."""
        hid, where, explored, used = self.parts(state)
        after_explored = self.explored_after.row(explored)
        safe = self.safe
        found: list[int] = []
        pshift, hshift = self.position_shift, self.hands_shift
        for kind, next_hid, next_used, _ in self.hands.plays(hid, used):
            if next_hid >> self.HANDS_BITS:
                raise LimitReached(f"{1 << self.HANDS_BITS} hands")
            low = next_hid << hshift | next_used
            for after in self.moves.of(where, kind)[safe]:
                found.append(after << pshift | low | after_explored[after & 63] << 1)
        self.work.add(len(found) + 1)
        return found

    def successors_within(self, state: int, budget: int) -> list[tuple[int, int]]:
        """The states one turn after `state` whose bound is at most `budget`, each with its bound (the same
        as successors() and bound(), the bound taken before the state is made: most are cut)."""
        hid, where, explored, used = self.parts(state)
        after_explored = self.explored_after.row(explored)
        full, door, door_side = self.full, self.door, self.door_side
        missing_turns, turning = self.missing_turns, self.hands.turning
        safe, pshift, hshift = self.safe, self.position_shift, self.hands_shift
        found: list[tuple[int, int]] = []
        considered = 0
        for kind, next_hid, next_used, _ in self.hands.plays(hid, used):
            if next_hid >> self.HANDS_BITS:
                raise LimitReached(f"{1 << self.HANDS_BITS} hands")
            low = next_hid << hshift | next_used
            stuck = not self.turns_itself and not turning[next_hid]
            outcomes = self.moves.of(where, kind)[safe]
            considered += len(outcomes)
            for after in outcomes:
                now = after_explored[after & 63]
                needed = (0 if after & 0xFF == door else 1) if now == full else missing_turns[now]
                if needed > budget or (stuck and (after >> DOWN_SHIFT) & 3 != door_side):
                    continue
                found.append((after << pshift | low | now << 1, needed))
        self.work.add(considered + 1)
        return found

    def first_won(self, state: int, other_than: int | None = None) -> int | None:
        """A won state one turn after `state` (positions of the rules), the first met card by card, the
        player's own cards before the swaps (None when there is none): the plain breadth-first search's stop
        at its first winning move. `other_than`: a temple state (`position << targets | explored`) the won
        state must not have. The temple after a turn depends on the card, not on whose it was, so each kind
        is looked at once. "The round is won ... with that door pointing down", and only a quarter turn
        changes the down side: with the door not down and no gets-going turn, a card that does not turn the
        temple cannot win, and its outcomes (every wall built or removed) are not computed."""
        assert isinstance(self.moves, Moves)
        hid, where, explored, used = self.parts(state)
        after_explored = self.explored_after.row(explored)
        full, door, safe, targets = self.full, self.door, self.safe, self.targets
        own = [(kind, False) for kind in self.hands.own_kinds(hid)]
        swapped = [(kind, True) for kind in self.hands.swap_kinds(hid, used)]
        tried = 0
        if not self.turns_itself and (where >> DOWN_SHIFT) & 3 != self.door_side:
            tried = sum(1 << kind for kind in range(8) if kind not in TURNING)
        for kind, swap in own + swapped:
            if tried >> kind & 1:
                continue
            tried |= 1 << kind
            for after in self.moves.of(where, kind)[safe]:
                now = after_explored[after & 63]
                if now == full and after & 0xFF == door and (after << targets | now) != other_than:
                    if swap:  # the hands after the swap are made only now, for the one play that wins
                        _, next_hid, next_used, _ = self.hands.first_swap(hid, kind)
                    else:
                        next_hid, next_used = self.hands.own_play(hid, kind), used
                    return self.pack(next_hid, after, now, next_used)
        return None

    def plays_between(self, state: int, following: int) -> Iterator[tuple[int, Swap | None]]:
        """The plays (card kind, swap) that lead from `state`'s hands to `following`'s: the ones without a
        swap first (the list of swaps is made only when none of those does)."""
        hid, _, _, used = self.parts(state)
        next_hid, _, _, next_used = self.parts(following)
        if next_used == used:
            for kind in self.hands.own_kinds(hid):
                if self.hands.own_play(hid, kind) == next_hid:
                    yield kind, None
        for kind, play_hid, play_used, swap in self.hands.swap_plays(hid, used):
            if (play_hid, play_used) == (next_hid, next_used):
                yield kind, swap

    def player(self, state: int) -> int | None:
        return None if self.pooled else self.round.player_of_turn(self.hands.turn_of(self.parts(state)[0]))

    def turn_between(self, state: int, following: int) -> PlanTurn:
        """A turn that leads from `state` to `following` (positions of the rules), with its action from the
        rules (card_outcomes): among the ways to reach the same position, one with the shortest longest
        fall (bounce-safe when this space is)."""
        _, where, _, _ = self.parts(state)
        _, after, _, _ = self.parts(following)
        assert isinstance(self.moves, Moves)
        # "you may forgo the action": with no gets-going turn the temple stays as it was and no die falls,
        # the shortest fall there is, whatever the card
        forgone = after == where and self.round.challenges.gets_going is None
        for kind, swap in self.plays_between(state, following):
            if forgone:
                return PlanTurn(self.player(state), CARDS[kind], (), swap)
            direct = self._only_action(where, kind, after)
            if direct is not None:
                return PlanTurn(self.player(state), CARDS[kind], direct, swap)
            ways = self.moves.ways(where, kind).get(after)
            if ways:
                way = min(ways, key=lambda outcome: outcome.longest_fall)
                return PlanTurn(self.player(state), CARDS[kind], way.action, swap)
        raise AssertionError("no turn leads from a state to its successor")

    def _only_action(self, where: int, kind: int, after: int) -> Action | None:
        """The one action of a wall card that leads from `where` to `after`, read off the walls that changed,
        when there is only one (so it has the shortest longest fall there is): walls built, one wall removed,
        or a wall moved to another slot; played by the rules to confirm it. None otherwise (two removals,
        whose order changes the falls; a wall moved back into its slot; a gets-going turn), and for turning
        cards: turn_between then takes the rules' own list of ways, which costs all the card's outcomes."""
        if kind not in (WALL1, WALL2, MOVE) or self.round.challenges.gets_going is not None:
            return None
        down, die, walls = unpack(where)
        _, end_die, end_walls = unpack(after)
        built = [slot for slot in range(end_walls.bit_length()) if (end_walls & ~walls) >> slot & 1]
        removed = [slot for slot in range(walls.bit_length()) if (walls & ~end_walls) >> slot & 1]
        action: Action
        if kind == MOVE and len(removed) == 1 and len(built) == 1:
            action = (("remove", removed[0]), ("build", built[0]))
        elif kind != MOVE and built and not removed and len(built) <= (2 if kind == WALL2 else 1):
            action = tuple(("build", slot) for slot in built)
        elif kind != MOVE and len(removed) == 1 and not built:
            action = (("remove", removed[0]),)
        else:
            return None
        try:
            reached, falls = play_action(self.round, Position(down, die, walls), CARDS[kind], action)
        except RuleError:
            return None
        no_entry = self.round.challenges.no_entry
        if (reached.die, reached.walls) != (end_die, end_walls) or any(no_entry in way.path for way in falls):
            return None
        if self.safe and any(way.length > self.round.bounce for way in falls):
            return None
        return action

    def plan_of(self, nodes: list[int]) -> tuple[PlanTurn, ...]:
        """The plan along a path of states (the start first)."""
        if isinstance(self.moves, LazyMoves):
            return concrete_plan(self, nodes)
        return tuple(self.turn_between(before, after) for before, after in zip(nodes, nodes[1:], strict=False))


def shortest_steps(space: Space, at_most: int | None = None) -> PlanSteps:
    """The shortest path from the start to a winning state (at most `at_most` turns; UNSOLVABLE when there is
    none that short)."""
    round_ = space.round
    if round_.challenges.no_entry == round_.die:
        return PlanAnswer(UNSOLVABLE)  # "a die that starts in X makes the round unwinnable"
    most = space.most if at_most is None else min(space.most, at_most)
    parents: dict[int, int] = {}
    won = yield from first_win(space, [(space.start, 0)], parents, most)
    return PlanAnswer(UNSOLVABLE) if won is None else _answer(space, parents, won)


def first_win(
    space: Space, starts: list[tuple[int, int]], parents: dict[int, int], most: int
) -> Generator[None, None, int | None]:
    """A winning state within `most` turns reached from one of `starts` (each a state and the turns played to
    it), the first one met, or None: states in buckets by turns played + bound, deepest first within a
    bucket, so that the first win met at the current bucket's value is a shortest one (from any start).
    `parents` is filled with each state's predecessor (-1 for a start)."""
    work = space.work
    bound = space.bounds()
    buckets: list[list[list[int]]] = [[] for _ in range(most + 1)]
    for start, played in starts:
        if start in parents:
            continue
        parents[start] = -1
        total = played + bound(start)
        if total <= most:
            target = buckets[total]
            while len(target) <= played:
                target.append([])
            target[played].append(start)
    won, ended = space.won, space.ended
    for order in range(most + 1):
        # buckets[order][depth]: states with depth + bound == order, taken deepest first
        layers = buckets[order]
        while layers:
            depth = len(layers) - 1
            layer = layers[depth]
            if not layer:
                layers.pop()
                continue
            state = layer.pop()
            if depth and ended(state):
                if won(state):
                    return state
                continue  # the round ends at the win (here a win of no plan: walls decided late)
            for successor, needed in space.successors_within(state, most - depth - 1):
                if successor in parents:
                    continue
                parents[successor] = state
                if depth + 1 == order and won(successor):
                    return successor
                total = depth + 1 + needed
                target = buckets[total]
                while len(target) <= depth + 1:
                    target.append([])
                target[depth + 1].append(successor)
            if work.pause_due():
                yield
    return None


def _path(parents: dict[int, int], node: int) -> list[int]:
    """The states from the start to `node`, the start included."""
    nodes = []
    while node != -1:
        nodes.append(node)
        node = parents[node]
    return nodes[::-1]


def _answer(space: Space, parents: dict[int, int], state: int) -> PlanAnswer:
    plan = space.plan_of(_path(parents, state))
    try:
        replayed = replay(space.round, plan, pooled=space.pooled)
    except PlanError:
        return PlanAnswer(SOLVABLE, plan)  # the portfolio's replay names the fault
    return PlanAnswer(SOLVABLE, plan, replayed.states)


def second_steps(space: Space, first: PlanAnswer, lazy: Callable[[], Space] | None = None) -> SecondSteps:
    """A winning plan of the same length as `first` whose temple states differ from first.states at some
    turn, or NONE. "Two plans differ when the sequence of temple states after each turn differs": such a
    plan follows the first plan's temple states up to some turn and leaves them at that turn. So the states
    that follow the first plan's temple states (over the rules' own walls: every wall built is a different
    temple state; they differ only in the hands, so they are few) are taken turn by turn, and every state
    one turn after them with another temple state is a start (a concrete position, at its turn); a second
    plan exists exactly when a win within the first plan's turns is reachable from one of the starts. That
    is the fewest-turns search from many starts at once (first_win), over the space `lazy()` makes (walls
    decided when they matter, exact from a concrete position as for the fewest turns; made only when the
    plan has more than one turn), or over `space` itself."""
    assert first.states is not None
    round_ = space.round
    if round_.challenges.no_entry == round_.die:
        return SecondAnswer(NONE)
    turns = len(first.states)
    targets, shift = space.targets, space.position_shift
    explored_mask = (1 << targets) - 1
    target = [(position(state.down, state.die, state.walls) << targets | state.explored) for state in first.states]
    if turns == 1:  # another one-turn plan: a won state after the first turn, through another temple state
        other = space.first_won(space.start, target[0])
        if other is None:
            return SecondAnswer(NONE)
        return SecondAnswer(FOUND, space.plan_of([space.start, other]), (space.temple_state(other),))
    search = space if lazy is None else lazy()
    following: dict[int, int] = {space.start: -1}  # the states on the first plan's temple states, by parent
    left: dict[int, int] = {}  # the starts, each with the state it left the first plan's temple states from
    starts: list[tuple[int, int]] = []
    layer = [space.start]
    for depth in range(turns):
        on_plan = []
        for state in layer:
            for successor, _ in space.successors_within(state, turns - depth - 1):
                temple = (successor >> shift) << targets | (successor >> 1) & explored_mask
                if temple == target[depth]:
                    if successor not in following:
                        following[successor] = state
                        on_plan.append(successor)
                elif successor not in left:
                    left[successor] = state
                    starts.append((successor, depth + 1))
        layer = on_plan
        if space.work.pause_due():
            yield
    parents: dict[int, int] = {}
    won = yield from first_win(search, starts, parents, turns)
    if won is None:
        return SecondAnswer(NONE)
    after = _path(parents, won)
    before = _path(following, left[after[0]])
    plan = space.plan_of(before + after[:1]) + search.plan_of(after)
    try:
        replayed = replay(round_, plan)
    except PlanError:
        return SecondAnswer(FOUND, plan)  # the portfolio's replay names the fault
    return SecondAnswer(FOUND, plan, replayed.states)


class RoundSolver:
    """The search engine on one round: the moves (walls decided late, and the rules' own for uniqueness)
    and the hands' tables kept across the questions.

    A round won in one turn is answered before the walls-decided-late tables are built: every question first
    looks one turn ahead over the rules' own moves (the ones the uniqueness search takes, so shared with it),
    when the start's bound lets a win come that soon. A one-turn plan found there is a shortest plan (no plan
    is shorter), and its turn is the rules' own, so it needs no walls placed after the fact; the plain
    breadth-first search stops at its first winning move, and so does this."""

    def __init__(self, round_: Round, deadline: Deadline) -> None:
        self.round = round_
        self.work = Work(deadline)
        self.rules = Moves(round_, self.work)
        self.seats = Hands(round_, False)
        self._lazy: LazyMoves | None = None
        self._pool: Hands | None = None
        self.explored_after = ExploreTable(round_)
        self.one_turn: PlanAnswer | None = None  # a one-turn plan in seat order, once found

    @property
    def lazy(self) -> LazyMoves:
        """The moves with walls decided late, made when a question needs more than one turn."""
        if self._lazy is None:
            self._lazy = LazyMoves(self.round, self.work)
        return self._lazy

    @property
    def pool(self) -> Hands:
        if self._pool is None:
            self._pool = Hands(self.round, True)
        return self._pool

    def fewest(self, *, bounce_safe: bool = False, at_least: int = 1, at_most: int | None = None) -> PlanSteps:
        """The shortest winning plan in seat order (the search finds shortest plans itself: `at_least` is not
        needed), walls decided when they matter (twisty.solver.temple_lazy)."""
        return self._one_turn_first(
            self._space(self.rules, self.seats, bounce_safe=bounce_safe),
            lambda: self._space(self.lazy, self.seats, bounce_safe=bounce_safe),
            at_most,
            keep=not bounce_safe,
        )

    def pooled(self, *, at_most: int | None = None) -> PlanSteps:
        """The shortest plan with all cards in one pool: "at most as many turns as cards" (and at most `at_most`
        when a plan in seat order is known: it is a pooled plan too). A one-turn plan in seat order found
        already is one: its card is in the pool, played from the same temple (no seat, no swap)."""
        if self.one_turn is not None and self.one_turn.plan is not None:
            (turn,) = self.one_turn.plan
            return _at_once(PlanAnswer(SOLVABLE, (PlanTurn(None, turn.card, turn.action),), self.one_turn.states))
        return self._one_turn_first(
            self._space(self.rules, self.pool, pooled=True),
            lambda: self._space(self.lazy, self.pool, pooled=True),
            at_most,
        )

    def second(self, first: PlanAnswer) -> SecondSteps:
        """Another plan through other temple states: the first plan's temple states followed over the rules' own
        walls (every wall built is a different temple state), the rest with walls decided late."""
        return second_steps(self._space(self.rules, self.seats), first, lambda: self._space(self.lazy, self.seats))

    def _space(
        self, moves: Moves | LazyMoves, hands: Hands, *, pooled: bool = False, bounce_safe: bool = False
    ) -> Space:
        return Space(
            self.round,
            self.work,
            pooled=pooled,
            bounce_safe=bounce_safe,
            moves=moves,
            hands=hands,
            explored_after=self.explored_after,
        )

    def _one_turn_first(
        self, rules_space: Space, full_space: Callable[[], Space], at_most: int | None, *, keep: bool = False
    ) -> PlanSteps:
        """A one-turn plan over the rules' own moves when the start's bound allows one, else (or when there is
        none) the whole search over `full_space()`. `keep`: a one-turn plan found is kept in `one_turn`."""
        start = rules_space.start
        if self.round.challenges.no_entry != self.round.die and rules_space.bounds()(start) <= 1:
            won = rules_space.first_won(start)
            if won is not None:  # the rules' own turn, so its state is the space's (the portfolio replays it)
                answer = PlanAnswer(SOLVABLE, rules_space.plan_of([start, won]), (rules_space.temple_state(won),))
                if keep:
                    self.one_turn = answer
                return answer
            if at_most == 1:
                return PlanAnswer(UNSOLVABLE)
        return (yield from shortest_steps(full_space(), at_most))

    def close(self) -> None:
        self.rules.memo.clear()
        self.rules.ways_memo.clear()
        if self._lazy is not None:
            self._lazy.memo.clear()


def _at_once(answer: PlanAnswer) -> PlanSteps:
    """Steps that answer without work."""
    return answer
    yield  # pragma: no cover (makes this a generator)


def solver(round_: Round, deadline: Deadline) -> RoundSolver:
    return RoundSolver(round_, deadline)


def fewest_turns(round_: Round, deadline: Deadline, *, bounce_safe: bool = False, at_least: int = 1) -> PlanAnswer:
    return run_steps(solver(round_, deadline).fewest(bounce_safe=bounce_safe, at_least=at_least), deadline, PlanAnswer)


def pooled_turns(round_: Round, deadline: Deadline, *, at_most: int | None = None) -> PlanAnswer:
    return run_steps(solver(round_, deadline).pooled(at_most=at_most), deadline, PlanAnswer)


def second_plan(round_: Round, deadline: Deadline, first: PlanAnswer) -> SecondAnswer:
    return run_steps(solver(round_, deadline).second(first), deadline, SecondAnswer)
