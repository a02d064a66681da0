"""A fifth game, Lights Out, added through the registry alone (tests/toy: its modules; one entry put into
twisty.games.GAMES here): every command, the API and the page take it with no edit of the package.

The answers are derived by hand from the rule "pressing a light toggles it and its orthogonal neighbours":
on CORNER one press of the corner darkens the three lit lights, and no other single press does; on a 1x2
board with one light lit, every press toggles both lights, so the count of lit lights stays odd and the board
can never be dark. The two engines (elimination over GF(2), brute force) are held to each other on a seeded
family of boards.
"""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

import pytest
from click.testing import CliRunner

import twisty
from tests.toy import engines, gauss
from tests.toy.commands import family
from tests.toy.entry import GAME
from twisty.api import check_record
from twisty.checking import record_gaps
from twisty.cli import main
from twisty.games import GAMES
from twisty.limits import Deadline

CORNER = """game = "lights"
name = "Corner"
board = \"\"\"
##.
#..
...
\"\"\"

[expect]
solvable = true
presses = 1
unique = true
"""
ODD = 'game = "lights"\nboard = """\n#.\n"""\n'


@pytest.fixture(autouse=True)
def lights_registered(monkeypatch):
    monkeypatch.setitem(GAMES, "lights", GAME)


def run(*args: str):
    return CliRunner().invoke(main, list(args))


@pytest.fixture
def corner(tmp_path: Path) -> Path:
    path = tmp_path / "corner.toml"
    path.write_text(CORNER, encoding="utf-8")
    return path


def test_check_and_solve(corner: Path, tmp_path: Path):
    result = run("check", str(corner))
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"ok         {corner}: dark after 1 presses (unique)")
    data = json.loads(run("check", "--json", str(corner)).output)
    assert record_gaps(data) == []
    assert (data["presses"], data["pressed"], data["unique"], data["engine"]) == (1, [[0, 0]], True, "gauss")
    listed = " ".join(run("check", "--help").output.split())
    assert "lights: presses, unique" in listed and "lights: auto, gauss, brute" in listed
    assert json.loads(run("check", "--json", "--engine", "brute", str(corner)).output)["pressed"] == [[0, 0]]
    solved = run("solve", str(corner))
    assert solved.exit_code == 0 and "Press the lights marked *:\n  *#.\n  #..\n  ..." in solved.output
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(CORNER.replace("presses = 1", "presses = 2"), encoding="utf-8")
    failed = run("check", str(wrong))
    assert failed.exit_code == 1 and "presses: claimed 2, but it is 1" in failed.output
    assert run("solve", str(wrong)).exit_code == 1
    odd = tmp_path / "odd.toml"
    odd.write_text(ODD, encoding="utf-8")
    assert run("check", str(odd)).output.startswith(f"UNSOLVABLE {odd}: cannot be darkened (proved)")
    assert run("check", str(odd)).exit_code == 1


def test_bad_levels_and_options_are_refused_like_any_games(tmp_path: Path):
    bad = tmp_path / "bad.toml"
    bad.write_text(CORNER.replace("#..", "#x."), encoding="utf-8")
    result = run("check", str(bad))
    assert result.exit_code == 2 and f"{bad}:5:2: board: 'x' is neither" in result.output
    bad.write_text(CORNER.replace("name =", "nmae ="), encoding="utf-8")
    assert 'unknown key "nmae" (did you mean "name"?)' in run("check", str(bad)).output
    bad.write_text(CORNER, encoding="utf-8")
    assert 'no engine "brut" (did you mean "brute"?' in run("check", "--engine", "brut", str(bad)).output


def test_render(corner: Path, tmp_path: Path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "corner.svg"
    result = run("render", str(corner), "-o", str(out), "--presses", "--json")
    assert result.exit_code == 0, result.output
    record = json.loads(result.output)
    assert (record["game"], record["answer"], record["answer_drawn"]) == ("lights", "presses", True)
    assert 'id="press-1"' in out.read_text() and 'id="light-2-2"' in out.read_text()
    assert "--presses" in run("render", "--help").output
    refused = run("render", str(corner), "-o", str(tmp_path / "x.svg"), "--route")
    assert refused.exit_code == 2
    assert "--route draws the route of Twisty Little Passages levels; this level is Lights Out; use --presses" in (
        refused.output
    )
    assert run("render", str(corner), "-o", str(tmp_path / "y.svg"), "--spread", "1").exit_code == 2


def test_generate(tmp_path: Path):
    result = run("generate", "lights", "--size", "3x3", "--presses", "2", "--seed", "4")
    assert result.exit_code == 0, result.output
    level = twisty.load(result.output)
    assert level.game == "lights" and level.model.expect == {"solvable": True, "presses": 2, "unique": True}
    # The generated claims hold for the brute force too (the generator verified with elimination).
    assert twisty.check(level, engine="brute").expect_failures == ()
    out = tmp_path / "one.toml"
    made = run("generate", "lights", "--presses", "2", "--seed", "4", "-o", str(out), "--json")
    assert made.exit_code == 0 and json.loads(made.output)["verdict"]["presses"] == 2
    assert out.read_text(encoding="utf-8") == result.output
    assert run("generate", "lights", "--presses", "12", "--size", "2x2").exit_code == 2


def test_bench():
    result = run("bench", "lights", "--boards", "6", "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)
    assert data["boards"] == 6 and data["worst_ratio"] > 0
    assert data["gauss"]["worst"] >= data["gauss"]["median"] > 0


def test_the_book_commands_refuse_it_with_one_message(corner: Path):
    explained = run("explain", str(corner), "0", "0", "0")
    assert explained.exit_code == 2 and 'explain reads books (game = "book"), not game = "lights"' in explained.output
    completed = run("complete", str(corner))
    assert completed.exit_code == 2 and 'not game = "lights"' in completed.output


def test_the_api(corner: Path):
    level = twisty.load(corner)
    assert repr(level) == f"Level(game='lights', path='{corner}', name='Corner')"
    verdict = twisty.check(level)
    assert (verdict.solvable, verdict.presses, verdict.unique, verdict.status) == (True, ((0, 0),), True, "ok")
    assert (
        repr(verdict)
        == "LightsVerdict(game='lights', name='Corner', status='ok', solvable=True, presses=1, unique=True)"
    )
    assert twisty.solve(CORNER).to_json()["pressed"] == [[0, 0]]
    assert check_record(CORNER.encode()).headline == {"solvable": True, "presses": 1, "unique": True}
    made = twisty.generate("lights", seed=2, presses=3)
    assert made.answer.presses is not None and len(made.answer.presses) == 3 and made.answer.unique
    with pytest.raises(twisty.UsageError, match='takes no parameter "pres" \\(did you mean "presses"\\?\\)'):
        twisty.generate("lights", pres=2)
    with pytest.raises(twisty.LevelError, match="board must be"):
        twisty.check('game = "lights"\nboard = 3\n')


def test_the_two_engines_agree_on_a_seeded_family():
    for board in family(seed=11, count=60):
        fast, slow = gauss.fewest(board, Deadline(None)), engines.fewest(board, Deadline(None))
        assert fast.status == slow.status, board
        if fast.presses is not None:
            assert len(fast.presses) == len(slow.presses) and fast.sets_of_that_size == slow.sets_of_that_size


def test_the_page(corner: Path, tmp_path: Path):
    pytest.importorskip("flask")
    from twisty.serve.app import create_app
    from twisty.serve.verdicts import Workers

    class ForkedWorkers(Workers):
        """Workers forked from this process, so that they see the registry entry the test put in."""

        def __init__(self) -> None:
            super().__init__()
            self.context = multiprocessing.get_context("fork")

    (tmp_path / "levels").mkdir()
    (tmp_path / "levels" / "corner.toml").write_text(CORNER, encoding="utf-8")
    client = create_app(tmp_path / "levels", timeout=30, workers=ForkedWorkers()).test_client()
    badge = client.get("/api/verdict?path=corner.toml").get_json()
    assert badge["ok"] and badge["verdict"]["status"] == "ok"
    assert badge["verdict"]["record"]["presses"] == 1
    view = client.post("/api/view", json={"text": CORNER, "path": "corner.toml"}).get_json()
    assert view["game"] == "lights" and view["verdict"]["headline"].startswith("dark after 1 presses")
    assert view["grid"]["route"] == [[0, 0]] and [entry["symbol"] for entry in view["palette"]] == ["#", "."]
    assert view["svg"].startswith("<svg")
    edited = client.post("/api/edit", json={"text": CORNER, "cell": [2, 2], "symbol": "#"}).get_json()
    assert edited["ok"] and "\n..#\n" in edited["text"]
    again = client.post("/api/view", json={"text": edited["text"], "path": "corner.toml"}).get_json()
    assert again["verdict"]["status"] == "failed"  # the claims no longer hold: two lights more to darken
    assert again["verdict"]["record"]["presses"] == twisty.check(edited["text"]).to_json()["presses"]
