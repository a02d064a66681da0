"""`twisty bench passages`: the passages engines against the genre's standard algorithm (the reference engine)."""

from __future__ import annotations

import itertools
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any

import click

from twisty.bench import passages as passages_bench
from twisty.bench import passages_count as count_bench
from twisty.bench import passages_generate as generate_bench
from twisty.commands.cluster import BatchProgress, cluster_options, where
from twisty.commands.common import EXIT_FAILED, EXIT_INVALID, SECONDS
from twisty.commands.generate_passages import level_file_name
from twisty.rules.source import LevelError


@click.command("passages")
@click.option(
    "--suite",
    "suite",
    type=click.Path(file_okay=False, path_type=Path),
    default=passages_bench.DEFAULT_SUITE,
    show_default="the suite shipped with twisty",
    help="Folder of suite levels (*.toml).",
)
@click.option(
    "--limit",
    type=SECONDS,
    default=30.0,
    show_default=True,
    help="Seconds per level and engine; an answer not proven within it counts as unsolved.",
)
@click.option(
    "--engine",
    "engines",
    multiple=True,
    help=f"Run only these engines (repeatable): {', '.join(passages_bench.BENCH_ENGINES)}. Default: every "
    "one available here.",
)
@click.option(
    "--bucket",
    "buckets",
    type=click.Choice([str(b) for b in passages_bench.BUCKETS]),
    multiple=True,
    help="Run only these size buckets (repeatable), by number of blockers.",
)
@click.option(
    "--questions",
    type=click.Choice(["route", "count"]),
    default="route",
    show_default=True,
    help="route: the best route by every engine against the standard algorithm. count: the best route, the "
    "least starting hp, uniqueness and solutions up to 10 by the counting engine (`count`) against the "
    "previous counting code (`walk`) in the same run; --engine cpsat adds CP-SAT's enumeration.",
)
@click.option("--json", "as_json", is_flag=True, help="Print the full results as one JSON object.")
@cluster_options
def bench_passages(
    suite: Path,
    limit: float,
    engines: tuple[str, ...],
    buckets: tuple[str, ...],
    questions: str,
    as_json: bool,
    scheduler: str | None,
    workers: int | None,
) -> None:
    """Run the passages engines and the genre's standard algorithm (the reference engine) on the seeded suite.

    Prints, per size bucket, how many levels each engine proves within the limit, the median and largest
    time (unsolved levels count at the limit), and the ratio of the reference engine's median time to the
    engine's on the levels both prove. Engines that disagree are reported as bugs (exit 1).

    With --workers or --scheduler each level is a task on a Dask cluster: its engines run one after the
    other on one worker, so each ratio compares runs on the same machine (docs/cluster.md).
    """
    if questions == "count":
        if scheduler is not None or workers is not None:
            # The two counting codes must meet the same load, level by level: one process runs both.
            click.echo("twisty: --questions count runs in this process (no --workers or --scheduler)", err=True)
            sys.exit(EXIT_INVALID)
        _bench_count(suite, limit, engines, buckets, as_json)
        return
    available = passages_bench.available_engines()
    unknown = [name for name in engines if name not in available]
    if unknown:
        click.echo(
            f"twisty: unknown or unavailable engine {', '.join(unknown)} (available: {', '.join(available)})", err=True
        )
        sys.exit(EXIT_INVALID)
    chosen = {name: module for name, module in available.items() if not engines or name in engines}
    levels = _suite_levels(suite, buckets)
    total = len(levels) * len(chosen)
    progress = BatchProgress("levels", len(levels))
    finished = itertools.count(1)

    def report(level: str, engine: str, run: passages_bench.EngineRun) -> None:
        # On a terminal the status line counts the levels; in a log or a pipe, a line per run.
        if not progress.terminal:
            proof = "proved" if run.proved else "not proved"
            progress.echo(
                f"[{next(finished)}/{total}] {level} {engine}: {run.status}, {proof}, {run.seconds:.3f} s", err=True
            )

    try:
        result = passages_bench.run_bench(levels, chosen, limit, report, where(scheduler, workers), progress)
    finally:
        progress.finish()
    lost = list(result.lost)
    print_results(
        result,
        as_json,
        f"{len(levels)} levels, limit {limit:g} s per level and engine",
        passages_bench.table_lines,
        lost,
    )


def _suite_levels(suite: Path, buckets: tuple[str, ...]) -> list:
    """The suite's levels of the buckets asked, or exit 2 with one message."""
    if not suite.is_dir():
        click.echo(f"twisty: no suite folder {suite} (write it with benchmarks/passages/make_suite.py)", err=True)
        sys.exit(EXIT_INVALID)
    try:
        levels = passages_bench.load_suite(suite, tuple(int(b) for b in buckets))
    except LevelError as error:
        click.echo(f"twisty: {error}", err=True)
        sys.exit(EXIT_INVALID)
    if not levels:
        click.echo(f"twisty: no suite levels in {suite}", err=True)
        sys.exit(EXIT_INVALID)
    return levels


def _bench_count(suite: Path, limit: float, engines: tuple[str, ...], buckets: tuple[str, ...], as_json: bool) -> None:
    """`--questions count`: the counting engine against the previous counting code (passages_count)."""
    unknown = [name for name in engines if name not in count_bench.COUNTERS]
    if unknown:
        click.echo(
            f"twisty: no counting engine {', '.join(unknown)} (with --questions count: "
            f"{', '.join(count_bench.COUNTERS)})",
            err=True,
        )
        sys.exit(EXIT_INVALID)
    chosen = [name for name in count_bench.COUNTERS if name in engines or (not engines and name != "cpsat")]
    if count_bench.COUNT_BASELINE not in chosen:
        chosen.append(count_bench.COUNT_BASELINE)  # the ratios need it
    levels = _suite_levels(suite, buckets)
    done = itertools.count(1)

    def report(level: str, what: str) -> None:
        click.echo(f"[{next(done)}] {level}: {what}", err=True)

    result = count_bench.run_count_bench(levels, chosen, limit, step=report)
    print_results(
        result,
        as_json,
        f"{len(levels)} levels, limit {limit:g} s per level and question",
        count_bench.count_table_lines,
    )


@click.command("generate")
@click.option(
    "--blockers",
    "blocker_counts",
    type=click.IntRange(1, 266),
    multiple=True,
    help=f"Blocker counts to generate (repeatable). Default: {', '.join(map(str, generate_bench.GENERATE_BLOCKERS))}.",
)
@click.option("--seeds", type=click.IntRange(1, 1000), default=5, show_default=True, help="Seeds per count.")
@click.option("--first-seed", type=click.IntRange(0), default=1, show_default=True, help="The first seed.")
@click.option(
    "--limit",
    type=SECONDS,
    default=60.0,
    show_default=True,
    help="Seconds per level; past it the seed counts as failed.",
)
@click.option(
    "--baseline",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    default=None,
    help="A checkout of the previous release (its core built; benchmarks/generator/previous_release.sh makes "
    "one): its generator makes the same seeds in the same run.",
)
@click.option(
    "--baseline-seeds",
    type=click.IntRange(1, 1000),
    default=None,
    help="Make only the first N seeds of each count with the previous release (default: every seed).",
)
@click.option(
    "--cpu-limit",
    is_flag=True,
    help="--limit is CPU seconds per level (the process is stopped past them) instead of wall-clock "
    "seconds: whether a seed gives a level within the limit then does not depend on the machine's load.",
)
@click.option(
    "--keep",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help="Write each level this release's generator makes into this folder, named as `twisty generate "
    "passages` names it (a file already there is left as it is).",
)
@click.option("--json", "as_json", is_flag=True, help="Print the full results as one JSON object.")
def bench_generate(
    blocker_counts: tuple[int, ...],
    seeds: int,
    first_seed: int,
    limit: float,
    baseline: Path | None,
    baseline_seeds: int | None,
    cpu_limit: bool,
    keep: Path | None,
    as_json: bool,
) -> None:
    """Time the passages generator by blocker count, each level in a process of its own, against the
    previous release's generator in the same run (--baseline); every level made is checked again."""
    counts = blocker_counts or generate_bench.GENERATE_BLOCKERS

    def report(blockers: int, seed: int, generator: str, run: generate_bench.GenerateRun) -> None:
        made = "made" if run.made else f"no level ({run.why})"
        if keep is not None and generator == "current" and run.text is not None:
            path = keep / level_file_name(generate_bench.params_for(blockers), seed)
            if path.exists():
                made += f" ({path} is there already: left as it is)"
            else:
                keep.mkdir(parents=True, exist_ok=True)
                path.write_text(run.text, encoding="utf-8")
                made += f", written to {path}"
        click.echo(
            f"{blockers} blockers, seed {seed}, {generator}: {made}, {run.seconds:.2f} s ({run.cpu:.2f} s of CPU)",
            err=True,
        )

    result = generate_bench.run_generate_bench(
        tuple(counts),
        list(range(first_seed, first_seed + seeds)),
        limit,
        baseline,
        baseline_seeds,
        step=report,
        cpu_limit=cpu_limit,
    )
    against = "" if result.baseline is None else f", against {result.baseline}"
    print_results(
        result,
        as_json,
        f"seeds {first_seed}..{first_seed + seeds - 1}, limit {limit:g} s{' of CPU' if cpu_limit else ''} per level"
        f"{against}",
        generate_bench.generate_table_lines,
    )


def print_results(
    result: Any, as_json: bool, header: str, table_lines: Callable[[Any], Iterable[str]], lost: Sequence[str] = ()
) -> None:
    """A bench's results as JSON or as its table; then each disagreement between engines (a bug, exit 1) and
    each task a cluster lost (exit 1)."""
    if as_json:
        click.echo(json.dumps(result.as_json(), sort_keys=True))
    else:
        click.echo(header)
        for line in table_lines(result):
            click.echo(line)
    for line in result.disagreements:
        click.echo(f"BUG: {line}", err=True)
    for line in lost:
        click.echo(f"twisty: {line}", err=True)
    if result.disagreements or lost:
        sys.exit(EXIT_FAILED)
