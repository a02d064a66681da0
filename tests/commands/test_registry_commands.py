"""`twisty generate` and `twisty bench` dispatch through the registry (twisty.games): every game's commands are
the ones its entry names, cli.py names no game, and a game added to the registry alone gets `twisty generate
GAME` and `twisty.generate(GAME)` (tests/commands/test_toy_game.py: every command on such a game)."""

from __future__ import annotations

import ast
from pathlib import Path

import click
from click.testing import CliRunner

from twisty.cli import main
from twisty.games import GAMES, resolve

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
