"""Temple Twist as CNF over time steps (PySAT), built one turn at a time for a growing horizon.

State at each turn boundary t: the down side (one-hot), the die's room (one-hot), the variable walls (one
bit per slot), the supply (a unary counter), the explored targets (one bit each) and every player's hand
(a unary counter per player and card kind; with all cards pooled, one counter per kind). Inside a turn the
card's steps are micro-steps, each with its own down, die and walls: up to two wall steps (build or remove),
up to two turning steps (turn1, turn2), the turnAny steps, then the gets-going turn. After every micro-step
the die falls; a build or a step not taken leaves a resting die where it is, so one fall rule serves all.

turnAny: "any number of quarter turns in one direction". With the walls still, the die's (down, room) after
each turn follows from the one before, so the outcomes are the states of one orbit, which closes within
4 x rooms turns. The formula unrolls the orbit for `turn_any_steps` (K) turns and one more, and when the
state after K + 1 turns is none of those before (the orbit is still open) it lets the card end in any state
(an over-approximation, flagged by its own literal). An unsatisfiable formula is then a proof for every K;
a model that uses the open ending is not a plan, and the engine asks again with a larger K.

Each rule is one function below, quoting the rule it encodes. Every variable comes from one IDPool keyed
by tuples, e.g. ("die", turn, step, room). Constants are folded: TRUE/FALSE literals never reach a clause.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import pairwise

from pysat.card import CardEnc, EncType
from pysat.formula import IDPool

from twisty.rules.temple.model import CARDS, Round, TempleState
from twisty.rules.temple.replayer import PlanTurn, Swap

KIND = {card: index for index, card in enumerate(CARDS)}
TURN1, TURN2, TURN_ANY, WALL1, WALL2, MOVE = range(6)


@dataclass
class Layer:
    """The temple at one moment: literals for the down side, the die's room, each slot's wall (fixed slots
    are TRUE) and the supply ("at least m pieces outside", m = 1..)."""

    down: list[int]
    die: list[int]
    walls: list[int]
    supply: list[int]


@dataclass
class TurnVars:
    """What a turn's decisions are called, for reading a plan back."""

    play: dict[int, int]  # card kind -> literal
    swaps: dict[tuple[int, int, int], int]  # (other player, kind given, kind got) -> literal
    wall_steps: list[tuple[dict[int, int], dict[int, int]]]  # per wall step: (builds, removals) by slot
    turn_steps: list[tuple[int, int]]  # per turning step: (left, right)
    any_right: int | None = None  # turnAny: turning right (else left)
    any_stops: list[int] | None = None  # turnAny: "stopped after k turns", k = 1..K
    any_open: int | None = None  # turnAny: ended beyond K turns (over-approximated)
    any_orbit: list[Layer] | None = None  # turnAny: the temple after k turns, k = 1..K


class TempleCnf:
    """The clauses of a round up to `self.turns` turns; `extend()` adds a turn. New clauses gather in
    `pending` until the solver takes them (take_pending)."""

    def __init__(
        self,
        round_: Round,
        *,
        pooled: bool = False,
        turn_any_steps: dict[int, int] | None = None,
        default_turn_any_steps: int = 8,
    ) -> None:
        self.round = round_
        # turnAny's unrolled orbit per turn (turns not named: the default), never beyond the complete one.
        self.turn_any_steps = dict(turn_any_steps or {})
        self.default_turn_any_steps = default_turn_any_steps
        self.temple = round_.temple
        self.pooled = pooled
        self.pool = IDPool()
        self.pending: list[list[int]] = []
        self.TRUE = self.pool.id(("true",))
        self.FALSE = -self.TRUE
        self.pending.append([self.TRUE])
        # "Plans may be asked to be bounce-safe (no flagged fall)": assumed when asked.
        self.safe = self.pool.id(("bounce-safe",))
        self.variable = set(self.temple.variable_slots())
        self.turn_vars: list[TurnVars] = []
        self.ends: list[Layer] = [self._start()]
        self.explored: list[list[int]] = [[self.FALSE] * len(round_.targets)]
        self.wins: list[int] = [self.FALSE]
        self.hands = [self._start_hands()]
        self.swap_used = [self.FALSE]
        self.rule_no_entry(self.ends[0])

    @property
    def turns(self) -> int:
        return len(self.turn_vars)

    def take_pending(self) -> list[list[int]]:
        taken, self.pending = self.pending, []
        return taken

    # Clause helpers ---------------------------------------------------------------------------------------

    def var(self, *key: object) -> int:
        return self.pool.id(key)

    def clause(self, literals: list[int]) -> None:
        """Add a clause, folding constants: a TRUE literal satisfies it, FALSE literals drop out."""
        kept: list[int] = []
        for literal in literals:
            if literal == self.TRUE or -literal in kept:
                return
            if literal != self.FALSE and literal not in kept:
                kept.append(literal)
        self.pending.append(kept)

    def at_most_one(self, literals: list[int]) -> None:
        live = [literal for literal in literals if literal != self.FALSE]
        if len(live) <= 4:
            for i, first in enumerate(live):
                for second in live[i + 1 :]:
                    self.clause([-first, -second])
            return
        encoded = CardEnc.atmost(live, bound=1, vpool=self.pool, encoding=EncType.seqcounter)
        self.pending.extend(encoded.clauses)

    def or_of(self, key: tuple, literals: list[int]) -> int:
        """A literal equivalent to the disjunction of `literals`."""
        live = [literal for literal in literals if literal != self.FALSE]
        if self.TRUE in live:
            return self.TRUE
        if not live:
            return self.FALSE
        if len(live) == 1:
            return live[0]
        result = self.var(*key)
        self.clause([-result, *live])
        for literal in live:
            self.clause([result, -literal])
        return result

    # The start --------------------------------------------------------------------------------------------

    def _start(self) -> Layer:
        """The round's start as constants: the down side, the die's room, the walls and the supply."""
        round_ = self.round
        down = [self.TRUE if side == round_.down else self.FALSE for side in range(4)]
        die = [self.TRUE if room == round_.die else self.FALSE for room in range(self.temple.room_count)]
        walls = [
            self.TRUE if (round_.walls | self.temple.fixed) >> slot & 1 else self.FALSE
            for slot in range(len(self.temple.slots))
        ]
        supply = [self.TRUE if m <= round_.supply else self.FALSE for m in range(1, round_.pieces + 1)]
        return Layer(down, die, walls, supply)

    def _start_hands(self) -> list[list[list[int]]]:
        """Hands as unary counters: counters[player][kind][m - 1] is "holds at least m of the kind". A
        player may hold one card more of a kind than dealt, after a swap."""
        spare = 1 if self._swapping() else 0
        counts = [self.round.pooled_counts()] if self.pooled else self.round.hand_counts()
        return [
            [[self.TRUE if m <= count else self.FALSE for m in range(1, count + spare + 1)] for count in hand]
            for hand in counts
        ]

    def _swapping(self) -> bool:
        return not self.pooled and self.round.swap and self.round.players > 1

    # One turn ---------------------------------------------------------------------------------------------

    def extend(self) -> None:
        """Add the clauses of the next turn."""
        t = self.turns + 1
        before = self.ends[-1]
        player, kinds = self._kinds_in_reach(t)
        play = {kind: self.var("play", t, kind) for kind in kinds}
        self.clause(list(play.values()))
        self.at_most_one(list(play.values()))
        swaps = self.rule_swap(t, player) if player is not None else {}
        self.hands.append(self.rule_hands(t, player, play, swaps))
        wall_count = 2 if play.keys() & {WALL2, MOVE} else 1 if WALL1 in play else 0
        turn_count = 2 if TURN2 in play else 1 if TURN1 in play else 0
        layer = before
        wall_steps = []
        for step in range(1, wall_count + 1):
            layer, acts = self.rule_wall_step(t, step, layer)
            wall_steps.append(acts)
        after_walls = layer
        turn_steps = []
        for step in range(1, turn_count + 1):
            left, right = self.var("left", t, step), self.var("right", t, step)
            self.clause([-left, -right])
            layer = self.rule_quarter_turn(("turn", t, step), layer, left, right)
            turn_steps.append((left, right))
        chosen = TurnVars(play, swaps, wall_steps, turn_steps)
        if TURN_ANY in play:
            layer = self.rule_turn_any(t, after_walls, layer, play[TURN_ANY], chosen)
        self.rule_cards(t, chosen)
        layer = self.rule_gets_going(t, layer)
        self.ends.append(layer)
        self.explored.append(self.rule_explore(t, layer))
        self.wins.append(self.rule_win(t, layer))
        self.turn_vars.append(chosen)

    def _kinds_in_reach(self, t: int) -> tuple[int | None, list[int]]:
        """Who plays turn t (None when pooled) and the kinds of card they could hold then: their own, or with
        the Swap token any kind another player holds."""
        if self.pooled:
            return None, [kind for kind in range(len(CARDS)) if self.round.pooled_counts()[kind]]
        player = self.round.player_of_turn(t - 1)
        dealt = self.round.hand_counts()
        own = {kind for kind in range(len(CARDS)) if dealt[player][kind]}
        if self._swapping():
            own |= {kind for hand in dealt for kind in range(len(CARDS)) if hand[kind]}
        return player, sorted(own)

    # The rules --------------------------------------------------------------------------------------------

    def rule_falls(
        self, key: tuple, before: list[int], down: list[int], walls: list[int], performed: int | None = None
    ) -> list[int]:
        """The rule: "After every change (each single quarter turn, each wall removed) the die falls toward the down
        side, room by room, until a wall in the slot below it or the frame stops it." A fall of more than
        `bounce` rooms "may bounce" (forbidden under the bounce-safe literal); No entry: "the die may never
        fall through X or rest in X". `performed`: the literal of "this fall happens" where a step may be only
        a look ahead (turnAny's orbit); the limits bind only falls that happen."""
        happens = self.TRUE if performed is None else performed
        temple = self.temple
        after = [self.var("die", *key, room) for room in range(temple.room_count)]
        forbidden = self.round.challenges.no_entry
        for side in range(4):
            if down[side] == self.FALSE:
                continue
            for start in range(temple.room_count):
                if before[start] == self.FALSE:
                    continue
                crossed: list[int] = []
                path: list[int] = []
                room = start
                while True:
                    below = temple.next_room[side][room]
                    wall = self.TRUE if below < 0 else walls[temple.slot_below[side][room]]
                    # The die comes to rest in `room` when everything crossed is open and `wall` stands.
                    case = [-down[side], -before[start], *crossed, -wall]
                    self.clause(case + [after[room]])
                    if forbidden is not None and forbidden in path:
                        self.clause(case + [-happens])
                    elif len(path) > self.round.bounce:
                        self.clause(case + [-self.safe, -happens])
                    if wall == self.TRUE:
                        break
                    crossed.append(wall)
                    room = below
                    path.append(room)
        self.at_most_one(after)
        self.rule_no_entry(Layer(down, after, walls, []), happens)
        return after

    def rule_no_entry(self, layer: Layer, happens: int | None = None) -> None:
        """No entry (room X): "the die may never fall through X or rest in X" (at any moment)."""
        if self.round.challenges.no_entry is not None:
            self.clause([-(self.TRUE if happens is None else happens), -layer.die[self.round.challenges.no_entry]])

    def rule_quarter_turn(
        self, key: tuple, before: Layer, left: int, right: int, performed: int | None = None
    ) -> Layer:
        """The rule: "A quarter turn `right` turns the temple clockwise as seen from the front: the side that was on the
        right comes down. A quarter turn `left` turns it anticlockwise." Then the die falls."""
        down = [self.var("down", *key, side) for side in range(4)]
        for side in range(4):
            self.clause([-before.down[side], -right, down[(side + 1) % 4]])
            self.clause([-before.down[side], -left, down[(side - 1) % 4]])
            self.clause([-before.down[side], left, right, down[side]])
        self.at_most_one(down)
        die = self.rule_falls(key, before.die, down, before.walls, performed)
        return Layer(down, die, before.walls, before.supply)

    def rule_wall_step(self, t: int, step: int, before: Layer) -> tuple[Layer, tuple[dict[int, int], dict[int, int]]]:
        """The rule: "Building takes a piece from the supply into an empty slot; removing puts it back." "Building a
        wall never moves the die"; after a removal the die falls. Fixed walls cannot be removed."""
        builds = {slot: self.var("build", t, step, slot) for slot in sorted(self.variable)}
        removals = {slot: self.var("remove", t, step, slot) for slot in sorted(self.variable)}
        self.at_most_one(list(builds.values()) + list(removals.values()))
        walls = list(before.walls)
        for slot in self.variable:
            old, new = before.walls[slot], self.var("wall", t, step, slot)
            build, remove = builds[slot], removals[slot]
            self.clause([-build, -old])
            self.clause([-build, new])
            self.clause([-remove, old])
            self.clause([-remove, -new])
            self.clause([build, remove, -old, new])
            self.clause([build, remove, old, -new])
            walls[slot] = new
        built = self.or_of(("built", t, step), list(builds.values()))
        removed = self.or_of(("removed", t, step), list(removals.values()))
        supply = self.rule_counter(("supply", t, step), before.supply, removed, built)
        die = self.rule_falls(("wall", t, step), before.die, before.down, walls)
        return Layer(before.down, die, walls, supply), (builds, removals)

    def rule_counter(self, key: tuple, before: list[int], up: int, down: int) -> list[int]:
        """A unary counter after adding one (`up`) or taking one away (`down`; only from a counter of at least
        one). `up` and `down` are never both true."""
        if up == self.FALSE and down == self.FALSE:
            return before
        size = len(before)
        after = [self.var("count", *key, m) for m in range(1, size + 1)]

        def at(m: int) -> int:
            return self.TRUE if m <= 0 else self.FALSE if m > size else before[m - 1]

        self.clause([-down, at(1)])
        self.clause([-up, -at(size)])
        for m in range(1, size + 1):
            new = after[m - 1]
            self.clause([-up, -at(m - 1), new])
            self.clause([-up, at(m - 1), -new])
            self.clause([-down, -at(m + 1), new])
            self.clause([-down, at(m + 1), -new])
            self.clause([up, down, -at(m), new])
            self.clause([up, down, at(m), -new])
        return after

    def rule_cards(self, t: int, chosen: TurnVars) -> None:
        """The action cards: "turn1: one quarter turn, left or right; turn2: up to two quarter turns, each left
        or right; turnAny: any number of quarter turns in one direction; wall1: build one wall or remove one
        wall; wall2: build two walls or remove two walls (both the same kind of action), or only one; move:
        remove one variable wall (the die falls), then build it into the same or another empty slot." "Any
        action may be forgone." Steps are taken from the first on (a step not taken ends the card)."""
        play = chosen.play
        walls_done = [
            self.or_of(("wall-step", t, i), list(builds.values()) + list(removals.values()))
            for i, (builds, removals) in enumerate(chosen.wall_steps)
        ]
        built = [
            self.or_of(("built", t, i + 1), list(builds.values())) for i, (builds, _) in enumerate(chosen.wall_steps)
        ]
        removed = [
            self.or_of(("removed", t, i + 1), list(removals.values()))
            for i, (_, removals) in enumerate(chosen.wall_steps)
        ]
        turned = [self.or_of(("turned", t, i), [left, right]) for i, (left, right) in enumerate(chosen.turn_steps)]
        for steps in (walls_done, turned):
            for previous, step in pairwise(steps):
                self.clause([previous, -step])
        turned_any = (
            self.FALSE
            if chosen.any_stops is None or chosen.any_open is None
            else self.or_of(("any-turned", t), chosen.any_stops + [chosen.any_open])
        )

        def step_of(steps: list[int], index: int) -> int:
            return steps[index] if index < len(steps) else self.FALSE

        def only(card: int, *forbidden: int) -> None:
            for literal in forbidden:
                if card in play:
                    self.clause([-play[card], -literal])

        only(TURN1, step_of(walls_done, 0), step_of(turned, 1), turned_any)
        only(TURN2, step_of(walls_done, 0), turned_any)
        only(TURN_ANY, step_of(walls_done, 0), step_of(turned, 0))
        for card in (WALL1, WALL2, MOVE):
            only(card, step_of(turned, 0), turned_any)
        only(WALL1, step_of(walls_done, 1))
        only(
            WALL2,
            self.and_of(("mix", t, 1), step_of(built, 0), step_of(removed, 1)),
            self.and_of(("mix", t, 2), step_of(removed, 0), step_of(built, 1)),
        )
        only(MOVE, step_of(built, 0), step_of(removed, 1))
        if MOVE in play:
            self.clause([-play[MOVE], -step_of(removed, 0), step_of(built, 1)])

    def rule_turn_any(self, t: int, start: Layer, otherwise: Layer, played: int, chosen: TurnVars) -> Layer:
        """turnAny: "k >= 1 quarter turns in one direction" ("k = 0 is forgoing the card"); "the die falls after
        each". The orbit is unrolled for K turns and one more (see the module's docstring); the card stops
        after k <= K turns, or, while the orbit is still open after K + 1, anywhere (over-approximated)."""
        steps = min(self.turn_any_steps.get(t, self.default_turn_any_steps), self.complete_turn_any_steps(self.round))
        right = self.var("any-right", t)
        stops = [self.var("any-stop", t, k) for k in range(1, steps + 1)]
        beyond = self.var("any-open", t)
        self.at_most_one(stops + [beyond])
        for literal in stops + [beyond]:
            self.clause([-literal, played])
        orbit = [start]
        for k in range(1, steps + 2):
            happens = self.or_of(("any-happens", t, k), stops[k - 1 :] + [beyond]) if k <= steps else beyond
            orbit.append(self.rule_quarter_turn(("any", t, k), orbit[-1], -right, right, happens))
        # The orbit is closed when the state after K + 1 turns came before (the down side repeats every 4).
        last = orbit[steps + 1]
        for k in range(steps + 1):
            if (steps + 1 - k) % 4 == 0:
                for room in range(self.temple.room_count):
                    self.clause([-beyond, -orbit[k].die[room], -last.die[room]])
        stopped = self.or_of(("any-stopped", t), stops + [beyond])
        end = Layer(
            [self.var("any-end-down", t, side) for side in range(4)],
            [self.var("any-end-die", t, room) for room in range(self.temple.room_count)],
            start.walls,
            start.supply,
        )
        for chooser, layer in [(-stopped, otherwise)] + list(zip(stops, orbit[1:], strict=False)):
            for side in range(4):
                self.clause([-chooser, -layer.down[side], end.down[side]])
            for room in range(self.temple.room_count):
                self.clause([-chooser, -layer.die[room], end.die[room]])
        for literals in (end.down, end.die):
            self.clause(list(literals))
            self.at_most_one(literals)
        self.rule_no_entry(end)
        chosen.any_right, chosen.any_stops, chosen.any_open, chosen.any_orbit = right, stops, beyond, orbit[1:]
        return end

    @staticmethod
    def complete_turn_any_steps(round_: Round) -> int:
        """Turns after which every turnAny orbit has closed: 4 x rooms (the down side and the die's room take
        at most that many values, so the state after 4 x rooms + 1 turns came before)."""
        return 4 * round_.temple.room_count

    def and_of(self, key: tuple, first: int, second: int) -> int:
        if first == self.FALSE or second == self.FALSE:
            return self.FALSE
        return -self.or_of(key, [-first, -second])

    def rule_gets_going(self, t: int, layer: Layer) -> Layer:
        """Now it gets going (direction d): "after every turn the temple turns once more in direction d (the
        die falls), before the explore check"."""
        direction = self.round.challenges.gets_going
        if direction is None:
            return layer
        left, right = (self.TRUE, self.FALSE) if direction == "left" else (self.FALSE, self.TRUE)
        return self.rule_quarter_turn(("going", t), layer, left, right)

    def rule_explore(self, t: int, end: Layer) -> list[int]:
        """The rule: "At the end of each turn, if the die lies in a revealed room, that room is explored"; "an explored
        room stays explored". Always in order: "only the next room of the order is explored at a turn's end".
        Secret mission X: "X must also be explored, at any time"."""
        round_ = self.round
        before = self.explored[-1]
        after = []
        for index, room in enumerate(round_.targets):
            reach = end.die[room]
            if round_.challenges.in_order and index < len(round_.revealed) and index > 0:
                reach = self.and_of(("in-order", t, index), before[index - 1], reach)
            after.append(self.or_of(("explored", t, index), [before[index], reach]))
        return after

    def rule_win(self, t: int, end: Layer) -> int:
        """The rule: "The round is won at the end of a turn when every revealed room has been explored ... and the die
        lies in the room of the revealed door with that door pointing down." (An implication: the literal is
        only ever assumed.)"""
        won = self.var("won", t)
        door = self.round.door
        for literal in self.explored[-1] + [end.die[door.room], end.down[door.side]]:
            self.clause([-won, literal])
        return won

    def rule_swap(self, t: int, player: int) -> dict[tuple[int, int, int], int]:
        """The rule: "Swap card: once per round, the current player may swap one of their cards with one card of another
        player, before or after playing." Swapping after playing reaches no hands that swapping before does
        not (the card played is held either way), so the swap is made before the card is played."""
        if not self._swapping():
            return {}
        dealt = self.round.hand_counts()
        swaps = {}
        for other in range(self.round.players):
            if other == player:
                continue
            for gave in range(len(CARDS)):
                for got in range(len(CARDS)):
                    if gave != got and dealt[player][gave] and dealt[other][got]:
                        swaps[(other, gave, got)] = self.var("swap", t, other, gave, got)
        used_before = self.swap_used[-1]
        for literal in swaps.values():
            self.clause([-literal, -used_before])
        self.at_most_one(list(swaps.values()))
        self.swap_used.append(self.or_of(("swap-used", t), [used_before, *swaps.values()]))
        return swaps

    def rule_hands(
        self, t: int, player: int | None, play: dict[int, int], swaps: dict[tuple[int, int, int], int]
    ) -> list[list[list[int]]]:
        """The rule: "Each turn the current player plays one card from their own hand" (with all cards pooled: from the
        pool); the swap first moves one card each way."""
        hands = self.hands[-1]
        after = []
        for seat, hand in enumerate(hands):
            counters = []
            for kind, counter in enumerate(hand):
                if seat == player:
                    gets = [lit for (other, gave, got), lit in swaps.items() if got == kind]
                    gives = [lit for (other, gave, got), lit in swaps.items() if gave == kind]
                else:
                    gets = [lit for (other, gave, got), lit in swaps.items() if other == seat and gave == kind]
                    gives = [lit for (other, gave, got), lit in swaps.items() if other == seat and got == kind]
                counter = self.rule_counter(
                    ("hand", t, seat, kind, "swap"),
                    counter,
                    self.or_of(("gets", t, seat, kind), gets),
                    self.or_of(("gives", t, seat, kind), gives),
                )
                if seat == player or self.pooled:
                    counter = self.rule_counter(
                        ("hand", t, seat, kind, "play"), counter, self.FALSE, play.get(kind, self.FALSE)
                    )
                counters.append(counter)
            after.append(counters)
        return after

    # Reading answers back ---------------------------------------------------------------------------------

    def state_literals(self, t: int) -> list[int]:
        """The literals of the temple state after turn t (down, die, variable walls, explored targets)."""
        end = self.ends[t]
        return end.down + end.die + [end.walls[slot] for slot in sorted(self.variable)] + self.explored[t]

    def differs_from(self, states: tuple[TempleState, ...]) -> list[int]:
        """A clause saying "the temple states after turns 1..T are not these": plans differ "when the
        sequence of temple states after each turn differs"."""
        literals = []
        for t, state in enumerate(states, start=1):
            end = self.ends[t]
            literals += [-end.down[state.down], -end.die[state.die]]
            literals += [
                -end.walls[slot] if state.walls >> slot & 1 else end.walls[slot] for slot in sorted(self.variable)
            ]
            literals += [-bit if state.explored >> index & 1 else bit for index, bit in enumerate(self.explored[t])]
        return literals

    def open_orbits(self, true: set[int], turns: int) -> list[int]:
        """The turns at which a model ends a turnAny beyond the unrolled orbit (then it is no plan: ask with
        those turns' orbits unrolled further)."""
        return [
            t
            for t, chosen in enumerate(self.turn_vars[:turns], start=1)
            if chosen.any_open is not None and chosen.any_open in true
        ]

    def decode(self, true: set[int], turns: int) -> tuple[tuple[PlanTurn, ...], tuple[TempleState, ...]]:
        """The plan and the temple states a model gives for turns 1..turns."""

        def holds(literal: int) -> bool:
            return literal == self.TRUE or (
                literal != self.FALSE and (literal in true if literal > 0 else -literal not in true)
            )

        plan, states = [], []
        for t in range(1, turns + 1):
            chosen = self.turn_vars[t - 1]
            card = next(kind for kind, literal in chosen.play.items() if holds(literal))
            swap = next(
                (
                    Swap(other, CARDS[gave], CARDS[got])
                    for (other, gave, got), literal in chosen.swaps.items()
                    if holds(literal)
                ),
                None,
            )
            action: list[tuple] = []
            for builds, removals in chosen.wall_steps:
                action += [("build", slot) for slot, literal in builds.items() if holds(literal)]
                action += [("remove", slot) for slot, literal in removals.items() if holds(literal)]
            for left, right in chosen.turn_steps:
                action += [("left",)] if holds(left) else [("right",)] if holds(right) else []
            if chosen.any_stops is not None and chosen.any_orbit is not None:
                stopped = [k for k, literal in enumerate(chosen.any_stops, start=1) if holds(literal)]
                if stopped:
                    # The fewest turns that reach the same state (the orbit may pass it again later).
                    def seen(layer: Layer) -> tuple[int, int]:
                        return (
                            next(side for side in range(4) if holds(layer.down[side])),
                            next(room for room in range(self.temple.room_count) if holds(layer.die[room])),
                        )

                    goal = seen(chosen.any_orbit[stopped[0] - 1])
                    fewest = next(k for k in range(1, stopped[0] + 1) if seen(chosen.any_orbit[k - 1]) == goal)
                    right = chosen.any_right is not None and holds(chosen.any_right)
                    action += [("right",) if right else ("left",)] * fewest
            player = None if self.pooled else self.round.player_of_turn(t - 1)
            plan.append(PlanTurn(player, CARDS[card], tuple(action), swap))
            end = self.ends[t]
            walls = sum(1 << slot for slot in self.variable if holds(end.walls[slot]))
            explored = sum(1 << index for index, bit in enumerate(self.explored[t]) if holds(bit))
            states.append(
                TempleState(
                    next(side for side in range(4) if holds(end.down[side])),
                    next(room for room in range(self.temple.room_count) if holds(end.die[room])),
                    walls,
                    explored,
                )
            )
        return tuple(plan), tuple(states)


def most_turns(round_: Round, pooled: bool = False) -> int:
    """How long a round can last: "A player with no card on their turn loses the round" (pooled: "at most as
    many turns as cards"). A swap trades one card for one, so the hands' sizes decide it."""
    if pooled:
        return round_.card_total()
    sizes = [len(hand) for hand in round_.hands]
    played = [0] * len(sizes)
    turn = 0
    while played[round_.player_of_turn(turn)] < sizes[round_.player_of_turn(turn)]:
        played[round_.player_of_turn(turn)] += 1
        turn += 1
    return turn
