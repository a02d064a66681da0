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
from twisty.render.pictures import PictureOptions, save_picture

OUT = ROOT / "docs" / "pictures"

# (file stem, level, options): each level drawn by its game's renderer from the registry.
LEVELS = [
    ("passages-armoury-maze", "puzzles/passages/13-armoury-maze.toml", PictureOptions(answer=True)),
    ("passages-first-strike", "puzzles/passages/06-first-strike.toml", PictureOptions(answer=True)),
    ("book-long-spread-15", "puzzles/book/long.toml", PictureOptions(answer=True, spread=15)),
    ("book-tutorial-spread-3", "puzzles/book/tutorial.toml", PictureOptions(answer=True, spread=3)),
    ("temple-first-game", "puzzles/temple/01-first-game.toml", PictureOptions(answer=True)),
]
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
        for suffix in (".png", ".svg"):
            save_picture(picture, OUT / f"{stem}{suffix}")
        print(f"wrote {stem}.png and .svg")


def odds_pictures() -> None:
    renderer = resolve(GAMES["tunnels"].renderer)
    for stem, (kind,), params in ODDS:
        save_picture(renderer.draw_odds(twisty.odds(kind, **params)), OUT / f"{stem}.png")
        print(f"wrote {stem}.png")


def page_screenshot() -> None:
    """The sandbox page on the first-strike level, by the system's Chromium (as the browser test runs it)."""
    from playwright.sync_api import sync_playwright
    sys.path.insert(0, str(ROOT / "tests"))
    from test_serve_browser import CHROMIUM_FLAGS, find_chromium

    chromium = find_chromium()
    if chromium is None:
        print("no Chromium: run .ci/setup-browser; the page screenshot is left as it was")
        return
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    server = subprocess.Popen([sys.executable, "-m", "twisty.cli", "serve", "puzzles/passages", "--port", "0"],
                              cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        url = server.stdout.readline().split(" at ", 1)[1].strip()
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_FLAGS)
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.goto(url)
            page.get_by_text("06-first-strike.toml", exact=True).click()
            page.locator("#verdict[data-status=solvable]").wait_for(timeout=30_000)
            time.sleep(0.5)
            page.screenshot(path=str(OUT / "serve-page.png"), full_page=True)
            browser.close()
        print("wrote serve-page.png")
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
