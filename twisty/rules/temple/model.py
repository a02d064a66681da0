"""Temple Twist as data: the temple (rooms, doors, wall slots), a round (the temple at the start, the hands,
the challenge cards) and the temple state that plans are told apart by.

Rooms are numbered row by row (room = row * cols + col, row 0 at the top when the temple stands upright);
a wall slot lies between two orthogonally adjacent rooms and is numbered in `Temple.slots`. Sets of walls
and of explored targets are bit masks, so that states are small tuples of integers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

# The four sides, in the order a quarter turn to the right brings them down: "A quarter turn `right` turns
# the temple clockwise as seen from the front: the side that was on the right comes down." Upright (bottom
# down) the right side is on the right; after that turn the top is on the right, and so on.
SIDES = ("bottom", "right", "top", "left")
BOTTOM, RIGHT, TOP, LEFT = range(4)
# The way the die falls, in (row, col) steps of the upright temple, when each side is down.
FALL_STEP = {BOTTOM: (1, 0), RIGHT: (0, 1), TOP: (-1, 0), LEFT: (0, -1)}
TURNS = ("left", "right")

# The six action cards, in the order they are listed and counted everywhere.
CARDS = ("turn1", "turn2", "turnAny", "wall1", "wall2", "move")
TURN_CARDS = frozenset({"turn1", "turn2", "turnAny"})
WALL_CARDS = frozenset({"wall1", "wall2", "move"})
CARD_TEXT = {
    "turn1": "turn the temple once, left or right",
    "turn2": "turn the temple up to twice, each time left or right",
    "turnAny": "turn the temple any number of times in one direction",
    "wall1": "build or remove one wall",
    "wall2": "build two walls or remove two walls (or only one)",
    "move": "remove one wall and build it back in, at the same or another place",
}

# "Each person may hold at most 6 action cards (including start cards) in hand."
MAX_HAND = 6


def grid_slots(rows: int, cols: int) -> tuple[tuple[int, int], ...]:
    """The wall slots of an R x C temple, numbered room by room: the slot to a room's right, then below it."""
    slots = []
    for room in range(rows * cols):
        r, c = divmod(room, cols)
        if c + 1 < cols:
            slots.append((room, room + 1))
        if r + 1 < rows:
            slots.append((room, room + cols))
    return tuple(slots)


def turned(down: int, direction: str) -> int:
    """The side that is down after one quarter turn to the left or right."""
    return (down + (1 if direction == "right" else -1)) % 4


@dataclass(frozen=True)
class Door:
    name: str
    room: int
    side: int


@dataclass(frozen=True)
class Temple:
    """A temple: R x C rooms with names, which of them carry a room card, the doors in the frame, the
    fixed walls and the number of variable wall pieces that come with it. `default_walls` is where the
    variable walls stand when a round says nothing (the standard temple: the first game's layout)."""

    name: str
    rows: int
    cols: int
    letters: tuple[str, ...]  # the room's character in the drawing, per room
    names: tuple[str, ...]  # per room
    card_rooms: frozenset[int]
    doors: tuple[Door, ...]
    door_letters: tuple[str, ...]  # the door's character in the drawing's frame, per door
    slots: tuple[tuple[int, int], ...]  # per slot: (room above or left, room below or right)
    fixed: int  # mask of slots holding a fixed wall
    default_walls: int  # mask of slots holding a variable wall when the round names none
    pieces: int  # variable wall pieces that come with the temple (base game: 8)
    slot_of: dict[tuple[int, int], int] = field(default_factory=dict, compare=False, repr=False)
    # next_room[side][room]: the room the die enters from `room` when `side` is down (-1: the frame);
    # slot_below[side][room]: the slot between them (-1: the frame).
    next_room: tuple[tuple[int, ...], ...] = field(default=(), compare=False, repr=False)
    slot_below: tuple[tuple[int, ...], ...] = field(default=(), compare=False, repr=False)

    def __post_init__(self) -> None:
        slot_of = {pair: index for index, pair in enumerate(self.slots)}
        slot_of.update({(b, a): index for (a, b), index in list(slot_of.items())})
        object.__setattr__(self, "slot_of", slot_of)
        nexts, belows = [], []
        for side in range(4):
            step_r, step_c = FALL_STEP[side]
            row_next, row_below = [], []
            for room in range(self.rows * self.cols):
                r, c = divmod(room, self.cols)
                nr, nc = r + step_r, c + step_c
                if 0 <= nr < self.rows and 0 <= nc < self.cols:
                    target = nr * self.cols + nc
                    row_next.append(target)
                    row_below.append(slot_of[(room, target)])
                else:
                    row_next.append(-1)
                    row_below.append(-1)
            nexts.append(tuple(row_next))
            belows.append(tuple(row_below))
        object.__setattr__(self, "next_room", tuple(nexts))
        object.__setattr__(self, "slot_below", tuple(belows))

    @property
    def room_count(self) -> int:
        return self.rows * self.cols

    def room_named(self, name: str) -> int | None:
        try:
            return self.names.index(name)
        except ValueError:
            return None

    def door_named(self, name: str) -> Door | None:
        return next((door for door in self.doors if door.name == name), None)

    def slot_name(self, slot: int) -> str:
        a, b = self.slots[slot]
        return f"{self.names[a]}-{self.names[b]}"

    def variable_slots(self) -> tuple[int, ...]:
        """The slots that can take a variable wall: "Every slot between two adjacent rooms can take a
        variable wall; fixed slots can never be built on." """
        return tuple(slot for slot in range(len(self.slots)) if not self.fixed >> slot & 1)


@dataclass(frozen=True)
class Challenges:
    """The challenge cards in play, as the model reads them. `cosmetic` names the cards in play that
    change nothing in the model (Locked down, All in the green, ...)."""

    no_entry: int | None = None  # a room the die may never enter
    in_order: bool = False  # the revealed rooms must be explored in their order
    secret: int | None = None  # a room-card room that must also be explored
    gets_going: str | None = None  # "left" or "right": the temple turns once more after every turn
    cosmetic: tuple[str, ...] = ()

    def names(self) -> list[str]:
        named = []
        if self.no_entry is not None:
            named.append("no_entry")
        if self.in_order:
            named.append("always_in_order")
        if self.secret is not None:
            named.append("secret_mission")
        if self.gets_going is not None:
            named.append("gets_going")
        return named + list(self.cosmetic)


@dataclass(frozen=True)
class Expectations:
    """The [expect] claims of a round (None: not claimed)."""

    solvable: bool | None = None
    turns: int | None = None
    unique: bool | None = None
    bounce_safe: bool | None = None
    bounce_safe_turns: int | None = None
    pooled_solvable: bool | None = None
    pooled_turns: int | None = None


@dataclass(frozen=True)
class TempleState:
    """What plans are told apart by: "the sequence of temple states after each turn (down side, die room,
    variable walls, supply, explored rooms)". The supply is the pieces not in the temple, so it follows
    from the walls. `explored` is a mask over the round's targets (Round.targets)."""

    down: int
    die: int
    walls: int
    explored: int

    def key(self) -> tuple[int, int, int, int]:
        return (self.down, self.die, self.walls, self.explored)


@dataclass(frozen=True)
class Round:
    """One round: the temple and where everything stands before the first turn. `hands` are in seat
    order (player 1 first); `torch` (1-based) names the player who plays first. `pieces` is the number
    of variable walls in play: the walls in the temple plus the supply."""

    temple: Temple
    name: str
    description: str
    walls: int
    supply: int
    down: int
    die: int
    revealed: tuple[int, ...]
    door: Door
    hands: tuple[tuple[str, ...], ...]
    torch: int
    swap: bool
    bounce: int
    challenges: Challenges
    expect: Expectations

    @property
    def pieces(self) -> int:
        return self.walls.bit_count() + self.supply

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def targets(self) -> tuple[int, ...]:
        """The rooms that must be explored, as bits of TempleState.explored: the revealed rooms in their
        order, then the secret room when Secret mission is in play."""
        secret = () if self.challenges.secret is None else (self.challenges.secret,)
        return self.revealed + secret

    @property
    def all_explored(self) -> int:
        return (1 << len(self.targets)) - 1

    def player_of_turn(self, turn: int) -> int:
        """The player (0-based seat) who plays turn `turn` (0-based): the torch holder first, then the next
        person clockwise, in seat order."""
        return (self.torch - 1 + turn) % self.players

    def hand_counts(self) -> tuple[tuple[int, ...], ...]:
        return tuple(tuple(hand.count(card) for card in CARDS) for hand in self.hands)

    def pooled_counts(self) -> tuple[int, ...]:
        return tuple(sum(hand.count(card) for hand in self.hands) for card in CARDS)

    def start(self) -> TempleState:
        return TempleState(self.down, self.die, self.walls, 0)

    def card_total(self) -> int:
        return sum(len(hand) for hand in self.hands)
