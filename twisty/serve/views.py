"""What the page shows of one level text, computed within one deadline: the verdict (the very record that
`twisty check` prints, from the same function with the same defaults), the editor's palette and grid (from
the game's page module, named by its registry entry `page`), and the picture (the game's renderer).

Each part is handed to `send` as soon as it is known, verdict first: the server runs this in a worker
process that it ends at the deadline, and keeps whatever parts arrived by then (twisty.serve.verdicts).
Everything here is JSON-ready data; bad text gives its positioned error instead of a verdict.
"""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType
from typing import Any

from twisty.api import check_record
from twisty.checking import CheckOutcome, level_status, summary_start
from twisty.errors import LevelError, LimitReached, TwistyError
from twisty.games import GAMES, resolve
from twisty.limits import Deadline
from twisty.render.pictures import PictureOptions, picture_svg
from twisty.rules.level import Level

Send = Callable[[dict[str, Any]], None]


def error_data(error: LevelError) -> dict[str, Any]:
    return {"message": error.message, "line": error.line, "column": error.column, "text": str(error)}


def checked(raw: bytes, name: str, deadline: Deadline) -> tuple[CheckOutcome, Any, Level | None]:
    """The check of a level's bytes that `twisty check` makes (twisty.api.check_record: the same function,
    the same defaults, every question within the one deadline), with the game's verdict and the level as
    loaded, kept for the editor and the picture: (record, verdict, level); an invalid level gives the
    invalid record and (None, None)."""
    record = check_record(raw, name=name, deadline=deadline)
    return record, record.verdict, record.level


def verdict_data(record: CheckOutcome) -> dict[str, Any]:
    """The verdict as the page shows it: the status (ok, failed, unsolvable, unknown, invalid: the badge),
    the line `twisty check` prints without its status and path (the headline), the lines under it, the
    claims that fail, and the whole record of `twisty check --json`."""
    data = record.data
    summary = record.summary
    prefix = summary_start(data)
    headline = summary[len(prefix) :] if summary.startswith(prefix) else summary[11:]
    return {
        "status": level_status(data),
        "headline": headline,
        "summary": summary,
        "details": list(record.details),
        "expect_failures": list(data.get("expect_failures") or ()),
        "record": data,
    }


def page_module(game_name: str) -> ModuleType | None:
    """The game's page module (palette, grid, edit), or None for a game without one: its levels are
    edited as text, with verdict and picture all the same."""
    game = GAMES.get(game_name)
    if game is None or game.page is None:
        return None
    module = resolve(game.page)
    assert isinstance(module, ModuleType)
    return module


def level_view(raw: bytes, *, name: str, spread: int | None, deadline: Deadline, send: Send) -> None:
    """Send the parts of the page's view of a level text, each as soon as it is known:

    {"part": "verdict", "ok": True, "game", "name", "verdict"}   (or {"part": "verdict", "ok": False, "error"})
    {"part": "editor", "palette", "grid"}
    {"part": "picture", "svg", "picture_note"}
    """
    record, verdict, level = checked(raw, name, deadline)
    if level is None or not record.data.get("valid", True):
        errors = record.data.get("errors") or [{}]
        first = errors[0]
        send(
            {
                "part": "verdict",
                "ok": False,
                "error": {
                    "message": first.get("message", record.summary),
                    "line": first.get("line"),
                    "column": first.get("column"),
                    "text": record.summary[11:],
                },
            }
        )
        return
    send(
        {"part": "verdict", "ok": True, "game": level.game, "name": _level_name(level), "verdict": verdict_data(record)}
    )
    if level.model is None:  # the deadline passed while loading: nothing more to show
        send({"part": "editor", "palette": [], "grid": None})
        send({"part": "picture", "svg": None, "picture_note": "the level could not be read within the time limit"})
        return
    page = page_module(level.game)
    editor: dict[str, Any] = {"part": "editor", "palette": [], "grid": None}
    if page is not None:
        try:
            editor["palette"] = page.palette(level)
            grid = page.grid(level, verdict, spread, deadline)
        except LimitReached:
            grid = None
        editor["grid"] = grid
        if grid is not None and grid.get("spread") is not None:
            spread = grid["spread"]
    send(editor)
    svg, note = picture_of(level, verdict, spread, deadline)
    send({"part": "picture", "svg": svg, "picture_note": note})


def _level_name(level: Level) -> str:
    name = getattr(level.model, "name", "") or getattr(level.model, "title", "") if level.model is not None else ""
    return str(name or "")


def picture_of(level: Level, verdict: Any | None, spread: int | None, deadline: Deadline) -> tuple[str | None, str]:
    """The level's picture as SVG (the answer drawn when the verdict has one), or None and why not."""
    game = GAMES.get(level.game)
    if game is None or game.renderer is None:
        return None, f"no pictures of {level.game} levels yet"
    try:
        renderer = resolve(game.renderer)
        picture = renderer.draw(level, verdict, PictureOptions(answer=True, spread=spread, deadline=deadline))
        return picture_svg(picture), "; ".join(picture.notes)
    except LimitReached:
        return None, "the picture was not drawn within the time limit (twisty render draws it with more time)"
    except TwistyError as error:
        return None, str(error)
