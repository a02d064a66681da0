"""What the batch commands (check, generate, bench) share to run here or on a Dask cluster: the options
--scheduler and --workers, and the progress they show on stderr.

The work itself goes through twisty.batch.map_tasks, whichever of the three places it runs.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any

import click

from twisty.batch import INSTALL_HINT, Cluster, Progress, Where

MAX_LOCAL_WORKERS = 256
# Off a terminal, a cluster run says how far it is at most this often (and when it ends).
LOG_EVERY_SECONDS = 10.0


def cluster_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """--scheduler ADDRESS and --workers N (the command turns them into a twisty.batch.Where with where())."""

    command = click.option(
        "--workers",
        type=click.IntRange(1, MAX_LOCAL_WORKERS),
        default=None,
        metavar="N",
        help="Start a local Dask cluster of N worker processes for this run (the output does not depend on "
        f"it). Needs Dask: {INSTALL_HINT}.",
    )(command)
    command = click.option(
        "--scheduler",
        default=None,
        metavar="ADDRESS",
        help="Run on the Dask scheduler at ADDRESS (tcp://host:8786), its workers doing the work; they need "
        "the same twisty, not the files (docs/cluster.md). Needs Dask: " + INSTALL_HINT + ".",
    )(command)
    return command


def where(scheduler: str | None, workers: int | None) -> Where:
    """Where the options say to run (both at once is a usage error)."""
    if scheduler is not None and not scheduler.strip():
        raise click.BadParameter("an address such as tcp://127.0.0.1:8786", param_hint="'--scheduler'")
    return Where(scheduler=scheduler, workers=workers)


def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


class BatchProgress(Progress):
    """The progress of a batch on stderr, and its output lines on stdout.

    On a terminal, one status line (done and failed counts, or the phase of the level at work in a local
    run) that the output lines are printed above. Off a terminal, a cluster run says where it runs, how
    far it is now and then, and how it ended; a local run says nothing there. The dashboard's address is
    printed when the cluster has one."""

    def __init__(self, noun: str, total: int | None, label: Callable[[int], str] | None = None) -> None:
        self.noun = noun
        self.total = total
        self.label = label
        self.terminal = sys.stderr.isatty()
        self.on_cluster = False
        self.done = self.failed = 0
        self.current: int | None = None
        self.shown = ""
        self.logged_at = time.monotonic()

    # Progress -------------------------------------------------------------------------------------------

    def connected(self, cluster: Cluster) -> None:
        self.on_cluster = True
        place = (
            f"a local Dask cluster started for this run ({cluster.scheduler})"
            if cluster.started_here
            else f"the Dask scheduler {cluster.scheduler}"
        )
        workers = f"{plural(cluster.workers, 'worker')}, {plural(cluster.threads, 'thread')}"
        if not cluster.workers:
            workers = "no workers yet: the tasks wait for one"
        dashboard = f"; dashboard {cluster.dashboard}" if cluster.dashboard else ""
        self._say(f"twisty: running on {place}: {workers}{dashboard}")

    def starting(self, index: int) -> None:
        self.current = index
        self._draw(self._counts())

    def advanced(self, done: int, failed: int, total: int | None) -> None:
        self.done, self.failed = done, failed
        self.current = None
        if self.terminal:
            self._draw(self._counts())
        elif self.on_cluster and time.monotonic() - self.logged_at >= LOG_EVERY_SECONDS:
            self.logged_at = time.monotonic()
            click.echo(f"twisty: {self._counts()}", err=True)

    # For the command ------------------------------------------------------------------------------------

    def phase(self, text: str) -> None:
        """The phase of the level at work in this process (a question that can take minutes)."""
        if self.current is not None and self.label is not None:
            self._draw(f"{self.label(self.current)}: {text}...")

    def echo(self, line: str, *, err: bool = False, nl: bool = True) -> None:
        """An output line, printed above the status line."""
        shown = self.shown
        self._draw("")
        click.echo(line, err=err, nl=nl)
        self._draw(shown)

    def finish(self) -> None:
        """Clear the status line; a cluster run off a terminal says how it ended."""
        self._draw("")
        if self.on_cluster and not self.terminal:
            click.echo(f"twisty: {self._counts()}", err=True)

    def _counts(self) -> str:
        total = f"/{self.total}" if self.total is not None else ""
        return f"{self.done}{total} {self.noun} done, {self.failed} failed"

    def _say(self, line: str) -> None:
        shown = self.shown
        self._draw("")
        click.echo(line, err=True)
        self._draw(shown)

    def _draw(self, text: str) -> None:
        if not self.terminal or text == self.shown:
            return
        click.echo(f"\r\033[K{text}", nl=False, err=True)
        self.shown = text
