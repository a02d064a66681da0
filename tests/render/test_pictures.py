"""Pictures (`twisty render`, `twisty odds --plot`): structure, not pixels. Element counts are derived
from the level files, colours of known cells from the rules (the tutorial book's own [expect] lists which
cells are deadly, passable or impassable), damages by hand."""

from __future__ import annotations

import io
import sys
from fractions import Fraction
from pathlib import Path
from xml.etree import ElementTree

import pytest
from click.testing import CliRunner

pytest.importorskip("matplotlib", reason="pictures need matplotlib: pip install 'twisty[pictures]'")

import twisty
from twisty.cli import main
from twisty.errors import UsageError
from twisty.render import pictures_book, pictures_passages, pictures_tunnels
from twisty.render.pictures import PictureOptions, picture_bytes, picture_svg

ROOT = Path(__file__).resolve().parents[2]
FIRST_STRIKE = ROOT / "puzzles" / "passages" / "06-first-strike.toml"
TUTORIAL = ROOT / "puzzles" / "book" / "tutorial.toml"
SVG = "{http://www.w3.org/2000/svg}"
WALL, START, DEADLY, PASSABLE = "#4d4d4d", "#56b4e9", "#d55e00", "#ffffff"


def run(*args: str):
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def groups(svg: str, prefix: str) -> dict[str, ElementTree.Element]:
    root = ElementTree.fromstring(svg)
    found = {group.get("id"): group for group in root.iter(f"{SVG}g") if (group.get("id") or "").startswith(prefix)}
    for group in found.values():
        group.set("data-svg", svg)
    return found


def _style(element: ElementTree.Element) -> dict[str, str]:
    return dict(part.strip().split(": ", 1) for part in element.get("style", "").split(";") if ": " in part)


def fill_of(group: ElementTree.Element) -> str:
    """The fill colour of an artist; a hatched one is filled with a pattern whose background holds it."""
    fill = _style(next(group.iter(f"{SVG}path")))["fill"]
    if fill.startswith("url(#"):
        pattern_id = fill[len("url(#") : -1]
        root = ElementTree.fromstring(group.get("data-svg", ""))
        pattern = next(node for node in root.iter(f"{SVG}pattern") if node.get("id") == pattern_id)
        return next(pattern.iter(f"{SVG}rect")).get("fill") or ""
    return fill


def title_of(group: ElementTree.Element) -> str:
    title = group.find(f"{SVG}title")
    assert title is not None, f"{group.get('id')} has no tooltip"
    return title.text or ""


@pytest.fixture(scope="module")
def first_strike():
    level = twisty.load(FIRST_STRIKE)
    return level, twisty.check(level, questions=["route"], timeout=30)


@pytest.fixture(scope="module")
def tutorial():
    level = twisty.load(TUTORIAL)
    return level, twisty.check(level, questions=["walk"], timeout=60)


def test_passages_svg_has_every_cell_thing_and_step(first_strike) -> None:
    level, verdict = first_strike
    svg = picture_svg(pictures_passages.draw(level, verdict, PictureOptions(answer=True)))
    map_text = FIRST_STRIKE.read_text().split('"""')[3]  # the map block of the file
    rows = [row for row in map_text.split("\n") if row]
    cells = groups(svg, "cell-")
    assert len(cells) == sum(char != " " for row in rows for char in row)
    assert fill_of(cells["cell-0-0"]) == WALL
    assert fill_of(cells["cell-1-1"]) == START
    assert fill_of(cells["cell-1-2"]) == PASSABLE
    things = groups(svg, "thing-")
    assert len(things) == sum(char in "vr" for row in rows for char in row) == 3
    # Each Rat: atk 3 against def 0 and hp 4 takes two strikes, one blow back of 3 - 1 = 2.
    fought = [title_of(group) for group in things.values() if "fought" in title_of(group)]
    assert len(fought) == 2 and all("-2 hp" in text for text in fought)
    steps = groups(svg, "step-")
    assert len(steps) == 3  # fight, fight, goal
    assert "goal" in title_of(steps["step-3"]) and "hp 4" in title_of(steps["step-3"])
    assert len(groups(svg, "route")) == 1


def test_passages_without_route_draws_only_the_map(first_strike) -> None:
    level, _ = first_strike
    svg = picture_svg(pictures_passages.draw(level, None, PictureOptions(answer=False)))
    assert not groups(svg, "step-") and not groups(svg, "route")
    assert len(groups(svg, "thing-")) == 3


def test_book_spread_colours_known_cells_and_carries_the_rules_as_tooltips(tutorial) -> None:
    level, verdict = tutorial
    svg = picture_svg(pictures_book.draw(level, verdict, PictureOptions(answer=True, spread=6)))
    cells = groups(svg, "cell-")
    assert len(cells) == 2 * 7 * 6  # pages 12 and 13, 7 rows of 6
    text = TUTORIAL.read_text()
    assert "[12, 3, 3]" in text.split("deadly = ", 1)[1].split("\n", 1)[0]
    assert "[13, 3, 3]" not in text.split("deadly = ", 1)[1].split("\n", 1)[0]
    assert fill_of(cells["cell-12-3-3"]) == DEADLY
    assert "deadly" in title_of(cells["cell-12-3-3"]) and "rule " in title_of(cells["cell-12-3-3"])
    assert fill_of(cells["cell-12-0-0"]) == WALL  # row 0 of every page is Walls
    assert "rule 16 (Wall)" in title_of(cells["cell-12-0-0"])
    assert fill_of(cells["cell-12-5-0"]) == PASSABLE  # the road of Rubble
    assert "the walk passes here" in title_of(cells["cell-12-5-0"])
    assert groups(svg, "walk-") and groups(svg, "gutter")


def test_book_first_spread_has_one_page_and_bad_spreads_are_refused(tutorial) -> None:
    level, verdict = tutorial
    svg = picture_svg(pictures_book.draw(level, verdict, PictureOptions(answer=False)))
    assert len(groups(svg, "cell-")) == 7 * 6  # spread 0 is page 1 alone (the entrance's)
    assert not groups(svg, "walk-") and groups(svg, "mark-in")
    with pytest.raises(UsageError, match="spreads 0 to 20"):
        pictures_book.draw(level, verdict, PictureOptions(spread=21))


def test_same_picture_same_bytes(first_strike) -> None:
    level, verdict = first_strike
    first = picture_bytes(pictures_passages.draw(level, verdict, PictureOptions(answer=True)), ".svg")
    second = picture_bytes(pictures_passages.draw(level, verdict, PictureOptions(answer=True)), ".svg")
    assert first == second


def test_hostile_names_are_drawn_as_plain_text() -> None:
    text = FIRST_STRIKE.read_text().replace('name = "The viper strikes first"', 'name = "$\\\\frac{ \\u0001 <b>&"')
    level = twisty.load(text)
    svg = picture_svg(pictures_passages.draw(level, None, PictureOptions()))
    assert "$\\frac{  <b>&" in "".join(ElementTree.fromstring(svg).itertext())


def test_render_command_writes_png_and_svg(tmp_path: Path) -> None:
    from PIL import Image

    png = tmp_path / "route.png"
    result = run("render", str(FIRST_STRIKE), "--route", "-o", str(png))
    assert result.exit_code == 0, result.output
    image = Image.open(io.BytesIO(png.read_bytes()))
    assert image.format == "PNG"
    colours = {colour for _, colour in image.convert("RGB").getcolors(1 << 20)}
    assert (0x4D, 0x4D, 0x4D) in colours and (0x56, 0xB4, 0xE9) in colours  # walls, the start
    svg = tmp_path / "book.svg"
    result = run("render", str(TUTORIAL), "--walk", "--spread", "6", "-o", str(svg))
    assert result.exit_code == 0, result.output
    assert len(groups(svg.read_text(), "cell-")) == 84
    assert not list(tmp_path.glob(".twisty-*"))


@pytest.mark.parametrize(
    "args, message",
    [
        (["--walk"], "use --route"),
        (["--spread", "1"], "--spread draws the spread of Read These Before You Die levels; this level is Twisty"),
    ],
)
def test_render_refuses_what_does_not_fit(tmp_path: Path, args: list[str], message: str) -> None:
    result = CliRunner().invoke(main, ["render", str(FIRST_STRIKE), "-o", str(tmp_path / "x.svg"), *args])
    assert result.exit_code == 2 and message in result.output


def test_render_refuses_other_formats_and_bad_levels(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["render", str(FIRST_STRIKE), "-o", str(tmp_path / "x.txt")])
    assert result.exit_code == 2 and ".svg or .png" in result.output
    broken = tmp_path / "broken.toml"
    broken.write_text('game = "passages"\nmap = 3\n')
    result = CliRunner().invoke(main, ["render", str(broken), "-o", str(tmp_path / "x.svg")])
    assert result.exit_code == 2 and "broken.toml:" in result.output and "Traceback" not in result.output


def test_a_missing_pictures_extra_is_exit_2_with_the_pip_command(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    result = CliRunner().invoke(main, ["render", str(FIRST_STRIKE), "-o", str(tmp_path / "x.svg")])
    assert result.exit_code == 2 and "pip install 'twisty[pictures]'" in result.output
    result = CliRunner().invoke(
        main, ["odds", "save", "--rating", "4", "--level", "3", "--plot", str(tmp_path / "x.png")]
    )
    assert result.exit_code == 2 and "pip install 'twisty[pictures]'" in result.output


def _legend_entries(svg: str) -> list[str]:
    texts = ["".join(node.itertext()) for node in ElementTree.fromstring(svg).iter(f"{SVG}text")]
    return [text.split(" = ", 1)[1] for text in texts if " = " in text and "/" in text]


@pytest.mark.parametrize(
    "args, bars",
    [
        (["save", "--rating", "4", "--level", "3"], 2),
        (["clash", "5", "4", "--upper-hand", "a"], 3),
        (["fight", "--delver", "combat=3,con=6", "--monster", "rating=6,dice=2"], 3),
    ],
)
def test_odds_plot_shows_every_outcome_with_exact_fractions_adding_to_one(tmp_path: Path, args, bars) -> None:
    out = tmp_path / "odds.svg"
    result = run("odds", *args, "--json", "--plot", str(out))
    assert result.exit_code == 0, result.output
    svg = out.read_text()
    outcomes = groups(svg, "outcome-")
    assert len(outcomes) == bars
    tooltips = [Fraction(title_of(group).split(": ", 1)[1].split(" = ")[0]) for group in outcomes.values()]
    assert sum(tooltips) == 1
    legend = _legend_entries(svg)
    assert len(legend) == bars
    # Each legend fraction is exact, or (too long to read) its leading digits and sizes.
    assert all(Fraction(text) in tooltips for text in legend if "…" not in text)


def test_odds_plot_of_the_api_odds() -> None:
    picture = pictures_tunnels.draw_odds(twisty.odds("clash", a=5, b=4, upper_hand="a"))
    svg = picture_svg(picture)
    # docs/api.md: a wins 733339/944784 in this Clash
    assert "a wins = 733339/944784" in "".join(ElementTree.fromstring(svg).itertext())
    assert len(groups(svg, "to-a-")) >= 1 and len(groups(svg, "to-b-")) >= 1
