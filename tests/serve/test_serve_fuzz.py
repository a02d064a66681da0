"""Random requests to every endpoint of `twisty serve` (issue 28): whatever the method, path, headers and
body (JSON of any shape and depth, bytes that are not JSON, shipped levels mutated, cells and symbols of any
type, paths of any kind), the page answers JSON with a status it means (200, 400, 403, 404, 405, 409, 413,
415 or 503), never a 500, never a traceback, and goes on serving.

The default run tries FUZZ_EXAMPLES requests; `pytest -m slow` runs SLOW_EXAMPLES.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("flask", reason="twisty serve needs flask: pip install 'twisty[serve]'")

from twisty.serve.app import create_app

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = [
    (ROOT / "puzzles" / name).read_text(encoding="utf-8")
    for name in ("passages/06-first-strike.toml", "book/tutorial.toml", "temple/01-first-game.toml")
]
FUZZ_EXAMPLES = 200
SLOW_EXAMPLES = 2000
# Every example is a real request to a server that starts worker processes: slow, and meant to be.
QUIET = settings(
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
MEANT = {200, 400, 403, 404, 405, 409, 413, 415, 503}

KEYS = ["text", "path", "spread", "cell", "symbol", "overwrite", "game", "x"]
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=30),
    st.sampled_from(["r", "S", "#", "Dr", "reveal", "door", "../x.toml", "/etc/passwd", "a.toml", "\x00"]),
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=4), st.dictionaries(st.sampled_from(KEYS), inner, max_size=4)),
    max_leaves=12,
)
PATHS = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["first.toml", "sub/book.toml", "../secret.toml", "out.toml", "", "a//b.toml", "x" * 2000]),
)


@st.composite
def mutated_level(draw: st.DrawFn) -> str:
    """A shipped level of some game with a few cuts, insertions and replacements."""
    text = draw(st.sampled_from(SHIPPED))
    for _ in range(draw(st.integers(0, 3))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["insert", "delete", "replace"]))
        piece = draw(st.text(min_size=1, max_size=8))
        if kind == "insert":
            text = text[:at] + piece + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + len(piece) :]
        else:
            text = text[:at] + piece + text[at + len(piece) :]
    return text


@st.composite
def bodies(draw: st.DrawFn) -> tuple[str | bytes, str]:
    """A request body and its content type."""
    kind = draw(st.sampled_from(["object", "level", "level", "level", "raw", "deep", "any"]))
    if kind == "object":
        data = draw(st.dictionaries(st.sampled_from(KEYS), JSON_VALUES, max_size=6))
        return json.dumps(data), "application/json"
    if kind == "level":
        data = {"text": draw(mutated_level()), "path": draw(PATHS)}
        extra = draw(
            st.dictionaries(st.sampled_from(["spread", "cell", "symbol", "overwrite"]), JSON_VALUES, max_size=2)
        )
        return json.dumps(data | extra), "application/json"
    if kind == "deep":
        depth = draw(st.integers(20, 5000))
        return '{"text": ' + "[" * depth + "]" * depth + "}", "application/json"
    if kind == "raw":
        return draw(st.binary(max_size=200)), draw(st.sampled_from(["application/json", "text/plain", ""]))
    return json.dumps(draw(JSON_VALUES)), "application/json"


REQUESTS = st.one_of(
    st.tuples(st.just("GET"), st.sampled_from(["/api/level", "/api/verdict", "/api/levels"]), PATHS, st.none()),
    st.tuples(st.just("POST"), st.sampled_from(["/api/view", "/api/edit", "/api/save"]), st.none(), bodies()),
    st.tuples(
        st.sampled_from(["GET", "POST", "PUT", "DELETE"]),
        st.sampled_from(["/", "/static/app.js", "/static/x", "/api/view", "/api/nothing", "/api/levels"]),
        st.none(),
        st.none(),
    ),
)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("fuzz") / "levels"
    (folder / "sub").mkdir(parents=True)
    (folder / "first.toml").write_text(SHIPPED[0], encoding="utf-8")
    (folder / "sub" / "book.toml").write_text(SHIPPED[1], encoding="utf-8")
    (folder / "round.toml").write_text(SHIPPED[2], encoding="utf-8")
    # A short deadline: a verdict's quality is not what is tried here, and each view runs to its deadline.
    return create_app(folder, timeout=0.5).test_client()


def ask(client, request: tuple) -> None:
    method, url, path, body = request
    if path is not None:
        response = client.open(url, method=method, query_string={"path": path})
    elif body is not None:
        data, content_type = body
        response = client.open(url, method=method, data=data, content_type=content_type or None)
    else:
        response = client.open(url, method=method)
    assert response.status_code in MEANT, (response.status_code, response.get_data(as_text=True)[:300])
    text = response.get_data(as_text=True)
    assert "Traceback" not in text
    if url.startswith("/api/"):
        answer = response.get_json()
        assert isinstance(answer, dict) and "ok" in answer, text[:300]
        if not answer["ok"]:
            assert isinstance(answer["error"]["message"], str) and answer["error"]["message"]


@settings(QUIET, max_examples=FUZZ_EXAMPLES)
@given(request=REQUESTS)
def test_random_requests_never_fail_the_server(client, request: tuple) -> None:
    ask(client, request)


@pytest.mark.slow
@settings(QUIET, max_examples=SLOW_EXAMPLES)
@given(request=REQUESTS)
def test_many_random_requests_never_fail_the_server(client, request: tuple) -> None:
    ask(client, request)
