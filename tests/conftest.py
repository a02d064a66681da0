"""The test run's options: a seeded sample of the slow suites (tests/sampling.py)."""

from __future__ import annotations

import datetime
import os
from collections.abc import Callable, Iterable
from typing import Any

import pytest

from tests import sampling


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("twisty")
    group.addoption(
        "--slow-sample",
        type=float,
        default=float(os.environ["TWISTY_SLOW_SAMPLE"]) if os.environ.get("TWISTY_SLOW_SAMPLE") else None,
        help="run this share (0 to 1) of every slow suite, drawn by --slow-seed (env TWISTY_SLOW_SAMPLE)",
    )
    group.addoption(
        "--slow-seed",
        default=os.environ.get("TWISTY_SLOW_SEED") or datetime.date.today().strftime("%Y%m%d"),
        help="the seed of the slow sample's draw (env TWISTY_SLOW_SEED; default: today's date, YYYYMMDD)",
    )


def pytest_configure(config: pytest.Config) -> None:
    share = config.getoption("--slow-sample")
    if share is not None and not 0 < share <= 1:
        raise pytest.UsageError(f"--slow-sample must be above 0 and at most 1, not {share}")
    sampling.SHARE = share
    sampling.SEED = str(config.getoption("--slow-seed"))


def pytest_report_header(config: pytest.Config) -> str | None:
    if not sampling.active():
        return None
    return (
        f"slow sample: {sampling.SHARE:g} of every slow suite, seed {sampling.SEED} "
        f"(replay: pytest -m slow --slow-sample {sampling.SHARE:g} --slow-seed {sampling.SEED})"
    )


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Under --slow-sample, keep the sample's share of each parametrized slow test's cases (but of those
    that draw their own levels: they take the share of each case's levels instead), and of each slow
    property-based test's examples."""
    if not sampling.active():
        return
    suites: dict[str, list[pytest.Item]] = {}
    for item in items:
        # A test that draws its own levels (the slow_sample fixture) runs every case, each on its share.
        if item.get_closest_marker("slow") is not None and "slow_sample" not in getattr(item, "fixturenames", ()):
            suites.setdefault(item.nodeid.split("[")[0], []).append(item)
    dropped: list[pytest.Item] = []
    for name, cases in suites.items():
        if len(cases) == 1:
            # A property-based test takes the share of its examples (unless it takes it itself); a test
            # that loops over its levels draws them itself (the slow_sample fixture).
            if name not in sampling.DRAWN:
                sampling.sample_examples(getattr(cases[0], "obj", None), name)
            continue
        kept = set(map(id, sampling.draw(cases, name)))
        dropped += [case for case in cases if id(case) not in kept]
    if dropped:
        gone = set(map(id, dropped))
        items[:] = [item for item in items if id(item) not in gone]
        config.hook.pytest_deselected(items=dropped)


@pytest.fixture
def slow_sample(request: pytest.FixtureRequest) -> Callable[[Iterable[Any]], list[Any]]:
    """For a slow test that loops over its own levels: `for seed in slow_sample(range(1000))` runs the
    sample's share of them under --slow-sample, all of them otherwise."""
    return lambda items: sampling.sampled(items, request.node.nodeid)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if not sampling.active() or not sampling.DRAWN:
        return
    terminalreporter.section("slow sample")
    terminalreporter.write_line(
        f"seed {sampling.SEED}, share {sampling.SHARE:g} "
        f"(replay: pytest -m slow --slow-sample {sampling.SHARE:g} --slow-seed {sampling.SEED}); "
        "suite: cases run of cases"
    )
    for name, (drawn, total) in sorted(sampling.DRAWN.items()):
        terminalreporter.write_line(f"  {name}: {drawn} of {total}")
