"""`twisty serve [DIR] [--port P]`: the sandbox page on this machine. Parse, start the server, print where."""

from __future__ import annotations

import logging
from pathlib import Path

import click

from twisty.commands.common import SECONDS
from twisty.errors import UsageError

LOOPBACK = "127.0.0.1"


@click.command()
@click.argument("folder", metavar="DIR", default=".", type=click.Path(file_okay=False))
@click.option(
    "--port",
    type=click.IntRange(0, 65535),
    default=8022,
    show_default=True,
    help="The port to listen on (0: any free port, printed at start).",
)
@click.option(
    "--host",
    default=None,
    metavar="HOST",
    help=f"Listen on this address instead of {LOOPBACK}. Anyone who can reach it can read and "
    "change the levels in DIR: give it only on a network you trust.",
)
@click.option(
    "--timeout",
    type=SECONDS,
    default=3.0,
    show_default=True,
    metavar="SECONDS",
    help="Seconds for each verdict the page asks for, its picture included; what is not decided by then "
    "shows as unknown.",
)
@click.option("--log", is_flag=True, help="Log every request on stderr.")
def serve(folder: str, port: int, host: str | None, timeout: float, log: bool) -> None:
    """A local web page for the levels in DIR: each level's verdict (the one `twisty check` gives, as a
    badge: ok, FAILED, unsolvable, unknown, invalid) and picture, and an editor (click a cell and pick its
    content, or edit the TOML beside it) whose verdict updates after every edit. Each level has its own
    address (/#level=PATH). Saving writes the TOML back, asking before it overwrites a file.

    Listens on 127.0.0.1 only (this machine) unless --host is given.
    """
    try:
        from werkzeug.serving import make_server
    except ImportError:
        raise UsageError(
            "twisty serve needs Flask, which is not installed: "
            "pip install 'twisty[serve]'   (or: pip install flask matplotlib)"
        ) from None
    from twisty.serve.app import create_app
    from twisty.serve.files import FolderError

    if not Path(folder).is_dir():
        raise UsageError(f"{folder}: not a folder of levels")
    bind = host or LOOPBACK
    try:
        server = make_server(bind, port, _Late(), threaded=True)
    except (OSError, SystemExit) as error:
        raise UsageError(
            f"cannot listen on {bind}:{port}: {getattr(error, 'strerror', None) or error} (--port 0 picks a free port)"
        ) from None
    actual = server.server_port
    allowed = None if host is not None else {f"{LOOPBACK}:{actual}", f"localhost:{actual}"}
    try:
        server.app = create_app(folder, timeout=timeout, allowed_hosts=allowed)
    except FolderError as error:
        raise UsageError(str(error)) from None
    if not log:
        logging.getLogger("werkzeug").setLevel(logging.WARNING)
    shown = f"[{bind}]" if ":" in bind else bind
    click.echo(f"twisty serve: {Path(folder).resolve()} at http://{shown}:{actual}/", nl=True)
    if host is None:
        click.echo(f"listening on {LOOPBACK} only: this machine alone can connect (--host HOST to change)")
    else:
        click.echo(f"listening on {bind} as asked by --host: anyone who can reach it can read and change these levels")
    click.echo(f"each verdict within {timeout:g} s; Ctrl-C stops the server", nl=True)
    try:
        server.serve_forever()
    finally:
        server.server_close()


class _Late:
    """Stands in for the application until the port is known (the allowed Host names carry the port)."""

    def __call__(self, environ, start_response):  # pragma: no cover - replaced before serving
        start_response("503 Service Unavailable", [("Content-Type", "text/plain")])
        return [b"starting"]
