"""What an evaluation of the book is: each cell's status (passable, deadly, impassable) after the static
rules, what each cell is after identity, removal and conversion, and the chain of reasons. The rules that
make one are in static.py."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from twisty.rules.book.contents import RULE_NAMES
from twisty.rules.book.model import Book
from twisty.rules.book.topology import Cell

PASSABLE, DEADLY, WALL, PETRIFIED = 0, 1, 2, 3
STATUS_NAMES = {PASSABLE: "passable", DEADLY: "deadly", WALL: "impassable (wall)", PETRIFIED: "impassable (petrified)"}


Reasons = dict[int, list[tuple[int, int | None, str]]]


@dataclass
class Evaluation:
    """Every cell's status, what it is after identity/removal/conversion, and the chain of reasons.

    An evaluation made without its reasons (`evaluate(..., explain=False)`: the walk search's, which needs
    the statuses of every set of removals it meets and the reasons of none) works them out the first time
    they are asked for (`reasons`), by the same rules on the same removals: the statuses cannot differ."""

    book: Book
    removed: dict[int, tuple[int, str]]  # index -> (rule, why) for cells emptied by a rule
    identity: list[str]
    status: list[int]
    explained: Reasons | None = None  # the reasons; None until asked for, when evaluated without them
    fired: set[int] = field(default_factory=set)
    # What the evaluation was made of (the walk's removals and the reading), to find the reasons later.
    source: tuple[Mapping[int, tuple[int, str]], frozenset[str]] = field(
        default=({}, frozenset()), repr=False, compare=False
    )

    @property
    def reasons(self) -> Reasons:
        if self.explained is None:
            # static.py makes evaluations, so it is imported here, when the reasons are first asked for.
            from twisty.rules.book.static import evaluate

            path_removed, reading = self.source
            self.explained = evaluate(self.book, path_removed, reading).reasons
        return self.explained

    def status_of(self, cell: Cell) -> int:
        return self.status[self.book.shape.index(cell)]

    def passable(self, index: int) -> bool:
        return self.status[index] == PASSABLE

    def chain(self, index: int) -> list[str]:
        """The rules that decided this cell, in the order they applied."""
        return [f"rule {rule} ({RULE_NAMES[rule]}): {why}" for rule, _verdict, why in self.reasons.get(index, [])]

    def deciding_rules(self, index: int) -> list[int]:
        return [rule for rule, verdict, _why in self.reasons.get(index, []) if verdict is not None]
