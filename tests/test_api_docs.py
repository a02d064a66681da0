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


def test_docs_api_shows_every_function_for_every_game() -> None:
    """docs/api.md holds, per game, a run example of each function that game has: load, check, solve and
    generate for the games with level files, odds of each kind and generate for Twisted Tunnels."""
    from twisty.games import GAMES

    text = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    sections = {title: body for title, _, body in (part.partition("\n") for part in text.split("\n## ")[1:])}
    for game in GAMES.values():
        body = sections[game.title]
        examples = "\n".join(line for line in body.splitlines() if line.startswith(">>> "))
        if game.loader is not None:
            wanted = ["twisty.load(", "twisty.check(", "twisty.solve(", f'twisty.generate("{game.name}"']
        else:
            wanted = [
                'twisty.odds("save"',
                'twisty.odds("clash"',
                'twisty.odds("fight"',
                f'twisty.generate("{game.name}"',
            ]
        missing = [call for call in wanted if call not in examples]
        assert not missing, f"docs/api.md, {game.title}: no example of {missing}"
