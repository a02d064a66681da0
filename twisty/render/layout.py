"""Pictures laid out in inches, so that nothing is cut at any size: panels of a known size in a grid, a title
above them, and a key (the legend) beside or below them, in as many columns as it needs to fit; the figure
is made as large as what it holds. Every size that depends on text is measured with the renderer, not
guessed, and the finished figure is checked: whatever still sticks out (a label drawn past a panel's edge)
widens the margins until it fits.

Small labels near points (step numbers, damages) go through `Labels`, which gives each the first free place
around its point, so that no two labels overlap.

matplotlib's constrained layout is not used for the level pictures: it shrinks the panels to make room for
a key and cuts the key when it cannot (with a warning on stderr), where a picture of a level should keep
its cells at a readable size and grow instead.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.backend_bases import RendererBase
    from matplotlib.figure import Figure
    from matplotlib.legend import Legend
    from matplotlib.text import Text

MARGIN = 0.15  # inches around everything
GAP = 0.3  # inches between panels, and between the panels and the key
# A key beside the panels is never taller than this (inches) when the panels are shorter: more columns.
KEY_MIN_HEIGHT = 4.0


@dataclass
class _Panel:
    axes: Axes
    width: float
    height: float
    row: int
    col: int
    # What its decorations (title, labels past its edges) take on each side, in inches: left, bottom,
    # right, top.
    overflow: list[float] = field(default_factory=lambda: [0.0, 0.0, 0.0, 0.0])


def figure_renderer(figure: Figure) -> RendererBase:
    """The renderer the figure's texts are measured with (an Agg canvas, attached once)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = figure.canvas
    if not isinstance(canvas, FigureCanvasAgg):
        canvas = FigureCanvasAgg(figure)
    return canvas.get_renderer()


class Sheet:
    """A figure built from panels (axes of a fixed size in inches, placed by row and column), a title and a
    key; `finish()` measures them all and sizes the figure to hold them."""

    def __init__(self, title: str = "", *, title_size: float = 10.0) -> None:
        from matplotlib.figure import Figure

        self.figure = Figure(figsize=(4, 3), dpi=100)  # no layout engine: finish() places everything
        self.title_text = title
        self.title_size = title_size
        self.panels: list[_Panel] = []
        self.handles: list[Any] = []
        self.key_options: dict[str, Any] = {}
        self.key_side = "right"
        self.legend: Legend | None = None
        self._title: Text | None = None

    def panel(self, width: float, height: float, row: int = 0, col: int = 0) -> Axes:
        """A new panel of `width` x `height` inches at (row, col) of the grid, axis lines off."""
        axes = self.figure.add_axes((0.0, 0.0, 1.0, 1.0))
        axes.axis("off")
        self.panels.append(_Panel(axes, width, height, row, col))
        return axes

    def key(self, handles: Sequence[Any], *, side: str = "right", fontsize: float = 8.0, **options: Any) -> None:
        """The legend of the picture, beside ("right") or below ("below") the panels."""
        self.handles = list(handles)
        self.key_side = side
        self.key_options = {"fontsize": fontsize, "frameon": False, **options}

    # Layout ------------------------------------------------------------------------------------------------

    def finish(self) -> Figure:
        """Size the figure to hold every panel, the title and the key, and place them."""
        renderer = figure_renderer(self.figure)
        dpi = self.figure.dpi
        grid_width, grid_height, columns, rows = self._grid(renderer)
        title = self.figure.suptitle(self.title_text, fontsize=self.title_size, ha="left", va="top", x=0, y=1)
        self._title = title
        title_size = _inches(title.get_window_extent(renderer), dpi) if self.title_text else (0.0, 0.0)
        title_height = title_size[1] + (0.1 if self.title_text else 0.0)
        key_width, key_height = self._make_key(renderer, grid_width, grid_height)
        beside = self.key_side == "right" and self.handles
        below = self.key_side == "below" and self.handles
        width = (
            max(grid_width + (GAP + key_width if beside else 0.0), key_width if below else 0.0, title_size[0])
            + 2 * MARGIN
        )
        body = max(grid_height, key_height if beside else 0.0)
        height = title_height + body + (GAP + key_height if below else 0.0) + 2 * MARGIN
        margins = [0.0, 0.0, 0.0, 0.0]
        for _ in range(3):
            self._place(width, height, margins, title_height, columns, rows, key_height, body)
            spill = self._spill(renderer)
            if max(spill) <= 0.005:
                break
            margins = [margin + max(0.0, extra) + 0.02 for margin, extra in zip(margins, spill, strict=True)]
        return self.figure

    def _grid(self, renderer: RendererBase) -> tuple[float, float, list[float], list[float]]:
        """The widths of the grid's columns and heights of its rows (inches), each panel with room for
        what its decorations take beyond its edges."""
        dpi = self.figure.dpi
        total_w = sum(panel.width for panel in self.panels) + 4
        total_h = sum(panel.height for panel in self.panels) + 4
        self.figure.set_size_inches(total_w, total_h)
        for panel in self.panels:
            panel.axes.set_position((2 / total_w, 2 / total_h, panel.width / total_w, panel.height / total_h))
            box = panel.axes.get_position().transformed(self.figure.transFigure)
            tight = _decorations(panel.axes, renderer)
            if tight is not None:
                panel.overflow = [
                    max(0.0, (box.x0 - tight.x0) / dpi),
                    max(0.0, (box.y0 - tight.y0) / dpi),
                    max(0.0, (tight.x1 - box.x1) / dpi),
                    max(0.0, (tight.y1 - box.y1) / dpi),
                ]
        columns = [0.0] * (1 + max((panel.col for panel in self.panels), default=-1))
        rows = [0.0] * (1 + max((panel.row for panel in self.panels), default=-1))
        for panel in self.panels:
            left, bottom, right, top = panel.overflow
            columns[panel.col] = max(columns[panel.col], left + panel.width + right)
            rows[panel.row] = max(rows[panel.row], top + panel.height + bottom)
        gaps_w = GAP * max(0, len(columns) - 1)
        gaps_h = GAP * max(0, len(rows) - 1)
        return sum(columns) + gaps_w, sum(rows) + gaps_h, columns, rows

    def _make_key(self, renderer: RendererBase, grid_width: float, grid_height: float) -> tuple[float, float]:
        """Make the legend in the fewest columns that fit (beside: no taller than the panels or
        KEY_MIN_HEIGHT; below: no wider than the panels), and its size in inches."""
        if not self.handles:
            return 0.0, 0.0
        count = len(self.handles)
        if self.key_side == "right":
            limit = max(grid_height, KEY_MIN_HEIGHT)
            columns = 1
            while True:
                width, height = self._try_key(renderer, columns)
                if height <= limit or columns >= count:
                    return width, height
                columns = max(columns + 1, math.ceil(columns * height / limit))
                columns = min(columns, count)
        limit = max(grid_width, 4.0)
        for columns in range(min(count, 6), 0, -1):
            width, height = self._try_key(renderer, columns)
            if width <= limit:
                return width, height
        return self._try_key(renderer, 1)

    def _try_key(self, renderer: RendererBase, columns: int) -> tuple[float, float]:
        if self.legend is not None:
            self.legend.remove()
        self.legend = self.figure.legend(
            handles=self.handles, loc="upper left", bbox_to_anchor=(0, 1), ncol=columns, **self.key_options
        )
        return _inches(self.legend.get_window_extent(renderer), self.figure.dpi)

    def _place(
        self,
        width: float,
        height: float,
        margins: list[float],
        title_height: float,
        columns: list[float],
        rows: list[float],
        key_height: float,
        body: float,
    ) -> None:
        left_margin, bottom_margin, right_margin, top_margin = margins
        full_w = width + left_margin + right_margin
        full_h = height + bottom_margin + top_margin
        self.figure.set_size_inches(full_w, full_h)
        top = full_h - MARGIN - top_margin  # inches from the bottom
        if self._title is not None:
            self._title.set_position(((MARGIN + left_margin) / full_w, top / full_h))
        top -= title_height
        x_starts = [MARGIN + left_margin + sum(columns[:index]) + GAP * index for index in range(len(columns))]
        y_tops = [top - sum(rows[:index]) - GAP * index for index in range(len(rows))]
        for panel in self.panels:
            left, _, _, over_top = panel.overflow
            x = x_starts[panel.col] + left
            y = y_tops[panel.row] - over_top - panel.height
            panel.axes.set_position((x / full_w, y / full_h, panel.width / full_w, panel.height / full_h))
        if self.legend is not None:
            grid_width = sum(columns) + GAP * max(0, len(columns) - 1)
            if self.key_side == "right":
                anchor = (MARGIN + left_margin + grid_width + GAP, top)
            else:
                grid_height = sum(rows) + GAP * max(0, len(rows) - 1)
                anchor = (MARGIN + left_margin, top - grid_height - GAP)
            self.legend.set_bbox_to_anchor((anchor[0] / full_w, anchor[1] / full_h), transform=self.figure.transFigure)

    def _spill(self, renderer: RendererBase) -> list[float]:
        """How far (inches) what is drawn reaches past each edge of the figure: left, bottom, right, top:
        the panels with their decorations, the key and the title (what a panel draws inside its limits
        stays inside it)."""
        from matplotlib.transforms import Bbox

        boxes = [_decorations(panel.axes, renderer) for panel in self.panels]
        boxes += [legend.get_window_extent(renderer) for legend in self.figure.legends]
        if self._title is not None:
            boxes.append(self._title.get_window_extent(renderer))
        found = [box for box in boxes if box is not None]
        if not found:
            return [0.0, 0.0, 0.0, 0.0]
        tight = Bbox.union(found)
        dpi = self.figure.dpi
        width, height = self.figure.get_size_inches()
        return [-tight.x0 / dpi, -tight.y0 / dpi, tight.x1 / dpi - width, tight.y1 / dpi - height]


def _decorations(axes: Axes, renderer: RendererBase) -> Any:
    """The box of a panel with its title and whatever it draws past its limits (texts without clipping):
    what is drawn inside its limits is not measured, which keeps a panel of thousands of cells quick."""
    outside = [
        text
        for text in axes.texts
        if text.get_visible() and not text.get_clip_on() and not _within_limits(axes, text.get_position())
    ]
    return axes.get_tightbbox(renderer, bbox_extra_artists=outside)


def _within_limits(axes: Axes, point: tuple[float, float]) -> bool:
    (x0, x1), (y0, y1) = sorted(axes.get_xlim()), sorted(axes.get_ylim())
    return x0 <= point[0] <= x1 and y0 <= point[1] <= y1


def _inches(bbox: Any, dpi: float) -> tuple[float, float]:
    return bbox.width / dpi, bbox.height / dpi


# Labels that do not collide ------------------------------------------------------------------------------


class Labels:
    """Small texts placed near points of one panel so that no two overlap: each label tries the places
    offered around its point, in order, and takes the first whose box is free; a label that finds none
    is left out (and counted in `dropped`) unless it is `required`, which then takes rings further out.

    Sizes are measured with the renderer in points and turned into data units with the panel's scale
    (`inches_per_unit`: how many inches one data unit spans, the same on both axes), so the placement
    holds at the size the panel is drawn."""

    def __init__(self, axes: Axes, inches_per_unit: float, bounds: tuple[float, float, float, float]) -> None:
        self.axes = axes
        self.scale = inches_per_unit
        self.bounds = bounds  # x0, y0, x1, y1 in data units: labels stay inside
        self.renderer = figure_renderer(axes.figure)  # type: ignore[arg-type]
        self.boxes: dict[tuple[int, int], list[tuple[float, float, float, float]]] = {}
        self.placed: list[Text] = []
        self.dropped = 0
        self._sizes: dict[tuple[str, float, float, bool], tuple[float, float]] = {}

    def reserve(self, x0: float, y0: float, x1: float, y1: float) -> None:
        """Keep labels off this box (data units)."""
        self._add((min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)))

    def size(self, text: str, fontsize: float, pad: float, circle: bool = False) -> tuple[float, float]:
        """A label's width and height in data units, its box's padding (`pad`, in fractions of the font
        size, as matplotlib's boxstyle takes it) included. Measured once per shape: the digits of the
        fonts used all have one width, so "hp 41" and "hp 97" are one measurement."""
        key = (_DIGIT.sub("0", text), fontsize, pad, circle)
        found = self._sizes.get(key)
        if found is None:
            found = self._sizes[key] = self._measure(key[0], fontsize, pad, circle)
        return found

    def _measure(self, text: str, fontsize: float, pad: float, circle: bool) -> tuple[float, float]:
        from matplotlib.font_manager import FontProperties

        properties = FontProperties(size=fontsize, weight="bold")
        width, height, _ = self.renderer.get_text_width_height_descent(text, properties, ismath=False)
        dpi = self.axes.figure.dpi
        padding = 2 * pad * fontsize * dpi / 72
        width, height = width + padding, height + padding
        if circle:  # matplotlib's circle box: the larger side of the padded text is its diameter
            width = height = max(width, height)
        return width / dpi / self.scale * 1.04, height / dpi / self.scale * 1.04

    def place(
        self,
        x: float,
        y: float,
        text: str,
        *,
        clearance: float,
        directions: Sequence[tuple[float, float]] | None = None,
        fontsize: float,
        pad: float = 0.15,
        circle: bool = False,
        required: bool = False,
        **style: Any,
    ) -> Text | None:
        """The label `text` beside the point (x, y): its box just clear of a square of half-side
        `clearance` around the point, at the first of `directions` (unit steps; default: the corners, then
        the sides) where it is free. A required label that finds no room there tries rings further out
        (by its own size each), then takes the first place, overlapping (counted in `dropped`); one not
        required is left out (counted too) and None returned."""
        width, height = self.size(text, fontsize, pad, circle)
        ways = list(directions or DIRECTIONS)
        rings = (0, 1, 2, 3, 4) if required else (0,)
        tried = [
            (x + dx * (clearance + width / 2 + ring * width), y + dy * (clearance + height / 2 + ring * height))
            for ring in rings
            for dx, dy in ways
        ]
        for cx, cy in tried:
            box = (cx - width / 2, cy - height / 2, cx + width / 2, cy + height / 2)
            if self._inside(box) and self._free(box):
                return self._put(box, text, fontsize, pad, circle, style)
        self.dropped += 1
        if not required:
            return None
        cx, cy = next(
            (
                (cx, cy)
                for cx, cy in tried
                if self._inside((cx - width / 2, cy - height / 2, cx + width / 2, cy + height / 2))
            ),
            tried[0],
        )
        return self._put(
            (cx - width / 2, cy - height / 2, cx + width / 2, cy + height / 2), text, fontsize, pad, circle, style
        )

    def _put(
        self, box: tuple[float, float, float, float], text: str, fontsize: float, pad: float, circle: bool, style: Any
    ) -> Text:
        self._add(box)
        bbox = dict(style.pop("bbox", {}) or {})
        if bbox:
            bbox.setdefault("boxstyle", f"{'circle' if circle else 'round'},pad={pad}")
        label = self.axes.text(
            (box[0] + box[2]) / 2,
            (box[1] + box[3]) / 2,
            text,
            ha="center",
            va="center_baseline" if not circle else "center",
            fontsize=fontsize,
            weight="bold",
            bbox=bbox or None,
            **style,
        )
        # An id for the SVG, the same from one drawing to the next; a tooltip may name it again (Picture.tip).
        label.set_gid(f"label-{self.axes.figure.axes.index(self.axes)}-{len(self.placed)}")
        self.placed.append(label)
        return label

    def _inside(self, box: tuple[float, float, float, float]) -> bool:
        x0, y0, x1, y1 = self.bounds
        return box[0] >= x0 and box[1] >= y0 and box[2] <= x1 and box[3] <= y1

    def _keys(self, box: tuple[float, float, float, float]) -> Iterable[tuple[int, int]]:
        for gx in range(math.floor(box[0]), math.floor(box[2]) + 1):
            for gy in range(math.floor(box[1]), math.floor(box[3]) + 1):
                yield gx, gy

    def _add(self, box: tuple[float, float, float, float]) -> None:
        for key in self._keys(box):
            self.boxes.setdefault(key, []).append(box)

    def _free(self, box: tuple[float, float, float, float]) -> bool:
        for key in self._keys(box):
            for other in self.boxes.get(key, ()):
                if box[0] < other[2] and other[0] < box[2] and box[1] < other[3] and other[1] < box[3]:
                    return False
        return True


_DIGIT = re.compile(r"[0-9]")

# The ways from a point to its label, in the order tried: the corners (upper right first: y grows
# downwards on the maps), then the sides.
DIRECTIONS = ((1, -1), (-1, -1), (1, 1), (-1, 1), (0, -1), (1, 0), (0, 1), (-1, 0))
