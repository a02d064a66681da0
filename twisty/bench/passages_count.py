"""The counting benchmark: `twisty bench passages --questions count`.

On each suite level, in one run: the best route (the search engine), the least starting hp, and then the
two counting questions, uniqueness (count up to 1: it stops at the second signature) and solutions up to
10, each asked of the counting engine (passages_count, behind the search engine) and of the previous
counting code (passages_count_walk, the walk it replaced), alternating on the same level so that both see
the same load; optionally CP-SAT's solve-and-block enumeration too. Every count two engines finish must
agree (counts, optimal counts and the cap flag); a disagreement is a bug. Nothing here prints.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from types import ModuleType

from twisty.bench.passages import BUCKETS, bucket_of
from twisty.rules.passages import PassagesLevel
from twisty.solver import passages_count_walk, passages_search
from twisty.solver.passages_verdict import SOLVABLE, Deadline, SolutionCount

# The counting engines of the bench: the counting engine (the search engine's count), the previous walk
# (the baseline of the ratios), and CP-SAT's enumeration (asked only with --engine cpsat: it proves few
# counts beyond 20 blockers within a limit of seconds).
COUNTERS = ("count", "walk", "cpsat")


def counter(name: str) -> ModuleType:
    """The module that counts for `name`. CP-SAT's is imported only when asked for: OR-Tools takes most of
    a second to import, which every twisty command would otherwise pay at start-up."""
    if name == "cpsat":
        from twisty.solver import passages_cpsat

        return passages_cpsat
    return {"count": passages_search, "walk": passages_count_walk}[name]


COUNT_BASELINE = "walk"
QUESTIONS = ("unique", "count10")
CAPS = {"unique": 1, "count10": 10}


@dataclass
class CountRun:
    seconds: float
    complete: bool
    answer: tuple[int, int, bool] | None  # (solutions, optimal, capped) when complete

    def as_json(self) -> dict:
        return {"seconds": round(self.seconds, 4), "complete": self.complete, "answer": self.answer}


@dataclass
class CountLevel:
    name: str
    blockers: int
    bucket: int
    best_seconds: float
    best_proved: bool
    min_start_seconds: float
    runs: dict[str, dict[str, CountRun]] = field(default_factory=dict)  # question -> engine -> run

    def as_json(self) -> dict:
        return {
            "level": self.name,
            "blockers": self.blockers,
            "bucket": self.bucket,
            "best_seconds": round(self.best_seconds, 4),
            "best_proved": self.best_proved,
            "min_start_seconds": round(self.min_start_seconds, 4),
            "runs": {q: {e: run.as_json() for e, run in runs.items()} for q, runs in self.runs.items()},
        }


@dataclass
class CountBench:
    limit: float
    engines: list[str]
    levels: list[CountLevel]
    disagreements: list[str]

    def rows(self) -> list[dict]:
        """Per bucket (then "all"): median and worst seconds of the best route, the whole check (best
        route, least starting hp, count to 10) and each question per engine, how many each finished, and
        the baseline's median over the engine's on the levels both finish."""
        out = []
        for bucket in (*BUCKETS, 0):
            members = [lv for lv in self.levels if bucket in (0, lv.bucket)]
            if not members:
                continue
            row: dict = {"bucket": bucket, "levels": len(members)}
            row["best"] = _spread([lv.best_seconds if lv.best_proved else self.limit for lv in members])
            for question in QUESTIONS:
                for engine in self.engines:
                    runs = [lv.runs.get(question, {}).get(engine) for lv in members]
                    asked = [run for run in runs if run is not None]
                    if not asked:
                        continue
                    entry = _spread([run.seconds if run.complete else self.limit for run in asked])
                    entry["finished"] = sum(run.complete for run in asked)
                    entry["asked"] = len(asked)
                    entry["ratio"], entry["common"] = self._ratio(members, question, engine)
                    row[f"{question}/{engine}"] = entry
            wholes = []
            for lv in members:
                whole = lv.best_seconds + lv.min_start_seconds if lv.best_proved else self.limit
                counted = lv.runs.get("count10", {}).get("count")
                if counted is not None:
                    whole = whole + counted.seconds if counted.complete else self.limit
                wholes.append(whole)
            row["whole"] = _spread(wholes)
            out.append(row)
        return out

    def _ratio(self, members: list[CountLevel], question: str, engine: str) -> tuple[float | None, int]:
        if engine == COUNT_BASELINE:
            return None, 0
        both = [
            lv
            for lv in members
            if (runs := lv.runs.get(question, {}))
            and engine in runs
            and COUNT_BASELINE in runs
            and runs[engine].complete
            and runs[COUNT_BASELINE].complete
        ]
        if not both:
            return None, 0
        mine = statistics.median(lv.runs[question][engine].seconds for lv in both)
        theirs = statistics.median(lv.runs[question][COUNT_BASELINE].seconds for lv in both)
        return theirs / max(mine, 1e-6), len(both)

    def as_json(self) -> dict:
        return {
            "limit": self.limit,
            "engines": self.engines,
            "levels": [level.as_json() for level in self.levels],
            "buckets": self.rows(),
            "disagreements": self.disagreements,
        }


def _spread(times: list[float]) -> dict:
    return {"median_seconds": statistics.median(times), "max_seconds": max(times)}


def _count(engine: ModuleType, level: PassagesLevel, cap: int, final_hp: int, limit: float) -> CountRun:
    started = time.perf_counter()
    found: SolutionCount = engine.count_solutions(level, Deadline(limit), cap, final_hp)
    seconds = time.perf_counter() - started
    answer = (found.solutions, found.optimal, found.capped) if found.complete else None
    return CountRun(seconds, found.complete and seconds <= limit, answer)


def run_count_bench(
    levels: list[tuple[str, PassagesLevel]],
    engines: list[str],
    limit: float,
    step: Callable[[str, str], None] = lambda level, what: None,
) -> CountBench:
    """Every counting engine on every solvable level, each question in turn (`step` hears of each)."""
    results = []
    disagreements = []
    for name, level in levels:
        blockers = len(level.blockers())
        started = time.perf_counter()
        best = passages_search.best_route(level, Deadline(limit))
        best_seconds = time.perf_counter() - started
        started = time.perf_counter()
        passages_search.min_start_hp(level, Deadline(limit))
        min_start_seconds = time.perf_counter() - started
        result = CountLevel(name, blockers, bucket_of(blockers), best_seconds, best.proved, min_start_seconds)
        step(name, "best route and least starting hp")
        if best.status == SOLVABLE and best.proved and best.final_hp is not None:
            for question in QUESTIONS:
                runs = result.runs.setdefault(question, {})
                for engine in engines:
                    runs[engine] = _count(counter(engine), level, CAPS[question], best.final_hp, limit)
                    step(name, f"{question} by {engine}")
                answers = {engine: run.answer for engine, run in runs.items() if run.complete}
                if len(set(answers.values())) > 1:
                    disagreements.append(
                        f"{name}: {question}: engines disagree: "
                        + ", ".join(f"{engine} says {answer}" for engine, answer in sorted(answers.items()))
                    )
        results.append(result)
    return CountBench(limit, engines, results, disagreements)


def count_table_lines(result: CountBench) -> list[str]:
    """The table by blocker count: median / worst seconds per column, ratios against the previous walk."""
    lines = []
    header = (
        f"{'blockers':>8} {'levels':>6}  {'what':<18} {'finished':>8} {'median s':>9} {'max s':>8}  {'vs walk':>12}"
    )
    lines += [header, "-" * len(header)]
    for row in result.rows():
        label = f"{row['bucket'] or 'all':>8} {row['levels']:>6}"
        entries = [("best route", row["best"])]
        entries += [(key.replace("/", " by "), row[key]) for key in row if "/" in key]
        entries.append(("whole check", row["whole"]))
        for what, entry in entries:
            finished = f"{entry['finished']}/{entry['asked']}" if "finished" in entry else ""
            done = "finished" not in entry or entry["finished"] == entry["asked"]
            worst = f"{entry['max_seconds']:.2f}" if done else f">{result.limit:g}"
            ratio = f"{entry['ratio']:.1f}x ({entry['common']})" if entry.get("ratio") is not None else ""
            lines.append(f"{label}  {what:<18} {finished:>8} {entry['median_seconds']:>9.3f} {worst:>8}  {ratio:>12}")
            label = " " * 15
    return lines
