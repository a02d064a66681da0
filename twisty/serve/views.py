"""What the page shows of one level text: the verdict within a short deadline, the picture, and the cells
the editor draws, as JSON-ready data. Everything comes from the public API (twisty.load, twisty.check) and
the game's renderer in the registry; bad text gives its positioned error instead.
"""

from __future__ import annotations

import time
from typing import Any

from twisty.api import check, load
from twisty.errors import LevelError, LimitReached, TwistyError
from twisty.games import GAMES, resolve
from twisty.render.pictures import PictureOptions, picture_svg
from twisty.render.pictures_book import cell_story, chosen_spread, spreads, story_text
from twisty.render.pictures_passages import route_cells
from twisty.rules.book.contents import code_of
from twisty.rules.book.static import STATUS_NAMES
from twisty.rules.level import Level
from twisty.serve.edits import palette

# The questions answered live, per game: enough for solvable, best hp or walk, and unique.
LIVE_QUESTIONS = {"passages": ("route", "count"), "book": ("walk",)}
# Drawing is not bounded by the deadline, so the page draws pictures of at most this many cells (the
# command line draws any size).
MAX_DRAWN_CELLS = 4_000


def error_data(error: LevelError) -> dict[str, Any]:
    return {"message": error.message, "line": error.line, "column": error.column, "text": str(error)}


def level_view(text: str, *, name: str, spread: int | None, timeout: float) -> dict[str, Any]:
    """The page's view of a level text: {"ok": False, "error": ...} for text that does not load, else
    the game, the verdict, the picture (SVG) and the editor's grid."""
    started = time.perf_counter()
    try:
        level = load(text, timeout=timeout)
    except LevelError as error:
        return {"ok": False, "error": error_data(error)}
    except LimitReached as reached:
        return {
            "ok": True,
            "game": None,
            "verdict": {
                "status": "unknown",
                "headline": f"unknown: the level could not be read within the {reached.cap} ({timeout:g} s)",
            },
        }
    view: dict[str, Any] = {"ok": True, "game": level.game, "name": level.name, "palette": palette(level)}
    questions = LIVE_QUESTIONS.get(level.game)
    verdict: Any = None  # the game's verdict (its fields differ per game)
    if questions is not None:
        left = max(timeout - (time.perf_counter() - started), 0.001)
        try:
            verdict = check(level, questions=questions, timeout=left, max_solutions=2)
        except LimitReached as reached:
            view["verdict"] = {"status": "unknown", "headline": f"unknown ({reached.cap} of {timeout:g} s)"}
        except TwistyError as error:
            view["verdict"] = {"status": "error", "headline": str(error)}
    if verdict is not None:
        view["verdict"] = verdict_data(level, verdict, name)
    if level.game == "passages":
        view["grid"] = map_grid(level, verdict)
    elif level.game == "book" and verdict is not None and verdict.book is not None:
        view["grid"] = spread_grid(verdict, chosen_spread(verdict.book, spread))
        spread = view["grid"]["spread"]
    view["svg"], view["picture_note"] = picture_of(level, verdict, spread)
    view["seconds"] = round(time.perf_counter() - started, 3)
    return view


def verdict_data(level: Level, verdict: Any, name: str) -> dict[str, Any]:
    data = verdict.to_json()
    status = verdict.outcome.value
    if level.game == "passages":
        if status == "solvable":
            unique = {True: ", unique", False: ", not unique", None: ", uniqueness unknown"}[verdict.unique]
            headline = (
                f"solvable, best final hp {verdict.final_hp}"
                + ("" if verdict.proved else " (not proved best)")
                + unique
            )
        elif status == "unsolvable":
            headline = "unsolvable (proved)"
        else:
            headline = f"unknown ({verdict.limit} limit)"
    else:
        if status == "solvable":
            unique = {True: ", unique", False: ", not unique", None: ", uniqueness unknown"}[verdict.unique]
            headline = f"solvable, walk of {verdict.moves} moves{unique}"
        elif status == "unsolvable":
            headline = "unsolvable (proved): no walk crosses the book"
        else:
            headline = f"unknown ({verdict.cap} reached)"
    return {
        "status": status,
        "headline": headline,
        "summary": verdict.summary().replace("<text>", name),
        "expect_failures": list(verdict.expect_failures),
        "final_hp": data.get("final_hp"),
        "moves": data.get("moves"),
        "unique": data.get("unique"),
    }


def map_grid(level: Level, verdict: Any | None) -> dict[str, Any]:
    model = level.model
    rows = [row.ljust(model.width) for row in model.grid]
    route = verdict.route if verdict is not None else None
    kinds = {thing.symbol: thing.kind for thing in model.things}
    grid: dict[str, Any] = {"kind": "map", "rows": rows, "kinds": kinds, "route": [], "steps": []}
    if route is not None:
        grid["route"] = [list(cell) for cell in route_cells(model, route)]
        grid["steps"] = [
            {
                "at": list(step.at),
                "action": step.action,
                "thing": step.thing,
                "damage": step.damage,
                "hp": step.stats.hp,
            }
            for step in route.steps
        ]
    return grid


def spread_grid(verdict: Any, spread: int) -> dict[str, Any]:
    """The cells of one spread: code, status and the explanation of each (what `twisty explain` says)."""
    book = verdict.book
    shape = book.shape
    initial = verdict.analysis.initial if verdict.analysis is not None else None
    pages: list[dict[str, Any] | None] = []
    for page in (2 * spread, 2 * spread + 1):
        if page < 1 or not shape.has_page(page):
            pages.append(None)
            continue
        cells = []
        for row in range(shape.height):
            line = []
            for col in range(shape.width):
                index = shape.index((page, row, col))
                status = STATUS_NAMES[initial.status[index]] if initial is not None else None
                line.append(
                    {
                        "code": code_of(book.contents[index]),
                        "status": status,
                        "explain": story_text(cell_story(verdict, (page, row, col))),
                    }
                )
            cells.append(line)
        pages.append({"page": page, "cells": cells})
    on_spread = [list(cell) for cell in verdict.walk if shape.contains(cell) and cell[0] // 2 == spread]
    return {
        "kind": "spread",
        "spread": spread,
        "spreads": spreads(book),
        "pages": pages,
        "walk": on_spread,
        "entrance": list(book.entrance),
        "exit": list(book.exit),
    }


def picture_of(level: Level, verdict: Any | None, spread: int | None) -> tuple[str | None, str]:
    """The level's picture as SVG, or None and why not."""
    game = GAMES.get(level.game)
    if game is None or game.renderer is None:
        return None, f"no pictures of {level.game} levels yet"
    if level.game == "passages":
        cells = level.model.height * level.model.width
    elif level.game == "book":
        cells = 2 * level.model.shape.page_size
    else:
        cells = 0
    if cells > MAX_DRAWN_CELLS:
        return None, f"too large to draw here ({cells:,} cells); twisty render draws it"
    try:
        renderer = resolve(game.renderer)
        return picture_svg(renderer.draw(level, verdict, PictureOptions(answer=True, spread=spread))), ""
    except TwistyError as error:
        return None, str(error)
