"""The picture of one spread of a Read These Before You Die book: two pages side by side with the gutter
between them, every cell coloured by what the rules make of it before the walk (deadly, passable,
impassable), its content as the short code of the level format, the entrance and the exit, and with --walk
the shortest walk where it crosses this spread. In SVG every cell carries a tooltip: what it holds, and the
chain of rules that decided it (what `twisty explain` prints).

Drawn from what twisty.check hands back: the BookVerdict's book, its walk, and the evaluations of every
cell it carries (before the walk and when the walk reaches the exit).
"""

from __future__ import annotations

from typing import Any

from twisty.errors import UsageError
from twisty.render.layout import Labels, Sheet
from twisty.render.pictures import (
    ALL_SPREADS,
    BLACK,
    BLUE,
    FLOOR,
    GREEN,
    PALE,
    SKY_BLUE,
    VERMILLION,
    WALL_GREY,
    Picture,
    PictureOptions,
    plain_text,
    printable,
)
from twisty.rules.book.contents import code_of
from twisty.rules.book.evaluation import DEADLY, PASSABLE, PETRIFIED, STATUS_NAMES, WALL
from twisty.rules.book.model import Book
from twisty.rules.book.topology import Cell, spread_of
from twisty.rules.level import Level

CELL_INCHES = 0.42
GUTTER = 0.7  # the gap between the two pages, in cells
SPREADS_ABREAST = 3  # a whole book is drawn in rows of this many spreads
PETRIFIED_GREY = "#a6a6a6"
WALK_COLOUR = BLUE

# status -> (fill, hatch, text colour, legend label)
STATUS_STYLE = {
    PASSABLE: (FLOOR, "", BLACK, "passable"),
    DEADLY: (VERMILLION, "///", BLACK, "deadly"),
    WALL: (WALL_GREY, "", "white", "impassable (Wall, Titan band)"),
    PETRIFIED: (PETRIFIED_GREY, "xx", BLACK, "impassable (petrified)"),
}


def questions(options: PictureOptions) -> tuple[str, ...] | None:
    """The colours come from the book's evaluation, which the walk question computes: always asked."""
    return ("walk",)


def spreads(book: Book) -> list[int]:
    return sorted({spread_of(page) for page in book.shape.pages})


def chosen_spread(book: Book, spread: int | None) -> int:
    """The spread asked for (None: the entrance's), or a UsageError naming the book's spreads."""
    known = spreads(book)
    if spread is None:
        return spread_of(book.entrance[0])
    if spread not in known:
        raise UsageError(
            f"no spread {spread} in this book (spreads {known[0]} to {known[-1]}; spread k shows pages 2k and 2k+1)"
        )
    return spread


def cell_story(verdict: Any, cell: Cell) -> dict[str, Any]:
    """What `twisty explain` says of one cell, as data: what it holds, its status and the chain of rules
    before the walk and when the walk reaches the exit, and the walk's step there (None when off it)."""
    book: Book = verdict.book
    index = book.shape.index(cell)
    analysis = verdict.analysis
    story: dict[str, Any] = {
        "cell": list(cell),
        "content": book.contents[index] or "",
        "code": code_of(book.contents[index]),
        "status": None,
        "chain": [],
        "final_status": None,
        "final_chain": [],
        "step": None,
    }
    walk = verdict.walk
    if cell in walk:
        story["step"] = walk.index(cell)
    if analysis is None:
        return story
    for key, evaluation in (("", analysis.initial), ("final_", analysis.final)):
        if evaluation is not None:
            story[f"{key}status"] = STATUS_NAMES[evaluation.status[index]]
            story[f"{key}chain"] = evaluation.chain(index)
    return story


def story_text(story: dict[str, Any]) -> str:
    page, row, col = story["cell"]
    holds = f"{story['content']} ({story['code']})" if story["content"] else "empty"
    lines = [f"page {page}, row {row}, col {col}: {holds}"]
    if story["status"] is not None:
        lines.append(f"before the walk: {story['status']}")
        lines += [f"  {line}" for line in story["chain"]] or ["  no rule decides it"]
    if story["final_status"] is not None and (story["final_status"], story["final_chain"]) != (
        story["status"],
        story["chain"],
    ):
        lines.append(f"when the walk reaches the exit: {story['final_status']}")
        lines += [f"  {line}" for line in story["final_chain"]]
    if story["step"] is not None:
        lines.append(f"the walk passes here (step {story['step']})")
    return "\n".join(lines)


def verdict_line(verdict: Any) -> str:
    if verdict.solvable is None:
        return f"unknown ({verdict.cap} reached)"
    if not verdict.solvable:
        return "unsolvable (proved): no walk crosses the book"
    unique = "" if verdict.unique is None else ", unique" if verdict.unique else ", not unique"
    return f"solvable in {verdict.moves} moves{unique}"


@plain_text
def draw(level: Level, verdict: Any | None, options: PictureOptions) -> Picture:
    """One spread of the book of `verdict` (a BookVerdict), coloured by its evaluation before the walk, or
    every spread (options.spread == ALL_SPREADS), three abreast; the key beside them."""
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    book: Book | None = verdict.book if verdict is not None else None
    if verdict is None or book is None:
        raise UsageError(
            f"{level.path}: the book could not be evaluated within the time limit, so there is "
            "nothing to colour (raise --timeout)"
        )
    shown = spreads(book) if options.spread == ALL_SPREADS else [chosen_spread(book, options.spread)]
    height, width = book.shape.height, book.shape.width
    across = min(SPREADS_ABREAST, len(shown))
    sheet = Sheet(f"{printable(book.title or level.path)}\n{verdict_line(verdict)}", title_size=9)
    picture = Picture(sheet.figure)
    walked = 0
    for number, spread in enumerate(shown):
        if options.deadline is not None:
            options.deadline.check()
        axes = sheet.panel(
            (2 * width + GUTTER + 0.2) * CELL_INCHES, (height + 0.7) * CELL_INCHES, number // across, number % across
        )
        walked += _draw_spread(axes, picture, book, verdict, spread, options.answer)
    handles: list[Any] = [
        Patch(facecolor=fill, hatch=hatch, edgecolor="#8c8c8c", label=label)
        for fill, hatch, _, label in STATUS_STYLE.values()
    ]
    handles += [
        Patch(facecolor="none", edgecolor=SKY_BLUE, linewidth=2.5, label="IN: entrance"),
        Patch(facecolor="none", edgecolor=GREEN, linewidth=2.5, label="OUT: exit"),
        Patch(facecolor="#d9d9d9", label="gutter"),
    ]
    if options.answer and verdict.walk:
        handles.append(
            Line2D(
                [],
                [],
                color=WALK_COLOUR,
                linewidth=3,
                marker="o",
                markersize=4,
                label=f"the walk ({len(verdict.walk) - 1} moves; {walked} cells drawn here)",
            )
        )
    handles.append(Patch(facecolor="none", edgecolor="none", label="codes: docs/book.md; hover a cell (SVG)"))
    sheet.key(handles, fontsize=7.5)
    sheet.finish()
    return picture


def _draw_spread(axes: Any, picture: Picture, book: Book, verdict: Any, spread: int, answer: bool) -> int:
    """One spread in its panel; the number of the walk's cells drawn on it."""
    from matplotlib.patches import Rectangle

    shape = book.shape
    height, width = shape.height, shape.width
    evaluation = verdict.analysis.initial if verdict.analysis is not None else None
    axes.set_xlim(-0.1, 2 * width + GUTTER + 0.1)
    axes.set_ylim(height + 0.6, -0.1)
    axes.add_patch(
        Rectangle((width, -0.1), GUTTER, height + 0.2, facecolor="#d9d9d9", edgecolor="none", gid=f"gutter-{spread}")
    )
    pages = shape.spread_pages(spread)
    named = ("pages " if len(pages) > 1 else "page ") + "-".join(str(page) for page in pages)
    axes.set_title(f"spread {spread} ({named})", fontsize=8, loc="left")

    def origin(page: int) -> float:
        return 0.0 if page % 2 == 0 else width + GUTTER

    for page in (2 * spread, 2 * spread + 1):
        left = origin(page)
        if page < 1 or not shape.has_page(page):
            axes.text(
                left + width / 2,
                height / 2,
                "no page",
                ha="center",
                va="center",
                color="#808080",
                fontsize=9,
                style="italic",
            )
            continue
        axes.text(left + width / 2, height + 0.1, f"page {page}", ha="center", va="top", fontsize=8)
        for row in range(height):
            for col in range(width):
                cell = (page, row, col)
                index = shape.index(cell)
                style = STATUS_STYLE.get(evaluation.status[index]) if evaluation is not None else None
                fill, hatch, ink, _ = style or (PALE, "", BLACK, "")
                patch = axes.add_artist(  # limits set: no widening cell by cell
                    Rectangle((left + col, row), 1, 1, facecolor=fill, hatch=hatch, edgecolor="#8c8c8c", linewidth=0.4)
                )
                picture.tip(patch, f"cell-{page}-{row}-{col}", story_text(cell_story(verdict, cell)))
                code = code_of(book.contents[index])
                if code != ".":
                    axes.text(
                        left + col + 0.5,
                        row + 0.5,
                        code,
                        ha="center",
                        va="center",
                        fontsize=7.5,
                        color=ink,
                        zorder=5,
                        bbox={"boxstyle": "square,pad=0.05", "facecolor": fill, "edgecolor": "none"},
                    )
        for mark, cell, colour in (("IN", book.entrance, SKY_BLUE), ("OUT", book.exit, GREEN)):
            if cell[0] == page:
                axes.add_patch(
                    Rectangle(
                        (left + cell[2] + 0.06, cell[1] + 0.06),
                        0.88,
                        0.88,
                        facecolor="none",
                        edgecolor=colour,
                        linewidth=2.5,
                        zorder=4,
                        gid=f"mark-{mark.lower()}",
                    )
                )
                axes.text(
                    left + cell[2] + 0.5,
                    cell[1] + 0.1,
                    mark,
                    ha="center",
                    va="top",
                    fontsize=5.5,
                    weight="bold",
                    color=BLACK,
                    zorder=6,
                )
    if answer and verdict.walk:
        return _draw_walk(axes, picture, book, verdict.walk, spread, origin)
    return 0


def _draw_walk(axes: Any, picture: Picture, book: Book, walk: list[Cell], spread: int, origin: Any) -> int:
    """The walk's cells on this spread, joined where two steps are neighbours on the drawing (across the
    gutter too); a Tunnel, a page turn or a fold over the edge breaks the line. Returns the cells drawn."""
    runs: list[list[tuple[int, tuple[float, float]]]] = []
    previous: tuple[float, float] | None = None
    for step, (page, row, col) in enumerate(walk):
        if spread_of(page) != spread:
            previous = None
            continue
        point = (origin(page) + col + 0.5, row + 0.5)
        joined = previous is not None and (
            abs(point[0] - previous[0]) + abs(point[1] - previous[1]) < 1.01
            or (abs(point[1] - previous[1]) < 0.01 and abs(abs(point[0] - previous[0]) - (1 + GUTTER)) < 0.01)
        )
        if not joined:
            runs.append([])
        runs[-1].append((step, point))
        previous = point
    drawn = 0
    height, width = book.shape.height, book.shape.width
    labels = Labels(axes, CELL_INCHES, (-0.1, -0.1, 2 * width + GUTTER + 0.1, height + 0.1))
    for number, run in enumerate(runs):
        xs = [point[0] for _, point in run]
        ys = [point[1] for _, point in run]
        (line,) = axes.plot(
            xs,
            ys,
            color=WALK_COLOUR,
            linewidth=3,
            alpha=0.75,
            marker="o",
            markersize=3.5,
            solid_capstyle="round",
            zorder=3,
        )
        first, last = run[0][0], run[-1][0]
        picture.tip(line, f"walk-{spread}-{number}", f"the walk, steps {first} to {last} of {len(walk) - 1}")
        for step, (x, y) in (run[0], run[-1]) if len(run) > 1 else (run[0],):
            labels.place(
                x,
                y,
                str(step),
                clearance=0.1,
                fontsize=5.5,
                pad=0.08,
                required=True,
                color=BLACK,
                zorder=6,
                bbox={"facecolor": "white", "edgecolor": WALK_COLOUR, "linewidth": 0.6},
            )
        drawn += len(run)
    return drawn
