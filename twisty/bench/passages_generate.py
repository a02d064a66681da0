"""The generator benchmark: `twisty bench generate`.

Per blocker count, the passages generator makes one level per seed (on a maze of about two cells per blocker:
params_for), and, when a checkout of the previous release is given (`--baseline DIR`), the previous
release's generator makes the level of the same seed and options in the same run, alternating, so that
both meet the same load. Each level is made in a fresh Python process (the tree's own `twisty` package on
its path), which reports its wall-clock and CPU time for `generate_level` alone: a process's start and
imports are left out for both alike. Every level either generator makes is then checked by this release's
portfolio (best route, least starting life, uniqueness): it must be solvable with final life 1, unique,
with the starting life the least that wins; anything else is a disagreement (a bug, exit 1). Nothing here
prints.
"""

from __future__ import annotations

import json
import math
import os
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from twisty.bench.passages_process import run_in_tree
from twisty.generator.passages_params import ROUTE_FIRST_BLOCKERS, PassagesParams
from twisty.limits import Deadline
from twisty.rules.passages_format import load_passages
from twisty.rules.source import parse_level_bytes
from twisty.solver import passages

GENERATE_BLOCKERS = (10, 20, 40, 60, 90, 120)
GENERATORS = ("current", "previous")
# The tree of this release: the folder that holds the `twisty` package imported here.
CURRENT_TREE = Path(__file__).resolve().parents[2]

# What a level's process runs: generate_level with the search engine, timed alone, and its result as JSON.
# With a CPU limit, the generator has no deadline and the process its CPU time limited instead (the kernel
# ends it past that): the generator's work is bounded by counts, so whether a seed gives a level within so
# much CPU time does not depend on how many other jobs share the machine, as a wall-clock limit does.
_RUN_ONE = """
import json, math, resource, sys, time
import twisty
from twisty.errors import GenerationError
from twisty.generator.passages import generate_level
from twisty.generator.passages_params import PassagesParams
from twisty.limits import Deadline
from twisty.solver import passages_search
width, height, blockers, difficulty, seed, limit, cpu_limit = json.loads(sys.argv[1])
params = PassagesParams(width=width, height=height, blockers=blockers, difficulty=difficulty)
if cpu_limit:
    resource.setrlimit(resource.RLIMIT_CPU, (math.ceil(limit), math.ceil(limit) + 5))
wall, cpu = time.perf_counter(), time.process_time()
try:
    made = generate_level(params, seed, passages_search, Deadline(None if cpu_limit else limit))
    text, why = made.text, None
except GenerationError as error:
    text, why = None, str(error)
print(json.dumps({"seconds": time.perf_counter() - wall, "cpu": time.process_time() - cpu, "text": text, "why": why,
                  "package": twisty.__path__[0]}))
"""


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
    seconds: float  # wall clock of generate_level in its process
    cpu: float  # its CPU time (every thread of the process)
    made: bool
    why: str | None = None
    checked: bool | None = None  # this release's check of the level made (None: no level)
    text: str | None = None  # the level made (not in the JSON: `--keep DIR` writes it)

    def as_json(self) -> dict:
        return {
            "seconds": round(self.seconds, 3),
            "cpu": round(self.cpu, 3),
            "made": self.made,
            "why": self.why,
            "checked": self.checked,
        }


@dataclass
class GenerateBench:
    limit: float
    seeds: list[int]
    baseline: str | None  # the previous release's tree and commit, when given
    cpu_limit: bool = False  # the limit is CPU seconds (each process's), not wall-clock seconds
    runs: dict[int, dict[str, list[GenerateRun]]] = field(default_factory=dict)  # blockers -> generator -> runs
    disagreements: list[str] = field(default_factory=list)
    load: list[list[float]] = field(default_factory=list)  # load averages (1, 5, 15 min) at each count's start

    def rows(self) -> list[dict]:
        out = []
        for blockers, by_generator in self.runs.items():
            row: dict = {"blockers": blockers, "size": "{0.width}x{0.height}".format(params_for(blockers))}
            for name, runs in by_generator.items():
                if not runs:
                    continue
                times = [run.seconds if run.made or self.cpu_limit else self.limit for run in runs]
                cpus = [run.cpu for run in runs]
                row[name] = {
                    "made": sum(run.made for run in runs),
                    "tried": len(runs),
                    "median_seconds": statistics.median(times),
                    "max_seconds": max(times),
                    "median_cpu": statistics.median(cpus),
                    "max_cpu": max(cpus),
                }
            mine, theirs = by_generator["current"], by_generator.get("previous", [])
            # Per seed, the previous release's time over this one's (a run the previous release did not
            # finish counts at the limit: the ratio is then at least that).
            ratios = [
                (theirs[i].seconds if theirs[i].made else self.limit) / max(mine[i].seconds, 1e-6)
                for i in range(min(len(mine), len(theirs)))
                if mine[i].made
            ]
            if ratios:
                row["median_ratio"], row["worst_ratio"], row["compared"] = (
                    statistics.median(ratios),
                    min(ratios),
                    len(ratios),
                )
                # The same in CPU time, which the load moves far less (a run not finished counts at the CPU
                # time it had used when it stopped).
                cpu_ratios = [
                    theirs[i].cpu / max(mine[i].cpu, 1e-6) for i in range(min(len(mine), len(theirs))) if mine[i].made
                ]
                row["median_cpu_ratio"], row["worst_cpu_ratio"] = statistics.median(cpu_ratios), min(cpu_ratios)
            out.append(row)
        return out

    def as_json(self) -> dict:
        return {
            "limit": self.limit,
            "cpu_limit": self.cpu_limit,
            "seeds": self.seeds,
            "baseline": self.baseline,
            "load": self.load,
            "runs": {b: {g: [r.as_json() for r in runs] for g, runs in by.items()} for b, by in self.runs.items()},
            "rows": self.rows(),
            "disagreements": self.disagreements,
        }


def baseline_name(tree: Path) -> str:
    """The previous release's tree as the results name it: its folder and, when recorded there (the file
    RELEASE that benchmarks/generator/previous_release.sh writes), its commit."""
    release = tree / "RELEASE"
    commit = release.read_text(encoding="utf-8").strip() if release.exists() else "unknown commit"
    return f"{tree} ({commit})"


def _generate(
    tree: Path, blockers: int, seed: int, limit: float, cpu_limit: bool = False
) -> tuple[GenerateRun, str | None]:
    """One level made by the generator of `tree` in a process of its own, and the level's text."""
    params = params_for(blockers)
    argument = json.dumps([params.width, params.height, params.blockers, params.difficulty, seed, limit, cpu_limit])
    run = run_in_tree(tree, _RUN_ONE, [argument], cpu_limit)
    if run.stopped:
        return GenerateRun(run.seconds, run.cpu, False, why=f"CPU limit of {limit:g} s reached"), None
    if run.answer is None:
        return GenerateRun(0.0, 0.0, False, why=f"the process failed: {run.failed}"), None
    answer = run.answer
    text = answer["text"]
    return GenerateRun(answer["seconds"], answer["cpu"], text is not None, answer["why"], text=text), text


def check_level(text: str, name: str, limit: float) -> str | None:
    """What is wrong with a generated level by this release's check: None when it is solvable with final
    life 1, unique, and its starting life is the least that wins (as its [expect] claims)."""
    level = load_passages(parse_level_bytes(text.encode("utf-8"), name))
    found = passages.analyse(level, Deadline(limit), max_solutions=1)
    claims = (found.solvable, found.best.final_hp, found.unique, found.min_start.value)
    if claims != (True, 1, True, level.player.hp):
        return f"claims solvable, final hp 1, unique, min start hp {level.player.hp}; the check finds {claims}"
    return None


def run_generate_bench(
    blocker_counts: tuple[int, ...],
    seeds: list[int],
    limit: float,
    baseline: Path | None = None,
    baseline_seeds: int | None = None,
    step: Callable[[int, int, str, GenerateRun], None] = lambda blockers, seed, generator, run: None,
    cpu_limit: bool = False,
) -> GenerateBench:
    """Each count's levels, seed by seed: this release's generator, then (with `baseline`, for the first
    `baseline_seeds` seeds, all by default) the previous release's, then this release's check of both."""
    result = GenerateBench(limit, seeds, None if baseline is None else baseline_name(baseline), cpu_limit)
    for blockers in blocker_counts:
        result.load.append([round(x, 2) for x in os.getloadavg()])
        by_generator: dict[str, list[GenerateRun]] = {name: [] for name in GENERATORS}
        for number, seed in enumerate(seeds):
            trees = [("current", CURRENT_TREE)]
            if baseline is not None and (baseline_seeds is None or number < baseline_seeds):
                trees.append(("previous", baseline))
            for name, tree in trees:
                run, text = _generate(tree, blockers, seed, limit, cpu_limit)
                if text is not None:
                    label = f"<{name} generator, {blockers} blockers, seed {seed}>"
                    wrong = check_level(text, label, 10 * max(limit, 60))
                    run.checked = wrong is None
                    if wrong is not None:
                        result.disagreements.append(f"{blockers} blockers, seed {seed}, {name} generator: {wrong}")
                by_generator[name].append(run)
                step(blockers, seed, name, run)
        result.runs[blockers] = by_generator
    return result


def generate_table_lines(result: GenerateBench) -> list[str]:
    header = (
        f"{'blockers':>8} {'size':>6}  {'generator':<9} {'made':>6} {'median s':>9} {'max s':>8} "
        f"{'median cpu':>10} {'max cpu':>8}  {'vs previous, cpu':>18}"
    )
    lines = [header, "-" * len(header)]
    for row in result.rows():
        label = f"{row['blockers']:>8} {row['size']:>6}"
        for name in GENERATORS:
            if name not in row:
                continue
            entry = row[name]
            done = entry["made"] == entry["tried"]
            worst = f"{entry['max_seconds']:.2f}" if done or result.cpu_limit else f">{result.limit:g}"
            worst_cpu = f"{entry['max_cpu']:.2f}" if done or not result.cpu_limit else f">{result.limit:g}"
            ratio = ""
            if name == "current" and "median_ratio" in row:
                ratio = f"{row['median_cpu_ratio']:.1f}x, worst {row['worst_cpu_ratio']:.1f}x ({row['compared']})"
            lines.append(
                f"{label}  {name:<9} {entry['made']:>2}/{entry['tried']:<3} {entry['median_seconds']:>9.2f} "
                f"{worst:>8} {entry['median_cpu']:>10.2f} {worst_cpu:>8}  {ratio:>18}"
            )
            label = " " * 15
    return lines
