"""The claim comparison every game shares: a level's [expect] claims held against the answers its check found,
one line per claim that does not hold, in the same words for every game (docs/contributing.md, "The engine
contract").

A claim whose question was not asked is not checked; a claim whose answer a limit left undecided fails,
naming the limit; any other claim fails when the answer differs, saying what the answer is. Each game adds
only the messages that say more than "it is X" (a better route than the designer's, a count past the cap).

Base layer: nothing here imports anything of twisty's, so every game's checker may use it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any


def toml_word(value: Any) -> str:
    """A value as the level file writes it: true / false, a number, or "none" for an answer there is not."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "none" if value is None else str(value)


class Claims:
    """The claims of one level compared one by one; `failures` holds a line per claim that fails.

    `asked`: the questions the check answered; `questions`: the question that decides each claim (a claim
    not named there is always checked); `within`: what an undecided answer ran into, as the message ends
    ("time limit", "memory limit", "step cap")."""

    def __init__(self, *, asked: Iterable[str], within: str, questions: Mapping[str, str] | None = None) -> None:
        self.asked = frozenset(asked)
        self.within = within
        self.questions = dict(questions or {})
        self.failures: list[str] = []

    def made(self, key: str, claimed: Any) -> Any:
        """The claim when the level makes it and its question was asked, else None (not checked)."""
        question = self.questions.get(key)
        return claimed if question is None or question in self.asked else None

    def compare(self, key: str, claimed: Any, actual: Any, *, decided: bool = True, none_means: str = "") -> None:
        """Hold one claim against the answer: it fails when the answer is undecided, when there is no answer
        (`none_means` says why, as "the round cannot be won"), or when the answer differs."""
        claimed = self.made(key, claimed)
        if claimed is None:
            return
        if not decided:
            self.undecided(key, claimed)
        elif actual is None and none_means:
            self.fail(key, claimed, none_means)
        elif actual != claimed:
            self.fail(key, claimed, f"it is {toml_word(actual)}")

    def undecided(self, key: str, claimed: Any, what: str = "it") -> None:
        """The claim fails because a limit left its answer undecided (`what`: the answer, as "the shortest walk")."""
        self.fail(key, claimed, f"{what} could not be decided within the {self.within}")

    def fail(self, key: str, claimed: Any, why: str) -> None:
        """The claim fails, `why` said after "but"."""
        self.failures.append(f"{key}: claimed {toml_word(claimed)}, but {why}")
