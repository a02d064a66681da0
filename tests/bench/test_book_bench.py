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


SAT_SCRIPT = SCRIPT.with_name("bench_sat.py")


def load_sat_bench():
    spec = importlib.util.spec_from_file_location("book_bench_sat", SAT_SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_path_rule_walk_bench_compares_the_same_answers_with_far_fewer_walkers():
    # bench_path_walk asserts that both searches find the same status, length and count of shortest walks.
    figures = load_sat_bench().bench_path_walk()
    assert (figures["cells"], figures["bows"], figures["molotovs"]) == (96, 5, 8)
    assert figures["status"] == "solvable"
    assert figures["walkers"] * 50 < figures["baseline_walkers"]


def test_the_completion_bench_opens_thirty_cells_of_a_generated_book_and_completes_it():
    bench = load_sat_bench()
    _book, sketch = bench.completion_sketch()
    assert sketch.count(" ?") + sketch.count("\n?") == 30
    assert bench.bench_complete("pysat", sketch)["completed"]


def test_every_spread_of_the_generation_bench_names_eight_families():
    bench = load_sat_bench()
    assert all(len(set(bench.spread_rules(number))) == 8 for number in range(10))
