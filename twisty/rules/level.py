"""A level of any game as loaded: its file (or text), its game, and the game's model of it.

The registry (twisty.games) names each game's loader; `level_of` hands a parsed file (read within the input
limits, twisty.rules.source) to that loader, within the level's deadline.
"""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any

from twisty.errors import LevelError, LimitReached
from twisty.games import GAMES, level_games, resolve
from twisty.limits import Deadline
from twisty.rules.source import LevelSource


@dataclass(frozen=True, repr=False)
class Level:
    """A loaded level: `model` is the game's own (a PassagesLevel, a Book, ...); `source` keeps the text,
    so that later messages can point into it."""

    game: str
    path: str
    source: LevelSource
    model: Any
    # The cap that stopped loading (the deadline passed while, say, a book was first evaluated): then there
    # is no model, and a check reports every answer as unknown, naming the cap.
    stopped_by: str | None = None
    # A generated level's verdict, checked when it was made (twisty.generate); None for a level read in.
    answer: Any = None

    @property
    def name(self) -> str:
        return str(getattr(self.model, "name", "") or getattr(self.model, "title", "") or "")

    def __repr__(self) -> str:  # short: the model and the text are in the fields
        answer = "" if self.answer is None else f", answer={self.answer!r}"
        return f"Level(game={self.game!r}, path={self.path!r}, name={self.name!r}{answer})"


def model_of(source: LevelSource, deadline: Deadline | None = None) -> Any:
    """The game's model of a parsed level file (LevelError for a game without level files)."""
    game = GAMES.get(source.game)
    if game is None or game.loader is None:
        known = ", ".join(sorted(game.name for game in level_games()))
        raise source.error(f'unknown game "{source.game}" (games with level files: {known})', key="game")
    loader = resolve(game.loader)
    if deadline is not None and "deadline" in inspect.signature(loader).parameters:
        return loader(source, deadline=deadline)
    return loader(source)


def level_of(source: LevelSource, deadline: Deadline | None = None) -> Level:
    """The level of a parsed file, loaded by its game's rules (LevelError naming the file; LimitReached when
    the deadline passes while loading)."""
    try:
        model = model_of(source, deadline)
    except LevelError as error:
        if error.path is None:
            error.path = source.path
        raise
    return Level(source.game, source.path, source, model)


def level_within(source: LevelSource, deadline: Deadline) -> Level:
    """The level of a parsed file for a check: when the deadline passes while loading, a Level without a
    model that names the cap (the check then reports every answer as unknown) instead of an error."""
    try:
        return Level(source.game, source.path, source, model_of(source, deadline))
    except LimitReached as reached:
        return Level(source.game, source.path, source, None, stopped_by=reached.cap)
