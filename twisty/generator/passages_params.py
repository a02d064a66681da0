"""What a passages generator run is asked for (size, blockers, difficulty) and how difficulty is scored.

Plain data with no generator logic, so that every other part of the generator (the map, the shaping, the
writer) can use it without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass

from twisty.errors import UsageError
from twisty.rules.passages_format import MAX_MAP_SIDE

DIFFICULTIES = ("easy", "medium", "hard")
# How a draft is shaped: "repair" samples a draft, tightens it around its best route and repairs every rival
# signature (passages_shape); "route" fixes the intended route first and removes one witness at a time
# (passages_construct); "auto" is "route" from ROUTE_FIRST_BLOCKERS blockers on, when the engine answers
# the generator's questions (it has a generator_oracle), else "repair".
METHODS = ("auto", "route", "repair")
ROUTE_FIRST_BLOCKERS = 50
MIN_BLOCKERS_ABOVE_EASY = 3
MAX_MAZE_CELLS = 400


@dataclass(frozen=True)
class PassagesParams:
    width: int = 6  # maze cells
    height: int = 5
    blockers: int = 10  # doors and enemies, the boss included
    difficulty: str = "medium"
    method: str = "auto"

    def validate(self) -> None:
        """Raise UsageError, with the reason, for parameters no level can meet."""
        if self.width < 2 or self.height < 2:
            raise UsageError(f"the maze needs at least 2x2 cells, not {self.width}x{self.height}")
        if self.width * self.height > MAX_MAZE_CELLS:
            raise UsageError(f"a {self.width}x{self.height} maze is too large (at most {MAX_MAZE_CELLS} cells)")
        # maze cell (x, y) stands at map cell (2y + 1, 2x + 1), inside a frame of walls
        if max(self.width, self.height) * 2 + 1 > MAX_MAP_SIDE:
            raise UsageError(
                f"a {self.width}x{self.height} maze makes a map wider than {MAX_MAP_SIDE} cells, "
                f"the most a level may have (at most {(MAX_MAP_SIDE - 1) // 2} maze cells a side)"
            )
        if self.blockers < 1:
            raise UsageError("a level needs at least 1 blocker (the boss before the goal)")
        corridors = self.width * self.height - 1
        if self.blockers > max(1, corridors * 2 // 3):
            raise UsageError(
                f"{self.blockers} blockers do not fit a {self.width}x{self.height} maze "
                f"(at most {max(1, corridors * 2 // 3)})"
            )
        if self.difficulty not in DIFFICULTIES:
            raise UsageError(f"difficulty must be one of {', '.join(DIFFICULTIES)}, not {self.difficulty!r}")
        if self.method not in METHODS:
            raise UsageError(f"method must be one of {', '.join(METHODS)}, not {self.method!r}")
        if self.difficulty != "easy" and self.blockers < MIN_BLOCKERS_ABOVE_EASY:
            raise UsageError(
                f"a {self.difficulty} level needs at least {MIN_BLOCKERS_ABOVE_EASY} blockers "
                "(its score counts traps, and they need blockers of their own)"
            )


@dataclass(frozen=True)
class Profile:
    """How drafts are drawn for a difficulty (the score it must reach is `score_range`)."""

    loops: float  # share of inner walls knocked through
    rooms_per_cells: int  # one room per this many maze cells
    door_share: float
    equipment_per_blocker: float
    elixirs_per_blocker: float
    route_share: float  # share of the enemies the intended route fights
    trap_share: float  # share of the other enemies given a chance to be survivable traps


PROFILES = {
    "easy": Profile(0.04, 14, 0.25, 0.20, 0.30, 0.75, 0.1),
    "medium": Profile(0.08, 12, 0.30, 0.30, 0.35, 0.6, 0.7),
    "hard": Profile(0.12, 10, 0.30, 0.40, 0.40, 0.5, 1.0),
}


def score_range(difficulty: str, blockers: int) -> tuple[int, int]:
    """The difficulty scores accepted for a level of `blockers` blockers. Scores grow with the size of
    a level (more blockers, more traps), so the bands are shares of it: easy up to 35 %, hard from 75 %."""
    easy_top = max(1, round(0.35 * blockers))
    hard_bottom = max(easy_top + 2, round(0.75 * blockers))
    return {"easy": (0, easy_top), "medium": (easy_top + 1, hard_bottom - 1), "hard": (hard_bottom, 1_000_000)}[
        difficulty
    ]


@dataclass(frozen=True)
class Difficulty:
    """What the level asks of a player (see docs/generator-passages.md)."""

    score: int
    traps: int  # distinct legal moves along the solution after which no win is left
    first_move_traps: int  # of those, the ones open at the very start
    ordered_fights: int  # costly fights whose enemy could be fought earlier, but only at a loss
    greedy_steps: int  # decisions a cheapest-fight-first player makes while a win is still possible
    greedy_wins: bool
    route_length: int  # decisions of the solution (doors and fights)
