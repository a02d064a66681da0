"""Tight Twisty Little Passages levels with exactly one solution, proved before they are returned.

`generate_level(params, seed)` returns a level whose best route ends with exactly 1 life at the goal, whose
starting life is the smallest that wins (min_start_hp), and that has exactly one winning signature (the
definition of ../shared/rules/passages.md). The pipeline (docs/generator-passages.md tells it at length):

1. Map: a maze of `width x height` cells (corridors), rooms carved out of it, a few loops knocked through
   its walls, the start and, at a dead end far away, the goal behind its boss (a chokepoint).
2. Placements: the other blockers (doors and enemies) on corridor cells, chokepoints first; keys for the
   doors, equipment and elixirs on floor cells. Enemies get a breed from the bestiary and start sealed
   (nothing can harm them), so that the draft has few routes.
3. Intended route: drawn at random through the frontier; every enemy it fights gets stats drawn against
   the player it meets there; keys it does not need are removed.
4. Tightening: the starting life is set to the smallest that wins; when the best route then ends with
   more than 1 life, the boss is made exactly that much stronger.
5. Uniqueness: while two signatures win, the level is repaired (wall up a door, strengthen or reshape an
   enemy) and tightened again; what cannot be repaired within a fixed number of rounds is dropped.
6. Traps: each sealed enemy gets the weakest stats of a ladder that keep the one solution; fighting it is
   allowed but loses.
7. Difficulty is measured and the level dropped when outside the band of its difficulty.
8. The survivor is written as a level file, loaded back, and verified by a solver engine (the contract of
   twisty.solver.passages_verdict): proved final life 1, exactly one signature, unsolvable with one life
   less (so min_start_hp is the starting life), and the route replayed by the plain rules.

Everything is reproducible: one `random.Random(seed)`, sorted iteration, and work bounded by counts of
explored states, rounds and drafts, never by time, so the same (params, seed) gives the same bytes on any
machine.
"""

from __future__ import annotations

import importlib
import random
from dataclasses import dataclass, field, replace
from types import ModuleType
from typing import Any

from twisty.generator.passages_explore import Explorer, TooMuchWork, Win
from twisty.rules.passages import (Decision, Enemy, PassagesLevel, RouteError, Stats, Thing, fight_damage,
                                   replay)
from twisty.rules.passages_format import load_passages
from twisty.rules.source import parse_level_bytes
from twisty.rules.passages import start_hp_upper_bound
from twisty.solver.passages_verdict import SOLVABLE, UNSOLVABLE, Deadline

Cell = tuple[int, int]

DIFFICULTIES = ("easy", "medium", "hard")
# Engines in order of preference; the first that imports is the default.
ENGINE_MODULES = ("twisty.solver.passages_search", "twisty.solver.passages_cpsat", "twisty.solver.passages_brute")

# Bounds on work, as counts so that results do not depend on the machine.
MAX_ATTEMPTS = 400
MAX_REPAIR_ROUNDS = 40
EXPLORE_BUDGET_PER_BLOCKER = 750
SIGNATURE_CAP = 6
MIN_BLOCKERS_ABOVE_EASY = 3


class GenerationError(Exception):
    """No level met the requirements within the attempt budget."""


@dataclass(frozen=True)
class PassagesParams:
    width: int = 6            # maze cells
    height: int = 5
    blockers: int = 10        # doors and enemies, the boss included
    difficulty: str = "medium"

    def validate(self) -> None:
        if self.width < 2 or self.height < 2:
            raise ValueError(f"the maze needs at least 2x2 cells, not {self.width}x{self.height}")
        if self.width * self.height > 400:
            raise ValueError(f"a {self.width}x{self.height} maze is too large (at most 400 cells)")
        if self.blockers < 1:
            raise ValueError("a level needs at least 1 blocker (the boss before the goal)")
        corridors = self.width * self.height - 1
        if self.blockers > max(1, corridors * 2 // 3):
            raise ValueError(f"{self.blockers} blockers do not fit a {self.width}x{self.height} maze "
                             f"(at most {max(1, corridors * 2 // 3)})")
        if self.difficulty not in DIFFICULTIES:
            raise ValueError(f"difficulty must be one of {', '.join(DIFFICULTIES)}, not {self.difficulty!r}")
        if self.difficulty != "easy" and self.blockers < MIN_BLOCKERS_ABOVE_EASY:
            raise ValueError(f"a {self.difficulty} level needs at least {MIN_BLOCKERS_ABOVE_EASY} blockers "
                             "(its score counts traps, and they need blockers of their own)")


@dataclass(frozen=True)
class Profile:
    """How drafts are drawn for a difficulty (the score it must reach is `score_range`)."""

    loops: float              # share of inner walls knocked through
    rooms_per_cells: int      # one room per this many maze cells
    door_share: float
    equipment_per_blocker: float
    elixirs_per_blocker: float
    route_share: float        # share of the enemies the intended route fights
    trap_share: float         # share of the other enemies given a chance to be survivable traps


def score_range(difficulty: str, blockers: int) -> tuple[int, int]:
    """The difficulty scores accepted for a level of `blockers` blockers. Scores grow with the size of
    a level (more blockers, more traps), so the bands are shares of it: easy up to 35 %, hard from 75 %."""
    easy_top = max(1, round(0.35 * blockers))
    hard_bottom = max(easy_top + 2, round(0.75 * blockers))
    return {"easy": (0, easy_top), "medium": (easy_top + 1, hard_bottom - 1),
            "hard": (hard_bottom, 1_000_000)}[difficulty]


PROFILES = {
    "easy": Profile(0.04, 14, 0.25, 0.20, 0.30, 0.75, 0.1),
    "medium": Profile(0.08, 12, 0.30, 0.30, 0.35, 0.6, 0.7),
    "hard": Profile(0.12, 10, 0.30, 0.40, 0.40, 0.5, 1.0),
}


@dataclass(frozen=True)
class Difficulty:
    """What the level asks of a player (see docs/generator-passages.md)."""

    score: int
    traps: int                # distinct legal moves along the solution after which no win is left
    first_move_traps: int     # of those, the ones open at the very start
    ordered_fights: int       # costly fights whose enemy could be fought earlier, but only at a loss
    greedy_steps: int         # decisions a cheapest-fight-first player makes while a win is still possible
    greedy_wins: bool
    route_length: int         # decisions of the solution (doors and fights)


@dataclass(frozen=True)
class GeneratedLevel:
    level: PassagesLevel
    text: str                 # the level file, header included
    route: tuple[Decision, ...]
    final_hp: int
    min_start_hp: int
    difficulty: Difficulty
    engine: str
    attempts: int
    engine_disagreements: int   # candidates the explorer passed and the engine refused (a bug if > 0)


# ---------------------------------------------------------------------------------------------- engine

def resolve_engine(engine: Any = None) -> ModuleType | Any:
    """An engine object (best_route, min_start_hp, count_solutions), a module name such as "brute", or
    None for the first engine of ENGINE_MODULES that is installed."""
    if engine is not None and not isinstance(engine, str):
        return engine
    names = ENGINE_MODULES if engine is None else (f"twisty.solver.passages_{engine}",)
    for name in names:
        try:
            return importlib.import_module(name)
        except ImportError:
            continue
    raise GenerationError(f"no passages engine named {engine!r} is installed")


# ------------------------------------------------------------------------------------------------ map

@dataclass
class Draft:
    """A level being shaped: the grid of walls and floor, the start, the goal and the objects by cell."""

    grid: list[list[str]]
    start: Cell
    goal: Cell
    boss: Cell
    things: dict[Cell, Thing]
    player: Stats
    notes: dict[str, Any] = field(default_factory=dict)

    def level(self, hp: int) -> PassagesLevel:
        rows = [row[:] for row in self.grid]
        rows[self.start[0]][self.start[1]] = "S"
        rows[self.goal[0]][self.goal[1]] = "G"
        for cell, thing in self.things.items():
            rows[cell[0]][cell[1]] = thing.symbol
        # Objects in reading order, as the loader lists them, so that indices agree with the written file.
        things = tuple(self.things[cell] for cell in sorted(self.things))
        return PassagesLevel(tuple("".join(row) for row in rows), self.start, (self.goal,), things,
                             replace(self.player, hp=hp))


def cell_at(x: int, y: int) -> Cell:
    """The grid cell of maze cell (x, y)."""
    return 2 * y + 1, 2 * x + 1


def between(a: tuple[int, int], b: tuple[int, int]) -> Cell:
    """The grid cell of the corridor joining two neighbouring maze cells."""
    (ra, ca), (rb, cb) = cell_at(*a), cell_at(*b)
    return (ra + rb) // 2, (ca + cb) // 2


def maze_neighbours(x: int, y: int, width: int, height: int) -> list[tuple[int, int]]:
    return [(x + dx, y + dy) for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1))
            if 0 <= x + dx < width and 0 <= y + dy < height]


def carve_maze(rng: random.Random, width: int, height: int) -> set[frozenset]:
    """A perfect maze by randomized depth-first search: the set of corridors (pairs of maze cells)."""
    first = (rng.randrange(width), rng.randrange(height))
    visited = {first}
    stack = [first]
    corridors: set[frozenset] = set()
    while stack:
        here = stack[-1]
        options = [n for n in maze_neighbours(*here, width, height) if n not in visited]
        if not options:
            stack.pop()
            continue
        nxt = rng.choice(options)
        corridors.add(frozenset((here, nxt)))
        visited.add(nxt)
        stack.append(nxt)
    return corridors


def all_links(width: int, height: int) -> list[frozenset]:
    links = []
    for y in range(height):
        for x in range(width):
            if x + 1 < width:
                links.append(frozenset(((x, y), (x + 1, y))))
            if y + 1 < height:
                links.append(frozenset(((x, y), (x, y + 1))))
    return links


def link_key(link: frozenset) -> tuple:
    return tuple(sorted(link))


def adjacency(corridors: set[frozenset]) -> dict[tuple[int, int], list[tuple[int, int]]]:
    graph: dict[tuple[int, int], list[tuple[int, int]]] = {}
    for link in sorted(corridors, key=link_key):
        a, b = sorted(link)
        graph.setdefault(a, []).append(b)
        graph.setdefault(b, []).append(a)
    return graph


def distances(graph: dict, source: tuple[int, int], removed: frozenset | None = None) -> dict:
    seen = {source: 0}
    queue = [source]
    for here in queue:
        for nxt in graph.get(here, []):
            if nxt not in seen and frozenset((here, nxt)) != removed:
                seen[nxt] = seen[here] + 1
                queue.append(nxt)
    return seen


def bridges(corridors: set[frozenset], cells: int) -> set[frozenset]:
    """Corridors whose loss disconnects the maze: chokepoints (small mazes, so the plain test is enough)."""
    graph = adjacency(corridors)
    found = set()
    for link in sorted(corridors, key=link_key):
        a, _ = sorted(link)
        if len(distances(graph, a, removed=link)) < cells:
            found.add(link)
    return found


@dataclass(frozen=True)
class MazeMap:
    width: int
    height: int
    corridors: frozenset           # open corridors (pairs of maze cells)
    room_of: dict                  # maze cell -> room number
    room_cells: frozenset          # grid cells opened inside rooms (corners between room cells)


def build_map(rng: random.Random, params: PassagesParams, profile: Profile) -> MazeMap:
    width, height = params.width, params.height
    corridors = carve_maze(rng, width, height)
    room_of: dict[tuple[int, int], int] = {}
    room_cells: set[Cell] = set()
    for room in range((width * height) // profile.rooms_per_cells):
        room_w, room_h = rng.choice(((2, 2), (3, 2), (2, 3)))
        if room_w > width or room_h > height:
            continue
        x0, y0 = rng.randrange(width - room_w + 1), rng.randrange(height - room_h + 1)
        members = [(x, y) for y in range(y0, y0 + room_h) for x in range(x0, x0 + room_w)]
        if any(m in room_of for m in members):
            continue
        for member in members:
            room_of[member] = room
            for other in maze_neighbours(*member, width, height):
                if other in members:
                    corridors.add(frozenset((member, other)))
        # The wall corners inside a room become floor, so that the room is one open space.
        for y in range(y0, y0 + room_h - 1):
            for x in range(x0, x0 + room_w - 1):
                room_cells.add((2 * y + 2, 2 * x + 2))
    walls = [link for link in all_links(width, height) if link not in corridors]
    loops = int(len(walls) * profile.loops)
    for link in rng.sample(sorted(walls, key=link_key), loops):
        corridors.add(link)
    return MazeMap(width, height, frozenset(corridors), room_of, frozenset(room_cells))


# ----------------------------------------------------------------------------------------- bestiary

@dataclass(frozen=True)
class Breed:
    """A kind of enemy: how many hits it lands and how hard, at the stats a player should have by then."""

    name: str
    hits: tuple[int, int]
    per_hit: tuple[int, int]
    defense: tuple[int, int]
    first_strike: bool = False


BESTIARY = (
    Breed("Rat", (1, 2), (1, 2), (0, 0)),
    Breed("Bat", (1, 2), (1, 3), (0, 0), first_strike=True),
    Breed("Slime", (3, 5), (1, 1), (0, 0)),
    Breed("Goblin", (1, 3), (2, 3), (0, 1)),
    Breed("Skeleton", (2, 3), (2, 4), (1, 1)),
    Breed("Orc", (2, 4), (2, 4), (0, 1)),
    Breed("Wraith", (1, 2), (3, 5), (0, 1), first_strike=True),
    Breed("Knight", (2, 3), (2, 4), (1, 2)),
    Breed("Troll", (3, 5), (2, 4), (1, 1)),
)
BOSSES = (
    Breed("Minotaur", (3, 5), (3, 5), (0, 1)),
    Breed("Lich", (2, 4), (3, 6), (1, 2), first_strike=True),
    Breed("Dragon", (3, 6), (3, 6), (1, 2)),
)


def draw_enemy(rng: random.Random, breed: Breed, atk: int, defense: int, boss: bool = False) -> Enemy:
    """An enemy of `breed` against a player with (atk, defense): its damage falls in the breed's ranges."""
    enemy_def = min(rng.randint(*breed.defense), max(0, atk - 1))
    per_strike = atk - enemy_def
    hits = rng.randint(*breed.hits)
    strikes = hits if breed.first_strike else hits + 1
    strikes = max(strikes, 1)
    hp = rng.randint((strikes - 1) * per_strike + 1, strikes * per_strike)
    enemy_atk = defense + rng.randint(*breed.per_hit)
    return Enemy(breed.name, hp, enemy_atk, enemy_def, breed.first_strike, boss)


# --------------------------------------------------------------------------------------- placements

def open_region(grid: list[list[str]], start: Cell, blocked: set[Cell]) -> set[Cell]:
    """Floor cells reachable from `start` without crossing a wall or a blocked cell."""
    seen = {start}
    queue = [start]
    for row, col in queue:
        for nxt in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)):
            if nxt not in seen and nxt not in blocked and grid[nxt[0]][nxt[1]] != "#":
                seen.add(nxt)
                queue.append(nxt)
    return seen


def weighted_order(rng: random.Random, items: list, weight) -> list:
    """Items in a random order where heavier items tend to come first. Keys are products, which IEEE
    arithmetic rounds the same everywhere (a power would depend on the machine's C library)."""
    keyed = [(rng.random() * weight(item), index) for index, item in enumerate(items)]
    return [items[index] for _, index in sorted(keyed, reverse=True)]


def draw_draft(rng: random.Random, params: PassagesParams, profile: Profile) -> Draft | None:
    maze = build_map(rng, params, profile)
    width, height = maze.width, maze.height
    graph = adjacency(set(maze.corridors))
    cells = [(x, y) for y in range(height) for x in range(width)]
    start = rng.choice(cells)
    reach = distances(graph, start)
    dead_ends = [c for c in cells if len(graph.get(c, [])) == 1 and c not in maze.room_of and c != start]
    if not dead_ends:
        return None
    farthest = max(reach[c] for c in dead_ends)
    goal = rng.choice([c for c in dead_ends if reach[c] >= 0.6 * farthest])
    boss_link = frozenset((goal, graph[goal][0]))
    if reach[goal] < 2:
        return None

    grid = [["#"] * (2 * width + 1) for _ in range(2 * height + 1)]
    for cell in cells:
        r, c = cell_at(*cell)
        grid[r][c] = "."
    for link in maze.corridors:
        r, c = between(*sorted(link))
        grid[r][c] = "."
    for r, c in maze.room_cells:
        grid[r][c] = "."

    chokepoints = bridges(set(maze.corridors), width * height)
    candidates = [link for link in sorted(maze.corridors, key=link_key)
                  if link != boss_link and not (len({maze.room_of.get(c, -1 - i) for i, c in
                                                      enumerate(sorted(link))}) == 1)]
    chosen = weighted_order(rng, candidates, lambda link: 4.0 if link in chokepoints else 1.0)
    chosen = chosen[:params.blockers - 1]

    player = Stats(hp=1, atk=rng.randint(1, 3), defense=rng.randint(0, 1), keys=0)
    things: dict[Cell, Thing] = {}
    doors = [link for link in chosen if rng.random() < profile.door_share]
    enemies = [link for link in chosen if link not in doors]
    for link in doors:
        things[between(*sorted(link))] = Thing("door", "D", between(*sorted(link)))

    floor = [cell_at(*c) for c in cells if c not in (start, goal)]
    rng.shuffle(floor)
    equipment_count = max(1, round(params.blockers * profile.equipment_per_blocker))
    elixir_count = max(1, round(params.blockers * profile.elixirs_per_blocker))
    items: list[Thing] = []
    for _ in doors:
        items.append(Thing("key", "k", (0, 0)))
    for _ in range(equipment_count):
        atk, defense = rng.choice(((1, 0), (1, 0), (0, 1), (0, 1), (2, 0), (1, 1)))
        items.append(Thing("equipment", "s", (0, 0), atk=atk, defense=defense))
    for _ in range(elixir_count):
        items.append(Thing("elixir", "+", (0, 0), hp=rng.randint(2, 10)))
    if len(items) > len(floor):
        return None
    for thing, cell in zip(items, floor):
        things[cell] = replace(thing, cell=cell)
    # An elixir the player stands next to at the start is only a larger starting life: leave it out.
    blocked = {between(*sorted(link)) for link in chosen} | {between(*sorted(boss_link))}
    for cell in sorted(open_region(grid, cell_at(*start), blocked)):
        if cell in things and things[cell].kind == "elixir":
            del things[cell]

    # Enemies start sealed (no attack can harm them) and get their stats from the route drawn next:
    # the ones it fights are scaled to the player it meets, the others are opened up later as traps.
    far = max(reach.values()) or 1
    breeds: dict[Cell, Breed] = {}
    for link in enemies:
        depth = min(reach[c] for c in link) / far
        strongest = max(1, min(len(BESTIARY), round(len(BESTIARY) * (0.4 + 0.6 * depth))))
        cell = between(*sorted(link))
        breeds[cell] = rng.choice(BESTIARY[:strongest])
        things[cell] = Thing("enemy", "e", cell, enemy=sealed(breeds[cell]))
    boss_cell = between(*sorted(boss_link))
    breeds[boss_cell] = rng.choice(BOSSES)
    things[boss_cell] = Thing("enemy", "B", boss_cell, enemy=sealed(breeds[boss_cell], boss=True))
    return Draft(grid, cell_at(*start), cell_at(*goal), boss_cell, things, player, {"breeds": breeds})


SEALED_DEFENSE = 1000


def sealed(breed: Breed, boss: bool = False) -> Enemy:
    """A placeholder that no player can harm, so that it cannot be fought while the level takes shape."""
    return Enemy(breed.name, 1, 1, SEALED_DEFENSE, breed.first_strike, boss)


def is_sealed(enemy: Enemy | None) -> bool:
    return enemy is not None and enemy.defense >= SEALED_DEFENSE


# ----------------------------------------------------------------------------------------- route

def walk_route(draft: Draft, rng: random.Random, share: float) -> bool:
    """Draw the intended route: from the start, consume frontier blockers at random (preferring those
    that open items) until about `share` of the enemies are fought, then the boss. Each enemy fought
    gets stats drawn against the player it meets; keys the route does not need are removed, since a
    spare key opens a door that makes a second solution."""
    explorer = Explorer(draft.level(hp=1), budget=10_000_000)
    breeds = draft.notes["breeds"]
    boss_number = next(b for b, obj in enumerate(explorer.objects)
                       if explorer.level.things[obj].cell == draft.boss)
    enemy_count = sum(1 for door in explorer.is_door if not door) - 1
    wanted = max(1, round(enemy_count * share))
    mask, fought, steps = 0, 0, []
    while True:
        here = explorer.info(mask)
        options = [b for b in here.frontier if b != boss_number
                   and (not explorer.is_door[b] or here.keys_left >= 1)]
        boss_ready = boss_number in here.frontier and (fought >= wanted or not options)
        if boss_ready:
            chosen = boss_number
        elif not options:
            return False
        else:
            def weight(b: int) -> float:
                after = explorer.info(mask | 1 << b)
                gains = (after.atk - here.atk) + (after.defense - here.defense) + (after.keys_left - here.keys_left
                                                                                   + explorer.is_door[b])
                return 1.0 + 2.0 * (gains > 0) + 1.0 * (after.elixirs > here.elixirs)
            chosen = weighted_order(rng, options, weight)[0]
        steps.append(chosen)
        cell = explorer.level.things[explorer.objects[chosen]].cell
        if not explorer.is_door[chosen]:
            fought += 1
            enemy = draw_enemy(rng, breeds[cell], here.atk, here.defense, boss=chosen == boss_number)
            set_enemy(draft, cell, enemy)
        mask |= 1 << chosen
        if chosen == boss_number:
            break
    drop_spare_keys(draft, explorer, steps)
    return True


def drop_spare_keys(draft: Draft, explorer: Explorer, steps: list[int]) -> None:
    """Remove keys the route collects but never needs, latest first, keeping every door it opens open."""
    level = explorer.level
    graph = explorer.graph
    collected: list[Cell] = []
    mask = 0
    seen_areas = 0
    for b in [None] + steps:
        if b is not None:
            mask |= 1 << b
        areas = explorer.info(mask).areas
        for area in range(len(graph.areas)):
            if areas >> area & 1 and not seen_areas >> area & 1:
                collected += [level.things[i].cell for i in graph.areas[area].items
                              if level.things[i].kind == "key"]
        seen_areas |= areas

    def balanced(removed: set[Cell]) -> bool:
        keys, mask, seen = level.player.keys, 0, 0
        for b in [None] + steps:
            if b is not None:
                if explorer.is_door[b]:
                    if keys < 1:
                        return False
                    keys -= 1
                mask |= 1 << b
            areas = explorer.info(mask).areas
            for area in range(len(graph.areas)):
                if areas >> area & 1 and not seen >> area & 1:
                    keys += sum(1 for i in graph.areas[area].items
                                if level.things[i].kind == "key" and level.things[i].cell not in removed)
            seen |= areas
        return True

    removed: set[Cell] = set()
    for cell in reversed(collected):
        if balanced(removed | {cell}):
            removed.add(cell)
    for cell in sorted(removed):
        del draft.things[cell]


# ------------------------------------------------------------------------------------ tightening

def closest_enemy(enemy: Enemy, accept, hp_span: int = 12, atk_span: int = 8, def_span: int = 2) -> Enemy | None:
    """The smallest change of `enemy`'s hp, atk and def that `accept` takes (ties: fewer hp first)."""
    best = None
    for hp in range(max(1, enemy.hp - hp_span), enemy.hp + hp_span + 1):
        for atk in range(max(0, enemy.atk - atk_span), enemy.atk + atk_span + 1):
            for defense in range(max(0, enemy.defense - def_span), enemy.defense + def_span + 1):
                candidate = replace(enemy, hp=hp, atk=atk, defense=defense)
                if candidate == enemy or not accept(candidate):
                    continue
                change = (abs(hp - enemy.hp) + 2 * abs(atk - enemy.atk) + 3 * abs(defense - enemy.defense),
                          hp, atk, defense)
                if best is None or change < best[0]:
                    best = (change, candidate)
    return None if best is None else best[1]


def set_enemy(draft: Draft, cell: Cell, enemy: Enemy) -> None:
    draft.things[cell] = replace(draft.things[cell], enemy=enemy)


def fight_stats(explorer: Explorer, win: Win, start_hp: int) -> dict[int, tuple[int, int]]:
    """Blocker -> the player's (atk, def) when the route of `win` consumes it (free fights included)."""
    number = {obj: b for b, obj in enumerate(explorer.objects)}
    states = explorer.replay_states(win.decisions, start_hp)
    stats = {}
    for (action, obj), (mask, _) in zip(win.decisions, states):
        if action != "goal":
            here = explorer.info(mask)
            stats[number[obj]] = (here.atk, here.defense)
    return stats


def strengthen_boss(draft: Draft, explorer: Explorer, route: tuple[Decision, ...], start_hp: int,
                    extra: int) -> bool:
    """Make the boss cost exactly `extra` more life to the best route, which then ends with 1 life."""
    boss_obj = next(i for i, t in enumerate(explorer.level.things) if t.cell == draft.boss)
    boss_number = explorer.objects.index(boss_obj)
    stats = fight_stats(explorer, Win(0, route, frozenset(), 0), start_hp).get(boss_number)
    if stats is None:
        return False
    atk, defense = stats
    boss = draft.things[draft.boss].enemy
    assert boss is not None
    now = fight_damage(boss, atk, defense)
    if now is None:
        return False
    target = now + extra
    stronger = closest_enemy(boss, lambda e: fight_damage(e, atk, defense) == target,
                             hp_span=3 * max(1, atk), atk_span=extra + 2, def_span=0)
    if stronger is None:
        return False
    set_enemy(draft, draft.boss, stronger)
    return True


def repair_plan(draft: Draft, explorer: Explorer, chosen: Win, others: list[Win], start_hp: int,
                rng: random.Random) -> bool:
    """Change the draft so that the other winning signatures lose, keeping `chosen` winning.

    Safe changes first (they only remove routes that `chosen` does not take): wall up a door only the
    other solution opens, strengthen an enemy only the other solution fights. Otherwise one reshaping of
    an enemy both fight with different stats, so that the other order costs more than the chosen one."""
    level = explorer.level
    chosen_stats = fight_stats(explorer, chosen, start_hp)
    cell_of = {b: level.things[obj].cell for b, obj in enumerate(explorer.objects)}
    changed = False
    for other in others:
        other_fights = {b: (atk, defense) for b, atk, defense in sorted(other.fights)}
        extra_doors = [b for b in range(len(explorer.objects))
                       if other.doors >> b & 1 and b not in chosen_stats]
        extra_enemies = [b for b in sorted(other_fights) if b not in chosen_stats]
        if extra_doors:
            cell = cell_of[extra_doors[0]]
            if cell in draft.things:
                del draft.things[cell]
                draft.grid[cell[0]][cell[1]] = "#"
                changed = True
        elif extra_enemies:
            b = extra_enemies[0]
            cell = cell_of[b]
            enemy = draft.things[cell].enemy
            if enemy is not None:
                atk, defense = other_fights[b]
                if rng.random() < 0.5:
                    stronger = replace(enemy, atk=enemy.atk + rng.randint(1, 2))
                else:
                    stronger = replace(enemy, hp=enemy.hp + max(1, atk - enemy.defense) * rng.randint(1, 2))
                set_enemy(draft, cell, stronger)
                changed = True
    if changed:
        return True
    for other in others:
        other_fights = {b: (atk, defense) for b, atk, defense in sorted(other.fights)}
        for b in sorted(other_fights):
            if b not in chosen_stats or chosen_stats[b] == other_fights[b]:
                continue
            mine, theirs = chosen_stats[b], other_fights[b]
            enemy = draft.things[cell_of[b]].enemy
            assert enemy is not None
            gap = gap_between(enemy, mine, theirs)
            reshaped = closest_enemy(enemy, lambda e: gap_between(e, mine, theirs) > gap
                                     and fight_damage(e, *mine) == fight_damage(enemy, *mine))
            if reshaped is None:
                reshaped = closest_enemy(enemy, lambda e: gap_between(e, mine, theirs) > gap
                                         and fight_damage(e, *mine) is not None)
            if reshaped is not None:
                set_enemy(draft, cell_of[b], reshaped)
                return True
        # The other solution skips a costly fight of the chosen one: make that fight cheaper.
        for b, atk, defense in sorted(chosen.fights):
            if b in other_fights:
                continue
            enemy = draft.things[cell_of[b]].enemy
            assert enemy is not None
            now = fight_damage(enemy, atk, defense)
            assert now is not None
            cheaper = closest_enemy(enemy, lambda e: (fight_damage(e, atk, defense) or 0) >= 1
                                    and fight_damage(e, atk, defense) < now
                                    and fight_damage(e, atk, defense) is not None, def_span=0)
            if cheaper is not None:
                set_enemy(draft, cell_of[b], cheaper)
                return True
    return False


def gap_between(enemy: Enemy, mine: tuple[int, int], theirs: tuple[int, int]) -> float:
    """How much more the other stats pay than the chosen ones (an impossible fight pays without end)."""
    ours = fight_damage(enemy, *mine)
    other = fight_damage(enemy, *theirs)
    if ours is None:
        return float("-inf")
    if other is None:
        return float("inf")
    return other - ours


def asks_enough(explorer: Explorer, win: Win, draft: Draft) -> bool:
    """A solution worth solving: the boss hurts, and so do some other fights (a level won without a
    scratch has nothing to be tight about)."""
    boss_number = next(b for b, obj in enumerate(explorer.objects) if explorer.level.things[obj].cell == draft.boss)
    costly = {b for b, _, _ in win.fights}
    enemies = sum(1 for door in explorer.is_door if not door)
    return boss_number in costly and len(costly) >= max(min(2, enemies), len(explorer.objects) // 4)


def tighten(draft: Draft, rng: random.Random) -> tuple[int, Win] | None:
    """Shape the draft until its best route ends with 1 life and no other signature wins. Returns the
    starting life and the one winning signature, or None when the draft cannot be repaired."""
    for _ in range(MAX_REPAIR_ROUNDS):
        level = draft.level(hp=1)
        explorer = Explorer(level, EXPLORE_BUDGET_PER_BLOCKER * max(10, len(level.blockers())))
        start_hp = explorer.min_start_hp(start_hp_upper_bound(level))
        if start_hp is None:
            return None
        best = explorer.best_route(start_hp)
        assert best is not None
        final, route = best
        if final > 1:
            if not strengthen_boss(draft, explorer, route, start_hp, final - 1):
                return None
            continue
        wins = explorer.winning_signatures(start_hp, SIGNATURE_CAP)
        if len(wins) == 1:
            if not asks_enough(explorer, wins[0], draft):
                return None
            return start_hp, wins[0]
        # Prefer keeping the solution with the most costly fights: it asks most of the player.
        ranked = sorted(wins, key=lambda w: (-len(w.fights), sorted(w.fights), w.doors))
        for chosen in ranked:
            others = [w for w in wins if w is not chosen]
            if repair_plan(draft, explorer, chosen, others, start_hp, rng):
                break
        else:
            return None
    return None


# ------------------------------------------------------------------------------------------ traps

def keeps_unique(draft: Draft, start_hp: int, win: Win) -> bool:
    """With `start_hp`, `win`'s signature still wins with exactly 1 life and no other signature wins."""
    level = draft.level(start_hp)
    explorer = Explorer(level, EXPLORE_BUDGET_PER_BLOCKER * max(10, len(level.blockers())))
    try:
        wins = explorer.winning_signatures(start_hp, 1)
    except TooMuchWork:
        return False
    return (len(wins) == 1 and wins[0].final_hp == 1 and wins[0].fights == win.fights
            and wins[0].doors == win.doors)


def deadly(enemy: Enemy, best_atk: int, best_def: int, life: int) -> Enemy:
    """`enemy` made strong enough that even the best equipped player with all the life of the level
    cannot survive it (an enemy that cannot be harmed at all is left as it is)."""
    if enemy.defense >= best_atk:
        return enemy
    if not enemy.first_strike:
        enemy = replace(enemy, hp=max(enemy.hp, best_atk - enemy.defense + 1))
    hits = fight_damage(replace(enemy, atk=best_def + 1), best_atk, best_def)
    assert hits is not None and hits >= 1
    return replace(enemy, atk=best_def - (-life // hits))


def trap_ladder(natural: Enemy) -> list[Enemy]:
    """Candidate stats for a trap, weakest first: harder hits, then more hits as well."""
    ladder = [natural] + [replace(natural, atk=natural.atk + step) for step in (1, 2, 3, 4, 6, 8)]
    for factor, step in ((3, 2), (2, 4), (3, 6), (4, 8)):
        ladder.append(replace(natural, hp=natural.hp * factor // 2 + 1, atk=natural.atk + step))
    return ladder


def relax_traps(draft: Draft, rng: random.Random, start_hp: int, win: Win, share: float) -> None:
    """Give every enemy the route does not fight real stats from a ladder (drawn against the player who
    first meets it, then harder) that keep the solution unique and tight. An enemy that can be fought but
    only loses is a trap: a `share` of the enemies tries the ladder from its weakest end, the others from
    its strongest; one that no rung suits is made deadly."""
    level = draft.level(start_hp)
    explorer = Explorer(level, budget=10_000_000)
    met: dict[int, tuple[int, int]] = {}
    for mask, _ in explorer.replay_states(win.decisions, start_hp):
        here = explorer.info(mask)
        for b in here.frontier:
            met.setdefault(b, (here.atk, here.defense))
    final = explorer.info(explorer.replay_states(win.decisions, start_hp)[-1][0])
    player = level.player
    best_atk = player.atk + sum(t.atk for t in level.things)
    best_def = player.defense + sum(t.defense for t in level.things)
    life = start_hp + sum(t.hp for t in level.things if t.kind == "elixir")
    number = {level.things[obj].cell: b for b, obj in enumerate(explorer.objects)}
    cells = sorted(cell for cell, thing in draft.things.items() if thing.kind == "enemy" and is_sealed(thing.enemy))
    rng.shuffle(cells)
    for cell in cells:
        atk, defense = met.get(number[cell], (final.atk, final.defense))
        natural = draw_enemy(rng, draft.notes["breeds"][cell], atk, defense)
        # A trap takes the weakest stats that keep the solution; the others the strongest of the ladder
        # (still a plausible monster), so that fewer of them can be fought at all.
        ladder = trap_ladder(natural)
        if rng.random() >= share:
            ladder.reverse()
        ladder.append(deadly(natural, best_atk, best_def, life))
        for candidate in ladder:
            set_enemy(draft, cell, candidate)
            if keeps_unique(draft, start_hp, win):
                break
        else:
            set_enemy(draft, cell, sealed(draft.notes["breeds"][cell]))


# ------------------------------------------------------------------------------------- difficulty

def measure_difficulty(level: PassagesLevel, route: tuple[Decision, ...]) -> Difficulty:
    """Traps along the solution, fights that must wait, and how far a greedy player gets."""
    explorer = Explorer(level, budget=10_000_000)
    start_hp = level.player.hp
    states = explorer.replay_states(route, start_hp)
    number = {obj: b for b, obj in enumerate(explorer.objects)}
    route_blockers = [number[obj] for action, obj in route if action != "goal"]
    traps: set[int] = set()
    first_move_traps = 0
    early_fightable: set[int] = set()
    for step, (mask, hp) in enumerate(states[:-1]):
        for move in explorer.moves(mask, hp):
            if move.blocker == route_blockers[step]:
                continue
            if move.blocker in route_blockers and move.blocker not in traps:
                # An enemy of the solution, fightable now, but now is the wrong time.
                if not explorer.can_win_from(move.mask, move.hp):
                    early_fightable.add(move.blocker)
                continue
            if move.blocker not in traps and not explorer.can_win_from(move.mask, move.hp):
                traps.add(move.blocker)
                if step == 0:
                    first_move_traps += 1
    ordered = sum(1 for b in early_fightable if not explorer.is_door[b])

    # A greedy player: always the cheapest legal move (doors cost nothing), ties in reading order.
    mask, hp = states[0]
    greedy_steps, greedy_wins = 0, False
    while True:
        if explorer.info(mask).goal is not None:
            greedy_wins = True
            break
        moves = explorer.moves(mask, hp)
        if not moves:
            break
        move = min(moves, key=lambda m: (m.cost, explorer.objects[m.blocker]))
        if not explorer.can_win_from(move.mask, move.hp):
            break
        mask, hp = move.mask, move.hp
        greedy_steps += 1
    length = len(route_blockers)
    greedy_penalty = 0 if greedy_wins else 2 + max(0, length - greedy_steps) // 2
    score = len(traps) + 2 * ordered + greedy_penalty
    return Difficulty(score, len(traps), first_move_traps, ordered, greedy_steps, greedy_wins, length)


# ---------------------------------------------------------------------------------------- verifying

class VerificationError(Exception):
    pass


def verify(level: PassagesLevel, engine: Any) -> tuple[tuple[Decision, ...], int]:
    """Prove the level's claims with `engine`: best final life exactly 1, one winning signature, and no
    win with one life less (solvability only grows with the starting life, so the starting life is then
    min_start_hp). Returns the replayed route and min_start_hp; raises VerificationError otherwise."""
    best = engine.best_route(level, Deadline(None))
    if best.status != SOLVABLE or not best.proved or best.final_hp != 1:
        raise VerificationError(f"best route: {best.status}, final hp {best.final_hp}")
    try:
        replayed = replay(level, best.decisions)
    except RouteError as error:
        raise VerificationError(f"the engine's route breaks the rules: {error}") from None
    if replayed.final_hp != 1:
        raise VerificationError("the engine's route does not replay to 1 life")
    count = engine.count_solutions(level, Deadline(None), 2, 1)
    if not count.complete or count.solutions != 1 or count.capped:
        raise VerificationError(f"{count.solutions} solutions (complete: {count.complete})")
    start_hp = level.player.hp
    if start_hp > 1:
        weaker = engine.best_route(level.with_start_hp(start_hp - 1), Deadline(None))
        if weaker.status != UNSOLVABLE:
            raise VerificationError(f"with {start_hp - 1} life the level is {weaker.status}")
    return tuple(best.decisions), start_hp


# ------------------------------------------------------------------------------------------- public

def generate_level(params: PassagesParams, seed: int, engine: Any = None,
                   max_attempts: int = MAX_ATTEMPTS) -> GeneratedLevel:
    """A verified tight level with a unique solution for (params, seed); the same inputs give the same
    level. `engine` verifies it: an object with the engine contract, an engine name ("search", "cpsat",
    "brute") or None for the first installed. Raises GenerationError when no draft passes within
    `max_attempts` drafts."""
    from twisty.generator.passages_writer import level_text

    params.validate()
    solver = resolve_engine(engine)
    engine_name = getattr(solver, "NAME", getattr(solver, "__name__", "engine"))
    profile = PROFILES[params.difficulty]
    low, high = score_range(params.difficulty, params.blockers)
    rng = random.Random(seed)
    disagreements = 0
    for attempt in range(1, max_attempts + 1):
        draft = draw_draft(rng, params, profile)
        if draft is None or not walk_route(draft, rng, profile.route_share):
            continue
        try:
            tightened = tighten(draft, rng)
        except TooMuchWork:
            continue
        if tightened is None:
            continue
        start_hp, win = tightened
        relax_traps(draft, rng, start_hp, win, profile.trap_share)
        if any(is_sealed(thing.enemy) for thing in draft.things.values()):
            continue
        candidate = draft.level(start_hp)
        difficulty = measure_difficulty(candidate, win.decisions)
        if not low <= difficulty.score <= high:
            continue
        body = level_text(candidate, params, seed, difficulty, header=False)
        level = load_passages(parse_level_bytes(body.encode("utf-8"), f"<generated seed {seed}>"))
        try:
            route, min_start = verify(level, solver)
        except VerificationError:
            disagreements += 1
            continue
        text = level_text(level, params, seed, difficulty, header=True)
        return GeneratedLevel(level, text, route, 1, min_start, difficulty, str(engine_name), attempt,
                              disagreements)
    raise GenerationError(f"no {params.difficulty} level of {params.width}x{params.height} cells with "
                          f"{params.blockers} blockers found for seed {seed} in {max_attempts} drafts")
