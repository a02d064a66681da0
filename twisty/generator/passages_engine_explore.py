"""The explorer's questions answered by the search engine, for drafts too large to explore.

The generator's explorer (passages_explore) answers the draft's questions in Python within a budget of
states, which drafts of more than about 30 blockers exceed. EngineExplorer is the same explorer (its moves,
masks and replays) whose four expensive questions go to the engine the generator was handed, through the
engine's `generator_oracle` (the search engine has one: passages_search.GeneratorOracle): the least
starting life (the core's least-need search), the best route (the core's best-first search on one thread,
so that the route is the same on every run), whether a position can still win (the core's decision
search), and the winning signatures (the counting engine). Every answer is exact and independent of the
machine, so the generator stays deterministic; the oracle has no state budget, only the level's deadline,
and a level it cannot hold is explored as before.
"""

from __future__ import annotations

from typing import Any

from twisty.generator.passages_explore import Explorer, Win
from twisty.limits import Deadline
from twisty.rules.passages import Decision, PassagesLevel, Stats, replay

# From this many blockers on (the draft's own count), the generator asks the oracle instead of the explorer;
# smaller drafts keep the explorer, and so the bytes of every level made before.
ENGINE_BLOCKERS = 30
# The explorer's own work (moves and replays) is left unbounded but for the deadline.
ENGINE_BUDGET = 10**15


def explorer_for(level: PassagesLevel, budget: int, deadline: Deadline | None, oracle: Any | None) -> Explorer:
    """The explorer of a draft: the engine-backed one from ENGINE_BLOCKERS blockers on when an oracle was
    handed in, else the plain one with `budget`."""
    if oracle is not None and len(level.blockers()) >= ENGINE_BLOCKERS:
        return EngineExplorer(level, oracle, deadline)
    return Explorer(level, budget, deadline=deadline)


class EngineExplorer(Explorer):
    def __init__(self, level: PassagesLevel, oracle: Any, deadline: Deadline | None = None) -> None:
        super().__init__(level, ENGINE_BUDGET, deadline)
        self.oracle = oracle
        self.level_deadline = deadline if deadline is not None else Deadline()
        self._fits: dict[int, bool] = {}

    def _answers(self, start_hp: int) -> bool:
        """Whether the oracle holds the level from `start_hp`."""
        if start_hp not in self._fits:
            self._fits[start_hp] = self.oracle.fits(self.level, start_hp)
        return self._fits[start_hp]

    def _asked(self, question: Any, *args: Any) -> Any:
        """The oracle's answer; one cut short by the deadline stops the level (LimitReached), by memory too."""
        try:
            return question(*args, self.level_deadline)
        except MemoryError:
            self.level_deadline.check()
            raise

    def min_start_hp(self, upper: int) -> int | None:
        if not self._answers(upper):
            return super().min_start_hp(upper)
        return self._asked(self.oracle.least_start_hp, self.level)

    def best_route(self, start_hp: int) -> tuple[int, tuple[Decision, ...]] | None:
        if not self._answers(start_hp):
            return super().best_route(start_hp)
        return self._asked(self.oracle.best, self.level, start_hp)

    def can_win_from(self, mask: int, hp: int) -> bool:
        start_hp = max(self.level.player.hp, hp)
        if not self._answers(start_hp):
            return super().can_win_from(mask, hp)
        here = self.info(mask)
        reached = (mask, here.areas, sum(1 << b for b in here.frontier), -1 if here.goal is None else here.goal)
        stats = Stats(hp, here.atk, here.defense, here.keys_left)
        return self._asked(self.oracle.wins_from, self.level, start_hp, reached, stats)

    def winning_signatures(self, start_hp: int, cap: int) -> list[Win]:
        if not self._answers(start_hp):
            return super().winning_signatures(start_hp, cap)
        wins = []
        for final_hp, decisions in self._asked(self.oracle.signatures, self.level, start_hp, cap):
            doors, fights = replay(self.level.with_start_hp(start_hp), decisions).signature
            wins.append(
                Win(
                    final_hp,
                    decisions,
                    frozenset((self.number[obj], atk, defense) for obj, atk, defense in fights),
                    sum(1 << self.number[obj] for obj in doors),
                )
            )
        return sorted(wins, key=lambda win: (-win.final_hp, sorted(win.fights), win.doors))


__all__ = ["ENGINE_BLOCKERS", "EngineExplorer", "explorer_for"]
