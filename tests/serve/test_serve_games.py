"""The page for every game (issue 35): a Temple Twist round gets its verdict, its palette, its editor grid and
its picture (it once got "no verdict for this game here"), and its two cell edits (reveal a room card,
choose the revealed door) change the round's text and its verdict; the page reaches each game's editor
through the registry's `page` entry."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("flask", reason="twisty serve needs flask: pip install 'twisty[serve]'")

import twisty
from twisty.games import GAMES, level_games, resolve
from twisty.serve.app import create_app

ROOT = Path(__file__).resolve().parents[2]
FIRST_GAME = (ROOT / "puzzles" / "temple" / "01-first-game.toml").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("games")
    return create_app(folder, timeout=60).test_client()


def view(client, text: str) -> dict:
    response = client.post("/api/view", json={"text": text, "path": "round.toml"})
    assert response.status_code == 200
    return response.get_json()


def test_every_game_with_level_files_has_an_editor_in_the_registry() -> None:
    for game in level_games():
        module = resolve(game.page)
        assert all(callable(getattr(module, name)) for name in ("palette", "grid", "edit", "landed")), game.name


def test_a_temple_round_shows_its_verdict_palette_grid_and_picture(client) -> None:
    answer = view(client, FIRST_GAME)
    verdict = answer["verdict"]
    # The round's own claims (docs and both engines): won in 4 turns, unique, bounce-safe in 5.
    assert answer["game"] == "temple" and verdict["status"] == "ok"
    assert verdict["record"]["turns"] == 4 and verdict["record"]["unique"] is True
    assert verdict["headline"].startswith("won in 4 turns")
    assert [entry["symbol"] for entry in answer["palette"]] == ["reveal", "door"]
    grid = answer["grid"]
    round_ = twisty.load(FIRST_GAME).model
    assert grid["kind"] == "temple" and len(grid["rooms"]) == round_.temple.room_count == 16
    assert {room["name"] for room in grid["rooms"] if room["revealed"]} == {"crypt", "jade"}
    assert len(grid["doors"]) == len(round_.temple.doors)
    assert [door["name"] for door in grid["doors"] if door["revealed"]] == ["pink"]
    assert answer["svg"].startswith("<svg") and "turn-4-die" in answer["svg"]  # one panel per turn of the plan


def test_revealing_a_room_card_changes_the_round_and_its_verdict(client) -> None:
    answer = view(client, FIRST_GAME)
    round_ = twisty.load(FIRST_GAME).model
    hidden = next(
        room for room in answer["grid"]["rooms"] if room["card"] and not room["revealed"] and room["name"] != "fate"
    )
    response = client.post("/api/edit", json={"text": FIRST_GAME, "cell": hidden["at"], "symbol": "reveal"})
    assert response.status_code == 200, response.get_json()
    edited = response.get_json()["text"]
    assert f'revealed = ["crypt", "jade", "{hidden["name"]}"]' in edited
    changed = [(old, new) for old, new in zip(FIRST_GAME.splitlines(), edited.splitlines(), strict=True) if old != new]
    assert len(changed) == 1  # every other line (comments, the claims) as written
    assert twisty.load(edited).model.revealed == (*round_.revealed, round_.temple.names.index(hidden["name"]))
    again = client.post("/api/edit", json={"text": edited, "cell": hidden["at"], "symbol": "reveal"}).get_json()
    assert again["text"] == FIRST_GAME  # revealed again: hidden again
    # A third room to explore: the page's verdict on the edited round is the API's (the same check).
    verdict = view(client, edited)["verdict"]
    expected = twisty.check(twisty.load(edited), timeout=60).to_json()
    assert verdict["record"]["turns"] == expected["turns"] and verdict["record"]["solvable"] == expected["solvable"]
    assert verdict["expect_failures"] == expected["expect_failures"]


def test_choosing_another_door_and_bad_temple_edits(client) -> None:
    answer = view(client, FIRST_GAME)
    other = next(door for door in answer["grid"]["doors"] if not door["revealed"])
    edited = client.post("/api/edit", json={"text": FIRST_GAME, "cell": other["at"], "symbol": "door"}).get_json()
    assert f'door = "{other["name"]}"' in edited["text"]
    assert twisty.load(edited["text"]).model.door.name == other["name"]
    plain = next(room for room in answer["grid"]["rooms"] if not room["card"])
    for cell, symbol in ((plain["at"], "reveal"), ([0, 0], "door"), ([1, 1], "wall"), ([99, 99], "reveal")):
        response = client.post("/api/edit", json={"text": FIRST_GAME, "cell": cell, "symbol": symbol})
        assert response.status_code == 400 and response.get_json()["ok"] is False, (cell, symbol)


def test_the_registry_names_the_page_of_each_game() -> None:
    assert GAMES["temple"].page == "twisty.serve.page_temple"
    assert GAMES["tunnels"].page is None  # no level files: nothing to edit on the page
