"""Pictures that fit (issue 35): for the largest shipped level of each game, drawn with and without its
answer (and a whole book), the key and every text lie inside the figure, the key holds one entry per symbol
of the level (none lost), no two labels that Labels placed overlap, and `twisty render` prints nothing on
stderr (no matplotlib warnings). Bounding boxes are measured with matplotlib's own renderer."""

from __future__ import annotations

import itertools
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("matplotlib", reason="pictures need matplotlib: pip install 'twisty[pictures]'")

from matplotlib.text import Text  # noqa: E402

import twisty
from twisty.games import GAMES, resolve
from twisty.render.layout import figure_renderer
from twisty.render.pictures import ALL_SPREADS, PictureOptions, picture_bytes

ROOT = Path(__file__).resolve().parents[2]
# One pixel of rounding at the figure's edge.
TOLERANCE = 1.0


def size_of(level: twisty.Level) -> tuple[int, ...]:
    """How large a level is, to pick each game's largest: cells then objects (passages), cells (books),
    rooms then cards in hand (temple rounds)."""
    model = level.model
    if level.game == "passages":
        return (model.height * model.width, len(model.things))
    if level.game == "book":
        return (len(model.shape.pages) * model.shape.page_size,)
    return (model.temple.room_count, sum(len(hand) for hand in model.hands))


def largest(game: str) -> Path:
    files = sorted((ROOT / "puzzles" / game).rglob("*.toml"))
    return max(files, key=lambda path: (size_of(twisty.load(path)), str(path)))


CASES = [
    ("passages", True, None),
    ("passages", False, None),
    ("book", True, None),
    ("book", True, ALL_SPREADS),
    ("temple", True, None),
    ("temple", False, None),  # the round without --plan: its key was cut off
]


def drawn_texts(figure) -> list[Text]:
    """Every text the figure draws: its own (the title), the key's, and each panel's texts and titles
    (not the tick labels of panels whose axes are off: they are never drawn)."""
    texts = list(figure.texts)
    for legend in figure.legends:
        texts += legend.get_texts()
    for axes in figure.axes:
        texts += axes.texts + [axes.title, axes._left_title, axes._right_title]
    return [text for text in texts if text.get_visible() and text.get_text().strip()]


def extent(text, renderer):
    """A text's box on the canvas, its rounded or circled frame included."""
    box = text.get_window_extent(renderer)
    patch = text.get_bbox_patch()
    if patch is not None:
        box = type(box).union([box, patch.get_window_extent(renderer)])
    return box


@pytest.fixture(scope="module")
def drawn():
    """The pictures of the CASES, drawn once: (level, picture) by case."""
    found = {}
    for game, answer, spread in CASES:
        path = largest(game)
        level = twisty.load(path)
        renderer = resolve(GAMES[game].renderer)
        questions = renderer.questions(PictureOptions(answer=answer))
        verdict = twisty.check(level, questions=questions, timeout=120) if questions else None
        picture = renderer.draw(level, verdict, PictureOptions(answer=answer, spread=spread))
        picture_bytes(picture, ".svg")  # as writing it does
        # Drawn again at the figure's own dpi, the one the boxes are measured at (SVG draws at 72 dpi, and
        # a text's frame keeps the place of the last drawing).
        picture.figure.draw_without_rendering()
        found[(game, answer, spread)] = (level, picture)
    return found


@pytest.mark.parametrize("case", CASES, ids=[f"{g}-{'answer' if a else 'plain'}-{s}" for g, a, s in CASES])
def test_the_key_and_every_text_lie_inside_the_figure(drawn, case) -> None:
    level, picture = drawn[case]
    figure = picture.figure
    renderer = figure_renderer(figure)
    inside = figure.bbox
    texts = drawn_texts(figure)
    assert len(texts) > 10
    for text in texts:
        box = extent(text, renderer)
        assert box.x0 >= inside.x0 - TOLERANCE and box.x1 <= inside.x1 + TOLERANCE, text.get_text()
        assert box.y0 >= inside.y0 - TOLERANCE and box.y1 <= inside.y1 + TOLERANCE, text.get_text()
    legends = figure.legends
    assert len(legends) == 1
    box = legends[0].get_window_extent(renderer)
    assert inside.x0 - TOLERANCE <= box.x0 and box.x1 <= inside.x1 + TOLERANCE
    assert inside.y0 - TOLERANCE <= box.y0 and box.y1 <= inside.y1 + TOLERANCE


def test_the_key_of_the_largest_map_holds_every_symbol(drawn) -> None:
    """The 68-blocker levels lost dozens of entries; now one entry per symbol on the map, each inside."""
    level, picture = drawn[("passages", True, None)]
    entries = [text.get_text() for text in picture.figure.legends[0].get_texts()]
    symbols = {thing.symbol for thing in level.model.things}
    assert len(symbols) > 30
    for symbol in symbols:
        assert any(entry.startswith(f"{symbol} ") for entry in entries), symbol


@pytest.mark.parametrize("case", [("passages", True, None), ("book", True, ALL_SPREADS)], ids=["route", "walk"])
def test_no_two_labels_overlap(drawn, case) -> None:
    """Step numbers, damages and hp (passages), the walk's step numbers (books): placed by Labels, each
    box (its frame included) clear of every other."""
    _, picture = drawn[case]
    renderer = figure_renderer(picture.figure)
    labels = [
        text
        for text in drawn_texts(picture.figure)
        if (text.get_gid() or "").startswith(("label-", "step-")) and text.get_text()
    ]
    assert len(labels) > 20
    boxes = [extent(text, renderer) for text in labels]
    for (first, a), (second, b) in itertools.combinations(zip(labels, boxes, strict=True), 2):
        overlap_w = min(a.x1, b.x1) - max(a.x0, b.x0)
        overlap_h = min(a.y1, b.y1) - max(a.y0, b.y0)
        assert overlap_w <= 0.5 or overlap_h <= 0.5, (first.get_text(), second.get_text())
    if case[0] == "passages":
        steps = [text for text in labels if (text.get_gid() or "").startswith("step-")]
        route = drawn[case][0]
        assert len(steps) == len(twisty.check(route, questions=["route"], timeout=120).route.steps)


@pytest.mark.parametrize(
    "game, flag", [("passages", "--route"), ("book", "--walk"), ("temple", "--plan"), ("temple", None)]
)
def test_rendering_prints_nothing_on_stderr(tmp_path: Path, game: str, flag: str | None) -> None:
    output = tmp_path / f"{game}.png"
    command = [sys.executable, "-m", "twisty.cli", "render", str(largest(game)), "-o", str(output)]
    result = subprocess.run(
        command + ([flag] if flag else []), capture_output=True, text=True, timeout=300, cwd=ROOT, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert output.stat().st_size > 10_000
