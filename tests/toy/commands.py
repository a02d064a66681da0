"""`twisty bench lights` (the registry's `bench_commands`): the elimination engine against the brute force,
the plain baseline, on a seeded family of boards of every size; median and worst seconds of each, and the
worst ratio (the engine's time over the baseline's on the same board)."""

from __future__ import annotations

import json
import random
import statistics
import time

import click

from tests.toy import engines, gauss
from tests.toy.rules import DARK, LIT, MAX_SIDE, Board
from twisty.limits import Deadline


def family(seed: int, count: int) -> list[Board]:
    chance = random.Random(seed)
    boards = []
    for number in range(count):
        height, width = chance.randint(1, MAX_SIDE), chance.randint(1, MAX_SIDE)
        rows = tuple("".join(chance.choice((LIT, DARK)) for _ in range(width)) for _ in range(height))
        boards.append(Board(f"b{number}", rows))
    return boards


@click.command("lights")
@click.option("--seed", type=int, default=1, show_default=True)
@click.option("--boards", type=click.IntRange(1, 1000), default=20, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
def bench_lights(seed: int, boards: int, as_json: bool) -> None:
    """Lights Out: elimination against brute force (CPU seconds, the same boards)."""
    seconds: dict[str, list[float]] = {"gauss": [], "brute": []}
    for board in family(seed, boards):
        answers = []
        for name, module in (("gauss", gauss), ("brute", engines)):
            started = time.process_time()
            answers.append(module.fewest(board, Deadline(None)))
            seconds[name].append(time.process_time() - started + 1e-6)
        same = answers[0].status == answers[1].status
        if not same or (answers[0].presses is not None and len(answers[0].presses) != len(answers[1].presses)):
            raise click.ClickException(f"the engines disagree on board {board.rows}")
    ratios = [fast / slow for fast, slow in zip(seconds["gauss"], seconds["brute"], strict=True)]
    result = {name: {"median": statistics.median(times), "worst": max(times)} for name, times in seconds.items()} | {
        "boards": boards,
        "worst_ratio": max(ratios),
    }
    if as_json:
        click.echo(json.dumps(result, sort_keys=True))
    else:
        for name in ("gauss", "brute"):
            click.echo(f"{name:6} median {result[name]['median']:.6f} s, worst {result[name]['worst']:.6f} s")
        click.echo(f"worst ratio gauss/brute: {result['worst_ratio']:.2f} over {boards} boards")
