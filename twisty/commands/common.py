"""What every command shares: exit codes, option types, the engine options, messages on stderr.

Exit codes (documented in `twisty --help` and the README):
    0  every level valid, as expected, and solvable unless it says otherwise
    1  some level fails an [expect] claim, is unsolvable without claiming so, or is undecided
    2  bad input or usage (one message naming the file, line and column where there are any)
    3  an internal error: an engine reported something the rules refute (please report it)
    130 interrupted (Ctrl-C); lines printed before stay valid
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Callable
from typing import Any, NoReturn

import click

from twisty.checking import seconds_or_none
from twisty.errors import EngineBug, GenerationError, LevelError, LimitReached, TwistyError, UsageError
from twisty.limits import Deadline

EXIT_OK, EXIT_FAILED, EXIT_INVALID, EXIT_BUG, EXIT_INTERRUPTED = 0, 1, 2, 3, 130

EXIT_CODES_HELP = (
    "Exit codes: 0 all levels as expected; 1 a level fails its [expect], is unsolvable "
    "(unless it claims so) or undecided; 2 bad input or usage; 3 internal error; 130 "
    "interrupted."
)


class Seconds(click.ParamType):
    """A positive, finite number of seconds, at most MAX_TIMEOUT (nan, inf, 0 and negatives refused)."""

    name = "seconds"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        try:
            seconds = seconds_or_none(value, "")
        except UsageError as error:  # the API's message for the same value, without the parameter's name
            self.fail(str(error), param, ctx)
        assert seconds is not None
        return seconds


SECONDS = Seconds()


def out_of_time(deadline: Deadline, doing: str) -> NoReturn:
    """The deadline passed while `doing` ("importing", "exporting") and nothing was written: one line, exit 1."""
    if deadline.cap == "time":
        message = f"{deadline.cap} limit reached while {doing} (--timeout {deadline.seconds:g} s); nothing written"
    else:
        message = f"memory limit reached while {doing}; nothing written"
    click.echo(f"twisty: unknown: {message}", err=True)
    sys.exit(EXIT_FAILED)


def timeout_option(help_text: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return click.option("--timeout", type=SECONDS, default=None, metavar="SECONDS", help=help_text)


def exit_code_for(error: TwistyError) -> int:
    """The one place where an error becomes an exit code."""
    if isinstance(error, (LevelError, UsageError)):
        return EXIT_INVALID
    if isinstance(error, EngineBug):
        return EXIT_BUG
    if isinstance(error, (GenerationError, LimitReached)):
        return EXIT_FAILED
    return EXIT_BUG


def message_for(error: TwistyError) -> str:
    if isinstance(error, EngineBug):
        return f"twisty: internal error, please report it: {error}"
    if isinstance(error, LimitReached):
        return f"twisty: unknown: {error}"
    return f"twisty: {error}"


def fail(error: TwistyError) -> NoReturn:
    """One message on stderr and the error's exit code; never a traceback."""
    click.echo(message_for(error), err=True)
    sys.exit(exit_code_for(error))


def fail_invalid(error: LevelError) -> NoReturn:
    fail(error)


def _exit_now(code: int) -> NoReturn:
    """Exit at once. A solver's own thread (CP-SAT's search, say) may take seconds to notice a stop, and
    Python waits for such threads at exit: with any still running, what was printed is flushed and the
    process ends without waiting for them."""
    if threading.active_count() > 1:
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(code)
    sys.exit(code)


def _leave_process(code: object) -> NoReturn:
    """End the process with `code` as sys.exit would, without tearing the heap down first. A search stopped
    by its deadline may hold gigabytes of states, and freeing them one object at a time at interpreter exit
    costs about 0.3 s of CPU per 700 MB after the time limit has passed; every file twisty writes is closed
    before its command returns, so only the standard streams need flushing."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    if code is None:
        os._exit(EXIT_OK)
    if isinstance(code, int):
        os._exit(code)
    sys.stderr.write(f"{code}\n")  # sys.exit("message") prints the message and exits 1
    sys.stderr.flush()
    os._exit(EXIT_FAILED)


class TwistyGroup(click.Group):
    """A click group that maps errors to exit codes in one place: twisty's errors by exit_code_for, click's
    usage errors to 2, and Ctrl-C to 130 with a one-line message (click alone would print "Aborted!"
    and exit 1)."""

    def __call__(self, *args: Any, **extra: Any) -> Any:
        """The process's own entry (the `twisty` script): the command runs as under main(), then the process
        ends at once (_leave_process). Tests call main() instead and keep their interpreter."""
        try:
            return self.main(*args, **extra)
        except SystemExit as done:
            _leave_process(done.code)

    def main(
        self,
        args: Any = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            result = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except click.ClickException as error:
            error.show()
            sys.exit(EXIT_INVALID if isinstance(error, click.UsageError) else error.exit_code)
        except (click.Abort, KeyboardInterrupt) as error:
            if isinstance(error, KeyboardInterrupt) or isinstance(error.__cause__, KeyboardInterrupt):
                click.echo("twisty: interrupted", err=True)
                _exit_now(EXIT_INTERRUPTED)
            click.echo("twisty: aborted", err=True)
            sys.exit(EXIT_FAILED)
        except TwistyError as error:
            fail(error)
        except Exception as error:  # a fault of ours: one line, unless TWISTY_DEBUG asks for the trace
            if os.environ.get("TWISTY_DEBUG"):
                raise
            click.echo(
                f"twisty: internal error, please report it: {type(error).__name__}: {error} "
                "(set TWISTY_DEBUG=1 for the traceback)",
                err=True,
            )
            sys.exit(EXIT_BUG)
        sys.exit(result if isinstance(result, int) else EXIT_OK)
