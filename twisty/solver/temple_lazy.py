"""Walls decided when they matter: the search engine's moves with every build left open until a fall needs
the wall (an exact abstraction for the fewest turns, bounce-safe or not, and the pooled turns).

A built wall changes nothing for the die until a fall would cross its slot. So a build does not choose its
slot: it leaves a *credit*, a piece taken from the supply and standing somewhere not yet said. When a fall
would cross an empty slot, each credit that could have stood there all along may stop it: the wall was
built there when the credit was made. A credit remembers the slots it cannot be in (`F`): every slot the die
crossed since it was made, and every slot that held a wall meanwhile (one slot holds one wall). So the
thousands of ways to build a wall or two on a big temple become one outcome, and the state space is that of
the die's paths.

Exactness (every plan of the rules has an abstract plan of the same turns, and every abstract plan is a plan
of the rules):

- A wall of a plan that never stops a fall and is never moved can be left unbuilt (its card forgone, or for
  wall2 only the other wall built): the die's path is the same and the supply larger. So a credit that is
  never used is forgone, and wall1 and wall2 never remove a credit (forgoing its build earlier does better).
- A move may take a credit's piece (a wall that stopped nothing, moved elsewhere): the credit is then given
  a slot it could have stood in all along (one outside its F, made known to the other credits alive, which
  cannot share it), and the moved piece is a new credit that must stand somewhere: a *mandatory* credit. At
  the win every mandatory credit still open needs its own slot outside its F (a matching); otherwise that
  state is no plan (and no later one either: the rules end the round at the win).
- Falls, exploring and winning depend on the walls only where the die crosses or stops, which the credits
  decide exactly; the supply counts credits as walls standing.

A position here is `credits id << (slots + 8) | walls << 8 | down << 6 | die`, the credits (sorted, each
`F << 1 | mandatory`) numbered as they are met. `LazyMoves` has the interface of temple_moves.Moves.
`concrete_plan` turns a path of abstract states into a plan of the rules.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from twisty.rules.temple.model import CARDS, Round
from twisty.rules.temple.replayer import PlanTurn, Swap
from twisty.solver.temple_moves import MOVE, TURN2, TURN_ANY, TURNING, WALL1, WALL2, Work, rays

Credits = tuple[int, ...]


@dataclass
class Trace:
    """What one outcome did, for turning an abstract plan into a plan of the rules (detailed mode only):
    the action's steps, with ("build", credit) and ("remove-credit", credit) standing for slots decided
    later, and the slots decided in it (credit -> slot)."""

    steps: list[tuple] = field(default_factory=list)
    decided: dict[int, int] = field(default_factory=dict)

    def then(self, step: tuple, decided: dict[int, int] | None = None) -> Trace:
        return Trace(self.steps + [step], {**self.decided, **(decided or {})})


class LazyMoves:
    """Every card's outcomes from every abstract position met: (all, bounce-safe) lists of positions.
    `detailed`: credits carry an identity in their low bits (ID_BITS) and every outcome its Trace."""

    ID_BITS = 20

    def __init__(self, round_: Round, work: Work, *, detailed: bool = False) -> None:
        temple = round_.temple
        self.round = round_
        self.work = work
        self.bounce = round_.bounce
        self.fixed = temple.fixed
        self.pieces = round_.pieces
        self.variable = sum(1 << slot for slot in temple.variable_slots())
        self.slot_bits = [1 << slot for slot in temple.variable_slots()]
        self.forbidden = -1 if round_.challenges.no_entry is None else round_.challenges.no_entry
        going = round_.challenges.gets_going
        self.going = None if going is None else (1 if going == "right" else 3)
        self.wall_bits = len(temple.slots)
        self.wall_mask = (1 << self.wall_bits) - 1
        self.credit_shift = 8 + self.wall_bits
        self.detailed = detailed
        self.id_bits = self.ID_BITS if detailed else 0
        self.next_identity = 1
        self.rays = rays(temple)
        self.credit_ids: dict[Credits, int] = {(): 0}
        self.credit_list: list[Credits] = [()]
        self.memo: dict[int, tuple[list[int], list[int]]] = {}

    # Positions ------------------------------------------------------------------------------------------

    def pack(self, down: int, die: int, walls: int, credits: Credits) -> int:
        found = self.credit_ids.get(credits)
        if found is None:
            found = self.credit_ids[credits] = len(self.credit_list)
            self.credit_list.append(credits)
        return found << self.credit_shift | walls << 8 | down << 6 | die

    def unpack(self, where: int) -> tuple[int, int, int, Credits]:
        """(down, die, walls, credits)."""
        return (
            (where >> 6) & 3,
            where & 63,
            (where >> 8) & self.wall_mask,
            self.credit_list[where >> self.credit_shift],
        )

    def forbidden_of(self, credit: int) -> int:
        return credit >> (1 + self.id_bits)

    def placeable(self, where: int) -> bool:
        """Whether every open mandatory credit has a slot of its own outside its F (a matching)."""
        credits = self.credit_list[where >> self.credit_shift]
        mandatory = [self.variable & ~self.forbidden_of(c) for c in credits if c >> self.id_bits & 1]
        return _matching(mandatory) is not None

    def mandatory_slots(self, credits: Credits) -> dict[int, int]:
        """A slot for every open mandatory credit (identity -> slot); detailed mode."""
        open_ones = [c for c in credits if c >> self.id_bits & 1]
        chosen = _matching([self.variable & ~self.forbidden_of(c) for c in open_ones])
        assert chosen is not None
        return {c & ((1 << self.id_bits) - 1): slot for c, slot in zip(open_ones, chosen, strict=True)}

    # Credits ----------------------------------------------------------------------------------------------

    def _grown(self, credits: Credits, bits: int) -> Credits | None:
        """Credits after the slots `bits` were crossed or taken: each one's F grows. A credit with no slot
        left is dropped (its build forgone), or, mandatory, the outcome is no plan (None)."""
        if not credits:
            return credits
        shifted = bits << (1 + self.id_bits)
        kept = []
        variable = self.variable
        for credit in credits:
            credit |= shifted
            if not variable & ~(credit >> (1 + self.id_bits)):
                if credit >> self.id_bits & 1:
                    return None
                continue
            kept.append(credit)
        kept.sort()
        return tuple(kept)

    def _new_credit(self, walls: int, mandatory: bool) -> int:
        identity = 0
        if self.detailed:
            identity = self.next_identity
            self.next_identity += 1
        return ((walls << 1 | mandatory) << self.id_bits) | identity

    # Falls ------------------------------------------------------------------------------------------------

    def falls(self, down: int, die: int, walls: int, credits: Credits) -> list[tuple[int, int, Credits, int, dict]]:
        """Every way the die may fall from `die` with `down` down: (room, walls, credits, length, the credits
        that stood in the way by identity -> slot). Stopped by a wall standing, the frame, or a credit that
        could have stood in the slot; never into No entry."""
        found = []
        blocked = walls | self.fixed
        crossed = 0
        length = 0
        here = die
        id_mask = (1 << self.id_bits) - 1
        for bit, room in self.rays[down][die]:
            if blocked & bit:
                break
            if credits:
                tried = set()
                for index, credit in enumerate(credits):
                    key = credit >> self.id_bits
                    if (credit >> (1 + self.id_bits)) & bit or key in tried:
                        continue
                    tried.add(key)
                    rest = self._grown(credits[:index] + credits[index + 1 :], crossed | bit)
                    if rest is not None:
                        found.append((here, walls | bit, rest, length, {credit & id_mask: bit}))
            crossed |= bit
            here = room
            length += 1
            if room == self.forbidden:
                return found
        rest = self._grown(credits, crossed)
        if rest is not None:
            found.append((here, walls, rest, length, {}))
        return found

    # Cards ------------------------------------------------------------------------------------------------

    def of(self, where: int, kind: int) -> tuple[list[int], list[int]]:
        """(every outcome, the bounce-safe outcomes) of card `kind` from position `where`."""
        key = where << 3 | kind
        found = self.memo.get(key)
        if found is None:
            best = self.outcomes(where, kind)
            self.work.add(len(best) + 1)
            bounce = self.bounce
            found = (list(best), [after for after, (longest, _) in best.items() if longest <= bounce])
            self.memo[key] = found
        return found

    def outcomes(self, where: int, kind: int) -> dict[int, tuple[int, Trace | None]]:
        """Each abstract position the card can leave, with the shortest longest fall reaching it (and, in
        detailed mode, the Trace of one way to it)."""
        down, die, walls, credits = self.unpack(where)
        best: dict[int, tuple[int, Trace | None]] = {}
        detailed = self.detailed
        going = self.going
        pack = self.pack

        def finish(end_down: int, end_die: int, end_walls: int, end_credits: Credits, longest: int, trace) -> None:
            if going is None:
                ways = [(end_down, end_die, end_walls, end_credits, longest, trace)]
            else:
                turned = (end_down + going) & 3
                ways = [
                    (turned, room, after, rest, max(longest, length), trace and trace.then(("going",), decided))
                    for room, after, rest, length, decided in self.falls(turned, end_die, end_walls, end_credits)
                ]
            for final_down, final_die, final_walls, final_credits, final_longest, final_trace in ways:
                after = pack(final_down, final_die, final_walls, final_credits)
                if final_longest < best.get(after, (1 << 30, None))[0]:
                    best[after] = (final_longest, final_trace)

        start_trace = Trace() if detailed else None
        finish(down, die, walls, credits, 0, start_trace)  # forgone
        if kind in TURNING:
            self._turns(kind, down, die, walls, credits, start_trace, finish)
            return best
        supply = self.pieces - walls.bit_count() - len(credits)
        standing = [bit for bit in self.slot_bits if walls & bit]
        if kind in (WALL1, WALL2) and supply >= 1:
            one = self._new_credit(walls, False)
            built = tuple(sorted(credits + (one,)))
            finish(down, die, walls, built, 0, start_trace and start_trace.then(("build", self._identity(one))))
            if kind == WALL2 and supply >= 2:
                two = self._new_credit(walls, False)
                both = tuple(sorted(built + (two,)))
                trace = start_trace and start_trace.then(("build", self._identity(one)))
                finish(down, die, walls, both, 0, trace and trace.then(("build", self._identity(two))))
        for bit in standing:
            for room, after, rest, length, decided in self.falls(down, die, walls & ~bit, credits):
                trace = start_trace and start_trace.then(("remove", bit), decided)
                if kind in (WALL1, WALL2):
                    finish(down, room, after, rest, length, trace)
                if kind == WALL2:
                    # The second removal may take any wall standing now, one a credit put in this fall included.
                    for second in self.slot_bits:
                        if after & second:
                            for end, last, kept, more, also in self.falls(down, room, after & ~second, rest):
                                again = trace and trace.then(("remove", second), also)
                                finish(down, end, last, kept, max(length, more), again)
                if kind == MOVE:
                    piece = self._new_credit(after, True)
                    moved = tuple(sorted(rest + (piece,)))
                    finish(down, room, after, moved, length, trace and trace.then(("build", self._identity(piece))))
        if kind == MOVE:
            self._move_credit(down, die, walls, credits, start_trace, finish)
        return best

    def _identity(self, credit: int) -> int:
        return credit & ((1 << self.id_bits) - 1)

    def _turns(self, kind: int, down: int, die: int, walls: int, credits: Credits, trace, finish: Callable) -> None:
        """turn1, turn2 (each quarter turn left or right) and turnAny ("k >= 1 quarter turns in one direction";
        its intermediate positions are taken until none is new: with credits the die's path may branch)."""
        for step, name in ((3, "left"), (1, "right")):
            first_down = (down + step) & 3
            firsts = self.falls(first_down, die, walls, credits)
            for room, after, rest, length, decided in firsts:
                first_trace = trace and trace.then((name,), decided)
                finish(first_down, room, after, rest, length, first_trace)
                if kind == TURN2:
                    for second_step, second_name in ((3, "left"), (1, "right")):
                        second_down = (first_down + second_step) & 3
                        for end, last, kept, more, also in self.falls(second_down, room, after, rest):
                            second_trace = first_trace and first_trace.then((second_name,), also)
                            finish(second_down, end, last, kept, max(length, more), second_trace)
            if kind == TURN_ANY:
                # The intermediate positions met, each with the shortest longest fall reaching it: one met
                # again with no shorter fall adds nothing (the walls do not change but for the credits used).
                frontier = [
                    (first_down, room, after, rest, length, trace and trace.then((name,), decided))
                    for room, after, rest, length, decided in firsts
                ]
                seen = {(first_down, room, after, rest): length for room, after, rest, length, _ in firsts}
                while frontier:
                    following = []
                    for now_down, now_die, now_walls, now_credits, longest, now_trace in frontier:
                        turned = (now_down + step) & 3
                        for room, after, rest, length, decided in self.falls(turned, now_die, now_walls, now_credits):
                            key = (turned, room, after, rest)
                            more = max(longest, length)
                            if seen.get(key, 1 << 30) <= more:
                                continue
                            seen[key] = more
                            next_trace = now_trace and now_trace.then((name,), decided)
                            finish(turned, room, after, rest, more, next_trace)
                            following.append((turned, room, after, rest, more, next_trace))
                    self.work.add(len(following))
                    frontier = following

    def _move_credit(self, down: int, die: int, walls: int, credits: Credits, trace, finish: Callable) -> None:
        """move, taking a credit's piece: the credit gets a slot it could have stood in all along (outside its
        F; the other credits alive learn it is taken), and the piece is a new, mandatory credit. The die does
        not move (the piece held nothing up). A slot every other credit already excludes changes nothing
        else and is taken when there is one; otherwise each slot is tried."""
        tried = set()
        for index, credit in enumerate(credits):
            key = credit >> self.id_bits
            if key in tried:
                continue
            tried.add(key)
            others = credits[:index] + credits[index + 1 :]
            allowed = self.variable & ~self.forbidden_of(credit) & ~walls
            common = allowed
            for other in others:
                common &= self.forbidden_of(other)
            choices = [common & -common] if common else [bit for bit in self.slot_bits if allowed & bit]
            for bit in choices:
                rest = self._grown(others, bit)
                if rest is None:
                    continue
                piece = self._new_credit(walls, True)
                moved = tuple(sorted(rest + (piece,)))
                step = ("remove-credit", self._identity(credit))
                moved_trace = trace and trace.then(step, {self._identity(credit): bit})
                finish(down, die, walls, moved, 0, moved_trace and moved_trace.then(("build", self._identity(piece))))


def _matching(allowed: list[int]) -> list[int] | None:
    """Distinct slot bits, one from each mask of `allowed` (None when there are none): augmenting paths."""
    owner: dict[int, int] = {}

    def place(index: int, visited: set[int]) -> bool:
        options = allowed[index]
        while options:
            bit = options & -options
            options ^= bit
            if bit in visited:
                continue
            visited.add(bit)
            if bit not in owner or place(owner[bit], visited):
                owner[bit] = index
                return True
        return False

    for index in range(len(allowed)):
        if not place(index, set()):
            return None
    chosen = [0] * len(allowed)
    for bit, index in owner.items():
        chosen[index] = bit
    return chosen


def _stripped(moves: LazyMoves, detailed: int) -> tuple[int, int, int, Credits]:
    """A detailed position without the credits' identities."""
    down, die, walls, credits = moves.unpack(detailed)
    return down, die, walls, tuple(sorted(credit >> moves.id_bits for credit in credits))


def concrete_plan(space: Any, nodes: list[int]) -> tuple[PlanTurn, ...]:
    """The plan of the rules along a path of abstract states (the first one's position concrete: no credits,
    as the round's start): each turn's outcome found again with the credits' identities (LazyMoves in
    detailed mode), each credit's slot read off where a fall used it, the open mandatory ones given slots at
    the end, and the unused builds forgone."""
    round_ = space.round
    abstract: LazyMoves = space.moves
    moves = LazyMoves(round_, space.work, detailed=True)
    down, die, walls, credits = abstract.unpack(space.parts(nodes[0])[1])
    assert not credits
    here = moves.pack(down, die, walls, ())
    turns: list[tuple[int | None, int, Swap | None, Trace]] = []
    decided: dict[int, int] = {}
    for before, after in zip(nodes, nodes[1:], strict=False):
        goal = abstract.unpack(space.parts(after)[1])
        for kind, swap in space.plays_between(before, after):
            ways = moves.outcomes(here, kind)
            match = [
                (longest, where, trace)
                for where, (longest, trace) in ways.items()
                if _stripped(moves, where) == goal and (not space.safe or longest <= round_.bounce)
            ]
            if match:
                _, here, trace = min(match, key=lambda item: item[0])
                assert trace is not None
                turns.append((space.player(before), kind, swap, trace))
                decided.update(trace.decided)
                break
        else:
            raise AssertionError("no outcome leads from an abstract state to its successor")
    decided.update(moves.mandatory_slots(moves.unpack(here)[3]))
    plan = []
    for player, kind, swap, trace in turns:
        action: list[tuple] = []
        for step in trace.steps:
            if step[0] == "build":
                if step[1] in decided:
                    action.append(("build", decided[step[1]].bit_length() - 1))
            elif step[0] == "remove":
                action.append(("remove", step[1].bit_length() - 1))
            elif step[0] == "remove-credit":
                action.append(("remove", decided[step[1]].bit_length() - 1))
            elif step[0] != "going":
                action.append(step)
        plan.append(PlanTurn(player, CARDS[kind], tuple(action), swap))
    return tuple(plan)
