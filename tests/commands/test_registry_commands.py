"""`twisty generate` and `twisty bench` dispatch through the registry (twisty.games): every game's commands are
the ones its entry names, cli.py names no game, and a game added to the registry alone gets `twisty generate
GAME` and `twisty.generate(GAME)`."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import twisty
from twisty.cli import main
from twisty.games import GAMES, Engine, Game, Param, Question, resolve

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_every_command_the_registry_names_is_a_click_command_of_the_commands_layer():
    for game in GAMES.values():
        named = [(game.name, game.generate_command)] if game.generate_command else []
        for name, path in [*named, *game.bench_commands]:
            assert path.startswith("twisty.commands."), path
            command = resolve(path)
            assert isinstance(command, click.Command) and command.name == name, path


def test_the_groups_list_the_registrys_commands():
    generators = sorted(game.name for game in GAMES.values() if game.generator)
    benches = sorted(name for game in GAMES.values() for name, _ in game.bench_commands)
    assert generators == ["book", "passages", "temple", "tunnels"]
    assert benches == ["book", "generate", "passages", "temple", "tunnels"]
    listed = run("generate", "--help").output
    assert all(f"  {name} " in listed for name in generators)
    listed = run("bench", "--help").output
    assert all(f"  {name} " in listed for name in benches)
    assert run("generate", "chess").exit_code == 2


def test_cli_names_no_game():
    source = (ROOT / "twisty" / "cli.py").read_text(encoding="utf-8")
    strings = [node.value for node in ast.walk(ast.parse(source)) if isinstance(node, ast.Constant)]
    imported = [
        alias.name for node in ast.walk(ast.parse(source)) if isinstance(node, ast.ImportFrom) for alias in node.names
    ]
    for game in GAMES:
        assert not any(game in str(text).split() for text in strings if isinstance(text, str) and "\n" not in text)
    game_modules = {"generate_passages", "generate_book", "bench_passages", "temple"}
    assert not game_modules & set(imported)


TOY = Game(
    name="toy",
    title="Toy Palindromes",
    rulebook="none",
    questions=(Question("value", "the smallest palindrome of n digits"),),
    engines=(Engine("plain", "tests.commands.toy_game", frozenset({"value"}), "arithmetic"),),
    auto=("plain",),
    generator="tests.commands.toy_game:generate_from",
    generator_params=(Param("digits", "int", "digits of the palindrome"),),
)


@pytest.fixture
def toy_registered(monkeypatch):
    monkeypatch.setitem(GAMES, "toy", TOY)


def test_a_game_added_to_the_registry_alone_can_be_generated(toy_registered):
    result = run("generate", "toy", "--digits", "4")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output) == {"digits": 4, "value": 1001}
    assert "--digits" in run("generate", "toy", "--help").output
    assert twisty.generate("toy", digits=1).value == 1
    with pytest.raises(twisty.UsageError, match='takes no parameter "digit" \\(did you mean "digits"\\?\\)'):
        twisty.generate("toy", digit=2)
    bad = run("generate", "toy", "--digits", "12")
    assert bad.exit_code == 2 and "digits is 1 to 9, not 12" in bad.output
