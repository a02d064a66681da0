"""Pictures of levels, answers and odds, drawn with matplotlib: what every game's picture shares.

A game's renderer (named by its registry entry, `renderer = "twisty.render.pictures_<game>"`) is a module
with:

    questions(options: PictureOptions) -> tuple[str, ...] | None
        # the questions to ask the checker for the picture; None: the level alone is drawn, no verdict
    draw(level: Level, verdict: Any | None, options: PictureOptions) -> Picture

The renderers take what the public API hands back (twisty.load's Level, twisty.check's verdict) and draw
it; they never solve anything themselves. What `twisty render --answer` (or the game's own flag) draws is
named by the game's registry entry (`answer`), and so are the command's options for one game's pictures
(`render_options`, such as a book's --spread). `save_picture` writes SVG or PNG; in SVG every artist given a
tooltip gets a `<title>` child, which browsers show on hover (matplotlib has no tooltips of its own).

Colours: the Okabe-Ito palette, chosen to stay distinct for the common kinds of colour blindness, and
every colour that carries meaning comes with a second cue (a marker shape, a hatch or a text label), so a
picture printed in grey still reads.
"""

from __future__ import annotations

import functools
import io
import os
import re
import signal
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from xml.etree import ElementTree

from twisty.errors import LimitReached, UsageError
from twisty.limits import Deadline

if TYPE_CHECKING:
    from matplotlib.figure import Figure

PICTURES_EXTRA = "pip install 'twisty[pictures]'   (or: pip install matplotlib)"

# Okabe & Ito (2008), "Color Universal Design": distinct for protanopia, deuteranopia and tritanopia.
ORANGE, SKY_BLUE, GREEN, YELLOW, BLUE, VERMILLION, PURPLE, BLACK = (
    "#e69f00",
    "#56b4e9",
    "#009e73",
    "#f0e442",
    "#0072b2",
    "#d55e00",
    "#cc79a7",
    "#000000",
)
WALL_GREY = "#4d4d4d"
FLOOR = "#ffffff"
PALE = "#f2f2f2"
FORMATS = (".svg", ".png")

_SVG_NS = "http://www.w3.org/2000/svg"
_CONTROL = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f]")


@dataclass(frozen=True)
class PictureOptions:
    """What to draw: `answer` draws the route / walk / plan; `spread` picks a book's spread (None: the
    entrance's; ALL_SPREADS: every spread, one under the other). `deadline`: the command's one deadline,
    which the work of drawing (a route's walk between steps) shares; what it cuts short is drawn as
    such and said in the picture's notes."""

    answer: bool = False
    spread: int | None = None
    deadline: Deadline | None = None
    # The values of a game's own `twisty render` options that are not fields above (registry: render_options).
    params: Mapping[str, Any] = field(default_factory=dict)


# PictureOptions.spread for a whole book.
ALL_SPREADS = -1


@dataclass
class Picture:
    """A drawn figure, the tooltip of each artist that has one (by the artist's gid), and notes on what
    the picture leaves out (work cut short by the deadline, labels without room), for the command to say."""

    figure: Figure
    tooltips: dict[str, str] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    # What the deadline cut short in the drawing (the walk between some steps): the command exits 1.
    cut: str = ""

    def tip(self, artist: Any, gid: str, text: str) -> Any:
        """Give `artist` the id `gid` in SVG and the tooltip `text`; returns the artist."""
        artist.set_gid(gid)
        self.tooltips[gid] = text
        return artist


def require_matplotlib() -> None:
    """A UsageError (exit 2) naming the pip command when the pictures extra is not installed."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        raise UsageError(f"pictures need matplotlib, which is not installed: {PICTURES_EXTRA}") from None


def plain_text(draw: Callable[..., Picture]) -> Callable[..., Picture]:
    """Draw with every text taken literally (a level's name may hold "$", which matplotlib would otherwise
    read as the start of a formula, and fail on) and quietly (see `quietly`)."""

    @functools.wraps(draw)
    def drawing(*args: Any, **kwargs: Any) -> Picture:
        require_matplotlib()
        import matplotlib

        with quietly(), matplotlib.rc_context({"text.parse_math": False, "text.usetex": False}):
            return draw(*args, **kwargs)

    return drawing


@contextmanager
def quietly() -> Iterator[None]:
    """matplotlib's warnings silenced while a picture is drawn and written: they are about fonts lacking a
    character of a level's name and the like, nothing a designer can act on, and a server's log or a
    command's stderr is no place for them. Control characters are taken out of the texts before (they
    have no glyph in any font; see `printable`)."""
    import logging
    import warnings

    logger = logging.getLogger("matplotlib")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings("ignore", module=r"matplotlib(\..*)?$")
            warnings.filterwarnings("ignore", message=r"Glyph \d+ .*missing from")
            yield
    finally:
        logger.setLevel(level)


_CONTROL_TEXT = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str) -> str:
    """A level's text (a name, a description) without the control characters no font can draw (a TOML
    string may hold them as escapes); newlines and tabs stay."""
    return _CONTROL_TEXT.sub("", text)


def new_figure(width: float, height: float) -> Figure:
    """A figure that belongs to no pyplot state (so that a server may draw in several threads at once)."""
    require_matplotlib()
    from matplotlib.figure import Figure

    return Figure(figsize=(width, height), dpi=100, layout="constrained")


def _rendered(picture: Picture, suffix: str) -> bytes:
    buffer = io.BytesIO()
    with quietly():
        _save(picture, suffix, buffer)
    return buffer.getvalue()


def _save(picture: Picture, suffix: str, buffer: io.BytesIO) -> None:
    import matplotlib

    # Text stays text in SVG (searchable, smaller); a fixed hash salt and no date make the same picture
    # the same bytes, so pictures kept in the repository change only when what they show changes.
    with matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "twisty"}):
        if suffix == ".svg":
            picture.figure.savefig(buffer, format="svg", metadata={"Date": None})
        else:
            picture.figure.savefig(buffer, format="png", metadata={"Software": None}, dpi=110)


def picture_svg(picture: Picture) -> str:
    """The picture as SVG text, each tooltip a `<title>` first child of its artist's group."""
    ElementTree.register_namespace("", _SVG_NS)
    ElementTree.register_namespace("xlink", "http://www.w3.org/1999/xlink")
    # Characters XML cannot hold (a level's text may carry them as TOML escapes) are dropped.
    root = ElementTree.fromstring(_CONTROL.sub(b"", _rendered(picture, ".svg")))
    if picture.tooltips:
        for group in root.iter(f"{{{_SVG_NS}}}g"):
            text = picture.tooltips.get(group.get("id", ""))
            if text is not None:
                title = ElementTree.Element(f"{{{_SVG_NS}}}title")
                title.text = text
                group.insert(0, title)
    return ElementTree.tostring(root, encoding="unicode")


def picture_bytes(picture: Picture, suffix: str) -> bytes:
    if suffix == ".svg":
        return picture_svg(picture).encode("utf-8")
    return _rendered(picture, suffix)


def output_suffix(path: str | Path) -> str:
    """The picture format a file name asks for (.svg or .png), or a UsageError."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise UsageError(f"{path}: pictures are written as .svg or .png, not {suffix or 'a name without suffix'}")
    return suffix


def save_picture(picture: Picture, path: str | Path) -> int:
    """Write the picture as SVG or PNG (by the suffix); the number of bytes written."""
    data = picture_bytes(picture, output_suffix(path))
    write_picture_bytes(data, path)
    return len(data)


def write_picture_bytes(data: bytes, path: str | Path) -> None:
    """Write a picture's bytes through a temporary file in the same folder, so that a reader never sees
    half a picture."""
    target = Path(path)
    folder = target.parent if str(target.parent) else Path(".")
    try:
        handle, temporary = tempfile.mkstemp(prefix=".twisty-", suffix=target.suffix, dir=folder)
    except OSError as error:
        raise UsageError(f"{path}: cannot write there: {error.strerror or error}") from None
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, 0o644)  # mkstemp makes the file private; a picture is for reading
        os.replace(temporary, target)
    except OSError as error:
        Path(temporary).unlink(missing_ok=True)
        raise UsageError(f"{path}: cannot write there: {error.strerror or error}") from None


# Seconds a drawing may run past the command's deadline before it is stopped (the picture then is not
# written): matplotlib's drawing cannot poll a deadline itself.
DRAWING_GRACE = 0.4


@contextmanager
def drawing_within(deadline: Deadline | None) -> Iterator[None]:
    """Stop the work inside when `deadline` plus DRAWING_GRACE has passed: LimitReached is raised in it
    (by a timer signal, in the main thread of a command; elsewhere, such as a server's worker, the caller
    bounds the work and this does nothing)."""
    left = None if deadline is None else deadline.remaining()
    if left is None or threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def stop(_signal: int, _frame: Any) -> None:
        # Raised from wherever the drawing is; if that is a place that swallows exceptions (a weakref
        # callback, a __del__), the timer strikes again shortly until the drawing stops.
        signal.setitimer(signal.ITIMER_REAL, 0.05)
        raise LimitReached("time limit")

    def unraisable(hook: Any) -> None:  # a strike swallowed where it landed is no news for stderr
        if not isinstance(hook.exc_value, LimitReached):
            earlier_hook(hook)

    previous = signal.signal(signal.SIGALRM, stop)
    earlier_hook = sys.unraisablehook
    sys.unraisablehook = unraisable
    signal.setitimer(signal.ITIMER_REAL, left + DRAWING_GRACE)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
        sys.unraisablehook = earlier_hook


def short_fraction(text: str, limit: int = 28) -> str:
    """An exact fraction "p/q" as printed, or its leading digits and sizes when it is too long to read."""
    if len(text) <= limit:
        return text
    numerator, _, denominator = text.partition("/")
    return f"{numerator[:6]}…/{denominator[:6]}… ({len(numerator)}/{len(denominator)} digits; exact in --json)"


def safe_id(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_-]", "-", text)
