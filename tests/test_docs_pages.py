"""The docs stand alone and stay current: every link between pages resolves, no page is a dated diary, and
each game's docs come in three parts (a first-level walk-through, the reference, the internals)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")
# "since 2026-12-01", "(2026-12-02)", "Run of 2026-11-30", "this session", "the ninth session": a page says
# what holds, not when it changed (measurements name their conditions, not their day).
DATED = re.compile(r"\b20\d\d-[01]\d-[0-3]\d\b|\bthis session\b|\b\w+th sessions?\b|\bsessions?'s? ", re.IGNORECASE)


@pytest.mark.parametrize("page", PAGES, ids=[page.name for page in PAGES])
def test_every_link_to_a_page_or_picture_resolves(page: Path):
    text = page.read_text(encoding="utf-8")
    missing = [
        target
        for target in LINK.findall(text)
        if "://" not in target and not target.startswith("mailto:") and not (page.parent / target).exists()
    ]
    assert missing == []


@pytest.mark.parametrize("page", PAGES, ids=[page.name for page in PAGES])
def test_no_page_is_a_dated_diary(page: Path):
    dated = [
        f"{number}: {line.strip()[:100]}"
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), start=1)
        if DATED.search(line)
    ]
    assert dated == []


@pytest.mark.parametrize(
    "first, reference, internals",
    [
        ("first-level-passages.md", "passages.md", "passages-internals.md"),
        ("first-fight-tunnels.md", "tunnels.md", "tunnels-internals.md"),
        ("first-level-book.md", "book.md", "book-internals.md"),
        ("first-level-temple.md", "temple.md", "temple-internals.md"),
    ],
)
def test_each_game_has_a_walk_through_a_reference_and_its_internals(first: str, reference: str, internals: str):
    docs = ROOT / "docs"
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for name in (first, reference, internals):
        assert (docs / name).exists() and f"(docs/{name})" in readme, name
    assert f"({internals})" in (docs / reference).read_text(encoding="utf-8")
    assert f"({reference})" in (docs / internals).read_text(encoding="utf-8")
