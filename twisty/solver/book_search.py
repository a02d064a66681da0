"""The Book's walk search over walkers packed as integers, answers in order of cost.

A walker is (cell, Mask disguise, path state) (`twisty.rules.book.path`). Here each distinct path state is a
*world*, numbered once, and a walker is the integer `(world * MASK_SLOTS + disguise) * cells + cell`, so the
search's tables hold plain integers. What a walker may do comes from the path rules, in two ways:

- the common walker (no disguise, not on a Bridge or the Mask) only steps: onto passable cells, or with a
  Sword onto a Dragon, and which ones depends on nothing but the book as its world's removals leave it: one
  list per cell and set of removals (`_Table`), shared by every world with those removals. A plain step
  stays in the world; arriving on a Tunnel or an item that acts (Bow, Molotov, Sword, Boss weapon), leaving
  the held Sword's pages, or slaying a Dragon is worked out by the path rules once per world and cell
  (`_World.arrivals`).
- any other walker asks `PathRules.moves`, the rules' own list of legal moves.

Both give the same moves in the same order as `PathRules.moves`, so the search meets the walkers, walks and
counts the rules alone would.

The answers come in order of cost (`shortest` then `exhaust`): breadth-first, layer by layer, until every
walker one move short of the exit's depth is expanded, which decides solvability, the shortest walk and how
many shortest walks there are (counted up to 2); then, without counting, every walker left, which decides the
corridor (`corridor`, `edges`) and the rules that fire. A cap stops either phase and is kept in `cap`.
"""

from __future__ import annotations

from functools import cached_property

from twisty.errors import LimitReached
from twisty.limits import Deadline
from twisty.rules.book.contents import CREATURES
from twisty.rules.book.evaluation import PASSABLE
from twisty.rules.book.path import Move, PathRules, PathState, Walker
from twisty.rules.book.reach import cells_a_walk_may_reach, rules_that_may_fire

# The disguises a walker may wear (none, or one creature kind), numbered for the packed walker.
MASK_KINDS: tuple[str | None, ...] = (None, *sorted(CREATURES))
MASK_SLOTS = len(MASK_KINDS)
_MASK_NUMBER = {kind: number for number, kind in enumerate(MASK_KINDS)}
# Contents a move may leave otherwise than by a step (a Bridge's jump, the Mask's disguise): a walker there
# takes the path rules' own moves.
LAUNCHING = frozenset({"Bridge", "Mask"})
# What a cell may be that, passable before the walk, no removal can make deadly but a Wolf's attack or an
# Oracle's protection lapsing (`_never_deadly`): nothing, safe terrain, Tunnels, Weaklings (no new Vampire can
# reach them), a Mage (no Scroll can come beside him), a Rat (their count only falls), a Wolf (a lone one:
# its pack can only shrink), the Oracle, Chuck, and items but Gold and Gems (a Thief freed from a Vampire
# guards them).
STEADY = frozenset(
    {"", "Rubble", "Moss", "Planks", "Bridge", "Tunnel", "Goblin", "Imp", "Bandit", "Thief", "Cultist", "Kobold"}
    | {"Mage", "Rat", "Wolf", "Oracle", "Chuck", "Scroll", "Torch", "Bow", "Sword", "Mask", "Molotov", "Mirror"}
)
# Walkers expanded between two looks at the deadline (each look costs a clock read).
POLL_EVERY = 64
# Walkers expanded before the path rules forget spent weapons by their live targets (`PathRules.refine`),
# and before the search asks whether any walk may reach the exit at all (`reach.cells_a_walk_may_reach`):
# both look at the whole book once, which a search smaller than this would not pay back.
REFINE_AFTER = 1024
BOUND_AFTER = 1024
# Walkers expanded in the corridor's search before it first asks whether the corridor is settled (`settled`),
# then again each time the count doubles: each look costs about one pass over the walkers met.
SETTLE_AFTER = 1024
# Walkers expanded before a layer's walkers beside the exit are expanded first (`shortest`): finding them
# looks at every cell once, which a search of a few dozen walkers would not pay back.
PROBE_AFTER = 64


def link_kind(links: int, end: bool) -> int:
    """What a cell of the corridor is by its number of links: for the entrance or the exit, 1 for a branch
    (more than one link), else 0; for any other cell, 0 for a dead end (at most one), 1 for a cell of a
    simple path (two), 2 for a branch (more)."""
    if end:
        return int(links > 1)
    return 0 if links <= 1 else 1 if links == 2 else 2


def walker_cap(max_walkers: int) -> str:
    """The name of the walker cap, for messages ("... within the limit of 2,000,000 walkers")."""
    return f"limit of {max_walkers:,} walkers"


class _Table:
    """What a common walker (no disguise, not on a Bridge or Mask) may do on the book as one set of removals
    leaves it: for each cell, its step-neighbours in the direction order of `PathRules.moves`, each once,
    written as `cell` for a passable cell where arriving does nothing, `~cell` for a passable Tunnel or
    acting item (what arriving does depends on the world) and `cells + cell` for a Dragon that is not
    passable (a held Sword may slay it). Each cell's list is made when a walker first stands there."""

    __slots__ = ("steps", "evaluation", "rules")

    def __init__(self, rules: PathRules, state: PathState) -> None:
        self.rules = rules
        self.evaluation = rules.evaluation(state)
        self.steps: list[tuple[int, ...] | None] = [None] * len(self.evaluation.status)

    def fill(self, cell: int) -> tuple[int, ...]:
        status, identity = self.evaluation.status, self.evaluation.identity
        eventful, cells = self.rules.eventful, len(status)
        found: list[int] = []
        for moved in self.rules.steps[cell]:
            if moved is None:
                continue
            target = moved[0]
            if status[target] == PASSABLE:
                entry = ~target if eventful(target) else target
            elif identity[target] == "Dragon":
                entry = cells + target
            else:
                continue
            if entry not in found:
                found.append(entry)
        row = self.steps[cell] = tuple(found)
        return row


class _World:
    """One path state: its removals' table; the cells a common step may enter without changing the world
    (`low` to `high`: all of them, or the held Sword's three pages, beyond which the Sword is lost); and
    `arrivals`, per cell entered otherwise (a Tunnel, an acting item, a step out of the Sword's pages, a
    Dragon slain: keyed `cell`, or `cells + cell` for the Dragon), the walker it leads to (None: none) with
    the cells the move enters."""

    __slots__ = ("state", "table", "low", "high", "sword", "arrivals", "base")

    def __init__(self, state: PathState, base: int, low: int, high: int) -> None:
        self.state = state
        self.table: _Table | None = None
        self.low, self.high = low, high
        self.sword = state.sword >= 0
        self.arrivals: dict[int, tuple[int, tuple[int, ...]] | None] = {}
        self.base = base  # the packed number of this world's first walker


class WalkSearch:
    """Breadth-first search over packed walkers; see the module's docstring."""

    def __init__(self, rules: PathRules, deadline: Deadline | None, max_walkers: int) -> None:
        self.rules = rules
        self.deadline = deadline
        self.max_walkers = max_walkers
        self.cells = rules.shape.cell_count
        self.stride = MASK_SLOTS * self.cells  # walkers per world
        self.exit = rules.shape.index(rules.book.exit)
        self.worlds: list[_World] = []
        self.world_numbers: dict[PathState, int] = {}
        self.tables: dict[frozenset[int], _Table] = {}
        self.contents = rules.book.contents
        # Walkers met: the one each was first reached from (None for the start), so the walk can be traced.
        self.parent: dict[int, int | None] = {}
        self.seen: set[int] | None = None  # the walkers met, once the walk is decided (no more parents)
        self.frontier: list[int] = []  # walkers met and not yet expanded
        self.path_rules: set[int] = set()  # path rules used by a move the search made
        self.slow_edges: set[tuple[int, int]] = set()  # cells joined by moves of walkers outside the tables
        self.tunnel_cells: set[int] = set()  # Tunnels passed through (entered, left at once by the other end)
        self.cap: str | None = None
        self.expanded = 0
        # Filled by `shortest`:
        self.best: int | None = None  # moves in the shortest walk
        self.shortest_walks: int | None = None  # counted up to 2; None: undecided
        self.finish: int | None = None  # the walker at the exit that ends the first shortest walk found
        self.start_move: Move | None = None
        self.bound_tried = False
        self.bound: set[int] | None = None  # the cells any walk may reach (`reach`), once asked; None: no bound
        self.proved_unsolvable = False  # the exit lies outside the cells any walk may reach
        self.settled = False  # the corridor and its shape are decided, though walkers are left (`settled`)
        self.rules_settled = False  # and every rule that may fire did (`_rules_settled`)
        self._may_fire: set[int] | None = None
        self._links_possible: dict[int, set[int]] | None = None

    # --- packing ---------------------------------------------------------------------------------------

    def world_of(self, state: PathState) -> _World:
        number = self.world_numbers.get(state)
        if number is None:
            number = self.world_numbers[state] = len(self.worlds)
            low, high = 0, self.cells
            if state.sword >= 0:
                shape = self.rules.shape
                low = max(0, (state.sword - 1 - shape.first_page) * shape.page_size)
                high = min(self.cells, (state.sword + 2 - shape.first_page) * shape.page_size)
            self.worlds.append(_World(state, number * self.stride, low, high))
        return self.worlds[number]

    def table_of(self, world: _World) -> _Table:
        table = world.table
        if table is None:
            table = self.tables.get(world.state.removed)
            if table is None:
                table = self.tables[world.state.removed] = _Table(self.rules, world.state)
            world.table = table
        return table

    def pack(self, walker: Walker) -> int:
        return self.world_of(walker.state).base + _MASK_NUMBER[walker.mask] * self.cells + walker.position

    def unpack(self, key: int) -> Walker:
        world, rest = divmod(key, self.stride)
        mask, cell = divmod(rest, self.cells)
        return Walker(cell, MASK_KINDS[mask], self.worlds[world].state)

    # --- moves -----------------------------------------------------------------------------------------

    def successors(self, key: int) -> list[int]:
        """The walkers one move from `key`, each once, in the order of `PathRules.moves`."""
        world = self.worlds[key // self.stride]
        cell = key % self.cells
        if key - world.base != cell or self.contents[cell] in LAUNCHING:
            return self._moves(key, cell)  # disguised, or on a Bridge or Mask: the rules' own moves
        table = world.table or self.table_of(world)
        found: list[int] = []
        base, low, high, cells = world.base, world.low, world.high, self.cells
        for entry in table.steps[cell] or table.fill(cell):
            if low <= entry < high:
                found.append(base + entry)
                continue
            if entry >= cells and not world.sword:
                continue  # a Dragon, and no Sword to slay it
            arrival = world.arrivals[entry] if entry in world.arrivals else self._arrival(world, entry)
            if arrival is not None and arrival[0] not in found:
                found.append(arrival[0])
        return found

    def _arrival(self, world: _World, entry: int) -> tuple[int, tuple[int, ...]] | None:
        """Where a common step onto the cell of `entry` (a table entry other than a plain step) leads, by the
        path rules; kept for every walker of the world."""
        moves: list[Move] = []
        if entry >= self.cells:
            self.rules.slay_dragon(entry - self.cells, world.state, self.table_of(world).evaluation, (), moves)
        else:
            self.rules.enter(~entry if entry < 0 else entry, world.state, (), moves)
        arrival = None
        if moves:
            move = moves[0]
            arrival = (self.pack(move.walker), move.cells)
            self.path_rules.update(move.rules)
            if len(move.cells) == 2:
                self.tunnel_cells.add(move.cells[0])
        world.arrivals[entry] = arrival
        return arrival

    def _moves(self, key: int, cell: int) -> list[int]:
        found: list[int] = []
        for move in self.rules.moves(self.unpack(key)):
            self.path_rules.update(move.rules)
            previous = cell
            for entered in move.cells:
                self.slow_edges.add((previous, entered))
                previous = entered
            if len(move.cells) == 2:
                self.tunnel_cells.add(move.cells[0])
            following = self.pack(move.walker)
            if following not in found:  # two ways of making the same move are one walk
                found.append(following)
        return found

    def _stop(self) -> bool:
        """Look at the deadline; True (and `cap` set) when it has passed. (Between two expansions, so also
        where the path rules may turn to their finer forgetting.)"""
        if self.expanded >= REFINE_AFTER and not self.rules.refined:
            self.rules.refine()
        if self.deadline is not None and self.deadline.expired():
            self.cap = f"{self.deadline.cap} limit"
            return True
        return False

    # --- the answers -----------------------------------------------------------------------------------

    def begin(self) -> bool:
        """The walker on the entrance; False when the entrance kills (no walker at all)."""
        begun = self.rules.start()
        if begun is None:
            return False
        self.start_move = begun
        self.path_rules.update(begun.rules)
        start = self.pack(begun.walker)
        self.parent[start] = None
        self.frontier = [start]
        if begun.walker.position == self.exit:
            self.best, self.shortest_walks, self.finish = 0, 1, start
        return True

    def shortest(self) -> None:
        """Breadth-first, layer by layer with the number of shortest walks to each walker (up to 2), until the
        layer that reaches the exit: every walker one move short of it has then been expanded, so the count
        is final. Leaves the walkers met and not expanded in `frontier` for `exhaust`.

        Once the search has grown (`PROBE_AFTER`), each layer's walkers that stand where one move may end on
        the exit (`near_exit`) are expanded first:
        when one of them reaches it, that layer is the last, and the others are left to `exhaust` (none of
        them can end a walk there, and expanding them would evaluate the book for worlds the walk's answers
        never need). Otherwise the layer goes on in its order, so the walk found is the same either way.

        Once the search has grown (`BOUND_AFTER` walkers expanded) it asks, once, whether the exit lies
        within the cells any walk may reach (`reach.cells_a_walk_may_reach`); when it does not, no walk
        reaches it (`proved_unsolvable`) and the search stops there, the rest being the corridor's."""
        if self.best is not None:
            return
        cells = self.cells
        counts = {self.frontier[0]: 1}
        depth = 0
        while counts and self.cap is None:
            following: dict[int, int] = {}
            layer = list(counts)
            near = [key for key in layer if key % cells in self.near_exit] if self.expanded >= PROBE_AFTER else []
            ahead: dict[int, list[int]] = {}
            if 0 < len(near) < len(layer):
                for key in near:
                    moves = self._expand(key)
                    if moves is None:  # a cap, or the bound proved the exit out of reach
                        self.frontier = layer
                        return
                    ahead[key] = moves
                if any(successor % cells == self.exit for moves in ahead.values() for successor in moves):
                    for key in near:
                        if not self._collect(key, ahead[key], counts[key], following):
                            break
                    self._close_layer(depth + 1, following)
                    self.frontier = [key for key in layer if key not in ahead] + list(following)
                    return
            for done, key in enumerate(layer):
                moves = ahead.pop(key) if key in ahead else self._expand(key)
                if moves is None:
                    if self.proved_unsolvable:
                        self.frontier = layer[done:] + list(following)
                        return
                    break
                if not self._collect(key, moves, counts[key], following):
                    break
            depth += 1
            if self._close_layer(depth, following):
                self.frontier = list(following)  # the exit's layer, not expanded (the walk ends there)
                return
            counts = following
        self.frontier = []

    @cached_property
    def near_exit(self) -> frozenset[int]:
        """The cells from which one move may end on the exit: a step (or a disguised step, or a Dragon slain)
        onto it or onto a Tunnel whose far end it is, and a Bridge's jump landing on either."""
        tunnels = self.rules.book.tunnels
        landing = {self.exit} | {tunnel for tunnel, partner in tunnels.items() if partner == self.exit}
        found = set()
        for cell, steps in enumerate(self.rules.steps):
            for moved in steps:
                if moved is None:
                    continue
                target, heading = moved
                beyond = self.rules.steps[target][heading] if self.contents[cell] == "Bridge" else None
                if target in landing or (beyond is not None and beyond[0] in landing):
                    found.add(cell)
        return frozenset(found)

    def _expand(self, key: int) -> list[int] | None:
        """The walkers one move from `key`, counted as an expansion; None when a cap stopped the search first
        (`cap` set) or the bound proved the exit out of reach (`proved_unsolvable`)."""
        if self.expanded % POLL_EVERY == 0 and (self._stop() or self._exit_out_of_bound()):
            return None
        self.expanded += 1
        try:
            return self.successors(key)
        except LimitReached as reached:
            self.cap = reached.cap
            return None

    def _collect(self, key: int, moves: list[int], count: int, following: dict[int, int]) -> bool:
        """Add the walkers one move from `key` (reached by `count` shortest walks) to the next layer; False
        when the walker cap stopped it (`cap` set)."""
        parent = self.parent
        for successor in moves:
            known = following.get(successor)
            if known is None:
                if successor in parent:
                    continue  # met at an earlier depth: not a shortest way there
                if len(parent) >= self.max_walkers:
                    self.cap = walker_cap(self.max_walkers)
                    return False
                parent[successor] = key
                following[successor] = count
            elif known < 2:
                following[successor] = min(2, known + count)
        return True

    def _close_layer(self, depth: int, following: dict[int, int]) -> bool:
        """Whether the layer at `depth` reaches the exit (then `best`, `finish` and, unless a cap cut the layer
        short, `shortest_walks` are set), or a cap ended the search."""
        finishers = [key for key in following if key % self.cells == self.exit]
        if finishers and self.best is None:
            self.best, self.finish = depth, finishers[0]
            if self.cap is None:
                self.shortest_walks = min(2, sum(following[key] for key in finishers))
        return self.cap is not None or bool(finishers)

    def _exit_out_of_bound(self) -> bool:
        """Once, after `BOUND_AFTER` walkers: whether the bound on the cells a walk may reach leaves out the
        exit (then `proved_unsolvable`)."""
        if self.bound_tried or self.expanded < BOUND_AFTER:
            return False
        self.bound_tried = True
        try:
            bound = self.bound = cells_a_walk_may_reach(self.rules)
        except LimitReached as reached:
            self.cap = reached.cap
            return True
        self.proved_unsolvable = bound is not None and self.exit not in bound
        return self.proved_unsolvable

    def exhaust(self, deadline: Deadline | None = None, *, until_settled: bool = False) -> None:
        """Every walker left, without counting: afterwards (unless a cap stopped it) every walker the walk
        can reach has been met and expanded, or every answer is decided. `deadline` (default: the search's)
        may be an earlier one. With `until_settled`, it stops as soon as the corridor and its shape are
        decided (`settled`), leaving the walkers not yet expanded in `frontier` for another call; without, once
        the corridor is decided and every rule that may fire has fired (`rules_settled`)."""
        if deadline is not None:
            self.deadline = deadline
        if self._stop():
            return  # a deadline already passed (one kept short for other answers, say)
        next_look = max(SETTLE_AFTER, 2 * self.expanded)
        seen = self.seen
        if seen is None:
            seen = self.seen = set(self.parent)
        exit_cell, cells, limit = self.exit, self.cells, self.max_walkers
        pending = self.frontier
        while pending and self.cap is None:
            if self.expanded % POLL_EVERY == 0 and self._stop():
                break
            if self.expanded >= next_look:
                next_look = 2 * self.expanded
                if until_settled and self._corridor_settled():
                    self.settled = True
                    return
                if not until_settled and self.settled and self._rules_settled():
                    self.rules_settled = True
                    return
            key = pending.pop()
            if key % cells == exit_cell:
                continue  # the walk ends at the exit
            self.expanded += 1
            try:
                moves = self.successors(key)
            except LimitReached as reached:
                pending.append(key)
                self.cap = reached.cap
                break
            for successor in moves:
                if successor not in seen:
                    if len(seen) >= limit:
                        self.cap = walker_cap(limit)
                        break
                    seen.add(successor)
                    pending.append(successor)

    def _corridor_settled(self) -> bool:
        """Whether the walkers met already decide the corridor and its shape, whatever the others add.

        No walker stands outside the bound on the cells a walk may reach (`reach.cells_a_walk_may_reach`), so
        once the cells met are the whole bound, the corridor is decided. Its shape depends on each cell's
        number of links (`BookAnalysis` joins two cells a move goes between): the links met are some of the
        corridor's, and the corridor's are among those any two cells of the bound could have (a step, a
        Tunnel passage, a Bridge's jump: `_possible_links`); a cell whose links met and links possible give it
        the same kind (a branch, a dead end, neither) keeps it. When every cell does, nothing the search
        could still meet changes the answer."""
        if not self.bound_tried:
            self.bound_tried = True
            try:
                self.bound = cells_a_walk_may_reach(self.rules)
            except LimitReached as reached:
                self.cap = reached.cap
                return False
        bound = self.bound
        if bound is None or self.corridor() != bound:
            return False
        possible = self._possible_links(bound)
        met: dict[int, set[int]] = {cell: set() for cell in bound}
        for first, second in self.edges():
            if first != second:
                met[first].add(second)
                met[second].add(first)
        ends = {self.rules.shape.index(self.rules.book.entrance), self.exit}
        return all(
            link_kind(len(met[cell]), cell in ends) == link_kind(len(possible[cell]), cell in ends) for cell in bound
        )

    def _rules_settled(self) -> bool:
        """Whether every rule that may fire in some walk (`reach.rules_that_may_fire`, given only where the
        cells a walk may reach are bounded) has fired in what the search met: then `rules_fired` is complete."""
        if self.bound is None:
            return False
        fired = set(self.path_rules)
        for removed in self.reached_removals():
            fired |= self.rules.evaluation(PathState(removed)).fired
        if self._may_fire is None:
            self._may_fire = rules_that_may_fire(self.rules, self.bound)
        return self._may_fire <= fired

    def _possible_links(self, bound: set[int]) -> dict[int, set[int]]:
        """For each cell of the bound, the cells of the bound a move may join it to: its step-neighbours, a
        Tunnel's far end, and from a Bridge the cells beyond its neighbours that may ever be deadly (a jump
        goes over a deadly cell only: `_never_deadly`)."""
        if self._links_possible is None:
            steps, tunnels = self.rules.steps, self.rules.book.tunnels
            never_deadly = self._never_deadly()
            links: dict[int, set[int]] = {cell: set() for cell in bound}
            for cell in bound:
                for moved in steps[cell]:
                    if moved is None:
                        continue
                    near = [moved[0]]
                    if self.contents[cell] == "Bridge" and moved[0] not in never_deadly:
                        beyond = steps[moved[0]][moved[1]]
                        if beyond is not None:
                            near.append(beyond[0])
                    for other in near:
                        if other in bound and other != cell:
                            links[cell].add(other)
                            links[other].add(cell)
                partner = tunnels.get(cell)
                if partner is not None and partner in bound and partner != cell:
                    links[cell].add(partner)
                    links[partner].add(cell)
            self._links_possible = links
        return self._links_possible

    def _never_deadly(self) -> set[int]:
        """Cells no removal the walk makes can turn deadly: passable before the walk, what they hold `STEADY`,
        not beside a Wolf of a pack of three or more (packs only shrink, and one that does attacks
        elsewhere) and no Oracle among their eight neighbours (whose protection may lapse). Nothing else can
        make such a cell deadly once a Giant, a Titan and a Medusa are known to stay (the bound exists only
        then): no creature comes to it, the Reapers and Lava stay where they are, and Walls only lift with a
        Titan."""
        status = self.rules.evaluation(PathState()).status
        identity = self.rules.evaluation(PathState()).identity
        orthogonal, king = self.rules.shape.orthogonal_table(), self.rules.shape.king_table()
        attacked: set[int] = set()
        wolves = {cell for cell, what in enumerate(identity) if what == "Wolf"}
        while wolves:
            pack, pending = set(), [wolves.pop()]
            while pending:
                wolf = pending.pop()
                pack.add(wolf)
                for near in orthogonal[wolf]:
                    if near in wolves:
                        wolves.discard(near)
                        pending.append(near)
            if len(pack) >= 3:
                attacked.update(moved[0] for wolf in pack for moved in self.rules.steps[wolf] if moved is not None)
        return {
            cell
            for cell, what in enumerate(self.contents)
            if (what in STEADY or what == "Mimic")
            and identity[cell] in STEADY
            and status[cell] == PASSABLE
            and cell not in attacked
            and not any("Oracle" in (self.contents[near], identity[near]) for near in king[cell])
        }

    # --- what the search met ---------------------------------------------------------------------------

    def met(self) -> set[int] | dict[int, int | None]:
        return self.seen if self.seen is not None else self.parent

    def walkers(self) -> int:
        return len(self.met())

    def corridor(self) -> set[int]:
        """Every cell a walker met stands on, and every Tunnel passed through."""
        cells = self.cells
        return {key % cells for key in self.met()} | self.tunnel_cells

    def edges(self) -> set[tuple[int, int]]:
        """The cells joined by a move of an expanded walker (only meaningful once `exhaust` ran to the end:
        then every walker not on the exit was expanded)."""
        edges = set(self.slow_edges)
        cells, exit_cell, stride = self.cells, self.exit, self.stride
        for key in self.met():
            cell = key % cells
            world = self.worlds[key // stride]
            if cell == exit_cell or key - world.base != cell or self.contents[cell] in LAUNCHING:
                continue  # on the exit (not expanded), or its moves were recorded in `slow_edges`
            table = self.table_of(world)
            for entry in table.steps[cell] or table.fill(cell):
                if world.low <= entry < world.high:
                    edges.add((cell, entry))
                    continue
                arrival = world.arrivals.get(entry)
                if arrival is not None:
                    previous = cell
                    for entered in arrival[1]:
                        edges.add((previous, entered))
                        previous = entered
        return edges

    def reached_exit(self) -> bool:
        """Whether a walker met stands on the exit."""
        cells, exit_cell = self.cells, self.exit
        return any(key % cells == exit_cell for key in self.met())

    def reached_removals(self) -> set[frozenset[int]]:
        """The sets of removals some walker met stands in."""
        stride = self.stride
        return {self.worlds[number].state.removed for number in {key // stride for key in self.met()}}

    def walk(self) -> list[tuple[tuple[int, ...], ...]]:
        """The first shortest walk found, traced back from the exit through the walkers' parents, as the cells
        each move may have entered: the walker's new cell, or (for the far end of a Tunnel) the Tunnel and
        its far end (`path.replay_moves` replays it by the rules and keeps the first way that works)."""
        assert self.finish is not None
        positions: list[int] = []
        key: int | None = self.finish
        while key is not None:
            positions.append(key % self.cells)
            key = self.parent[key]
        positions.reverse()
        tunnels = self.rules.book.tunnels
        steps = []
        for cell in positions[1:]:
            ways: tuple[tuple[int, ...], ...] = ((cell,),)
            if cell in tunnels:
                ways += ((tunnels[cell], cell),)
            steps.append(ways)
        return steps
