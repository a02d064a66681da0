"""The `twisty` command line: the command groups, every command that is not a game's registered here, and
each game's own commands (explain, odds, ...) from the registry.

Commands live in twisty.commands (one module per command or group); they parse, call the library and
print. `twisty generate GAME` and `twisty bench NAME` are the registry's (twisty.games): this file names no
game. Errors become exit codes in one place (twisty.commands.common.TwistyGroup).
"""

from __future__ import annotations

import os
import signal
import sys


def _interrupted_while_starting(signum: int, frame: object) -> None:
    """Ctrl-C while the modules below are still being imported (a second or more on a loaded machine): the
    same one line and exit code as an interrupt later on, not a traceback from the middle of an import."""
    sys.stderr.write("twisty: interrupted\n")
    os._exit(130)


signal.signal(signal.SIGINT, _interrupted_while_starting)

import click  # noqa: E402  (imported after the handler above, on purpose)

from twisty import __version__  # noqa: E402
from twisty.commands import check, render, serve  # noqa: E402
from twisty.commands.common import EXIT_CODES_HELP, TwistyGroup  # noqa: E402
from twisty.commands.registry import (  # noqa: E402
    RegistryGroup,
    bench_entries,
    game_command_entries,
    generate_entries,
)


class MainGroup(TwistyGroup, RegistryGroup):
    """The `twisty` group: its errors mapped to exit codes (TwistyGroup), and beside the commands registered
    below, each game's own commands from the registry (RegistryGroup)."""


# From here on Ctrl-C raises KeyboardInterrupt, which TwistyGroup turns into the same line and exit 130.
signal.signal(signal.SIGINT, signal.default_int_handler)


@click.group(
    cls=MainGroup,
    entries=game_command_entries,
    context_settings={"help_option_names": ["-h", "--help"]},
    epilog=EXIT_CODES_HELP,
)
@click.version_option(__version__, prog_name="twisty")
def main() -> None:
    """Verify, solve and generate dungeon puzzle levels with constraint solvers.

    Levels are TOML files; the `game` key picks the rules (passages, book, temple). Every level is read within
    input limits and checked within one --timeout covering all its work.
    """


@main.group(cls=RegistryGroup, entries=generate_entries)
def generate() -> None:
    """Generate new levels (each one verified before it is written)."""


@main.group(cls=RegistryGroup, entries=bench_entries)
def bench() -> None:
    """Run the benchmark suites: engines against baselines, as tables or JSON."""


main.add_command(check.check)
main.add_command(check.solve)
main.add_command(render.render)
main.add_command(serve.serve)

if __name__ == "__main__":
    main()
