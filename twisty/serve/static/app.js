// twisty serve: the page. Plain JavaScript, no build step. Every answer comes from the server's JSON API;
// the server checks every text within its deadline (the verdict of `twisty check`), so this page only shows
// and edits. A level's address is #level=PATH, so a level can be bookmarked, shared and reopened with Back.
"use strict";

const state = { path: null, text: "", spread: null, symbol: null, view: null, asked: 0, timer: null };
const $ = (id) => document.getElementById(id);
// What a badge says of each status (the colour is never the only cue: the word is written).
const STATUS_WORDS = { ok: "ok", failed: "FAILED", unsolvable: "unsolvable", unknown: "unknown", invalid: "invalid" };

async function call(method, url, data) {
  const options = { method, headers: {} };
  if (data !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(data);
  }
  let response;
  try {
    response = await fetch(url, options);
  } catch (_) {
    return { ok: false, httpStatus: 0, error: { text: "the server cannot be reached" } };
  }
  let answer;
  try {
    answer = await response.json();
  } catch (_) {
    answer = { ok: false, error: { text: `the server answered ${response.status} without JSON` } };
  }
  answer.httpStatus = response.status;
  return answer;
}

function showError(error) {
  const box = $("error");
  if (!error) { box.hidden = true; box.textContent = ""; return; }
  const where = error.line ? `line ${error.line}` + (error.column ? `, column ${error.column}` : "") + ": " : "";
  box.textContent = where + (error.message || error.text);
  box.hidden = false;
}

function setBadge(item, verdict) {
  let span = item.querySelector(".badge");
  if (!span) { span = document.createElement("span"); item.append(span); }
  const status = verdict ? verdict.status : "unknown";
  span.className = `badge ${status}`;
  span.textContent = STATUS_WORDS[status] || status;
  span.title = verdict ? verdict.headline || "" : "";
}

function levelHref(path) { return `#level=${encodeURIComponent(path)}`; }

function pathFromHash() {
  const match = /^#level=(.*)$/.exec(window.location.hash);
  return match ? decodeURIComponent(match[1]) : null;
}

async function loadLevels() {
  const answer = await call("GET", "/api/levels");
  if (!answer.ok) { showError(answer.error); return; }
  $("folder").textContent = answer.folder;
  $("timeout").textContent = String(answer.timeout);
  const list = $("levels");
  list.textContent = "";
  for (const path of answer.levels) {
    const item = document.createElement("li");
    item.dataset.path = path;
    const link = document.createElement("a");
    link.textContent = path;
    link.href = levelHref(path);       // a real link: reachable with Tab, opened with Enter
    link.dataset.path = path;
    item.append(link);
    list.append(item);
  }
  markOpen();
  badges([...list.children]);
}

// The index's badges: two requests at a time; the server answers from its cache of verdicts by content,
// so after a save only the level saved is computed again. A busy server (503) is asked again shortly.
async function badges(items) {
  const queue = [...items];
  async function next() {
    while (queue.length) {
      const item = queue.shift();
      let answer = await call("GET", `/api/verdict?path=${encodeURIComponent(item.dataset.path)}`);
      for (let tries = 0; answer.httpStatus === 503 && tries < 5; tries++) {
        await new Promise((done) => setTimeout(done, 1000));
        answer = await call("GET", `/api/verdict?path=${encodeURIComponent(item.dataset.path)}`);
      }
      setBadge(item, answer.ok ? answer.verdict : { status: "invalid", headline: (answer.error || {}).text });
    }
  }
  await Promise.all([next(), next()]);
}

function markOpen() {
  for (const link of document.querySelectorAll("#levels a")) {
    const open = link.dataset.path === state.path;
    link.classList.toggle("open", open);
    if (open) link.setAttribute("aria-current", "page"); else link.removeAttribute("aria-current");
  }
}

async function openLevel(path) {
  const answer = await call("GET", `/api/level?path=${encodeURIComponent(path)}`);
  if (!answer.ok) { showError(answer.error); return; }
  state.path = path;
  state.spread = null;
  state.symbol = null;
  markOpen();
  $("save-path").value = path;
  $("saved").textContent = "";
  document.title = `${path} – twisty serve`;
  setText(answer.text);
  await refresh();
}

function setText(text) {
  state.text = text;
  $("text").value = text;
}

async function refresh() {
  const asked = ++state.asked;
  $("verdict").dataset.status = "checking";
  $("verdict").textContent = "checking…";
  let view = await call("POST", "/api/view", { text: state.text, path: state.path, spread: state.spread });
  for (let tries = 0; view.httpStatus === 503 && tries < 5 && asked === state.asked; tries++) {
    await new Promise((done) => setTimeout(done, 1000));
    view = await call("POST", "/api/view", { text: state.text, path: state.path, spread: state.spread });
  }
  if (asked !== state.asked) return;            // a later edit has asked again
  if (!view.ok) {
    showError(view.error);
    $("verdict").dataset.status = "invalid";
    $("verdict").textContent = "the level does not load: see the error";
    return;
  }
  showError(null);
  state.view = view;
  showVerdict(view.verdict);
  showGrid(view.grid);
  showPalette(view.palette || []);
  $("picture").innerHTML = view.svg || "";
  $("picture-note").textContent = view.picture_note || "";
}

function showVerdict(verdict) {
  const box = $("verdict");
  box.textContent = "";
  box.dataset.status = verdict.status;
  const word = document.createElement("span");
  word.className = `badge ${verdict.status}`;
  word.textContent = STATUS_WORDS[verdict.status] || verdict.status;
  box.append(word, " ", verdict.headline);
  for (const line of verdict.details || []) {
    const span = document.createElement("span");
    span.className = "summary";
    span.textContent = line;
    box.append(span);
  }
  if (!(verdict.details || []).length) {
    for (const failure of verdict.expect_failures || []) {
      const span = document.createElement("span");
      span.className = "summary";
      span.textContent = "[expect] " + failure;
      box.append(span);
    }
  }
  // The open level's badge in the index follows the text being edited (saved or not).
  const item = document.querySelector(`#levels li[data-path="${CSS.escape(state.path || "")}"]`);
  if (item) setBadge(item, verdict);
}

function cellButton(label, classes, title) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = ["cell", ...classes].join(" ");
  button.textContent = label;
  button.title = title;
  button.setAttribute("aria-label", title);
  return button;
}

function showGrid(grid) {
  const box = $("grid");
  box.textContent = "";
  $("spread-nav").hidden = !grid || grid.kind !== "spread";
  $("explain").hidden = true;
  $("board").hidden = !grid && !(state.view.palette || []).length;
  if (!grid) return;
  if (grid.kind === "map") showMap(box, grid);
  else if (grid.kind === "spread") showSpread(box, grid);
  else if (grid.kind === "temple") showTemple(box, grid);
}

function pageOf(columns) {
  const page = document.createElement("div");
  page.className = "page";
  page.style.gridTemplateColumns = `repeat(${columns}, auto)`;
  page.dataset.columns = columns;
  page.addEventListener("keydown", arrowKeys);
  return page;
}

// Arrow keys move between the cells of a grid (Tab enters it, Enter or Space clicks the cell).
function arrowKeys(event) {
  const step = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: "up", ArrowDown: "down" }[event.key];
  if (step === undefined || !event.target.classList.contains("cell")) return;
  const cells = [...event.currentTarget.querySelectorAll(".cell")];
  const columns = Number(event.currentTarget.dataset.columns);
  const at = cells.indexOf(event.target);
  const to = step === "up" ? at - columns : step === "down" ? at + columns : at + step;
  if (to >= 0 && to < cells.length) { cells[to].focus(); event.preventDefault(); }
}

function showMap(box, grid) {
  const legend = new Map((state.view.palette || []).map((entry) => [entry.symbol, entry.label]));
  const walked = new Set(grid.route.map(([r, c]) => `${r},${c}`));
  const page = pageOf(grid.rows[0] ? grid.rows[0].length : 0);
  grid.rows.forEach((row, r) => {
    [...row].forEach((char, c) => {
      const kind = char === "#" ? "wall" : char === "S" ? "start" : char === "G" ? "goal" : char === " " ? "outside"
        : char === "." ? "floor" : grid.kinds[char] === "enemy" ? "enemy" : "thing";
      const classes = [kind];
      if (walked.has(`${r},${c}`)) classes.push("route");
      const button = cellButton(char === " " ? "·" : char, classes, `row ${r}, col ${c}: ${legend.get(char) || kind}`);
      button.dataset.row = r;
      button.dataset.col = c;
      button.addEventListener("click", () => clicked([r, c], button));
      page.append(button);
    });
  });
  box.append(page);
}

function showSpread(box, grid) {
  state.spread = grid.spread;
  $("spread-label").textContent = `spread ${grid.spread} (of ${grid.spreads[0]}–${grid.spreads[grid.spreads.length - 1]})`;
  const walked = new Set(grid.walk.map((cell) => cell.join(",")));
  grid.pages.forEach((half, side) => {
    if (side === 1) {
      const gutter = document.createElement("div");
      gutter.className = "gutter";
      box.append(gutter);
    }
    if (!half) {
      const page = document.createElement("div");
      page.className = "page";
      page.textContent = "no page";
      box.append(page);
      return;
    }
    const page = pageOf(half.cells[0].length);
    half.cells.forEach((row, r) => row.forEach((cell, c) => {
      const status = (cell.status || "").split(" ")[0];
      const classes = [status === "impassable" && cell.status.includes("petrified") ? "petrified" : status];
      if (walked.has(`${half.page},${r},${c}`)) classes.push("walk");
      const button = cellButton(cell.code, classes, cell.explain);
      button.dataset.page = half.page;
      button.dataset.row = r;
      button.dataset.col = c;
      button.addEventListener("click", () => clicked([half.page, r, c], button, cell.explain));
      page.append(button);
    }));
    box.append(page);
  });
}

function showTemple(box, grid) {
  const rooms = new Map(grid.rooms.map((room) => [room.at.join(","), room]));
  const doors = new Map(grid.doors.map((door) => [door.at.join(","), door]));
  const page = pageOf(grid.rows[0].length);
  page.classList.add("temple");
  const last = grid.rows.length - 1;
  grid.rows.forEach((row, r) => {
    [...row].forEach((char, c) => {
      const frame = r === 0 || r === last || c === 0 || c === row.length - 1;
      const room = rooms.get(`${r},${c}`);
      const door = doors.get(`${r},${c}`);
      let classes, title, label = char === " " ? "" : char;
      if (room) {
        classes = ["room", room.revealed ? "revealed" : room.card ? "card" : "plain"];
        if (room.die) classes.push("die");
        title = `${room.name}` + (room.revealed ? ": revealed (to explore)" : room.card ? ": room card, hidden" : ": no room card")
          + (room.die ? "; the die starts here" : "");
        label = room.name.slice(0, 9);
      } else if (door) {
        classes = ["door", door.revealed ? "revealed" : "closed"];
        title = `door ${door.name}` + (door.revealed ? " (the revealed door)" : "");
      } else if (frame) {
        classes = ["frame"];
        title = "the temple's frame";
        label = "";
      } else {
        classes = [char === "#" ? "fixed" : char === "|" || char === "-" ? "variable" : "gap"];
        title = char === "#" ? "fixed wall" : char === "|" || char === "-" ? "variable wall" : "no wall";
      }
      const button = cellButton(label, classes, `row ${r}, col ${c}: ${title}`);
      button.dataset.row = r;
      button.dataset.col = c;
      button.addEventListener("click", () => clicked([r, c], button));
      page.append(button);
    });
  });
  box.append(page);
}

function showPalette(entries) {
  const box = $("palette");
  box.textContent = "";
  const none = document.createElement("button");
  none.type = "button";
  none.className = "swatch" + (state.symbol === null ? " chosen" : "");
  none.textContent = "look only";
  none.title = "clicking a cell shows what it is and why, and changes nothing";
  none.setAttribute("aria-pressed", String(state.symbol === null));
  none.addEventListener("click", () => { state.symbol = null; showPalette(entries); });
  box.append(none);
  for (const entry of entries) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "swatch" + (state.symbol === entry.symbol ? " chosen" : "");
    button.dataset.symbol = entry.symbol;
    button.textContent = entry.symbol;
    button.title = entry.label;
    button.setAttribute("aria-label", `${entry.symbol}: ${entry.label}`);
    button.setAttribute("aria-pressed", String(state.symbol === entry.symbol));
    button.addEventListener("click", () => { state.symbol = entry.symbol; showPalette(entries); });
    box.append(button);
  }
}

async function clicked(cell, button, explanation) {
  for (const other of document.querySelectorAll(".cell.selected")) other.classList.remove("selected");
  button.classList.add("selected");
  const explain = $("explain");
  explain.textContent = explanation || button.title;
  explain.hidden = false;
  if (state.symbol === null) return;
  const answer = await call("POST", "/api/edit", { text: state.text, cell, symbol: state.symbol });
  if (!answer.ok) { showError(answer.error); return; }
  setText(answer.text);
  await refresh();
}

async function save() {
  const path = $("save-path").value.trim();
  const saved = $("saved");
  let answer = await call("POST", "/api/save", { path, text: state.text, overwrite: false });
  if (answer.httpStatus === 409) {
    if (!window.confirm(`${path} exists. Overwrite it?`)) { saved.textContent = "not saved"; return; }
    answer = await call("POST", "/api/save", { path, text: state.text, overwrite: true });
  }
  if (!answer.ok) { showError(answer.error); saved.textContent = "not saved"; return; }
  showError(null);
  saved.textContent = `saved ${answer.saved}`;
  const item = document.querySelector(`#levels li[data-path="${CSS.escape(answer.saved)}"]`);
  if (!item) { state.path = answer.saved; window.location.hash = levelHref(answer.saved); await loadLevels(); return; }
  badges([item]);                               // the one level saved; every other badge stands
}

function moveSpread(step) {
  const grid = state.view && state.view.grid;
  if (!grid || grid.kind !== "spread") return;
  const at = grid.spreads.indexOf(grid.spread) + step;
  if (at < 0 || at >= grid.spreads.length) return;
  state.spread = grid.spreads[at];
  refresh();
}

function followHash() {
  const path = pathFromHash();
  if (path !== null && path !== state.path) openLevel(path);
}

$("text").addEventListener("input", () => {
  state.text = $("text").value;
  clearTimeout(state.timer);
  state.timer = setTimeout(refresh, 400);
});
$("save").addEventListener("click", save);
$("spread-prev").addEventListener("click", () => moveSpread(-1));
$("spread-next").addEventListener("click", () => moveSpread(1));
window.addEventListener("hashchange", followHash);
loadLevels().then(followHash);
