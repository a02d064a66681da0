"""The Temple Twist benchmark: seeded random rounds of the family a designer writes (twisty.generator.
temple_random: eleven temple shapes from 3 x 3 to 6 x 6, 2 to 6 seats of 2 to 6 cards, 1 to 3 rooms, with and
without challenge cards), every question answered by each engine of the registry and by a plain
breadth-first search over full states written for the bench alone (twisty.bench.temple_plain), one after the
other in one process, on the same round.

Times are processor seconds (time.process_time), each run with its own limit in processor seconds, so a
loaded machine slows every run alike; a run shorter than QUICK_SECONDS is repeated and its median kept.
A run counts as answered when it decides every answer (winnable, fewest turns, unique, bounce-safe and its
turns, pooled and its turns) within the limit. Every answer two runs decide must agree (the engines' plans
are replayed by the rules as in `twisty check`): a difference is a bug, reported and exit 1. Nothing here
prints: the command does.
"""

from __future__ import annotations

import statistics
import time
from contextlib import closing
from dataclasses import dataclass, field
from typing import Any

from twisty.batch import HERE, Lost, Progress, Tasks, Where, map_tasks
from twisty.bench.temple_plain import answer_all
from twisty.errors import EngineBug
from twisty.games import GAMES
from twisty.generator.temple_random import family_round
from twisty.limits import Deadline
from twisty.rules.temple.model import Round
from twisty.solver.temple_portfolio import TempleAnalysis, analyse_with

GAME = GAMES["temple"]
PLAIN = "plain"
AUTO = GAME.auto[0]
ANSWERS = ("solvable", "turns", "unique", "bounce_safe", "bounce_safe_turns", "pooled_solvable", "pooled_turns")
# Runs shorter than this are timed again, QUICK_REPEATS times in all, and the median kept: a run of a
# millisecond measured once moves by a third from one bench to the next.
QUICK_SECONDS = 0.05
QUICK_REPEATS = 5
# The target of docs/bench-temple.md: a round of at most this many seats answered within this many seconds.
TARGET_SEATS = 4
TARGET_SECONDS = 1.0


class ProcessDeadline(Deadline):
    """A deadline in processor seconds of this process (the bench's runs share a loaded machine)."""

    def __init__(self, seconds: float) -> None:
        super().__init__(seconds)
        self.processor_started = time.process_time()

    def remaining(self) -> float | None:
        assert self.seconds is not None
        return max(0.0, self.seconds - (time.process_time() - self.processor_started))

    def elapsed(self) -> float:
        return time.process_time() - self.processor_started


@dataclass(frozen=True)
class BenchJob:
    """One round's part of the bench, here or on a worker: the round's seed, the engines, the limit."""

    seed: int
    engines: tuple[str, ...]
    limit: float


def _analysis_answers(analysis: TempleAnalysis) -> dict[str, Any]:
    return {key: getattr(analysis, key) for key in ANSWERS}


def _decided(answers: dict[str, Any]) -> bool:
    """Whether every answer is decided (an answer that does not apply, such as the turns of an unwinnable
    round, is decided when the question it hangs on is)."""
    hangs_on = {"turns": "solvable", "bounce_safe_turns": "bounce_safe", "pooled_turns": "pooled_solvable"}
    return all(answers[key] is not None or answers.get(hangs_on.get(key, key)) is False for key in ANSWERS)


def _timed(run_once: Any, limit: float) -> tuple[dict[str, Any], float]:
    started = time.process_time()
    answers = run_once(ProcessDeadline(limit))
    seconds = time.process_time() - started
    if seconds < QUICK_SECONDS:
        times = [seconds]
        for _ in range(QUICK_REPEATS - 1):
            again = time.process_time()
            run_once(ProcessDeadline(limit))
            times.append(time.process_time() - again)
        seconds = statistics.median(times)
    return answers, seconds


def bench_round(job: BenchJob) -> dict[str, Any]:
    """The row of one round: how it was drawn, and per run (the plain search, then each engine) its answers,
    its seconds and whether it answered everything; `disagreements` lists the bugs it showed."""
    drawn = family_round(job.seed)
    round_ = drawn.round
    runs: dict[str, dict[str, Any]] = {}
    errors: list[str] = []

    def plain(deadline: Deadline) -> dict[str, Any]:
        return vars(answer_all(round_, deadline))

    answers, seconds = _timed(plain, job.limit)
    runs[PLAIN] = {"answers": answers, "seconds": seconds, "answered": _decided(answers)}
    for name in job.engines:
        module = GAME.engine(name).load()

        def engine(deadline: Deadline, module: Any = module) -> dict[str, Any]:
            return _analysis_answers(analyse_with(round_, deadline, module))

        try:
            answers, seconds = _timed(engine, job.limit)
        except EngineBug as error:  # a plan the rules refute: a bug to report, not a reason to stop
            errors.append(f"round {job.seed}: {name}: {error}")
            answers, seconds = dict.fromkeys(ANSWERS), job.limit
        runs[name] = {"answers": answers, "seconds": seconds, "answered": _decided(answers)}
    return {
        "seed": job.seed,
        "shape": drawn.shape,
        "seats": drawn.seats,
        "cards": drawn.cards,
        "rooms": len(round_.revealed),
        "challenges": round_.challenges.names(),
        "planted": drawn.planted,
        "runs": runs,
        "disagreements": errors + disagreements(job.seed, round_, runs),
    }


def disagreements(seed: int, round_: Round, runs: dict[str, dict[str, Any]]) -> list[str]:
    """Answers two runs decided differently."""
    found = []
    for key in ANSWERS:
        decided = {name: run["answers"][key] for name, run in runs.items() if run["answers"][key] is not None}
        if len(set(decided.values())) > 1:
            found.append(
                f"round {seed}: {key}: " + ", ".join(f"{name} says {value}" for name, value in decided.items())
            )
    return found


@dataclass
class BenchResult:
    limit: float
    engines: list[str]
    rows: list[dict[str, Any]]
    lost: list[str] = field(default_factory=list)

    @property
    def disagreements(self) -> list[str]:
        return [line for row in self.rows for line in row["disagreements"]]

    def summary(self, rows: list[dict[str, Any]] | None = None) -> dict[str, dict[str, Any]]:
        """Per run name: rounds answered, median and worst seconds (a round not answered counts at the limit),
        and the worst ratio of its seconds to the plain search's over the rounds the plain search answered
        (`worst_ratio_above`: a round it did not answer, so the ratio is at least that)."""
        rows = self.rows if rows is None else rows
        out = {}
        for name in [PLAIN, *self.engines]:
            times = [row["runs"][name]["seconds"] if row["runs"][name]["answered"] else self.limit for row in rows]
            entry: dict[str, Any] = {
                "rounds": len(rows),
                "answered": sum(row["runs"][name]["answered"] for row in rows),
                "median_seconds": statistics.median(times) if times else None,
                "worst_seconds": max(times) if times else None,
            }
            if name != PLAIN:
                ratios = []
                for row, seconds in zip(rows, times, strict=True):
                    if row["runs"][PLAIN]["answered"]:
                        ratios.append((seconds / max(row["runs"][PLAIN]["seconds"], 1e-6), row["seed"]))
                worst = max(ratios, default=None)
                entry["compared"] = len(ratios)
                entry["worst_ratio"] = None if worst is None else worst[0]
                entry["worst_ratio_round"] = None if worst is None else worst[1]
                entry["median_ratio"] = statistics.median(ratio for ratio, _ in ratios) if ratios else None
                entry["worst_ratio_above"] = any(
                    row["runs"][PLAIN]["answered"] and not row["runs"][name]["answered"] for row in rows
                )
                entry["unanswered_by_plain_answered"] = sum(
                    row["runs"][name]["answered"] and not row["runs"][PLAIN]["answered"] for row in rows
                )
            small = [row for row in rows if row["seats"] <= TARGET_SEATS]
            entry["small_rounds"] = len(small)
            entry["small_within_target"] = sum(
                row["runs"][name]["answered"] and row["runs"][name]["seconds"] <= TARGET_SECONDS for row in small
            )
            out[name] = entry
        return out

    def by_shape(self) -> dict[str, dict[str, dict[str, Any]]]:
        shapes = sorted({row["shape"] for row in self.rows})
        return {shape: self.summary([row for row in self.rows if row["shape"] == shape]) for shape in shapes}

    def as_json(self) -> dict[str, Any]:
        return {
            "limit": self.limit,
            "engines": self.engines,
            "rows": self.rows,
            "summary": self.summary(),
            "by_shape": self.by_shape(),
            "disagreements": self.disagreements,
            "lost": self.lost,
        }


def run(
    rounds: int = 200,
    first_seed: int = 0,
    limit: float = 10.0,
    engines: tuple[str, ...] | None = None,
    where: Where = HERE,
    progress: Progress | None = None,
) -> BenchResult:
    """Rounds first_seed .. first_seed + rounds - 1 of the family, each a task (here or on a cluster)."""
    names = engines or tuple(engine.name for engine in GAME.engines if engine.available())
    jobs = [BenchJob(seed, names, limit) for seed in range(first_seed, first_seed + rounds)]
    rows: list[dict[str, Any]] = []
    lost: list[str] = []
    with closing(map_tasks(Tasks(bench_round, jobs, "bench-temple", len(jobs)), where, progress)) as results:
        for job, result in zip(jobs, results, strict=True):
            if isinstance(result, Lost):
                lost.append(f"round {job.seed}: not run: {result.reason}")
            else:
                rows.append(result)
    return BenchResult(limit, list(names), rows, lost)


def table_lines(result: BenchResult) -> list[str]:
    """Per run: rounds answered, median and worst seconds, the worst and median ratio to the plain search,
    and the rounds of up to TARGET_SEATS seats answered within TARGET_SECONDS; then the same per shape for the
    plain search and auto."""
    lines = []
    header = (
        f"{'run':<8} {'answered':>9} {'median s':>9} {'worst s':>8} {'worst ratio':>12} {'median ratio':>13}"
        f"  {'<=' + str(TARGET_SEATS) + ' seats in ' + str(TARGET_SECONDS) + ' s':>18}"
    )
    lines += [header, "-" * len(header)]
    for name, entry in result.summary().items():
        lines.append(_summary_line(name, entry, result.limit))
    lines += ["", f"by temple shape ({PLAIN} and {AUTO}):", header.replace("run     ", "run     "), "-" * len(header)]
    for shape, entries in result.by_shape().items():
        lines.append(f"{shape}:")
        for name in (PLAIN, AUTO):
            if name in entries:
                lines.append(_summary_line(name, entries[name], result.limit))
    return lines


def _summary_line(name: str, entry: dict[str, Any], limit: float) -> str:
    worst = f"{entry['worst_seconds']:.3f}" if entry["answered"] == entry["rounds"] else f">{limit:g}"
    ratio = median = ""
    if name != PLAIN and entry.get("worst_ratio") is not None:
        ratio = ("> " if entry["worst_ratio_above"] else "") + f"{entry['worst_ratio']:.2f}"
        median = f"{entry['median_ratio']:.3f}"
    small = f"{entry['small_within_target']}/{entry['small_rounds']}"
    return (
        f"{name:<8} {entry['answered']:>4}/{entry['rounds']:<4} {entry['median_seconds']:>9.3f} {worst:>8} "
        f"{ratio:>12} {median:>13}  {small:>18}"
    )
