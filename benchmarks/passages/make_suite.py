"""Write the seeded benchmark suite of `twisty bench passages`: levels in size buckets, as TOML files.

    python benchmarks/passages/make_suite.py [--out twisty/bench/suites/passages] [--per-bucket 6] [--budget 240]
                                             [--cpsat-max-blockers 40] [--keep-existing]

Levels are built like the towers of the genre rather than like random test levels: a maze of one-cell rooms
with loops, where every blocker stands on a corridor cell between two rooms (a chokepoint), items lie in
rooms, enemies grow stronger with their distance from the start (a bestiary of ten kinds), equipment makes
later fights cheaper, keys are scarcer than doors, and the goal sits in a far dead end behind a boss.

Tightness: the starting life is set from `min_start_hp` (proven by the search engine, CP-SAT as a fallback,
within `--budget` seconds each): for four levels in six it is min_start_hp plus 0 to 2 (solvable by a hair),
for the other two min_start_hp - 1 (unsolvable by a hair), so two thirds are solvable. When neither engine
proves min_start_hp in time, the life is what the first route found needs (so the level is solvable), and the
level says so in its description; it is kept, so that the suite is not filtered by what the engines can do.

The same seed always gives the same file (written by the one passages writer, twisty.rules.passages_writer);
[expect] holds the answers proven at generation time.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import deque
from dataclasses import replace
from pathlib import Path

from twisty.generator.passages_random import assemble_level, maze
from twisty.rules.passages import Enemy, Expectations, PassagesLevel, Stats, Thing
from twisty.rules.passages_format import load_passages
from twisty.rules.passages_writer import level_text
from twisty.rules.source import parse_level_bytes
from twisty.solver import passages_search
from twisty.solver.passages_verdict import Deadline

# (blockers, map width, map height): about 10, 20, 40, 60, 90 and 120 blockers on mazes up to 31x23.
BUCKETS = ((10, 11, 9), (20, 15, 11), (40, 21, 15), (60, 25, 19), (90, 29, 21), (120, 31, 23))
ENEMY_KINDS = 10
ENEMY_SYMBOLS = "abcdefgijn"  # none of the item letters k, s, h, w, m
ELIXIRS = (("+", 4), ("*", 8), ("$", 15))
EQUIPMENT = (("s", 1, 0), ("h", 0, 1), ("w", 2, 0), ("m", 0, 2))  # sword, shield, great sword, mail


def build_level(seed: int, blockers: int, width: int, height: int) -> PassagesLevel:
    """One suite level before its starting life is set (hp is a placeholder)."""
    rng = random.Random(seed)
    grid = maze(rng, (width - 1) // 2, (height - 1) // 2, loops=0.12)
    rooms = [(r, c) for r in range(1, height - 1, 2) for c in range(1, width - 1, 2)]
    corridors = [
        (r, c) for r in range(1, height - 1) for c in range(1, width - 1) if (r % 2) != (c % 2) and grid[r][c] == "."
    ]

    def open_around(cell):
        r, c = cell
        return [(r + dr, c + dc) for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)) if grid[r + dr][c + dc] == "."]

    start = rng.choice(rooms)
    distance = {start: 0}
    queue = deque([start])
    while queue:
        cell = queue.popleft()
        for nxt in open_around(cell):
            if nxt not in distance:
                distance[nxt] = distance[cell] + 1
                queue.append(nxt)
    farthest = max(distance.values())
    dead_ends = [room for room in rooms if room != start and len(open_around(room)) == 1]
    goal = max(dead_ends or [room for room in rooms if room != start], key=lambda room: distance[room])
    boss_cells = open_around(goal)

    player = Stats(hp=1, atk=rng.randint(3, 6), defense=rng.randint(1, 3), keys=rng.randint(0, 1))
    others = [cell for cell in corridors if cell not in boss_cells]
    blocker_cells = boss_cells + rng.sample(others, min(len(others), blockers - len(boss_cells)))
    door_count = round(0.25 * (len(blocker_cells) - len(boss_cells)))
    door_cells = set(rng.sample(blocker_cells[len(boss_cells) :], door_count))

    item_rooms = rng.sample(
        [room for room in rooms if room not in (start, goal)], min(len(rooms) - 2, round(0.9 * blockers))
    )
    key_count = max(0, door_count - rng.randint(0, door_count // 4) - player.keys)
    equipment_count = max(2, round(0.2 * len(item_rooms)))
    items: list[tuple[tuple[int, int], str]] = []
    for number, room in enumerate(item_rooms):
        kind = "key" if number < key_count else "equipment" if number < key_count + equipment_count else "elixir"
        items.append((room, kind))

    things: list[Thing] = []
    gained_atk = gained_def = 0
    for room, kind in items:
        depth = distance[room] / farthest
        if kind == "key":
            things.append(Thing("key", "k", room))
        elif kind == "elixir":
            symbol, hp = ELIXIRS[min(2, int(depth * 3 + rng.random()))]
            things.append(Thing("elixir", symbol, room, hp=hp))
        else:
            symbol, atk, defense = rng.choice(EQUIPMENT)
            gained_atk, gained_def = gained_atk + atk, gained_def + defense
            things.append(Thing("equipment", symbol, room, atk=atk, defense=defense))

    # A bestiary of ten kinds, from what the starting player handles to what needs half the equipment.
    kinds = []
    for tier in range(ENEMY_KINDS):
        share = tier / (ENEMY_KINDS - 1)
        kinds.append(
            Enemy(
                name=f"Tier {tier + 1}",
                hp=6 + 5 * tier + rng.randint(0, 4),
                atk=player.defense + 2 + round(share * (gained_def + 5)) + rng.randint(0, 1),
                defense=max(0, player.atk - 2 + round(share * gained_atk * 0.5)),
                first_strike=rng.random() < 0.1,
            )
        )
    boss = Enemy(
        name="Boss",
        hp=20 + 5 * rng.randint(0, 4),
        atk=player.defense + round(0.6 * gained_def) + 5,
        defense=player.atk - 2 + round(0.4 * gained_atk),
        boss=True,
    )
    for cell in blocker_cells:
        if cell in boss_cells:
            things.append(Thing("enemy", "B", cell, enemy=boss))
        elif cell in door_cells:
            things.append(Thing("door", "D", cell))
        else:
            tier = round(distance[cell] / farthest * (ENEMY_KINDS - 1) + rng.gauss(0, 1.2))
            tier = min(ENEMY_KINDS - 1, max(0, tier))
            things.append(Thing("enemy", ENEMY_SYMBOLS[tier], cell, enemy=kinds[tier]))

    return assemble_level(grid, start, goal, things, player, name=f"suite {blockers} blockers, seed {seed}")


def proven_min_start_hp(level: PassagesLevel, budget: float, cpsat_max_blockers: int):
    """("proved", value) / ("none", None) from the search engine, then CP-SAT on levels small enough for
    it; ("unknown", None) else."""
    answer = passages_search.min_start_hp(level, Deadline(budget))
    if answer.status != "unknown":
        return answer.status, answer.value
    if len(level.blockers()) > cpsat_max_blockers:
        return "unknown", None
    try:
        from twisty.solver import passages_cpsat
    except ImportError:
        return "unknown", None
    answer = passages_cpsat.min_start_hp(level, Deadline(budget))
    return answer.status, answer.value


def route_requirement(level: PassagesLevel, budget: float) -> int | None:
    """The starting life that the first route found at a huge life needs (an upper bound on min_start_hp)."""
    graph = passages_search.SearchGraph(level)
    found = passages_search.search(
        graph, passages_search.start_hp_upper_bound(graph), Deadline(budget), first_win=True, dive=True
    )
    if found.route is None:
        return None
    return passages_search._required_start_hp(graph, found.route)


def make_level(bucket: int, index: int, budget: float, cpsat_max_blockers: int) -> tuple[str, str]:
    """Level `index` of a bucket. Levels 2 and 5 of every six start one hp short (unsolvable by a hair),
    the others 0 to 2 hp above min_start_hp. A draw that no starting life solves (keys short, or the boss
    out of reach), or where no route turns up in time either, is redrawn with the next seed, so that the
    share of solvable levels stays known."""
    blockers, width, height = BUCKETS[bucket]
    for attempt in range(20):
        seed = 1000 * blockers + 50 * attempt + index
        level = build_level(seed, blockers, width, height)
        status, value = proven_min_start_hp(level, budget, cpsat_max_blockers)
        if status == "proved":
            break
        if status == "unknown":
            first_route_needs = route_requirement(level, budget)
            if first_route_needs is not None:
                break
    rng = random.Random(seed + 7)
    expect: dict = {}
    if status == "proved":
        hp = value - 1 if (value > 1 and index % 3 == 2) else value + rng.randint(0, 2)
        description = f"seed {seed}: starting life {hp - value:+d} from the least that solves it"
        expect["min_start_hp"] = value
        expect["solvable"] = hp >= value
    else:
        hp = first_route_needs
        description = f"seed {seed}: starting life from the first route found (min_start_hp not proven at generation)"
    level = level.with_start_hp(hp)
    if expect.get("solvable"):
        best = passages_search.best_route(level, Deadline(budget))
        if best.proved:
            expect["final_hp"] = best.final_hp
    name = f"b{blockers:03d}-{index:02d}.toml"
    text = level_text(replace(level, description=description, expect=Expectations(**expect)))
    written = load_passages(parse_level_bytes(text.encode(), name))
    assert [_essence(t) for t in written.things] == [_essence(t) for t in level.things], name
    walls = [[char == "#" for char in row] for row in level.grid]
    assert [[char == "#" for char in row] for row in written.grid] == walls, name
    assert (written.start, written.goals, written.player) == (level.start, level.goals, level.player), name
    return name, text


def _essence(thing: Thing) -> tuple:
    return thing.kind, thing.cell, thing.hp, thing.atk, thing.defense, thing.enemy


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    shipped = Path(__file__).resolve().parents[2] / "twisty" / "bench" / "suites" / "passages"
    parser.add_argument("--out", default=str(shipped))
    parser.add_argument("--per-bucket", type=int, default=6)
    parser.add_argument("--budget", type=float, default=240.0, help="seconds per proof at generation")
    parser.add_argument(
        "--cpsat-max-blockers",
        type=int,
        default=40,
        help="try CP-SAT after the search engine only on levels with at most this many blockers "
        "(it proved min_start_hp of every suite level of 40 blockers within 16 s of CPU; at 60 it proves "
        "some best routes within a minute of CPU, docs/bench-cpsat.md)",
    )
    parser.add_argument(
        "--keep-existing",
        action="store_true",
        help="leave level files that already exist alone (the same seed gives the same file)",
    )
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for bucket in range(len(BUCKETS)):
        for index in range(args.per_bucket):
            blockers = BUCKETS[bucket][0]
            if args.keep_existing and (out / f"b{blockers:03d}-{index:02d}.toml").exists():
                continue
            name, text = make_level(bucket, index, args.budget, args.cpsat_max_blockers)
            (out / name).write_text(text)
            print(name, text.splitlines()[2], file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
