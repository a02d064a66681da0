"""`twisty serve`'s application through Flask's test client: hostile requests (paths out of the folder,
links, broken TOML, wrong JSON, other hosts and sites) are refused with a JSON message and never a
traceback; saving asks before overwriting, never writes through a link, never leaves half a file; edits keep
the file's comments; each verdict keeps to the server's deadline."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

pytest.importorskip("flask", reason="twisty serve needs flask: pip install 'twisty[serve]'")

from twisty.serve import app as serve_app
from twisty.serve.app import create_app

ROOT = Path(__file__).resolve().parents[2]
FIRST_STRIKE = (ROOT / "puzzles" / "passages" / "06-first-strike.toml").read_text(encoding="utf-8")
TUTORIAL = (ROOT / "puzzles" / "book" / "tutorial.toml").read_text(encoding="utf-8")
HOST = "127.0.0.1:8022"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    levels = tmp_path / "levels"
    (levels / "sub").mkdir(parents=True)
    (levels / "first.toml").write_text(FIRST_STRIKE, encoding="utf-8")
    (levels / "sub" / "book.toml").write_text(TUTORIAL, encoding="utf-8")
    (tmp_path / "secret.toml").write_text('game = "passages"\n# secret\n', encoding="utf-8")
    (levels / "out.toml").symlink_to(tmp_path / "secret.toml")
    (levels / "outdir").symlink_to(tmp_path)
    return levels


@pytest.fixture
def client(folder: Path):
    app = create_app(folder, timeout=20, allowed_hosts={HOST})
    return app.test_client()


def get(client, url: str, **kwargs):
    return client.get(url, headers={"Host": HOST}, **kwargs)


def post(client, url: str, data, **kwargs):
    return client.post(url, json=data, headers={"Host": HOST, **kwargs.pop("headers", {})}, **kwargs)


def test_the_list_holds_the_levels_inside_the_folder_only(client) -> None:
    answer = get(client, "/api/levels").get_json()
    assert answer["levels"] == ["first.toml", "sub/book.toml"]


@pytest.mark.parametrize(
    "name, status",
    [
        ("../secret.toml", 403),
        ("/etc/passwd", 403),
        ("sub/../../secret.toml", 403),
        ("out.toml", 403),
        ("outdir/secret.toml", 403),
        ("first.txt", 403),
        ("missing.toml", 404),
        ("sub//book.toml", 403),
        ("./first.toml", 403),
    ],
)
def test_paths_outside_the_folder_are_refused(client, name: str, status: int) -> None:
    response = get(client, "/api/level", query_string={"path": name})
    assert response.status_code == status
    answer = response.get_json()
    assert answer["ok"] is False and "secret" not in answer["error"]["message"].replace(name, "")


def test_a_level_inside_is_read(client) -> None:
    answer = get(client, "/api/level", query_string={"path": "sub/book.toml"}).get_json()
    assert answer["text"] == TUTORIAL


def test_broken_toml_gives_the_positioned_error_and_the_server_goes_on(client) -> None:
    broken = FIRST_STRIKE.replace("[player]", "[player")
    line = broken.splitlines().index("[player") + 1
    response = post(client, "/api/view", {"text": broken})
    answer = response.get_json()
    assert answer["ok"] is False and (answer["error"]["line"], answer["error"]["column"]) == (line, 8)
    assert "Traceback" not in response.get_data(as_text=True)
    assert post(client, "/api/view", {"text": FIRST_STRIKE}).get_json()["verdict"]["record"]["final_hp"] == 4


def test_a_one_line_text_is_text_never_a_path(client) -> None:
    answer = post(client, "/api/view", {"text": "/etc/passwd"}).get_json()
    assert answer["ok"] is False and answer["error"]["message"].startswith("broken TOML")
    assert answer["error"]["line"] == 1


@pytest.mark.parametrize(
    "payload",
    [
        None,
        [],
        {"text": 3},
        {"text": None},
        {"text": FIRST_STRIKE, "spread": "x"},
        {"text": FIRST_STRIKE, "spread": -1},
    ],
)
def test_wrong_requests_are_json_refusals(client, payload) -> None:
    response = client.post(
        "/api/view", data="not json" if payload is None else None, json=payload, headers={"Host": HOST}
    )
    assert response.status_code == 400 and response.get_json()["ok"] is False


def test_a_huge_request_is_refused(client) -> None:
    response = post(client, "/api/view", {"text": "#" * (2 << 20)})
    assert response.status_code == 413 and response.get_json()["ok"] is False


def test_other_hosts_and_sites_are_refused(client) -> None:
    assert client.get("/api/levels", headers={"Host": "evil.example:8022"}).status_code == 403
    response = post(
        client, "/api/save", {"path": "x.toml", "text": FIRST_STRIKE}, headers={"Origin": "http://evil.example"}
    )
    assert response.status_code == 403


def test_a_fault_of_ours_is_one_json_line_and_the_server_goes_on(folder: Path, monkeypatch, capsys) -> None:
    """A worker that fails (here: its verdict function raises) is one line on stderr and a 500 with a
    message; the next request is served."""

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(serve_app.Workers, "_in_process", broken)
    client = create_app(folder, timeout=20, allowed_hosts={HOST}).test_client()
    response = post(client, "/api/view", {"text": FIRST_STRIKE + "\n# another\n"})
    assert response.status_code == 500 and "Traceback" not in response.get_data(as_text=True)
    assert "internal error, please report it: RuntimeError: boom" in capsys.readouterr().err
    monkeypatch.undo()
    assert get(client, "/api/levels").status_code == 200
    assert post(client, "/api/view", {"text": FIRST_STRIKE + "\n# another\n"}).status_code == 200


def test_each_verdict_keeps_to_the_deadline(folder: Path) -> None:
    """The tutorial book cannot even be evaluated in a millisecond: whether it can be won is unknown (and
    its claims, which say solvable, fail, as `twisty check --timeout 0.001` says), naming the time limit."""
    client = create_app(folder, timeout=0.001, allowed_hosts=None).test_client()
    verdict = client.post("/api/view", json={"text": TUTORIAL}).get_json()["verdict"]
    assert "time limit" in verdict["headline"]
    assert verdict.get("record", {}).get("solvable") is None and verdict["status"] in ("unknown", "failed")


def test_placing_a_rat_changes_the_verdict(client) -> None:
    edited = post(client, "/api/edit", {"text": FIRST_STRIKE, "cell": [3, 2], "symbol": "r"}).get_json()["text"]
    assert "#.rr.r..#" in edited and edited.replace("#.rr.r..#", "#..r.r..#") == FIRST_STRIKE
    # Three Rats at 2 hp each (8 - 6 = 2) beat the Viper's 7 (8 - 7 = 1).
    assert post(client, "/api/view", {"text": edited}).get_json()["verdict"]["record"]["final_hp"] == 2


def test_placing_the_start_moves_it(client) -> None:
    edited = post(client, "/api/edit", {"text": FIRST_STRIKE, "cell": [3, 1], "symbol": "S"}).get_json()["text"]
    assert "#...v..G#" in edited and "#S.r.r..#" in edited


@pytest.mark.parametrize(
    "cell, symbol", [([0, 99], "r"), ([1, 2], "z"), ([1, 2], ""), (["a", 2], "r"), ([1, 2, 3], "r"), ([True, 1], "r")]
)
def test_bad_edits_are_refused(client, cell, symbol) -> None:
    response = post(client, "/api/edit", {"text": FIRST_STRIKE, "cell": cell, "symbol": symbol})
    assert response.status_code == 400 and response.get_json()["ok"] is False


def test_a_book_edit_keeps_every_comment(client) -> None:
    edited = post(client, "/api/edit", {"text": TUTORIAL, "cell": [6, 1, 0], "symbol": "Dr"}).get_json()["text"]
    comments = [line for line in TUTORIAL.splitlines() if line.lstrip().startswith("#") and "=" not in line[:3]]
    assert [line for line in edited.splitlines() if line in comments] == comments
    changed = [(old, new) for old, new in zip(TUTORIAL.splitlines(), edited.splitlines(), strict=False) if old != new]
    assert changed == [("Wo Ru .  .  .  . ", "Dr Ru .  .  .  . ")]
    spread = post(client, "/api/view", {"text": edited, "spread": 3}).get_json()["grid"]
    assert spread["pages"][0]["page"] == 6 and spread["pages"][0]["cells"][1][0]["code"] == "Dr"
    # A Dragon is a bad guy (rule 1): deadly, and explain says why.
    assert spread["pages"][0]["cells"][1][0]["status"] == "deadly"
    assert "rule 1 (The bad guys)" in spread["pages"][0]["cells"][1][0]["explain"]


def test_saving_asks_before_overwriting(client, folder: Path) -> None:
    edited = FIRST_STRIKE.replace("#..r.r..#", "#.rr.r..#")
    response = post(client, "/api/save", {"path": "first.toml", "text": edited})
    assert response.status_code == 409
    assert (folder / "first.toml").read_text() == FIRST_STRIKE
    response = post(client, "/api/save", {"path": "first.toml", "text": edited, "overwrite": True})
    assert response.status_code == 200 and (folder / "first.toml").read_text() == edited
    response = post(client, "/api/save", {"path": "sub/new.toml", "text": edited})
    assert response.get_json()["saved"] == "sub/new.toml" and (folder / "sub" / "new.toml").read_text() == edited
    assert not [name for name in os.listdir(folder) + os.listdir(folder / "sub") if name.startswith(".twisty")]


def test_saving_never_writes_through_a_link_or_out_of_the_folder(client, folder: Path, tmp_path: Path) -> None:
    inside = folder / "inner-link.toml"
    inside.symlink_to(folder / "first.toml")
    for name in ("inner-link.toml", "out.toml", "../escape.toml", "outdir/escape.toml", "nofolder/x.toml"):
        response = post(client, "/api/save", {"path": name, "text": FIRST_STRIKE, "overwrite": True})
        assert response.status_code in (403, 404), name
    assert (tmp_path / "secret.toml").read_text() == 'game = "passages"\n# secret\n'
    assert not (tmp_path / "escape.toml").exists() and inside.is_symlink()


def test_a_level_that_does_not_load_is_not_saved(client, folder: Path) -> None:
    response = post(client, "/api/save", {"path": "first.toml", "text": "game = 3\n", "overwrite": True})
    assert response.status_code == 400 and response.get_json()["error"]["line"] == 1
    assert (folder / "first.toml").read_text() == FIRST_STRIKE


def test_the_page_and_its_scripts_are_served(client) -> None:
    assert b'<textarea id="text"' in get(client, "/").data
    assert get(client, "/static/app.js").status_code == 200
    assert get(client, "/static/../app.py").status_code == 404


def test_a_fifo_in_the_folder_is_neither_listed_nor_read(client, folder: Path) -> None:
    os.mkfifo(folder / "pipe.toml")
    assert "pipe.toml" not in get(client, "/api/levels").get_json()["levels"]
    assert get(client, "/api/level", query_string={"path": "pipe.toml"}).status_code == 404
