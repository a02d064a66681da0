"""Twisted Tunnels: exact odds of Saving Rolls, Clashes and whole fights.

The rulebook is `rulebooks/twisted-tunnels.txt`; the contract is `rules/tunnels.md`; the decisions taken
where both are silent are in `docs/tunnels.md`. Every probability here is an exact `Fraction`. Dice are
six-sided throughout.

Layout: Saving Rolls (`saving_roll_success`), one side's roll in a Clash (`pool_outcomes`,
`flat_footed_outcomes`), the opposed Clash (`clash`), and a fight as an absorbing Markov chain
(`fight`, forward; `fight_values`, backward over every starting monster rating at once).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from functools import cache, lru_cache
from math import comb, factorial
from typing import Literal

import numpy as np

from twisty.limits import Deadline

FACES = 6
DIE_FACES = tuple(range(1, FACES + 1))

# 6**24 < 2**63 <= 6**25: up to 24 dice every weight and every partial sum fits in int64 exactly.
MAX_INT64_DICE = 24
# Beyond this a pool has millions of multisets; the rules never come near it.
MAX_POOL_DICE = 40

# The luck bonus of a shield when caught flat-footed.
SHIELD_BONUS = 7


# ---------------------------------------------------------------------------------------------------------
# Saving Rolls
# ---------------------------------------------------------------------------------------------------------


def difficulty_for_level(level: int) -> int:
    """Difficulty of a Saving Roll on a dungeon level.

    Rule: "Difficulty = Level x 3 + 6" (levels 1..5 give 9, 12, 15, 18, 21).
    """
    if level < 1:
        raise ValueError(f"dungeon level must be at least 1, got {level}")
    return 3 * level + 6


def _throws() -> Iterable[tuple[int, int]]:
    for first in DIE_FACES:
        for second in DIE_FACES:
            yield first, second


_THROWS_PER_ROLL = FACES * FACES


# P(an exploding 2d6 sum >= s) at index s, grown on demand; every sum reaches s <= 0.
_EXPLODING_TAIL: list[Fraction] = [Fraction(1)]


def _extend_exploding_tail(max_shortfall: int) -> None:
    table = _EXPLODING_TAIL
    for shortfall in range(len(table), max_shortfall + 1):
        reached = 0
        carried = Fraction(0)
        for first, second in _throws():
            total = first + second
            if first == second:
                # Doubles add and roll over: what is still missing after this throw is shortfall - total.
                remaining = shortfall - total
                carried += table[remaining] if remaining > 0 else 1
            elif total >= shortfall:
                reached += 1
        table.append((reached + carried) / _THROWS_PER_ROLL)


def exploding_sum_at_least(shortfall: int) -> Fraction:
    """P(the sum of a re-rolled throw, doubles adding and rolling over, reaches `shortfall`).

    Rule: "If you roll doubles, take the sum and roll both dice again. Keep rolling and adding the result
    until you roll something other than doubles." The sum is unbounded, so this is a recursion on the
    shortfall, which ends because every double adds at least 2; nothing is truncated.
    """
    if shortfall <= 0:
        return Fraction(1)
    _extend_exploding_tail(shortfall)
    return _EXPLODING_TAIL[shortfall]


def saving_roll_success(difficulty: int, rating: int) -> Fraction:
    """Exact probability that a Saving Roll with this ability rating meets the difficulty.

    Rules: "Roll two six-sided dice (2d6), and add them together. The flop: If the result is a 3 (rolling a
    1 and 2), the Saving Roll fails, no matter how high your ability rating. Doubles Add and Roll Over
    (DARO): If you roll doubles, take the sum and roll both dice again. Keep rolling and adding the result
    until you roll something other than doubles. If the result is 4 or higher, add the rating of the
    ability being tested. If your total meets or beats the difficulty number, you succeed!"
    The flop applies to the first throw only.
    """
    needed = difficulty - rating
    success = Fraction(0)
    for first, second in _throws():
        if {first, second} == {1, 2}:
            continue
        total = first + second
        if first == second:
            success += exploding_sum_at_least(needed - total)
        elif total >= needed:
            success += 1
    return success / _THROWS_PER_ROLL


# ---------------------------------------------------------------------------------------------------------
# One side's roll in a Clash
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class PoolOutcomes:
    """The distinct results (score, hits) of one side's roll, with their number of ways out of `total`.

    `dice_rolled` is the number of dice thrown (0 for a flat-footed side), used by the Clash tie-break.
    `ways` holds exact integers (int64 up to 24 dice, Python ints beyond); P(result i) = ways[i] / total.
    """

    dice_rolled: int
    scores: np.ndarray
    hits: np.ndarray
    ways: np.ndarray
    total: int
    flat_footed: bool = False

    def distribution(self) -> dict[tuple[int, int], Fraction]:
        """{(score, hits): probability}."""
        return {
            (int(s), int(h)): Fraction(int(w), self.total)
            for s, h, w in zip(self.scores, self.hits, self.ways, strict=True)
        }


@dataclass(frozen=True, eq=False)
class _HalfMultisets:
    """Every multiset of `dice` dice over three consecutive faces, with what each contributes to a score.

    `rank` orders a face's sum first and the face second (6 x sum + face index), so the best rank is the
    rule's choice: the highest sum, and on equal sums the highest face, which uses the fewest dice.
    """

    rank: np.ndarray
    face_index: np.ndarray
    used: np.ndarray
    ways: np.ndarray


FACES_PER_HALF = FACES // 2


@cache
def _half_multisets(dice: int, first_face_index: int) -> _HalfMultisets:
    counts = np.array(
        [(low, middle, dice - low - middle) for low in range(dice + 1) for middle in range(dice + 1 - low)],
        dtype=np.int64,
    ).reshape(-1, FACES_PER_HALF)
    face_indices = np.arange(first_face_index, first_face_index + FACES_PER_HALF)
    ranks = counts * (FACES * (face_indices + 1)) + face_indices
    best = np.argmax(ranks, axis=1)
    rows = np.arange(len(counts))
    ways = np.array(
        [factorial(dice) // (factorial(a) * factorial(b) * factorial(c)) for a, b, c in counts], dtype=np.int64
    )
    return _HalfMultisets(rank=ranks[rows, best], face_index=face_indices[best], used=counts[rows, best], ways=ways)


@cache
def pool_outcomes(dice: int) -> PoolOutcomes:
    """The (score, hits) distribution of `dice` dice, by enumerating multisets with multinomial weights.

    Rules: "Select the highest single die or the sum of any dice showing the same number (whichever is
    higher). This is your score. Count the dice not included in your score - these are your hits."
    Contract: score = max over faces f of f x count(f); when several faces give the same best score the side
    uses the one that takes the fewest dice (the highest face); hits = dice not in the score.
    Each of the C(n + 5, 5) multisets is visited once, as a pair of half multisets (see below).
    A side with no dice scores 0 with 0 hits.
    """
    if not 0 <= dice <= MAX_POOL_DICE:
        raise ValueError(f"a pool has 0..{MAX_POOL_DICE} dice, got {dice}")
    # A multiset of n dice is a multiset of k low dice (faces 1-3) beside one of n - k high dice (faces
    # 4-6); every pair of halves is one multiset, weighted C(n, k) x ways(low) x ways(high) = its
    # multinomial n! / prod(count!). Its result is that of the half with the better rank.
    exact_in_int64 = dice <= MAX_INT64_DICE
    totals = np.zeros(FACES * (dice + 1), dtype=np.int64 if exact_in_int64 else object)
    for low_dice in range(dice + 1):
        low, high = _half_multisets(low_dice, 0), _half_multisets(dice - low_dice, FACES_PER_HALF)
        high_wins = high.rank[None, :] > low.rank[:, None]
        # (face, dice used) fixes score and hits, so results are gathered on that small key space.
        keys = np.where(
            high_wins,
            (high.face_index * (dice + 1) + high.used)[None, :],
            (low.face_index * (dice + 1) + low.used)[:, None],
        )
        low_ways, high_ways = (
            (low.ways, high.ways) if exact_in_int64 else (low.ways.astype(object), high.ways.astype(object))
        )
        ways = comb(dice, low_dice) * low_ways[:, None] * high_ways[None, :]
        np.add.at(totals, keys.ravel(), ways.ravel())
    present = np.nonzero(totals)[0]
    faces = present // (dice + 1) + 1
    used_dice = present % (dice + 1)
    return PoolOutcomes(
        dice_rolled=dice, scores=faces * used_dice, hits=dice - used_dice, ways=totals[present], total=FACES**dice
    )


@cache
def flat_footed_outcomes(luck: int, shield: bool = False) -> PoolOutcomes:
    """The single result of a flat-footed side.

    Rule: "A flat-footed fighter gets no Combat dice to defend or counterattack. When you are caught in a
    Clash flat-footed, count your Luck rating as your score, plus 7 if you could block the attack with a
    shield."  No dice are rolled, so there are no hits.
    """
    score = luck + (SHIELD_BONUS if shield else 0)
    return PoolOutcomes(
        dice_rolled=0,
        scores=np.array([score], dtype=np.int64),
        hits=np.zeros(1, dtype=np.int64),
        ways=np.ones(1, dtype=np.int64),
        total=1,
        flat_footed=True,
    )


# ---------------------------------------------------------------------------------------------------------
# The Clash
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ClashSide:
    """One side of a Clash: its Combat dice and what changes them.

    `upper_hand` adds one die. A `flat_footed` side rolls nothing and scores its `luck` (+7 with a
    `shield`). `armour` points absorb wounds one for one.
    """

    dice: int = 0
    upper_hand: bool = False
    flat_footed: bool = False
    luck: int = 0
    shield: bool = False
    armour: int = 0

    def outcomes(self) -> PoolOutcomes:
        """Rule: "Having the upper hand gives you +1 to your Combat dice before you roll."""
        if self.flat_footed:
            return flat_footed_outcomes(self.luck, self.shield)
        return pool_outcomes(self.dice + (1 if self.upper_hand else 0))


@dataclass(frozen=True)
class ClashOdds:
    """Exact result of one Clash between sides a and b.

    `wounds_dealt_by_a[w]` is P(a wins and deals w wounds before armour), likewise for b; `indecisive` is
    P(no winner). Wounds that reach a side after armour are given by `wounds_to_a` / `wounds_to_b`.
    """

    a_wins: Fraction
    b_wins: Fraction
    indecisive: Fraction
    wounds_dealt_by_a: dict[int, Fraction]
    wounds_dealt_by_b: dict[int, Fraction]
    armour_a: int = 0
    armour_b: int = 0

    @property
    def wounds_to_a(self) -> dict[int, Fraction]:
        return _after_armour(self.wounds_dealt_by_b, self.armour_a)

    @property
    def wounds_to_b(self) -> dict[int, Fraction]:
        return _after_armour(self.wounds_dealt_by_a, self.armour_b)


def _after_armour(dealt: dict[int, Fraction], armour: int) -> dict[int, Fraction]:
    """Distribution of wounds reaching a side (0 when it does not lose or armour takes them all).

    Rule: "Armour points absorb wounds one for one before they reach Constitution or Monster Rating."
    """
    taken: dict[int, Fraction] = defaultdict(Fraction)
    taken[0] = 1 - sum(dealt.values(), Fraction(0))
    for wounds, probability in dealt.items():
        taken[max(0, wounds - armour)] += probability
    return {w: p for w, p in sorted(taken.items()) if p}


@lru_cache(maxsize=4096)
def _clash_core(a: PoolOutcomes, b: PoolOutcomes) -> tuple[int, dict[int, int], dict[int, int], int]:
    """Ways (out of a.total * b.total) of: a winning per wound count, b winning per wound count, indecisive.

    Rules: "Whoever gets the highest score wins. If that's a tie, whoever has more hits wins. If it's still
    a tie, whoever rolled fewer dice wins. Do you still have a tie? The Clash is indecisive."
    "Subtract the loser's hits from the winner's hits. If the winner has any hits left, those represent
    wounds suffered by the losing side, but the losing side will always suffer at least one hit."
    A flat-footed winner deals no wounds: "If you win, you suffer no harm, but you don't have any hits to
    hurt your enemy."
    """
    score_a, score_b = a.scores[:, None], b.scores[None, :]
    hits_a, hits_b = a.hits[:, None], b.hits[None, :]
    same_score = score_a == score_b
    same_hits = same_score & (hits_a == hits_b)
    a_beats_b = (score_a > score_b) | (same_score & (hits_a > hits_b))
    b_beats_a = (score_b > score_a) | (same_score & (hits_b > hits_a))
    if a.dice_rolled < b.dice_rolled:
        a_beats_b = a_beats_b | same_hits
    elif b.dice_rolled < a.dice_rolled:
        b_beats_a = b_beats_a | same_hits
    wounds_from_a = np.maximum(1, hits_a - hits_b) * (0 if a.flat_footed else 1)
    wounds_from_b = np.maximum(1, hits_b - hits_a) * (0 if b.flat_footed else 1)

    # Sum b's ways per row first (exact in int64 when b has <= 24 dice), then weight by a's ways in Python
    # ints, since a product of two pools' ways can exceed 64 bits.
    ways_a = a.ways.astype(object)
    ways_b = b.ways

    def ways_of(mask: np.ndarray) -> int:
        per_row = mask.astype(ways_b.dtype) @ ways_b
        return int(np.dot(ways_a, per_row.astype(object)))

    def by_wounds(beats: np.ndarray, wounds: np.ndarray) -> dict[int, int]:
        found: dict[int, int] = {}
        for count in np.unique(wounds[beats]):
            found[int(count)] = ways_of(beats & (wounds == count))
        return found

    a_by_wounds = by_wounds(a_beats_b, np.broadcast_to(wounds_from_a, a_beats_b.shape))
    b_by_wounds = by_wounds(b_beats_a, np.broadcast_to(wounds_from_b, b_beats_a.shape))
    indecisive = ways_of(~(a_beats_b | b_beats_a))
    return indecisive, a_by_wounds, b_by_wounds, a.total * b.total


def clash(a: ClashSide, b: ClashSide) -> ClashOdds:
    """Exact odds of a Clash: who wins, and the wounds dealt (before armour) and taken (after armour).

    Rules: "Each side rolls all their Combat dice, plus any bonus dice that apply to this Clash." The score,
    hits, winner and wounds follow `pool_outcomes` and `_clash_core`; "Unless the loser uses armor to
    deflect the blows, subtract the hits 1 for 1 from the loser's Constitution or Monster Rating."
    """
    if a.flat_footed and a.upper_hand or b.flat_footed and b.upper_hand:
        raise ValueError("a flat-footed side rolls no dice, so it cannot have the upper hand")
    indecisive, a_by_wounds, b_by_wounds, total = _clash_core(a.outcomes(), b.outcomes())
    dealt_by_a = {w: Fraction(n, total) for w, n in a_by_wounds.items()}
    dealt_by_b = {w: Fraction(n, total) for w, n in b_by_wounds.items()}
    return ClashOdds(
        a_wins=sum(dealt_by_a.values(), Fraction(0)),
        b_wins=sum(dealt_by_b.values(), Fraction(0)),
        indecisive=Fraction(indecisive, total),
        wounds_dealt_by_a=dealt_by_a,
        wounds_dealt_by_b=dealt_by_b,
        armour_a=a.armour,
        armour_b=b.armour,
    )


# ---------------------------------------------------------------------------------------------------------
# A fight: Clashes until an end, as an absorbing Markov chain
# ---------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Delver:
    """A delver as far as a fight is concerned.

    `combat` Combat dice, `constitution`, `luck` (the rating of the Saving Roll when hit while reeling, and
    the score when flat-footed), `armour` points, and whether a `shield` is carried.
    """

    combat: int
    constitution: int
    luck: int = 0
    armour: int = 0
    shield: bool = False


@dataclass(frozen=True)
class Monster:
    """A monster: its Monster Rating (the wounds it can take), its Combat dice (fixed through the fight),
    armour points, and the luck (+ shield) it scores if caught flat-footed."""

    rating: int
    dice: int
    armour: int = 0
    luck: int = 0
    shield: bool = False


Side = Literal["delver", "monster"]


ArmourUse = Literal["absorb", "keep"]


@dataclass(frozen=True)
class FightRules:
    """What holds for the fight as a whole.

    `difficulty`: of the Saving Roll made when hit while reeling. `upper_hand`: the side with the upper hand
    in every Clash (position and weapons do not change during a fight). `flat_footed`: the side caught
    flat-footed in the first Clash only (surprise lasts until the first pause). `armour_use`: the delver
    spends armour points on wounds as they come ("absorb"), or keeps them all for the Saving Roll made
    when hit while reeling ("keep").
    """

    difficulty: int = 9
    upper_hand: Side | None = None
    flat_footed: Side | None = None
    armour_use: ArmourUse = "absorb"


@dataclass(frozen=True, order=True)
class FightState:
    """Everything that changes during a fight."""

    constitution: int
    armour: int
    combat: int
    reeling: bool
    rating: int
    monster_armour: int
    first_clash: bool

    @property
    def potential(self) -> int:
        """Strictly drops on every Clash that changes the state, which keeps the chain acyclic."""
        return (
            self.constitution
            + self.armour
            + self.combat
            + (0 if self.reeling else 1)
            + self.rating
            + self.monster_armour
            + (1 if self.first_clash else 0)
        )


WON, DISABLED, PERISHED = "won", "disabled", "perished"


@dataclass(frozen=True)
class End:
    """An absorbing state: the fight is over. `constitution` is the delver's, left at the end."""

    kind: str
    constitution: int = 0


@dataclass
class FightOdds:
    """Exact odds of a whole fight (from its start, or from one state of it)."""

    win: Fraction
    disabled: Fraction
    perished: Fraction
    expected_clashes: Fraction
    constitution: dict[int, Fraction] = field(default_factory=dict)
    states: int = 0

    @property
    def survival(self) -> Fraction:
        """P(the delver does not perish)."""
        return 1 - self.perished


Move = tuple[Fraction, "FightState | End"]


class FightChain:
    """The fight between one delver and one monster as an absorbing Markov chain.

    Contract: "Repeat Clashes until an end: the monster's rating reaches 0 (the delver wins); the delver is
    disabled or perishes. A delver hit while Constitution is 0 loses the wounds from Combat dice instead
    and is reeling; a delver hit while reeling makes a Saving Roll (rating + remaining armour): success =
    disabled, failure = perished."

    An indecisive Clash is a self-loop; every other Clash lowers `FightState.potential`, so the transient
    states are ordered and the chain is solved exactly in one pass: forward for the distribution from a
    start, backward for the values of every state.
    """

    def __init__(self, delver: Delver, monster: Monster, rules: FightRules = FightRules()) -> None:
        if delver.combat < 0 or delver.constitution < 0 or delver.armour < 0:
            raise ValueError("a delver's combat dice, constitution and armour cannot be negative")
        if monster.dice < 1 or monster.rating < 1 or monster.armour < 0:
            raise ValueError("a monster needs at least 1 die, a rating of at least 1 and armour >= 0")
        self.delver = delver
        self.monster = monster
        self.rules = rules
        self._steps: dict[FightState, tuple[Fraction, list[Move]]] = {}

    def estimated_states(self) -> int:
        """An upper bound on the transient states from the start, known before any is built.

        Armour is spent before Constitution, and Constitution before dice, so the delver's side moves along
        one line of length armour + Constitution + dice + 2 (reeling included), the monster's along armour +
        rating; a first flat-footed Clash doubles nothing but the start.
        """
        delver_line = self.delver.armour + self.delver.constitution + self.delver.combat + 2
        return delver_line * (self.monster.armour + self.monster.rating) + 1

    def start(self, rating: int | None = None) -> FightState:
        return FightState(
            constitution=self.delver.constitution,
            armour=self.delver.armour,
            combat=self.delver.combat,
            reeling=False,
            rating=self.monster.rating if rating is None else rating,
            monster_armour=self.monster.armour,
            first_clash=self.rules.flat_footed is not None,
        )

    def _clash_at(self, state: FightState) -> ClashOdds:
        """The Clash fought in this state: the delver is side a, the monster side b."""
        surprised = self.rules.flat_footed if state.first_clash else None
        delver_side = ClashSide(
            dice=state.combat,
            luck=self.delver.luck,
            shield=self.delver.shield,
            flat_footed=surprised == "delver",
            upper_hand=self.rules.upper_hand == "delver" and surprised != "delver",
        )
        monster_side = ClashSide(
            dice=self.monster.dice,
            luck=self.monster.luck,
            shield=self.monster.shield,
            flat_footed=surprised == "monster",
            upper_hand=self.rules.upper_hand == "monster" and surprised != "monster",
        )
        return clash(delver_side, monster_side)

    def _monster_hit(self, state: FightState, wounds: int) -> FightState | End:
        """Rule: armour points absorb wounds one for one (and are spent) before they reach the Monster Rating;
        at rating 0 the monster is beaten."""
        absorbed = min(state.monster_armour, wounds)
        rating = max(0, state.rating - (wounds - absorbed))
        if rating == 0:
            return End(WON, state.constitution)
        return replace(state, monster_armour=state.monster_armour - absorbed, rating=rating, first_clash=False)

    def _delver_hit(self, state: FightState, wounds: int) -> list[Move]:
        """Wounds (before armour) dealt to the delver.

        Rules: "When you suffer a hit while your Constitution is zero, subtract all the damage from your
        Combat dice. You are reeling." "When you suffer a hit while you are reeling, make a Saving Roll,
        adding any remaining armor to your rating. If you succeed, you are disabled. If you miss, you have
        perished."  A hit is a wound that gets past armour; wounds beyond the Constitution left are lost.
        """
        absorbed = min(state.armour, wounds) if self.rules.armour_use == "absorb" else 0
        through = wounds - absorbed
        after = replace(state, armour=state.armour - absorbed, first_clash=False)
        if not through:
            return [(Fraction(1), after)]
        if state.reeling:
            saved = saving_roll_success(self.rules.difficulty, self.delver.luck + after.armour)
            return [(saved, End(DISABLED)), (1 - saved, End(PERISHED))]
        if state.constitution > 0:
            return [(Fraction(1), replace(after, constitution=max(0, state.constitution - through)))]
        return [(Fraction(1), replace(after, combat=max(0, state.combat - through), reeling=True))]

    def steps(self, state: FightState) -> tuple[Fraction, list[Move]]:
        """(P(a Clash leaves the state as it is), [(P, next state or end)] for every other outcome)."""
        cached = self._steps.get(state)
        if cached is not None:
            return cached
        odds = self._clash_at(state)
        calm = replace(state, first_clash=False)
        moves: dict[FightState | End, Fraction] = defaultdict(Fraction)
        moves[calm] += odds.indecisive
        for wounds, probability in odds.wounds_dealt_by_a.items():
            moves[self._monster_hit(state, wounds) if wounds else calm] += probability
        for wounds, probability in odds.wounds_dealt_by_b.items():
            for chance, target in self._delver_hit(state, wounds):
                moves[target] += probability * chance
        stay = moves.pop(state, Fraction(0))
        result = (stay, [(p, target) for target, p in moves.items() if p])
        self._steps[state] = result
        return result

    def _reachable(self, starts: Iterable[FightState]) -> list[FightState]:
        """Every transient state reachable from the starts, ordered by falling potential."""
        seen = set(starts)
        frontier = list(seen)
        while frontier:
            state = frontier.pop()
            for _, target in self.steps(state)[1]:
                if isinstance(target, FightState) and target not in seen:
                    seen.add(target)
                    frontier.append(target)
        return sorted(seen, key=lambda s: (-s.potential, s))

    def _leave(self, state: FightState) -> tuple[Fraction, list[Move]]:
        """(1 - P(stay), moves) of a state; some Clash always changes the state, so 1 - P(stay) > 0."""
        stay, moves = self.steps(state)
        if stay == 1:
            raise ValueError(f"no Clash can change {state}")
        return 1 - stay, moves

    def forward(self) -> FightOdds:
        """Odds from the start, pushing probability mass down the states in order of falling potential.

        Mass entering a state leaves along the other outcomes in proportion to them (the self-loop only
        delays it), after 1 / (1 - P(stay)) Clashes on average.
        """
        start = self.start()
        order = self._reachable([start])
        mass: dict[FightState, Fraction] = {start: Fraction(1)}
        ends: dict[End, Fraction] = defaultdict(Fraction)
        expected_clashes = Fraction(0)
        for state in order:
            arrived = mass.pop(state, None)
            if not arrived:
                continue
            leave, moves = self._leave(state)
            share = arrived / leave
            expected_clashes += share
            for probability, target in moves:
                if isinstance(target, End):
                    ends[target] += share * probability
                else:
                    mass[target] = mass.get(target, Fraction(0)) + share * probability
        by_kind: dict[str, Fraction] = defaultdict(Fraction)
        constitution: dict[int, Fraction] = defaultdict(Fraction)
        for end, probability in ends.items():
            by_kind[end.kind] += probability
            constitution[end.constitution] += probability
        return FightOdds(
            win=by_kind[WON],
            disabled=by_kind[DISABLED],
            perished=by_kind[PERISHED],
            expected_clashes=expected_clashes,
            constitution={c: p for c, p in sorted(constitution.items()) if p},
            states=len(order),
        )

    def backward(self, starts: Iterable[FightState], deadline: Deadline | None = None) -> dict[FightState, FightOdds]:
        """Win, disabled, perished and expected Clashes from each state reachable from the starts.

        Value of a state = (sum over moves of P(move) x value after it) / (1 - P(stay)); states are solved
        from the lowest potential up, so every value needed is already known. The deadline, when given, is
        polled at every state (LimitReached): one state's work is a few exact sums, far below its step.
        """
        order = self._reachable(starts)
        values: dict[FightState, tuple[Fraction, ...]] = {}
        zero = Fraction(0)
        for state in reversed(order):
            if deadline is not None:
                deadline.check()
            leave, moves = self._leave(state)
            totals = [zero, zero, zero, Fraction(1)]
            for probability, target in moves:
                if isinstance(target, End):
                    totals[(WON, DISABLED, PERISHED).index(target.kind)] += probability
                else:
                    for index, value in enumerate(values[target]):
                        totals[index] += probability * value
            values[state] = tuple(total / leave for total in totals)
        return {
            state: FightOdds(win=v[0], disabled=v[1], perished=v[2], expected_clashes=v[3], states=len(order))
            for state, v in values.items()
        }


def fight(delver: Delver, monster: Monster, rules: FightRules = FightRules()) -> FightOdds:
    """Exact odds of a fight: win, disabled, perished, expected Clashes, the delver's Constitution at the end.

    See `FightChain` for the rules it follows.
    """
    return FightChain(delver, monster, rules).forward()


def fight_by_rating(
    delver: Delver,
    dice: int,
    ratings: Iterable[int],
    rules: FightRules = FightRules(),
    monster_armour: int = 0,
    deadline: Deadline | None = None,
) -> dict[int, FightOdds]:
    """Odds against a monster with `dice` Combat dice for each starting rating, from one backward pass.

    A monster that starts at rating r is in the states of a higher-rated one after it lost wounds, so one
    chain answers every starting rating at once (this is what the generator searches).
    """
    wanted = sorted(set(ratings))
    chain = FightChain(delver, Monster(rating=max(wanted), dice=dice, armour=monster_armour), rules)
    starts = {rating: chain.start(rating) for rating in wanted}
    values = chain.backward(starts.values(), deadline)
    return {rating: values[state] for rating, state in starts.items()}
