"""The generator benchmark: `twisty bench generate`.

Per blocker count, the passages generator makes one level per seed (on a maze of about two cells per blocker:
params_for) twice in the same run, alternating: verified by the search engine as it is (its
counting engine), and by the search engine with the previous counting code (passages_count_walk) instead.
The two must make the same level (the verifier only accepts or refuses; the explorer shapes the level),
and a difference is a bug. Times cover the whole generation of the level. Nothing here prints.
"""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from types import SimpleNamespace

from twisty.errors import GenerationError
from twisty.generator.passages import generate_level
from twisty.generator.passages_params import ROUTE_FIRST_BLOCKERS, PassagesParams
from twisty.limits import Deadline
from twisty.solver import passages_count_walk, passages_search

GENERATE_BLOCKERS = (10, 20, 30, 40, 60, 90, 120)
VERIFIERS = {
    "count": passages_search,
    "walk": SimpleNamespace(
        NAME="search-walk",
        best_route=passages_search.best_route,
        min_start_hp=passages_search.min_start_hp,
        count_solutions=passages_count_walk.count_solutions,
        generator_oracle=passages_search.generator_oracle,
    ),
}


def params_for(blockers: int) -> PassagesParams:
    """A maze of about two cells per blocker, a little wider than high; medium difficulty, hard from
    ROUTE_FIRST_BLOCKERS on, where the generator shapes levels route first (method "auto") and its levels'
    many traps score above the medium band (docs/generator-passages.md)."""
    cells = max(12, 2 * blockers)
    width = math.ceil(math.sqrt(cells * 1.2))
    difficulty = "hard" if blockers >= ROUTE_FIRST_BLOCKERS else "medium"
    return PassagesParams(width=width, height=math.ceil(cells / width), blockers=blockers, difficulty=difficulty)


@dataclass
class GenerateRun:
    seconds: float
    made: bool
    text: str | None = None
    why: str | None = None

    def as_json(self) -> dict:
        return {"seconds": round(self.seconds, 4), "made": self.made, "why": self.why}


@dataclass
class GenerateBench:
    limit: float
    seeds: list[int]
    runs: dict[int, dict[str, list[GenerateRun]]] = field(default_factory=dict)  # blockers -> verifier -> runs
    disagreements: list[str] = field(default_factory=list)

    def rows(self) -> list[dict]:
        out = []
        for blockers, by_verifier in self.runs.items():
            row: dict = {"blockers": blockers, "size": "{0.width}x{0.height}".format(params_for(blockers))}
            for name, runs in by_verifier.items():
                times = [run.seconds if run.made else self.limit for run in runs]
                row[name] = {
                    "made": sum(run.made for run in runs),
                    "tried": len(runs),
                    "median_seconds": statistics.median(times),
                    "max_seconds": max(times),
                }
            both = [i for i, run in enumerate(by_verifier["count"]) if run.made and by_verifier["walk"][i].made]
            if both:
                mine = statistics.median(by_verifier["count"][i].seconds for i in both)
                theirs = statistics.median(by_verifier["walk"][i].seconds for i in both)
                row["ratio"], row["common"] = theirs / max(mine, 1e-6), len(both)
            out.append(row)
        return out

    def as_json(self) -> dict:
        return {
            "limit": self.limit,
            "seeds": self.seeds,
            "runs": {b: {v: [r.as_json() for r in runs] for v, runs in by.items()} for b, by in self.runs.items()},
            "rows": self.rows(),
            "disagreements": self.disagreements,
        }


def _generate(blockers: int, seed: int, verifier: object, limit: float) -> GenerateRun:
    started = time.perf_counter()
    try:
        made = generate_level(params_for(blockers), seed, verifier, Deadline(limit))  # type: ignore[arg-type]
    except GenerationError as error:
        return GenerateRun(time.perf_counter() - started, False, why=str(error))
    return GenerateRun(time.perf_counter() - started, True, made.text)


def run_generate_bench(
    blocker_counts: tuple[int, ...],
    seeds: list[int],
    limit: float,
    step: Callable[[int, int, str, GenerateRun], None] = lambda blockers, seed, verifier, run: None,
) -> GenerateBench:
    result = GenerateBench(limit, seeds)
    for blockers in blocker_counts:
        by_verifier: dict[str, list[GenerateRun]] = {name: [] for name in VERIFIERS}
        for seed in seeds:
            for name, verifier in VERIFIERS.items():
                run = _generate(blockers, seed, verifier, limit)
                by_verifier[name].append(run)
                step(blockers, seed, name, run)
            mine, theirs = by_verifier["count"][-1], by_verifier["walk"][-1]
            if mine.made and theirs.made and mine.text != theirs.text:
                result.disagreements.append(
                    f"{blockers} blockers, seed {seed}: the two verifiers made different levels"
                )
        result.runs[blockers] = by_verifier
    return result


def generate_table_lines(result: GenerateBench) -> list[str]:
    header = f"{'blockers':>8} {'size':>6}  {'verifier':<8} {'made':>6} {'median s':>9} {'max s':>8}  {'vs walk':>12}"
    lines = [header, "-" * len(header)]
    for row in result.rows():
        label = f"{row['blockers']:>8} {row['size']:>6}"
        for name in VERIFIERS:
            entry = row[name]
            done = entry["made"] == entry["tried"]
            worst = f"{entry['max_seconds']:.2f}" if done else f">{result.limit:g}"
            ratio = f"{row['ratio']:.2f}x ({row['common']})" if name == "count" and "ratio" in row else ""
            lines.append(
                f"{label}  {name:<8} {entry['made']:>2}/{entry['tried']:<3} {entry['median_seconds']:>9.3f} "
                f"{worst:>8}  {ratio:>12}"
            )
            label = " " * 15
    return lines
