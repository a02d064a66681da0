"""The path rules: what the walk carries and how it may move (Bridge, Tunnel, Bow, Molotov, Sword, Mask,
Boss), as state along the walk. Whenever the walk removes creatures the book is evaluated again; one
evaluation per set of removed cells is cached, so revisiting a state costs nothing.

A walker is (cell, mask kind or None, path state). `PathRules.moves` lists every legal move from a walker,
with the cells the walk passes through, the path rules the move used and what it removed (with why).

A path state keeps only what can still change the walk (`PathRules.canonical`): the set of removed cells
(not why they were removed: two walks that removed the same cells see the same book); the Bows and
Molotovs already set off that could still hit something (one whose every target it may still hit is gone
acts like one never reached: `live_targets`); the Swords taken that could still slay something if taken
again; a held Sword only while a Dragon it could slay remains; the Boss's weapons. Without this, every
subset of harmless Bows, Molotovs or Swords reached was a state of its own: a 96-cell book with a dozen
Bows and Molotovs had hundreds of thousands of walkers for two dozen distinct books
(docs/book-internals.md, "The walk search").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from functools import cached_property
from typing import NamedTuple

from twisty.limits import Deadline
from twisty.rules.book.contents import BOSS_RULE, CREATURES, ITEMS
from twisty.rules.book.evaluation import DEADLY, PASSABLE, Evaluation
from twisty.rules.book.model import Book
from twisty.rules.book.static import IMMUNE, evaluate, where
from twisty.rules.book.topology import DIRECTIONS

NO_SWORD, SWORD_LOST = -1, -2
# Books of more cells than this have their deadline looked at inside each evaluation, not only before it.
POLL_INSIDE_ABOVE = 10_000
BOW_REACH = 5
MOLOTOV_REACH = 2


class PathState(NamedTuple):
    """What the walk has changed so far (a tuple: hashed millions of times by the search)."""

    removed: frozenset[int] = frozenset()  # cells whose creature or item the walk took away
    used: frozenset[int] = frozenset()  # Bows and Molotovs set off (that could still hit), Swords taken
    sword: int = NO_SWORD  # the held Sword's page (or NO_SWORD/SWORD_LOST)
    items: frozenset[str] = frozenset()  # Boss weapons picked up


class Walker(NamedTuple):
    position: int
    mask: str | None  # the creature kind the walker is disguised among, if any
    state: PathState


Removal = tuple[int, int, str]  # (cell index, rule, why)


class Move(NamedTuple):
    walker: Walker
    cells: tuple[int, ...]  # the cells entered, in order (a Tunnel adds both of its ends)
    rules: tuple[int, ...]  # path rules that acted in this move
    removals: tuple[Removal, ...] = ()  # what this move took away, and why


class PathRules:
    """The moves of the walk under one reading. `deadline` (the level's) is looked at by every evaluation,
    which raises LimitReached past it; `initial`, when given, is the book before the walk under this reading."""

    def __init__(
        self,
        book: Book,
        reading: frozenset[str] = frozenset(),
        deadline: Deadline | None = None,
        initial: Evaluation | None = None,
    ) -> None:
        self.book = book
        self.reading = reading
        self.deadline = deadline
        self.shape = book.shape
        self.steps = book.shape.step_table()
        self.evaluations: dict[frozenset[int], Evaluation] = {}
        if initial is not None:
            self.evaluations[frozenset()] = initial  # the book before the walk, already evaluated
        elif "initial" in book.cache and not reading:
            self.evaluations[frozenset()] = book.cache["initial"]
        # Why each removed cell was first removed: the cached evaluations name it (the walk that is reported
        # is evaluated again with its own reasons, `evaluation_along`).
        self.why_removed: dict[int, tuple[int, str]] = {}
        self.boss_items = {item for rule in book.bosses for item in rule.items}
        # The contents whose cell does something when the walk reaches it.
        self.acting_items = self.boss_items | {"Sword", "Bow", "Molotov"}
        self._set_off_cache: dict[
            tuple[int, PathState], tuple[PathState | None, tuple[int, ...], tuple[Removal, ...]]
        ] = {}
        # A book this small is evaluated in a few milliseconds: the deadline is looked at before each
        # evaluation; a larger one's evaluation looks at it after every rule (static.evaluate).
        self.deadline_inside = deadline if book.shape.cell_count > POLL_INSIDE_ABOVE else None
        # Worked out when the walk first needs them (a book whose walk meets no weapon never does).
        self._possible: dict[int, tuple[int, ...]] = {}  # see possible_targets
        self._live: dict[int, tuple[int, ...]] = {}  # see live_targets
        self._revivable: Callable[[int], bool] | None = None  # see _revival
        # Whether `canonical` forgets a weapon by its live targets (True) or only once every possible target is
        # removed (False): finding the live targets looks at the whole book, which a search of a few hundred
        # walkers would not pay back, so the search turns it on once it has grown (`refine`).
        self.refined = False
        self._reach: dict[int, list[int]] | None = None  # see sword_reach
        self._swords_that_matter: dict[frozenset[int], dict[int, bool]] = {}  # per set of removals

    def eventful(self, index: int) -> bool:
        """Whether arriving on the cell may do more than stand there: a Tunnel (with a partner) or an acting
        item."""
        what = self.book.contents[index]
        return what in self.acting_items or (what == "Tunnel" and index in self.book.tunnels)

    @cached_property
    def bosses(self) -> list[int]:
        return [index for index, what in enumerate(self.book.contents) if what == "Boss"]

    @property
    def sword_reach(self) -> dict[int, list[int]]:
        """For each page, the cells a Sword taken there could slay: Dragons (and Mimics, which may copy one)
        on that page and the pages before and after."""
        if self._reach is None:
            dragons_by_page: dict[int, list[int]] = {}
            for index, what in enumerate(self.book.contents):
                if what in ("Dragon", "Mimic"):
                    dragons_by_page.setdefault(self.page_of(index), []).append(index)
            self._reach = {
                page: [index for near in (page - 1, page, page + 1) for index in dragons_by_page.get(near, [])]
                for page in self.shape.pages
            }
        return self._reach

    def possible_targets(self, weapon: int) -> tuple[int, ...]:
        """The cells a Bow or Molotov could hit in some state of the walk: for a Bow, the cells five steps
        away along the rays that hold a creature (a Mimic included) no rule makes immune; for a Molotov, the
        cells one or two steps away that hold a Zombie or a Mimic. What a cell is changes only by the Mimic's
        copy (fixed by the printed book), by conversion (prey stay creatures) and by removal, so a cell
        outside these lists is never hit, and once the walk has removed them all the weapon is spent."""
        found = self._possible.get(weapon)
        if found is None:
            contents = self.book.contents
            if contents[weapon] == "Bow":
                rays = [self.ray(weapon, direction, BOW_REACH) for direction in DIRECTIONS]
                found = tuple(
                    ray[-1]
                    for ray in rays
                    if len(ray) == BOW_REACH and contents[ray[-1]] in CREATURES and contents[ray[-1]] not in IMMUNE
                )
            else:
                found = tuple(
                    cell
                    for direction in DIRECTIONS
                    for cell in self.ray(weapon, direction, MOLOTOV_REACH)
                    if contents[cell] in ("Zombie", "Mimic")
                )
            self._possible[weapon] = found
        return found

    def live_targets(self, weapon: int) -> tuple[int, ...]:
        """The possible targets a Bow or Molotov may still hit after it was first set off.

        A Bow removes every possible target that is a deadly creature when it is set off, and a Molotov every
        Zombie: what it left was a creature that was not deadly (or not a Zombie: crushed between Giants). Such
        a cell can only become a deadly creature again by a removal that takes away what kept it harmless
        (`_revival`); where no removal the walk can make does, a weapon once set off is spent, whatever it left.
        """
        if not self.refined:
            return self.possible_targets(weapon)
        found = self._live.get(weapon)
        if found is None:
            if self._revivable is None:
                self._revivable = self._revival()
            revivable = self._revivable
            found = self._live[weapon] = tuple(target for target in self.possible_targets(weapon) if revivable(target))
        return found

    def ray(self, start: int, direction: int, length: int) -> list[int]:
        """`BookShape.ray` by cell indices: the cells 1..length steps away, fewer where the book ends or the
        ray comes back to its start."""
        found: list[int] = []
        here, heading = start, direction
        while len(found) < length:
            moved = self.steps[here][heading]
            if moved is None or moved[0] == start:
                break
            here, heading = moved
            found.append(here)
        return found

    def refine(self) -> None:
        """From now on, forget a weapon set off as soon as no live target of it is left (`live_targets`).
        States made before stay as they were: each is still one state of the walk, and equivalent states
        made before and after are searched as two, which changes no answer, only the work."""
        self.refined = True

    def _kinds(self, index: int, identity: list[str]) -> set[str]:
        """What a cell may be during the walk: its printed content and what it is before the walk (a Mimic's
        copy; a converted prey is a Vampire). A Mimic whose copy the first evaluation does not show (it was
        crushed between Giants) may be anything."""
        contents = self.book.contents[index]
        if contents == "Mimic" and identity[index] == "":
            return set(CREATURES)
        return {contents, identity[index]} - {""}

    def _revival(self) -> Callable[[int], bool]:
        """Whether a cell left harmless by a weapon could become a deadly creature later: only by the removal
        of a Giant (what it crushed comes back), a Titan (its band of Walls is lifted), a Medusa or a Mirror
        (petrified creatures are deadly again, or the Medusa herself), a Mage (his page's Wraiths), an Orc or
        a Dwarf (the melee turns), a Wolf (a pack's attack turns), or of any deadly creature beside an Oracle
        (whose protection lapses; the Oracle counts statuses that any removal may change, so any Oracle makes
        every cell revivable). The removals the walk can make: the possible targets of Bows, the Zombies a
        Molotov can reach and their eight neighbours, Dragons when the book has a Sword, and the Boss."""
        contents = self.book.contents
        present = set(contents)
        if not present & {"Giant", "Titan", "Medusa", "Mirror", "Mage", "Orc", "Dwarf", "Wolf", "Oracle", "Mimic"}:
            return lambda index: False  # nothing in the book can bring a creature back
        identity = self.evaluation(PathState()).identity
        king = self.shape.king_table()
        removable: set[int] = set()
        for weapon, what in enumerate(contents):
            if what == "Bow":
                removable.update(self.possible_targets(weapon))
            elif what == "Molotov":
                for zombie in self.possible_targets(weapon):
                    if "Zombie" in self._kinds(zombie, identity):
                        removable.add(zombie)
                        removable.update(cell for cell in king[zombie] if contents[cell] in CREATURES | ITEMS)
        if "Sword" in contents:
            removable.update(index for index, what in enumerate(contents) if what in ("Dragon", "Mimic"))
        removable.update(self.bosses)
        if not removable:
            return lambda index: False
        kinds: dict[int, set[str]] = {}

        def kind(index: int) -> set[str]:
            found = kinds.get(index)
            if found is None:
                found = kinds[index] = self._kinds(index, identity)
            return found

        removed_kinds: set[str] = set().union(*(kind(index) for index in removable))
        oracle = "Oracle" in present or (
            "Mimic" in present
            and any(what == "Mimic" and "Oracle" in kind(index) for index, what in enumerate(contents))
        )
        if removed_kinds & {"Giant", "Titan", "Medusa", "Mirror"} or oracle:
            return lambda index: True
        mage_pages = {self.page_of(index) for index in removable if "Mage" in kind(index)}
        melee = bool(removed_kinds & {"Orc", "Dwarf"})
        wolves = "Wolf" in removed_kinds
        orthogonal = self.shape.orthogonal_table()

        def revivable(index: int) -> bool:
            found = kind(index)
            return (
                ("Wraith" in found and self.page_of(index) in mage_pages)
                or (melee and bool(found & {"Orc", "Dwarf"}))
                or (wolves and ("Wolf" in found or any("Wolf" in kind(near) for near in orthogonal[index])))
            )

        return revivable

    def canonical(self, state: PathState) -> PathState:
        """The state with what can no longer change the walk forgotten (see the module's docstring): a Bow or
        Molotov set off that can hit nothing more (every target it may still hit is removed: reaching it again
        would do nothing, as if it had never been reached), a Sword taken that could slay nothing if taken
        again (`_sword_matters`), and a held Sword with no Dragon left on its three pages."""
        if not state.used and state.sword == NO_SWORD:
            return state  # nothing to forget (the common case, kept cheap)
        contents, removed = self.book.contents, state.removed
        mattering = self._swords_that_matter.setdefault(removed, {})
        kept = []
        for index in state.used:
            if contents[index] == "Sword":
                matters = mattering.get(index)
                if matters is None:
                    matters = mattering[index] = self._sword_matters(index, removed)
            else:
                matters = any(target not in removed for target in self.live_targets(index))
            if matters:
                kept.append(index)
        used = frozenset(kept) if len(kept) < len(state.used) else state.used
        sword = state.sword
        if sword >= 0 and all(index in state.removed for index in self.sword_reach.get(sword, ())):
            sword = NO_SWORD
        elif sword == SWORD_LOST:
            sword = NO_SWORD  # a lost Sword and none at all are one state
        if used == state.used and sword == state.sword:
            return state
        return PathState(state.removed, used, sword, state.items)

    def _dragons_left(self, page: int, removed: frozenset[int]) -> bool:
        return any(index not in removed for index in self.sword_reach.get(page, ()))

    def _sword_matters(self, sword: int, removed: frozenset[int]) -> bool:
        """Whether it matters that the Sword at `sword` was taken. Taking it again would hold it (its pages
        counting from then on, in place of a Sword held); that changes nothing when no Dragon is left within
        its reach and no Sword within a page of it has one within its own: a Sword held there would be dropped
        already (no Dragon left for it), and one held farther away is lost on arriving there anyway.
        Dragons once slain stay slain, so a Sword forgotten stays forgotten."""
        page = self.page_of(sword)
        if self._dragons_left(page, removed):
            return True
        return any(
            self._dragons_left(self.page_of(other), removed)
            for near in (page - 1, page, page + 1)
            for other in self._swords_by_page.get(near, ())
        )

    @cached_property
    def _swords_by_page(self) -> dict[int, list[int]]:
        found: dict[int, list[int]] = {}
        for index, what in enumerate(self.book.contents):
            if what == "Sword":
                found.setdefault(self.page_of(index), []).append(index)
        return found

    def evaluation(self, state: PathState) -> Evaluation:
        found = self.evaluations.get(state.removed)
        if found is None:
            if self.deadline is not None:
                self.deadline.check()
            removed = {index: self.why_removed[index] for index in state.removed}
            # Without the rules' words: the search reads statuses; the one walk reported is explained
            # (`evaluation_along`).
            found = evaluate(self.book, removed, self.reading, self.deadline_inside, explain=False)
            self.evaluations[state.removed] = found
        return found

    def evaluation_along(self, state: PathState, removals: list[Removal]) -> Evaluation:
        """The book as a walk that ends in `state` leaves it, each removed cell with the reason this walk gives
        it (the cached evaluation may name another walk's Bow): the statuses are the cached ones."""
        cached = self.evaluation(state)
        ours: dict[int, tuple[int, str]] = {}
        for index, rule, why in removals:
            ours.setdefault(index, (rule, why))
        if all(cached.removed.get(index) == reason for index, reason in ours.items()):
            return cached  # its reasons (when the search's evaluation kept none) are found if a report asks
        if cached.explained is None and cached.explain_later is not None:
            # evaluated for the search, without its reasons: now, under the deadline
            cached.explained = cached.explain_later(self.deadline_inside)
        reasons = dict(cached.reasons)
        removed = dict(cached.removed)
        fired = set(cached.fired)
        for index, reason in ours.items():
            old = removed.get(index)
            if old is None or old == reason:
                continue
            removed[index] = reason
            reasons[index] = [
                (reason[0], verdict, reason[1]) if (rule, why) == old else (rule, verdict, why)
                for rule, verdict, why in reasons.get(index, [])
            ]
            fired.add(reason[0])
        return replace(cached, removed=removed, explained=reasons, fired=fired)

    def _removing(
        self, state: PathState, removals: list[Removal], used: frozenset[int], sword: int, items: frozenset[str]
    ) -> PathState:
        for index, rule, why in removals:
            self.why_removed.setdefault(index, (rule, why))
        removed = state.removed | {index for index, _rule, _why in removals} if removals else state.removed
        return self.canonical(PathState(removed, used, sword, items))

    def page_of(self, index: int) -> int:
        return index // self.shape.page_size + self.shape.first_page

    # --- starting and arriving ---------------------------------------------------------------------

    def start(self) -> Move | None:
        """The walker on the entrance, as a move entering it (None when the entrance itself kills)."""
        entrance = self.shape.index(self.book.entrance)
        if not self.evaluation(PathState()).passable(entrance):
            return None
        return self.arrive(entrance, PathState(), (entrance,), ())

    def arrive(
        self,
        index: int,
        state: PathState,
        cells: tuple[int, ...],
        rules: tuple[int, ...],
        removals: tuple[Removal, ...] = (),
    ) -> Move | None:
        """Set off what the cell holds (Sword, Boss weapons, Bow, Molotov); None if the walker dies there."""
        sword = state.sword
        if sword >= 0 and abs(self.page_of(index) - sword) > 1:
            state = self.canonical(PathState(state.removed, state.used, SWORD_LOST, state.items))
        if self.evaluation(state).identity[index] not in self.acting_items:
            return Move(Walker(index, None, state), cells, rules, removals)
        key = (index, state)
        outcome = self._set_off_cache.get(key)
        if outcome is None:
            outcome = self._set_off_cache[key] = self._set_off(index, state)
        after, fired, removed = outcome
        if after is None:
            return None
        return Move(Walker(index, None, after), cells, rules + fired, removals + removed)

    def _set_off(self, index: int, state: PathState) -> tuple[PathState | None, tuple[int, ...], tuple[Removal, ...]]:
        """What reaching an acting cell (Sword, Boss weapon, Bow, Molotov) in `state` does: the state after, the
        rules that acted and what they removed; the state is None when the walker dies there. The same for
        every walker that reaches the cell in this state, so it is worked out once (`arrive` keeps it)."""
        fired: list[int] = []
        evaluation = self.evaluation(state)
        what = evaluation.identity[index]
        sword = state.sword
        items = state.items
        if what in self.boss_items and what not in items:
            items = items | {what}
        new_removals: list[Removal] = []
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
            new_removals += [(target, 22, f"shot by the Bow at {where(self.book, index)}") for target in hits]
            if hits:
                fired.append(22)
        if what == "Molotov" and index not in used:
            used = used | {index}
            burnt = self.molotov_targets(index, evaluation)
            new_removals += [(target, 25, why) for target, why in burnt.items()]
            if burnt:
                fired.append(25)
        if items != state.items:
            for rule in self.book.bosses:
                if set(rule.items) <= items:
                    for boss in self.bosses:
                        if self.page_of(boss) // 2 == rule.spread and evaluation.identity[boss] == "Boss":
                            new_removals.append((boss, BOSS_RULE, f"the Boss slain with {', '.join(rule.items)}"))
                            fired.append(BOSS_RULE)
        new_state = self._removing(state, new_removals, used, sword, items)
        if new_removals and not self.evaluation(new_state).passable(index):
            return None, (), ()  # what the walk just removed left the walker's own cell deadly
        return new_state, tuple(fired), tuple(new_removals)

    def bow_targets(self, bow: int, evaluation: Evaluation) -> list[int]:
        """Rule 22, the Bow: "When your path reaches the Bow cell, it neutralizes every deadly monster located
        exactly five cells from the Bow, in each of the four orthogonal directions. Those cells become safe.
        [...] a neutralized creature no longer counts, which may alter a group or the effect of another rule."
        """
        return [
            target
            for target in self.possible_targets(bow)
            if evaluation.identity[target] in CREATURES and evaluation.status[target] == DEADLY
        ]

    def molotov_targets(self, molotov: int, evaluation: Evaluation) -> dict[int, str]:
        """Rule 25, the Molotov Cocktail: "When your path reaches the Molotov cell, the Molotov hits every Zombie
        one or two cells away in any orthogonal direction. Never diagonally. Each Zombie struck is destroyed,
        along with its eight neighboring cells. Monsters and items disappear, and their cells become safe.
        Terrain alone remains unchanged." (The Oracle and Chuck are immune.)
        """
        burnt: dict[int, str] = {}
        king = self.shape.king_table()
        for zombie in self.possible_targets(molotov):
            if evaluation.identity[zombie] != "Zombie":
                continue
            why = f"burnt with the Zombie at {where(self.book, zombie)} by the Molotov at {where(self.book, molotov)}"
            for index in (zombie, *king[zombie]):
                what = evaluation.identity[index]
                if (what in CREATURES or what in ITEMS) and what not in IMMUNE and index != molotov:
                    burnt.setdefault(index, why)
        return burnt

    # --- moving ------------------------------------------------------------------------------------

    def moves(self, walker: Walker, into: int | None = None) -> list[Move]:
        """Every legal move from `walker`, in direction order; with `into`, only those whose first cell
        entered is that one (a replay's)."""
        evaluation = self.evaluation(walker.state)
        here, state = walker.position, walker.state
        moves: list[Move] = []
        bridge = self.book.contents[here] == "Bridge"
        if walker.mask is None and state.sword < 0 and not bridge and self.book.contents[here] != "Mask":
            # The common case, kept fast: no disguise, no Sword, nothing to jump from: only passable cells
            # can be entered, and only Tunnels and acting cells do anything on arrival.
            status = evaluation.status
            for moved in self.steps[here]:
                if moved is not None and status[moved[0]] == PASSABLE and (into is None or moved[0] == into):
                    target = moved[0]
                    if self.eventful(target):
                        self.enter(target, state, (), moves)
                    else:
                        moves.append(Move(Walker(target, None, state), (target,), ()))
            return moves
        for direction in DIRECTIONS:
            moved = self.steps[here][direction]
            if moved is None:
                continue
            target, heading = moved
            if into is not None and target != into:
                beyond = self.steps[target][heading] if bridge else None
                if beyond is None or beyond[0] != into:
                    continue  # neither this step nor a jump over it enters `into`
            if (
                walker.mask is not None
                and evaluation.identity[target] == walker.mask
                and evaluation.status[target] in (DEADLY, PASSABLE)
            ):
                # Still disguised among identical creatures, deadly or not ("from creature to creature").
                moves.append(Move(Walker(target, walker.mask, walker.state), (target,), (24,)))
            elif evaluation.status[target] == PASSABLE:
                self.enter(target, walker.state, (), moves)
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
                self.enter(beyond[0], state, (15,), moves)
            elif beyond is not None:
                # A landing on a Dragon is a step onto it (docs/book.md): the Sword may slay it there.
                self.slay_dragon(beyond[0], state, evaluation, (15,), moves)
        self.slay_dragon(target, state, evaluation, (), moves)

    def slay_dragon(
        self, target: int, state: PathState, evaluation: Evaluation, rules: tuple[int, ...], moves: list[Move]
    ) -> None:
        """Rule 23, the Sword: "While you remain on the Sword's page or either adjacent page, it eliminates
        every Dragon on your path." A Dragon the walker steps onto (or lands on from a Bridge) within the held
        Sword's three pages is removed, the book re-evaluated, and the step allowed when the cell is then
        passable (a Dragon inside a Reaper's reach still kills)."""
        if evaluation.identity[target] != "Dragon" or state.sword < 0 or abs(self.page_of(target) - state.sword) > 1:
            return
        removal = (target, 23, "Dragon slain by the Sword")
        slain = self._removing(state, [removal], state.used, state.sword, state.items)
        if self.evaluation(slain).passable(target):
            self.enter(target, slain, rules + (23,), moves, (removal,))

    def enter(
        self,
        target: int,
        state: PathState,
        rules: tuple[int, ...],
        moves: list[Move],
        removals: tuple[Removal, ...] = (),
    ) -> None:
        cells: tuple[int, ...] = (target,)
        if self.book.contents[target] == "Tunnel" and target in self.book.tunnels:
            # Rule 18, Tunnel: "Their cells are safe and let you pass directly from one side to the other."
            partner = self.book.tunnels[target]
            if not self.evaluation(state).passable(partner):
                return
            cells, target, rules = (target, partner), partner, rules + (18,)
        move = self.arrive(target, state, cells, rules, removals)
        if move is not None:
            moves.append(move)


def replay_moves(rules: PathRules, moves: list[tuple[tuple[int, ...], ...]]) -> list[Move] | None:
    """Replay a walk by the path rules alone, given for each move the cells it may enter (one or more ways:
    a Tunnel's far end may be reached through the Tunnel or by a step), and give the moves of the first way
    of making it that ends on the exit, no move past the exit (the first is the start's own move onto the
    entrance); None when there is none (`replay_walk` gives every walker a walk can end with)."""
    begun = rules.start()
    if begun is None:
        return None
    exit_index = rules.shape.index(rules.book.exit)
    ways: dict[Walker, list[Move]] = {begun.walker: [begun]}
    for entered in moves:
        following: dict[Walker, list[Move]] = {}
        for walker, taken in ways.items():
            if walker.position == exit_index:
                continue
            for move in rules.moves(walker, into=entered[0][0] if len(entered) == 1 else None):
                if move.cells in entered and move.walker not in following:
                    following[move.walker] = taken + [move]
        ways = following
    finished = sorted((walker for walker in ways if walker.position == exit_index), key=repr)
    return ways[finished[0]] if finished else None


def replay_walk(rules: PathRules, moves: list[tuple[int, ...]]) -> list[Walker]:
    """Replay a walk, given as the cells each move enters, by the path rules alone: the walkers that can stand
    at its end (several when two legal moves enter the same cells with different states, e.g. under the
    Mask or not). Empty when a move is not legal, or the walk passes the exit before its end (the exit ends
    the walk); a walk that does not end on the exit ends nowhere either."""
    begun = rules.start()
    if begun is None:
        return []
    exit_index = rules.shape.index(rules.book.exit)
    walkers = {begun.walker}
    for entered in moves:
        walkers = {
            move.walker
            for walker in walkers
            if walker.position != exit_index
            for move in rules.moves(walker)
            if move.cells == entered
        }
    return sorted((walker for walker in walkers if walker.position == exit_index), key=repr)
