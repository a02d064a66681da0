"""`twisty generate temple` and `twisty bench temple`. Parse options, call the library, write or print.

Files are written safely: never over an existing file without --force, never through a symbolic link (the
folder or the file), each to a temporary file in the same folder that then replaces the target at once.
Exit codes: 0 every round written, 1 a seed gave no round (or ran out of time), 2 bad options or files.
"""

from __future__ import annotations

import json
import sys
from contextlib import closing
from dataclasses import dataclass
from typing import Any

import click

from twisty.batch import Lost, Tasks, map_tasks
from twisty.bench import temple as temple_bench
from twisty.commands.bench_passages import print_results
from twisty.commands.cluster import BatchProgress, cluster_options, where
from twisty.commands.common import EXIT_FAILED, SECONDS, timeout_option
from twisty.commands.writing import batch_output_options, prepare_output, require_folder_for_several, write_files
from twisty.errors import GenerationError
from twisty.games import GAMES
from twisty.generator.temple import CHALLENGES, MAX_PLAYERS, MAX_TURNS, TempleParams, generate_round
from twisty.rules.source import read_level
from twisty.rules.temple.loader import load_round
from twisty.rules.temple.model import Temple

GAME = GAMES["temple"]


def round_file_name(params: TempleParams, seed: int) -> str:
    challenges = "".join(f"-{name}" for name in params.challenges)
    asked = ("-bounce_safe" if params.bounce_safe else "") + ("" if params.swap else "-no_swap")
    return f"temple-{params.players}p-{params.turns}t{challenges}{asked}-seed{seed}.toml"


def _temple_of(path: str | None) -> Temple | None:
    if path is None:
        return None
    source = read_level(path)
    if source.game != "temple":
        raise source.error(
            f'--temple reads a Temple Twist round (game = "temple"), not game = "{source.game}"', key="game"
        )
    return load_round(source).temple


def _challenges(text: str) -> tuple[str, ...]:
    names = tuple(part.strip() for part in text.split(",") if part.strip())
    unknown = [name for name in names if name not in CHALLENGES]
    if unknown:
        raise click.BadParameter(
            f"unknown challenge {', '.join(unknown)} (challenges: {', '.join(CHALLENGES)})", param_hint="'--challenges'"
        )
    return tuple(dict.fromkeys(names))


@click.command("temple")
@batch_output_options("round")
@click.option("--players", type=click.IntRange(1, MAX_PLAYERS), default=2, show_default=True)
@click.option(
    "--turns",
    type=click.IntRange(1, MAX_TURNS),
    default=4,
    show_default=True,
    help="Turns of the unique shortest plan.",
)
@click.option(
    "--cards",
    type=click.IntRange(1, 6 * MAX_PLAYERS),
    default=None,
    help="Cards dealt (default: --turns; every card must matter, so more cards than turns rarely works).",
)
@click.option(
    "--rooms",
    type=click.IntRange(0, MAX_TURNS),
    default=None,
    help="Rooms revealed (default: one for each turn but the last, less one with secret_mission).",
)
@click.option(
    "--challenges",
    default="",
    metavar="LIST",
    help=f"Comma-separated challenge cards to play with: {', '.join(CHALLENGES)}.",
)
@click.option(
    "--temple",
    "temple_file",
    type=click.Path(),
    default=None,
    help="A round file whose temple to use (default: the standard temple).",
)
@click.option(
    "--bounce-safe",
    "bounce_safe",
    is_flag=True,
    help="The unique shortest plan must also be bounce-safe (no fall longer than the round's bounce, 2).",
)
@click.option(
    "--swap/--no-swap",
    default=True,
    show_default=True,
    help="Whether the round plays with the Swap card token (without it, long plans are unique more often).",
)
@click.option(
    "--engine",
    default="auto",
    show_default=True,
    help=f"Engine that proves every round ({', '.join(('auto', *GAME.engine_names()))}); every engine "
    "accepts the same rounds, so the seed alone decides the round.",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="One JSON object per round on stdout: its seed, its file (or its text), its proved answers; or the error.",
)
@timeout_option("Seconds per round (each seed); a seed that runs out of time gives no round (exit 1).")
@cluster_options
def generate_temple(
    seed: int,
    count: int,
    out_dir: str | None,
    players: int,
    turns: int,
    cards: int | None,
    rooms: int | None,
    challenges: str,
    temple_file: str | None,
    bounce_safe: bool,
    swap: bool,
    engine: str,
    as_json: bool,
    timeout: float | None,
    force: bool,
    scheduler: str | None,
    workers: int | None,
) -> None:
    """Generate Temple Twist rounds whose shortest plan is unique and exactly --turns turns long, with the hands
    dealt so that every card matters; each is written with its [expect] claims.

    The same options give the same files (a seed that runs out of --timeout gives none), here or on a Dask
    cluster (--workers, --scheduler).
    """
    params = TempleParams(
        players=players,
        turns=turns,
        cards=cards,
        rooms=rooms,
        challenges=_challenges(challenges),
        temple=_temple_of(temple_file),
        bounce_safe=bounce_safe,
        swap=swap,
    )
    try:
        params.validate()
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    GAME.chosen_engine(engine).load()  # an engine that is not available here is a usage error, before any work
    place = where(scheduler, workers)
    if not as_json:  # with --json, one record per round carries its text
        require_folder_for_several(count, out_dir)
    seeds = range(seed, seed + count)
    names = [round_file_name(params, number) for number in seeds]
    folder = prepare_output(out_dir, names, force) if out_dir is not None else None
    failures = 0
    progress = BatchProgress("rounds", count)
    jobs = [RoundJob(params, number, engine, timeout) for number in seeds]
    with closing(map_tasks(Tasks(make_round, jobs, "generate-temple", total=count), place, progress)) as results:
        try:
            for job, result in zip(jobs, results, strict=True):
                if isinstance(result, Lost):
                    result = MadeRound(job.seed, None, f"seed {job.seed}: not generated: {result.reason}", {})
                record: dict[str, Any] = {"seed": result.seed, "file": None}
                if result.text is None:
                    failures += 1
                    record["error"] = result.summary
                    if not as_json:
                        progress.echo(f"twisty: {result.summary}", err=True)
                elif folder is None:
                    record |= {"level": result.text} | result.facts
                    if not as_json:
                        progress.echo(result.text, nl=False)
                else:
                    path = folder.path(round_file_name(params, result.seed))
                    write_files([(path, result.text)], force)
                    record |= {"file": str(path)} | result.facts
                    if not as_json:
                        progress.echo(f"{path}: {result.summary}")
                if as_json:
                    progress.echo(json.dumps(record))
        finally:
            progress.finish()
    if failures:
        sys.exit(EXIT_FAILED)


@dataclass(frozen=True)
class MadeRound:
    """What one seed gave: the round file's text (None when no round was made), a summary line (or the reason
    no round was made), and for --json its facts: the proved answers (the [expect] claims written) and the
    candidates tried."""

    seed: int
    text: str | None
    summary: str
    facts: dict[str, Any]


@dataclass(frozen=True)
class RoundJob:
    """One seed's work, here or on a worker: the parameters (the temple's contents among them), the seed,
    the engine's name and the seconds it may take."""

    params: TempleParams
    seed: int
    engine: str
    timeout: float | None


def make_round(job: RoundJob) -> MadeRound:
    """One seed's round (or the reason there is none); its deadline starts with its own work."""
    try:
        made = generate_round(job.params, job.seed, GAME.chosen_engine(job.engine).load(), timeout=job.timeout)
    except GenerationError as error:
        return MadeRound(job.seed, None, str(error), {})
    analysis = made.analysis
    bounce = f"bounce-safe in {analysis.bounce_safe_turns}" if analysis.bounce_safe else "no bounce-safe plan"
    summary = (
        f"{analysis.turns} turns, unique, every card matters; {bounce}; pooled {analysis.pooled_turns}; "
        f"{made.attempts} attempts"
    )
    return MadeRound(job.seed, made.text, summary, {**vars(made.expect), "attempts": made.attempts})


@click.command("temple")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON (every round, every run).")
@click.option(
    "--rounds", type=click.IntRange(1, 100_000), default=200, show_default=True, help="Random rounds of the family."
)
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True, help="The first round's seed.")
@click.option(
    "--timeout",
    type=SECONDS,
    default=10.0,
    show_default=True,
    metavar="SECONDS",
    help="Processor seconds per run (a run that runs out answers unknown).",
)
@cluster_options
def bench_temple(
    as_json: bool, rounds: int, seed: int, timeout: float, scheduler: str | None, workers: int | None
) -> None:
    """Temple Twist: random rounds of eleven temple shapes (3 x 3 to 6 x 6, 2 to 6 seats of 2 to 6 cards, 1 to 3
    rooms, with and without challenges), every question, by each engine and by a plain breadth-first search
    written for the bench; processor seconds, the worst ratio to the plain search, and whether they agree.

    With --workers or --scheduler each round is a task on a Dask cluster, its runs timed on one worker.
    """
    progress = BatchProgress("rounds", rounds)
    try:
        result = temple_bench.run(rounds, seed, timeout, where=where(scheduler, workers), progress=progress)
    finally:
        progress.finish()
    header = (
        f"Temple Twist, rounds {seed} to {seed + rounds - 1} of the random family; processor seconds per run "
        f"(limit {timeout:g} s); ratio = run / plain breadth-first search on the same round"
    )
    print_results(result, as_json, header, temple_bench.table_lines, result.lost)
