"""New Temple Twist rounds: a round with a unique shortest plan of exactly T turns in which every card
matters, verified by an engine given as a parameter; and small random rounds for differential tests.

A candidate is planted: the die starts in the room of the door that points down among five walls at random
(the rulebook's setup), and a random play of T turns in seat order is made with the plain rules, each turn
playing any card (with --bounce-safe, no fall longer than the bounce); the hands are dealt from the play
(each card to the player of its turn, more random cards when --cards asks for more, as evenly as possible).
The room of the door it ends at, pointing down, gives the revealed door; rooms where its turns ended give
the revealed rooms (in the order first reached, for Always in order), the secret room, and a No entry room
it never entered. The engine then has to prove the candidate's fewest turns are T, that every card matters,
and that the shortest plan is unique (and with --bounce-safe that it is bounce-safe):

- dropping any card breaks the plan or lengthens it: with as many cards as turns, every card is played and a
  hand one card short ends the round before turn T (with more cards, the engine is asked);
- no turn of the plan leaves the temple as forgoing the card would (else that card could be a blank: a plan
  that forgoes it would be another plan through the same states).

Everything is drawn from one random generator seeded with the seed, so a seed gives the same round on every
run (within the time limit: a round the limit cuts short is a failure, not another round).
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from types import ModuleType

from twisty.errors import EngineBug, GenerationError, LimitReached
from twisty.limits import Deadline
from twisty.rules.temple.loader import standard_temple
from twisty.rules.temple.model import CARDS, SIDES, TURNS, Challenges, Door, Expectations, Round, Temple, grid_slots
from twisty.rules.temple.replayer import Replay
from twisty.rules.temple.semantics import Outcome, Position, card_outcomes, fall, gets_going, max_turns
from twisty.rules.temple.writer import round_text
from twisty.solver.temple_moves import Moves, Work, position, unpack
from twisty.solver.temple_portfolio import TempleAnalysis, analyse_with

# The challenge cards a generated round may carry (the ones the model reads).
CHALLENGES = ("no_entry", "always_in_order", "secret_mission", "gets_going")
MAX_TURNS = 12
MAX_PLAYERS = 6


@dataclass(frozen=True)
class TempleParams:
    """What `twisty generate temple` asks for. `cards` defaults to `turns` (see the module's docstring)."""

    players: int = 2
    turns: int = 4
    cards: int | None = None
    rooms: int | None = None
    challenges: tuple[str, ...] = ()
    attempts: int = 1000
    temple: Temple | None = None
    bounce_safe: bool = False
    swap: bool = True

    @property
    def card_count(self) -> int:
        return self.turns if self.cards is None else self.cards

    @property
    def room_count(self) -> int:
        """Revealed rooms: by default every turn but the last explores one (the tightest rounds), less one for
        the secret room."""
        if self.rooms is not None:
            return self.rooms
        return max(0, self.turns - 1 - ("secret_mission" in self.challenges))

    def validate(self) -> None:
        """ValueError naming the first parameter out of range."""
        if not 1 <= self.players <= MAX_PLAYERS:
            raise ValueError(f"--players must be 1 to {MAX_PLAYERS}")
        if not 1 <= self.turns <= MAX_TURNS:
            raise ValueError(f"--turns must be 1 to {MAX_TURNS}")
        if not self.turns <= self.card_count <= 6 * self.players:
            raise ValueError(f"--cards must be at least --turns ({self.turns}) and at most 6 per player")
        if not 0 <= self.room_count <= self.turns:
            raise ValueError("--rooms must be 0 to --turns (a turn's end explores one room)")
        unknown = sorted(set(self.challenges) - set(CHALLENGES))
        if unknown:
            raise ValueError(f"unknown challenge {', '.join(unknown)} (challenges: {', '.join(CHALLENGES)})")
        if "always_in_order" in self.challenges and self.room_count < 2:
            raise ValueError("always_in_order needs --rooms 2 or more")
        if self.attempts < 1:
            raise ValueError("attempts must be at least 1")


@dataclass(frozen=True)
class GeneratedRound:
    round: Round
    text: str
    analysis: TempleAnalysis
    attempts: int
    seed: int
    expect: Expectations = field(default_factory=Expectations)


def deal(rng: random.Random, cards: int, players: int) -> tuple[tuple[str, ...], ...]:
    """`cards` random action cards dealt "as evenly as possible", the first player (the torch) first."""
    drawn = [rng.choice(CARDS) for _ in range(cards)]
    return tuple(tuple(drawn[seat::players]) for seat in range(players))


def _setup(rng: random.Random, temple: Temple, params: TempleParams) -> Round:
    """The rulebook's setup: "Place the temple ... so that one of the 3 doors points down", the die "in the room
    whose door points down", "Insert 5 variable walls at random" (the rest in the supply)."""
    door = rng.choice(temple.doors)
    slots = list(temple.variable_slots())
    placed = rng.sample(slots, min(5, temple.pieces, len(slots)))
    walls = sum(1 << slot for slot in placed)
    direction = rng.choice(TURNS) if "gets_going" in params.challenges else None
    return Round(
        temple,
        "",
        "",
        walls,
        temple.pieces - len(placed),
        door.side,
        door.room,
        (),
        door,
        tuple(() for _ in range(params.players)),  # dealt from the planted play (deal_play)
        1,
        params.swap,
        2,
        Challenges(gets_going=direction),
        Expectations(),
    )


def _forgone(round_: Round, position: Position) -> Position:
    return gets_going(round_, position)[0]


@dataclass(frozen=True)
class Planted:
    """A planted play: each turn's outcome, the room where each turn ended, and the card each turn played."""

    outcomes: list[Outcome]
    ends: list[int]
    cards: list[str]


def plant(
    rng: random.Random,
    round_: Round,
    turns: int,
    rooms: int = 0,
    budget: int = 300,
    *,
    bounce_safe: bool = False,
    free_cards: bool = False,
    deadline: Deadline | None = None,
) -> Planted | None:
    """A random play of `turns` turns in seat order from the round's start (a depth-first search in random
    order, at most `budget` turns tried): no turn leaves the temple as forgoing would, turns before the last
    end in at least `rooms` different room-card rooms, and the last ends with the die in a door's room with
    that door down; `bounce_safe`: no fall longer than the round's bounce. Each turn plays a card of the
    player's hand, or (`free_cards`) any card: the hands are then dealt from the play. None when none is
    found. The deadline is looked at after every card's outcomes (a big temple has thousands)."""
    doors = {(door.room, door.side) for door in round_.temple.doors}
    card_rooms = round_.temple.card_rooms
    moves = Moves(round_, Work(deadline or Deadline(None)))
    tried = 0

    def deeper(turn: int, where: int, hands: list[list[str]], played: Planted) -> Planted | None:
        nonlocal tried
        if turn == turns:
            return played
        hand = CARDS if free_cards else hands[round_.player_of_turn(turn)]
        ends = played.ends
        fresh_so_far = len({room for room in ends if room in card_rooms})
        last = turn == turns - 1
        must_be_fresh = not last and rooms - fresh_so_far >= turns - 1 - turn
        down, die, walls = unpack(where)
        still = _forgone(round_, Position(down, die, walls))
        for card in rng.sample(sorted(set(hand)), len(set(hand))):
            # Where the die ends is chosen first, so that the many ways to build a wall do not crowd out moves.
            by_room: dict[int, list[int]] = {}
            every, safe = moves.of(where, CARDS.index(card))
            for after in safe if bounce_safe else every:
                end_down, end_die, end_walls = unpack(after)
                if (end_down, end_die, end_walls) == (still.down, still.die, still.walls):
                    continue
                if last and (end_die, end_down) not in doors:
                    continue
                by_room.setdefault(end_die, []).append(after)
            fresh = [room for room in sorted(by_room) if room in card_rooms and room not in ends]
            others = [] if must_be_fresh else [room for room in sorted(by_room) if room not in fresh]
            for room in rng.sample(fresh, len(fresh)) + rng.sample(others, len(others)):
                tried += 1
                if tried > budget:
                    return None
                chosen = rng.choice(by_room[room])
                rest = [list(cards) for cards in hands]
                if not free_cards:
                    rest[round_.player_of_turn(turn)].remove(card)
                outcome = _outcome_to(round_, Position(down, die, walls), card, chosen)
                following = Planted([*played.outcomes, outcome], [*ends, room], [*played.cards, card])
                found = deeper(turn + 1, chosen, rest, following)
                if found is not None:
                    return found
        return None

    start = position(round_.down, round_.die, round_.walls)
    return deeper(0, start, [list(hand) for hand in round_.hands], Planted([], [], []))


def _outcome_to(round_: Round, start: Position, card: str, end: int) -> Outcome:
    """A way to play `card` from `start` that leaves the temple at position `end` (the rules' outcomes), one
    with the shortest longest fall."""
    down, die, walls = unpack(end)
    ways = [
        outcome
        for outcome in card_outcomes(round_, start, card)
        if (outcome.position.down, outcome.position.die, outcome.position.walls) == (down, die, walls)
    ]
    return min(ways, key=lambda outcome: outcome.longest_fall)


def deal_play(rng: random.Random, round_: Round, played: list[str], cards: int) -> tuple[tuple[str, ...], ...]:
    """Hands that hold the planted play's cards, each for the player of its turn, and `cards` in all: the rest
    drawn at random and dealt on in seat order ("as evenly as possible", from the torch holder); each hand
    shuffled."""
    hands: list[list[str]] = [[] for _ in range(round_.players)]
    drawn = played + [rng.choice(CARDS) for _ in range(cards - len(played))]
    for turn, card in enumerate(drawn):
        hands[round_.player_of_turn(turn)].append(card)
    for hand in hands:
        rng.shuffle(hand)
    return tuple(tuple(hand) for hand in hands)


def _goals(
    rng: random.Random, round_: Round, params: TempleParams, outcomes: list[Outcome], ends: list[int]
) -> Round | None:
    """The revealed rooms, the door and the challenge rooms that make the planted play a win."""
    temple = round_.temple
    last = outcomes[-1].position
    door = next(door for door in temple.doors if door.room == last.die and door.side == last.down)
    visited = []
    for room in ends[:-1]:
        if room in temple.card_rooms and room not in visited:
            visited.append(room)
    if len(visited) < params.room_count:
        return None
    chosen = set(rng.sample(visited, params.room_count))
    revealed = tuple(room for room in visited if room in chosen)
    if "always_in_order" not in params.challenges:
        revealed = tuple(rng.sample(revealed, len(revealed)))
    secret = None
    if "secret_mission" in params.challenges:
        spare = [room for room in visited if room not in chosen]
        if not spare:
            return None
        secret = rng.choice(spare)
    no_entry = None
    if "no_entry" in params.challenges:
        entered = {round_.die} | {room for outcome in outcomes for dropped in outcome.falls for room in dropped.path}
        free = [room for room in range(temple.room_count) if room not in entered]
        if not free:
            return None
        no_entry = rng.choice(free)
    challenges = replace(
        round_.challenges, no_entry=no_entry, in_order="always_in_order" in params.challenges, secret=secret
    )
    return replace(round_, revealed=revealed, door=door, challenges=challenges)


def every_card_matters(round_: Round, plan: Replay, module: ModuleType, deadline: Deadline) -> bool:
    """ "Dropping any card breaks the plan or lengthens it", and no card's turn could be forgone instead."""
    state = round_.start()
    for record in plan.records:
        still = _forgone(round_, Position(state.down, state.die, state.walls))
        after = record.state
        if (still.down, still.die, still.walls) == (after.down, after.die, after.walls):
            return False
        state = after
    turns = len(plan.records)
    for seat, hand in enumerate(round_.hands):
        for card in sorted(set(hand)):
            kept = list(hand)
            kept.remove(card)
            dropped = replace(round_, hands=round_.hands[:seat] + (tuple(kept),) + round_.hands[seat + 1 :])
            if max_turns(dropped) < turns:
                continue
            shorter = module.fewest_turns(dropped, deadline)
            if shorter.status == "unknown":
                raise LimitReached(f"{deadline.cap} limit")
            if shorter.status == "solvable" and len(shorter.plan or ()) <= turns:
                return False
    return True


def generate_round(
    params: TempleParams, seed: int, engine: ModuleType, *, timeout: float | None = None
) -> GeneratedRound:
    """A round with a unique shortest plan of exactly params.turns turns in which every card matters, proved
    by `engine` (a temple engine module from the registry) within `timeout` seconds; GenerationError if no
    attempt succeeds."""
    params.validate()
    rng = random.Random(f"temple-{seed}")
    temple = params.temple or standard_temple()
    deadline = Deadline(timeout)
    for attempt in range(1, params.attempts + 1):
        if deadline.expired():
            raise GenerationError(f"seed {seed}: no round within the {deadline.cap} limit ({attempt - 1} attempts)")
        start = _setup(rng, temple, params)
        try:
            planted = plant(
                rng,
                start,
                params.turns,
                params.room_count,
                bounce_safe=params.bounce_safe,
                free_cards=True,
                deadline=deadline,
            )
            if planted is None:
                continue
            dealt = replace(start, hands=deal_play(rng, start, planted.cards, params.card_count))
            candidate = _goals(rng, dealt, params, planted.outcomes, planted.ends)
            if candidate is None:
                continue
            found = _verify(candidate, params, engine, deadline)
        except LimitReached:
            raise GenerationError(
                f"seed {seed}: no round within the {deadline.cap} limit ({attempt} attempts)"
            ) from None
        if found is None:
            continue
        expect = _claims(found)
        named = replace(candidate, name=f"Generated temple round, seed {seed}")
        challenges = f" --challenges {','.join(params.challenges)}" if params.challenges else ""
        settings = f"--players {params.players} --turns {params.turns} --cards {params.card_count}"
        safe = (" --bounce-safe" if params.bounce_safe else "") + ("" if params.swap else " --no-swap")
        header = [
            "Temple Twist round made by `twisty generate temple`: its shortest plan is unique and takes",
            f"{params.turns} turns{', with no fall that may bounce' if params.bounce_safe else ''}, and every "
            "card matters (verified before it was written).",
            f"seed: {seed}; parameters: {settings} --rooms {params.room_count}{challenges}{safe}",
        ]
        text = round_text(named, standard=standard_temple(), header=header, expect=expect)
        return GeneratedRound(named, text, found, attempt, seed, expect)
    raise GenerationError(f"seed {seed}: no round in {params.attempts} attempts (try other parameters)")


def _verify(candidate: Round, params: TempleParams, engine: ModuleType, deadline: Deadline) -> TempleAnalysis | None:
    """The engine's answers when the candidate has a unique shortest plan of exactly T turns in which every
    card matters; None otherwise. LimitReached when the deadline passes."""
    first = analyse_with(candidate, deadline, engine, questions=frozenset({"win"}))
    if first.solvable is None:
        raise LimitReached(f"{deadline.cap} limit")
    if first.turns != params.turns or first.plan is None:
        return None
    if params.bounce_safe and not first.plan.bounce_safe:
        return None  # unique or not, the shortest plan found may bounce
    if not every_card_matters(candidate, first.plan, engine, deadline):
        return None
    # Uniqueness before the other questions: most candidates that fail, fail here, and it is the cheaper.
    unique = analyse_with(candidate, deadline, engine, questions=frozenset({"unique"}))
    if unique.unique is None:
        raise LimitReached(f"{deadline.cap} limit")
    if not unique.unique:
        return None
    full = analyse_with(candidate, deadline, engine)
    if None in (full.unique, full.bounce_safe, full.pooled_solvable):
        raise LimitReached(f"{deadline.cap} limit")
    if params.bounce_safe and full.bounce_safe_turns != params.turns:
        raise EngineBug("a shortest plan was bounce-safe, but the shortest bounce-safe plan is longer")
    return full if full.unique and full.turns == params.turns else None


def _claims(analysis: TempleAnalysis) -> Expectations:
    return Expectations(
        solvable=True,
        turns=analysis.turns,
        unique=True,
        bounce_safe=analysis.bounce_safe,
        bounce_safe_turns=analysis.bounce_safe_turns,
        pooled_solvable=analysis.pooled_solvable,
        pooled_turns=analysis.pooled_turns,
    )


# Small random rounds, for the differential tests ----------------------------------------------------------------

DOOR_NAMES = (("P", "pink"), ("B", "blue"), ("G", "green"))


def random_temple(rng: random.Random, rows: int, cols: int) -> Temple:
    """A small temple: 1 to 3 doors on different sides, 0 to 2 fixed walls, 1 to 6 pieces."""
    slots = grid_slots(rows, cols)
    fixed = sum(1 << slot for slot in rng.sample(range(len(slots)), rng.randint(0, min(2, len(slots)))))
    sides = rng.sample(range(4), rng.randint(1, 3))
    doors, letters = [], []
    for (letter, name), side in zip(DOOR_NAMES, sides, strict=False):
        edge = {
            "bottom": [(rows - 1, c) for c in range(cols)],
            "top": [(0, c) for c in range(cols)],
            "left": [(r, 0) for r in range(rows)],
            "right": [(r, cols - 1) for r in range(rows)],
        }[SIDES[side]]
        r, c = rng.choice(edge)
        doors.append(Door(name, r * cols + c, side))
        letters.append(letter)
    room_letters = tuple("abcdefghijklmnopqrstuvwxyz"[: rows * cols])
    door_rooms = {door.room for door in doors}
    return Temple(
        f"random {rows}x{cols}",
        rows,
        cols,
        room_letters,
        room_letters,
        frozenset(room for room in range(rows * cols) if room not in door_rooms),
        tuple(doors),
        tuple(letters),
        slots,
        fixed,
        0,
        rng.randint(1, 6),
    )


def random_round(rng: random.Random, *, rows: int | None = None, cols: int | None = None, max_cards: int = 5) -> Round:
    """A small random round for differential tests: 2 x 2 to 3 x 3 rooms, 1 to 3 players, up to `max_cards`
    cards, random walls, goals and challenges; half of them planted (won by a random play), half not."""
    rows = rows or rng.randint(2, 3)
    cols = cols or rng.randint(2, 3)
    temple = random_temple(rng, rows, cols)
    slots = list(temple.variable_slots())
    placed = rng.sample(slots, rng.randint(0, min(temple.pieces, len(slots))))
    walls = sum(1 << slot for slot in placed)
    down = rng.randrange(4)
    die = fall(temple, walls, down, rng.randrange(temple.room_count)).end
    players = rng.randint(1, 3)
    hands = deal(rng, rng.randint(1, max_cards), players)
    going = rng.choice(TURNS) if rng.random() < 0.2 else None
    bounce = rng.choice((0, 1, 1, 1, 2, 3))
    start = Round(
        temple,
        "random",
        "",
        walls,
        temple.pieces - len(placed),
        down,
        die,
        (),
        temple.doors[0],
        hands,
        rng.randint(1, players),
        rng.random() < 0.7,
        bounce,
        Challenges(gets_going=going),
        Expectations(),
    )
    cards = sorted(temple.card_rooms)
    if rng.random() < 0.5:
        most = max_turns(start)
        turns = rng.randint((most + 1) // 2, most) if most else 0
        planted = plant(rng, start, turns) if turns else None
        if planted is not None:
            wanted = min(rng.randint(0, 3), len(set(planted.ends[:-1]) & set(cards)))
            chances = {"no_entry": 0.2, "always_in_order": 0.4, "secret_mission": 0.2}
            chosen = tuple(
                name
                for name, chance in chances.items()
                if rng.random() < chance and (name != "always_in_order" or wanted > 1)
            )
            params = TempleParams(players=players, turns=turns, rooms=wanted, challenges=chosen)
            made = _goals(rng, start, params, planted.outcomes, planted.ends)
            if made is not None:
                return made
    revealed = tuple(rng.sample(cards, rng.randint(0, min(2, len(cards)))))
    spare = [room for room in cards if room not in revealed]
    challenges = Challenges(
        no_entry=rng.randrange(temple.room_count) if rng.random() < 0.2 else None,
        in_order=len(revealed) > 1 and rng.random() < 0.3,
        secret=rng.choice(spare) if spare and rng.random() < 0.2 else None,
        gets_going=going,
    )
    return replace(start, revealed=revealed, door=rng.choice(temple.doors), challenges=challenges)
