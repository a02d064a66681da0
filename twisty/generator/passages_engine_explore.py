"""The explorer's questions answered by the compiled search engine, for drafts too large to explore.

The generator's explorer (passages_explore) answers the draft's questions in Python within a budget of
states, which drafts of more than about 30 blockers exceed. EngineExplorer is the same explorer (its moves,
masks and replays) whose four expensive questions go to the search engine instead: the least starting
life (the core's least-need search), the best route (the core's best-first search, one thread, so that the
route is the same on every run), whether a position can still win (the core's decision search), and the
winning signatures (the counting engine, passages_count: one walk per signature). Every answer is exact and
independent of the machine, so the generator stays deterministic; the engine has no state budget, only the
level's deadline.
"""

from __future__ import annotations

from typing import Any

from twisty.generator.passages_explore import Explorer, Win
from twisty.limits import Deadline
from twisty.rules.passages import Decision, PassagesLevel, Stats, replay
from twisty.solver import passages_count, passages_search
from twisty.solver.passages_reference import Position
from twisty.solver.passages_search_graph import SearchGraph
from twisty.solver.passages_verdict import UNKNOWN

# From this many blockers on, the generator asks the engine instead of the explorer (smaller drafts keep
# the explorer, and so the bytes of every level made before).
ENGINE_BLOCKERS = 30
# The explorer's own work (moves and replays) is left unbounded but for the deadline.
ENGINE_BUDGET = 10**15


class EngineExplorer(Explorer):
    def __init__(self, level: PassagesLevel, budget: int = 200_000, deadline: Deadline | None = None) -> None:
        super().__init__(level, ENGINE_BUDGET, deadline)  # the engine has no state budget, only the deadline
        self.level_deadline = deadline if deadline is not None else Deadline()
        self._graphs: dict[int, SearchGraph] = {}
        self._deciders: dict[int, Any] = {}

    def _graph(self, start_hp: int) -> SearchGraph:
        if start_hp not in self._graphs:
            self._graphs[start_hp] = SearchGraph(self.level.with_start_hp(start_hp), start_hp)
        return self._graphs[start_hp]

    def _fits(self, start_hp: int) -> bool:
        return passages_search.fits(self._graph(start_hp), start_hp)

    def _checked(self, answer: Any) -> Any:
        if self.level_deadline.expired():
            self.level_deadline.check()
        return answer

    def min_start_hp(self, upper: int) -> int | None:
        if not self._fits(upper):
            return super().min_start_hp(upper)
        least = self._checked(passages_search.min_start_hp(self.level, self.level_deadline))
        if least.status == UNKNOWN:
            self.level_deadline.check()
            raise MemoryError("the least starting life was not decided")
        return least.value if least.status == "proved" else None

    def best_route(self, start_hp: int) -> tuple[int, tuple[Decision, ...]] | None:
        if not self._fits(start_hp):
            return super().best_route(start_hp)
        sg = self._graph(start_hp)
        found = self._checked(passages_search.search(sg, start_hp, self.level_deadline))
        if not found.complete:
            self.level_deadline.check()
            raise MemoryError("the best route was not proved")
        return None if found.best_hp is None else (found.best_hp, found.route)

    def can_win_from(self, mask: int, hp: int) -> bool:
        start_hp = self.level.player.hp
        if not self._fits(max(start_hp, hp)):
            return super().can_win_from(mask, hp)
        sg = self._graph(max(start_hp, hp))
        if 1 not in self._deciders:
            self._deciders[1] = passages_search._passages_core.Decider(sg.compiled_graph(), 1, False)
        here = self.info(mask)
        at = Position(
            mask,
            here.areas,
            sum(1 << b for b in here.frontier),
            Stats(hp, here.atk, here.defense, here.keys_left),
            -1 if here.goal is None else here.goal,
        )
        answer = self._deciders[1].decide(sg.compiled_state(at), self.level_deadline)
        if answer is None:
            self.level_deadline.check()
            raise MemoryError("a decision search was not finished")
        return bool(answer)

    def winning_signatures(self, start_hp: int, cap: int) -> list[Win]:
        if not self._fits(start_hp):
            return super().winning_signatures(start_hp, cap)
        best = self.best_route(start_hp)
        if best is None:
            return []
        final_hp, route = best
        sg = self._graph(start_hp)
        counted = passages_count.count(
            sg, passages_search._passages_core, self.level_deadline, cap, final_hp, lambda: route
        )
        if not counted.complete:
            self.level_deadline.check()
            raise MemoryError("the count was not finished")
        level = sg.level
        wins = []
        for decisions in counted.witnesses:
            replayed = replay(level, decisions)
            doors, fights = replayed.signature
            wins.append(
                Win(
                    replayed.final_hp,
                    decisions,
                    frozenset((self.number[obj], atk, defense) for obj, atk, defense in fights),
                    sum(1 << self.number[obj] for obj in doors),
                )
            )
        return sorted(wins, key=lambda win: (-win.final_hp, sorted(win.fights), win.doors))
