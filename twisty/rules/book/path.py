"""The path rules: what the walk carries and how it may move (Bridge, Tunnel, Bow, Molotov, Sword, Mask,
Boss), as state along the walk. Whenever the walk removes creatures the book is evaluated again; one
evaluation per set of removals is cached, so revisiting a state costs nothing.

A walker is (cell, mask kind or None, path state). `PathRules.moves` lists every legal move from a walker,
with the cells the walk passes through and the path rules the move used.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from twisty.limits import Deadline
from twisty.rules.book.contents import BOSS_RULE, CREATURES, ITEMS
from twisty.rules.book.model import Book
from twisty.rules.book.static import DEADLY, IMMUNE, PASSABLE, Evaluation, evaluate, where
from twisty.rules.book.topology import DIRECTIONS

NO_SWORD, SWORD_LOST = -1, -2
BOW_REACH = 5
MOLOTOV_REACH = 2


@dataclass(frozen=True)
class PathState:
    """What the walk has changed so far."""

    removed: frozenset[tuple[int, int, str]] = frozenset()  # (cell index, rule, why)
    used: frozenset[int] = frozenset()  # Bows and Molotovs set off, Swords taken
    sword: int = NO_SWORD  # the held Sword's page (or NO_SWORD/SWORD_LOST)
    items: frozenset[str] = frozenset()  # Boss weapons picked up


class Walker(NamedTuple):
    position: int
    mask: str | None  # the creature kind the walker is disguised among, if any
    state: PathState


class Move(NamedTuple):
    walker: Walker
    cells: tuple[int, ...]  # the cells entered, in order (a Tunnel adds both of its ends)
    rules: tuple[int, ...]  # path rules that acted in this move


class PathRules:
    """The moves of the walk under one reading. `deadline` (the level's) is handed to every evaluation, which
    raises LimitReached past it."""

    def __init__(self, book: Book, reading: frozenset[str] = frozenset(), deadline: Deadline | None = None) -> None:
        self.book = book
        self.reading = reading
        self.deadline = deadline
        self.shape = book.shape
        self.steps = book.shape.step_table()
        self.evaluations: dict[frozenset, Evaluation] = {}
        if "initial" in book.cache and not reading:
            self.evaluations[frozenset()] = book.cache["initial"]
        self.sword_cells = set(book.cells_holding("Sword"))
        self.boss_items = {item for rule in book.bosses for item in rule.items}
        # The contents whose cell does something when the walk reaches it.
        self.acting_items = self.boss_items | {"Sword", "Bow", "Molotov"}

    def evaluation(self, state: PathState) -> Evaluation:
        found = self.evaluations.get(state.removed)
        if found is None:
            removed = {index: (rule, why) for index, rule, why in state.removed}
            found = evaluate(self.book, removed, self.reading, self.deadline)
            self.evaluations[state.removed] = found
        return found

    def page_of(self, index: int) -> int:
        return self.shape.cell(index)[0]

    # --- starting and arriving ---------------------------------------------------------------------

    def start(self) -> tuple[Walker, tuple[int, ...]] | None:
        """The walker on the entrance (None when the entrance itself kills)."""
        entrance = self.shape.index(self.book.entrance)
        if not self.evaluation(PathState()).passable(entrance):
            return None
        arrived = self.arrive(entrance, PathState())
        return None if arrived is None else (arrived[0], arrived[1])

    def arrive(self, index: int, state: PathState) -> tuple[Walker, tuple[int, ...]] | None:
        """Set off what the cell holds (Sword, Boss weapons, Bow, Molotov); None if the walker dies there."""
        rules: list[int] = []
        evaluation = self.evaluation(state)
        what = evaluation.identity[index]
        sword = state.sword
        if sword >= 0 and abs(self.page_of(index) - sword) > 1:
            sword = SWORD_LOST
        if what not in self.acting_items:
            if sword == state.sword:
                return Walker(index, None, state), ()
            return Walker(index, None, PathState(state.removed, state.used, sword, state.items)), ()
        items = state.items
        if what in self.boss_items and what not in items:
            items = items | {what}
        removed = set(state.removed)
        used = state.used
        if what == "Sword" and index not in used:
            # Rule 23, the Sword: "When you step onto the Sword cell, you take it with you." Each Sword cell is
            # its own Sword (docs/book.md): taking one after losing another, or while holding one, makes the new
            # Sword's three pages the ones that count from now on.
            used = used | {index}
            sword = self.page_of(index)
        if what == "Bow" and index not in used:
            used = used | {index}
            hits = self.bow_targets(index, evaluation)
            removed.update((target, 22, f"shot by the Bow at {where(self.book, index)}") for target in hits)
            if hits:
                rules.append(22)
        if what == "Molotov" and index not in used:
            used = used | {index}
            burnt = self.molotov_targets(index, evaluation)
            removed.update((target, 25, why) for target, why in burnt.items())
            if burnt:
                rules.append(25)
        for rule in self.book.bosses:
            if items != state.items and set(rule.items) <= items:
                for boss in range(len(self.book.contents)):
                    if (
                        self.book.contents[boss] == "Boss"
                        and self.page_of(boss) // 2 == rule.spread
                        and evaluation.identity[boss] == "Boss"
                    ):
                        removed.add((boss, BOSS_RULE, f"the Boss slain with {', '.join(rule.items)}"))
                        rules.append(BOSS_RULE)
        new_state = PathState(frozenset(removed), used, sword, items)
        if len(removed) != len(state.removed) and not self.evaluation(new_state).passable(index):
            return None  # what the walk just removed left the walker's own cell deadly
        return Walker(index, None, new_state), tuple(rules)

    def bow_targets(self, bow: int, evaluation: Evaluation) -> list[int]:
        """Rule 22, the Bow: "When your path reaches the Bow cell, it neutralizes every deadly monster located
        exactly five cells from the Bow, in each of the four orthogonal directions. Those cells become safe.
        [...] a neutralized creature no longer counts, which may alter a group or the effect of another rule."
        """
        hits = []
        for direction in DIRECTIONS:
            ray = self.shape.ray(self.shape.cell(bow), direction, length=BOW_REACH)
            if len(ray) == BOW_REACH:
                target = self.shape.index(ray[-1])
                if evaluation.identity[target] in CREATURES and evaluation.status[target] == DEADLY:
                    hits.append(target)
        return hits

    def molotov_targets(self, molotov: int, evaluation: Evaluation) -> dict[int, str]:
        """Rule 25, the Molotov Cocktail: "When your path reaches the Molotov cell, the Molotov hits every Zombie
        one or two cells away in any orthogonal direction. Never diagonally. Each Zombie struck is destroyed,
        along with its eight neighboring cells. Monsters and items disappear, and their cells become safe.
        Terrain alone remains unchanged." (The Oracle and Chuck are immune.)
        """
        burnt: dict[int, str] = {}
        king = self.shape.king_table()
        for direction in DIRECTIONS:
            for cell in self.shape.ray(self.shape.cell(molotov), direction, length=MOLOTOV_REACH):
                zombie = self.shape.index(cell)
                if evaluation.identity[zombie] != "Zombie":
                    continue
                why = (
                    f"burnt with the Zombie at {where(self.book, zombie)} by the Molotov at {where(self.book, molotov)}"
                )
                for index in (zombie, *king[zombie]):
                    what = evaluation.identity[index]
                    if (what in CREATURES or what in ITEMS) and what not in IMMUNE and index != molotov:
                        burnt.setdefault(index, why)
        return burnt

    # --- moving ------------------------------------------------------------------------------------

    def moves(self, walker: Walker) -> list[Move]:
        evaluation = self.evaluation(walker.state)
        here = walker.position
        moves: list[Move] = []
        for direction in DIRECTIONS:
            moved = self.steps[here][direction]
            if moved is None:
                continue
            target, heading = moved
            if (
                walker.mask is not None
                and evaluation.identity[target] == walker.mask
                and evaluation.status[target] in (DEADLY, PASSABLE)
            ):
                # Still disguised among identical creatures, deadly or not ("from creature to creature").
                moves.append(Move(Walker(target, walker.mask, walker.state), (target,), (24,)))
            elif evaluation.status[target] == PASSABLE:
                self._enter(target, walker.state, (), moves)
            elif walker.mask is None:
                self._deadly_neighbour(walker, evaluation, target, heading, moves)
        return moves

    def _deadly_neighbour(
        self, walker: Walker, evaluation: Evaluation, target: int, heading: int, moves: list[Move]
    ) -> None:
        here, state = walker.position, walker.state
        what = evaluation.identity[target]
        # Rule 24, the Mask: "When your path reaches the Mask cell, you may step unnoticed onto any deadly
        # creature next to it [...] continue from creature to creature, as long as each one is identical to
        # the first [...] As soon as a safe cell touches the creature you're standing on, you may step onto it."
        if evaluation.identity[here] == "Mask" and what in CREATURES and evaluation.status[target] == DEADLY:
            moves.append(Move(Walker(target, what, state), (target,), (24,)))
        # Rule 15, the Bridge: "From a Bridge cell, you may jump over exactly one deadly cell orthogonally
        # adjacent to it and land on the cell immediately beyond it. The landing cell must be safe."
        if self.book.contents[here] == "Bridge" and evaluation.status[target] == DEADLY:
            beyond = self.steps[target][heading]
            if beyond is not None and evaluation.status[beyond[0]] == PASSABLE:
                self._enter(beyond[0], state, (15,), moves)
            elif beyond is not None:
                # A landing on a Dragon is a step onto it (docs/book.md): the Sword may slay it there.
                self._slay_dragon(beyond[0], state, evaluation, (15,), moves)
        self._slay_dragon(target, state, evaluation, (), moves)

    def _slay_dragon(
        self, target: int, state: PathState, evaluation: Evaluation, rules: tuple[int, ...], moves: list[Move]
    ) -> None:
        """Rule 23, the Sword: "While you remain on the Sword's page or either adjacent page, it eliminates
        every Dragon on your path." A Dragon the walker steps onto (or lands on from a Bridge) within the held
        Sword's three pages is removed, the book re-evaluated, and the step allowed when the cell is then
        passable (a Dragon inside a Reaper's reach still kills)."""
        if evaluation.identity[target] != "Dragon" or state.sword < 0 or abs(self.page_of(target) - state.sword) > 1:
            return
        slain = PathState(
            state.removed | {(target, 23, "Dragon slain by the Sword")}, state.used, state.sword, state.items
        )
        if self.evaluation(slain).passable(target):
            self._enter(target, slain, rules + (23,), moves)

    def _enter(self, target: int, state: PathState, rules: tuple[int, ...], moves: list[Move]) -> None:
        cells: tuple[int, ...] = (target,)
        if self.book.contents[target] == "Tunnel" and target in self.book.tunnels:
            # Rule 18, Tunnel: "Their cells are safe and let you pass directly from one side to the other."
            partner = self.book.tunnels[target]
            if not self.evaluation(state).passable(partner):
                return
            cells, target, rules = (target, partner), partner, rules + (18,)
        arrived = self.arrive(target, state)
        if arrived is not None:
            walker, fired = arrived
            moves.append(Move(walker, cells, rules + fired))


def replay_walk(rules: PathRules, moves: list[tuple[int, ...]]) -> list[Walker]:
    """Replay a walk, given as the cells each move enters, by the path rules alone: the walkers that can stand
    at its end (several when two legal moves enter the same cells with different states, e.g. under the
    Mask or not). Empty when a move is not legal, or the walk passes the exit before its end (the exit ends
    the walk); a walk that does not end on the exit ends nowhere either."""
    begun = rules.start()
    if begun is None:
        return []
    exit_index = rules.shape.index(rules.book.exit)
    walkers = {begun[0]}
    for entered in moves:
        walkers = {
            move.walker
            for walker in walkers
            if walker.position != exit_index
            for move in rules.moves(walker)
            if move.cells == entered
        }
    return sorted((walker for walker in walkers if walker.position == exit_index), key=repr)
