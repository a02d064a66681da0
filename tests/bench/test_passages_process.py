"""The benchmarks' one measured run per process (twisty.bench.passages_process.run_in_tree)."""

from __future__ import annotations

from pathlib import Path

import pytest

from twisty.bench.passages_process import run_in_tree

TREE = Path(__file__).resolve().parents[2]

_ANSWER = """
import json, sys
import twisty
print("some output first")
print(json.dumps({"package": twisty.__path__[0], "echo": sys.argv[1:]}))
"""


def test_the_answer_is_the_last_line_and_names_the_trees_package():
    run = run_in_tree(TREE, _ANSWER, ["a", "b"])
    assert run.answer is not None and run.answer["echo"] == ["a", "b"]
    assert not run.stopped and run.failed is None
    assert run.seconds > 0 and run.cpu > 0


def test_a_process_that_imports_another_trees_package_is_refused():
    """Its times would be another release's."""
    elsewhere = 'import json; print(json.dumps({"package": "/elsewhere/twisty"}))'
    with pytest.raises(RuntimeError, match="imported twisty from /elsewhere/twisty"):
        run_in_tree(TREE, elsewhere, [])


def test_a_failure_gives_its_last_error_line():
    run = run_in_tree(TREE, "raise SystemExit('no level here')", [])
    assert run.answer is None and run.failed == "no level here" and not run.stopped


_SPIN = """
import resource
resource.setrlimit(resource.RLIMIT_CPU, (1, 3))
while True:
    pass
"""


def test_a_process_past_its_cpu_limit_is_stopped_at_the_cpu_it_used():
    """The kernel ends it after 1 s of CPU time (RLIMIT_CPU); the parent reads that from its children's
    usage. (About a second of CPU: the limit itself is what is tested. The kernel stops it on its exact
    run time, while the usage it reports is sampled by clock ticks: 0.86 s was read once at a load of 28,
    so the lower bound only says the spin's own CPU was read, not the parent's.)"""
    run = run_in_tree(TREE, _SPIN, [], cpu_limited=True)
    assert run.stopped and run.answer is None
    assert 0.5 <= run.cpu < 5
