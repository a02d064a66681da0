"""The passages portfolio: pick an engine, ask it the three questions, replay every answer.

Engines follow the contract of twisty.solver.passages_verdict. Whatever an engine reports is replayed by
the plain rules (twisty.rules.passages.replay) before it reaches a verdict: a route that does not replay,
or whose replayed hp differs from the engine's claim, raises EngineBug and is never printed.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from types import ModuleType

from twisty.errors import EngineBug
from twisty.games import GAMES
from twisty.limits import cycle_collection_paused
from twisty.rules.passages import Decision, PassagesLevel, Replay, RouteError, replay
from twisty.solver.passages_reduce import free_fights_removed, restore
from twisty.solver.passages_relax import best_route_relaxed_first
from twisty.solver.passages_verdict import SOLVABLE, UNKNOWN, UNSOLVABLE, BestRoute, Deadline, MinStartHp, SolutionCount

GAME = GAMES["passages"]


def engine_module(name: str, features: frozenset[str] = frozenset()) -> ModuleType:
    """The module of the passages engine called `name` in the registry ("auto": the one auto picks) for a
    level with these tower features (a UsageError when that engine does not answer them)."""
    return GAME.chosen_engine(name, features).load()


def choose_engines(level: PassagesLevel, requested: str) -> dict[str, ModuleType]:
    """Which engine answers which question.

    `auto` is the first available engine of the registry's `auto` list, the search engine, for all three
    questions: on the shipped puzzles and the benchmark suite it is the fastest at every size
    (docs/bench-passages.md), and its counting engine (passages_count: one walk per signature, with one
    first-win search of the core from all the walk's deviations) decides uniqueness on every solvable suite
    level and counts to 10 where CP-SAT's solve-and-block took 17.7 s on b020-03 (9 solutions) and did not
    finish on b020-04 in 20 s (docs/bench-passages.md, "Counting"). CP-SAT stays the independent second engine:
    `--engine cpsat`, and the differential tests that hold the two to the same answers. An explicit engine
    answers everything. By level features, the search engine itself picks how to find the best route:
    from 40 blockers on it races two configurations of its compiled search, one per core
    (passages_search.best_route, docs/passages.md).
    """
    module = engine_module(requested if requested in GAME.engine_names() else "auto", level.features)
    return {"best": module, "min_start": module, "count": module}


@dataclass
class PassagesAnalysis:
    best: BestRoute
    min_start: MinStartHp
    count: SolutionCount | None
    route: Replay | None
    witnesses: list[Replay] = field(default_factory=list)
    engines: dict[str, str] = field(default_factory=dict)
    # The engines `auto` passed over for this level, each with the reason (a tower feature it does not answer).
    skipped: dict[str, str] = field(default_factory=dict)
    seconds: float = 0.0
    out_of_memory: bool = False  # the memory budget, not the time limit, stopped an unfinished answer
    questions: frozenset[str] = frozenset({"route", "min-hp", "count"})

    @property
    def solvable(self) -> bool | None:
        return {SOLVABLE: True, UNSOLVABLE: False}.get(self.best.status)

    @property
    def unique(self) -> bool | None:
        if self.solvable is False:
            return False
        if self.count is None or not self.count.complete:
            return None
        return self.count.solutions == 1 and not self.count.capped

    @property
    def second_solution(self) -> Replay | None:
        return self.witnesses[1] if len(self.witnesses) > 1 else None


def checked_replay(
    level: PassagesLevel, decisions: tuple[Decision, ...], engine: str, claimed_hp: int | None = None
) -> Replay:
    try:
        result = replay(level, decisions)
    except RouteError as error:
        raise EngineBug(f"engine {engine} reported a route that does not replay: {error}") from None
    if claimed_hp is not None and result.final_hp != claimed_hp:
        raise EngineBug(f"engine {engine} claimed final hp {claimed_hp}, the replay reaches {result.final_hp}")
    return result


def analyse(
    level: PassagesLevel,
    deadline: Deadline,
    *,
    engine: str = "auto",
    max_solutions: int = 10,
    questions: frozenset[str] | None = None,
    progress: Callable[[str], None] | None = None,
) -> PassagesAnalysis:
    """Solvability, the best route, the smallest starting hp and the solution count of one level, within
    the level's one deadline. `questions` (None: all) picks among "route", "min-hp" and "count"; counting
    needs the proven best hp, so it answers "route" too. `progress` is told each question as its work
    starts ("best route", "least starting hp", "counting solutions"): on large levels each can take
    minutes. Python's full cyclic collections are paused throughout (twisty.limits.cycle_collection_paused),
    and a question that comes up after the deadline is not started: each step shares the one deadline."""
    with cycle_collection_paused():
        return _analyse(level, deadline, engine, max_solutions, questions, progress)


def _analyse(
    level: PassagesLevel,
    deadline: Deadline,
    engine: str,
    max_solutions: int,
    questions: frozenset[str] | None,
    progress: Callable[[str], None] | None,
) -> PassagesAnalysis:
    started = time.perf_counter()
    engines = choose_engines(level, engine)
    asked = frozenset(GAME.question_names) if questions is None else questions & set(GAME.question_names)
    tell = progress or (lambda phase: None)
    best = BestRoute(UNKNOWN)
    route = None
    if "route" in asked or "count" in asked:
        tell("best route")
        if level.features:
            # A tower: its fights that never cost anything taken out (passages_reduce, exact), then the
            # doors-open relaxation first (passages_relax), which can settle it at once.
            reduced = free_fights_removed(level)
            searched = level if reduced is None else reduced.level
            best = best_route_relaxed_first(searched, deadline, engines["best"].best_route)
            if reduced is not None and best.decisions is not None:
                best = replace(best, decisions=restore(level, reduced, best.decisions))
        else:
            best = engines["best"].best_route(level, deadline)
        if best.decisions is not None:
            route = checked_replay(level, best.decisions, engines["best"].NAME, best.final_hp)
    min_start = MinStartHp(UNKNOWN)
    if "min-hp" in asked and not deadline.expired():
        tell("least starting hp")
        min_start = engines["min_start"].min_start_hp(level, deadline)
        if min_start.status == "proved" and min_start.value is not None:
            _confirm_min_start(level, min_start, engines["min_start"].NAME, deadline)
    tally = None
    witnesses: list[Replay] = []
    if "count" in asked and best.status == SOLVABLE and best.proved and not deadline.expired():
        tell("counting solutions")
        tally = engines["count"].count_solutions(level, deadline, max_solutions, best.final_hp)
        witnesses = [checked_replay(level, decisions, engines["count"].NAME) for decisions in tally.witnesses[:2]]
        signatures = {w.signature for w in witnesses}
        if len(signatures) != len(witnesses):
            raise EngineBug(f"engine {engines['count'].NAME} gave two witnesses with one signature")
    used = {question: module.NAME for question, module in engines.items()}
    skipped = GAME.skipped_engines(level.features) if engine == "auto" or engine not in GAME.engine_names() else {}
    return PassagesAnalysis(
        best,
        min_start,
        tally,
        route,
        witnesses,
        used,
        skipped,
        time.perf_counter() - started,
        deadline.out_of_memory,
        asked,
    )


def _confirm_min_start(level: PassagesLevel, least: MinStartHp, engine: str, deadline: Deadline) -> None:
    """A claimed minimal starting hp must come with a route that wins from it, replayed by the rules: the
    engine's own route when it gives one, else a best route asked of it. (That no smaller hp wins is the
    engine's proof; the differential tests cross-check it.)"""
    value = least.value
    assert value is not None
    if least.decisions is not None:
        checked_replay(level.with_start_hp(value), least.decisions, engine)
        return
    best = engine_module(engine, level.features).best_route(level.with_start_hp(value), deadline)
    if best.status == UNKNOWN:
        return
    if best.status != SOLVABLE or best.decisions is None:
        raise EngineBug(f"engine {engine} says min start hp {value}, but the level is not solvable with it")
    checked_replay(level.with_start_hp(value), best.decisions, engine, best.final_hp)
