"""The `twisty` command line: the command groups, and every command registered here, explicitly.

Commands live in twisty.commands (one module per command or group); they parse, call the library and
print. Errors become exit codes in one place (twisty.commands.common.TwistyGroup).
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
from twisty.commands import (  # noqa: E402
    bench_passages,
    book,
    check,
    complete,
    generate_book,
    generate_passages,
    importing,
    odds,
    render,
    serve,
    temple,
)
from twisty.commands.common import EXIT_CODES_HELP, TwistyGroup  # noqa: E402

# From here on Ctrl-C raises KeyboardInterrupt, which TwistyGroup turns into the same line and exit 130.
signal.signal(signal.SIGINT, signal.default_int_handler)


@click.group(cls=TwistyGroup, context_settings={"help_option_names": ["-h", "--help"]}, epilog=EXIT_CODES_HELP)
@click.version_option(__version__, prog_name="twisty")
def main() -> None:
    """Verify, solve and generate dungeon puzzle levels with constraint solvers.

    Levels are TOML files; the `game` key picks the rules (passages, book, temple). Every level is read within
    input limits and checked within one --timeout covering all its work.
    """


@main.group()
def generate() -> None:
    """Generate new levels (each one verified before it is written)."""


@main.group()
def bench() -> None:
    """Run the benchmark suites: engines against baselines, as tables or JSON."""


main.add_command(check.check)
main.add_command(check.solve)
main.add_command(book.explain)
main.add_command(complete.complete)
main.add_command(odds.odds)
main.add_command(render.render)
main.add_command(serve.serve)
main.add_command(importing.import_group)
generate.add_command(generate_passages.generate_passages)
generate.add_command(generate_book.generate_book_command)
generate.add_command(odds.generate_tunnels)
generate.add_command(temple.generate_temple)
bench.add_command(bench_passages.bench_passages)
bench.add_command(bench_passages.bench_generate)
bench.add_command(book.bench_book)
bench.add_command(odds.bench_tunnels)
bench.add_command(temple.bench_temple)

if __name__ == "__main__":
    main()
