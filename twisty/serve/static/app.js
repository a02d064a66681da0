// twisty serve: the page. Plain JavaScript, no build step. Every answer comes from the server's JSON API;
// the server checks every text within its deadline, so this page only shows and edits.
"use strict";

const state = { path: null, text: "", spread: null, symbol: null, view: null, asked: 0, timer: null };
const $ = (id) => document.getElementById(id);

async function call(method, url, data) {
  const options = { method, headers: {} };
  if (data !== undefined) {
    options.headers["Content-Type"] = "application/json";
    options.body = JSON.stringify(data);
  }
  const response = await fetch(url, options);
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

function badge(status) {
  const span = document.createElement("span");
  span.className = `badge ${status}`;
  span.textContent = status;
  return span;
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
    const link = document.createElement("a");
    link.textContent = path;
    link.dataset.path = path;
    link.addEventListener("click", () => openLevel(path));
    item.append(link);
    list.append(item);
  }
  // Verdicts for the list, one level at a time (each within the server's deadline).
  for (const item of list.children) {
    const path = item.firstChild.dataset.path;
    const level = await call("GET", `/api/level?path=${encodeURIComponent(path)}`);
    if (!level.ok) { item.append(badge("invalid")); continue; }
    const view = await call("POST", "/api/view", { text: level.text, path });
    item.append(badge(view.ok ? (view.verdict ? view.verdict.status : "unknown") : "invalid"));
  }
}

async function openLevel(path) {
  const answer = await call("GET", `/api/level?path=${encodeURIComponent(path)}`);
  if (!answer.ok) { showError(answer.error); return; }
  for (const link of document.querySelectorAll("#levels a")) link.classList.toggle("open", link.dataset.path === path);
  state.path = path;
  state.spread = null;
  state.symbol = null;
  $("save-path").value = path;
  $("saved").textContent = "";
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
  const view = await call("POST", "/api/view", { text: state.text, path: state.path, spread: state.spread });
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
  if (!verdict) { box.dataset.status = "none"; box.textContent = "no verdict for this game here"; return; }
  box.dataset.status = verdict.status;
  box.append(verdict.headline);
  if (verdict.summary) {
    const line = document.createElement("span");
    line.className = "summary";
    line.textContent = verdict.summary;
    box.append(line);
  }
  for (const failure of verdict.expect_failures || []) {
    const line = document.createElement("span");
    line.className = "summary";
    line.textContent = "[expect] " + failure;
    box.append(line);
  }
}

function cellButton(label, classes, title) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = ["cell", ...classes].join(" ");
  button.textContent = label;
  button.title = title;
  return button;
}

function showGrid(grid) {
  const box = $("grid");
  box.textContent = "";
  $("spread-nav").hidden = !grid || grid.kind !== "spread";
  $("explain").hidden = true;
  if (!grid) return;
  if (grid.kind === "map") showMap(box, grid); else showSpread(box, grid);
}

function showMap(box, grid) {
  const legend = new Map((state.view.palette || []).map((entry) => [entry.symbol, entry.label]));
  const walked = new Set(grid.route.map(([r, c]) => `${r},${c}`));
  const page = document.createElement("div");
  page.className = "page";
  page.style.gridTemplateColumns = `repeat(${grid.rows[0] ? grid.rows[0].length : 0}, auto)`;
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
    const page = document.createElement("div");
    page.className = "page";
    if (!half) { page.textContent = "no page"; box.append(page); return; }
    page.style.gridTemplateColumns = `repeat(${half.cells[0].length}, auto)`;
    half.cells.forEach((row, r) => row.forEach((cell, c) => {
      const status = (cell.status || "").split(" ")[0];
      const classes = [status === "impassable" && cell.status.includes("petrified") ? "petrified" : status];
      const key = `${half.page},${r},${c}`;
      if (walked.has(key)) classes.push("walk");
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

function showPalette(entries) {
  const box = $("palette");
  box.textContent = "";
  const none = document.createElement("button");
  none.type = "button";
  none.className = "swatch" + (state.symbol === null ? " chosen" : "");
  none.textContent = "look only";
  none.title = "clicking a cell shows what it is and why, and changes nothing";
  none.addEventListener("click", () => { state.symbol = null; showPalette(entries); });
  box.append(none);
  for (const entry of entries) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "swatch" + (state.symbol === entry.symbol ? " chosen" : "");
    button.dataset.symbol = entry.symbol;
    button.textContent = entry.symbol;
    button.title = entry.label;
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
  if (answer.saved !== state.path) { state.path = answer.saved; loadLevels(); }
}

function moveSpread(step) {
  const grid = state.view && state.view.grid;
  if (!grid || grid.kind !== "spread") return;
  const at = grid.spreads.indexOf(grid.spread) + step;
  if (at < 0 || at >= grid.spreads.length) return;
  state.spread = grid.spreads[at];
  refresh();
}

$("text").addEventListener("input", () => {
  state.text = $("text").value;
  clearTimeout(state.timer);
  state.timer = setTimeout(refresh, 400);
});
$("save").addEventListener("click", save);
$("spread-prev").addEventListener("click", () => moveSpread(-1));
$("spread-next").addEventListener("click", () => moveSpread(1));
loadLevels();
