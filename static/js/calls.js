// The player's calls (piattaforma/playercalls.py): "your tournament has started, your match is
// ready at table X", and his notices (a warning, a ban, an invitation to a tournament, whose button
// leads to it: `call.action`, `call.url`) on whatever page he is. They come on the notices socket of every page (notices.js hands them here),
// as soon as the tables open and again whenever a page connects while the match waits. The page
// shows a notice with a countdown and a "Vai al tavolo" button, plays a tone (unless the table's
// sound switch is off on this device) and, when the countdown ends, takes the player to his table;
// at a table of the same tournament, whose match is over, it goes straight on. The countdown of a
// call survives a reload (sessionStorage), so a page that reloads does not start it again.

import { muted, soundAsk, tones } from "./audio.js"; // the table's sound switch and the page's audio

export const COUNTDOWN_SECONDS = 10;
const STORE = "chiamate";
const DISMISSED = -1; // a call the player hid: its page no longer counts down to move him

/**
 * What a page does with a call: "none" (this is the table already), "go" (now), "wait" (notice and
 * countdown, then go) or "notice" (notice and button only: the player is at another live table, or
 * typing). `page`: { tableId, tournamentId, path, typing } of the current page.
 */
export function plan(call, page) {
  if (call && call.kind === "notice") return call.text ? "notice" : "none"; // a warning, a ban: told, no move
  if (!call || call.kind !== "match" || !call.url) return "none";
  if (page.path && page.path === call.url) return "none"; // his slot's page already (a slot tournament)
  if (page.tableId !== null && page.tableId === Number(call.table_id)) return "none";
  if (page.tableId !== null && page.tournamentId === Number(call.tournament_id)) return "go";
  if (page.tableId !== null || page.typing) return "notice";
  return "wait";
}

/** "m:ss" of a number of seconds (never negative). */
export function clock(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** When the countdown of a call ends (ms since the epoch): remembered per call, else from now. */
export function countdownEnd(store, key, now, seconds = COUNTDOWN_SECONDS) {
  const known = Number(store[key]);
  if (Number.isFinite(known) && known > 0) return known;
  store[key] = now + seconds * 1000;
  return store[key];
}

function readStore() {
  try { return JSON.parse(sessionStorage.getItem(STORE) || "{}") || {}; } catch { return {}; }
}

function writeStore(store) {
  try { sessionStorage.setItem(STORE, JSON.stringify(store)); } catch { /* private mode: this page only */ }
}

function chime(box) {
  box.dataset.lastSound = muted() ? "call:muted" : "call";
  if (muted()) return;
  tones([[523, 0.12], [659, 0.12], [784, 0.12], [1047, 0.2]], { volume: 0.1 });
}

function currentPage() {
  const table = document.querySelector("#table[data-table]");
  const active = document.activeElement;
  const typing = Boolean(active && active.matches("input:not([type=hidden]), textarea") && active.value);
  return {
    tableId: table ? Number(table.dataset.table) : null,
    tournamentId: table && table.dataset.tournament ? Number(table.dataset.tournament) : null,
    path: location.pathname,
    typing,
  };
}

function el(tag, attrs, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) node.setAttribute(k, v);
  if (text !== undefined) node.textContent = text;
  return node;
}

function container() {
  let box = document.querySelector("[data-player-calls]");
  if (!box) {
    box = el("section", { class: "player-calls", "data-player-calls": "", "aria-live": "assertive", "aria-label": "Chiamate al tavolo" });
    document.body.append(box);
  }
  return box;
}

const timers = new Map();

/** Show (or refresh) one call on this page, and act on it as `plan` says. */
export function showCall(call) {
  const page = currentPage();
  const dismissed = readStore()[String(call && call.key)] === DISMISSED;
  const planned = plan(call, page);
  const what = planned === "wait" && dismissed ? "notice" : planned; // hidden once: no countdown again
  if (what === "none") return;
  const go = () => { window.location.assign(call.url); };
  if (what === "go") { go(); return; }
  const box = container();
  const key = String(call.key);
  let item = box.querySelector(`[data-call="${CSS.escape(key)}"]`);
  const fresh = !item;
  if (fresh) {
    item = el("div", { class: "player-call", role: "alertdialog", "data-call": key, "data-testid": "player-call", "aria-labelledby": `call-${key}` });
    item.append(el("strong", { class: "player-call__title", id: `call-${key}` }, String(call.title || "")));
    item.append(el("p", { class: "player-call__text" }, String(call.text || "")));
    item.append(el("p", { class: "player-call__count", "data-role": "call-count" }));
    item.append(el("p", { class: "player-call__warning", "data-role": "call-warning" }));
    const actions = el("div", { class: "player-call__actions" });
    const button = call.url ? el("a", { class: "button button--gold", href: call.url, "data-testid": "call-go" }, String(call.action || "Vai al tavolo")) : null;
    const later = el("button", { type: "button", class: "button button--ghost", "data-testid": "call-dismiss" }, button ? "Nascondi" : "Ho capito");
    later.addEventListener("click", () => {
      clearInterval(timers.get(key));
      timers.delete(key);
      item.remove();
      const store = readStore();
      store[key] = DISMISSED;
      writeStore(store);
    });
    if (button) actions.append(button);
    actions.append(later);
    item.append(actions);
    const ask = call.kind === "notice" ? null : soundAsk(document); // its chime needs unlocked audio
    if (ask) item.append(ask);
    box.append(item);
    if (call.kind === "notice") { item.classList.add("player-call--notice"); item.dataset.code = String(call.code || ""); return; }
    chime(box);
    button.focus({ preventScroll: true });
  }
  if (call.kind === "notice") return;
  const sanction = Date.parse(call.sanction_at || "");
  const store = readStore();
  // the countdown leaves the player a few seconds at his table before his first decision runs out
  const seconds = Number.isNaN(sanction) ? COUNTDOWN_SECONDS : Math.max(2, Math.min(COUNTDOWN_SECONDS, (sanction - Date.now()) / 1000 - 5));
  const ends = what === "wait" ? countdownEnd(store, key, Date.now(), seconds) : null;
  writeStore(store);
  const count = item.querySelector("[data-role=call-count]");
  const warning = item.querySelector("[data-role=call-warning]");
  const tick = () => {
    const now = Date.now();
    if (ends !== null) {
      const left = (ends - now) / 1000;
      count.textContent = `Ti portiamo al tavolo tra ${Math.max(0, Math.ceil(left))} s`;
      item.dataset.countdown = String(Math.max(0, Math.ceil(left)));
      if (left <= 0) { clearInterval(timers.get(key)); timers.delete(key); go(); return; }
    } else {
      count.textContent = "";
    }
    if (!Number.isNaN(sanction)) {
      const left = (sanction - now) / 1000;
      warning.textContent = left > 0
        ? `${call.warning || ""} Tempo rimasto: ${clock(left)}`.trim()
        : String(call.warning || "");
      item.classList.toggle("player-call--late", left <= 15);
    } else {
      warning.textContent = String(call.warning || "");
    }
  };
  clearInterval(timers.get(key));
  tick();
  timers.set(key, setInterval(tick, 250));
}
