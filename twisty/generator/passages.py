"""Tight Twisty Little Passages levels with exactly one solution, proved before they are returned.

`generate_level(params, seed, engine, deadline)` returns a level whose best route ends with exactly 1 life
at the goal, whose starting life is the smallest that wins (min_start_hp), and that has exactly one winning
signature (the doors opened, and each costly fight with the player's atk and def at it). The pipeline
(docs/generator-passages.md tells it at length), one module per step:

1. Map (passages_maze): a maze of `width x height` cells (corridors), rooms carved out of it, a few loops
   knocked through its walls, the start and, at a dead end far away, the goal behind its boss.
2. Placements (passages_draft): the other blockers (doors and enemies) on corridor cells, chokepoints
   first; keys for the doors, equipment and elixirs on floor cells. Enemies get a breed from the bestiary
   (passages_bestiary) and start sealed (nothing can harm them), so that the draft has few routes.
3. Intended route (passages_draft): drawn at random through the frontier; every enemy it fights gets
   stats drawn against the player it meets there; keys it does not need are removed.
4. Tightening (passages_shape): the starting life is set to the smallest that wins; when the best route
   then ends with more than 1 life, the boss is made exactly that much stronger.
5. Uniqueness (passages_shape): while two signatures win, the level is repaired (wall up a door,
   strengthen or reshape an enemy) and tightened again; what cannot be repaired in time is dropped.
6. Traps (passages_traps): each sealed enemy gets the weakest stats of a ladder that keep the one
   solution; fighting it is allowed but loses.
7. Difficulty (passages_difficulty) is measured and the level dropped when outside its band.
8. The survivor is written as a level file (passages_writer), loaded back, and verified by the engine
   handed in (passages_verify): proved final life 1, exactly one signature, unsolvable with one life less,
   and the route replayed by the plain rules.

Everything is reproducible: one `random.Random(seed)`, sorted iteration, and work bounded by counts of
explored states, rounds and drafts, never by time, so the same (params, seed) gives the same bytes on any
machine. The deadline only decides whether a level is made at all: a passed deadline ends the seed with a
GenerationError that says so, never with a level that is not verified.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from twisty.errors import GenerationError, LimitReached, UsageError
from twisty.generator.passages_bestiary import is_sealed
from twisty.generator.passages_construct import asks_enough, shape_route_first
from twisty.generator.passages_difficulty import measure_difficulty
from twisty.generator.passages_draft import draw_draft, walk_route
from twisty.generator.passages_explore import TooMuchWork
from twisty.generator.passages_params import (
    DIFFICULTIES,
    METHODS,
    PROFILES,
    ROUTE_FIRST_BLOCKERS,
    Difficulty,
    PassagesParams,
    score_range,
)
from twisty.generator.passages_shape import tighten
from twisty.generator.passages_traps import relax_traps
from twisty.generator.passages_verify import PassagesEngine, VerificationError, engine_name, verify
from twisty.generator.passages_writer import level_text
from twisty.limits import Deadline
from twisty.rules.passages import Decision, PassagesLevel
from twisty.rules.passages_format import load_passages
from twisty.rules.source import parse_level_bytes

__all__ = [
    "DIFFICULTIES",
    "METHODS",
    "ROUTE_FIRST_BLOCKERS",
    "MAX_ATTEMPTS",
    "Difficulty",
    "GeneratedLevel",
    "GenerationError",
    "PassagesEngine",
    "PassagesParams",
    "generate_from",
    "generate_level",
    "uses_route_first",
]

# Drafts tried per seed: a count, so that whether a seed succeeds does not depend on the machine.
MAX_ATTEMPTS = 400


@dataclass(frozen=True)
class GeneratedLevel:
    level: PassagesLevel
    text: str  # the level file, header included
    route: tuple[Decision, ...]
    final_hp: int
    min_start_hp: int
    difficulty: Difficulty
    engine: str
    attempts: int
    engine_disagreements: int  # candidates the explorer passed and the engine refused (a bug if > 0)


def generate_level(
    params: PassagesParams, seed: int, engine: PassagesEngine, deadline: Deadline, *, max_attempts: int = MAX_ATTEMPTS
) -> GeneratedLevel:
    """A verified tight level with a unique solution for (params, seed); the same inputs give the same
    level. `engine` verifies it (the contract of twisty.solver.passages_verdict); `deadline` is the level's
    one limit on time and memory, shared by every step and the engine.

    Raises UsageError for parameters no level can meet, GenerationError when no draft passes within
    `max_attempts` drafts or when the deadline passes first (the message says which)."""
    params.validate()
    profile = PROFILES[params.difficulty]
    low, high = score_range(params.difficulty, params.blockers)
    rng = random.Random(seed)
    # The engine's exact answers to the explorer's questions on large drafts (passages_engine_explore).
    oracle = getattr(engine, "generator_oracle", None)
    route_first = uses_route_first(params, oracle)
    disagreements = 0
    attempt = 0
    try:
        for attempt in range(1, max_attempts + 1):
            deadline.check()
            draft = draw_draft(rng, params, profile)
            cells = None if draft is None else walk_route(draft, rng, profile.route_share, deadline)
            if draft is None or cells is None:
                continue
            if route_first:
                shaped = shape_route_first(draft, rng, cells, profile.trap_share, deadline, oracle)
                if shaped is None:
                    continue
                start_hp, solution = shaped
                candidate = draft.level(start_hp)
                if not asks_enough(candidate, solution, draft.boss):
                    continue
            else:
                try:
                    tightened = tighten(draft, rng, deadline, oracle)
                except TooMuchWork:
                    continue
                if tightened is None:
                    continue
                start_hp, win = tightened
                relax_traps(draft, rng, start_hp, win, profile.trap_share, deadline, oracle)
                candidate = draft.level(start_hp)
                solution = win.decisions
            if any(is_sealed(thing.enemy) for thing in draft.things.values()):
                continue
            difficulty = measure_difficulty(candidate, solution, deadline, oracle)
            if not low <= difficulty.score <= high:
                continue
            body = level_text(candidate, params, seed, difficulty, header=False)
            level = load_passages(parse_level_bytes(body.encode("utf-8"), f"<generated seed {seed}>"))
            try:
                route, min_start = verify(level, engine, deadline)
            except VerificationError:
                disagreements += 1
                continue
            text = level_text(level, params, seed, difficulty, header=True)
            return GeneratedLevel(
                level, text, route, 1, min_start, difficulty, engine_name(engine), attempt, disagreements
            )
    except LimitReached as stop:
        limit = f" of {deadline.seconds:g} s" if stop.cap == "time limit" and deadline.seconds is not None else ""
        raise GenerationError(
            f"{stop.cap}{limit} reached for seed {seed} in draft {attempt} (of at most {max_attempts}); no level made"
        ) from None
    raise GenerationError(
        f"no {params.difficulty} level of {params.width}x{params.height} cells with "
        f"{params.blockers} blockers found for seed {seed} in {max_attempts} drafts"
    )


def uses_route_first(params: PassagesParams, oracle: Any | None) -> bool:
    """Whether the draft is shaped route first (passages_construct) rather than repaired (passages_shape):
    by the method asked, "auto" choosing route first from ROUTE_FIRST_BLOCKERS blockers on. Route first
    needs the engine's generator oracle (its counting walks name the witnesses)."""
    if params.method == "route" and oracle is None:
        raise UsageError("the route-first method needs an engine that answers the generator (the search engine)")
    if params.method == "auto":
        return oracle is not None and params.blockers >= ROUTE_FIRST_BLOCKERS
    return params.method == "route"


def generate_from(params: Mapping[str, Any], seed: int, deadline: Deadline, engine: PassagesEngine) -> GeneratedLevel:
    """The registry's entry point (twisty.generate("passages", ...)): `params` are the keyword parameters
    width, height, blockers and difficulty (or size="WxH"); `engine` verifies the level."""
    fields = dict(params)
    size = fields.pop("size", None)
    if size is not None:
        width, _, height = str(size).lower().partition("x")
        if not (width.strip().isdigit() and height.strip().isdigit()):
            raise UsageError(f"size is WxH (for example 6x5), not {size!r}")
        fields["width"], fields["height"] = int(width), int(height)
    unknown = sorted(set(fields) - {"width", "height", "blockers", "difficulty", "method"})
    if unknown:
        raise UsageError(
            f"passages levels take width, height (or size), blockers, difficulty and method, not {', '.join(unknown)}"
        )
    return generate_level(PassagesParams(**fields), seed, engine, deadline)
