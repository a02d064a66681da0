"""Make the pictures of docs/pictures.md and the README from the shipped puzzles, through the public API, so
that they show what twisty answers today. Run from the root of a checkout after any change that shows:

    python docs/make_pictures.py            # writes docs/pictures/*.png and *.svg
    python docs/make_pictures.py --page     # also a screenshot of `twisty serve` (needs .ci/setup-browser)

Pictures are written byte for byte the same when nothing they show has changed (with the same matplotlib).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import twisty
from twisty.games import GAMES, resolve
from twisty.render.pictures import ALL_SPREADS, PictureOptions, save_picture

OUT = ROOT / "docs" / "pictures"

# (file stem, level, options): each level drawn by its game's renderer from the registry.
LEVELS = [
    ("passages-armoury-maze", "puzzles/passages/13-armoury-maze.toml", PictureOptions(answer=True)),
    ("passages-first-strike", "puzzles/passages/06-first-strike.toml", PictureOptions(answer=True)),
    ("passages-68-blockers", "puzzles/passages/large/passages-13x11-68-hard-seed7.toml", PictureOptions(answer=True)),
    ("book-long-spread-15", "puzzles/book/long.toml", PictureOptions(answer=True, spread=15)),
    ("book-tutorial-spread-3", "puzzles/book/tutorial.toml", PictureOptions(answer=True, spread=3)),
    ("book-tutorial-all", "puzzles/book/tutorial.toml", PictureOptions(answer=True, spread=ALL_SPREADS)),
    ("temple-first-game", "puzzles/temple/01-first-game.toml", PictureOptions(answer=True)),
    ("temple-first-game-start", "puzzles/temple/01-first-game.toml", PictureOptions(answer=False)),
]
# Large pictures kept as PNG alone (their SVG runs to megabytes; `twisty render` writes it on demand).
PNG_ONLY = {"book-tutorial-all", "passages-68-blockers"}
ODDS = [
    ("tunnels-clash", ("clash",), {"a": 5, "b": 4, "upper_hand": "a", "armour_b": 1}),
    ("tunnels-fight", ("fight",), {"delver": {"combat": 4, "constitution": 12}, "monster": {"rating": 10, "dice": 3}}),
]


def level_pictures() -> None:
    for stem, path, options in LEVELS:
        level = twisty.load(ROOT / path)
        renderer = resolve(GAMES[level.game].renderer)
        questions = renderer.questions(options)
        verdict = twisty.check(level, questions=questions, timeout=120) if questions is not None else None
        picture = renderer.draw(level, verdict, options)
        suffixes = (".png",) if stem in PNG_ONLY else (".png", ".svg")
        for suffix in suffixes:
            save_picture(picture, OUT / f"{stem}{suffix}")
        print(f"wrote {stem}" + " and ".join(suffixes))


def odds_pictures() -> None:
    renderer = resolve(GAMES["tunnels"].renderer)
    for stem, (kind,), params in ODDS:
        save_picture(renderer.draw_odds(twisty.odds(kind, **params)), OUT / f"{stem}.png")
        print(f"wrote {stem}.png")


def page_screenshot() -> None:
    """The sandbox page on a passages level and on a temple round, by the system's Chromium (as the browser
    test runs it)."""
    from playwright.sync_api import sync_playwright

    from tests.serve.test_serve_browser import CHROMIUM_FLAGS, find_chromium

    chromium = find_chromium()
    if chromium is None:
        print("no Chromium: run .ci/setup-browser; the page screenshot is left as it was")
        return
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    server = subprocess.Popen([sys.executable, "-m", "twisty.cli", "serve", "puzzles", "--port", "0", "--timeout", "20"],
                              cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        url = server.stdout.readline().split(" at ", 1)[1].strip()
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_FLAGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            for name, level in (("serve-page", "passages/06-first-strike.toml"), ("serve-temple", "temple/01-first-game.toml")):
                page.goto(f"{url}#level={level}")
                page.locator(f"#levels a.open[data-path='{level}']").wait_for(timeout=60_000)
                page.locator("#verdict[data-status=ok]").wait_for(timeout=60_000)
                page.locator("#picture svg").wait_for(timeout=60_000)
                time.sleep(0.5)
                page.screenshot(path=str(OUT / f"{name}.png"), full_page=False)
                print(f"wrote {name}.png")
            browser.close()
    finally:
        server.terminate()
        server.wait(timeout=10)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--page", action="store_true", help="also take a screenshot of the sandbox page")
    arguments = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    level_pictures()
    odds_pictures()
    if arguments.page:
        page_screenshot()


if __name__ == "__main__":
    main()
