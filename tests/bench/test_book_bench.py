"""The benchmark's generated book is a valid book whose walk is its road (no timing asserted here)."""

import importlib.util
from pathlib import Path

from twisty.rules.book.loader import load_book
from twisty.rules.source import parse_level_bytes
from twisty.solver.book import solve_book

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "book" / "bench.py"


def load_bench():
    spec = importlib.util.spec_from_file_location("book_bench", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_book_walk_follows_the_road_and_the_bow_fires():
    bench = load_bench()
    book = load_book(parse_level_bytes(bench.generate_book(10, 12, 16, seed=3).encode(), "generated.toml"))
    verdict = solve_book(book)
    assert verdict.walk == [(page, 6, col) for page in range(1, 11) for col in range(16)]
    assert 22 in verdict.walk_rules  # the Bow on page 2 shoots the Troll five rows above it
