"""`twisty check` and `twisty solve` for Twisty Little Passages levels: verdict, expectations, report."""

from __future__ import annotations

from typing import Any

from twisty.checking import CheckOptions, CheckOutcome, SolveOutcome, status_word
from twisty.render.passages import legend_lines, route_map, walkthrough
from twisty.rules.passages import Expectations, PassagesLevel
from twisty.rules.passages_format import load_passages
from twisty.rules.source import LevelSource
from twisty.solver.passages import PassagesVerdict, analyse


def report(source: LevelSource, level: PassagesLevel, verdict: PassagesVerdict) -> dict[str, Any]:
    """The JSON object of `check --json` (keys listed in passages.md)."""
    count = verdict.count
    exact_count = count is not None and count.complete
    solvable = verdict.solvable
    data: dict[str, Any] = {
        "level": source.path,
        "game": "passages",
        "name": level.name,
        "valid": True,
        "errors": [],
        "solvable": solvable,
        "final_hp": verdict.best.final_hp,
        "proved": verdict.best.proved,
        "min_start_hp": verdict.min_start.value if verdict.min_start.status == "proved" else None,
        "min_start_hp_status": verdict.min_start.status if "min-hp" in verdict.questions else "not asked",
        "solutions": (count.solutions if exact_count else None) if solvable else (0 if solvable is False else None),
        "solutions_capped": bool(count.capped) if exact_count else False,
        "optimal_solutions": (count.optimal if exact_count else None) if solvable else (0 if solvable is False else None),
        # A count that ran out of time or memory: how many distinct solutions it had found (a lower bound).
        "solutions_at_least": count.solutions if solvable and count is not None and not count.complete else None,
        "unique": verdict.unique,
        "route": [step.as_json() for step in verdict.route.steps] if verdict.route else None,
        "engine": verdict.engines,
        "seconds": round(verdict.seconds, 3),
        "limit": "memory" if verdict.out_of_memory else "time",    # what an undecided answer ran into
        "questions": sorted(verdict.questions),
    }
    second = verdict.second_solution
    data["second_route"] = [step.as_json() for step in second.steps] if second else None
    data["expected_solvable"] = level.expect.solvable
    data["expect_failures"] = expectation_failures(level.expect, data)
    return data


# The question that decides each [expect] claim: a claim whose question was not asked is not checked.
CLAIM_QUESTIONS = {"solvable": "route", "final_hp": "route", "min_start_hp": "min-hp", "unique": "count",
                   "solutions": "count", "optimal_solutions": "count"}


def expectation_failures(expect: Expectations, data: dict[str, Any]) -> list[str]:
    """One line per [expect] claim that does not hold; an undecided answer fails its claim too."""
    failures: list[str] = []
    asked = set(data["questions"]) | ({"route"} if "count" in data["questions"] else set())
    expect = Expectations(**{key: value if CLAIM_QUESTIONS[key] in asked else None
                             for key, value in vars(expect).items()})

    def compare(key: str, claimed, actual, undecided: bool) -> None:
        if claimed is None:
            return
        if undecided:
            failures.append(f"{key}: claimed {_toml(claimed)}, but it could not be decided within the "
                            f"{data['limit']} limit")
        elif actual != claimed:
            failures.append(f"{key}: claimed {_toml(claimed)}, but it is {_toml(actual)}")

    compare("solvable", expect.solvable, data["solvable"], data["solvable"] is None)
    if expect.final_hp is not None and data["solvable"] and data["proved"] and data["final_hp"] > expect.final_hp:
        failures.append(f"final_hp: claimed {expect.final_hp}, but a better solution than the designer's "
                        f"reaches the goal with {data['final_hp']} hp (see its route)")
    else:
        compare("final_hp", expect.final_hp, data["final_hp"], not data["proved"])
    min_start_undecided = data["min_start_hp_status"] == "unknown"
    if expect.min_start_hp is not None and data["min_start_hp_status"] == "none":
        failures.append(f"min_start_hp: claimed {expect.min_start_hp}, but no starting hp solves the level")
    else:
        compare("min_start_hp", expect.min_start_hp, data["min_start_hp"], min_start_undecided)
    counts_undecided = data["solutions"] is None
    compare("unique", expect.unique, data["unique"], data["unique"] is None)
    if expect.solutions is not None and data["solutions_capped"]:
        failures.append(f"solutions: claimed {expect.solutions}, but there are more than {data['solutions']} "
                        "(raise --max-solutions)")
    else:
        compare("solutions", expect.solutions, data["solutions"], counts_undecided)
    compare("optimal_solutions", expect.optimal_solutions, data["optimal_solutions"], counts_undecided)
    return failures


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "none" if value is None else str(value)


def summary_line(data: dict[str, Any]) -> str:
    """The one line `check` prints for a level, after its status word (twisty.checking.level_status)."""
    parts = []
    if "route" in data["questions"] or "count" in data["questions"]:
        if data["solvable"] is None:
            parts.append(f"unknown ({data['limit']} limit)")
        elif not data["solvable"]:
            parts.append("unsolvable (proved)")
        else:
            proof = "proved optimal" if data["proved"] else "not proved optimal"
            parts.append(f"solvable, final hp {data['final_hp']} ({proof})")
    if data["min_start_hp_status"] == "proved":
        parts.append(f"min start hp {data['min_start_hp']}")
    elif data["min_start_hp_status"] == "unknown":
        parts.append(f"min start hp unknown ({data['limit']} limit)")
    elif data["min_start_hp_status"] == "none":
        parts.append("no starting hp suffices")
    if data["solutions"] is not None and data["solvable"]:
        more = "+" if data["solutions_capped"] else ""
        parts.append(f"{data['solutions']}{more} solution{'s' if data['solutions'] != 1 else ''}"
                     f" ({'unique' if data['unique'] else str(data['optimal_solutions']) + ' optimal'})")
    elif data["solutions_at_least"] is not None:
        found = data["solutions_at_least"]
        parts.append(f"solution count unknown ({data['limit']} limit"
                     + (f", {found} found so far)" if found else ")"))
    engines = "/".join(sorted(set(data["engine"].values())))
    return f"{status_word(data):<11}{data['level']}: {', '.join(parts)}  [{engines}, {data['seconds']:.2f}s]"


def _analyse(source: LevelSource, options: CheckOptions) -> tuple[PassagesLevel, PassagesVerdict]:
    level = load_passages(source)
    verdict = analyse(level, options.deadline, engine=options.engine, max_solutions=options.max_solutions,
                      questions=options.questions, progress=options.progress)
    return level, verdict


def check(source: LevelSource, options: CheckOptions) -> CheckOutcome:
    level, verdict = _analyse(source, options)
    data = report(source, level, verdict)
    details = list(data["expect_failures"])
    if data["expect_failures"] and verdict.route is not None and data["final_hp"] and level.expect.final_hp \
            and data["final_hp"] > level.expect.final_hp:
        details += ["the better route:"] + ["  " + line for line in walkthrough(level, verdict.route)]
    return CheckOutcome(data, summary_line(data), details)


def solve(source: LevelSource, options: CheckOptions) -> SolveOutcome:
    level, verdict = _analyse(source, options)
    data = report(source, level, verdict)
    lines = [f"{level.name or source.path}", ""]
    if level.description:
        lines += [level.description, ""]
    lines.append(summary_line(data))
    if verdict.route is not None:
        lines += ["", "Walkthrough:"] + walkthrough(level, verdict.route)
        lines += ["", "Map (* walked, numbers/letters = steps):"] + ["  " + row for row in route_map(level, verdict.route)]
    else:
        lines += ["", "Map:"] + ["  " + row for row in level.grid]
    lines += ["", "Legend:"] + legend_lines(level)
    second = verdict.second_solution
    if second is not None:
        lines += ["", f"Not unique: a second solution reaches the goal with {second.final_hp} hp:"]
        lines += walkthrough(level, second)
    return SolveOutcome(data, "\n".join(lines))
