"""A plain breadth-first search of a book's walk, written for the bench and the tests alone.

It shares nothing with the walk engine (`twisty.rules.book.path`, `twisty.solver.book`, `book_search`): only
the book's model, its adjacency (`BookShape.step_table`) and the static rules (`evaluate`), which decide what
every cell is for a given set of removed cells. Its state is everything the walk has done, kept whole: the
cell, the Mask's disguise, the removed cells, the Bows, Molotovs and Swords reached, the Sword held, the
Boss's weapons held. Nothing is forgotten or shared, so it meets every subset of reached items that the
walk can make; that is what makes it plain, and slow where the engine must not be.

The path rules, as docs/book.md states them (and as the engine reads them where the text leaves room):
a step enters a passable cell; from a Bridge a deadly neighbour (not a Wall) may be jumped, landing on the
passable cell beyond; entering a Tunnel puts the walker on its partner (which must be passable); arriving
on a cell first loses a held Sword if the cell is more than one page from it, then sets off what the cell
holds the first time it is reached (a Bow removes the deadly creatures exactly five steps away on the four
rays; a Molotov every Zombie one or two steps away with the creatures and items among its eight
neighbours, Oracle, Chuck and the Molotov itself spared; a Sword is taken and its page counts from then on;
a Boss weapon is held, and once every weapon of a Boss rule is held its Bosses are removed), and the walker
dies when what was just removed leaves its own cell deadly; from the Mask a deadly creature next to it
may be entered in disguise, then creatures of that kind one by one (deadly or not) while disguised, and any
passable cell to step off; with a Sword held, a Dragon stepped or jumped onto within the Sword's pages is
removed and the step stands when the cell is then passable.

`PlainSearch(book).run()` answers solvability, the shortest walk's length, the number of shortest walks (up
to 2) and the corridor (every cell a move from a reachable walker enters, with the entrance) and its shape,
timing when each is decided.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from twisty.rules.book.contents import CREATURES, ITEMS
from twisty.rules.book.evaluation import DEADLY, PASSABLE, Evaluation
from twisty.rules.book.model import Book
from twisty.rules.book.static import evaluate
from twisty.rules.book.topology import Cell

SPARED = frozenset({"Oracle", "Chuck"})
CLOCK_EVERY = 64


class State(NamedTuple):
    cell: int
    disguise: str  # "" when not disguised
    removed: frozenset[int]
    reached: frozenset[int]  # Bows, Molotovs and Swords already reached
    sword: int  # the page of the Sword held, or -1
    weapons: frozenset[str]  # Boss weapons held


@dataclass
class PlainAnswers:
    solvable: bool | None = None
    moves: int | None = None
    shortest_walks: int | None = None  # up to 2
    corridor: list[Cell] | None = None
    branches: list[Cell] | None = None
    dead_ends: list[Cell] | None = None
    states: int = 0
    walk_seconds: float | None = None  # CPU seconds until solvability, length and count were decided
    corridor_seconds: float | None = None  # CPU seconds until the corridor was decided
    stopped: bool = False  # the time limit stopped the search
    evaluations: int = field(default=0)


class PlainSearch:
    def __init__(self, book: Book, reading: frozenset[str] = frozenset()) -> None:
        self.book = book
        self.reading = reading
        self.shape = book.shape
        self.steps = book.shape.step_table()
        self.king = book.shape.king_table()
        self.contents = book.contents
        self.books: dict[frozenset[int], Evaluation] = {}

    def page(self, cell: int) -> int:
        return cell // self.shape.page_size + self.shape.first_page

    def look(self, removed: frozenset[int]) -> Evaluation:
        found = self.books.get(removed)
        if found is None:
            found = self.books[removed] = evaluate(
                self.book, {cell: (0, "removed by the walk") for cell in removed}, self.reading
            )
        return found

    def ray(self, start: int, direction: int, length: int) -> list[int]:
        """The cells 1..length steps away along a ray: fewer where the book ends, or where the ray comes back
        to its own start (over the edges of a small book), as every ray of docs/book.md."""
        found, cell, heading = [], start, direction
        for _ in range(length):
            moved = self.steps[cell][heading]
            if moved is None or moved[0] == start:
                break
            cell, heading = moved
            found.append(cell)
        return found

    # --- moves -------------------------------------------------------------------------------------

    def arrive(self, cell: int, state: State, cells: tuple[int, ...]) -> tuple[State, tuple[int, ...]] | None:
        removed, reached, sword, weapons = state.removed, state.reached, state.sword, state.weapons
        if sword >= 0 and abs(self.page(cell) - sword) > 1:
            sword = -1
        view = self.look(removed)
        what = view.identity[cell]
        taken: set[int] = set()
        if what == "Sword" and cell not in reached:
            reached, sword = reached | {cell}, self.page(cell)
        if what == "Bow" and cell not in reached:
            reached = reached | {cell}
            for direction in range(4):
                ray = self.ray(cell, direction, 5)
                if len(ray) == 5:
                    target = ray[-1]
                    kind = view.identity[target]
                    if kind in CREATURES and kind not in SPARED and view.status[target] == DEADLY:
                        taken.add(target)
        if what == "Molotov" and cell not in reached:
            reached = reached | {cell}
            for direction in range(4):
                for zombie in self.ray(cell, direction, 2):
                    if view.identity[zombie] == "Zombie":
                        for burnt in (zombie, *self.king[zombie]):
                            kind = view.identity[burnt]
                            if (kind in CREATURES or kind in ITEMS) and kind not in SPARED and burnt != cell:
                                taken.add(burnt)
        boss_items = {item for rule in self.book.bosses for item in rule.items}
        if what in boss_items and what not in weapons:
            weapons = weapons | {what}
            for rule in self.book.bosses:
                if set(rule.items) <= weapons:
                    taken.update(
                        index
                        for index, kind in enumerate(view.identity)
                        if kind == "Boss" == self.contents[index] and self.page(index) // 2 == rule.spread
                    )
        if taken:
            removed = removed | taken
            if self.look(removed).status[cell] != PASSABLE:
                return None
        return State(cell, "", removed, reached, sword, weapons), cells

    def enter(self, cell: int, state: State) -> tuple[State, tuple[int, ...]] | None:
        if self.contents[cell] == "Tunnel" and cell in self.book.tunnels:
            partner = self.book.tunnels[cell]
            if self.look(state.removed).status[partner] != PASSABLE:
                return None
            return self.arrive(partner, state, (cell, partner))
        return self.arrive(cell, state, (cell,))

    def slay(self, cell: int, state: State) -> tuple[State, tuple[int, ...]] | None:
        view = self.look(state.removed)
        if view.identity[cell] != "Dragon" or state.sword < 0 or abs(self.page(cell) - state.sword) > 1:
            return None
        removed = state.removed | {cell}
        if self.look(removed).status[cell] != PASSABLE:
            return None
        return self.enter(cell, state._replace(removed=removed))

    def moves(self, state: State) -> list[tuple[State, tuple[int, ...]]]:
        view = self.look(state.removed)
        here = state.cell
        found: list[tuple[State, tuple[int, ...]] | None] = []
        for direction in range(4):
            moved = self.steps[here][direction]
            if moved is None:
                continue
            target, heading = moved
            if state.disguise:
                if view.identity[target] == state.disguise and view.status[target] in (DEADLY, PASSABLE):
                    found.append((state._replace(cell=target), (target,)))
                elif view.status[target] == PASSABLE:
                    found.append(self.enter(target, state))
                continue
            if view.status[target] == PASSABLE:
                found.append(self.enter(target, state))
                continue
            kind = view.identity[target]
            if view.identity[here] == "Mask" and kind in CREATURES and view.status[target] == DEADLY:
                found.append((state._replace(cell=target, disguise=kind), (target,)))
            if self.contents[here] == "Bridge" and view.status[target] == DEADLY:
                beyond = self.steps[target][heading]
                if beyond is not None:
                    if view.status[beyond[0]] == PASSABLE:
                        found.append(self.enter(beyond[0], state))
                    else:
                        found.append(self.slay(beyond[0], state))
            found.append(self.slay(target, state))
        return [move for move in found if move is not None]

    # --- the search --------------------------------------------------------------------------------

    def run(
        self,
        seconds: float | None = None,
        clock: Callable[[], float] = time.process_time,
        max_states: int | None = None,
    ) -> PlainAnswers:
        """Breadth-first by layers, counting shortest walks, then on to every state; `seconds` of `clock`
        and `max_states` states at most (the answers not decided by then stay None, and `stopped` is set)."""
        answers = PlainAnswers()
        started = clock()
        entrance, exit_cell = self.shape.index(self.book.entrance), self.shape.index(self.book.exit)
        if self.look(frozenset()).status[entrance] != PASSABLE:
            answers.solvable, answers.shortest_walks = False, 0
            answers.corridor, answers.branches, answers.dead_ends = [], [], []
            answers.walk_seconds = answers.corridor_seconds = clock() - started
            return answers
        begun = self.arrive(entrance, State(entrance, "", frozenset(), frozenset(), -1, frozenset()), (entrance,))
        if begun is None:
            answers.solvable, answers.shortest_walks = False, 0
            answers.corridor, answers.branches, answers.dead_ends = [], [], []
            answers.walk_seconds = answers.corridor_seconds = clock() - started
            return answers
        start = begun[0]
        corridor = {entrance}
        edges: set[tuple[int, int]] = set()
        seen = {start}
        layer = {start: 1}
        depth = expanded = 0
        if start.cell == exit_cell:
            answers.solvable, answers.moves, answers.shortest_walks = True, 0, 1
            answers.walk_seconds = clock() - started
        while layer:
            following: dict[State, int] = {}
            for state, count in layer.items():
                expanded += 1
                # The clock is read every CLOCK_EVERY states, as the engine reads its deadline: reading it
                # for every state would cost the plain search a system call per state.
                if (seconds is not None and expanded % CLOCK_EVERY == 0 and clock() - started > seconds) or (
                    max_states is not None and len(seen) > max_states
                ):
                    answers.stopped = True
                    answers.states = len(seen)
                    return answers
                if state.cell == exit_cell:
                    continue
                successors: set[State] = set()
                for after, cells in self.moves(state):
                    previous = state.cell
                    for cell in cells:
                        corridor.add(cell)
                        edges.add((previous, cell))
                        previous = cell
                    if after in successors:
                        continue
                    successors.add(after)
                    if after not in seen:
                        seen.add(after)
                        following[after] = count
                    elif after in following:
                        following[after] = min(2, following[after] + count)
            depth += 1
            finishers = [state for state in following if state.cell == exit_cell]
            if finishers and answers.solvable is None:
                answers.solvable, answers.moves = True, depth
                answers.shortest_walks = min(2, sum(following[state] for state in finishers))
                answers.walk_seconds = clock() - started
            layer = following
        if answers.solvable is None:
            answers.solvable, answers.shortest_walks = False, 0
            answers.walk_seconds = clock() - started
        answers.states = len(seen)
        answers.evaluations = len(self.books)
        self._shape(answers, corridor, edges, entrance, exit_cell)
        answers.corridor_seconds = clock() - started
        return answers

    def _shape(
        self, answers: PlainAnswers, corridor: set[int], edges: set[tuple[int, int]], entrance: int, exit_cell: int
    ) -> None:
        links = {cell: set() for cell in corridor}  # type: dict[int, set[int]]
        for first, second in edges:
            if first != second:
                links[first].add(second)
                links[second].add(first)
        ends = {entrance, exit_cell}
        answers.corridor = sorted(self.shape.cell(cell) for cell in corridor)
        answers.branches = sorted(
            self.shape.cell(cell) for cell, near in links.items() if len(near) > (1 if cell in ends else 2)
        )
        answers.dead_ends = sorted(
            self.shape.cell(cell) for cell, near in links.items() if len(near) <= 1 and cell not in ends
        )
