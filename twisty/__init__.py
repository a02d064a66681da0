"""twisty: a constraint-solver based verifier and generator for dungeon puzzle games.

The public API, usable from a notebook in three lines:

    >>> import twisty
    >>> verdict = twisty.check(twisty.load("puzzles/passages/01-first-blood.toml"))  # doctest: +SKIP
    >>> verdict.final_hp                                                             # doctest: +SKIP
    4

docs/api.md shows a session per game. Names are imported on first use, so that `import twisty` stays cheap
and no layer of the package has to import the API to be imported itself.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# Where each public name lives; __all__ lists the same names (tests/test_api_docs.py holds them equal).
_EXPORTS = {
    "load": "twisty.api",
    "check": "twisty.api",
    "solve": "twisty.api",
    "generate": "twisty.api",
    "odds": "twisty.api",
    "Level": "twisty.rules.level",
    "Outcome": "twisty.checking",
    "GAMES": "twisty.games",
    "TwistyError": "twisty.errors",
    "LevelError": "twisty.errors",
    "UsageError": "twisty.errors",
    "LimitReached": "twisty.errors",
    "EngineBug": "twisty.errors",
    "GenerationError": "twisty.errors",
}

__all__ = [
    "__version__",
    "load",
    "check",
    "solve",
    "generate",
    "odds",
    "Level",
    "Outcome",
    "GAMES",
    "TwistyError",
    "LevelError",
    "UsageError",
    "LimitReached",
    "EngineBug",
    "GenerationError",
]

if TYPE_CHECKING:
    from twisty.api import check, generate, load, odds, solve
    from twisty.checking import Outcome
    from twisty.errors import EngineBug, GenerationError, LevelError, LimitReached, TwistyError, UsageError
    from twisty.games import GAMES
    from twisty.rules.level import Level


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'twisty' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
