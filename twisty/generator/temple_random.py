"""Random Temple Twist rounds of the kinds a designer writes, for the bench and the differential tests.

A round of the family is drawn from one seed: a temple shape (3 x 3 to 6 x 6 rooms, square and not, the
doors on plain rooms or on room-card rooms; the standard temple among them), the temple's own fixed walls,
doors and pieces, the rulebook's setup or a die anywhere at rest, 2 to 6 seats of 2 to 6 cards each, 1 to 3
revealed rooms, and no challenge card or one or two of the four the model reads. Three rounds in four are
planted (a random play of the plain rules wins them), the others have goals drawn at random (often
unwinnable). Everything comes from `random.Random(f"temple-family-{seed}")`, so a seed is the same round on
every run.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, replace

from twisty.rules.temple.loader import standard_temple
from twisty.rules.temple.model import SIDES, TURNS, Challenges, Door, Expectations, Round, Temple, grid_slots
from twisty.rules.temple.semantics import fall, max_turns

# Room letters of a drawn temple (the format takes a letter or digit per room; doors get capitals).
ROOM_LETTERS = "abcdefghijklmnopqrstuvwxyzACDEFHIJKL"
DOOR_NAMES = (("P", "pink"), ("B", "blue"), ("G", "green"))


@dataclass(frozen=True)
class Shape:
    """A temple shape of the family: its size and whether its doors sit on room-card rooms (so that a door
    room may be a revealed room). The standard temple is the shape named "standard"."""

    name: str
    rows: int
    cols: int
    doors_on_card_rooms: bool = False


SHAPES = (
    Shape("3x3 doors on card rooms", 3, 3, True),
    Shape("3x4", 3, 4),
    Shape("4x3 doors on card rooms", 4, 3, True),
    Shape("standard", 4, 4),
    Shape("3x5", 3, 5),
    Shape("4x5 doors on card rooms", 4, 5, True),
    Shape("5x5", 5, 5),
    Shape("5x4", 5, 4),
    Shape("6x4 doors on card rooms", 6, 4, True),
    Shape("4x6", 4, 6),
    Shape("6x6", 6, 6),
)
SHAPE_NAMED = {shape.name: shape for shape in SHAPES}
CHALLENGE_NAMES = ("no_entry", "always_in_order", "secret_mission", "gets_going")


@dataclass(frozen=True)
class FamilyRound:
    """A round of the family and how it was drawn (for the bench's table)."""

    seed: int
    shape: str
    round: Round
    planted: bool

    @property
    def seats(self) -> int:
        return self.round.players

    @property
    def cards(self) -> int:
        return self.round.card_total()


def random_temple(rng: random.Random, shape: Shape) -> Temple:
    """A temple of `shape`: 2 or 3 doors on different sides, a few fixed walls (up to one slot in eight),
    4 to 8 pieces. The standard shape is the standard temple itself."""
    if shape.name == "standard":
        return standard_temple()
    rows, cols = shape.rows, shape.cols
    slots = grid_slots(rows, cols)
    fixed_count = rng.randint(0, max(1, len(slots) // 8))
    fixed = sum(1 << slot for slot in rng.sample(range(len(slots)), fixed_count))
    doors: list[Door] = []
    letters: list[str] = []
    for (letter, name), side in zip(DOOR_NAMES, rng.sample(range(4), rng.randint(2, 3)), strict=False):
        edge = {
            "bottom": [(rows - 1, c) for c in range(cols)],
            "top": [(0, c) for c in range(cols)],
            "left": [(r, 0) for r in range(rows)],
            "right": [(r, cols - 1) for r in range(rows)],
        }[SIDES[side]]
        taken = {door.room for door in doors}
        r, c = rng.choice([spot for spot in edge if spot[0] * cols + spot[1] not in taken] or edge)
        doors.append(Door(name, r * cols + c, side))
        letters.append(letter)
    room_letters = tuple(ROOM_LETTERS[: rows * cols])
    door_rooms = {door.room for door in doors}
    card_rooms = frozenset(room for room in range(rows * cols) if shape.doors_on_card_rooms or room not in door_rooms)
    return Temple(
        f"family {shape.name}",
        rows,
        cols,
        room_letters,
        room_letters,
        card_rooms,
        tuple(doors),
        tuple(letters),
        slots,
        fixed,
        0,
        rng.randint(4, 8),
    )


def family_round(
    seed: int, shapes: tuple[Shape, ...] = SHAPES, most_seats: int = 6, most_per_seat: int = 6
) -> FamilyRound:
    """Round `seed` of the family (its shape drawn from `shapes`, 2 to `most_seats` seats of 2 to
    `most_per_seat` cards)."""
    # Imported here: the generator module imports this one's neighbours, not the other way round.
    from twisty.generator.temple import TempleParams, _goals, deal, plant

    rng = random.Random(f"temple-family-{seed}")
    shape = rng.choice(shapes)
    temple = random_temple(rng, shape)
    seats = rng.randint(2, most_seats)
    per_seat = rng.randint(2, most_per_seat)
    hands = deal(rng, seats * per_seat, seats)
    slots = list(temple.variable_slots())
    placed = rng.sample(slots, rng.randint(0, min(5, temple.pieces, len(slots))))
    walls = sum(1 << slot for slot in placed)
    if rng.random() < 0.6:
        door = rng.choice(temple.doors)  # the rulebook's setup: the die in the room of the door that points down
        down, die = door.side, door.room
    else:
        down = rng.randrange(4)
        die = fall(temple, walls, down, rng.randrange(temple.room_count)).end
    chosen = () if rng.random() < 0.5 else tuple(rng.sample(CHALLENGE_NAMES, rng.randint(1, 2)))
    going = rng.choice(TURNS) if "gets_going" in chosen else None
    start = Round(
        temple,
        f"family {seed}",
        "",
        walls,
        temple.pieces - len(placed),
        down,
        die,
        (),
        temple.doors[0],
        hands,
        rng.randint(1, seats),
        rng.random() < 0.8,
        rng.choice((1, 2, 2, 2, 3)),
        Challenges(gets_going=going),
        Expectations(),
    )
    rooms = rng.randint(1, 3)
    cards = sorted(temple.card_rooms)
    if rng.random() < 0.75:
        for _ in range(5):
            turns = rng.randint(rooms + 1, min(rooms + 4, max_turns(start)))
            planted = plant(rng, start, turns, rooms)
            if planted is None:
                continue
            wanted = chosen if rooms > 1 else tuple(name for name in chosen if name != "always_in_order")
            params = TempleParams(players=seats, turns=turns, rooms=rooms, challenges=wanted)
            made = _goals(rng, start, params, planted.outcomes, planted.ends)
            if made is not None:
                return FamilyRound(seed, shape.name, made, True)
    revealed = tuple(rng.sample(cards, min(rooms, len(cards))))
    spare = [room for room in cards if room not in revealed and room not in {door.room for door in temple.doors}]
    challenges = Challenges(
        no_entry=rng.randrange(temple.room_count) if "no_entry" in chosen else None,
        in_order=len(revealed) > 1 and "always_in_order" in chosen,
        secret=rng.choice(spare) if spare and "secret_mission" in chosen else None,
        gets_going=going,
    )
    made = replace(start, revealed=revealed, door=rng.choice(temple.doors), challenges=challenges)
    return FamilyRound(seed, shape.name, made, False)
