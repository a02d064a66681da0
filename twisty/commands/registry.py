"""`twisty generate GAME` and `twisty bench NAME`: groups whose commands the registry names (twisty.games), so
that a game is named in one place and its commands are imported only when asked for.

A game with a generator but no command of its own gets one made from the registry alone: its
`generator_params` become options, and each level is made by twisty.generate, verified, and written as the
other generators write (twisty.commands.writing).
"""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from typing import Any

import click

from twisty.commands.common import EXIT_FAILED, EXIT_OK, timeout_option
from twisty.commands.writing import (
    batch_output_options,
    file_mode,
    prepare_output,
    require_folder_for_several,
    write_atomically,
)
from twisty.errors import GenerationError
from twisty.games import GAMES, Game, resolve


class RegistryGroup(click.Group):
    """A group whose commands come from the registry: `entries()` maps each command's name to the dotted
    path of its click command, or to a function of no arguments that makes it."""

    def __init__(self, *args: Any, entries: Callable[[], dict[str, str | Callable[[], click.Command]]], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.entries = entries

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(self.entries()) | set(self.commands))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.commands:
            return self.commands[cmd_name]
        target = self.entries().get(cmd_name)
        if target is None:
            return None
        command = resolve(target) if isinstance(target, str) else target()
        assert isinstance(command, click.Command), f"{target} is not a click command"
        return command


class RegistryHelpOption(click.Option):
    """An option whose help is made when it is shown (`help_of()`), from the registry as it is then: the
    questions and engines of every game, a game added to the registry included."""

    def __init__(self, *args: Any, help_of: Callable[[], str], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.help_of = help_of

    def get_help_record(self, ctx: click.Context) -> tuple[str, str] | None:
        self.help = self.help_of()
        return super().get_help_record(ctx)


class RegistryOptionsCommand(click.Command):
    """A command with options that the registry names (`registry_options()` makes them, each time the
    command line is read, so that a game added to the registry adds its options): they come after the
    command's own options, before --help, and reach the callback as keyword arguments."""

    def __init__(self, *args: Any, registry_options: Callable[[], list[click.Parameter]], **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.registry_options = registry_options

    def get_params(self, ctx: click.Context) -> list[click.Parameter]:
        help_option = self.get_help_option(ctx)
        own = [param for param in super().get_params(ctx) if param is not help_option]
        taken = {opt for param in own for opt in param.opts}
        extra = [param for param in self.registry_options() if not taken & set(param.opts)]
        return [*own, *extra, *([help_option] if help_option is not None else [])]


def game_command_entries() -> dict[str, str | Callable[[], click.Command]]:
    """`twisty NAME` for each command of one game alone (`explain`, `odds`)."""
    return {name: path for game in GAMES.values() for name, path in game.commands}


def generate_entries() -> dict[str, str | Callable[[], click.Command]]:
    """`twisty generate GAME` for every game with a generator: its own command, or one made for it."""
    entries: dict[str, str | Callable[[], click.Command]] = {}
    for game in GAMES.values():
        if game.generate_command is not None:
            entries[game.name] = game.generate_command
        elif game.generator is not None:
            entries[game.name] = functools.partial(generic_generate_command, game)
    return entries


def bench_entries() -> dict[str, str | Callable[[], click.Command]]:
    """`twisty bench NAME` for every bench command a game declares."""
    return {name: path for game in GAMES.values() for name, path in game.bench_commands}


_PARAM_TYPES: dict[str, Any] = {"int": int, "float": float}


def generic_generate_command(game: Game) -> click.Command:
    """A `twisty generate GAME` made from the registry: an option per generator parameter, and --seed, -n,
    -o, --force, --engine, --timeout and --json as every generator takes them."""

    def run(
        seed: int,
        count: int,
        out_dir: str | None,
        force: bool,
        engine: str,
        timeout: float | None,
        as_json: bool,
        **params: Any,
    ) -> None:
        from twisty.api import generate

        chosen = {name.replace("-", "_"): value for name, value in params.items() if value is not None}
        require_folder_for_several(count, out_dir)
        seeds = [seed + offset for offset in range(count)]
        names = [f"{game.name}-seed{number}.toml" for number in seeds]
        output = None if out_dir is None else prepare_output(out_dir, names, force)
        failures = 0
        for number, name in zip(seeds, names, strict=True):
            made: Any
            try:
                made = generate(game.name, seed=number, timeout=timeout, engine=engine, **chosen)
            except GenerationError as error:
                failures += 1
                click.echo(f"twisty: seed {number}: {error}", err=True)
                continue
            if game.loader is None or not hasattr(made, "source"):
                click.echo(json.dumps(made.to_json(), sort_keys=True))  # an answer that is not a level file
                continue
            text = made.source.text
            if output is None:
                click.echo(
                    json.dumps({"seed": number, "verdict": made.answer.to_json()}) if as_json else text, nl=as_json
                )
                continue
            path = output.path(name)
            try:
                write_atomically(path, text, replace=force, mode=file_mode())
            except OSError as error:
                click.echo(f"twisty: cannot write {path}: {error.strerror or error}", err=True)
                sys.exit(EXIT_FAILED)
            if as_json:
                click.echo(json.dumps({"seed": number, "file": str(path), "verdict": made.answer.to_json()}))
            else:
                click.echo(f"{path}: {made.answer.summary()}")
        sys.exit(EXIT_FAILED if failures else EXIT_OK)

    decorated: Any = run
    for param in reversed(game.generator_params):
        decorated = click.option(
            f"--{param.name.replace('_', '-')}",
            type=_PARAM_TYPES.get(param.kind, str),
            default=None,
            help=param.summary,
        )(decorated)
    decorated = click.option("--json", "as_json", is_flag=True, help="One JSON object per level.")(decorated)
    decorated = timeout_option("Seconds allowed per level (making and verifying); a seed that runs out fails.")(
        decorated
    )
    decorated = click.option(
        "--engine",
        type=click.Choice(("auto", *game.engine_names())),
        default="auto",
        show_default=True,
        help="Engine that verifies every level before it is written.",
    )(decorated)
    decorated = batch_output_options("level")(decorated)
    help_text = f"Generate {game.title} levels, each verified before it is written (parameters from the registry)."
    return click.command(game.name, help=help_text)(decorated)
