"""`twisty generate passages`: tight Twisty Little Passages levels with a unique solution.

Parse options, call twisty.generator.passages, write files. Bad options are usage errors (exit 2).
"""

from __future__ import annotations

import re
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import click

from twisty.generator.passages import DIFFICULTIES, GenerationError, PassagesParams, generate_level

ENGINE_CHOICES = ("auto", "search", "cpsat", "brute")
MAX_COUNT = 10_000


def parse_size(value: str) -> tuple[int, int]:
    found = re.fullmatch(r"\s*(\d+)\s*[xX]\s*(\d+)\s*", value)
    if not found:
        raise click.BadParameter(f"{value!r} is not WxH (for example 6x5)", param_hint="'--size'")
    return int(found.group(1)), int(found.group(2))


def level_file_name(params: PassagesParams, seed: int) -> str:
    return f"passages-{params.width}x{params.height}-{params.blockers}-{params.difficulty}-seed{seed}.toml"


def generate_one(job: tuple[PassagesParams, int, str]) -> tuple[int, str | None, str]:
    """One level in a worker process: (seed, file text or None, a one-line summary or the failure)."""
    params, seed, engine = job
    try:
        made = generate_level(params, seed, engine=None if engine == "auto" else engine)
    except GenerationError as error:
        return seed, None, str(error)
    summary = (f"{len(made.level.blockers())} blockers, min_start_hp {made.min_start_hp}, "
               f"difficulty score {made.difficulty.score}, {made.attempts} drafts")
    return seed, made.text, summary


@click.command("passages")
@click.option("--size", "size", default="6x5", show_default=True, help="Maze cells, WxH.")
@click.option("--blockers", type=int, default=10, show_default=True,
              help="Doors and enemies to place, the boss included (repairs may wall up a few doors).")
@click.option("--difficulty", type=click.Choice(DIFFICULTIES), default="medium", show_default=True,
              help="Target band of the difficulty score (see docs/generator-passages.md).")
@click.option("--seed", type=int, default=1, show_default=True, help="Seed of the first level.")
@click.option("-n", "count", type=click.IntRange(1, MAX_COUNT), default=1, show_default=True,
              help="Number of levels, with seeds seed, seed+1, ...")
@click.option("-o", "out_dir", type=click.Path(file_okay=False), default=None,
              help="Folder to write the levels to (created if missing); without it one level is printed.")
@click.option("--workers", type=click.IntRange(1, 64), default=1, show_default=True,
              help="Processes generating in parallel; the files do not depend on it.")
@click.option("--engine", type=click.Choice(ENGINE_CHOICES), default="auto", show_default=True,
              help="Engine that verifies every level before it is written.")
def generate_passages(size: str, blockers: int, difficulty: str, seed: int, count: int, out_dir: str | None,
                      workers: int, engine: str) -> None:
    """Generate verified Twisty Little Passages levels: the best route ends with exactly 1 life, the
    starting life is the smallest that wins, and exactly one solution exists.

    The same options give byte-identical files, whatever --workers is.
    """
    width, height = parse_size(size)
    params = PassagesParams(width, height, blockers, difficulty)
    try:
        params.validate()
    except ValueError as error:
        raise click.UsageError(str(error)) from None
    if seed < 0:
        raise click.BadParameter("must be 0 or more", param_hint="'--seed'")
    if out_dir is None and count > 1:
        raise click.UsageError("-n above 1 needs a folder to write to (-o DIR)")
    jobs = [(params, seed + offset, engine) for offset in range(count)]
    failures = 0
    folder = None
    if out_dir is not None:
        folder = Path(out_dir)
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise click.BadParameter(f"cannot create the folder: {error.strerror or error}",
                                     param_hint="'-o'") from None
    with _results(jobs, workers) as results:
        with click.progressbar(results, length=len(jobs), label="generating", file=sys.stderr,
                               show_pos=True) if count > 1 else _plain(results) as bar:
            for level_seed, text, summary in bar:
                if text is None:
                    failures += 1
                    click.echo(f"twisty: seed {level_seed}: {summary}", err=True)
                    continue
                if folder is None:
                    click.echo(text, nl=False)
                    continue
                path = folder / level_file_name(params, level_seed)
                try:
                    path.write_text(text, encoding="utf-8")
                except OSError as error:
                    click.echo(f"twisty: cannot write {path}: {error.strerror or error}", err=True)
                    sys.exit(1)
                click.echo(f"{path}: {summary}")
    if failures:
        sys.exit(1)


class _plain:
    """A stand-in for the progress bar when only one level is made."""

    def __init__(self, items) -> None:
        self.items = items

    def __enter__(self):
        return self.items

    def __exit__(self, *exc) -> None:
        return None


class _results:
    """Results in seed order, from this process or from a pool of `workers` processes."""

    def __init__(self, jobs, workers: int) -> None:
        self.jobs = jobs
        self.workers = workers
        self.pool: ProcessPoolExecutor | None = None

    def __enter__(self):
        if self.workers <= 1 or len(self.jobs) <= 1:
            return map(generate_one, self.jobs)
        self.pool = ProcessPoolExecutor(max_workers=self.workers)
        # map yields in submission order, so files and messages come in seed order whatever finishes first.
        return self.pool.map(generate_one, self.jobs)

    def __exit__(self, *exc) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)
