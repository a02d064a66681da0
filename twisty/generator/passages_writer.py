"""Writing a generated passages level as a normal level file (the format of docs/passages.md).

The file itself is written by the one passages writer, twisty.rules.passages_writer (one legend character
per distinct object); this module adds what a generated level says of itself: a comment header saying how
it was made, its name, and the `[expect]` claims the generator has proved.
"""

from __future__ import annotations

from dataclasses import replace

from twisty.generator.passages_params import Difficulty, PassagesParams
from twisty.rules.passages import Expectations, PassagesLevel
from twisty.rules.passages_writer import level_text as written


def header_lines(params: PassagesParams, seed: int, difficulty: Difficulty, level: PassagesLevel) -> list[str]:
    greedy = (
        "a cheapest-fight-first player wins"
        if difficulty.greedy_wins
        else f"a cheapest-fight-first player makes {difficulty.greedy_steps} good decisions, then a "
        f"losing one; the solution has {difficulty.route_length}"
    )
    blockers = len(level.blockers())
    method = "" if params.method == "auto" else f" --method {params.method}"
    return [
        "Twisty Little Passages level made by `twisty generate passages`; verified tight and unique.",
        f"seed: {seed}",
        f"parameters: --size {params.width}x{params.height} --blockers {params.blockers} "
        f"--difficulty {params.difficulty}{method} ({blockers} blockers on the map)",
        f"difficulty score: {difficulty.score} (traps {difficulty.traps}, of them at the start "
        f"{difficulty.first_move_traps}; fights that must wait {difficulty.ordered_fights}; {greedy})",
    ]


def level_text(
    level: PassagesLevel, params: PassagesParams, seed: int, difficulty: Difficulty, header: bool = True
) -> str:
    """The level file: the comment header (with `header`), then the level as the passages writer writes
    it, named after its seed, with the claims the generator has proved: solvable, a final life of 1, one
    solution, and its starting life the least that wins."""
    claimed = replace(
        level,
        name=f"Generated passages, {params.difficulty}, seed {seed}",
        expect=Expectations(solvable=True, final_hp=1, unique=True, min_start_hp=level.player.hp),
    )
    return written(claimed, header_lines(params, seed, difficulty, level) if header else None)
