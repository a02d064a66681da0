"""The registry's generator entry for Temple Twist (twisty.generate("temple", ...)): the parameters as the API
takes them, read into TempleParams, and the round generator run within the level's deadline."""

from __future__ import annotations

from collections.abc import Mapping
from types import ModuleType
from typing import Any

from twisty.errors import UsageError
from twisty.generator.temple import GeneratedRound, TempleParams, generate_round
from twisty.limits import Deadline
from twisty.rules.source import read_level
from twisty.rules.temple.loader import load_round

PARAMS = ("players", "turns", "cards", "rooms", "challenges", "temple", "bounce_safe", "swap")


def generate_from(params: Mapping[str, Any], seed: int, deadline: Deadline, engine: ModuleType) -> GeneratedRound:
    """A round with a unique shortest plan: `params` are players, turns, cards, rooms, challenges (a list or
    "a,b"), temple (the path of a round file whose temple to use), bounce_safe and swap (True or False, the
    command line's --bounce-safe and --swap/--no-swap); `engine` proves the round. The time
    left on `deadline` bounds the work (a round not found by then is a GenerationError)."""
    unknown = sorted(set(params) - set(PARAMS))
    if unknown:
        raise UsageError(f"generate('temple') takes {', '.join(PARAMS)}, not {', '.join(unknown)}")
    fields = dict(params)
    challenges = fields.pop("challenges", ())
    names = challenges.split(",") if isinstance(challenges, str) else list(challenges)
    fields["challenges"] = tuple(dict.fromkeys(name.strip() for name in names if name.strip()))
    temple_path = fields.pop("temple", None)
    if temple_path is not None:
        source = read_level(temple_path)
        if source.game != "temple":
            raise source.error(
                f'temple= names a Temple Twist round (game = "temple"), not game = "{source.game}"', key="game"
            )
        fields["temple"] = load_round(source).temple
    round_params = TempleParams(**fields)
    try:
        round_params.validate()
    except ValueError as error:  # the command line's wording names options (--players): here, parameters
        raise UsageError(str(error).replace("--", "")) from None
    remaining = deadline.remaining()
    return generate_round(round_params, seed, engine, timeout=None if remaining is None else max(remaining, 0.0))
