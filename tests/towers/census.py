"""Every block and event of an h5mota project's floors, each with its fate in an import: modelled (the
level has what the block is, at its place) or lost (the loss report names its place). Anything else is
"unaccounted": a broken promise of the loss report.

This reads the project's JavaScript on its own (pyjson5 on the literal after the first `=`, maps.js's
classes and passability by mota-js's rule), sharing nothing with the importer but the level and the
report it produced. The tests run it on our own towers; on a public tower it gives the per-floor table of
docs/mota.md:

    python -m tests.towers.census [--check] PROJECT_DIR [FLOOR or A..B ...]
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pyjson5

from twisty.importers.h5mota import floor_ranges, import_range, read_project
from twisty.importers.losses import LossReport
from twisty.rules.passages import PassagesLevel
from twisty.solver.passages import analyse
from twisty.solver.passages_verdict import Deadline

# Actions that only show or sound something (the census's own list, from mota-js's action types).
QUIET = {"text", "tip", "comment", "playSound", "stopSound", "sleep", "animate", "setText", "autoText"}
QUIET |= {"scrollText", "playBgm", "pauseBgm", "resumeBgm", "vibrate", "changePos", "waitAsync", "setCurtain"}
QUIET |= {"update"}
OTHER_LISTS = ("afterBattle", "afterGetItem", "afterOpenDoor", "beforeBattle", "autoEvent", "cannotMove")
OTHER_LISTS += ("cannotMoveIn",)


@dataclass(frozen=True)
class Fate:
    floor: str
    place: tuple[int, int] | None  # (row, col); None for an event of the whole floor
    what: str  # "block 201 slime", "event", "changeFloor", "afterBattle", ...
    fate: str  # "modelled: ...", "lost: ...", "unaccounted: ..."


def _literal(path: Path) -> Any:
    text = path.read_text(encoding="utf-8-sig")
    return pyjson5.decode(text[text.index("=") + 1 :], some=True)


def _quiet(actions: Any) -> bool:
    if actions is None or isinstance(actions, str):
        return True
    if isinstance(actions, list):
        return all(_quiet(action) for action in actions)
    if isinstance(actions, dict):
        if isinstance(actions.get("data"), list) and "type" not in actions:
            return _quiet(actions["data"]) and actions.get("enable") is not False
        return actions.get("type") in QUIET
    return False


def _event_allows(event: Any) -> set[str]:
    """The kinds of the level an event may leave at its place when twisty models it: a shop cell where it
    opens a shop, a floor cell where its block talks and leaves (hide); nothing else."""
    actions = event.get("data", []) if isinstance(event, dict) else event
    kinds = {a.get("type") for a in actions if isinstance(a, dict)} if isinstance(actions, list) else set()
    return {"shop"} if "openShop" in kinds else {"floor"} if "hide" in kinds else set()


def _place(key: str) -> tuple[int, int] | None:
    try:
        x, y = (int(part) for part in str(key).split(","))
    except ValueError:
        return None
    return y, x


class _Level:
    """What the imported level holds at each place of each floor."""

    def __init__(self, level: PassagesLevel) -> None:
        self.level = level
        floors = level.floors or ()
        self.first_row = {floor.name: floor.first_row for floor in floors}
        self.stairs = {cell for link in level.links for cell in link}
        self.things = {thing.cell: thing for thing in level.things}

    def at(self, floor: str, place: tuple[int, int]) -> str:
        cell = (self.first_row.get(floor, 0) + place[0], place[1])
        thing = self.things.get(cell)
        if thing is not None:
            return thing.kind
        if cell == self.level.start:
            return "start"
        if cell in self.level.goals:
            return "goal"
        if cell in self.stairs:
            return "stair"
        return "wall" if self.level.is_wall(cell) else "floor"


def _lost_places(report: LossReport) -> dict[str, dict[tuple[int, int], list[str]]]:
    found: dict[str, dict[tuple[int, int], list[str]]] = {}
    for loss in report.losses.values():
        for place in loss.places:
            found.setdefault(loss.floor, {}).setdefault(tuple(place), []).append(loss.what)
    return found


def _lost_whats(report: LossReport, floor: str) -> set[str]:
    return {loss.what for loss in report.losses.values() if loss.floor == floor}


def _expected(entry: dict | None) -> set[str]:
    """What a maps.js entry is as a route sees it, by mota-js's rule (noPass, else !canPass, else not an
    item): the kinds of the level it may be modelled as."""
    if entry is None:
        return {"wall"}
    cls, ident = entry.get("cls", ""), entry.get("id", "")
    if cls.startswith("enemy"):
        return {"enemy"}
    if cls == "items":
        return {"key", "elixir", "equipment", "floor"}  # (an item that gives nothing is a floor cell)
    if entry.get("trigger") == "openDoor":
        return {"door"}
    if ident in ("upFloor", "downFloor"):
        return {"stair", "goal", "start", "floor"}
    if "noPass" in entry and entry["noPass"] is not None:
        passes = not entry["noPass"]
    elif entry.get("canPass") is not None:
        passes = bool(entry["canPass"])
    else:
        passes = cls == "items"
    return {"floor", "start", "stair", "goal"} if passes else {"wall"}


def census(folder: Path, floors: list[str]) -> tuple[list[Fate], PassagesLevel | None, LossReport]:
    """Every block and event of these floors (one range) with its fate in the import of the range."""
    project = read_project(folder)
    imported, report, _ = import_range(project, floors)
    root = project.folder
    maps = _literal(root / "maps.js")
    level = _Level(imported.level) if imported is not None else None
    lost = _lost_places(report)
    fates: list[Fate] = []
    for name in floors:
        data = _literal(root / "floors" / f"{name}.js")
        here = lost.get(name, {})

        def fate(
            place: tuple[int, int] | None, what: str, allowed: set[str], *, floor: str = name, here: dict = here
        ) -> None:
            if level is None:
                fates.append(Fate(floor, place, what, "not imported"))
            elif place is not None and place in here:
                fates.append(Fate(floor, place, what, "lost: " + "; ".join(here[place])))
            elif level is not None and place is not None and level.at(floor, place) in allowed:
                fates.append(Fate(floor, place, what, f"modelled: {level.at(floor, place)}"))
            else:
                got = "no level" if level is None or place is None else level.at(floor, place)
                fates.append(Fate(floor, place, what, f"unaccounted: the level has {got}"))

        events = data.get("events") or {}
        by_event = {_place(key): _event_allows(event) for key, event in events.items()}
        for y, row in enumerate(data.get("map") or []):
            for x, number in enumerate(row):
                if number:
                    entry = maps.get(str(number))
                    event = events.get(f"{x},{y}")
                    if isinstance(event, dict) and event.get("enable") is False:
                        fate((y, x), f"hidden block {number}", set())
                    else:
                        ident = entry.get("id", "") if isinstance(entry, dict) else "?"
                        allowed = _expected(entry if isinstance(entry, dict) else None)
                        if number == 17:
                            allowed = {"wall"}
                        fate((y, x), f"block {number} {ident}", allowed | by_event.get((y, x), set()))
        for key, event in events.items():
            place = _place(key)
            if place is None or _quiet(event):
                continue
            fate(place, "event", _event_allows(event))
        for key, target in (data.get("changeFloor") or {}).items():
            if target is not None:
                fate(_place(key), "changeFloor", {"stair", "goal", "start", "floor"})
        for listed in OTHER_LISTS:
            for key, event in (data.get(listed) or {}).items():
                if not _quiet(event) or listed.startswith("cannot"):
                    wins = "win" in str(event) and listed == "afterBattle"
                    fate(_place(key), listed, {"enemy"} if wins else set())
        for layer in ("bgmap", "fgmap"):
            for y, row in enumerate(data.get(layer) or []):
                for x, number in enumerate(row):
                    entry = maps.get(str(number)) if number else None
                    closing = number == 17 or (isinstance(entry, dict) and entry.get("cannotIn"))
                    if closing or (isinstance(entry, dict) and entry.get("cannotOut")):
                        fate((y, x), f"{layer} {number}", {"wall"})
        for listed in ("firstArrive", "eachArrive"):
            if not _quiet(data.get(listed)):
                what = f"event on {'first' if listed == 'firstArrive' else 'each'} arrival"
                found = what in _lost_whats(report, name)
                fates.append(Fate(name, None, listed, f"lost: {what}" if found else "unaccounted: not in the report"))
    return fates, None if imported is None else imported.level, report


def summary(fates: list[Fate]) -> Counter[tuple[str, str]]:
    """(floor, modelled / lost / unaccounted) -> count."""
    return Counter((fate.floor, fate.fate.split(":")[0]) for fate in fates)


def main(arguments: list[str]) -> None:
    """One table row per floor (or range): blocks and events, modelled, lost, unaccounted, the kinds of
    loss; with --check, the imported level's best route (60 s) and its seconds (CPU, wall); with --hero
    HP/ATK/DEF, the range starts with those stats instead of the tower's."""
    check = "--check" in arguments
    hero = None
    if "--hero" in arguments:
        at = arguments.index("--hero")
        hero = [int(part) for part in arguments[at + 1].split("/")]
        arguments = arguments[:at] + arguments[at + 2 :]
    arguments = [argument for argument in arguments if argument != "--check"]
    folder = Path(arguments[0])
    project = read_project(folder)
    print("| floors | blocks and events | modelled | lost | unaccounted | kinds of loss | answer | CPU s | wall s |")
    print("|--------|-------------------|----------|------|-------------|---------------|--------|-------|--------|")
    for floors in floor_ranges(project, arguments[1:]):
        fates, level, report = census(folder, floors)
        counts = summary(fates)
        lost: Counter[str] = Counter()
        for loss in report.losses.values():
            if not loss.note and loss.floor in floors:
                lost[loss.what.split(" (")[0]] += loss.count
        kinds = "; ".join(f"{what} x{count}" if count > 1 else what for what, count in sorted(lost.items()))
        cells = [sum(counts[(name, kind)] for name in floors) for kind in ("modelled", "lost", "unaccounted")]
        answer, seconds = "not imported", ["", ""]
        if check and level is not None:
            if hero is not None:
                level = replace(level, player=replace(level.player, hp=hero[0], atk=hero[1], defense=hero[2]))
            started, cpu = time.perf_counter(), time.process_time()
            best = analyse(level, Deadline(60), questions=frozenset({"route"})).best
            seconds = [f"{time.process_time() - cpu:.2f}", f"{time.perf_counter() - started:.2f}"]
            value = {"solvable": f"{best.final_hp}", "unsolvable": "unwinnable"}.get(best.status, "unknown")
            answer = f"{value}{', proved' if best.proved else ''}"
        elif level is not None:
            answer = ""
        name = floors[0] if len(floors) == 1 else f"{floors[0]}..{floors[-1]}"
        shown = ["", ""] if level is None else [str(cells[0]), str(cells[1])]
        row = [name, str(len(fates)), *shown, str(cells[2]), kinds, answer, *seconds]
        print("| " + " | ".join(row) + " |")
        for fate in fates:
            if fate.fate.startswith("unaccounted"):
                print("  ", fate)


if __name__ == "__main__":
    main(sys.argv[1:])
