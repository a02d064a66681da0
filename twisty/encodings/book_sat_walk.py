"""The walk through a book as constraints over time steps, path rules included (the SAT engine's model).

Time step t holds where the walker stands after t moves, whether it is disguised (the Mask) and as what,
the Sword it holds, the Bows, Molotovs and Swords it has reached, and the epoch: how many times the walk
has removed something so far. Each epoch has its own evaluation of the book (`book_sat.build_static`),
whose removals are the previous epoch's plus what the event that opened it removed: the creatures a Bow
shot, what a Molotov burnt, the Dragon a Sword slew. The static rules are thus evaluated as many times as
the walk can change the book, not once per step.

A move is one of (rule numbers as in docs/book.md):
- a step onto a passable cell (entering a Tunnel puts the walker on its twin, rule 18);
- a jump from a Bridge over a deadly cell onto a passable one (rule 15);
- under the Mask, a step onto a creature of the kind worn, deadly or not, or from the Mask cell onto a deadly
  creature, which puts the disguise on (rule 24);
- a step (or a Bridge's landing) onto a Dragon within the held Sword's three pages, which slays it: the
  book is evaluated again and the cell must then be passable (rule 23).
Arriving on a cell (not under the Mask) loses a Sword that is more than a page away, takes a Sword not taken
before, and sets off a Bow or a Molotov reached for the first time (rules 22, 25); when that removes
something the epoch advances and the walker's own cell must be passable in the new one. The exit ends the
walk: a walker there stays.

Nothing here solves; `twisty.solver.book_sat` grows the steps, asks for the exit and reads the walk back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from twisty.encodings.book_circuit import Circuit
from twisty.encodings.book_sat import IMMUNE, BookFrame, Contents, StaticModel, build_static
from twisty.rules.book.contents import CREATURES
from twisty.rules.book.model import Book
from twisty.rules.book.topology import DIRECTIONS

BOW_REACH, MOLOTOV_REACH = 5, 2


class NotModelled(Exception):
    """The book uses something this model does not hold (its message says what)."""


@dataclass
class Step:
    """The walker after t moves, as literals."""

    at: dict[int, int]  # cell -> literal
    mask: dict[str, int]  # creature kind worn -> literal (none true: no disguise)
    epoch: list[int]  # one-hot over epochs
    used: dict[int, int]  # Bow, Molotov or Sword cell -> reached (taken) already
    sword: dict[int, int]  # Sword cell -> held
    weapons: dict[str, int] = field(default_factory=dict)  # the Boss's weapons picked up, by name
    moves: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)  # (literal, cells entered)


class WalkModel:
    """The book's walk over time steps; `extend()` adds one step."""

    def __init__(self, book: Book, circuit: Circuit | None = None, poll: Callable[[], None] | None = None) -> None:
        self.book = book
        self.circuit = c = circuit or Circuit(poll)
        self.frame = BookFrame(book.shape, book.medusa_spreads)
        shape = book.shape
        self.contents = Contents(c, self.frame, [frozenset({name}) for name in book.contents])
        printed = book.contents
        steps = shape.step_table()
        self.steps = steps
        self.king = shape.king_table()
        self.bows = [index for index, what in enumerate(printed) if what == "Bow"]
        self.molotovs = [index for index, what in enumerate(printed) if what == "Molotov"]
        self.swords = [index for index, what in enumerate(printed) if what == "Sword"]
        self.dragons = (
            [index for index, what in enumerate(printed) if what in ("Dragon", "Mimic")] if self.swords else []
        )
        self.bow_targets = {bow: self._ray_end(bow, BOW_REACH) for bow in self.bows}
        self.molotov_zombies = {molotov: self._ray_cells(molotov, MOLOTOV_REACH) for molotov in self.molotovs}
        # The Boss (local rule): the Bosses of a rule's spread, and the cells holding the weapons it names.
        self.boss_rules = list(book.bosses)
        self.boss_cells = [
            [
                index
                for index, what in enumerate(printed)
                if what == "Boss" and self.frame.spread_of_cell(index) == rule.spread
            ]
            for rule in self.boss_rules
        ]
        self.weapons = sorted({item for rule in self.boss_rules for item in rule.items})
        self.weapon_cells = [index for index, what in enumerate(printed) if what in self.weapons]
        # Every event removes something new: each Bow, Molotov and Dragon acts once, and the Bosses fall when
        # the weapons held change, at most once per weapon. So many epochs at most.
        events = len(self.bows) + len(self.molotovs) + len(self.dragons) + len(self.weapons)
        self.epochs: list[StaticModel] = []
        self.event_at: list[dict[int, int]] = []  # epoch e -> acting cell -> "the event ending e was here"
        self.boss_falls: list[list[int]] = []  # epoch e -> boss rule -> "the event ending e completed it"
        removed: dict[int, int] = {}
        for epoch in range(events + 1):
            model = build_static(c, self.contents, removed, ("epoch", epoch), exact=True)
            self.epochs.append(model)
            if epoch == events:
                break
            chosen = {cell: c.var(("event", epoch, cell)) for cell in self.bows + self.molotovs + self.dragons}
            self.event_at.append(chosen)
            falls = [c.var(("boss falls", epoch, number)) for number in range(len(self.boss_rules))]
            self.boss_falls.append(falls)
            removed = self._removals_after(model, removed, chosen)
            for number, bosses in enumerate(self.boss_cells):
                for boss in bosses:
                    slain = c.and_([falls[number], model.now_is(boss, "Boss")])
                    removed[boss] = c.or_([removed.get(boss, c.false), slain])
        self.has_mask = "Mask" in printed
        self.kinds = (
            sorted({name for model in self.epochs for now in model.now for name in now if name in CREATURES})
            if self.has_mask
            else []
        )
        self.exit = shape.index(book.exit)
        self.entrance = shape.index(book.entrance)
        self.standable = [
            index
            for index in range(shape.cell_count)
            if any(model.passable[index] != c.false for model in self.epochs)
            or (self.has_mask and printed[index] in CREATURES)
        ]
        self.region = self._region()
        self.steps_built: list[Step] = []
        self._start()

    def _region(self) -> set[int]:
        """The cells any walk could stand on: those joined to the entrance through cells that are passable in
        some epoch (or creatures, under a Mask), by steps, Tunnel passages and Bridge jumps. A cell outside
        it is constant false in every step, so it bounds the walk (`twisty.solver.book_sat.step_bound`)."""
        standable = set(self.standable)
        found = {self.entrance} if self.entrance in standable else set()
        frontier = list(found)
        while frontier:
            here = frontier.pop()
            if here == self.exit:
                continue  # the exit ends the walk
            neighbours = []
            for moved in self.steps[here]:
                if moved is None:
                    continue
                neighbours.append(moved[0])
                if self.book.contents[here] == "Bridge":
                    beyond = self.steps[moved[0]][moved[1]]
                    if beyond is not None:
                        neighbours.append(beyond[0])
            for other in list(neighbours):
                if other in self.book.tunnels:
                    neighbours.append(self.book.tunnels[other])
            for other in neighbours:
                if other in standable and other not in found:
                    found.add(other)
                    frontier.append(other)
        return found

    # --- geometry ----------------------------------------------------------------------------------

    def _ray_end(self, cell: int, reach: int) -> list[int]:
        """The cells exactly `reach` steps away along the four rays (that exist)."""
        shape = self.book.shape
        found = []
        for direction in DIRECTIONS:
            ray = shape.ray(shape.cell(cell), direction, length=reach)
            if len(ray) == reach:
                found.append(shape.index(ray[-1]))
        return found

    def _ray_cells(self, cell: int, reach: int) -> list[int]:
        shape = self.book.shape
        return [
            shape.index(other)
            for direction in DIRECTIONS
            for other in shape.ray(shape.cell(cell), direction, length=reach)
        ]

    def page_of(self, index: int) -> int:
        return self.frame.page_of(index)

    # --- what an event removes -----------------------------------------------------------------------

    def hits(self, model: StaticModel, cell: int) -> dict[int, int]:
        """What setting off the Bow or Molotov at `cell` (or slaying the Dragon there) removes in this epoch:
        removed cell -> literal.

        Rule 22, the Bow: "it neutralizes every deadly monster located exactly five cells from the Bow, in
        each of the four orthogonal directions." Rule 25, the Molotov: "the Molotov hits every Zombie one or
        two cells away in any orthogonal direction. [...] Each Zombie struck is destroyed, along with its
        eight neighboring cells. Monsters and items disappear [...] Terrain alone remains unchanged" (the
        Oracle, Chuck and the Molotov's own cell are spared). Rule 23: a slain Dragon is removed.
        """
        c = self.circuit
        what = self.book.contents[cell]
        found: dict[int, list[int]] = {}
        if what == "Bow":
            for target in self.bow_targets[cell]:
                found.setdefault(target, []).append(c.and_([model.creature(target), model.deadly[target]]))
        elif what == "Molotov":
            for zombie in self.molotov_zombies[cell]:
                struck = model.now_is(zombie, "Zombie")
                if struck == c.false:
                    continue
                for other in (zombie, *self.king[zombie]):
                    if other == cell:
                        continue
                    burns = c.and_(
                        [struck, c.or_([model.creature(other), model.item(other)]), -model.now_any(other, IMMUNE)]
                    )
                    found.setdefault(other, []).append(burns)
        else:
            found[cell] = [c.true]
        return {index: c.or_(literals) for index, literals in found.items()}

    def _removals_after(self, model: StaticModel, removed: dict[int, int], chosen: dict[int, int]) -> dict[int, int]:
        c = self.circuit
        following = dict(removed)
        for cell, literal in chosen.items():
            for index, hit in self.hits(model, cell).items():
                following[index] = c.or_([following.get(index, c.false), c.and_([literal, hit])])
        return following

    def nonempty(self, model: StaticModel, cell: int) -> int:
        return self.circuit.or_(self.hits(model, cell).values())

    # --- steps -------------------------------------------------------------------------------------

    def in_epoch(self, step: Step, literals: list[int]) -> int:
        """OR over epochs e of (the walker is in epoch e) and literals[e]."""
        c = self.circuit
        if len(literals) == 1:
            return literals[0]  # a book the walk cannot change: the epoch is always the first
        if all(literal == literals[0] for literal in literals):
            return literals[0]  # the same in every epoch (a cell no removal can reach)
        return c.or_(c.and_([step.epoch[e], literals[e]]) for e in range(len(self.epochs)))

    def _start(self) -> None:
        """Time 0: on the entrance, which must be passable before the walk; arriving there acts at once."""
        c = self.circuit
        first = self.epochs[0]
        c.require(first.passable[self.entrance])
        before = Step(
            at={},
            mask={},
            epoch=[c.true] + [c.false] * (len(self.epochs) - 1),
            used={cell: c.false for cell in self.bows + self.molotovs + self.swords},
            sword={cell: c.false for cell in self.swords},
            weapons={name: c.false for name in self.weapons},
        )
        arrivals = {self.entrance: [(c.true, 0)]}
        step = self._arrive(0, before, arrivals, {}, {}, stays=c.false)
        self.steps_built.append(step)

    def extend(self) -> Step:
        """Add the step after the last one and return it."""
        c = self.circuit
        t = len(self.steps_built)
        before = self.steps_built[-1]
        done = before.at.get(self.exit, c.false)
        moves: list[tuple[int, tuple[int, ...]]] = []
        arrivals: dict[int, list[tuple[int, int]]] = {}  # cell -> [(move, epoch shift 0 or 1)]
        masked: dict[int, list[int]] = {}  # cell -> masked moves
        made: set[int] = set()
        wearing: dict[str, list[int]] = {}  # kind -> moves that end in that disguise
        for here in self.standable:
            if here not in self.region:
                continue
            standing = before.at.get(here, c.false)
            if standing == c.false or here == self.exit:
                continue
            for move, cells, kind in self._moves_from(t, before, here):
                if move in made:
                    continue  # the same move by another direction (a page folding onto itself)
                made.add(move)
                guarded = c.and_([move, standing])
                c.clauses.append([-move, standing])
                moves.append((move, cells))
                target = cells[-1]
                if kind is None:
                    arrivals.setdefault(target, []).append((move, 0))
                elif kind == "slay":
                    arrivals.setdefault(target, []).append((move, 1))
                else:
                    masked.setdefault(target, []).append(move)
                    for name, literal in kind.items():
                        wearing.setdefault(name, []).append(c.and_([guarded, literal]))
        # Exactly one move unless the walk has ended (then none, and the walker stays on the exit).
        c.at_most_one([move for move, _cells in moves])
        c.clauses.append([done] + [move for move, _cells in moves])
        for move, _cells in moves:
            c.clauses.append([-move, -done])
        step = self._arrive(t, before, arrivals, masked, wearing, stays=done)
        step.moves = moves
        self.steps_built.append(step)
        return step

    def _moves_from(self, t: int, before: Step, here: int):
        """Each move from `here` at step t: (literal, cells entered, kind), kind None for a step that arrives,
        "slay" for one that slays a Dragon first, or {kind: literal} for one under the Mask."""
        c, book = self.circuit, self.book
        epochs = self.epochs
        worn = c.or_(before.mask.values())
        for direction in DIRECTIONS:
            moved = self.steps[here][direction]
            if moved is None:
                continue
            target, heading = moved
            same_kind = c.or_(
                c.and_([literal, self.in_epoch(before, [m.now_is(target, kind) for m in epochs])])
                for kind, literal in before.mask.items()
            )
            # Under the Mask, onto a creature of the kind worn, deadly or passable.
            if self.has_mask:
                fits = c.and_(
                    [same_kind, self.in_epoch(before, [c.or_([m.deadly[target], m.passable[target]]) for m in epochs])]
                )
                if fits != c.false:
                    literal = self._move(t, here, (target,), "masked", fits)
                    yield literal, (target,), {kind: c.and_([lit]) for kind, lit in before.mask.items()}
            # A step onto a passable cell (ending any disguise unless the kind fits).
            enter = c.and_([-same_kind, self.in_epoch(before, [m.passable[target] for m in epochs])])
            yield from self._enter(t, before, here, target, enter)
            if self.has_mask:
                # From the Mask cell onto a deadly creature: the disguise goes on, as that creature.
                start = c.and_(
                    [
                        -worn,
                        self.in_epoch(
                            before,
                            [c.and_([m.now_is(here, "Mask"), m.deadly[target], m.creature(target)]) for m in epochs],
                        ),
                    ]
                )
                if start != c.false:
                    literal = self._move(t, here, (target,), "mask", start)
                    yield (
                        literal,
                        (target,),
                        {kind: self.in_epoch(before, [m.now_is(target, kind) for m in epochs]) for kind in self.kinds},
                    )
            if book.contents[here] == "Bridge":
                beyond = self.steps[target][heading]
                if beyond is not None:
                    over = c.and_([-worn, self.in_epoch(before, [m.deadly[target] for m in epochs])])
                    landing = beyond[0]
                    jump = c.and_([over, self.in_epoch(before, [m.passable[landing] for m in epochs])])
                    yield from self._enter(t, before, here, landing, jump, jumped=True)
                    yield from self._slay(t, before, here, landing, over, "jump-slay")
            yield from self._slay(t, before, here, target, -worn, "slay")

    def _move(self, t: int, here: int, cells: tuple[int, ...], kind: str, condition: int) -> int:
        c = self.circuit
        literal = c.var(("move", t, here, cells, kind))
        c.clauses.append([-literal, condition])
        return literal

    def _enter(self, t: int, before: Step, here: int, target: int, condition: int, jumped: bool = False):
        c = self.circuit
        if condition == c.false:
            return
        cells: tuple[int, ...] = (target,)
        if self.book.contents[target] == "Tunnel" and target in self.book.tunnels:
            partner = self.book.tunnels[target]
            condition = c.and_([condition, self.in_epoch(before, [m.passable[partner] for m in self.epochs])])
            if condition == c.false:
                return
            cells = (target, partner)
        literal = self._move(t, here, cells, "jump" if jumped else "step", condition)
        yield literal, cells, None

    def _slay(self, t: int, before: Step, here: int, target: int, condition: int, label: str):
        """Rule 23, the Sword: "While you remain on the Sword's page or either adjacent page, it eliminates
        every Dragon on your path." The Dragon (not passable now) is removed, and the step stands when its
        cell is then passable."""
        c = self.circuit
        if not self.swords or condition == c.false or target not in self.dragons:
            return
        page = self.page_of(target)
        holding = c.or_(literal for sword, literal in before.sword.items() if abs(self.page_of(sword) - page) <= 1)
        epochs = self.epochs
        slain = []
        for e in range(len(epochs) - 1):
            slain.append(
                c.and_(
                    [
                        before.epoch[e],
                        epochs[e].now_is(target, "Dragon"),
                        -epochs[e].passable[target],
                        epochs[e + 1].passable[target],
                    ]
                )
            )
        allowed = c.and_([condition, holding, c.or_(slain)])
        if allowed == c.false:
            return
        literal = self._move(t, here, (target,), label, allowed)
        yield literal, (target,), "slay"

    def _arrive(
        self,
        t: int,
        before: Step,
        arrivals: dict[int, list[tuple[int, int]]],
        masked: dict[int, list[int]],
        wearing: dict[str, list[int]],
        stays: int,
    ) -> Step:
        """The step after the moves: positions, disguise, Swords, what was set off, and the epoch."""
        c = self.circuit
        epochs = self.epochs
        count = len(epochs)
        at: dict[int, int] = {}
        for cell in set(arrivals) | set(masked) | ({self.exit} if stays != c.false else set()):
            ways = [move for move, _shift in arrivals.get(cell, [])] + masked.get(cell, [])
            if cell == self.exit:
                ways.append(stays)
            at[cell] = c.name(("at", t, cell), c.or_(ways))
        if t == 0:
            at = {self.entrance: c.true}
        mask = {kind: c.name(("mask", t, kind), c.or_(literals)) for kind, literals in wearing.items()}
        # Arriving: which cells, in which epoch (a slain Dragon's step arrives in the next epoch).
        arrived = {cell: c.or_(move for move, _shift in ways) for cell, ways in arrivals.items()}
        if t == 0:
            arrived = {self.entrance: c.true}
        # A Sword more than a page away is lost on arrival; a Sword not taken before is taken.
        lost = c.or_(
            c.and_([held, literal])
            for sword, held in before.sword.items()
            for cell, literal in arrived.items()
            if abs(self.page_of(cell) - self.page_of(sword)) > 1
        )
        takes = {
            sword: c.and_(
                [arrived.get(sword, c.false), -before.used[sword], self._pre_arrival(before, arrivals, sword, "Sword")]
            )
            for sword in self.swords
        }
        any_take = c.or_(takes.values())
        sword = {cell: c.or_([takes[cell], c.and_([held, -lost, -any_take])]) for cell, held in before.sword.items()}
        used = dict(before.used)
        for cell in self.swords:
            used[cell] = c.or_([before.used[cell], takes[cell]])
        # What happens in each epoch e the walker may be in: the events (acting cell -> literal).
        happening: list[dict[int, int]] = [{} for _ in range(count)]
        dying: list[tuple[int, int, int]] = []  # (literal, epoch, cell): the cell must be passable after it
        # Setting off a Bow or a Molotov reached for the first time (rules 22, 25).
        for cell in self.bows + self.molotovs:
            name = self.book.contents[cell]
            fresh = c.and_(
                [arrived.get(cell, c.false), -before.used[cell], self._pre_arrival(before, arrivals, cell, name)]
            )
            used[cell] = c.or_([before.used[cell], fresh])
            for e in range(count):
                happening[e][cell] = c.and_([fresh, before.epoch[e], self.nonempty(epochs[e], cell)])
                dying.append((happening[e][cell], e, cell))
        # Slaying a Dragon is an event of the step itself (its move checked the cell after it).
        for cell, arriving in arrivals.items():
            for move, shift in arriving:
                if shift:
                    for e in range(count - 1):
                        happening[e][cell] = c.or_([happening[e].get(cell, c.false), c.and_([move, before.epoch[e]])])
        # The Boss: the weapons held change on arriving at one not held yet; a rule whose weapons are all held
        # then slays the Bosses of its spread that stand (local rule 27).
        weapons = dict(before.weapons)
        for cell in self.weapon_cells:
            name = self.book.contents[cell]
            picks = c.and_([arrived.get(cell, c.false), self._pre_arrival(before, arrivals, cell, name)])
            weapons[name] = c.or_([weapons[name], picks])
        changed = c.or_(c.and_([-before.weapons[name], weapons[name]]) for name in self.weapons)
        complete = [c.and_([changed] + [weapons[name] for name in rule.items]) for rule in self.boss_rules]
        for e in range(count):
            falls = c.or_(
                c.and_([complete[number], c.or_(epochs[e].now_is(boss, "Boss") for boss in bosses)])
                for number, bosses in enumerate(self.boss_cells)
            )
            kill = c.and_([before.epoch[e], falls])
            if kill != c.false:
                happening[e][-1] = kill
                for cell in self.weapon_cells:
                    dying.append((c.and_([kill, arrived.get(cell, c.false)]), e, cell))
        events = [literal for per_epoch in happening for literal in per_epoch.values()]
        for literal, e, cell in dying:
            if literal == c.false:
                continue
            if e == count - 1:
                c.require(-literal)  # cannot happen: every event removes something new
            else:
                # What the walk just removed must not leave the walker's own cell deadly.
                c.clauses.append([-literal, epochs[e + 1].passable[cell]])
        event = c.or_(events)
        epoch = [
            c.name(
                ("epoch", t, e),
                c.or_([c.and_([before.epoch[e], -event]), c.and_([before.epoch[e - 1], event]) if e else c.false]),
            )
            for e in range(count)
        ]
        # The epoch's event variables say exactly what this step did, when this step is the one that ends it.
        for e in range(count - 1):
            ends = c.and_([before.epoch[e], event])
            if ends == c.false:
                continue
            for cell, chosen in self.event_at[e].items():
                happened = happening[e].get(cell, c.false)
                c.clauses += [[-ends, -chosen, happened], [-ends, chosen, -happened]]
            for number, chosen in enumerate(self.boss_falls[e]):
                c.clauses += [[-ends, -chosen, complete[number]], [-ends, chosen, -complete[number]]]
        sword = {cell: c.name(("sword", t, cell), literal) for cell, literal in sword.items()}
        used = {cell: c.name(("used", t, cell), literal) for cell, literal in used.items()}
        weapons = {name: c.name(("weapon", t, name), literal) for name, literal in weapons.items()}
        return Step(at, mask, epoch, used, sword, weapons)

    def _pre_arrival(self, before: Step, arrivals: dict[int, list[tuple[int, int]]], cell: int, name: str) -> int:
        """The arriving cell is `name` in the epoch the walker arrives in (the next one after a slaying)."""
        c = self.circuit
        epochs = self.epochs
        ways = arrivals.get(cell, [])
        literals = []
        for move, shift in ways or [(c.true, 0)]:
            for e in range(len(epochs) - shift):
                literals.append(c.and_([move, before.epoch[e], epochs[e + shift].now_is(cell, name)]))
        return c.or_(literals)

    # --- reading a model ---------------------------------------------------------------------------

    def walk_literals(self, length: int, true: frozenset[int]) -> list[int]:
        """The literals that pin the walk of this model (positions and disguises), for blocking it."""
        pinned = []
        for step in self.steps_built[: length + 1]:
            pinned += [literal for literal in step.at.values() if literal in true]
            pinned += [literal for literal in step.mask.values() if literal in true]
        return pinned

    def walk_moves(self, length: int, true: frozenset[int]) -> list[tuple[int, ...]]:
        """The cells each move of the model's walk enters."""
        found = []
        for step in self.steps_built[1 : length + 1]:
            found.append(next(cells for move, cells in step.moves if move in true))
        return found
