// The slot tournament's page: one player at his own "Pierino Tenta la Fortuna" machine.
//
// The socket /ws/torneo/<id>/slot/ (tournaments/consumers.py) brings "slot.view" (his session's
// view, its version, the standings), "slot.result" after each action (the engine's events, the new
// view) and "slot.standings" every 5 s; the page sends {"type": "act", "action", "version"} and
// "sync". Everything drawn comes from the server's view: the reels' stops, the lines won, the
// doors, slates and wheel (games/slot/engine.py); the page only animates it. The arithmetic is in
// slot/logic.js (tested by node), the symbols in slot/symbols.js, the sounds in slot/sounds.js.

import { t } from "./slot/i18n.js";
import {
  blurCells, chips, clock, countDuration, countValue, lineLift, maxUnit, polyline, stepUnit,
  stopTimes, wheelAngle, winningCells,
} from "./slot/logic.js";
import { symbolSvg } from "./slot/symbols.js";
import { sound, soundOn, setSoundOn } from "./slot/sounds.js";

const root = document.getElementById("slot");
const M = JSON.parse(document.getElementById("slot-machine").textContent);
const $ = (role) => root.querySelector(`[data-role="${role}"]`);
const tournamentId = Number(root.dataset.tournament);
const SVG_NS = "http://www.w3.org/2000/svg";

const state = {
  view: null,
  version: 0,
  unit: 1,
  spinning: false, // the reels turn (a spin sent, its result not all shown yet)
  result: null, // the result of the spin being animated, once the server answered
  stopAsked: false,
  auto: 0, // automatic spins left
  counting: null, // the win counting up: {from, to, start, duration, done}
  shownCredit: null,
  standings: null,
  clockAnchor: null, // {seconds, at}
  busy: false, // an action sent, not answered
  freePlaying: null, // free spins being shown: {spins, i, timer}
  pierinoPlaying: null,
  lineCycle: null,
};

// --- DOM helpers --------------------------------------------------------------------------------

function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else node.setAttribute(k, v);
  }
  if (text !== undefined) node.textContent = text;
  return node;
}

function notice(text, sticky = false) {
  const box = $("notice");
  box.textContent = text;
  box.hidden = !text;
  clearTimeout(notice.timer);
  if (text && !sticky) notice.timer = setTimeout(() => { box.hidden = true; }, 4000);
}

// --- the reels ----------------------------------------------------------------------------------

const reels = [];

function cell(code) {
  const node = el("div", { class: `slot-cell sym-${code === "_" ? "blank" : code}`, "data-symbol": code });
  node.innerHTML = symbolSvg(code); // static markup of our own (symbols.js), never the server's text
  if (M.names[code]) node.append(el("span", { class: "slot-cell__name" }, M.names[code]));
  return node;
}

function buildReels() {
  const box = $("reels");
  box.textContent = "";
  for (let r = 0; r < 5; r += 1) {
    const reel = el("div", { class: "slot-reel", "data-reel": String(r) });
    const track = el("div", { class: "slot-track" });
    reel.append(track);
    box.append(reel);
    reels.push({ reel, track });
    showColumn(r, M.strips[r].slice(r * 3, r * 3 + 3));
  }
}

function showColumn(r, column) {
  const { reel, track } = reels[r];
  track.textContent = "";
  for (const code of column) track.append(cell(code));
  reel.classList.remove("is-spinning");
  reel.dataset.window = column;
}

function showWindow(window) {
  window.forEach((column, r) => showColumn(r, column));
}

function spinReel(r) {
  const { reel, track } = reels[r];
  reel.style.setProperty("--cell-h", `${Math.max(20, reel.clientHeight / 3)}px`);
  track.textContent = "";
  for (const code of blurCells(M.strips[r], 12, Math.random)) track.append(cell(code));
  reel.classList.add("is-spinning");
}

function landReel(r, column) {
  showColumn(r, column);
  const { reel } = reels[r];
  reel.classList.add("is-landing");
  setTimeout(() => reel.classList.remove("is-landing"), 260);
  sound("stop");
}

// --- the lines won ------------------------------------------------------------------------------

function clearLines() {
  $("lines").textContent = "";
  $("linewin").textContent = "";
  clearInterval(state.lineCycle);
  state.lineCycle = null;
  for (const c of root.querySelectorAll(".slot-cell.is-won")) c.classList.remove("is-won");
}

function drawLines(won) {
  clearLines();
  if (!won || !won.length) return;
  const svg = $("lines");
  for (const w of won) {
    const rows = M.paylines[w.line - 1];
    const line = document.createElementNS(SVG_NS, "polyline");
    line.setAttribute("points", polyline(rows, {}, lineLift(w.line)));
    line.setAttribute("class", `slot-line slot-line--${w.line % 6}`);
    line.dataset.line = String(w.line);
    svg.append(line);
  }
  svg.dataset.lines = won.map((w) => w.line).join(",");
  let i = 0;
  const show = () => {
    const w = won[i % won.length];
    for (const c of root.querySelectorAll(".slot-cell.is-won")) c.classList.remove("is-won");
    for (const [reel, row] of winningCells(M.paylines[w.line - 1], w.count)) {
      reels[reel].track.children[row]?.classList.add("is-won");
    }
    for (const l of svg.children) l.classList.toggle("is-current", l.dataset.line === String(w.line));
    $("linewin").textContent = t("Linea {n}: {count} × {symbol} = {pay}", {
      n: w.line, count: w.count, symbol: M.names[w.symbol] || w.symbol, pay: chips(w.pay),
    });
    i += 1;
  };
  show();
  if (won.length > 1) state.lineCycle = setInterval(show, 1400);
}

// --- the meters ---------------------------------------------------------------------------------

function setCredit(value) {
  state.shownCredit = value;
  $("credit").textContent = chips(value);
}

function setWin(value) {
  $("win").textContent = chips(value);
}

function countUp(from, to, bet, then) {
  finishCount();
  const duration = countDuration(to - from, bet);
  const creditEnd = state.view ? state.view.credit : null;
  const creditFrom = creditEnd !== null ? creditEnd - (to - from) : null;
  if (duration === 0) { setWin(to); if (creditEnd !== null) setCredit(creditEnd); then?.(); return; }
  root.dataset.counting = "1";
  sound("win");
  const c = { from, to, start: performance.now(), duration, then, creditFrom, creditEnd };
  state.counting = c;
  const tick = () => {
    if (state.counting !== c) return;
    const elapsed = performance.now() - c.start;
    const v = countValue(c.from, c.to, elapsed, c.duration);
    setWin(v);
    if (c.creditEnd !== null) setCredit(c.creditFrom + (v - c.from));
    if (elapsed >= c.duration) { finishCount(); return; }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
}

/** Skip the count: the win and the credit at once (the "Vincita" box, or a new spin). */
function finishCount() {
  const c = state.counting;
  if (!c) return;
  state.counting = null;
  root.dataset.counting = "0";
  setWin(c.to);
  if (c.creditEnd !== null) setCredit(c.creditEnd);
  c.then?.();
  renderControls();
}

// --- controls -----------------------------------------------------------------------------------

function phase() {
  return state.view ? state.view.phase : "";
}

function canSpin() {
  const v = state.view;
  return Boolean(v && !v.over && v.phase === "spin" && maxUnit(v.credit) >= 1 && !state.busy && !timeOver());
}

function timeOver() {
  const a = state.clockAnchor;
  return a !== null && secondsLeft() <= 0;
}

function secondsLeft() {
  const a = state.clockAnchor;
  if (!a) return null;
  return a.seconds - (performance.now() - a.at) / 1000;
}

function renderControls() {
  const v = state.view;
  const top = v ? Math.max(1, maxUnit(v.credit)) : 1;
  if (state.unit > top) state.unit = top;
  $("unit").textContent = String(state.unit);
  $("total-bet").textContent = chips(state.unit * M.lines);
  const idle = canSpin() && !state.spinning && !state.feature;
  $("bet-down").disabled = !idle || state.unit <= M.min_unit;
  $("bet-up").disabled = !idle || state.unit >= Math.min(M.max_unit, top);
  $("max-bet").disabled = !idle;
  const spin = $("spin");
  if (state.spinning) {
    spin.textContent = t("STOP");
    spin.dataset.mode = "stop";
    spin.disabled = false;
  } else {
    spin.textContent = t("GIRA");
    spin.dataset.mode = "spin";
    spin.disabled = !idle;
  }
  const auto = $("auto");
  auto.textContent = state.auto > 0 ? t("Stop Auto ({n})", { n: state.auto }) : t("Auto Start");
  auto.dataset.mode = state.auto > 0 ? "stop" : "start";
  auto.disabled = state.auto === 0 && !idle;
  $("auto-n").disabled = state.auto > 0;
  root.dataset.phase = phase();
  root.dataset.spinning = state.spinning ? "1" : "0";
  root.dataset.idle = idle && !state.counting ? "1" : "0";
}

function send(action) {
  if (!socket || socket.readyState !== WebSocket.OPEN) { notice(t("Tentativo di riconnessione in corso"), true); return false; }
  state.busy = true;
  root.dataset.busy = "1";
  root.dataset.sent = `${action.type}@${state.version}:${phase()}`; // what the last error answered
  socket.send(JSON.stringify({ type: "act", action, version: state.version }));
  return true;
}

function spin() {
  if (!canSpin() || state.spinning) return;
  if (state.unit * M.lines > state.view.credit) { notice(t("Credito insufficiente per questa puntata")); return; }
  finishCount();
  clearLines();
  state.spinning = true;
  state.stopAsked = false;
  state.result = null;
  state.spinStarted = performance.now();
  setWin(0);
  setCredit(state.view.credit - state.unit * M.lines);
  for (let r = 0; r < 5; r += 1) spinReel(r);
  sound("spin");
  if (!send({ type: "gira", amount: state.unit })) { state.spinning = false; showWindow(state.view.spin?.window || []); }
  renderControls();
}

function stop() {
  state.stopAsked = true;
  if (state.result) landAll(true);
}

function onSpinButton() {
  if (state.spinning) stop();
  else spin();
}

function maxBet() {
  if (!canSpin() || state.spinning) return;
  state.unit = Math.min(M.max_unit, maxUnit(state.view.credit));
  renderControls();
  spin(); // "Puntata Massima": the highest unit bet, and the reels turn
}

function toggleAuto() {
  if (state.auto > 0) { state.auto = 0; renderControls(); return; }
  state.auto = Number($("auto-n").value) || 10;
  renderControls();
  spin();
  if (!state.spinning) state.auto = 0;
  renderControls();
}

function afterSpinShown() {
  // called when a spin (and its count) is over and no choice waits
  if (state.auto > 0) {
    state.auto -= 1;
    if (state.auto > 0 && canSpin() && state.unit * M.lines <= state.view.credit) {
      setTimeout(() => { if (state.auto > 0 && !state.spinning) spin(); }, 450);
    } else {
      state.auto = 0;
    }
  }
  renderControls();
}

// --- a spin's result ----------------------------------------------------------------------------

function landAll(now) {
  const res = state.result;
  if (!res || state.landing || !state.spinning) return; // landed once only (Stop, or its time)
  state.landing = true;
  const window = res.view.spin.window;
  const elapsed = performance.now() - state.spinStarted;
  const times = stopTimes(5);
  let landed = 0;
  const done = () => {
    landed += 1;
    if (landed === 5) { state.landing = false; state.spinning = false; state.result = null; showSpinOutcome(res); }
  };
  times.forEach((at, r) => {
    const wait = now ? 0 : Math.max(0, at - elapsed);
    if (wait === 0) { landReel(r, window[r]); done(); } else setTimeout(() => { landReel(r, window[r]); done(); }, wait);
  });
}

function showSpinOutcome(res) {
  const view = res.view;
  const spinView = view.spin;
  drawLines(spinView.lines);
  const firstWin = spinView.line_win + spinView.pierino_pay;
  // the credit counts up only for what the reels paid; the features' wins come with them
  const featuresWin = spinView.win - firstWin;
  state.view = { ...view, credit: view.credit - featuresWin };
  countUp(0, firstWin, spinView.bet, () => {
    if (state.version !== res.version) return; // the session moved on meanwhile (a resync)
    state.view = view;
    renderControls();
    if (view.phase !== "spin") startFeature(view, res.events);
    else if (spinView.free && spinView.free.over) showFreeSpins(view);
    else if (spinView.wheel && spinView.wheel.entered !== null) showWheelResult(view, res.events);
    else afterSpinShown();
  });
  renderControls();
}

function onResult(msg) {
  state.busy = false;
  root.dataset.busy = "0";
  state.version = msg.version;
  root.dataset.version = String(msg.version);
  const first = msg.events[0]?.type;
  if (first === "giro") {
    state.result = msg;
    const min = 700;
    const elapsed = performance.now() - state.spinStarted;
    if (state.stopAsked) landAll(true);
    else setTimeout(() => landAll(false), Math.max(0, min - elapsed));
    return;
  }
  // a choice answered (door, slate, wheel)
  onChoiceResult(msg);
}

// --- features: bonus doors, slates, Pierino's wheel ---------------------------------------------

function featureBox() {
  const box = $("feature");
  box.hidden = false;
  box.textContent = "";
  return box;
}

function closeFeature() {
  const box = $("feature");
  box.hidden = true;
  box.textContent = "";
  box.dataset.kind = "";
  state.feature = null;
  renderControls();
}

function startFeature(view) {
  if (state.auto > 0) { state.auto = 0; notice(t("Auto Start interrotto: scegli tu")); }
  const spinView = view.spin;
  if (view.phase === "bonus") showDoors(spinView);
  else if (view.phase === "slates") showSlates(spinView);
  else if (view.phase === "wheel") showWheel(spinView);
  renderControls();
}

function showDoors(spinView, opened = null) {
  state.feature = "bonus";
  const box = featureBox();
  box.dataset.kind = "bonus";
  const bonus = spinView.bonus;
  const level = bonus.level;
  box.append(el("h2", { class: "slot-feature__title" }, t("Bonus: scegli una porta")));
  const ladder = el("ol", { class: "slot-ladder", "data-testid": "bonus-levels" });
  M.bonus.multipliers.forEach((m, i) => {
    const li = el("li", { class: i + 1 === level ? "is-current" : i + 1 < level ? "is-passed" : "" }, `${i + 1}° · ×${m}`);
    ladder.append(li);
  });
  box.append(ladder);
  box.append(el("p", { class: "slot-feature__info", "data-testid": "bonus-info" },
    t("Livello {level} · vincita {win}", { level, win: chips(spinView.bet * M.bonus.multipliers[level - 1]) })));
  const doors = el("div", { class: "slot-doors" });
  for (let d = 0; d < M.bonus.doors; d += 1) {
    const b = el("button", { type: "button", class: "slot-door", "data-door": String(d), "data-testid": `door-${d}` });
    b.append(el("span", { class: "slot-door__n" }, String(d + 1)));
    b.setAttribute("aria-label", t("Porta {n}", { n: d + 1 }));
    if (opened && opened.door === d) {
      b.classList.add("is-open", `is-${opened.found}`);
      b.append(el("span", { class: "slot-door__who" }, opened.found === "maestra" ? "Maestra" : "Preside"));
    }
    b.addEventListener("click", () => {
      if (state.busy || phase() !== "bonus") return;
      sound("click");
      send({ type: "porta", door: d });
    });
    doors.append(b);
  }
  box.append(doors);
}

function showSlates(spinView, opened = null) {
  state.feature = "slates";
  const box = featureBox();
  box.dataset.kind = "slates";
  const free = spinView.free;
  box.append(el("h2", { class: "slot-feature__title" }, t("Free spin: scegli una lavagnetta")));
  box.append(el("p", { class: "slot-feature__info", "data-testid": "free-info" },
    t("{spins} giri gratuiti · moltiplicatore ×{mult}", { spins: free.awarded, mult: free.multiplier })));
  const grid = el("div", { class: "slot-slates" });
  free.slates.forEach((s, i) => {
    const b = el("button", { type: "button", class: "slot-slate", "data-slate": String(i), "data-testid": `slate-${i}` });
    if (s === null) {
      b.append(el("span", { class: "slot-slate__q" }, "?"));
      b.setAttribute("aria-label", t("Lavagnetta {n}", { n: i + 1 }));
      b.addEventListener("click", () => {
        if (state.busy || phase() !== "slates") return;
        sound("click");
        send({ type: "lavagnetta", slate: i });
      });
    } else {
      b.disabled = true;
      b.classList.add("is-turned");
      const [spins, mult] = s;
      const words = [];
      if (spins) words.push(t("+{spins} giri", { spins }));
      if (mult) words.push(t("moltiplicatore +{mult}", { mult }));
      b.append(el("span", { class: "slot-slate__text" }, words.length ? words.join(" · ") : "Preside"));
      if (!spins && !mult) b.classList.add("is-preside");
      if (opened === i) b.classList.add("is-new");
    }
    grid.append(b);
  });
  box.append(grid);
}

let wheelTimer = null;

function showWheel(spinView) {
  state.feature = "wheel";
  clearLines();
  const box = featureBox();
  box.dataset.kind = "wheel";
  const chance = spinView.unit;
  box.append(el("h2", { class: "slot-feature__title" }, t("Ruota di Pierino")));
  box.append(el("p", { class: "slot-feature__info" }, t("Verde: entri nella modalità Pierino ({chance}%). Rosso: torni al gioco.", { chance })));
  const wheel = el("div", { class: "slot-wheel", "data-testid": "wheel" });
  const disc = el("div", { class: "slot-wheel__disc" });
  disc.style.setProperty("--green", `${chance * 3.6}deg`);
  const marker = el("div", { class: "slot-wheel__marker" });
  wheel.append(disc, marker);
  box.append(wheel);
  const go = el("button", { type: "button", class: "slot-btn slot-btn--spin", "data-testid": "wheel-start" }, t("INIZIA"));
  const count = el("p", { class: "slot-feature__hint" });
  let left = 30; // "oppure al massimo entro 30 secondi"
  const tick = () => {
    count.textContent = t("La ruota parte da sola tra {s} s", { s: left });
    if (left <= 0) start();
    left -= 1;
  };
  const start = () => {
    clearInterval(wheelTimer);
    if (state.busy || phase() !== "wheel") return;
    go.disabled = true;
    send({ type: "ruota" });
  };
  go.addEventListener("click", start);
  box.append(go, count);
  clearInterval(wheelTimer);
  tick();
  wheelTimer = setInterval(tick, 1000);
}

function onChoiceResult(msg) {
  const view = msg.view;
  const events = msg.events;
  const prev = state.view;
  state.view = view;
  const spinView = view.spin;
  const kind = events[0]?.type;
  if (kind === "porta") {
    const door = events[0];
    sound(door.found === "maestra" ? "good" : "bad");
    showDoors(prev.spin, door);
    notice(door.found === "maestra"
      ? t("La Maestra! Sali al livello {level}", { level: Math.min(6, prev.spin.bonus.level + 1) })
      : t("La Preside! Il bonus finisce"));
    const ended = events.find((e) => e.type === "bonus_vinto");
    setTimeout(() => {
      if (!ended) { showDoors(spinView); renderControls(); return; }
      featureWon(t("Bonus vinto: {win}", { win: chips(ended.win) }), ended.win, () => nextAfterFeature(view, events));
    }, 900);
  } else if (kind === "lavagnetta") {
    const slate = events[0];
    const preside = !slate.spins && !slate.multiplier;
    sound(preside ? "bad" : "good");
    showSlates(spinView, slate.slate);
    if (preside) {
      notice(t("La Preside: si torna in classe!"));
      setTimeout(() => showFreeSpins(view, events), 1100);
    }
  } else if (kind === "ruota") {
    showWheelResult(view, events);
  } else if (kind === "fine_tempo") {
    closeFeature();
  }
  renderControls();
}

function featureWon(text, win, then) {
  const box = featureBox();
  box.dataset.kind = "won";
  box.append(el("h2", { class: "slot-feature__title" }, text));
  const ok = el("button", { type: "button", class: "slot-btn", "data-testid": "feature-continue" }, t("Continua"));
  box.append(ok);
  let gone = false;
  const go = () => { if (gone) return; gone = true; closeFeature(); then(); };
  ok.addEventListener("click", go);
  const before = Number(($("win").textContent || "0").replace(/\./g, "")) || 0;
  const spinView = state.view.spin;
  countUp(before, before + win, spinView ? spinView.bet : 1);
  ok.focus({ preventScroll: true });
}

/** After a feature: the next one the spin won, or back to the reels. */
function nextAfterFeature(view, events = []) {
  if (view.phase !== "spin") { startFeature(view); return; }
  const spinView = view.spin;
  if (spinView.wheel && spinView.wheel.entered !== null && !events.some((e) => e.type === "ruota")) {
    showWheelResult(view, events);
    return;
  }
  closeFeature();
  afterSpinShown();
}

function showFreeSpins(view, events = []) {
  const spinView = view.spin;
  const free = spinView.free;
  closeFeature();
  state.feature = "free";
  const spins = free.spins;
  let i = 0;
  let total = 0;
  const box = $("feature");
  const banner = el("div", { class: "slot-banner", "data-testid": "free-banner" });
  const skip = el("button", { type: "button", class: "slot-btn slot-btn--small", "data-testid": "free-skip" }, t("Salta"));
  box.hidden = false;
  box.textContent = "";
  box.dataset.kind = "free";
  box.append(banner, skip);
  root.dataset.free = "1";
  const finish = () => {
    clearTimeout(state.freeTimer);
    state.freeTimer = null;
    root.dataset.free = "0";
    if (spins.length) showWindow(spins[spins.length - 1].window);
    setWin(free.win);
    featureWon(t("Free spin finiti: {played} giri, vincita {win}", { played: spins.length, win: chips(free.win) }), 0, () => nextAfterFeature(view, events));
  };
  skip.addEventListener("click", finish);
  const step = () => {
    if (i >= spins.length) { finish(); return; }
    const s = spins[i];
    showWindow(s.window);
    drawLines(s.lines.map((w) => ({ ...w, pay: w.pay * spinView.unit * free.multiplier })));
    total += s.win;
    setWin(total);
    banner.textContent = `${t("Giro gratuito {n} di {of}", { n: i + 1, of: spins.length })} · ×${free.multiplier}`;
    sound(s.win ? "win" : "stop");
    i += 1;
    state.freeTimer = setTimeout(step, s.win ? 900 : 450);
  };
  step();
}

function showWheelResult(view, events = []) {
  const spinView = view.spin;
  const wheelView = spinView.wheel;
  if (!$("feature").querySelector(".slot-wheel")) showWheel(spinView);
  clearInterval(wheelTimer);
  const box = $("feature");
  box.querySelector("[data-testid=wheel-start]")?.setAttribute("disabled", "");
  const disc = box.querySelector(".slot-wheel__marker");
  const angle = wheelAngle(wheelView.entered, spinView.unit, Math.random());
  sound("spin");
  requestAnimationFrame(() => { disc.style.transform = `rotate(${angle}deg)`; });
  box.querySelector(".slot-wheel").dataset.entered = wheelView.entered ? "1" : "0";
  setTimeout(() => {
    if (!wheelView.entered) {
      sound("bad");
      notice(t("Niente modalità Pierino: si torna al gioco"));
      closeFeature();
      nextAfterFeature(view, [...events, { type: "ruota" }]);
      return;
    }
    sound("good");
    notice(t("Entri nella modalità Pierino!"));
    showPierino(view, events);
  }, 2600);
}

function showPierino(view, events) {
  const spinView = view.spin;
  const wheelView = spinView.wheel;
  state.feature = "pierino";
  clearLines();
  const box = featureBox();
  box.dataset.kind = "pierino";
  const banner = el("div", { class: "slot-banner", "data-testid": "pierino-banner" });
  const skip = el("button", { type: "button", class: "slot-btn slot-btn--small", "data-testid": "pierino-skip" }, t("Salta"));
  box.append(banner, skip);
  root.classList.add("is-pierino");
  let i = 0;
  let points = 0;
  const finish = () => {
    clearTimeout(state.pierinoTimer);
    root.classList.remove("is-pierino");
    showWindow(spinView.window);
    featureWon(t("Pierino: {points} punti, vinci {prize} chips", { points: wheelView.points, prize: chips(wheelView.prize) }),
      wheelView.prize, () => nextAfterFeature(view, [...events, { type: "ruota" }]));
  };
  skip.addEventListener("click", finish);
  const step = () => {
    if (i >= wheelView.spins.length) { finish(); return; }
    const s = wheelView.spins[i];
    showWindow(s.window);
    points += s.points;
    banner.textContent = t("Pierino: giro {n} di 10 · {points} punti", { n: i + 1, points });
    sound(s.points ? "good" : "stop");
    i += 1;
    state.pierinoTimer = setTimeout(step, 800);
  };
  step();
}

// --- standings and clock ------------------------------------------------------------------------

function renderStandings(s) {
  state.standings = s;
  state.clockAnchor = { seconds: s.seconds_left, at: performance.now() };
  const list = $("standings");
  list.textContent = "";
  for (const row of s.best) {
    const li = el("li", { class: "slot-standings__row" });
    li.append(el("span", { class: "slot-standings__pos" }, `${row.position}°`),
      el("span", { class: "slot-standings__nick" }, row.nickname),
      el("span", { class: "slot-standings__credit" }, chips(row.credit)));
    list.append(li);
  }
  $("position").textContent = s.position ? t("{position}° su {entrants}", { position: s.position, entrants: s.entrants }) : "–";
  const result = $("result");
  if (s.result) {
    result.hidden = false;
    result.textContent = "";
    result.append(el("h2", { class: "slot-panel__title" }, t("Il torneo è finito")));
    result.append(el("p", { class: "slot-result__pos", "data-testid": "slot-placing" },
      t("Il tuo piazzamento: {position}° su {entrants}", { position: s.result.position, entrants: s.result.entrants })));
    const prize = s.result.paid ? (s.result.prize ? t("Premio: {prize}", { prize: s.result.prize }) : t("Nessun premio")) : t("Premi in pagamento…");
    result.append(el("p", { class: "slot-result__prize", "data-testid": "slot-prize" }, prize));
    root.dataset.finished = s.result.paid ? "paid" : "1";
  }
  renderClock();
}

function renderClock() {
  const left = secondsLeft();
  if (left === null) return;
  const over = left <= 0;
  $("clock").textContent = clock(left);
  $("clock").classList.toggle("is-late", left <= 30 && !over);
  const extra = state.view && state.extra;
  $("clock-label").textContent = over ? t("Tempo scaduto") : extra ? t("Minuto in più per la parità") : t("Tempo rimasto");
  const flipped = root.dataset.over !== (over ? "1" : "0");
  root.dataset.over = over ? "1" : "0";
  if (over && state.auto) state.auto = 0;
  if (flipped) renderControls(); // the time's end takes the controls away on the same tick
}

// --- the socket ---------------------------------------------------------------------------------

let socket = null;
let retries = 0;
let firstDrop = null;

function onView(msg) {
  if (msg.version < state.version) return; // an answer to an older "sync": the page is ahead of it
  state.version = msg.version;
  root.dataset.version = String(msg.version);
  state.extra = msg.extra;
  state.busy = false;
  root.dataset.busy = "0";
  const v = msg.view;
  const wasSpinning = state.spinning;
  state.view = v;
  state.spinning = false;
  state.landing = false;
  if (v.spin) {
    showWindow(v.spin.window);
    if (!wasSpinning) state.unit = v.spin.unit;
  }
  setCredit(v.credit);
  setWin(v.spin ? v.spin.win : 0);
  if (v.phase !== "spin" && !v.over) startFeature(v);
  else if (state.feature && state.feature !== "free" && state.feature !== "pierino") closeFeature();
  renderStandings(msg.standings);
  renderControls();
}

function onMessage(event) {
  let msg;
  try { msg = JSON.parse(event.data); } catch { return; }
  if (msg.type === "slot.view") onView(msg);
  else if (msg.type === "slot.result") onResult(msg);
  else if (msg.type === "slot.standings") {
    renderStandings(msg);
    // the session moved without us (its time ran out: a pending choice answered): catch up
    if (msg.version > state.version && !state.busy && !state.spinning) socket.send(JSON.stringify({ type: "sync" }));
  } else if (msg.type === "error") {
    state.busy = false;
    root.dataset.busy = "0";
    if (state.spinning) { state.spinning = false; if (state.view?.spin) showWindow(state.view.spin.window); else showWindow(M.strips.map((s, r) => s.slice(r * 3, r * 3 + 3))); if (state.view) setCredit(state.view.credit); }
    state.auto = 0;
    notice(msg.message || "", false);
    root.dataset.lastError = `${msg.code || ""} (${root.dataset.sent || ""})`;
    socket.send(JSON.stringify({ type: "sync" }));
    renderControls();
  }
}

const FINAL = { 4401: "Sessione scaduta: accedi di nuovo", 4403: "Non giochi in questo torneo", 4404: "Non giochi in questo torneo" };

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  socket = new WebSocket(`${scheme}://${location.host}/ws/torneo/${tournamentId}/slot/`);
  socket.addEventListener("open", () => {
    root.dataset.connected = "1";
    if (retries) notice(t("Connessione ristabilita"));
    retries = 0;
    firstDrop = null;
  });
  socket.addEventListener("message", onMessage);
  socket.addEventListener("close", (event) => {
    root.dataset.connected = "0";
    state.busy = false;
    if (FINAL[event.code]) { notice(t(FINAL[event.code]), true); return; }
    // S8: the client retries for 2 minutes; the credit waits for the player
    firstDrop = firstDrop ?? Date.now();
    if (Date.now() - firstDrop > 120_000) { notice(t("Tentativo di riconnessione fallito - controlla la tua connessione"), true); return; }
    retries += 1;
    notice(t("Tentativo di riconnessione in corso"), true);
    setTimeout(connect, Math.min(5000, 500 * retries) + Math.random() * 500);
  });
}

// --- the dialogs: paytable (with the 30 lines) and rules ----------------------------------------

function buildPaytable() {
  const table = root.ownerDocument.querySelector("[data-role=paytable]");
  for (const [code, pays] of Object.entries(M.pays)) {
    const row = el("div", { class: "slot-pay", "data-testid": `pay-${code}` });
    const art = cell(code);
    art.classList.add("slot-cell--small");
    row.append(art);
    const list = el("ul", { class: "slot-pay__list" });
    pays.forEach((p, i) => list.append(el("li", {}, `${i + 3}× · ${p}`)));
    row.append(list);
    table.append(row);
  }
  const specials = root.ownerDocument.querySelector("[data-role=specials]");
  const fs = M.free_spins;
  const words = {
    S: `3 ${M.names.S} (rulli 1–3): bonus, ${M.bonus.doors} porte; livelli ×${M.bonus.multipliers.join(", ×")} la puntata totale`,
    F: `3 / 4 / 5 ${M.names.F} ovunque: ${fs["3"]} / ${fs["4"]} / ${fs["5"]} giri gratuiti, fino a ${M.free_spin_cap}`,
    P: `4 o 5 ${M.names.P} ovunque: ${M.pierino_pay} × la puntata totale e la ruota di Pierino`,
    W: `${M.names.W} (Wild): sostituisce i simboli normali`,
  };
  for (const [code, text] of Object.entries(words)) {
    const row = el("div", { class: "slot-pay" });
    const art = cell(code);
    art.classList.add("slot-cell--small");
    row.append(art, el("p", { class: "slot-pay__text" }, text));
    specials.append(row);
  }
  const maps = root.ownerDocument.querySelector("[data-role=linemaps]");
  M.paylines.forEach((rows, i) => {
    const fig = el("figure", { class: "slot-linemap" });
    const svg = document.createElementNS(SVG_NS, "svg");
    svg.setAttribute("viewBox", "0 0 50 30");
    for (let r = 0; r < 5; r += 1) {
      for (let row = 0; row < 3; row += 1) {
        const rect = document.createElementNS(SVG_NS, "rect");
        rect.setAttribute("x", String(r * 10 + 1));
        rect.setAttribute("y", String(row * 10 + 1));
        rect.setAttribute("width", "8");
        rect.setAttribute("height", "8");
        rect.setAttribute("class", rows[r] === row ? "on" : "off");
        svg.append(rect);
      }
    }
    fig.append(svg, el("figcaption", {}, String(i + 1)));
    maps.append(fig);
  });
}

function openDialog(name) {
  const dialog = document.querySelector(`[data-dialog="${name}"]`);
  if (dialog && !dialog.open) dialog.showModal();
}

// --- start --------------------------------------------------------------------------------------

function renderSound() {
  const b = $("sound");
  const on = soundOn();
  b.textContent = on ? t("Audio attivo") : t("Audio spento");
  b.setAttribute("aria-pressed", on ? "true" : "false");
}

buildReels();
buildPaytable();
$("spin").addEventListener("click", onSpinButton);
$("bet-up").addEventListener("click", () => { state.unit = stepUnit(state.unit, 1); sound("click"); renderControls(); });
$("bet-down").addEventListener("click", () => { state.unit = stepUnit(state.unit, -1); sound("click"); renderControls(); });
$("max-bet").addEventListener("click", maxBet);
$("auto").addEventListener("click", toggleAuto);
$("win-box").addEventListener("click", finishCount);
$("sound").addEventListener("click", () => { setSoundOn(!soundOn()); renderSound(); sound("click"); });
for (const b of root.querySelectorAll("[data-open]")) b.addEventListener("click", () => openDialog(b.dataset.open));
document.addEventListener("keydown", (e) => {
  if (e.code !== "Space" || e.target.closest("button, select, input, dialog")) return;
  e.preventDefault();
  onSpinButton();
});
setInterval(renderClock, 250);
renderSound();
renderControls();
connect();
