"""The difficulty score of a finished passages level (step 7 of the pipeline, docs/generator-passages.md).

Measured by walking the level's one solution with the fast explorer: traps (legal moves after which no win
is left), fights that must wait, and how far a player who always takes the cheapest legal move gets.
"""

from __future__ import annotations

from typing import Any

from twisty.generator.passages_engine_explore import explorer_for
from twisty.generator.passages_params import Difficulty
from twisty.limits import Deadline
from twisty.rules.passages import Decision, PassagesLevel


def measure_difficulty(
    level: PassagesLevel, route: tuple[Decision, ...], deadline: Deadline | None = None, oracle: Any | None = None
) -> Difficulty:
    """Traps along the solution, fights that must wait, and how far a greedy player gets. `deadline`, the
    level's, is polled as the work grows (None: no limit); with the engine's `oracle`, a level of
    ENGINE_BLOCKERS blockers or more asks it whether positions still win (passages_engine_explore)."""
    explorer = explorer_for(level, 10_000_000, deadline, oracle)
    start_hp = level.player.hp
    states = explorer.replay_states(route, start_hp)
    route_blockers = [explorer.number[obj] for action, obj in route if action != "goal"]
    traps: set[int] = set()
    first_move_traps = 0
    early_fightable: set[int] = set()
    for step, (mask, hp) in enumerate(states[:-1]):
        for move in explorer.moves(mask, hp):
            if move.blocker == route_blockers[step]:
                continue
            if move.blocker in route_blockers and move.blocker not in traps:
                # An enemy of the solution, fightable now, but now is the wrong time.
                if not explorer.can_win_from(move.mask, move.hp):
                    early_fightable.add(move.blocker)
                continue
            if move.blocker not in traps and not explorer.can_win_from(move.mask, move.hp):
                traps.add(move.blocker)
                if step == 0:
                    first_move_traps += 1
    ordered = sum(1 for b in early_fightable if not explorer.is_door[b])

    # A greedy player: always the cheapest legal move (doors cost nothing), ties in reading order.
    mask, hp = states[0]
    greedy_steps, greedy_wins = 0, False
    while True:
        if explorer.info(mask).goal is not None:
            greedy_wins = True
            break
        moves = explorer.moves(mask, hp)
        if not moves:
            break
        move = min(moves, key=lambda m: (m.cost, explorer.objects[m.blocker]))
        if not explorer.can_win_from(move.mask, move.hp):
            break
        mask, hp = move.mask, move.hp
        greedy_steps += 1
    length = len(route_blockers)
    greedy_penalty = 0 if greedy_wins else 2 + max(0, length - greedy_steps) // 2
    score = len(traps) + 2 * ordered + greedy_penalty
    return Difficulty(score, len(traps), first_move_traps, ordered, greedy_steps, greedy_wins, length)
