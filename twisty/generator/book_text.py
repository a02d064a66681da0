"""A generated or completed book written as a normal level file (docs/book.md's format), with the
`[expect]` claims the rule engine has verified."""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import TYPE_CHECKING

from twisty.generator.book_families import FAMILIES, PATH_FAMILIES
from twisty.rules.book.contents import RULE_NAMES, code_of
from twisty.rules.book.evaluation import DEADLY, PASSABLE, PETRIFIED, WALL
from twisty.rules.book.topology import BookShape, spread_of

if TYPE_CHECKING:
    from twisty.generator.book_params import BookParams
    from twisty.generator.book_walks import IntendedWalk
    from twisty.rules.book.model import Book
    from twisty.solver.book import BookAnalysis

_CLAIM = {PASSABLE: "passable", DEADLY: "deadly", WALL: "impassable", PETRIFIED: "impassable"}


def grid_lines(shape: BookShape, names: Sequence[str], page: int) -> list[str]:
    start = shape.page_cells(page)[0]
    return [
        " ".join(f"{code_of(names[start + row * shape.width + col]):<2}" for col in range(shape.width)).rstrip()
        for row in range(shape.height)
    ]


def cell_list(shape: BookShape, cells: Sequence[int]) -> str:
    return "[" + ", ".join(str(list(shape.cell(index))) for index in cells) + "]"


def pages_text(shape: BookShape, names: Sequence[str]) -> list[str]:
    lines = ["[pages]"]
    for page in shape.pages:
        lines.append(f'{page} = """')
        lines += grid_lines(shape, names, page)
        lines.append('"""')
    return lines


def expect_lines(
    shape: BookShape, analysis: BookAnalysis, rules: Sequence[int], decided: dict[int, int], walk_claims: bool = True
) -> list[str]:
    """[expect]: solvable, the unique shortest walk and its length, the simple corridor, the rules that
    decide cells, and each decided cell with its status."""
    lines = ["[expect]", "solvable = true"]
    if walk_claims:
        lines += ["unique = true", "simple_corridor = true"]
    lines.append(f"moves = {analysis.moves}")
    if rules:
        lines.append("rules = [" + ", ".join(f'"{RULE_NAMES[rule]}"' for rule in sorted(set(rules))) + "]")
    for claim in ("passable", "deadly", "impassable"):
        cells = sorted(index for index, status in decided.items() if _CLAIM[status] == claim)
        if cells:
            lines.append(f"{claim} = {cell_list(shape, cells)}")
    return lines


def book_file_text(
    params: BookParams,
    seed: int,
    shape: BookShape,
    names: Sequence[str],
    walk: IntendedWalk,
    fired: dict[str, list[tuple[int, int]]],
    *,
    header: bool = True,
    analysis: BookAnalysis | None = None,
) -> str:
    """The book's file: a comment saying how it was made, the pages, and (given the rule engine's verdict)
    the [expect] claims."""
    lines = []
    if header:
        size = f"{params.rows}x{params.cols}"
        lines += [
            "# Read These Before You Die: a book made by `twisty generate book`; its only walk is the corridor",
            f"# seed: {seed}; parameters: --pages {params.pages} --size {size} --rules {','.join(params.rules)} "
            f"--walk-length {params.length} --density {params.density:g}"
            + (f" --first-page {params.first_page}" if params.first_page != 1 else ""),
        ]
    title = f"generated: {', '.join(params.rules)} (seed {seed})"
    lines += [
        'game = "book"',
        f'title = "{title}"',
        f"rows = {shape.height}",
        f"cols = {shape.width}",
        f"entrance = {list(shape.cell(walk.entrance))}",
        f"exit = {list(shape.cell(walk.exit))}",
        "",
    ]
    if any(FAMILIES[name].local_medusa for name in params.rules if name in FAMILIES):
        for spread in sorted({spread_of(page) for page in shape.pages}):
            page = max(1, 2 * spread)
            lines += ["[[local]]", 'rule = "medusa"', f"page = {page}", ""]
    lines += pages_text(shape, names)
    if analysis is not None:
        rules = [FAMILIES[name].rule for name in params.rules if name in FAMILIES]
        rules += [PATH_FAMILIES[name] for name in params.rules if name in PATH_FAMILIES]
        decided = {index: status for cells in fired.values() for index, status in cells}
        lines += [""] + expect_lines(shape, analysis, rules, decided)
    return "\n".join(lines) + "\n"


def completed_text(book: Book, names: Sequence[str], analysis: BookAnalysis, sketch: str) -> str:
    """A book completed from a sketch: the sketch's shape, ends, Tunnels and local rules, every cell filled,
    and the [expect] claims the rule engine has verified (a sketch's own [expect] is not carried over)."""
    shape = book.shape
    lines = [
        f"# Read These Before You Die: completed from {sketch} by `twisty complete`; its only walk is the corridor",
        'game = "book"',
    ]
    if book.title:
        lines.append(f"title = {json.dumps(book.title)}")
    lines += [
        f"rows = {shape.height}",
        f"cols = {shape.width}",
        f"entrance = {list(book.entrance)}",
        f"exit = {list(book.exit)}",
        "",
    ]
    for first, second in sorted({tuple(sorted(pair)) for pair in book.tunnels.items()}):
        lines += ["[[tunnel]]", f"cells = {cell_list(shape, [first, second])}", ""]
    for spread in sorted(book.medusa_spreads):
        lines += ["[[local]]", 'rule = "medusa"', f"page = {max(shape.first_page, 2 * spread)}", ""]
    for rule in book.bosses:
        items = ", ".join(json.dumps(item) for item in rule.items)
        lines += [
            "[[local]]",
            'rule = "boss"',
            f"page = {max(shape.first_page, 2 * rule.spread)}",
            f"items = [{items}]",
            "",
        ]
    lines += pages_text(shape, names)
    lines += [""] + expect_lines(shape, analysis, [], {})
    return "\n".join(lines) + "\n"
