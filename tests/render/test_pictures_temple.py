"""The Temple Twist picture by structure: a panel for the start and one per turn of the plan, each with the
walls standing then (fixed and variable, counted from the round and the replayed states), the die where it
rests, and one arrow per room entered by a fall."""

from __future__ import annotations

from pathlib import Path

import pytest

import twisty
from tests.render.test_pictures import groups, title_of
from twisty.render import pictures_temple
from twisty.render.pictures import PictureOptions, picture_svg

FIRST_GAME = Path(__file__).resolve().parents[2] / "puzzles" / "temple" / "01-first-game.toml"


@pytest.fixture(scope="module")
def first_game():
    level = twisty.load(FIRST_GAME)
    verdict = twisty.check(level, questions=["win"], timeout=60)
    return level, verdict, picture_svg(pictures_temple.draw(level, verdict, PictureOptions(answer=True)))


def test_every_panel_holds_the_walls_the_die_and_the_falls_of_its_turn(first_game) -> None:
    level, verdict, svg = first_game
    round_ = level.model
    temple = round_.temple
    records = verdict.plan.records
    assert len(records) == round_.expect.turns == 4  # the round's own claim, derived by hand in it
    panels = [("start", round_.start(), ())] + [(f"turn-{r.number}", r.state, r.falls) for r in records]
    for prefix, state, falls in panels:
        walls = groups(svg, f"{prefix}-wall-")
        assert len(walls) == (temple.fixed | state.walls).bit_count()
        fixed = [title_of(group) for group in walls.values() if title_of(group).startswith("fixed")]
        assert len(fixed) == temple.fixed.bit_count()
        assert title_of(groups(svg, f"{prefix}-die")[f"{prefix}-die"]) == f"the die, in {temple.names[state.die]}"
        assert len(groups(svg, f"{prefix}-fall-")) == sum(fall.length for fall in falls)
        assert len(groups(svg, f"{prefix}-room-")) == temple.room_count


def test_without_the_plan_only_the_start_is_drawn(first_game) -> None:
    level, _, _ = first_game
    svg = picture_svg(pictures_temple.draw(level, None, PictureOptions()))
    assert groups(svg, "start-die") and not groups(svg, "turn-")


def test_a_turned_temple_is_drawn_as_the_players_see_it() -> None:
    """Right side down: the right column comes to the bottom, so the upright top-right room of a 2 x 3
    temple stands bottom right of the turned 3 x 2 grid; top side down: the grid is upside down."""

    class Small:
        class temple:
            rows, cols = 2, 3

    assert pictures_temple.seen(Small, 1, 0, 2) == (2, 1, 3, 2)
    assert pictures_temple.seen(Small, 2, 0, 0) == (1, 2, 2, 3)
    assert pictures_temple.seen(Small, 0, 1, 1) == (1, 1, 2, 3)


def test_render_writes_the_plan_of_a_round(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from twisty.cli import main

    out = tmp_path / "plan.svg"
    result = CliRunner().invoke(main, ["render", str(FIRST_GAME), "--plan", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert out.read_text(encoding="utf-8").count("the die, in") == 5
