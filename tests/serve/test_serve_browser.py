"""`twisty serve` in a real headless Chromium (Playwright for Python driving the system's chromium; CI
installs both with .ci/setup-browser): open a level, place an enemy by clicking, see the verdict change
and the level's badge turn red when a claim breaks, save (the page asks before overwriting), and find the
file on disk; a broken TOML shows its positioned error; requests outside the folder are refused; the
server keeps serving. A temple round shows its verdict; the armoury maze (6 solutions claimed) shows ok;
levels are reached with Tab and opened with Enter, each at its own address. A screenshot of the page is
written to the test's tmp_path."""

from __future__ import annotations

import os
import queue
import shutil
import subprocess
import sys
import threading
from contextlib import contextmanager
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LEVEL = ROOT / "puzzles" / "passages" / "06-first-strike.toml"
BOOK = ROOT / "puzzles" / "book" / "tutorial.toml"
ROUND = ROOT / "puzzles" / "temple" / "01-first-game.toml"
MAZE = ROOT / "puzzles" / "passages" / "13-armoury-maze.toml"
# Chromium on a closed network: no background connections, no first-run work, no sandbox as root.
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def find_chromium() -> str | None:
    for candidate in (
        os.environ.get("TWISTY_CHROMIUM"),
        "/usr/bin/chromium",
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
        shutil.which("google-chrome"),
    ):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


@pytest.fixture
def server(tmp_path: Path):
    """`twisty serve` on a free port of 127.0.0.1, over a folder holding one passages level (with a
    comment the page must keep), and a file outside the folder with a link to it from inside."""
    pytest.importorskip("flask", reason="twisty serve needs flask: pip install 'twisty[serve]'")
    folder = tmp_path / "levels"
    folder.mkdir()
    level = folder / LEVEL.name
    level.write_text(
        "# a designer's comment the page must keep\n" + LEVEL.read_text(encoding="utf-8"), encoding="utf-8"
    )
    for shipped in (BOOK, ROUND, MAZE):
        (folder / shipped.name).write_text(shipped.read_text(encoding="utf-8"), encoding="utf-8")
    secret = tmp_path / "secret.toml"
    secret.write_text('game = "passages"\n# outside the served folder\n', encoding="utf-8")
    (folder / "link.toml").symlink_to(secret)
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    process = subprocess.Popen(
        [sys.executable, "-m", "twisty.cli", "serve", str(folder), "--port", "0", "--timeout", "20"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tmp_path,
    )
    lines: queue.Queue[str] = queue.Queue()
    threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True).start()
    try:
        first = lines.get(timeout=60)
        second = lines.get(timeout=10)
    except queue.Empty:
        process.kill()
        pytest.fail(f"twisty serve did not start: {process.stderr.read() if process.stderr else ''}")
    assert "127.0.0.1 only" in second, second
    url = first.split(" at ", 1)[1].strip()
    assert url.startswith("http://127.0.0.1:"), first
    yield url, folder, level
    process.terminate()
    try:
        _, errors = process.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        _, errors = process.communicate()
    assert "Traceback" not in errors, errors


def browser_tools():
    """Chromium's path and Playwright's sync API, or a skip that says what to run."""
    chromium = find_chromium()
    if chromium is None:
        pytest.skip("no Chromium found (/usr/bin/chromium, chromium on PATH or TWISTY_CHROMIUM): run .ci/setup-browser")
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="Playwright for Python is not installed: run .ci/setup-browser"
    )
    return chromium, sync_api


@contextmanager
def browser_page():
    """A page of a headless Chromium (1400 x 1000) and Playwright's expect; the browser closes after."""
    chromium, sync_api = browser_tools()
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, headless=True, args=CHROMIUM_FLAGS)
        try:
            yield browser.new_page(viewport={"width": 1400, "height": 1000}), sync_api.expect
        finally:
            browser.close()


def test_the_page_edits_checks_and_saves_a_level(server, tmp_path: Path) -> None:
    url, _folder, level = server
    with browser_page() as (page, expect):
        page.goto(url)
        page.get_by_text(LEVEL.name, exact=True).click()
        verdict = page.locator("#verdict")
        # The level as shipped: the two Rats cost 2 hp each (8 - 4 = 4); the Viper would cost 7.
        expect(verdict).to_contain_text("final hp 4", timeout=30_000)
        expect(verdict).to_have_attribute("data-status", "ok")
        assert page.locator("#picture svg").count() == 1
        badge = page.locator(f'#levels li[data-path="{LEVEL.name}"] .badge')
        expect(badge).to_have_text("ok", timeout=30_000)
        assert page.url.endswith(f"#level={LEVEL.name}")

        # A third Rat on the bottom corridor, the only way round the Viper: 8 - 3 x 2 = 2 beats 8 - 7 = 1.
        # The level claims final_hp = 4: the claim breaks, the verdict and the level's badge turn red.
        page.locator('.swatch[data-symbol="r"]').click()
        page.locator('.cell[data-row="3"][data-col="2"]').click()
        expect(verdict).to_contain_text("final hp 2", timeout=30_000)
        expect(verdict).to_have_attribute("data-status", "failed")
        expect(verdict).to_contain_text("final_hp: claimed 4")
        expect(badge).to_have_text("FAILED")
        expect(badge).to_have_class("badge failed")
        assert "#.rr.r..#" in page.locator("#text").input_value()

        page.on("dialog", lambda dialog: dialog.accept())  # "exists. Overwrite it?"
        page.locator("#save").click()
        expect(page.locator("#saved")).to_have_text(f"saved {LEVEL.name}", timeout=15_000)
        saved = level.read_text(encoding="utf-8")
        assert "#.rr.r..#" in saved
        assert saved.startswith("# a designer's comment the page must keep\n")
        assert saved.count("\n") == LEVEL.read_text(encoding="utf-8").count("\n") + 1

        broken = saved.replace("[player]", "[player")
        line = broken.splitlines().index("[player") + 1
        page.locator("#text").fill(broken)
        # tomllib points just past "[player", where the "]" is missing.
        expect(page.locator("#error")).to_contain_text(f"line {line}, column 8", timeout=15_000)
        page.screenshot(path=str(tmp_path / "serve.png"), full_page=True)

        outside = page.request.get(url + "api/level?path=../secret.toml")
        assert outside.status == 403
        through_link = page.request.get(url + "api/level?path=link.toml")
        assert through_link.status == 403
        still = page.request.get(url + "api/levels")
        assert still.ok and sorted(still.json()["levels"]) == sorted([LEVEL.name, BOOK.name, ROUND.name, MAZE.name])
    assert (tmp_path / "serve.png").stat().st_size > 10_000


def test_a_book_cell_clicked_is_explained(server, tmp_path: Path) -> None:
    """Spread 3 of the tutorial holds a pack of three Wolves on page 6 (rule 4); a Dragon put in place of
    one is deadly by rule 1, the bad guys."""
    url = server[0]
    with browser_page() as (page, expect):
        page.goto(url)
        page.get_by_text(BOOK.name, exact=True).click()
        expect(page.locator("#verdict")).to_contain_text("walk of 237 moves", timeout=30_000)
        for spread in (1, 2, 3):
            page.locator("#spread-next").click()
            expect(page.locator("#spread-label")).to_contain_text(f"spread {spread} ", timeout=15_000)
        wolf = page.locator('.cell[data-page="6"][data-row="1"][data-col="0"]')
        wolf.click()
        expect(page.locator("#explain")).to_contain_text("rule 4 (The Wolf): a Wolf in a pack of 3")
        page.locator('.swatch[data-symbol="Dr"]').click()
        wolf.click()
        expect(wolf).to_have_text("Dr", timeout=15_000)
        page.locator(".swatch", has_text="look only").click()
        page.locator('.cell[data-page="6"][data-row="1"][data-col="0"]').click()
        expect(page.locator("#explain")).to_contain_text("rule 1 (The bad guys)")
        page.screenshot(path=str(tmp_path / "serve-book.png"))


def test_a_temple_round_and_the_armoury_maze_show_their_verdicts(server, tmp_path: Path) -> None:
    """The round once said "no verdict for this game here"; the maze said FAILED ("claimed 6, but there are
    more than 2") where twisty check says ok. Reached from the index with the keyboard alone."""
    url = server[0]
    with browser_page() as (page, expect):
        page.goto(url)
        for name in (ROUND.name, MAZE.name):
            expect(page.locator(f'#levels li[data-path="{name}"] .badge')).to_have_text("ok", timeout=60_000)
        # Tab from the top of the page to the round's link, Enter to open it.
        link = page.locator(f'#levels a[data-path="{ROUND.name}"]')
        for _ in range(20):
            page.keyboard.press("Tab")
            if link.evaluate("element => element === document.activeElement"):
                break
        assert link.evaluate("element => element === document.activeElement"), "the round's link is not reachable"
        page.keyboard.press("Enter")
        verdict = page.locator("#verdict")
        # The round's claims: won in 4 turns, the only shortest plan, bounce-safe in 5.
        expect(verdict).to_contain_text("won in 4 turns (proved fewest), unique", timeout=60_000)
        expect(verdict).to_have_attribute("data-status", "ok")
        assert page.url.endswith(f"#level={ROUND.name}")
        assert page.locator(".swatch[data-symbol=reveal]").count() == 1
        assert page.locator(".cell.room").count() == 16
        assert page.locator("#picture svg").count() == 1
        cell = page.locator(".cell.room").first.bounding_box()
        assert cell is not None and cell["width"] >= 24 and cell["height"] >= 24  # large enough to click

        page.goto(url + f"#level={MAZE.name}")  # a level's own address opens it
        expect(verdict).to_contain_text("6 solutions", timeout=60_000)
        expect(verdict).to_have_attribute("data-status", "ok")
        cell = page.locator(".cell").first.bounding_box()
        assert cell is not None and cell["width"] >= 24 and cell["height"] >= 24
        page.screenshot(path=str(tmp_path / "serve-round.png"), full_page=True)
