"""An h5mota project (mota-js 2.x) as read: its files, each value checked where it is read.

A project is a folder of JavaScript files, each one object literal (read by twisty.importers.js_literals,
without running anything): data.js (the floor order, the hero, the values of gems and potions, the shops),
enemys.js, items.js, maps.js (tile number -> what it is) and floors/<floorId>.js. Of the tower's code,
plugins.js and functions.js are only searched for the trigger names the tower registers itself, and
events.js's common events those triggers insert are read, to name them in the loss report with what they
do (twisty.importers.h5mota_common).

Everything read from the files is untrusted: a floor id becomes a file name only when it is a plain name
(`plain_floor_id`), every file is read inside the project folder within the input limits, and every number
twisty takes must be one it holds as written (`twisty.importers.h5mota_values`), else one message at its
place in the source file and exit code 2.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from twisty.errors import LevelError
from twisty.importers.h5mota_common import OwnTrigger, registered_triggers, trigger_words
from twisty.importers.h5mota_shops import ShopFit, read_shops
from twisty.importers.h5mota_values import Source, described, plain_floor_id, whole_number
from twisty.importers.js_literals import ProjectFile, read_code_text, read_object_file
from twisty.limits import MAX_NUMBER, Deadline
from twisty.rules.passages_format import MAX_MAP_SIDE

# Floors a project may list: the largest published towers have a few hundred.
MAX_PROJECT_FLOORS = 2000


@dataclass
class Project:
    """What an h5mota project says, read once for every level made from it. Each part is a `Source`: its
    values are checked as they are read, and a refusal names its place in the file."""

    folder: Path
    floor_ids: list[str]
    data: Source
    enemies: Source
    items: Source
    maps: Source
    deadline: Deadline | None = None
    floors: dict[str, Source] = field(default_factory=dict)
    # The trigger names the tower's own code registers (plugins.js, functions.js), each with the common
    # events its function inserts: named in the report with what they do (h5mota_common).
    registered: dict[str, OwnTrigger] = field(default_factory=dict)
    _common: dict[str, Any] | None = None

    _words: dict[tuple[str, str], str] = field(default_factory=dict)

    def own_trigger(self, trigger: str, floor_id: str) -> str | None:
        """What the tower's own trigger of this name does on this floor, in words; None when it has none.
        Worked out once per trigger and floor (a trigger may stand on every wall of a floor)."""
        if trigger not in self.registered:
            return None
        if (trigger, floor_id) not in self._words:
            self.poll()
            self._words[(trigger, floor_id)] = trigger_words(self.common_events, self.registered[trigger], floor_id)
        return self._words[(trigger, floor_id)]

    @property
    def common_events(self) -> dict[str, Any]:
        """events.js's `commonEvent` (read only when a trigger runs one; {} when there is none). They only
        name losses, so a file that cannot be read names them without their effects."""
        if self._common is None:
            self._common = {}
            if any(own.inserted for own in self.registered.values()) and (self.folder / "events.js").exists():
                try:
                    events = read_object_file(self.folder / "events.js", inside=self.folder, deadline=self.deadline)
                except LevelError:
                    events = None
                common = events.value.get("commonEvent") if events and isinstance(events.value, dict) else None
                self._common = common if isinstance(common, dict) else {}
        return self._common

    @property
    def shops(self) -> dict[str, ShopFit | str]:
        """data.js's standard shops by id: each as twisty's shop, or why it is not one (h5mota_shops)."""
        return read_shops(self.first.get("shops"))

    @property
    def values(self) -> Source:
        return self.data.table("values", "data.js's values")

    @property
    def first(self) -> Source:
        return self.data.table("firstData", "data.js's firstData")

    @property
    def hero(self) -> Source:
        return self.first.table("hero", "firstData.hero")

    @property
    def start_floor(self) -> str:
        start = self.first.get("floorId", self.floor_ids[0])
        if not isinstance(start, str):
            raise self.first.error(
                f"firstData.floorId must be a floor id (a string), not {described(start)}", "floorId"
            )
        return start

    def poll(self) -> None:
        if self.deadline is not None:
            self.deadline.check()


def read_project(folder: Path, deadline: Deadline | None = None) -> Project:
    """The project's files: `folder` is the project folder (with data.js) or the tower's (with project/).
    Every file is read inside `folder` (no symbolic link leads out of it) within the input limits; the
    floor ids of main.floorIds must be plain names, each once."""
    if not folder.is_dir():
        raise LevelError("not a folder (an h5mota project is a folder with data.js, enemys.js, ...)", path=str(folder))
    inside = folder
    if not (folder / "data.js").exists() and (folder / "project" / "data.js").exists():
        folder = folder / "project"

    def read(name: str) -> ProjectFile:
        return read_object_file(folder / name, inside=inside, deadline=deadline)

    data = Source.of(read("data.js"))
    main = data.table("main", "data.js's main")
    floor_ids = main.get("floorIds")
    if not isinstance(floor_ids, list) or not floor_ids:
        raise main.error('data.js has no list of floors (main.floorIds = ["MT1", ...])', "floorIds")
    if len(floor_ids) > MAX_PROJECT_FLOORS:
        raise main.error(f"main.floorIds lists {len(floor_ids)} floors (at most {MAX_PROJECT_FLOORS})", "floorIds")
    seen: set[str] = set()
    for index, floor_id in enumerate(floor_ids):
        plain_floor_id(data.file, ("main", "floorIds", index), floor_id)
        if floor_id in seen:
            where = ("main", "floorIds", index)
            raise data.file.error(f'the floor id "{floor_id}" is listed twice in main.floorIds', where)
        seen.add(floor_id)
    enemies, items, maps = (Source.of(read(name)) for name in ("enemys.js", "items.js", "maps.js"))
    if isinstance(items.get("items"), dict):  # (items.js of 2.0-2.5: {"items": {...}, ...})
        items = items.table("items", "items.js's items")
    code = [read_code_text(folder / name, inside=inside, deadline=deadline) for name in ("plugins.js", "functions.js")]
    return Project(folder, list(floor_ids), data, enemies, items, maps, deadline, registered=registered_triggers(code))


def floor_of(project: Project, floor_id: str) -> Source:
    """Floor `floor_id`'s object (floors/<floorId>.js), read once; checked to have a map within limits."""
    if floor_id not in project.floors:
        project.poll()
        # (floor_id is one of main.floorIds, each checked to be a plain name by read_project)
        path = project.folder / "floors" / f"{plain_floor_id(project.data.file, ('main', 'floorIds'), floor_id)}.js"
        floor = Source.of(read_object_file(path, inside=project.folder, deadline=project.deadline))
        grid = floor.get("map")
        if not isinstance(grid, list) or not grid or len(grid) > MAX_MAP_SIDE:
            raise floor.error(f"no map of whole numbers of at most {MAX_MAP_SIDE} x {MAX_MAP_SIDE}", "map")
        for y, row in enumerate(grid):
            if not isinstance(row, list) or len(row) > MAX_MAP_SIDE:
                raise floor.file.error(
                    f"row {y} of the map is not a list of at most {MAX_MAP_SIDE} tile numbers", ("map", y)
                )
            for x, number in enumerate(row):
                if isinstance(number, bool) or not isinstance(number, int):
                    whole_number(floor.file, ("map", y, x), number, f"the tile at x {x}, y {y}")
                    row[x] = int(number)
                elif abs(number) > MAX_NUMBER:
                    whole_number(floor.file, ("map", y, x), number, f"the tile at x {x}, y {y}")
        project.floors[floor_id] = floor
    return project.floors[floor_id]
