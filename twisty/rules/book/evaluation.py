"""What an evaluation of the book is: each cell's status (passable, deadly, impassable) after the static
rules, what each cell is after identity, removal and conversion, and the chain of reasons. The rules that
make one are in static.py."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from twisty.limits import Deadline
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
    # How to find the reasons later (under a deadline or none): the same rules on the same removals and
    # reading, with their words.
    explain_later: Callable[[Deadline | None], Reasons] | None = field(default=None, repr=False, compare=False)

    @property
    def reasons(self) -> Reasons:
        if self.explained is None:
            assert self.explain_later is not None, "an evaluation without reasons says how to find them"
            self.explained = self.explain_later(None)
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
