"""The examples of docs/api.md and the README run as doctests, from the root of the checkout (their paths are
relative)."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("page", ["docs/api.md", "README.md"])
def test_api_examples_run(monkeypatch, page: str) -> None:
    monkeypatch.chdir(ROOT)
    failures, tried = doctest.testfile(
        str(ROOT / page), module_relative=False, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
    )
    assert tried > 0 and failures == 0


def test_every_public_name_resolves() -> None:
    """Each name in twisty.__all__ is one the package can hand out, and no lazy export is left out of it."""
    import twisty

    assert set(twisty.__all__) == {"__version__", *twisty._EXPORTS}
    for name in twisty.__all__:
        assert getattr(twisty, name) is not None, name
