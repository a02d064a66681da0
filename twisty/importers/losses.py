"""The loss report of an import: everything of a foreign tower that twisty's model cannot express.

Each loss is counted per floor and kind, with every place it occurs (the text shows the first few, the
JSON all of them): a floor is "nothing lost" only when everything on it is modelled exactly, so a loss
names where the game would do something else. A level imported with any loss is answered exactly for the
imported model only (the real tower may play differently there).
"""

from __future__ import annotations

from dataclasses import dataclass, field

# Places the text shows per (floor, kind) of loss (the JSON lists them all).
FIRST_PLACES = 6


@dataclass
class Loss:
    floor: str
    what: str  # what could not be expressed ("event", "tool pickaxe", "special 15 (zone)", ...)
    treated_as: str  # what the imported level has there instead
    count: int = 0
    places: list[tuple[int, int]] = field(default_factory=list)  # (row, col) on the floor, each one
    # A note on the range of floors imported (a stair out of it, the stats it starts with), not on the
    # tower's content: the level is then a part of the tower, exact for that part as modelled.
    note: bool = False

    def as_json(self) -> dict:
        return {
            "floor": self.floor,
            "what": self.what,
            "treated_as": self.treated_as,
            "count": self.count,
            "first": [list(place) for place in self.places[:FIRST_PLACES]],
            "places": [list(place) for place in self.places],
            "kind": "note" if self.note else "loss",
        }


@dataclass
class LossReport:
    """The losses of one import, in the order they were met."""

    losses: dict[tuple[str, str], Loss] = field(default_factory=dict)

    def add(
        self, floor: str, what: str, treated_as: str, place: tuple[int, int] | None = None, *, note: bool = False
    ) -> None:
        loss = self.losses.setdefault((floor, what), Loss(floor, what, treated_as, note=note))
        loss.count += 1
        if place is not None:
            loss.places.append(place)

    def extend(self, other: LossReport) -> None:
        for loss in other.losses.values():
            mine = self.losses.setdefault(
                (loss.floor, loss.what), Loss(loss.floor, loss.what, loss.treated_as, note=loss.note)
            )
            mine.count += loss.count
            mine.places.extend(loss.places)

    def on_floors(self, floors: set[str]) -> LossReport:
        """The losses of these floors (and of the tower as a whole, floor "")."""
        return LossReport({key: loss for key, loss in self.losses.items() if loss.floor in floors | {""}})

    @property
    def exact(self) -> bool:
        """Whether nothing of the tower's content was lost (notes on the range aside)."""
        return not any(not loss.note for loss in self.losses.values())

    def lost_floors(self) -> set[str]:
        """The floors with a loss of content."""
        return {loss.floor for loss in self.losses.values() if not loss.note}

    def lines(self) -> list[str]:
        """The report as text, one line per floor and kind of loss, then the notes on the range."""
        out = []
        for note in (False, True):
            for loss in self.losses.values():
                if loss.note != note:
                    continue
                where = f"{loss.floor}: " if loss.floor else ""
                places = ", ".join(f"({row},{col})" for row, col in loss.places[:FIRST_PLACES])
                more = len(loss.places) - FIRST_PLACES
                at = f" at {places}{f' and {more} more' if more > 0 else ''}" if places else ""
                out.append(f"{'note: ' if note else 'lost: '}{where}{loss.what} x{loss.count}{at}: {loss.treated_as}")
        if self.exact:
            out.append("nothing of the tower was lost: the answers are those of these floors as imported")
        else:
            out.append("answers are exact for the imported model only")
        return out

    def as_json(self) -> list[dict]:
        return [loss.as_json() for loss in self.losses.values()]
