"""A draft of a generated passages level: the map, the objects placed on it, and the intended route.

A draft is mutable while the generator shapes it (enemies get stats, doors are walled up, keys removed);
`Draft.level` gives the level it stands for at any moment.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace
from functools import partial
from typing import Any

from twisty.generator.passages_bestiary import BESTIARY, BOSSES, Breed, draw_enemy, sealed
from twisty.generator.passages_explore import Explorer
from twisty.generator.passages_maze import (
    Cell,
    adjacency,
    between,
    bridges,
    build_map,
    cell_at,
    distances,
    link_key,
    open_region,
    weighted_order,
)
from twisty.generator.passages_params import PassagesParams, Profile
from twisty.generator.passages_random import assemble_level
from twisty.limits import Deadline
from twisty.rules.passages import Enemy, PassagesLevel, Stats, Thing, apply_item, blocker_cost, pay_for


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
        """The level as it stands, with `hp` starting life; its objects come in reading order, as the loader
        lists them, so that object indices agree with the file written from it."""
        return assemble_level(
            [row[:] for row in self.grid],
            self.start,
            self.goal,
            list(self.things.values()),
            replace(self.player, hp=hp),
            name="",
        )


def set_enemy(draft: Draft, cell: Cell, enemy: Enemy) -> None:
    """Give the enemy at `cell` new stats."""
    draft.things[cell] = replace(draft.things[cell], enemy=enemy)


def draw_draft(rng: random.Random, params: PassagesParams, profile: Profile) -> Draft | None:
    """A map with the start, the goal at a far dead end behind the boss, the other blockers on corridors
    (chokepoints first), keys for the doors, equipment and elixirs; None when the map has no room for it."""
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
    candidates = [
        link
        for link in sorted(maze.corridors, key=link_key)
        if link != boss_link and not (len({maze.room_of.get(c, -1 - i) for i, c in enumerate(sorted(link))}) == 1)
    ]
    chosen = weighted_order(rng, candidates, lambda link: 4.0 if link in chokepoints else 1.0)
    chosen = chosen[: params.blockers - 1]

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
    for thing, cell in zip(items, floor, strict=False):
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


# ----------------------------------------------------------------------------------------- route


def walk_route(draft: Draft, rng: random.Random, share: float, deadline: Deadline | None) -> list[Cell] | None:
    """Draw the intended route and return the cells of the blockers it consumes, in order (None: the draft
    has no route): from the start, consume frontier blockers at random (preferring those
    that open items) until about `share` of the enemies are fought, then the boss. Each enemy fought
    gets stats drawn against the player it meets; keys the route does not need are removed, since a
    spare key opens a door that makes a second solution. Doors need a key (blocker_cost); enemies are
    all still sealed, so the route may fight any of them: its stats are drawn to suit."""
    explorer = Explorer(draft.level(hp=1), budget=10_000_000, deadline=deadline)
    level = explorer.level
    breeds = draft.notes["breeds"]
    boss_number = next(b for b, obj in enumerate(explorer.objects) if explorer.level.things[obj].cell == draft.boss)
    enemy_count = sum(1 for door in explorer.is_door if not door) - 1
    wanted = max(1, round(enemy_count * share))
    mask, fought, steps = 0, 0, []
    while True:
        here = explorer.info(mask)
        player = explorer.stats(mask, hp=1)  # life does not matter to a door
        options = [
            b
            for b in here.frontier
            if b != boss_number
            and (not explorer.is_door[b] or blocker_cost(level, explorer.objects[b], player) is not None)
        ]
        boss_ready = boss_number in here.frontier and (fought >= wanted or not options)
        if boss_ready:
            chosen = boss_number
        elif not options:
            return None
        else:
            chosen = weighted_order(rng, options, partial(step_weight, explorer, mask))[0]
        steps.append(chosen)
        cell = level.things[explorer.objects[chosen]].cell
        if not explorer.is_door[chosen]:
            fought += 1
            enemy = draw_enemy(rng, breeds[cell], here.atk, here.defense, boss=chosen == boss_number)
            set_enemy(draft, cell, enemy)
        mask |= 1 << chosen
        if chosen == boss_number:
            break
    drop_spare_keys(draft, explorer, steps)
    return [level.things[explorer.objects[b]].cell for b in steps]


def step_weight(explorer: Explorer, mask: int, b: int) -> float:
    """How much the intended route likes consuming blocker `b` next: more when it opens equipment or keys,
    and more when it opens elixirs."""
    here, after = explorer.info(mask), explorer.info(mask | 1 << b)
    gains = (
        (after.atk - here.atk)
        + (after.defense - here.defense)
        + (after.keys_left - here.keys_left + explorer.is_door[b])
    )
    return 1.0 + 2.0 * (gains > 0) + 1.0 * (after.elixirs > here.elixirs)


def drop_spare_keys(draft: Draft, explorer: Explorer, steps: list[int]) -> None:
    """Remove keys the route collects but never needs, latest first, keeping every door it opens open.
    Keys are counted by the rules: items taken by apply_item as their areas are reached, a door allowed by
    blocker_cost and paid for by pay_for."""
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
                collected += [level.things[i].cell for i in graph.areas[area].items if level.things[i].kind == "key"]
        seen_areas |= areas

    def balanced(removed: set[Cell]) -> bool:
        """Whether the route still has a key for every door it opens without the keys at `removed`."""
        player, mask, seen = level.player, 0, 0
        for b in [None] + steps:
            if b is not None:
                obj = explorer.objects[b]
                if explorer.is_door[b]:
                    cost = blocker_cost(level, obj, player)
                    if cost is None:
                        return False
                    player = pay_for(level.things[obj], player, cost)
                mask |= 1 << b
            areas = explorer.info(mask).areas
            for area in range(len(graph.areas)):
                if areas >> area & 1 and not seen >> area & 1:
                    for item in graph.areas[area].items:
                        if level.things[item].cell not in removed:
                            player = apply_item(level.things[item], player)
            seen |= areas
        return True

    removed: set[Cell] = set()
    for cell in reversed(collected):
        if balanced(removed | {cell}):
            removed.add(cell)
    for cell in sorted(removed):
        del draft.things[cell]
