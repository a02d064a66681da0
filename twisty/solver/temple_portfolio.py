"""The Temple Twist portfolio: pick an engine from the registry, ask it the questions asked, replay every
plan it reports with the plain rules (twisty.rules.temple.replayer) before it reaches a verdict.

A plan that does not replay, that does not win exactly at its last turn, whose temple states differ from
the engine's own account, or a "second" plan whose states are the first's, raises EngineBug and is never
shown. Cross-checks between answers raise EngineBug too: a bounce-safe plan shorter than the fewest turns,
or more pooled turns than turns in seat order (a plan in seat order is a pooled plan).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from twisty.errors import EngineBug
from twisty.games import GAMES
from twisty.limits import Deadline
from twisty.rules.temple.model import Round, TempleState
from twisty.rules.temple.replayer import PlanError, PlanTurn, Replay, replay
from twisty.solver.temple_answers import (
    FOUND,
    NONE,
    SOLVABLE,
    UNKNOWN,
    UNSOLVABLE,
    PlanAnswer,
    SecondAnswer,
    run_steps,
)

GAME = GAMES["temple"]


def engine_module(name: str) -> ModuleType:
    """The module of the temple engine called `name` in the registry ("auto": the one auto picks; a name
    of another game's engine stays on auto)."""
    return GAME.checking_engine(name).load()


@dataclass(frozen=True)
class TempleAnalysis:
    """The answers, each proved or unknown (None where not asked or undecided), with replayed plans."""

    questions: frozenset[str]
    engine: str
    solvable: bool | None
    plan: Replay | None
    unique: bool | None
    second_plan: Replay | None
    bounce_safe: bool | None
    bounce_plan: Replay | None
    pooled_solvable: bool | None
    pooled_plan: Replay | None
    seconds: float
    out_of_memory: bool

    @property
    def turns(self) -> int | None:
        return None if self.plan is None else len(self.plan.records)

    @property
    def bounce_safe_turns(self) -> int | None:
        return None if self.bounce_plan is None else len(self.bounce_plan.records)

    @property
    def pooled_turns(self) -> int | None:
        return None if self.pooled_plan is None else len(self.pooled_plan.records)


def checked(
    round_: Round,
    plan: tuple[PlanTurn, ...] | None,
    states: tuple[TempleState, ...] | None,
    engine: str,
    what: str,
    *,
    pooled: bool = False,
) -> Replay:
    """A reported plan replayed by the rules: it must win at its last turn, through the states the engine
    says."""
    if plan is None:
        raise EngineBug(f"engine {engine} reported a {what} without its turns")
    try:
        replayed = replay(round_, plan, pooled=pooled)
    except PlanError as error:
        raise EngineBug(f"engine {engine} reported a {what} that does not replay: {error}") from None
    if not replayed.won:
        raise EngineBug(f"engine {engine} reported a {what} that does not win at its last turn")
    if states is not None and replayed.states != states:
        raise EngineBug(f"engine {engine} reported a {what} whose temple states the rules do not reach")
    return replayed


def _outcome(answer: PlanAnswer) -> bool | None:
    return {SOLVABLE: True, UNSOLVABLE: False}.get(answer.status)


def analyse(
    round_: Round,
    deadline: Deadline,
    *,
    engine: str = "auto",
    questions: frozenset[str] | None = None,
    progress: Callable[[str], None] | None = None,
) -> TempleAnalysis:
    """Answer the questions asked (None: all; names of other games' questions are ignored) within the
    level's one deadline. "unique" needs the fewest turns, so it answers "win" too."""
    return analyse_with(round_, deadline, engine_module(engine), questions=questions, progress=progress)


def analyse_with(
    round_: Round,
    deadline: Deadline,
    module: ModuleType,
    *,
    questions: frozenset[str] | None = None,
    progress: Callable[[str], None] | None = None,
) -> TempleAnalysis:
    """analyse() with an engine module given (one that follows twisty.solver.temple_answers' contract).

    What one question proves serves the next: the fewest turns are where the uniqueness search looks, where
    the bounce-safe search starts (no bounce-safe plan is shorter) and how far the pooled search goes (a plan
    in seat order is a pooled plan). The pooled question, bounded by the fewest turns, is asked before the
    bounce-safe one, which is not bounded (a bounce-safe plan may be much longer than the shortest plan, or
    there may be none to the last card): a round whose bounce-safe question takes the time left still has
    its pooled answer."""
    started = time.perf_counter()
    name = module.NAME
    asked = frozenset(GAME.question_names) if questions is None else questions & set(GAME.question_names)
    if "unique" in asked:
        asked |= {"win"}
    tell = progress or (lambda phase: None)
    solvable = unique = bounce_safe = pooled_solvable = None
    plan = second = bounce_plan = pooled_plan = None
    first: PlanAnswer | None = None
    engine = module.solver(round_, deadline)
    try:
        if "win" in asked:
            tell("fewest turns")
            first = run_steps(engine.fewest(), deadline, PlanAnswer)
            solvable = _outcome(first)
            if first.status == SOLVABLE:
                plan = checked(round_, first.plan, first.states, name, "plan")
        if "unique" in asked and first is not None:
            if first.status == UNSOLVABLE:
                unique = False  # "for an unwinnable round `unique` is false"
            elif first.status == SOLVABLE:
                tell("uniqueness")
                other = run_steps(engine.second(first), deadline, SecondAnswer)
                if other.status == FOUND:
                    second = checked(round_, other.plan, other.states, name, "second plan")
                    if plan is None or len(second.records) != len(plan.records) or second.states == plan.states:
                        raise EngineBug(f"engine {name} reported a second plan that is not another shortest plan")
                    unique = False
                elif other.status == NONE:
                    unique = True
        if "pooled" in asked:
            tell("pooled turns")
            at_most = None if plan is None else len(plan.records)
            pooled = run_steps(engine.pooled(at_most=at_most), deadline, PlanAnswer)
            pooled_solvable = _outcome(pooled)
            if pooled.status == SOLVABLE:
                pooled_plan = checked(round_, pooled.plan, pooled.states, name, "pooled plan", pooled=True)
                if plan is not None and len(pooled_plan.records) > len(plan.records):
                    raise EngineBug(f"engine {name} needs more turns with all cards pooled than in seat order")
            elif pooled.status == UNSOLVABLE and solvable:
                raise EngineBug(f"engine {name} says the pooled round cannot be won, but the round can")
        if "bounce" in asked:
            bounce_safe, bounce_plan = _bounce(round_, deadline, engine, name, first, plan)
    finally:
        engine.close()
    return TempleAnalysis(
        asked,
        name,
        solvable,
        plan,
        unique,
        second,
        bounce_safe,
        bounce_plan,
        pooled_solvable,
        pooled_plan,
        time.perf_counter() - started,
        deadline.out_of_memory,
    )


def _bounce(
    round_: Round, deadline: Deadline, engine: Any, name: str, first: PlanAnswer | None, plan: Replay | None
) -> tuple[bool | None, Replay | None]:
    """The shortest bounce-safe plan: "no fall (gets-going falls included) longer than `bounce` rooms, same
    seats, hands and swap". No shorter than the fewest turns, so a shortest plan that is bounce-safe is one,
    and an unwinnable round has none."""
    if plan is not None and plan.bounce_safe:
        return True, plan
    if first is not None and first.status == UNSOLVABLE:
        return False, None
    at_least = len(plan.records) if plan is not None else 1
    answer = run_steps(engine.fewest(bounce_safe=True, at_least=at_least), deadline, PlanAnswer)
    if answer.status != SOLVABLE:
        return _outcome(answer), None
    safe = checked(round_, answer.plan, answer.states, name, "bounce-safe plan")
    if not safe.bounce_safe:
        raise EngineBug(f"engine {name} reported a bounce-safe plan with a fall longer than {round_.bounce}")
    if plan is not None and len(safe.records) < len(plan.records):
        raise EngineBug(f"engine {name} found a bounce-safe plan shorter than the fewest turns")
    return True, safe


__all__ = ["UNKNOWN", "TempleAnalysis", "analyse", "checked", "engine_module"]
