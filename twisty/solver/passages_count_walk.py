"""The previous counting code: the counting engine with its walk over consistent prefixes in Python.

Until the walk moved into the compiled core (passages_count.Counter, _passages_core.c's Walker), the counting
engine walked the consistent prefixes here, a Python loop over positions of the reference engine's
RegionWalk, and handed every deviation to the core's first_win_any. It asks the same question as the
compiled walk (passages_count's module docstring) and answers it by the same argument, so the two must
agree on every count: `twisty bench passages --questions count` runs it beside the counting engine in the
same run (ratios), and the tests hold the two to the same counts on random levels, the shipped suite and
the puzzles (and both to the brute force on small ones).
"""

from __future__ import annotations

from collections.abc import Iterator
from types import ModuleType

from twisty.rules.passages import Decision, PassagesLevel
from twisty.solver import passages_reference, passages_search
from twisty.solver.passages_count import Known, OutOfTime, count, final_hp_of, follow_steps
from twisty.solver.passages_reference import Position
from twisty.solver.passages_search_graph import NOT_COMPILED, SearchGraph, bits
from twisty.solver.passages_verdict import Deadline, SolutionCount

NAME = "search-walk"

# How many steps of a walk between two looks at the clock.
_CLOCK_EVERY = 256


def count_solutions(level: PassagesLevel, deadline: Deadline, cap: int, final_hp: int | None) -> SolutionCount:
    """Distinct winning signatures up to `cap`, and those that reach `final_hp` (the best when None), as
    the search engine counts them (passages_search.count_solutions) but with the walk in Python."""
    hp = level.player.hp
    if level.features & (NOT_COMPILED | passages_search.COUNTED_BY_REFERENCE):
        return passages_reference.count_solutions(level, deadline, cap, final_hp)
    sg = SearchGraph(level, hp)
    if not passages_search.fits(sg, hp):
        return passages_reference.count_solutions(level, deadline, cap, final_hp)
    if final_hp is None:
        best = passages_search.best_route(level, deadline)
        if best.status == "unknown" or not best.proved:
            return SolutionCount(0, 0, False, False)
        if best.final_hp is None:
            return SolutionCount(0, 0, False, True)
        final_hp = best.final_hp
    return count(PythonWalk(sg, passages_search._passages_core, deadline), deadline, cap, final_hp)


class PythonWalk:
    """The walks of one level in Python: new signatures one at a time (passages_count's module docstring).
    `core` is the compiled core module, whose first_win_any decides the deviations."""

    def __init__(self, sg: SearchGraph, core: ModuleType, deadline: Deadline) -> None:
        self.sg = sg
        self.core = core
        self.deadline = deadline
        self.steps = 0
        self.consistent = 0

    def _tick(self) -> None:
        self.steps += 1
        if self.steps % _CLOCK_EVERY == 0 and self.deadline.expired():
            raise OutOfTime

    def another(self, known: list[Known], at_least: int) -> tuple[Decision, ...] | None:
        """A route that wins with at least `at_least` hp and whose signature is none of `known`, or None
        when there is none. Raises OutOfTime.

        A walk over the consistent prefixes (depth first, each (consumed set, least consistent signature)
        once) looks for a goal that ends a new signature and collects the deviations, the prefixes one
        blocker further that are consistent with none of `known`; then one first-win search of the core
        from all the deviations at once decides whether any of them wins, and how."""
        sg = self.sg
        walk = sg.walk
        root = walk.start(sg.level.player)
        door_mask = sg.door_mask
        seen: set[tuple[int, int]] = set()
        deviations: list[tuple[Position, tuple[Decision, ...]]] = []
        stack: list[tuple[Position, int, tuple[Decision, ...]]] = []
        if known:
            stack.append((root, (1 << len(known)) - 1, ()))
        else:
            deviations.append((root, ()))
        while stack:
            self._tick()
            at, alive, route = stack.pop()
            lowest = (alive & -alive).bit_length() - 1
            if (at.consumed, lowest) in seen:
                continue
            seen.add((at.consumed, lowest))
            closed, route = self._neutral_fights(at, route, alive, known)
            if closed is not at:
                if (closed.consumed, lowest) in seen:
                    continue
                seen.add((closed.consumed, lowest))
                at = closed
            self.consistent += 1
            if at.goal >= 0 and at.stats.hp >= at_least:
                doors = at.consumed & door_mask
                fought = at.consumed & ~door_mask
                if not any(doors == k.doors and fought & k.fights == k.fights for k in _members(known, alive)):
                    return route + (("goal", at.goal),)
            for b in bits(at.frontier):
                moved = walk.step(at, b)
                if moved is None:
                    continue
                child, cost = moved
                still = _still_consistent(known, alive, b, door_mask >> b & 1, cost, at)
                if still:
                    stack.append((child, still, route + (walk.decision(b),)))
                else:  # (with less life than at_least too: elixirs may come later)
                    deviations.append((child, route + (walk.decision(b),)))
        return self._first_win(deviations, at_least)

    def _neutral_fights(
        self, at: Position, route: tuple[Decision, ...], alive: int, known: list[Known]
    ) -> tuple[Position, tuple[Decision, ...]]:
        """Fight at once every frontier enemy that costs nothing, is a fight of no signature in `alive`, and
        opens no equipment: again and again, lowest number first. Any route from the prefix without such a
        fight f has a twin that fights f first and then goes on the same way: the stats at every later
        fight are the same (f opens no equipment), life and keys no less, and f, free, is in no signature;
        so the twin has the same signature, and the prefix with f loses no solution and no deviation."""
        sg = self.sg
        walk = sg.walk
        fights = 0
        for k in _members(known, alive):
            fights |= k.fights
        while True:
            for b in bits(at.frontier & ~sg.door_mask & ~fights):
                if any(sg.area_atk[a] or sg.area_def[a] for a in walk.blocker_areas[b] if not at.areas >> a & 1):
                    continue
                moved = walk.step(at, b)
                if moved is not None and moved[1] == 0:
                    at, route = moved[0], route + (walk.decision(b),)
                    break
            else:
                return at, route

    def _first_win(
        self, deviations: list[tuple[Position, tuple[Decision, ...]]], at_least: int
    ) -> tuple[Decision, ...] | None:
        """A winning route from one of the deviated positions (the core's first_win_any), or None."""
        if not deviations:
            return None
        sg = self.sg
        index, complete, _, steps, goal = self.core.first_win_any(
            sg.compiled_graph(), [sg.compiled_state(at) for at, _ in deviations], self.deadline, at_least
        )
        if index is None:
            if not complete:
                raise OutOfTime
            return None
        at, route = deviations[index]
        return route + follow_steps(sg, at, steps, goal, final_hp_of(sg, at, steps))


def _members(known: list[Known], alive: int) -> Iterator[Known]:
    for i in bits(alive):
        yield known[i]


def _still_consistent(known: list[Known], alive: int, b: int, is_door: int, cost: int, at: Position) -> int:
    """The members of `alive` that the prefix, one blocker further, can still end with exactly."""
    out = 0
    bit = 1 << b
    for i in bits(alive):
        k = known[i]
        if is_door:
            ok = bool(k.doors & bit)
        elif cost > 0:
            ok = k.stats.get(b) == (at.stats.atk, at.stats.defense)
        else:
            ok = not k.fights & bit
        if ok:
            out |= 1 << i
    return out


__all__ = ["NAME", "PythonWalk", "count_solutions"]
