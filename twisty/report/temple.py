"""`twisty check` and `twisty solve` for Temple Twist rounds: the public verdict, the [expect] claims
compared, the summary line and the plan with a drawing of the temple after each turn."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from twisty.checking import CheckOptions, Outcome, VerdictBase, level_status, summary_start
from twisty.claims import Claims
from twisty.render.temple import drawing
from twisty.rules.level import Level
from twisty.rules.temple.model import SIDES, Expectations, Round
from twisty.rules.temple.replayer import Replay
from twisty.rules.temple.semantics import describe_action, max_turns
from twisty.solver.temple_portfolio import TempleAnalysis, analyse


@dataclass(frozen=True, repr=False)
class TempleVerdict(VerdictBase):
    """What twisty says of one round: each answer proved or unknown (None), the plans replayed by the rules,
    and the [expect] claims that fail. `to_json()` is what `check --json` prints (keys in docs/temple.md)."""

    round: Round
    path: str
    outcome: Outcome
    turns: int | None
    plan: Replay | None
    unique: bool | None
    second_plan: Replay | None
    bounce_safe: bool | None
    bounce_safe_turns: int | None
    bounce_plan: Replay | None
    pooled_solvable: bool | None
    pooled_turns: int | None
    engine: str
    seconds: float
    limit: str  # what an undecided answer ran into: "time" or "memory"
    questions: frozenset[str]
    expect_failures: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "level": self.path,
            "game": "temple",
            "name": self.round.name,
            "valid": True,
            "errors": [],
            "solvable": self.solvable,
            "turns": self.turns,
            "unique": self.unique,
            "plan": self.plan.as_json() if self.plan else None,
            "second_plan": self.second_plan.as_json() if self.second_plan else None,
            "bounce_safe": self.bounce_safe,
            "bounce_safe_turns": self.bounce_safe_turns,
            "bounce_safe_plan": self.bounce_plan.as_json() if self.bounce_plan else None,
            "pooled_solvable": self.pooled_solvable,
            "pooled_turns": self.pooled_turns,
            "most_turns": max_turns(self.round),
            "questions": sorted(self.questions),
            "engine": self.engine,
            "seconds": round(self.seconds, 3),
            "limit": self.limit,
            "expected_solvable": self.round.expect.solvable,
            "expect_failures": list(self.expect_failures),
        }
        data["status"] = level_status(data)
        return data

    def summary(self) -> str:
        return summary_line(self.to_json())

    def details(self) -> list[str]:
        """The lines under the summary: the failed claims, and the plan that refutes a claim of more turns."""
        details = list(self.expect_failures)
        claimed = self.round.expect.turns
        if (
            self.expect_failures
            and self.plan is not None
            and claimed is not None
            and self.turns is not None
            and self.turns < claimed
        ):
            details += ["a shorter plan:"] + ["  " + line for line in plan_lines(self.round, self.plan)]
        return details


def verdict_of(round_: Round, path: str, analysis: TempleAnalysis) -> TempleVerdict:
    """The public verdict of an analysis, its claims compared."""
    fields: dict[str, Any] = {
        "round": round_,
        "path": path,
        "outcome": Outcome.of(analysis.solvable),
        "turns": analysis.turns,
        "plan": analysis.plan,
        "unique": analysis.unique,
        "second_plan": analysis.second_plan,
        "bounce_safe": analysis.bounce_safe,
        "bounce_safe_turns": analysis.bounce_safe_turns,
        "bounce_plan": analysis.bounce_plan,
        "pooled_solvable": analysis.pooled_solvable,
        "pooled_turns": analysis.pooled_turns,
        "engine": analysis.engine,
        "seconds": analysis.seconds,
        "limit": "memory" if analysis.out_of_memory else "time",
        "questions": analysis.questions,
        "expect_failures": (),
    }
    unchecked = TempleVerdict(**fields)
    fields["expect_failures"] = tuple(expectation_failures(round_.expect, unchecked.to_json()))
    return TempleVerdict(**fields)


# The question that decides each [expect] claim: a claim whose question was not asked is not checked.
CLAIM_QUESTIONS = {
    "solvable": "win",
    "turns": "win",
    "unique": "unique",
    "bounce_safe": "bounce",
    "bounce_safe_turns": "bounce",
    "pooled_solvable": "pooled",
    "pooled_turns": "pooled",
}


def expectation_failures(expect: Expectations, data: dict[str, Any]) -> list[str]:
    """One line per [expect] claim that does not hold; an undecided answer fails its claim too (twisty.claims)."""
    claims = Claims(asked=data["questions"], within=f"{data['limit']} limit", questions=CLAIM_QUESTIONS)
    solvable, bounce, pooled = data["solvable"], data["bounce_safe"], data["pooled_solvable"]
    claims.compare("solvable", expect.solvable, solvable, decided=solvable is not None)
    claims.compare(
        "turns", expect.turns, data["turns"], decided=solvable is not None, none_means="the round cannot be won"
    )
    claims.compare("unique", expect.unique, data["unique"], decided=data["unique"] is not None)
    claims.compare("bounce_safe", expect.bounce_safe, bounce, decided=bounce is not None)
    claims.compare(
        "bounce_safe_turns",
        expect.bounce_safe_turns,
        data["bounce_safe_turns"],
        decided=bounce is not None,
        none_means="no plan is bounce-safe",
    )
    claims.compare("pooled_solvable", expect.pooled_solvable, pooled, decided=pooled is not None)
    claims.compare(
        "pooled_turns",
        expect.pooled_turns,
        data["pooled_turns"],
        decided=pooled is not None,
        none_means="the round cannot be won even with all cards pooled",
    )
    return claims.failures


def summary_line(data: dict[str, Any]) -> str:
    """The one line `check` prints for a round, after its status word (twisty.checking.level_status)."""
    parts = []
    limit = data["limit"]
    asked = set(data["questions"])
    if "win" in asked:
        if data["solvable"] is None:
            parts.append(f"unknown ({limit} limit)")
        elif not data["solvable"]:
            parts.append("unwinnable (proved)")
        else:
            parts.append(f"won in {data['turns']} turn{'s' if data['turns'] != 1 else ''} (proved fewest)")
    if "unique" in asked and data["solvable"]:
        parts.append({True: "unique", False: "not unique", None: f"uniqueness unknown ({limit} limit)"}[data["unique"]])
    if "bounce" in asked:
        parts.append(
            f"bounce-safe in {data['bounce_safe_turns']}"
            if data["bounce_safe"]
            else "no bounce-safe plan"
            if data["bounce_safe"] is False
            else f"bounce-safe unknown ({limit} limit)"
        )
    if "pooled" in asked:
        parts.append(
            f"pooled {data['pooled_turns']}"
            if data["pooled_solvable"]
            else "pooled unwinnable"
            if data["pooled_solvable"] is False
            else f"pooled unknown ({limit} limit)"
        )
    return f"{summary_start(data)}{', '.join(parts) or 'nothing asked'}  [{data['engine']}, {data['seconds']:.2f}s]"


def check(level: Level, options: CheckOptions) -> TempleVerdict:
    round_ = level.model
    analysis = analyse(
        round_, options.deadline, engine=options.engine, questions=options.questions, progress=options.progress
    )
    return verdict_of(round_, level.path, analysis)


def round_lines(round_: Round) -> list[str]:
    """The round's setup in words."""
    temple = round_.temple
    names = temple.names
    revealed = ", ".join(names[room] for room in round_.revealed) or "none"
    door = f"{round_.door.name} ({names[round_.door.room]}, {SIDES[round_.door.side]} side)"
    lines = [f"temple: {temple.name} ({temple.rows} x {temple.cols} rooms); revealed rooms: {revealed}; door: {door}"]
    for seat, hand in enumerate(round_.hands):
        torch = " (torch: plays first)" if seat == round_.torch - 1 else ""
        lines.append(f"player {seat + 1}{torch}: {', '.join(hand) or 'no cards'}")
    challenges = round_.challenges
    named = []
    if challenges.no_entry is not None:
        named.append(f"No entry ({names[challenges.no_entry]})")
    if challenges.in_order:
        named.append("Always in order")
    if challenges.secret is not None:
        named.append(f"Secret mission ({names[challenges.secret]})")
    if challenges.gets_going is not None:
        named.append(f"Now it gets going ({challenges.gets_going})")
    named += [name.replace("_", " ").capitalize() + " (no effect)" for name in challenges.cosmetic]
    lines.append(
        f"challenges: {', '.join(named) or 'none'}; swap token: {'yes' if round_.swap else 'no'}; "
        f"bounce limit: {round_.bounce}"
    )
    return lines


def plan_lines(round_: Round, plan: Replay, pictures: bool = False) -> list[str]:
    """A plan turn by turn: who plays what, the die's path, and (with pictures) the temple after it."""
    temple = round_.temple
    lines = []
    for record in plan.records:
        turn = record.turn
        who = "pool" if turn.player is None else f"player {turn.player + 1}"
        swap = (
            ""
            if turn.swap is None
            else f" (first swaps a {turn.swap.gave} for player {turn.swap.other + 1}'s {turn.swap.got})"
        )
        path = [temple.names[record.falls[0].start]] if record.falls else []
        for dropped in record.falls:
            path += [temple.names[room] for room in dropped.path]
        moved = f"; die: {' > '.join(path)}" if len(path) > 1 else ""
        notes = []
        if record.explored_room is not None:
            notes.append(f"explores {temple.names[record.explored_room]}")
        if record.may_bounce:
            notes.append(f"may bounce (a fall of more than {round_.bounce} rooms)")
        if record.won:
            notes.append("WON")
        note = f" [{'; '.join(notes)}]" if notes else ""
        going = (
            ""
            if round_.challenges.gets_going is None
            else f", then the temple turns {round_.challenges.gets_going} by itself"
        )
        lines.append(
            f"{record.number}. {who}{swap} plays {turn.card}: "
            f"{describe_action(temple, turn.card, turn.action)}{going}{moved}{note}"
        )
        if pictures:
            lines += ["     " + line for line in drawing(round_, record.state)]
    return lines


def solve_text(verdict: TempleVerdict) -> str:
    """What `twisty solve` prints: the round, the summary, the plan with a drawing after each turn, and the
    second plan, the bounce-safe plan and the pooled turns where they add something."""
    round_ = verdict.round
    lines = [round_.name or verdict.path, ""]
    if round_.description:
        lines += [round_.description, ""]
    lines += round_lines(round_) + ["", "At the start (as seen, the down side at the bottom):"]
    lines += ["  " + line for line in drawing(round_)]
    lines += ["", verdict.summary()]
    if verdict.plan is not None:
        lines += ["", "Plan:"] + plan_lines(round_, verdict.plan, pictures=True)
    if verdict.second_plan is not None:
        lines += ["", "Not unique: another plan as short, through other temple states:"]
        lines += plan_lines(round_, verdict.second_plan)
    if verdict.bounce_plan is not None and verdict.bounce_plan is not verdict.plan:
        lines += ["", f"The shortest bounce-safe plan ({verdict.bounce_safe_turns} turns):"]
        lines += plan_lines(round_, verdict.bounce_plan)
    return "\n".join(lines)
