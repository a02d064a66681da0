"""`twisty check` and `twisty solve` for Twisty Little Passages levels: the public verdict, the [expect]
claims compared, the summary line and the walkthrough."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from twisty.checking import CheckOptions, Outcome, VerdictBase, summary_start
from twisty.claims import Claims
from twisty.render.passages import legend_lines, route_map, walkthrough
from twisty.rules.level import Level
from twisty.rules.passages import Expectations, PassagesLevel, Replay
from twisty.solver.passages import PassagesAnalysis, analyse


@dataclass(frozen=True, repr=False)
class PassagesVerdict(VerdictBase):
    """What twisty says of one passages level: the answers to the questions asked, each proved or
    unknown, the best route (replayed by the rules) and a second solution when there is one, and the
    [expect] claims that fail. `to_json()` is the object `check --json` prints (keys in docs/passages.md)."""

    level: PassagesLevel
    path: str
    outcome: Outcome
    final_hp: int | None
    proved: bool
    final_hp_at_most: int | None  # a relaxation's cap on the best final hp when it is not proved
    min_start_hp: int | None
    min_start_hp_status: str  # proved, none (no starting hp wins), unknown or "not asked"
    solutions: int | None  # distinct solutions, exact (None when not known)
    solutions_capped: bool  # the count stopped at --max-solutions
    optimal_solutions: int | None
    solutions_at_least: int | None  # a count cut short by a limit: how many it had found
    unique: bool | None
    route: Replay | None
    second_route: Replay | None
    engines: Mapping[str, str]
    skipped_engines: Mapping[str, str]  # engines `auto` passed over, with the reason (tower features)
    seconds: float
    limit: str  # what an undecided answer ran into: "time" or "memory"
    questions: frozenset[str]
    expect_failures: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "level": self.path,
            "game": "passages",
            "name": self.level.name,
            "valid": True,
            "errors": [],
            "solvable": self.solvable,
            "final_hp": self.final_hp,
            "proved": self.proved,
            "final_hp_at_most": self.final_hp_at_most,
            "min_start_hp": self.min_start_hp,
            "min_start_hp_status": self.min_start_hp_status,
            "solutions": self.solutions,
            "solutions_capped": self.solutions_capped,
            "optimal_solutions": self.optimal_solutions,
            "solutions_at_least": self.solutions_at_least,
            "unique": self.unique,
            "route": route_json(self.level, self.route),
            "second_route": route_json(self.level, self.second_route),
            "engine": dict(self.engines),
            "skipped_engines": dict(self.skipped_engines),
            "seconds": round(self.seconds, 3),
            "limit": self.limit,
            "questions": sorted(self.questions),
            "expected_solvable": self.level.expect.solvable,
            "expect_failures": list(self.expect_failures),
        }
        return data

    def summary(self) -> str:
        return summary_line(self.to_json())

    def details(self) -> list[str]:
        """The lines under the summary: failed claims, and the better route when one beats the claim."""
        details = list(self.expect_failures)
        claimed = self.level.expect.final_hp
        if self.expect_failures and self.route is not None and self.final_hp and claimed and self.final_hp > claimed:
            details += ["the better route:"] + ["  " + line for line in walkthrough(self.level, self.route)]
        return details


def route_json(level: PassagesLevel, route: Replay | None) -> list[dict[str, Any]] | None:
    """The steps of a route as `check --json` gives them. On a tower each step also names its floor, and
    `at` is the place on that floor."""
    if route is None:
        return None
    steps = []
    for step in route.steps:
        data = step.as_json()
        if level.floors:
            floor, at = level.floor_of(step.at)
            data["floor"], data["at"] = floor, list(at)
        steps.append(data)
    return steps


def verdict_of(level: PassagesLevel, path: str, analysis: PassagesAnalysis) -> PassagesVerdict:
    """The public verdict of an analysis (twisty.solver.passages.analyse), its claims compared."""
    count = analysis.count
    exact = count if count is not None and count.complete else None
    solvable = analysis.solvable
    second = analysis.second_solution
    fields: dict[str, Any] = dict(
        level=level,
        path=path,
        outcome=Outcome.of(solvable),
        final_hp=analysis.best.final_hp,
        proved=analysis.best.proved,
        final_hp_at_most=analysis.best.at_most,
        min_start_hp=analysis.min_start.value if analysis.min_start.status == "proved" else None,
        min_start_hp_status=analysis.min_start.status if "min-hp" in analysis.questions else "not asked",
        solutions=(exact.solutions if exact else None) if solvable else (0 if solvable is False else None),
        solutions_capped=bool(exact.capped) if exact else False,
        optimal_solutions=(exact.optimal if exact else None) if solvable else (0 if solvable is False else None),
        solutions_at_least=count.solutions if solvable and count is not None and not count.complete else None,
        unique=analysis.unique,
        route=analysis.route,
        second_route=second,
        engines=MappingProxyType(dict(analysis.engines)),
        skipped_engines=MappingProxyType(dict(analysis.skipped)),
        seconds=analysis.seconds,
        limit="memory" if analysis.out_of_memory else "time",
        questions=analysis.questions,
        expect_failures=(),
    )
    unchecked = PassagesVerdict(**fields)
    fields["expect_failures"] = tuple(expectation_failures(level.expect, unchecked.to_json()))
    return PassagesVerdict(**fields)


# The question that decides each [expect] claim: a claim whose question was not asked is not checked.
CLAIM_QUESTIONS = {
    "solvable": "route",
    "final_hp": "route",
    "min_start_hp": "min-hp",
    "unique": "count",
    "solutions": "count",
    "optimal_solutions": "count",
}


def expectation_failures(expect: Expectations, data: dict[str, Any]) -> list[str]:
    """One line per [expect] claim that does not hold; an undecided answer fails its claim too (twisty.claims).
    Counting answers whether the level is solvable too, so a route claim is checked when counting was asked."""
    asked = set(data["questions"]) | ({"route"} if "count" in data["questions"] else set())
    claims = Claims(asked=asked, within=f"{data['limit']} limit", questions=CLAIM_QUESTIONS)
    claims.compare("solvable", expect.solvable, data["solvable"], decided=data["solvable"] is not None)
    final_hp = claims.made("final_hp", expect.final_hp)
    if final_hp is not None and data["solvable"] and data["proved"] and data["final_hp"] > final_hp:
        better = f"a better solution than the designer's reaches the goal with {data['final_hp']} hp (see its route)"
        claims.fail("final_hp", final_hp, better)
    else:
        claims.compare("final_hp", expect.final_hp, data["final_hp"], decided=data["proved"])
    if claims.made("min_start_hp", expect.min_start_hp) is not None and data["min_start_hp_status"] == "none":
        claims.fail("min_start_hp", expect.min_start_hp, "no starting hp solves the level")
    else:
        decided = data["min_start_hp_status"] != "unknown"
        claims.compare("min_start_hp", expect.min_start_hp, data["min_start_hp"], decided=decided)
    counted = data["solutions"] is not None
    claims.compare("unique", expect.unique, data["unique"], decided=data["unique"] is not None)
    if claims.made("solutions", expect.solutions) is not None and data["solutions_capped"]:
        more = f"there are more than {data['solutions']} (raise --max-solutions)"
        claims.fail("solutions", expect.solutions, more)
    else:
        claims.compare("solutions", expect.solutions, data["solutions"], decided=counted)
    claims.compare("optimal_solutions", expect.optimal_solutions, data["optimal_solutions"], decided=counted)
    return claims.failures


def summary_line(data: dict[str, Any]) -> str:
    """The one line `check` prints for a level, after its status word (twisty.checking.level_status)."""
    parts = []
    if "route" in data["questions"] or "count" in data["questions"]:
        if data["solvable"] is None:
            cap = data.get("final_hp_at_most")
            parts.append(f"unknown ({data['limit']} limit)" + ("" if cap is None else f", final hp at most {cap}"))
        elif not data["solvable"]:
            parts.append("unsolvable (proved)")
        else:
            proof = "proved optimal" if data["proved"] else "not proved optimal"
            if not data["proved"] and data.get("final_hp_at_most") is not None:
                proof += f", at most {data['final_hp_at_most']}"
            parts.append(f"solvable, final hp {data['final_hp']} ({proof})")
    if data["min_start_hp_status"] == "proved":
        parts.append(f"min start hp {data['min_start_hp']}")
    elif data["min_start_hp_status"] == "unknown":
        parts.append(f"min start hp unknown ({data['limit']} limit)")
    elif data["min_start_hp_status"] == "none":
        parts.append("no starting hp suffices")
    if data["solutions"] is not None and data["solvable"] and data["solutions"] == 1 and data["solutions_capped"]:
        parts.append("not unique (2+ solutions)")  # the uniqueness question: it stops at the second
    elif data["solutions"] is not None and data["solvable"]:
        more = "+" if data["solutions_capped"] else ""
        parts.append(
            f"{data['solutions']}{more} solution{'s' if data['solutions'] != 1 else ''}"
            f" ({'unique' if data['unique'] else str(data['optimal_solutions']) + ' optimal'})"
        )
    elif data["solutions_at_least"] is not None:
        found = data["solutions_at_least"]
        parts.append(f"solution count unknown ({data['limit']} limit" + (f", {found} found so far)" if found else ")"))
    engines = "/".join(sorted(set(data["engine"].values())))
    return f"{summary_start(data)}{', '.join(parts)}  [{engines}, {data['seconds']:.2f}s]"


def solutions_to_count(level: PassagesLevel, asked: int | None) -> int:
    """The cap of the solution count: `--max-solutions` when given; else only as far as the level's claims
    need: 1 (uniqueness: the count stops at the second signature, which is the witness), or N for an
    [expect] solutions = N or optimal_solutions = N claim (an exact count of N needs N + 1 looked for)."""
    if asked is not None:
        return asked
    claims = (level.expect.solutions, level.expect.optimal_solutions)
    return max([1] + [claim for claim in claims if claim is not None])


def check(level: Level, options: CheckOptions) -> PassagesVerdict:
    model = level.model
    analysis = analyse(
        model,
        options.deadline,
        engine=options.engine,
        max_solutions=solutions_to_count(model, options.max_solutions),
        questions=options.questions,
        progress=options.progress,
    )
    return verdict_of(model, level.path, analysis)


def solve_text(verdict: PassagesVerdict) -> str:
    """The walkthrough `twisty solve` prints: the summary, each step with the stats after it, the map with
    the route drawn, the legend, and a second solution when the level is not unique."""
    level = verdict.level
    lines = [f"{level.name or verdict.path}", ""]
    if level.description:
        lines += [level.description, ""]
    lines.append(verdict.summary())
    if verdict.route is not None:
        lines += ["", "Walkthrough:"] + walkthrough(level, verdict.route)
        lines += ["", "Map (* walked, numbers/letters = steps):"] + [
            "  " + row for row in route_map(level, verdict.route)
        ]
    else:
        lines += ["", "Map:"] + ["  " + row for row in level.grid]
    lines += ["", "Legend:"] + legend_lines(level)
    second = verdict.second_route
    if second is not None:
        lines += ["", f"Not unique: a second solution reaches the goal with {second.final_hp} hp:"]
        lines += walkthrough(level, second)
    return "\n".join(lines)
