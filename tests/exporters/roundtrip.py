"""What the exporter tests share: a level exported and read back by twisty's own importer, the answers of a
level, and the random levels of the round trips.

Answers are the best route's final life (and whether the level is solvable), the least starting life and
whether the solution is unique, each asked of the engines through the API as `twisty check` asks them.
"""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, replace
from pathlib import Path

from tests.towers_random import random_tower
from twisty.api import check, generate
from twisty.exporters.h5mota import Project, export_h5mota
from twisty.exporters.mtai import export_mtai
from twisty.importers.h5mota import import_range, read_project
from twisty.importers.losses import LossReport
from twisty.importers.mtai import import_mtai
from twisty.importers.tower import ImportedLevel
from twisty.rules.level import model_of
from twisty.rules.passages import COLOURS, Expectations, PassagesLevel, Stats, TowerStats
from twisty.rules.passages_writer import level_text
from twisty.rules.source import LevelSource, parse_level_bytes

PUZZLES = Path(__file__).resolve().parents[2] / "puzzles" / "passages"
SHIPPED = sorted(PUZZLES.rglob("*.toml"))
# Levels of more blockers than this are counted with their keys of one colour as the rulebook's keys (below).
COUNT_DIRECTLY = 20
# Generous: a check of these levels takes well under a second; a limit only turns a hang into a failure.
SECONDS = 120


@dataclass(frozen=True)
class Answers:
    solvable: bool | None
    final_hp: int | None
    min_start_hp: int | None
    unique: bool | None


def source_of(text: str, name: str = "level.toml") -> LevelSource:
    return parse_level_bytes(text.encode("utf-8"), name)


def load(source: LevelSource) -> PassagesLevel:
    level = model_of(source)
    assert isinstance(level, PassagesLevel)
    return level


def answers(level: PassagesLevel, *, count_as_rulebook_keys: bool = False) -> Answers:
    """The answers of a level (its [expect] claims left out, so that they ask no more than the default).
    With `count_as_rulebook_keys`, uniqueness is asked of the same level with its keys of one colour made
    the rulebook's keys: the rules make the two the same game ("a door needs and consumes one key of its
    colour"; with one colour every key opens every door), and the engines count the rulebook's far faster
    (they count a level of colours with the reference engine). The small levels of the round trips ask
    both levels directly, so the two are held the same there."""
    plain = replace(level, expect=Expectations())
    verdict = check(level_text(plain).encode("utf-8"), timeout=SECONDS, questions=["route", "min-hp"])
    unique = None
    if verdict.solvable is False:
        unique = False
    else:
        counted = as_rulebook_keys(plain) if count_as_rulebook_keys else plain
        unique = check(level_text(counted).encode("utf-8"), timeout=SECONDS, questions=["count"]).unique
    return Answers(verdict.solvable, verdict.final_hp, verdict.min_start_hp, unique)


def as_rulebook_keys(level: PassagesLevel) -> PassagesLevel:
    """The level with its keys and doors of one colour (and the hero's keys of it) as the rulebook's; a
    level of more than one colour, or with the rulebook's keys beside a colour, as it is."""
    colours = {thing.colour for thing in level.things if thing.kind in ("key", "door")}
    held = [colour for colour, count in zip(COLOURS, level.player.coloured, strict=False) if count]
    colours |= set(held)
    rulebook = any(thing.kind in ("key", "door") and not thing.colour for thing in level.things)
    if len(colours) != 1 or rulebook or level.player.keys:
        return level
    (colour,) = colours
    things = tuple(replace(thing, colour="") if thing.colour == colour else thing for thing in level.things)
    player = level.player
    keys = player.colour_keys(colour)
    if isinstance(player, TowerStats):
        coloured = tuple(0 if name == colour else count for name, count in zip(COLOURS, player.coloured, strict=True))
        player = replace(player, keys=keys, coloured=coloured)
    else:
        player = Stats(player.hp, player.atk, player.defense, keys)
    return replace(level, things=things, player=player)


def write_project(project: Project, folder: Path) -> None:
    for name, text in project.files.items():
        target = folder / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")


def h5mota_round_trip(
    level: PassagesLevel, source: LevelSource | None, path: str
) -> tuple[Project, ImportedLevel, LossReport]:
    """The project of a level, and the level twisty's importer reads from it (its floors as one range)."""
    project = export_h5mota(level, source, path)
    with tempfile.TemporaryDirectory() as folder:
        write_project(project, Path(folder))
        imported, report, why = import_range(read_project(Path(folder)), list(project.floor_ids))
    assert imported is not None, why
    return project, imported, report


def mtai_round_trip(
    level: PassagesLevel, source: LevelSource | None, path: str
) -> tuple[str, ImportedLevel, LossReport]:
    text = export_mtai(level, source, path)
    imported, report = import_mtai(text, "exported.txt")
    return text, imported, report


def random_level(number: int) -> tuple[str, str]:
    """(name, level text) of random level `number`: by turns a random tower of tests/towers_random.py
    (floors, colours, specials, money, a shop, a boss; every third one with four more pieces) and a level of
    twisty's generator (tight and unique, of a size and difficulty taken in turn), seeded by the number."""
    if number % 2 == 0:
        return f"tower-{number}", random_tower(number, pieces=4 if number % 3 == 0 else 0)
    size, blockers, difficulty = (("4x3", 5, "easy"), ("5x4", 8, "easy"), ("5x4", 8, "medium"), ("6x5", 12, "hard"))[
        number // 2 % 4
    ]
    level = generate("passages", seed=number, size=size, blockers=blockers, difficulty=difficulty)
    return f"generated-{size}-{blockers}-{difficulty}-{number}", level.source.text
