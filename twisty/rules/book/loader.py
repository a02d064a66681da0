"""Reading a book level (TOML, `game = "book"`) into a `Book`, with a positioned error for every mistake.

    rows = 5                       # every page is rows x cols
    cols = 6
    entrance = [1, 4, 0]           # [page, row, col]
    exit = [4, 4, 5]
    [pages]                        # any run of consecutive pages, one grid each
    1 = '''
    Ru Ru Tr .  ## Go
    ...'''
    [[tunnel]]                     # only needed when a leaf holds several Tunnels
    cells = [[3, 0, 1], [4, 2, 2]]
    [[local]]                      # local rules, on the spread of `page`
    rule = "medusa"                # or "boss", with items = ["Bazooka", "Tweezers", "Excalibur"]
    page = 6

docs/book.md has the full format and the legend of codes.
"""

from __future__ import annotations

import difflib
import re
from itertools import pairwise
from typing import Any

from twisty.errors import did_you_mean
from twisty.limits import Deadline
from twisty.rules.book.contents import CONTENTS, FILLABLE, ITEMS, content_named
from twisty.rules.book.model import Book, BossRule
from twisty.rules.book.static import MAX_PACK, PackTooLarge, evaluate
from twisty.rules.book.topology import BookShape, Cell, leaf_of, spread_of
from twisty.rules.source import LevelError, LevelSource, expect_int, unknown_key_error

# Input limits (docs/book.md, "Limits"). A real book has tens to a few hundred pages of at most about 20x30
# cells; anything far beyond is a wrong file or an attack, refused while reading with a positioned message.
# Pages in one level: a few hundred in a real book.
MAX_PAGES = 500
# The largest page number: no printed book comes near it, and numbers stay small in every message.
MAX_PAGE_NUMBER = 10_000
# Rows and columns of a page: a printed page holds at most about 20x30 legible cells.
MAX_ROWS = 40
MAX_COLS = 40
# Cells in one level (pages x rows x cols): 240,000 cells (400 pages of 20x30) take about 5 s and 0.5 GB to
# load and evaluate once; the walk search evaluates the book again for every set of removals it meets.
MAX_CELLS = 250_000
# Entries of any one list: [[tunnel]], [[local]], a boss rule's items, each [expect] list. The longest a
# real level needs is an [expect] list of cells, a few hundred (the tutorial's longest holds 117).
MAX_LIST_ITEMS = 10_000

TOP_KEYS = ("game", "title", "rows", "cols", "entrance", "exit", "pages", "tunnel", "local", "expect")
TUNNEL_KEYS = ("cells",)
LOCAL_KEYS = {"medusa": ("rule", "page"), "boss": ("rule", "page", "items")}


def load_book(source: LevelSource, deadline: Deadline | None = None) -> Book:
    """The book in a level file, checked against every rule of the format and the input limits above.

    The level's `deadline` is polled while the pages are read and the book is first evaluated (which
    rejects Wolf packs over six): past it, LimitReached is raised and nothing is returned."""
    book, _open = _load(source, deadline, partial=False)
    return book


def load_sketch(source: LevelSource, deadline: Deadline | None = None) -> tuple[Book, dict[int, frozenset[str]]]:
    """A sketch for `twisty complete`: a book file whose cells may also be open, written `?` (any content
    of FILLABLE) or `?{Wo,Va,.}` (one of these). Returns the book with its open cells empty, and the open
    cells with what each may hold. The book is not evaluated (its open cells are not known yet)."""
    return _load(source, deadline, partial=True)


def _load(source: LevelSource, deadline: Deadline | None, *, partial: bool) -> tuple[Book, dict[int, frozenset[str]]]:
    data = source.data
    for key in data:
        if key not in TOP_KEYS:
            raise unknown_key_error(source, key, TOP_KEYS)
    title = data.get("title", "")
    if not isinstance(title, str):
        raise source.error(f'"title" must be a string, not {title!r:.40}', key="title")
    for key, what in (("rows", "rows per page"), ("cols", "columns per page")):
        if key not in data:
            raise source.error(f'missing key "{key}" ({what}, e.g. {key} = 7)', line=1, column=1)
    height = expect_int(
        source, data.get("rows"), '"rows" (rows per page)', table=None, key="rows", minimum=1, maximum=MAX_ROWS
    )
    width = expect_int(
        source, data.get("cols"), '"cols" (columns per page)', table=None, key="cols", minimum=1, maximum=MAX_COLS
    )
    pages = data.get("pages")
    if not isinstance(pages, dict) or not pages:
        raise source.error(
            'missing table [pages] (one grid per page, e.g. 1 = """...""")', **_position_or_start(source, "pages")
        )
    if len(pages) > MAX_PAGES:
        raise source.error(
            f"a book level may hold at most {MAX_PAGES} pages, not {len(pages)}", **_position_or_start(source, "pages")
        )
    numbers = []
    for key in pages:
        if not re.fullmatch(r"[0-9]+", key) or not 1 <= int(key) <= MAX_PAGE_NUMBER:
            raise source.error(
                f'page key "{key:.40}" must be a page number from 1 to {MAX_PAGE_NUMBER:,}', table="pages", key=key
            )
        numbers.append(int(key))
    numbers.sort()
    for before, after in pairwise(numbers):
        if before == after:
            raise source.error(f"page {after} is given twice", table="pages", key=str(after))
    for before, after in pairwise(numbers):
        if after != before + 1:
            raise source.error(
                f"pages must be one consecutive run: page {before + 1} is missing between {before} and {after}",
                table="pages",
                key=str(after),
            )
    if len(numbers) * height * width > MAX_CELLS:
        raise source.error(
            f"{len(numbers)} pages of {height}x{width} make {len(numbers) * height * width:,} "
            f"cells; a book level may hold at most {MAX_CELLS:,}",
            **_position_or_start(source, "pages"),
        )
    shape = BookShape(height, width, numbers[0], numbers[-1])

    contents = [""] * shape.cell_count
    open_cells: dict[int, frozenset[str]] = {}
    positions: dict[int, tuple[int, int | None]] = {}
    key_lines = _page_key_lines(source)
    for page in numbers:
        if deadline is not None:
            deadline.check()
        key = _page_key(pages, page)
        grid = _read_grid(source, key, pages[key], page, height, width, key_lines.get(key), partial)
        for (row, col), (name, line, column) in grid.items():
            index = shape.index((page, row, col))
            if isinstance(name, frozenset):
                open_cells[index] = name
            else:
                contents[index] = name
            if line is not None and column is not None:
                positions[index] = (line, column)

    def token_error(message: str, index: int) -> LevelError:
        line, column = positions.get(index, (None, None))
        if line is None:
            return source.error(message, table="pages", key=_page_key(pages, shape.cell(index)[0]))
        return source.error(message, line=line, column=column)

    entrance = _read_cell(source, shape, "entrance", "the walk's first cell")
    exit_cell = _read_cell(source, shape, "exit", "the walk's last cell")
    tunnels = _pair_tunnels(source, shape, contents, token_error)
    medusa_spreads, bosses = _read_local_rules(source, shape)
    for index, name in enumerate(contents):
        if name == "Boss" and not any(rule.spread == spread_of(shape.cell(index)[0]) for rule in bosses):
            raise token_error(
                f'a Boss on page {shape.cell(index)[0]} but no [[local]] rule = "boss" '
                f"for its spread names the weapons that kill it",
                index,
            )
    book = Book(
        shape, tuple(contents), entrance, exit_cell, tunnels, frozenset(medusa_spreads), tuple(bosses), title, positions
    )
    if partial:
        return book, open_cells
    try:
        book.cache["initial"] = evaluate(book, deadline=deadline)
    except PackTooLarge as pack:
        raise token_error(
            f"a pack of {len(pack.cells)} Wolves; a pack can never contain more than {MAX_PACK} Wolves", pack.cells[0]
        ) from None
    return book, open_cells


def _position_or_start(source: LevelSource, table: str) -> dict[str, Any]:
    line, column = source.locate_table(table)
    return {"line": line or 1, "column": column or 1}


def _array_position(source: LevelSource, table: str, number: int, key: str) -> tuple[int, int]:
    """Line and column of `key` inside the number-th (from 0) `[[table]]` of the file, else of its header,
    else of `table = [...]` written inline, else 1:1."""
    seen, header = -1, None
    key_pattern = r"^(\s*)(?:" + "|".join(re.escape(form) for form in (key, f'"{key}"', f"'{key}'")) + r")\s*="
    for line_number, raw in enumerate(source.lines, start=1):
        stripped = raw.strip()
        if re.match(r"^\[\[\s*" + re.escape(table) + r"\s*\]\]", stripped):
            seen += 1
            if seen == number:
                header = (line_number, raw.index("[") + 1)
            continue
        if seen == number and stripped.startswith("["):
            break
        if seen == number:
            found = re.match(key_pattern, raw)
            if found:
                return line_number, len(found.group(1)) + 1
    if header is None:
        header = _inline_array_position(source, table, number, key)
    return header or (1, 1)


def _inline_array_position(source: LevelSource, table: str, number: int, key: str) -> tuple[int, int] | None:
    """For `table = [{...}, {...}]` (inline tables): `key` inside the number-th `{`, else `table =` itself."""
    line, column = source.locate_key(table)
    if line is None or column is None:
        return None
    text = "\n".join(source.lines[line - 1 :])
    opening = -1
    for _ in range(number + 1):
        opening = text.find("{", opening + 1)
        if opening < 0:
            return line, column
    closing = text.find("}", opening)
    found = re.compile(
        r"[{,]\s*(" + "|".join(re.escape(form) for form in (key, f'"{key}"', f"'{key}'")) + r")\s*="
    ).search(text, opening, closing if closing >= 0 else len(text))
    if found is None:
        return line, column
    offset = found.start(1)
    return line + text.count("\n", 0, offset), offset - (text.rfind("\n", 0, offset) + 1) + 1


def _array_error(source: LevelSource, message: str, table: str, number: int, key: str) -> LevelError:
    """An error at `key` inside the number-th (from 0) `[[table]]` of the file, else at its header."""
    line, column = _array_position(source, table, number, key)
    return source.error(message, line=line, column=column)


def _array_entries(source: LevelSource, table: str, what: str) -> list[Any]:
    """The entries of an array of tables `[[table]]` (none when absent), at most MAX_LIST_ITEMS."""
    entries = source.data.get(table, [])
    if not isinstance(entries, list):
        raise source.error(f"[[{table}]] must be an array of tables ({what})", **_position_or_start(source, table))
    if len(entries) > MAX_LIST_ITEMS:
        raise source.error(
            f"{len(entries):,} [[{table}]] entries; a book level may hold at most {MAX_LIST_ITEMS:,}",
            **_position_or_start(source, table),
        )
    return entries


def _check_entry_keys(
    source: LevelSource, table: str, number: int, entry: dict[str, Any], allowed: tuple[str, ...]
) -> None:
    """Every key of the number-th `[[table]]` entry is one the format knows (a misspelt key is an error)."""
    for key in entry:
        if key not in allowed:
            # "[table]" as the table name makes the message say "in [[table]]"; the position is the entry's.
            error = unknown_key_error(source, key, allowed, table=f"[{table}]")
            error.line, error.column = _array_position(source, table, number, key)
            raise error


def _page_key(pages: dict[str, Any], page: int) -> str:
    return next(key for key in pages if int(key) == page)


def _page_key_lines(source: LevelSource) -> dict[str, int]:
    """The line of each `N = ...` key in [pages], found in one pass (a book may have hundreds of pages)."""
    found: dict[str, int] = {}
    inside = False
    for number, raw in enumerate(source.lines, start=1):
        header = re.match(r"^\s*\[\s*([^\[\]]+?)\s*\]", raw)
        if header and not raw.lstrip().startswith("[["):
            inside = header.group(1) == "pages"
            continue
        if raw.lstrip().startswith("[["):
            inside = False
            continue
        if inside:
            key = re.match(r"^\s*[\"']?([0-9]+)[\"']?\s*=", raw)
            if key:
                found.setdefault(key.group(1), number)
    return found


def _read_grid(
    source: LevelSource,
    key: str,
    value: Any,
    page: int,
    height: int,
    width: int,
    key_line: int | None,
    partial: bool = False,
) -> dict[tuple[int, int], tuple[str | frozenset[str], int | None, int | None]]:
    """The cells of one page grid: (row, col) -> (content name, line, column in the file). With `partial`
    (a sketch), an open cell `?` or `?{...}` gives the set of contents it may hold instead of a name."""
    cells: dict[tuple[int, int], tuple[str | frozenset[str], int | None, int | None]] = {}
    if not isinstance(value, str):
        raise source.error(f"page {page} must be a multi-line string of cell codes", table="pages", key=key)
    rows = _grid_rows(source, key, value, key_line)
    if len(rows) != height:
        raise source.error(
            f"page {page} has {len(rows)} rows; every page has {height} (rows = {height})", table="pages", key=key
        )
    for row, (text, line, offset) in enumerate(rows):
        tokens = list(re.finditer(r"\S+", text))
        if len(tokens) != width:
            if len(tokens) > width:
                column = offset + tokens[width].start() + 1 if line is not None else None
            else:
                column = offset + len(text.rstrip()) + 1 if line is not None else None
            raise source.error(
                f"page {page}, row {row} has {len(tokens)} cells; every row has {width} (cols = {width})",
                line=line,
                column=column,
                **({} if line is not None else {"table": "pages", "key": key}),
            )
        for col, token in enumerate(tokens):
            column = offset + token.start() + 1 if line is not None else None
            where = {"line": line, "column": column} if line is not None else {"table": "pages", "key": key}
            if partial and token.group().startswith("?"):
                cells[(row, col)] = (_open_cell(source, token.group(), page, row, col, where), line, column)
                continue
            name = content_named(token.group())
            if name is None:
                raise source.error(
                    f'unknown content "{token.group()}" on page {page}, row {row}, col {col}'
                    f"{content_hint(token.group())} (docs/book.md lists every code and name)",
                    line=line,
                    column=column,
                    **({} if line is not None else {"table": "pages", "key": key}),
                )
            cells[(row, col)] = (name, line, column)
    return cells


def _open_cell(source: LevelSource, token: str, page: int, row: int, col: int, where: dict[str, Any]) -> frozenset[str]:
    """What an open cell of a sketch may hold: `?` anything of FILLABLE, `?{Wo,Va,.}` one of those. A
    mistake inside the braces is reported at the code itself."""
    if token == "?":
        return FILLABLE
    found = re.fullmatch(r"\?\{([^{}]*)\}", token)
    if found is None:
        raise source.error(
            f'open cell "{token:.40}" on page {page}, row {row}, col {col}: write ? or ?{{Wo,Va,.}} '
            f"(codes separated by commas, no spaces)",
            **where,
        )
    names = set()
    start = 2
    for part in found.group(1).split(","):
        at = dict(where)
        if "column" in at:
            at["column"] = where["column"] + start
        start += len(part) + 1
        name = content_named(part.strip())
        cell = f"page {page}, row {row}, col {col}"
        if name is None:
            hint = content_hint(part.strip())
            raise source.error(
                f'unknown content "{part.strip():.40}"{hint} in the open cell {token:.40} ({cell})', **at
            )
        if name not in FILLABLE:
            raise source.error(
                f"an open cell may not hold {name} ({cell}): write path-rule and Boss cells into the sketch yourself",
                **at,
            )
        names.add(name)
    return frozenset(names)


def _grid_rows(source: LevelSource, key: str, value: str, line: int | None) -> list[tuple[str, int | None, int]]:
    """The non-blank lines of a grid with the file line and column offset where each one starts.

    TOML keeps no positions; the text is matched back to the file line by line (a multi-line string
    without escapes is its own text). If that fails, rows carry no position and errors fall back to the key.
    """
    if line is None:
        line, _ = source.locate_key(key, "pages")
    lines = value.split("\n")
    placed: list[tuple[str, int | None, int]] = []
    start_line, first_offset = None, 0
    if line is not None:
        raw = source.lines[line - 1]
        opening = re.search(r"=\s*(\"\"\"|''')", raw)
        if opening:
            rest = raw[opening.end() :]
            if rest.strip() == "":
                start_line = line + 1
            else:
                start_line, first_offset = line, opening.end()
    for number, text in enumerate(lines):
        file_line, offset = None, 0
        if start_line is not None:
            candidate = start_line + number
            if candidate - 1 < len(source.lines):
                raw = source.lines[candidate - 1]
                offset = first_offset if number == 0 and candidate == line else 0
                if raw[offset : offset + len(text)] == text:
                    file_line = candidate
                else:
                    offset = 0
        placed.append((text, file_line, offset))
    while placed and not placed[0][0].strip():
        placed.pop(0)
    while placed and not placed[-1][0].strip():
        placed.pop()
    for text, file_line, _offset in placed:
        if not text.strip():
            raise source.error(
                f"page {key} has a blank line inside its grid",
                line=file_line,
                column=1,
                **({} if file_line is not None else {"table": "pages", "key": key}),
            )
    return placed


def _read_cell(source: LevelSource, shape: BookShape, key: str, what: str) -> Cell:
    value = source.data.get(key)
    if value is None:
        raise source.error(f'missing key "{key}" ({what}, as [page, row, col])', line=1, column=1)
    return _as_cell(shape, value, f'"{key}"', lambda message: source.error(message, key=key))


def _as_cell(shape: BookShape, value: Any, what: str, error) -> Cell:
    if (
        not isinstance(value, list)
        or len(value) != 3
        or any(isinstance(part, bool) or not isinstance(part, int) for part in value)
    ):
        raise error(f"{what} must be [page, row, col] (three whole numbers), not {value!r}")
    cell = (value[0], value[1], value[2])
    if not shape.contains(cell):
        raise error(
            f"{what} {list(cell)} is outside the book (pages {shape.first_page}-"
            f"{shape.last_page}, rows 0-{shape.height - 1}, cols 0-{shape.width - 1})"
        )
    return cell


def _pair_tunnels(source: LevelSource, shape: BookShape, contents: list[str], token_error) -> dict[int, int]:
    """Rule 18: "Tunnels always come in pairs: one on the front of a leaf, the other on its back."

    Pairs named in [[tunnel]] come first; on each leaf, one Tunnel left on each side pair up by themselves.
    """
    pairs: dict[int, int] = {}
    named = _array_entries(source, "tunnel", "each with cells = [[p, r, c], [p, r, c]]")
    for number, entry in enumerate(named):

        def error(message: str, number: int = number) -> LevelError:
            return _array_error(source, message, "tunnel", number, "cells")

        if isinstance(entry, dict):
            _check_entry_keys(source, "tunnel", number, entry, TUNNEL_KEYS)
        cells = entry.get("cells") if isinstance(entry, dict) else None
        if not isinstance(cells, list) or len(cells) != 2:
            raise error("each [[tunnel]] needs cells = [[page, row, col], [page, row, col]]")
        first, second = (shape.index(_as_cell(shape, cell, "a [[tunnel]] cell", error)) for cell in cells)
        for index in (first, second):
            if contents[index] != "Tunnel":
                raise error(f"[[tunnel]] names {list(shape.cell(index))}, which holds no Tunnel")
            if index in pairs:
                raise error(f"the Tunnel at {list(shape.cell(index))} is named in two pairs")
        page_a, page_b = shape.cell(first)[0], shape.cell(second)[0]
        if leaf_of(page_a) != leaf_of(page_b) or page_a == page_b:
            raise error(f"a Tunnel pair must be the front and back of one leaf, not pages {page_a} and {page_b}")
        pairs[first], pairs[second] = second, first
    by_side: dict[int, list[int]] = {}
    for index, name in enumerate(contents):
        if name == "Tunnel" and index not in pairs:
            by_side.setdefault(shape.cell(index)[0], []).append(index)
    for page in sorted(by_side):
        if page % 2 == 0 and page - 1 in by_side:
            continue  # handled with its front side
        front = by_side.get(page, [])
        back = by_side.get(page + 1, []) if page % 2 == 1 else []
        if len(front) == 1 and len(back) == 1:
            pairs[front[0]], pairs[back[0]] = back[0], front[0]
            continue
        lonely = front[0] if front else back[0]
        partner_page = page + 1 if page % 2 == 1 else page - 1
        if len(front) + len(back) == 1:
            message = (
                f"unpaired Tunnel on page {page}: Tunnels come in pairs, the other one on page "
                f"{partner_page} (the back of the same leaf)"
            )
        else:
            message = (
                f"leaf {leaf_of(page)} holds {len(front)} Tunnels on page {page} and {len(back)} on "
                f"page {page + 1 if page % 2 == 1 else page}; name each pair with [[tunnel]] cells = [...]"
            )
        raise token_error(message, lonely)
    return pairs


def _read_local_rules(source: LevelSource, shape: BookShape) -> tuple[set[int], list[BossRule]]:
    entries = _array_entries(source, "local", 'rule = "medusa" or "boss", page = N')
    every_key = tuple(sorted({key for keys in LOCAL_KEYS.values() for key in keys}))
    medusa, bosses = set(), []
    for number, entry in enumerate(entries):

        def error(message: str, key: str, number: int = number) -> LevelError:
            return _array_error(source, message, "local", number, key)

        if not isinstance(entry, dict):
            raise error("each [[local]] must be a table", "rule")
        _check_entry_keys(source, "local", number, entry, every_key)
        rule = entry.get("rule")
        if rule in LOCAL_KEYS:
            _check_entry_keys(source, "local", number, entry, LOCAL_KEYS[rule])
        page = entry.get("page")
        if isinstance(page, bool) or not isinstance(page, int):
            raise error(f"a local rule needs page = N (a page of its spread), not {page!r}", "page")
        if not shape.has_page(page):
            raise error(f"local rule on page {page}, which is not in this level", "page")
        if rule == "medusa":
            medusa.add(spread_of(page))
        elif rule == "boss":
            items = entry.get("items", ["Bazooka", "Tweezers", "Excalibur"])
            if isinstance(items, list) and len(items) > MAX_LIST_ITEMS:
                raise error(f"the Boss's items list holds {len(items):,} entries; at most {MAX_LIST_ITEMS:,}", "items")
            names = []
            for item in items if isinstance(items, list) else [items]:
                name = content_named(item) if isinstance(item, str) else None
                if name not in ITEMS:
                    hint = did_you_mean(item, sorted(ITEMS)) if isinstance(item, str) else ""
                    raise error(f"the Boss's items must be item names, not {item!r:.40}{hint}", "items")
                names.append(name)
            bosses.append(BossRule(spread_of(page), tuple(names)))
        else:
            hint = did_you_mean(rule, LOCAL_KEYS) if isinstance(rule, str) else ""
            raise error(f'unknown local rule {rule!r:.40}{hint} (known: "medusa", "boss")', "rule")
    return medusa, bosses


def content_hint(token: str) -> str:
    """' (did you mean "Wo" (Wolf)?)' for a code or name that is not known: the contents whose name starts
    with the token's first letter and holds its other letters in order (Wf: Wolf), then the codes and names
    spelt most like it; "" when nothing is close."""
    typed = token.lower()
    if not typed:
        return ""
    found: list[str] = []
    for name in sorted(CONTENTS):
        letters = iter(name.lower())
        if name.lower().startswith(typed[0]) and all(letter in letters for letter in typed[1:]):
            found.append(name)
    spellings = {content.code.lower(): name for name, content in CONTENTS.items()}
    spellings |= {name.lower(): name for name in CONTENTS}
    for close in difflib.get_close_matches(typed, list(spellings), n=3, cutoff=0.6):
        if spellings[close] not in found:
            found.append(spellings[close])
    if not found:
        return ""
    shown = [f'"{CONTENTS[name].code}" ({name})' for name in found[:3]]
    return f" (did you mean {' or '.join(shown)}?)"
