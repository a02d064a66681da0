"""A seeded sample of the slow suites, for CI (tests/conftest.py sets it from the command line).

`pytest -m slow --slow-sample 0.05 --slow-seed 20261206` runs 5 % of every slow suite: of a parametrized
test, that share of its cases (one at least), drawn by the seed; of a test that loops over its own levels,
that share of the levels (the test asks for them through the `slow_sample` fixture, or `examples` for a
property-based test). The seed defaults to the day's date, so CI meets another sample each day, and the
header of the run prints the command that replays it. Without --slow-sample every case runs.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Iterable, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

# Set by tests/conftest.py before any test module is imported: the share of each slow suite to run (None:
# all of it) and the seed of the draw.
SHARE: float | None = None
SEED = ""
# What each looping test drew: its name -> (drawn, of how many).
DRAWN: dict[str, tuple[int, int]] = {}


def active() -> bool:
    return SHARE is not None


def how_many(total: int) -> int:
    """How many of `total` cases the sample keeps: the share, rounded up, one at least."""
    if SHARE is None or total == 0:
        return total
    return min(total, max(1, math.ceil(total * SHARE)))


def draw(items: Sequence[T], label: str) -> list[T]:
    """The sample's cases of `items` (all of them without a sample), in their order; `label` names the suite
    so that each suite draws apart and the draw is the same for the same seed."""
    kept = how_many(len(items))
    if kept == len(items):
        chosen = list(items)
    else:
        rng = random.Random(f"{SEED}:{label}")
        chosen = [items[i] for i in sorted(rng.sample(range(len(items)), kept))]
    if active():
        DRAWN[label] = (len(chosen), len(items))
    return chosen


def examples(total: int, label: str) -> int:
    """For a property-based test: how many examples to run."""
    kept = how_many(total)
    if active():
        DRAWN[label] = (kept, total)
    return kept


def seed_number(label: str) -> int:
    """A number drawn from the seed for this suite (a property-based test's seed)."""
    return random.Random(f"{SEED}:{label}").randrange(1 << 32)


def sampled(items: Iterable[T], label: str) -> list[T]:
    return draw(list(items), label)


def whole() -> bool:
    """Whether the run takes every case (no --slow-sample): assertions about the make-up of a suite's whole
    population (how many of its levels are solvable, say) hold only then."""
    return SHARE is None


def seeded(label: str) -> Callable[[T], T]:
    """For a property-based test under the sample: hypothesis's seed drawn from the sample's seed, so that
    the run replays; without a sample, the test as it is."""
    if SHARE is None:
        return lambda test: test
    import hypothesis

    return hypothesis.seed(seed_number(label))


def sample_examples(test: Any, label: str) -> bool:
    """For a slow property-based test that does not take its share itself (examples() and seeded()): its
    examples cut to the sample's share and hypothesis seeded from the sample's seed, on the test as collected
    (hypothesis reads both from the test when it runs). False when `test` is not a property-based test."""
    current = getattr(test, "_hypothesis_internal_use_settings", None)
    if not getattr(test, "is_hypothesis_test", False) or current is None:
        return False
    import hypothesis

    test._hypothesis_internal_use_settings = hypothesis.settings(
        current, max_examples=examples(current.max_examples, label)
    )
    test._hypothesis_internal_use_seed = seed_number(label)
    return True
