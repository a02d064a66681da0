"""Playing an exported tower in mota-js itself: twisty's best route, turned into the moves a player makes,
replayed by the engine's own replay (its `core.startReplay`) in a headless Chromium, and the life the
engine ends with compared to the life twisty claims.

Needs a copy of ckcz123/mota-js (named by TWISTY_MOTA_JS) and Chromium; nothing of mota-js is in twisty.
The engine's copy is laid out once in a temporary folder, with a small script of ours added to its page:
it starts the game with the moves as a recorded route at the fastest replay speed, and reports, through
requests to the local server below, the win (`core.events.win`) with the hero's life, a loss, or a replay
the engine refused.

A route becomes moves like this: every step of twisty's replay (the items it takes, the doors it opens,
the fights, the purchases, the goal) is reached by the shortest walk over cells already open, where
stepping on a stair takes the hero to the stair it is joined to, as in mota-js; a door or a monster is
entered from a neighbouring cell (the hero stays there, as in mota-js), an item or a shop cell is stepped
on; a purchase is the quick shop (`shop:<id>`), the choice, and leaving.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
import time
import urllib.parse
from collections import deque
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from twisty.exporters.h5mota import SHOP_ID, Project
from twisty.rules.passages import PURCHASES, Cell, PassagesLevel, Replay

DIRECTIONS = {"up": (-1, 0), "down": (1, 0), "left": (0, -1), "right": (0, 1)}

PROBE = r"""
(function () {
  function say(text) { (new Image()).src = '/__log?' + encodeURIComponent(String(text)); }
  function trace(e) { return e && e.stack ? e.stack.replace(/\s+/g, ' ').slice(0, 600) : String(e); }
  window.addEventListener('error', function (e) { say('ERROR ' + e.message + ' ' + trace(e.error)); });
  function begin() {
    if (!window.core || !core.material || !core.material.enemys || !core.initStatus || !core.initStatus.maps) {
      setTimeout(begin, 100); return;
    }
    var shout = console.error;
    console.error = function (e) { say('CONSOLE ' + trace(e)); return shout.apply(console, arguments); };
    var win = core.events.win, lose = core.events.lose, failed = core.control._replay_error;
    core.events.win = function (reason) { say('WIN ' + core.status.hero.hp); return win.apply(this, arguments); };
    core.events.lose = function (reason) { say('LOSE ' + core.status.hero.hp); return lose.apply(this, arguments); };
    core.control._replay_error = function (action) {
      say('REFUSED ' + action + ' at ' + core.status.floorId + ' ' + JSON.stringify(core.status.hero.loc)
          + ' hp ' + core.status.hero.hp);
      return failed.apply(this, arguments);
    };
    // At the fastest speed the engine replays a move inside the last one's callback: break the chain now
    // and then, or a route of a thousand moves overflows the stack (an artefact of the speed, not of play).
    var replay = core.control.replay, depth = 0;
    core.control.replay = function (force) {
      var self = this;
      if (++depth % 40 == 0) { setTimeout(function () { replay.call(self, force); }, 0); return; }
      return replay.call(self, force);
    };
    fetch('/__route.json').then(function (r) { return r.json(); }).then(function (route) {
      core.events.startGame('', 0, route, function () {});
      setInterval(function () {
        if (core.isReplaying() && core.status.replay.pausing && !core.isMoving()
            && !core.status.replay.animate && !core.status.event.id) {
          core.status.replay.speed = 24; core.resumeReplay();
        }
      }, 50);
    });
  }
  begin();
})();
"""


def moves(level: PassagesLevel, route: Replay) -> list[str]:
    """The engine's route (moves, quick-shop visits and choices) that plays twisty's route."""
    partner: dict[Cell, Cell] = {}
    for up, down in level.links:
        partner[up], partner[down] = down, up
    at = level.thing_at
    open_cells: set[Cell] = set()
    shop_choices = list(level.shop.choices) if level.shop is not None else []
    leave = f"choices:{len(shop_choices)}"
    here = level.start
    out: list[str] = []

    def passable(cell: Cell) -> bool:
        if level.is_wall(cell) or cell in level.goals:
            return False
        index = at.get(cell)
        if index is None or cell in open_cells:
            return True
        thing = level.things[index]
        return thing.is_item  # (an item not yet taken is one the route takes before its next blocker)

    def walk_to(targets: set[Cell]) -> None:
        """Walk to a cell of `targets` (standing there), by the fewest moves."""
        nonlocal here
        if here in targets:
            return
        came: dict[Cell, tuple[Cell, str] | None] = {here: None}
        queue = deque([here])
        found = None
        while queue and found is None:
            cell = queue.popleft()
            for name, (dr, dc) in DIRECTIONS.items():
                step = (cell[0] + dr, cell[1] + dc)
                if step not in targets and not passable(step):
                    continue
                landing = partner.get(step, step)
                if landing in came:
                    continue
                came[landing] = (cell, name)
                if landing in targets:  # (a stair is stood on by taking the one joined to it)
                    found = landing
                    break
                queue.append(landing)
        assert found is not None, f"no walk from {here} to {sorted(targets)}"
        path: list[tuple[str, Cell]] = []
        cell = found
        while came[cell] is not None:
            before, name = came[cell]  # type: ignore[misc]
            path.append((name, cell))
            cell = before
        for name, cell in reversed(path):
            out.append(name)
            index = at.get(cell)
            if index is not None and level.things[index].kind == "shop":
                out.append(leave)  # (stepping on a shop cell opens the shop, every time)
            open_cells.add(cell)
        here = found

    def enter(target: Cell) -> None:
        """From a neighbour, a move into `target` (a door, a monster, a goal)."""
        neighbours = {(target[0] + dr, target[1] + dc) for dr, dc in DIRECTIONS.values()}
        walk_to({cell for cell in neighbours if passable(cell) or cell == here})
        for name, (dr, dc) in DIRECTIONS.items():
            if (here[0] + dr, here[1] + dc) == target:
                out.append(name)
                return
        raise AssertionError(f"{here} is not next to {target}")

    for step in route.steps:
        if step.action == "take":
            walk_to({step.at})
            open_cells.add(step.at)
        elif step.action in ("open", "fight"):
            enter(step.at)
            open_cells.add(step.at)
            if level.things[at[step.at]].wins:
                break  # (the engine's win event follows the fight)
        elif step.action == "buy":
            choice = PURCHASES.index(step.thing)
            out += [f"shop:{SHOP_ID}", f"choices:{shop_choices.index(choice)}", leave]
        elif step.action == "goal":
            enter(step.at)
    return out


class Engine:
    """A copy of mota-js with our page script, served locally; `play` replays one project in Chromium."""

    def __init__(self, mota_js: Path, browser: str) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="twisty-mota-"))
        shutil.copytree(mota_js, self.folder / "mota", ignore=shutil.ignore_patterns(".git"))
        self.root = self.folder / "mota"
        page = self.root / "index.html"
        (self.root / "twisty-probe.js").write_text(PROBE, encoding="utf-8")
        html = page.read_text(encoding="utf-8")
        page.write_text(html.replace("</body>", "<script src='twisty-probe.js'></script></body>"), encoding="utf-8")
        self.browser = browser
        self.said: list[str] = []
        self.route: list[str] = []
        engine = self

        class Handler(SimpleHTTPRequestHandler):
            def __init__(self, *args, **kwargs) -> None:
                super().__init__(*args, directory=str(engine.root), **kwargs)

            def do_GET(self) -> None:
                if self.path.startswith("/__log?"):
                    engine.said.append(urllib.parse.unquote(self.path[len("/__log?") :]))
                    self.send_response(204)
                    self.end_headers()
                    return
                if self.path.startswith("/__route.json"):
                    body = json.dumps(engine.route).encode()
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                    return
                super().do_GET()

            def do_POST(self) -> None:  # (the page's editor services: not needed to play)
                self.send_response(501)
                self.end_headers()

            def log_message(self, *args) -> None:
                return

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def play(self, project: Project, route: list[str], seconds: float = 120) -> str:
        """What the engine says at the end of the route: "WIN <hp>", "LOSE <hp>", "REFUSED ..." or "TIMEOUT"."""
        floors = self.root / "project" / "floors"
        for old in floors.glob("*.js"):
            old.unlink()
        for name, text in project.files.items():
            (self.root / "project" / name).write_text(text, encoding="utf-8")
        self.said.clear()
        self.route = route
        port = self.server.server_address[1]
        profile = tempfile.mkdtemp(prefix="twisty-chromium-", dir=self.folder)
        process = subprocess.Popen(
            [
                self.browser,
                "--headless=new",
                "--no-sandbox",
                "--disable-gpu",
                f"--user-data-dir={profile}",
                f"http://127.0.0.1:{port}/index.html",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            ends = time.monotonic() + seconds
            while time.monotonic() < ends:
                final = [said for said in self.said if said.split(" ")[0] in ("WIN", "LOSE", "REFUSED", "ERROR")]
                if final:
                    notes = [said for said in self.said if said.startswith("CONSOLE")]
                    return final[0] if final[0].startswith("WIN") else "; ".join([final[0], *notes[:3]])
                time.sleep(0.2)
            return "TIMEOUT"
        finally:
            os.killpg(process.pid, signal.SIGTERM)
            process.wait(timeout=30)

    def close(self) -> None:
        self.server.shutdown()
        shutil.rmtree(self.folder, ignore_errors=True)
