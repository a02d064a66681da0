"""`twisty generate passages`: tight Twisty Little Passages levels with a unique solution.

Parse options, call twisty.generator.passages, write files (as twisty.commands.writing writes them: an
interrupted run leaves only complete levels, and nothing is replaced without --force). Bad options are usage
errors (exit 2).
"""

from __future__ import annotations

import json
import re
import sys
import time
from contextlib import closing
from dataclasses import dataclass
from typing import Any

import click

from twisty.batch import Lost, Tasks, Where, interrupts_held, map_tasks
from twisty.commands.cluster import BatchProgress, cluster_options, where
from twisty.commands.common import EXIT_FAILED, EXIT_INTERRUPTED, EXIT_OK, timeout_option
from twisty.commands.writing import (
    Output,
    batch_output_options,
    file_mode,
    prepare_output,
    require_folder_for_several,
    write_atomically,
)
from twisty.errors import GenerationError, UsageError
from twisty.games import GAMES
from twisty.generator.passages import (
    DIFFICULTIES,
    METHODS,
    ROUTE_FIRST_BLOCKERS,
    PassagesEngine,
    PassagesParams,
    generate_level,
    uses_route_first,
)
from twisty.limits import Deadline

GAME = GAMES["passages"]

# One job for a worker: the parameters, the seed, the engine's name and the seconds allowed per level.
Job = tuple[PassagesParams, int, str, "float | None"]
# What a job gives back: the seed, the level file's text (None when no level was made), a summary line (or
# the reason no level was made), and the facts of the level for --json.
Result = tuple[int, "str | None", str, "dict[str, Any]"]


def parse_size(value: str) -> tuple[int, int]:
    found = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", value)
    if not found:
        raise click.BadParameter(f"{value!r} is not WxH (for example 6x5)", param_hint="'--size'")
    return int(found.group(1)), int(found.group(2))


def level_file_name(params: PassagesParams, seed: int) -> str:
    return f"passages-{params.width}x{params.height}-{params.blockers}-{params.difficulty}-seed{seed}.toml"


def verifying_engine(name: str) -> PassagesEngine:
    """The engine of the registry that `--engine name` stands for ("auto": the one auto picks); a
    UsageError when it is not available here."""
    engine: PassagesEngine = GAME.chosen_engine(name).load()
    return engine


def generate_one(job: Job) -> Result:
    """One level, in this process or a worker: its deadline starts when its own work starts."""
    params, seed, engine, timeout = job
    started = time.perf_counter()
    try:
        made = generate_level(params, seed, verifying_engine(engine), Deadline(timeout))
    except GenerationError as error:
        return seed, None, str(error), {"seconds": round(time.perf_counter() - started, 3)}
    facts = {
        "blockers": len(made.level.blockers()),
        "min_start_hp": made.min_start_hp,
        "difficulty_score": made.difficulty.score,
        "drafts": made.attempts,
        "seconds": round(time.perf_counter() - started, 3),
    }
    summary = (
        f"{facts['blockers']} blockers, min_start_hp {made.min_start_hp}, "
        f"difficulty score {made.difficulty.score}, {made.attempts} drafts"
    )
    return seed, made.text, summary, facts


# ------------------------------------------------------------------------------------------- command


@dataclass
class Tally:
    """What a run has done so far, readable after an interruption."""

    failures: int = 0  # seeds that gave no level
    written: int = 0  # level files written


@click.command("passages")
@click.option("--size", "size", default="6x5", show_default=True, help="Maze cells, WxH.")
@click.option(
    "--blockers",
    type=int,
    default=10,
    show_default=True,
    help="Doors and enemies to place, the boss included (the 'repair' method may wall up a few doors).",
)
@click.option(
    "--difficulty",
    type=click.Choice(DIFFICULTIES),
    default="medium",
    show_default=True,
    help="Target band of the difficulty score (see docs/generator-passages.md).",
)
@click.option(
    "--method",
    type=click.Choice(METHODS),
    default="auto",
    show_default=True,
    help="How drafts are shaped: 'route' fixes the intended route and removes one rival solution at a time, "
    "'repair' tightens a draft around its best route and repairs every rival; 'auto' is 'route' from "
    f"{ROUTE_FIRST_BLOCKERS} blockers on (with the search engine), else 'repair'.",
)
@batch_output_options("level")
@click.option(
    "--engine",
    type=click.Choice(("auto", *GAME.engine_names())),
    default="auto",
    show_default=True,
    help="Engine that verifies every level before it is written.",
)
@timeout_option(
    "Seconds allowed per level (drafts and verification); a seed that runs out fails, and nothing "
    "unverified is written."
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="One JSON object per seed on stdout: the file written (or the level's text), its facts, or the error.",
)
@cluster_options
def generate_passages(
    size: str,
    blockers: int,
    difficulty: str,
    method: str,
    seed: int,
    count: int,
    out_dir: str | None,
    force: bool,
    engine: str,
    timeout: float | None,
    as_json: bool,
    scheduler: str | None,
    workers: int | None,
) -> None:
    """Generate verified Twisty Little Passages levels: the best route ends with exactly 1 life, the
    starting life is the smallest that wins, and exactly one solution exists.

    The same options give byte-identical files, here or on a Dask cluster (--workers, --scheduler). An
    existing file is replaced only with --force, a symbolic link never; each file appears complete or not
    at all.

    Exit 0 when every level was written, 1 when some seed gave no level (or a file could not be
    written), 2 for bad options or files that exist without --force, 130 when interrupted.
    """
    width, height = parse_size(size)
    params = PassagesParams(width, height, blockers, difficulty, method)
    try:
        params.validate()
    except UsageError as error:
        raise click.UsageError(str(error)) from None
    require_folder_for_several(count, out_dir)
    place = where(scheduler, workers)
    chosen = verifying_engine(engine)  # an engine that is not available here is a usage error, before any work
    try:
        uses_route_first(params, getattr(chosen, "generator_oracle", None))
    except UsageError as error:
        raise click.UsageError(f"--method route: {error}") from None
    jobs: list[Job] = [(params, seed + offset, engine, timeout) for offset in range(count)]
    folder = (
        None if out_dir is None else prepare_output(out_dir, [level_file_name(params, job[1]) for job in jobs], force)
    )
    tally = Tally()
    try:
        run_jobs(jobs, place, params, folder, force, tally, as_json)
    except KeyboardInterrupt:
        done = f"; the {tally.written} level files written before it are complete" if folder is not None else ""
        # On a terminal the ^C (or the progress bar) has the line: the message takes the next one.
        click.echo(f"{chr(10) if sys.stderr.isatty() else ''}twisty: interrupted{done}", err=True)
        sys.exit(EXIT_INTERRUPTED)
    sys.exit(EXIT_FAILED if tally.failures else EXIT_OK)


def run_jobs(
    jobs: list[Job],
    place: Where,
    params: PassagesParams,
    folder: Output | None,
    force: bool,
    tally: Tally,
    as_json: bool = False,
) -> None:
    """Make the levels (here or on a cluster) and write (or print) each as it comes, in seed order, counting
    in `tally`. A file that cannot be written stops the run with exit 1."""
    mode = file_mode()
    progress = BatchProgress("levels", len(jobs))
    with closing(
        map_tasks(Tasks(generate_one, jobs, "generate-passages", total=len(jobs)), place, progress)
    ) as results:
        try:
            for job, result in zip(jobs, results, strict=True):
                if isinstance(result, Lost):
                    facts: dict[str, Any] = {}
                    level_seed, text, summary = job[1], None, f"seed {job[1]}: not generated: {result.reason}"
                else:
                    level_seed, text, summary, facts = result
                if text is None:
                    tally.failures += 1
                    progress.echo(f"twisty: {summary}", err=True)
                    if as_json:
                        progress.echo(json.dumps({"seed": level_seed, "file": None, "error": summary} | facts))
                    continue
                if folder is None:
                    if as_json:
                        progress.echo(json.dumps({"seed": level_seed, "file": None, "level": text} | facts))
                    else:
                        progress.echo(text, nl=False)
                    continue
                path = folder.path(level_file_name(params, level_seed))
                try:
                    with interrupts_held():
                        write_atomically(path, text, replace=force, mode=mode)
                        tally.written += 1
                except OSError as error:
                    progress.echo(f"twisty: cannot write {path}: {error.strerror or error}", err=True)
                    sys.exit(EXIT_FAILED)
                if as_json:
                    progress.echo(json.dumps({"seed": level_seed, "file": str(path)} | facts))
                else:
                    progress.echo(f"{path}: {summary}")
        finally:
            progress.finish()
