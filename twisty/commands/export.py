"""`twisty export h5mota` and `twisty export mtai`: passages levels in the genre's own formats.

Parse options, read each level, call the exporters (twisty.exporters), write the files. Files are written as
every command writes them (twisty.commands.writing): none over an existing file without --force, none
through a symbolic link, each whole or not at all, and nothing at all when any level cannot be exported.
One --timeout covers reading, loading and exporting. Exit codes: 0 exported; 1 the time limit was reached
(nothing written); 2 a bad level or option, or a level the format cannot hold exactly (the message names
the file, the place and what the format lacks).
"""

from __future__ import annotations

import json
from pathlib import Path

import click

from twisty.commands.common import out_of_time, timeout_option
from twisty.commands.writing import prepare_folder, refuse_targets, write_files
from twisty.errors import LimitReached, UsageError
from twisty.exporters.h5mota import EXIT_FLOOR, Project, export_h5mota
from twisty.exporters.mtai import export_mtai
from twisty.limits import Deadline
from twisty.rules.level import model_of
from twisty.rules.passages import PassagesLevel
from twisty.rules.source import LevelSource, read_level

TIMEOUT_HELP = "Stop after this many seconds (reading, loading and exporting); nothing is written then (exit 1)."


@click.group(name="export")
def export_group() -> None:
    """Write passages levels in the genre's formats: h5mota projects (to play in mota-js) and magic-tower-AI
    maps. What a format cannot hold exactly is refused (exit 2), never written as another level."""


def _passages_level(path: Path, deadline: Deadline) -> tuple[PassagesLevel, LevelSource]:
    source = read_level(path)
    if source.game != "passages":
        raise source.error(
            f'a {source.game} level: only passages levels (game = "passages") export to Magic Tower formats',
            key="game",
        )
    level = model_of(source, deadline)
    assert isinstance(level, PassagesLevel)
    return level, source


@export_group.command(name="h5mota")
@click.argument("levels", nargs=-1, required=True, type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "-o",
    "--output",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="The project folder (the files of mota-js's project/); with several levels, a folder with one "
    "project per level, named after its file.",
)
@click.option("--force", is_flag=True, help="Replace project files that exist (never through a symbolic link).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per level exported.")
@timeout_option(TIMEOUT_HELP)
def export_h5mota_command(
    levels: tuple[Path, ...], output: Path, force: bool, as_json: bool, timeout: float | None
) -> None:
    """Export passages levels as h5mota projects (mota-js 2.x): floors, maps.js tile numbers, monsters with
    their specials, items with their values, doors and keys by colour, stairs between floors, the hero's
    start and the shop. Lay the files over a copy of mota-js's project/ folder to play (docs/mota.md)."""
    deadline = Deadline(timeout)
    stems = [path.stem for path in levels]
    if len(levels) > 1 and len(set(stems)) < len(stems):
        twice = next(stem for stem in stems if stems.count(stem) > 1)
        raise UsageError(f"two levels named {twice}: each level's project is a folder named after its file")
    try:
        projects = []
        for path in levels:
            level, source = _passages_level(path, deadline)
            projects.append(export_h5mota(level, source, str(path), deadline))
    except LimitReached:
        out_of_time(deadline, "exporting")
    folders = [output] if len(levels) == 1 else [output / stem for stem in stems]
    targets = [
        (folder / name, text)
        for folder, project in zip(folders, projects, strict=True)
        for name, text in project.files.items()
    ]
    for folder in folders:
        for inner in (folder, folder / "floors"):
            if inner.is_symlink():
                raise UsageError(f"{inner} is a symbolic link; twisty does not write through links")
    refused = refuse_targets([path for path, _ in targets], force, "project files")
    if refused is not None:
        raise UsageError(refused)
    if deadline.expired():
        out_of_time(deadline, "exporting")
    for folder, project in zip(folders, projects, strict=True):
        names = [name for name in project.files if "/" not in name]
        prepare_folder(folder, names, force)
        prepare_folder(folder / "floors", [name.split("/", 1)[1] for name in project.files if "/" in name], force)
    write_files(targets, force, "project files")
    for path, folder, project in zip(levels, folders, projects, strict=True):
        _tell(path, folder, project, as_json)


def _tell(path: Path, folder: Path, project: Project, as_json: bool) -> None:
    first, last = project.floor_ids[0], project.floor_ids[-1]
    again = f"twisty import h5mota {folder} --floors {first}..{last} -o DIR"
    if as_json:
        data = {
            "level": str(path),
            "format": "h5mota",
            "written": str(folder),
            "files": list(project.files),
            "floors": list(project.floor_ids),
            "exit_floor": f"floors/{EXIT_FLOOR}.js" in project.files,
            "import_back": again,
        }
        click.echo(json.dumps(data, sort_keys=True, ensure_ascii=False))
        return
    floors = f"{len(project.floor_ids)} floor{'s' if len(project.floor_ids) > 1 else ''} ({first}..{last})"
    click.echo(f"{path} -> {folder}: {floors}, {len(project.files)} files; import back: {again}")


@export_group.command(name="mtai")
@click.argument("level_file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True, help="The map file to write."
)
@click.option("--force", is_flag=True, help="Replace the map file if it exists (never through a symbolic link).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object naming what was written.")
@timeout_option(TIMEOUT_HELP)
def export_mtai_command(level_file: Path, output: Path, force: bool, as_json: bool, timeout: float | None) -> None:
    """Export a passages level as a magic-tower-AI map (its current tile codes): one grid per floor, the nine
    values of gems, potions, sword and shield, the monster lines, the shop line and the hero line. The
    tower is won by defeating the boss; a level won at a goal has its goals written as a harmless boss
    (docs/mota.md)."""
    deadline = Deadline(timeout)
    try:
        level, source = _passages_level(level_file, deadline)
        text = export_mtai(level, source, str(level_file), deadline)
    except LimitReached:
        out_of_time(deadline, "exporting")
    write_files([(output, text)], force, "maps")
    if as_json:
        data = {"level": str(level_file), "format": "mtai", "written": str(output), "floors": len(level.floors) or 1}
        click.echo(json.dumps(data, sort_keys=True, ensure_ascii=False))
    else:
        click.echo(f"{level_file} -> {output}")
