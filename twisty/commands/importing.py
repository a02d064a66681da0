"""`twisty import mtai` and `twisty import h5mota`: real Magic Tower towers as passages levels.

Parse options, call the importers (twisty.importers), print the loss report, write the level files. Files are
written as `generate passages` writes them: none over an existing file without --force, none through a
symbolic link, each whole or not at all, and only inside the folder or file `-o` names (a level's file name
comes from a floor id, which the importer checks to be a plain name). Every file is read as every command
reads files (a regular file within the size limit, docs/limits.md), and one --timeout covers the reading,
the parsing and the import. Exit codes: 0 imported (losses are reported, not errors), 1 the time limit was
reached (nothing written), 2 a bad file or option, or with --strict any loss.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import click

from twisty.commands.common import EXIT_INVALID, out_of_time, timeout_option
from twisty.commands.writing import prepare_folder, write_files
from twisty.errors import LevelError, LimitReached, UsageError
from twisty.importers.h5mota import floor_ranges, import_range, read_project
from twisty.importers.losses import LossReport
from twisty.importers.mtai import NEW, OLD, import_mtai
from twisty.importers.tower import ImportedLevel
from twisty.limits import Deadline
from twisty.rules.source import MAX_LEVEL_BYTES, read_regular_file

TIMEOUT_HELP = "Stop after this many seconds (reading, parsing and the import); nothing is written then (exit 1)."


@click.group(name="import")
def import_group() -> None:
    """Import real Magic Tower levels (magic-tower-AI maps, h5mota projects) as passages levels."""


def _report(title: str, report: LossReport, as_json: bool) -> None:
    if as_json:
        return
    click.echo(title)
    for line in report.lines():
        click.echo(f"  {line}")


def _strict_failure(report: LossReport) -> None:
    lost = [line for line in report.lines() if line.startswith("lost: ")]
    click.echo(f"twisty: --strict: {len(lost)} kind(s) of loss; first: {lost[0][len('lost: ') :]}", err=True)
    sys.exit(EXIT_INVALID)


@import_group.command(name="mtai")
@click.argument("map_file", type=click.Path(dir_okay=False, path_type=Path))
@click.option(
    "-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True, help="The level file to write."
)
@click.option(
    "--codes",
    type=click.Choice([OLD, NEW]),
    default=None,
    help="The tile-code version of the map (default: recognised from the codes it uses).",
)
@click.option("--strict", is_flag=True, help="Treat any loss (a tile code with no meaning here) as an error (exit 2).")
@click.option("--force", is_flag=True, help="Replace the level file if it exists (never through a symbolic link).")
@click.option("--json", "as_json", is_flag=True, help="Print the loss report as one JSON object.")
@timeout_option(TIMEOUT_HELP)
def import_mtai_command(
    map_file: Path, output: Path, codes: str | None, strict: bool, force: bool, as_json: bool, timeout: float | None
) -> None:
    """Import a magic-tower-AI map (its whitespace-separated integers) as a passages level: floors, keys and
    doors, gems, potions, sword and shield, monsters with their specials and money, the shop and the boss
    whose defeat wins (docs/mota.md)."""
    deadline = Deadline(timeout)
    raw = read_regular_file(
        map_file,
        limit=MAX_LEVEL_BYTES,
        kind="a magic-tower-AI map",
        too_large=f"larger than {MAX_LEVEL_BYTES} bytes: not a magic-tower-AI map",
    )
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise LevelError(
            "not text (a magic-tower-AI map is whitespace-separated integers)", path=str(map_file)
        ) from None
    try:
        imported, report = import_mtai(text, str(map_file), codes, name=map_file.stem, deadline=deadline)
    except LimitReached:
        out_of_time(deadline, "importing")
    if as_json:
        click.echo(json.dumps(_summary(imported, report, output), sort_keys=True, ensure_ascii=False))
    _report(f"{map_file} -> {output}", report, as_json)
    if strict and not report.exact:
        _strict_failure(report)
    write_files([(output, imported.text)], force)


@import_group.command(name="h5mota")
@click.argument("project", type=click.Path(file_okay=False, path_type=Path))
@click.option(
    "-o",
    "--output",
    type=click.Path(file_okay=False, path_type=Path),
    required=True,
    help="The folder to write the levels in.",
)
@click.option(
    "--floors",
    "chosen",
    multiple=True,
    metavar="A..B",
    help="A range of floors (ids of main.floorIds) to import as one level; repeat for more levels. Default: each "
    "floor as a level of its own.",
)
@click.option("--strict", is_flag=True, help="Treat any loss of the tower's content as an error (exit 2).")
@click.option("--force", is_flag=True, help="Replace level files that exist (never through a symbolic link).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per level (and per range not imported).")
@timeout_option(TIMEOUT_HELP)
def import_h5mota_command(
    project: Path,
    output: Path,
    chosen: tuple[str, ...],
    strict: bool,
    force: bool,
    as_json: bool,
    timeout: float | None,
) -> None:
    """Import an h5mota project (mota-js 2.x: data.js, enemys.js, items.js, maps.js, floors/*.js), read
    without running JavaScript, as one passages level per range of floors, with the loss report: what the
    level cannot express (events, NPCs, special doors, tools, specials 12+ other than 22), per floor with
    its first places."""
    deadline = Deadline(timeout)
    try:
        _import_h5mota(project, output, chosen, strict, force, as_json, deadline)
    except LimitReached:
        out_of_time(deadline, "importing")


def _import_h5mota(
    project: Path, output: Path, chosen: tuple[str, ...], strict: bool, force: bool, as_json: bool, deadline: Deadline
) -> None:
    tower = read_project(project, deadline)
    made: list[ImportedLevel] = []
    total = LossReport()
    for floors in floor_ranges(tower, list(chosen)):
        level, report, why = import_range(tower, floors)
        total.extend(report)
        name = floors[0] if len(floors) == 1 else f"{floors[0]}-{floors[-1]}"
        target = output / f"{name}.toml"
        if as_json:
            data = _summary(level, report, target if level else None)
            data["floors"], data["not_imported"] = floors, why or None
            click.echo(json.dumps(data, sort_keys=True, ensure_ascii=False))
        if level is None:
            _report(f"{name}: not imported: {why}", report, as_json)
            continue
        _report(f"{name} -> {target}", report, as_json)
        made.append(level)
    if strict and not total.exact:
        _strict_failure(total)
    if not made:
        raise UsageError("no level could be made from these floors (see the reasons above)")
    names = [level.floors[0] if len(level.floors) == 1 else f"{level.floors[0]}-{level.floors[-1]}" for level in made]
    deadline.check()
    prepare_folder(output, [f"{name}.toml" for name in names], force)
    targets = [(_inside(output, f"{name}.toml"), level.text) for name, level in zip(names, made, strict=True)]
    write_files(targets, force)
    if not as_json:
        clean = sum(1 for level in made if not set(level.floors) & total.lost_floors())
        click.echo(f"{len(made)} levels written to {output}; {clean} of them import without loss")


def _inside(folder: Path, name: str) -> Path:
    """`folder / name`, refused unless it is a file right inside `folder` (the names come from floor ids,
    which the importer already holds to plain names: this is the last guard before writing)."""
    target = folder / name
    if Path(name).name != name or name in (".", "..") or "\x00" in name or os.path.dirname(name):
        raise UsageError(f"refusing to write {name!r}: not a plain file name inside {folder}")
    if os.path.realpath(target.parent) != os.path.realpath(folder):
        raise UsageError(f"refusing to write {target}: it would not lie inside {folder}")
    return target


def _summary(level: ImportedLevel | None, report: LossReport, target: Path | None) -> dict:
    return {
        "written": None if target is None else str(target),
        "exact": report.exact,
        "losses": report.as_json(),
        "blockers": None if level is None else len(level.level.blockers()),
        "features": None if level is None else sorted(level.level.features),
    }
