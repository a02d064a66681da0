"""The web application of `twisty serve` (Flask): the page, and a small JSON API it calls.

    GET  /                       the page (static/index.html, plain HTML and JavaScript, no build step)
    GET  /api/levels             the .toml files under the folder
    GET  /api/level?path=P       one level's text
    POST /api/view {text, path, spread}          verdict, picture and editor grid of a text (or its error)
    POST /api/edit {text, cell, symbol}          the text with one cell changed, comments kept
    POST /api/save {path, text, overwrite}       write the text to the folder (409 when it exists)

Every answer is JSON; bad input of any kind is a JSON error with a message (positioned for level text),
never a traceback, and the server goes on serving. Each verdict runs within the server's short deadline.
Requests must name this server as their Host (a web page elsewhere cannot reach it through a rebound DNS
name) and POSTs must be JSON from the page's own origin.
"""

from __future__ import annotations

import sys
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from twisty.errors import LevelError, LimitReached, TwistyError
from twisty.limits import MAX_LEVEL_BYTES
from twisty.serve.edits import EditError, edit_cell
from twisty.serve.files import FolderError, LevelFolder
from twisty.serve.views import error_data, level_view

STATIC = Path(__file__).resolve().parent / "static"
SERVE_EXTRA = "pip install 'twisty[serve]'   (or: pip install flask matplotlib)"
# Two verdicts at a time (one per core here); a request waits this long for its turn, then is told busy.
CONCURRENT_VERDICTS = 2
WAIT_FOR_TURN = 20.0
CACHED_VIEWS = 32


class ViewCache:
    """The last views computed, by (text, spread): the page asks again when it turns a spread or saves."""

    def __init__(self, size: int = CACHED_VIEWS) -> None:
        self.size = size
        self.views: OrderedDict[tuple[str, int | None], dict[str, Any]] = OrderedDict()
        self.lock = threading.Lock()

    def get(self, key: tuple[str, int | None]) -> dict[str, Any] | None:
        with self.lock:
            view = self.views.get(key)
            if view is not None:
                self.views.move_to_end(key)
            return view

    def put(self, key: tuple[str, int | None], view: dict[str, Any]) -> None:
        with self.lock:
            self.views[key] = view
            while len(self.views) > self.size:
                self.views.popitem(last=False)


def create_app(folder: str | Path, *, timeout: float = 3.0, allowed_hosts: set[str] | None = None) -> Any:
    """The Flask application serving `folder`. `allowed_hosts`: the Host headers accepted ("host:port";
    None accepts any, for a server bound to a chosen --host)."""
    from flask import Flask, jsonify, request, send_from_directory
    from flask.json.provider import DefaultJSONProvider
    from werkzeug.exceptions import HTTPException

    levels = LevelFolder.at(folder)
    app = Flask("twisty.serve", static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = MAX_LEVEL_BYTES + 64 * 1024
    if isinstance(app.json, DefaultJSONProvider):
        app.json.sort_keys = False  # keep the order the verdicts are written in
    cache = ViewCache()
    turns = threading.BoundedSemaphore(CONCURRENT_VERDICTS)

    def answer(data: dict[str, Any], status: int = 200) -> Any:
        response = jsonify(data)
        response.status_code = status
        response.headers["Cache-Control"] = "no-store"
        return response

    def refusal(message: str, status: int = 400, **extra: Any) -> Any:
        return answer(
            {"ok": False, "error": {"message": message, "line": None, "column": None, "text": message}, **extra}, status
        )

    def body() -> dict[str, Any]:
        data = request.get_json(silent=True)
        if not isinstance(data, dict):
            raise FolderError("send a JSON object (Content-Type: application/json)")
        return data

    def text_of(data: dict[str, Any]) -> str:
        text = data.get("text")
        if not isinstance(text, str):
            raise FolderError("the level text is missing")
        if len(text.encode("utf-8")) > MAX_LEVEL_BYTES:
            raise FolderError(f"a level may be at most {MAX_LEVEL_BYTES:,} bytes", 413)
        # twisty.load reads a one-line string as a file path; level text from the page is always text.
        return text if "\n" in text else text + "\n"

    def guarded(handler: Callable[..., Any]) -> Callable[..., Any]:
        """Every API answer is JSON: refusals carry their message, and a fault of ours is one line on the
        server's stderr and a 500 with a message, never a traceback."""

        def run(*args: Any, **kwargs: Any) -> Any:
            try:
                return handler(*args, **kwargs)
            except FolderError as error:
                return refusal(str(error), error.status)
            except LevelError as error:
                return answer({"ok": False, "error": error_data(error)}, 400)
            except EditError as error:
                return refusal(str(error))
            except LimitReached as reached:
                return refusal(f"unknown: the {reached.cap} of {timeout:g} s ran out", 200)
            except TwistyError as error:
                return refusal(str(error))
            except HTTPException:  # too large a request and the like: the handlers below answer
                raise
            except Exception as error:  # noqa: BLE001 (a fault of ours: the server keeps serving)
                print(
                    f"twisty serve: internal error, please report it: {type(error).__name__}: {error}",
                    file=sys.stderr,
                    flush=True,
                )
                return refusal(f"internal error: {type(error).__name__}", 500)

        run.__name__ = handler.__name__
        return run

    @app.before_request
    def same_origin_only() -> Any:
        if allowed_hosts is None:
            return None
        if request.host not in allowed_hosts:
            return refusal(f"refused: this server answers to {', '.join(sorted(allowed_hosts))} only", 403)
        origin = request.headers.get("Origin")
        if request.method == "POST" and origin is not None and urlsplit(origin).netloc not in allowed_hosts:
            return refusal("refused: a request from another site", 403)
        return None

    @app.errorhandler(404)
    def not_found(_error: Any) -> Any:
        return refusal("no such page", 404)

    @app.errorhandler(405)
    def not_allowed(_error: Any) -> Any:
        return refusal("method not allowed", 405)

    @app.errorhandler(413)
    def too_large(_error: Any) -> Any:
        return refusal(f"a request may carry at most {MAX_LEVEL_BYTES:,} bytes of level", 413)

    @app.errorhandler(500)
    def failed(_error: Any) -> Any:
        return refusal("internal error", 500)

    @app.get("/")
    def page() -> Any:
        return send_from_directory(STATIC, "index.html", max_age=0)

    @app.get("/static/<name>")
    def static_file(name: str) -> Any:
        if name not in {"app.js", "style.css"}:
            return refusal("no such file", 404)
        return send_from_directory(STATIC, name, max_age=0)

    @app.get("/api/levels")
    @guarded
    def list_levels() -> Any:
        return answer({"ok": True, "folder": levels.root.name, "levels": levels.levels(), "timeout": timeout})

    @app.get("/api/level")
    @guarded
    def read_level() -> Any:
        name = request.args.get("path")
        return answer({"ok": True, "path": name, "text": levels.read(name)})

    @app.post("/api/view")
    @guarded
    def view() -> Any:
        data = body()
        text = text_of(data)
        spread = data.get("spread")
        if spread is not None and (isinstance(spread, bool) or not isinstance(spread, int) or spread < 0):
            raise FolderError("spread must be a whole number")
        given = data.get("path")
        name = given if isinstance(given, str) else "<text>"
        key = (text, spread)
        found = cache.get(key)
        if found is None:
            if not turns.acquire(timeout=WAIT_FOR_TURN):
                return refusal("busy: other verdicts are being computed, try again", 503)
            try:
                found = level_view(text, name=name[:200], spread=spread, timeout=timeout)
            finally:
                turns.release()
            cache.put(key, found)
        return answer(found)

    @app.post("/api/edit")
    @guarded
    def edit() -> Any:
        data = body()
        return answer(
            {"ok": True, "text": edit_cell(text_of(data), data.get("cell"), data.get("symbol"), timeout=timeout)}
        )

    @app.post("/api/save")
    @guarded
    def save() -> Any:
        data = body()
        text = text_of(data)
        from twisty.api import load

        load(text, timeout=timeout)  # only levels that load are saved (a LevelError says where not)
        path = levels.save(data.get("path"), text, overwrite=data.get("overwrite") is True)
        return answer({"ok": True, "saved": path.relative_to(levels.root).as_posix()})

    return app
