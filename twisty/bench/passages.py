"""The passages benchmark: every engine and the genre's standard algorithm on the seeded suite.

The suite ships with the package in twisty/bench/suites/passages (written by benchmarks/passages/make_suite.py);
the engines and the baseline come from the registry (twisty/games/passages.py: the engines marked for the
bench, and the reference engine, which is the genre's standard algorithm, as the baseline). Each engine
answers `best_route` on each level with a per-level time limit; a level counts as solved when the engine
proves its answer within the limit. Every route is replayed by the plain rules, and every pair of proven
answers must agree (with each other and with the level's [expect]); anything else is reported as a bug.
Nothing here prints: the command does.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

from twisty.batch import HERE, Lost, Progress, Tasks, Where, map_tasks
from twisty.games import GAMES
from twisty.rules.passages import PassagesLevel, RouteError, replay
from twisty.rules.passages_format import load_passages
from twisty.rules.source import read_level
from twisty.solver.passages_verdict import SOLVABLE, UNKNOWN, Deadline

DEFAULT_SUITE = Path(__file__).resolve().parent / "suites" / "passages"
BUCKETS = (10, 20, 40, 60, 90, 120)
GAME = GAMES["passages"]
BASELINE = GAME.bench_baseline or "reference"
BENCH_ENGINES = tuple(engine.name for engine in GAME.engines if engine.bench)


@dataclass
class EngineRun:
    status: str
    final_hp: int | None
    proved: bool
    seconds: float
    error: str | None = None

    def solved(self, limit: float) -> bool:
        return self.proved and self.error is None and self.seconds <= limit

    def as_json(self) -> dict:
        return {
            "status": self.status,
            "final_hp": self.final_hp,
            "proved": self.proved,
            "seconds": round(self.seconds, 4),
            "error": self.error,
        }


@dataclass
class LevelResult:
    name: str
    blockers: int
    bucket: int
    runs: dict[str, EngineRun] = field(default_factory=dict)


@dataclass
class BucketSummary:
    bucket: int
    levels: int
    engines: dict[str, dict]


@dataclass
class BenchResult:
    limit: float
    engines: list[str]
    levels: list[LevelResult]
    disagreements: list[str]
    lost: list[str] = field(default_factory=list)  # levels a cluster could not run, with the reason

    def summaries(self) -> list[BucketSummary]:
        """One summary per size bucket, then one over the whole suite (bucket 0)."""
        out = []
        for bucket in BUCKETS:
            members = [level for level in self.levels if level.bucket == bucket]
            if members:
                out.append(self._summary(bucket, members))
        if out:
            out.append(self._summary(0, self.levels))
        return out

    def _summary(self, bucket: int, members: list[LevelResult]) -> BucketSummary:
        rows = {}
        for engine in self.engines:
            runs = [level.runs[engine] for level in members]
            solved = [run for run in runs if run.solved(self.limit)]
            # Unsolved levels count at the full limit, so a median over all levels stays honest.
            times = [run.seconds if run.solved(self.limit) else self.limit for run in runs]
            row = {
                "solved": len(solved),
                "levels": len(runs),
                "median_seconds": statistics.median(times),
                "max_seconds": max(times),
                "all_solved": len(solved) == len(runs),
                "ratio_to_baseline": None,
                "common": 0,
            }
            if engine != BASELINE and BASELINE in self.engines:
                both = [
                    level
                    for level in members
                    if level.runs[engine].solved(self.limit) and level.runs[BASELINE].solved(self.limit)
                ]
                if both:
                    mine = statistics.median(level.runs[engine].seconds for level in both)
                    theirs = statistics.median(level.runs[BASELINE].seconds for level in both)
                    row["ratio_to_baseline"] = theirs / max(mine, 1e-6)
                    row["common"] = len(both)
            rows[engine] = row
        return BucketSummary(bucket, len(members), rows)

    @classmethod
    def from_json(cls, data: dict) -> BenchResult:
        """Read back what `as_json` wrote (to print the table of a saved run)."""
        levels = [
            LevelResult(
                item["level"],
                item["blockers"],
                item["bucket"],
                {name: EngineRun(**run) for name, run in item["runs"].items()},
            )
            for item in data["levels"]
        ]
        return cls(data["limit"], data["engines"], levels, data["disagreements"], data.get("lost", []))

    def as_json(self) -> dict:
        return {
            "limit": self.limit,
            "engines": self.engines,
            "levels": [
                {
                    "level": level.name,
                    "blockers": level.blockers,
                    "bucket": level.bucket,
                    "runs": {name: run.as_json() for name, run in level.runs.items()},
                }
                for level in self.levels
            ],
            "buckets": [{"bucket": s.bucket, "levels": s.levels, "engines": s.engines} for s in self.summaries()],
            "disagreements": self.disagreements,
            "lost": self.lost,
        }


def available_engines() -> dict[str, ModuleType]:
    """The engines the registry marks for the bench that are available here, by name, the baseline last."""
    return {engine.name: engine.load() for engine in GAME.engines if engine.bench and engine.available()}


def bucket_of(blockers: int) -> int:
    return min(BUCKETS, key=lambda size: abs(size - blockers))


def load_suite(folder: Path, buckets: tuple[int, ...] = ()) -> list[tuple[str, PassagesLevel]]:
    levels = []
    for path in sorted(folder.glob("*.toml")):
        level = load_passages(read_level(path))
        if not buckets or bucket_of(len(level.blockers())) in buckets:
            levels.append((path.name, level))
    return levels


# Runs shorter than this are timed again, up to QUICK_REPEATS times in all, and the median time is kept: a
# run of a millisecond measured once moves by a third from one bench to the next (the suite's median
# ratio sits on such runs), while repeats cost at most a few tenths of a second per level.
QUICK_SECONDS = 0.05
QUICK_REPEATS = 5


def run_engine(engine: ModuleType, level: PassagesLevel, limit: float) -> EngineRun:
    started = time.perf_counter()
    try:
        answer = engine.best_route(level, Deadline(limit))
    except Exception as error:  # a crash is a bug to report, not a reason to stop the benchmark
        return EngineRun(UNKNOWN, None, False, time.perf_counter() - started, f"crashed: {error!r}")
    seconds = time.perf_counter() - started
    if seconds < QUICK_SECONDS:
        times = [seconds]
        for _ in range(QUICK_REPEATS - 1):
            again = time.perf_counter()
            engine.best_route(level, Deadline(limit))
            times.append(time.perf_counter() - again)
        seconds = statistics.median(times)
    run = EngineRun(answer.status, answer.final_hp, answer.proved, seconds)
    if answer.status == SOLVABLE:
        try:
            replayed = replay(level, answer.decisions)
        except RouteError as error:
            run.error = f"route does not replay: {error}"
        else:
            if replayed.final_hp != answer.final_hp:
                run.error = f"route replays to {replayed.final_hp} hp, engine said {answer.final_hp}"
    return run


def disagreements_of(name: str, level: PassagesLevel, runs: dict[str, EngineRun]) -> list[str]:
    """Bugs shown by one level: routes that do not replay, proven answers that differ from each other or
    from the level's [expect] (proven when the suite was written)."""
    found = [f"{name}: {engine}: {run.error}" for engine, run in runs.items() if run.error]
    proven = {engine: (run.status, run.final_hp) for engine, run in runs.items() if run.proved and not run.error}
    if len(set(proven.values())) > 1:
        found.append(
            f"{name}: engines disagree: "
            + ", ".join(f"{engine} says {status} {hp}" for engine, (status, hp) in sorted(proven.items()))
        )
    for engine, (status, hp) in sorted(proven.items()):
        if level.expect.solvable is not None and (status == SOLVABLE) != level.expect.solvable:
            found.append(f"{name}: {engine} says {status}, [expect] solvable = {level.expect.solvable}")
        elif level.expect.final_hp is not None and status == SOLVABLE and hp != level.expect.final_hp:
            found.append(f"{name}: {engine} says final hp {hp}, [expect] final_hp = {level.expect.final_hp}")
    return found


@dataclass(frozen=True)
class BenchCase:
    """One level's part of the bench, here or on a worker: the level itself (not its path), the names of
    the engines to run on it (each loaded from the registry where it runs) and the limit per run."""

    name: str
    level: PassagesLevel
    engines: tuple[str, ...]
    limit: float


def bench_level(case: BenchCase) -> LevelResult:
    """Every engine named on one level, one after the other in one process (so that their ratio is fair)."""
    blockers = len(case.level.blockers())
    result = LevelResult(case.name, blockers, bucket_of(blockers))
    modules = {engine.name: engine for engine in GAME.engines}
    for name in case.engines:
        result.runs[name] = run_engine(modules[name].load(), case.level, case.limit)
    return result


def run_bench(
    levels: list[tuple[str, PassagesLevel]],
    engines: dict[str, ModuleType],
    limit: float,
    step: Callable[[str, str, EngineRun], None] = lambda level, engine, run: None,
    where: Where = HERE,
    progress: Progress | None = None,
) -> BenchResult:
    """Every engine on every level, a level per task (here or on a cluster: `where`); `step` hears of each
    run as its level's results come back, in the suite's order (level name, engine, run). A level that the
    cluster lost counts as unsolved by every engine, its reason in `lost`."""
    names = tuple(engines)
    cases = [BenchCase(name, level, names, limit) for name, level in levels]
    results = []
    disagreements = []
    lost = []
    with closing(map_tasks(Tasks(bench_level, cases, "bench-passages", len(cases)), where, progress)) as answers:
        for case, result in zip(cases, answers, strict=True):
            if isinstance(result, Lost):
                lost.append(f"{case.name}: not run: {result.reason}")
                blockers = len(case.level.blockers())
                result = LevelResult(case.name, blockers, bucket_of(blockers))
                result.runs = {name: EngineRun(UNKNOWN, None, False, limit, error=None) for name in names}
            for engine_name, run in result.runs.items():
                step(case.name, engine_name, run)
            disagreements += disagreements_of(case.name, case.level, result.runs)
            results.append(result)
    return BenchResult(limit, list(engines), results, disagreements, lost)


def table_lines(result: BenchResult) -> list[str]:
    """The per-bucket table: solved with proof, median and max seconds, speed-up over the baseline."""
    lines = []
    header = (
        f"{'blockers':>8} {'levels':>6}  {'engine':<9} {'proved':>7} {'median s':>9} {'max s':>8}"
        f"  {'vs ' + BASELINE:>13}"
    )
    lines.append(header)
    lines.append("-" * len(header))
    for summary in result.summaries():
        first = True
        for engine, row in summary.engines.items():
            name = str(summary.bucket) if summary.bucket else "all"
            label = f"{name:>8} {summary.levels:>6}" if first else " " * 15
            first = False
            max_text = f"{row['max_seconds']:.2f}" if row["all_solved"] else f">{result.limit:g}"
            median_text = f"{row['median_seconds']:.3f}"
            if row["ratio_to_baseline"] is None:
                ratio = "" if engine == BASELINE else "n/a"
            else:
                ratio = f"{row['ratio_to_baseline']:.1f}x ({row['common']})"
            lines.append(
                f"{label}  {engine:<9} {row['solved']:>3}/{row['levels']:<3} {median_text:>9} "
                f"{max_text:>8}  {ratio:>13}"
            )
    return lines
