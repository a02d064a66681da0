"""The shipped books: they check clean, together they fire every rule, and the long walk goes everywhere."""

import json
from itertools import pairwise
from pathlib import Path

from click.testing import CliRunner

from twisty.cli import main

BOOKS = Path(__file__).resolve().parents[2] / "puzzles" / "book"


def checked():
    result = CliRunner().invoke(main, ["check", "--json", str(BOOKS)])
    return result, [json.loads(line) for line in result.output.splitlines()]


def test_shipped_books_check_clean_and_fire_all_rules():
    result, reports = checked()
    assert result.exit_code == 0, result.output
    assert all(report["expect_failures"] == [] for report in reports)
    fired = set().union(*(report["rules_fired_numbers"] for report in reports))
    assert set(range(1, 26)) <= fired  # the 25 numbered rules
    assert {26, 27} <= fired  # and both local rules


def test_long_book_walk_crosses_gutters_outer_edges_tunnels_and_the_titan_band():
    _result, reports = checked()
    long_book = next(report for report in reports if report["level"].endswith("long.toml"))
    assert long_book["pages"] == [1, 48]
    walk = [tuple(cell) for cell in long_book["walk"]]
    steps = list(pairwise(walk))
    width = 8
    gutters = [(a, b) for a, b in steps if a[0] % 2 == 0 and b[0] == a[0] + 1 and a[2] == width - 1 and b[2] == 0]
    outer = [(a, b) for a, b in steps if a[0] % 2 == 1 and b[0] == a[0] + 1 and a[2] == width - 1 and b[2] == 0]
    # Gutters of spreads 1..23; outer edges of leaves 1..24 except leaves 6 and 10, crossed by Tunnel.
    assert len(gutters) == 23 and len(outer) == 22
    # The two Tunnel passages: front of a leaf to somewhere else on its back.
    assert ((11, 4, 3), (12, 4, 5)) in steps and ((19, 4, 3), (20, 4, 2)) in steps
    # The Titan on page 30 bands rows 3-5 of pages 28-33: the walk passes those pages and crosses the band
    # rows only on Chuck's page 31.
    band_rows_walked = {cell for cell in walk if 28 <= cell[0] <= 33 and 3 <= cell[1] <= 5}
    assert band_rows_walked and {cell[0] for cell in band_rows_walked} == {31}
    assert {cell[0] for cell in walk} >= set(range(28, 34))
