"""The registry: every game twisty knows, each declared once in its own module of this package.

The command line's choices, the portfolio's engines, the generator, `twisty bench` and the docs' engine
table all read GAMES. Adding a game: declare it in a new module here and add it to the line below.
"""

from __future__ import annotations

from twisty.errors import UsageError
from twisty.games import book, passages, temple, tunnels
from twisty.games.entry import Engine, Game, Param, Question, resolve

GAMES: dict[str, Game] = {game.name: game for game in (passages.GAME, book.GAME, tunnels.GAME, temple.GAME)}

__all__ = ["GAMES", "Engine", "Game", "Param", "Question", "game_named", "level_games", "resolve"]


def game_named(name: str) -> Game:
    """The game called `name`, or a UsageError listing the games."""
    try:
        return GAMES[name]
    except KeyError:
        raise UsageError(f'unknown game "{name}" (games: {", ".join(sorted(GAMES))})') from None


def level_games() -> tuple[Game, ...]:
    """The games whose levels are files (the ones `check` reads)."""
    return tuple(game for game in GAMES.values() if game.loader is not None)
