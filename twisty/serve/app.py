"""The web application of `twisty serve` (Flask): the page, and a small JSON API it calls.

    GET  /                       the page (static/index.html, plain HTML and JavaScript, no build step);
                                 a level's own address is /#level=PATH
    GET  /api/levels             the .toml files under the folder
    GET  /api/level?path=P       one level's text
    GET  /api/verdict?path=P     the verdict on a level file: the record `twisty check --json` gives for it
    POST /api/view {text, path, spread}          verdict, editor grid and picture of a text (or its error)
    POST /api/edit {text, cell, symbol}          the text with one cell changed, comments kept
    POST /api/save {path, text, overwrite}       write the text to the folder (409 when it exists)

Every answer is JSON; bad input of any kind is a JSON error with a message (positioned for level text and
for request bodies), never a traceback, and the server goes on serving. Verdicts are those of `twisty
check` (the same function, the same defaults), each computed in a worker process within the server's
deadline and kept in a cache keyed by the level's content, so a save recomputes only the level saved
(twisty.serve.verdicts). Requests must name this server as their Host (a web page elsewhere cannot reach
it through a rebound DNS name) and POSTs must be JSON from the page's own origin.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from twisty.errors import LevelError, LimitReached, TwistyError
from twisty.limits import MAX_LEVEL_BYTES
from twisty.serve.edits import EditError, edit_cell
from twisty.serve.files import FolderError, LevelFolder
from twisty.serve.requests import BadRequest, json_object
from twisty.serve.verdicts import VERDICT, VIEW, Job, Outcome, Recent, Workers

STATIC = Path(__file__).resolve().parent / "static"
SERVE_EXTRA = "pip install 'twisty[serve]'   (or: pip install flask matplotlib)"
# Verdicts kept (a folder's badges and more) and whole views kept (the picture's SVG is the bulk).
CACHED_VERDICTS = 4_096
CACHED_VIEWS = 64


def create_app(
    folder: str | Path, *, timeout: float = 3.0, allowed_hosts: set[str] | None = None, workers: Workers | None = None
) -> Any:
    """The Flask application serving `folder`. `allowed_hosts`: the Host headers accepted ("host:port";
    None accepts any, for a server bound to a chosen --host). `timeout`: seconds for each verdict."""
    from flask import Flask, jsonify, request, send_from_directory
    from flask.json.provider import DefaultJSONProvider
    from werkzeug.exceptions import HTTPException

    levels = LevelFolder.at(folder)
    app = Flask("twisty.serve", static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = MAX_LEVEL_BYTES + 64 * 1024
    if isinstance(app.json, DefaultJSONProvider):
        app.json.sort_keys = False  # keep the order the verdicts are written in
    pool = workers or Workers()
    pool.warm_up()
    verdicts: Recent[tuple[Any, ...]] = Recent(CACHED_VERDICTS)
    views: Recent[tuple[Any, ...]] = Recent(CACHED_VIEWS)

    def answer(data: dict[str, Any], status: int = 200) -> Any:
        response = jsonify(data)
        response.status_code = status
        response.headers["Cache-Control"] = "no-store"
        return response

    def refusal(
        message: str, status: int = 400, line: int | None = None, column: int | None = None, **extra: Any
    ) -> Any:
        shown = f"line {line}, column {column}: {message}" if line is not None else message
        error = {"message": message, "line": line, "column": column, "text": shown}
        return answer({"ok": False, "error": error, **extra}, status)

    def body() -> dict[str, Any]:
        if not request.is_json:
            raise BadRequest("send a JSON object (Content-Type: application/json)")
        return json_object(request.get_data(cache=False))

    def text_of(data: dict[str, Any]) -> str:
        text = data.get("text")
        if not isinstance(text, str):
            raise BadRequest("the level text is missing")
        if len(text.encode("utf-8", errors="surrogatepass")) > MAX_LEVEL_BYTES:
            raise BadRequest(f"a level may be at most {MAX_LEVEL_BYTES:,} bytes", 413)
        # twisty.load reads a one-line string as a file path; level text from the page is always text.
        return text if "\n" in text else text + "\n"

    def guarded(handler: Callable[..., Any]) -> Callable[..., Any]:
        """Every API answer is JSON: refusals carry their message, and a fault of ours is one line on the
        server's stderr and a 500 with a message, never a traceback."""

        def run(*args: Any, **kwargs: Any) -> Any:
            try:
                return handler(*args, **kwargs)
            except BadRequest as error:
                return refusal(error.message, error.status, error.line, error.column)
            except FolderError as error:
                return refusal(str(error), error.status)
            except LevelError as error:
                return answer(
                    {
                        "ok": False,
                        "error": {
                            "message": error.message,
                            "line": error.line,
                            "column": error.column,
                            "text": str(error),
                        },
                    },
                    400,
                )
            except EditError as error:
                return refusal(str(error))
            except LimitReached as reached:
                return refusal(f"unknown: the {reached.cap} of {timeout:g} s ran out", 200)
            except TwistyError as error:
                return refusal(str(error))
            except HTTPException:  # too large a request and the like: the handlers below answer
                raise
            except Exception as error:  # noqa: BLE001 (a fault of ours: the server keeps serving)
                return fault(f"{type(error).__name__}: {error}")

        run.__name__ = handler.__name__
        return run

    def fault(message: str) -> Any:
        print(f"twisty serve: internal error, please report it: {message}", file=sys.stderr, flush=True)
        return refusal(f"internal error: {message.partition(':')[0]}", 500)

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

    @app.errorhandler(400)
    def bad_request(_error: Any) -> Any:
        return refusal("bad request", 400)

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

    @app.get("/api/verdict")
    @guarded
    def level_verdict() -> Any:
        """The badge of the index: the verdict on the file as it is on disk (cached by its content)."""
        arrived = time.monotonic()
        name = request.args.get("path")
        raw = levels.read_bytes(name)
        job = Job(VERDICT, raw, str(name), None, timeout)
        found = verdicts.get(job.key)
        if found is None:
            outcome = pool.run(job, index=True, arrived=arrived)
            if outcome.ending == "busy":
                return busy()
            if outcome.ending == "fault":
                return fault(outcome.fault)
            found = _verdict_of(outcome, timeout)
            if _decided(found):
                verdicts.put(job.key, found)
        return answer({"ok": True, "path": name, "verdict": found})

    def busy() -> Any:
        response = refusal("busy: other verdicts are being computed, try again", 503)
        response.headers["Retry-After"] = "1"
        return response

    @app.post("/api/view")
    @guarded
    def view() -> Any:
        arrived = time.monotonic()
        data = body()
        text = text_of(data)
        spread = data.get("spread")
        if spread is not None and (isinstance(spread, bool) or not isinstance(spread, int) or not 0 <= spread < 10**6):
            raise BadRequest("spread must be a whole number")
        given = data.get("path")
        name = given[:200] if isinstance(given, str) and given else "<text>"
        job = Job(VIEW, text.encode("utf-8", errors="surrogatepass"), name, spread, timeout)
        found = views.get(job.key)
        if found is None:
            outcome = run_view(job, arrived)
            if outcome.ending == "busy":
                return busy()
            if outcome.ending == "fault":
                return fault(outcome.fault)
            found = _view_of(outcome, timeout)
            if not found.get("ok") or (_decided(found["verdict"]) and outcome.ending == "done"):
                views.put(job.key, found)
            if found.get("ok") and _decided(found["verdict"]):
                verdicts.put(Job(VERDICT, job.raw, name, None, timeout).key, found["verdict"])
        return answer(found)

    def run_view(job: Job, arrived: float) -> Outcome:
        return pool.run(job, arrived=arrived)

    app.config["TWISTY_RUN_VIEW"] = run_view  # tests stand in a fault here

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


def _decided(verdict: dict[str, Any]) -> bool:
    """Whether a verdict is worth keeping: one that no limit cut short is a function of the level's content
    alone; an unknown one (the time ran out, perhaps only because the machine was busy) is asked again."""
    record = verdict.get("record") or {}
    return verdict.get("status") != "unknown" and not (record.get("valid") and record.get("solvable") is None)


def _cut_verdict(timeout: float) -> dict[str, Any]:
    headline = f"unknown: the time limit of {timeout:g} s ran out before the verdict"
    return {"status": "unknown", "headline": headline, "summary": headline, "details": [], "expect_failures": []}


def _verdict_of(outcome: Outcome, timeout: float) -> dict[str, Any]:
    part = outcome.parts.get("verdict")
    if part is None:
        return _cut_verdict(timeout)
    if not part.get("ok"):  # a view's part for text that does not load: the verdict job always sends ok
        return {"status": "invalid", "headline": part["error"]["text"], "expect_failures": []}
    return dict(part["verdict"])


def _view_of(outcome: Outcome, timeout: float) -> dict[str, Any]:
    """The page's view from the parts that came back: what did not come within the deadline is said so."""
    verdict = outcome.parts.get("verdict")
    if verdict is None:
        return {
            "ok": True,
            "game": None,
            "name": "",
            "verdict": _cut_verdict(timeout),
            "palette": [],
            "grid": None,
            "svg": None,
            "picture_note": "nothing was drawn within the time limit",
        }
    if not verdict.get("ok"):
        return {"ok": False, "error": verdict["error"]}
    editor = outcome.parts.get("editor", {"palette": [], "grid": None})
    picture = outcome.parts.get(
        "picture", {"svg": None, "picture_note": f"the picture was not drawn within the time limit of {timeout:g} s"}
    )
    return {
        "ok": True,
        "game": verdict["game"],
        "name": verdict["name"],
        "verdict": verdict["verdict"],
        "palette": editor.get("palette", []),
        "grid": editor.get("grid"),
        "svg": picture.get("svg"),
        "picture_note": picture.get("picture_note", ""),
    }
