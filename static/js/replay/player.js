// The replay of a past hand on the table client's own felt.
//
// The server sends frames (lobby.replay.replay_frames): a player's are his seat's views only, so
// nothing hidden is ever here to hide; staff frames carry the public view plus every seat's own
// view, merged below so that each seat box shows its cards. The felt, seats and cards are drawn by
// the live table's modules (../table/model.js, felt.js, dom.js): one look for play and replay.
//
// DOM contract (tests): #replay carries data-ready ("1" once drawn), data-step (the frame shown),
// data-total, data-playing ("1"/"0"); [data-role=seats] [data-seat] boxes, cards [data-card];
// [data-role=hand] the viewer's own cards; [data-role=steps] li[data-step] (aria-current on the
// step shown); buttons [data-go=first|prev-chapter|prev|play|next|next-chapter|last].

import { styleForGame } from "../cards.js";
import { card, h, settings } from "../table/dom.js";
import { buildModel } from "../table/model.js";
import { centre, detailsEl, meldsEl, placeSeats, resultEl, scoresEl, seatEl, seatName } from "../table/felt.js";

const WINDOW = 100;
const SEAT_CARD_FIELDS = ["cards", "up", "covered", "count"];

export function startReplay(root) {
  const $ = (role) => root.querySelector(`[data-role="${role}"]`);
  const t = (key) => root.dataset[`t${key.charAt(0).toUpperCase()}${key.slice(1)}`] || key;
  const staff = root.dataset.viewer === "staff";
  const viewerSeat = staff ? null : Number(root.dataset.viewer);
  const frames = new Map();
  let meta = null;
  let index = 0;
  let timer = null;
  let pending = null;

  settings.style = styleForGame(root.dataset.deckStyle, root.dataset.italianDeck === "1");
  settings.money = root.dataset.family !== "partite";
  settings.play = root.dataset.realm === "play";

  function notice(text) {
    const el = $("notice");
    el.textContent = text;
    el.hidden = !text;
  }

  async function load(start) {
    const url = `${root.dataset.url}?start=${start}&count=${WINDOW}`;
    const res = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
    const data = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(data.message || String(res.status));
    meta = data;
    for (const f of data.frames) frames.set(f.index, f);
  }

  async function ensure(i) {
    if (frames.has(i)) return;
    if (!pending) pending = load(Math.max(0, i - Math.floor(WINDOW / 4))).finally(() => { pending = null; });
    await pending;
    if (!frames.has(i)) await load(i);
  }

  // --- one frame on the felt -------------------------------------------------------------------
  function payloadOf(frame, view, seat) {
    return { view, seat, seats: meta.seats.map((s) => ({ number: s.number, nickname: s.nickname })), to_act: frame.to_act, over: frame.over };
  }

  /** The public view with what a seat's own view shows in its place (a covered card, null, made
   * visible; same shapes only): staff see the centre's covered cards too (Chemin de fer's punto). */
  function reveal(pub, own) {
    if (pub === null || pub === undefined) return isCardish(own) ? own : pub;
    if (Array.isArray(pub)) return Array.isArray(own) && own.length === pub.length ? pub.map((x, i) => reveal(x, own[i])) : pub;
    if (typeof pub === "object") {
      if (!own || typeof own !== "object" || Array.isArray(own)) return pub;
      const out = {};
      for (const [k, v] of Object.entries(pub)) out[k] = k in own ? reveal(v, own[k]) : v;
      return out;
    }
    return pub;
  }
  const isCardish = (v) => (typeof v === "string" && /^([2-9TJQKA][hdcs]|X[1-4])$/.test(v))
    || (Array.isArray(v) && v.length > 0 && v.every((c) => c === null || isCardish(c)));

  function modelOf(frame) {
    const view = staff && frame.views ? Object.values(frame.views).reduce(reveal, frame.view) : frame.view;
    const model = buildModel(payloadOf(frame, view, viewerSeat));
    if (staff && frame.views) {
      // Every seat as that seat saw itself: its own cards from its own view.
      for (const [no, view] of Object.entries(frame.views)) {
        const ownModel = buildModel(payloadOf(frame, view, Number(no)));
        const own = ownModel.seats.get(Number(no));
        const seat = model.seats.get(Number(no));
        if (!own || !seat) continue;
        for (const k of SEAT_CARD_FIELDS) if (own[k] !== null && own[k] !== undefined) seat[k] = own[k];
        if (own.cards) { seat.up = null; seat.count = null; seat.covered = 0; }
        seat.info = own.info; // what the seat's own view says of it (a banking game's covered card)
        seat.handNote = ownModel.handNote; // the seat's own hand in words ("Tris di Q")
      }
    }
    return model;
  }

  function render() {
    const frame = frames.get(index);
    if (!frame) return;
    const model = modelOf(frame);
    settings.seatName = (n) => seatName(model, n);
    const p = { deadline: null, clocks: null, bank_seat: null };
    const seats = $("seats");
    seats.replaceChildren(...[...model.seats.values()].map((s) => {
      const el = seatEl(model, s, p);
      if (staff && s.cards) el.classList.add("seat--open");
      if (staff && s.handNote) el.append(h("div", { class: "seat-info seat-punto" }, s.handNote));
      return el;
    }));
    placeSeats(seats);
    seats.dataset.count = String(seats.children.length);
    for (const row of seats.querySelectorAll(".seat-cards .tc-cards")) fitRow(row);
    $("view").replaceChildren(centre(model, p));
    renderHand(model);
    const below = $("below");
    below.replaceChildren();
    if (model.melds) below.append(meldsEl(model, null));
    for (const el of [resultEl(model, model.result), resultEl(model, model.dealResult, t("dealResult")), scoresEl(model)]) if (el) below.append(el);
    const rest = detailsEl(model);
    if (rest) below.append(h("details", { class: "replay-rest" }, h("summary", {}, t("details")), rest));
    renderPosition();
    if (staff) renderStaff(frame);
    root.dataset.step = String(index);
    root.dataset.ready = "1";
  }

  /** Overlap a row of cards just enough to fit its box (the rank in each corner stays visible):
   * a seat's cards (class replay-fanned) or the viewer's hand (table.css's own "fanned"). */
  function fitRow(row, { gap = 3, fanned = "replay-fanned" } = {}) {
    if (row.classList.contains("tc-cards--fan")) return; // covered cards: already a fan
    const cards = [...row.children].filter((c) => c.classList.contains("tc-card"));
    const avail = row.clientWidth || row.parentElement.clientWidth;
    if (cards.length < 2 || !avail) return;
    const w = cards[0].getBoundingClientRect().width;
    const need = cards.length * (w + gap) - gap;
    if (need <= avail) return;
    row.classList.add(fanned);
    row.style.setProperty("--overlap", `${Math.min(w * 0.62, (need - avail) / (cards.length - 1) + gap)}px`);
  }

  function renderHand(model) {
    const el = $("hand");
    const me = viewerSeat !== null ? model.seats.get(viewerSeat) : null;
    const cards = (me && me.cards) || [];
    el.replaceChildren();
    el.hidden = !cards.length;
    if (!cards.length) return;
    const covered = new Set(model.handCovered || []);
    const row = h("div", { class: "hand-cards" });
    for (const code of cards) {
      const c = card(code, "hand");
      if (covered.has(code)) c.classList.add("covered-mine");
      row.append(c);
    }
    el.append(h("span", { class: "zone-title" }, t("yours"), model.handNote ? h("strong", { class: "hand-note" }, ` · ${model.handNote}`) : null), row);
    fitRow(row, { gap: 6, fanned: "fanned" });
  }

  // --- the position: counter, slider, chapter, step list ----------------------------------------
  function chapterAt(i) {
    let current = meta.chapters[0];
    for (const c of meta.chapters) if (c.index <= i) current = c;
    return current;
  }

  function renderPosition() {
    const last = meta.total - 1;
    const range = $("range");
    range.max = String(last);
    range.value = String(index);
    const chapter = chapterAt(index);
    $("position").textContent = index === 0
      ? `${t("deal")} · ${t("step")} 0 ${t("of")} ${last}`
      : `${t("step")} ${index} ${t("of")} ${last}${chapter ? ` · ${chapter.label}` : ""}`;
    const select = $("chapters");
    if (chapter) select.value = String(chapter.index);
    for (const b of root.querySelectorAll("[data-go]")) {
      const go = b.dataset.go;
      if (go === "play") continue;
      b.disabled = (["first", "prev", "prev-chapter", "prev-turn"].includes(go) && index === 0)
        || (["last", "next", "next-chapter", "next-turn"].includes(go) && index === last);
    }
    const list = $("steps");
    for (const li of list.querySelectorAll("[aria-current]")) li.removeAttribute("aria-current");
    const li = list.querySelector(`li[data-step="${index}"]`);
    if (li) {
      li.setAttribute("aria-current", "step");
      const top = li.offsetTop - list.offsetTop;
      if (top < list.scrollTop || top + li.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = Math.max(0, top - list.clientHeight / 3);
    }
  }

  function buildSteps() {
    const list = $("steps");
    // A stretch's heading comes before its first move (``step``): the step that led into it, the
    // last of the stretch before, stays under the previous heading.
    const chapters = new Map(meta.chapters.map((c) => [c.step ?? c.index, c.label]));
    const items = [];
    const item = (i, lines, extra = {}) => h("li", { dataset: { step: i }, class: extra.mine ? "mine" : null },
      h("button", { type: "button", class: "replay-step", onclick: () => go(i) },
        h("span", { class: "replay-step-no" }, String(i)),
        h("span", { class: "replay-step-text" }, lines.map((l) => h("span", { class: "replay-line" }, l)),
          extra.automatic ? h("span", { class: "badge" }, t("auto")) : null)));
    if (chapters.has(0)) items.push(h("li", { class: "replay-chapter" }, chapters.get(0)));
    items.push(item(0, [t("deal")]));
    for (const s of meta.steps) {
      if (chapters.has(s.index) && s.index !== 0) items.push(h("li", { class: "replay-chapter" }, chapters.get(s.index)));
      items.push(item(s.index, s.lines, { automatic: s.automatic, mine: !staff && s.seat === viewerSeat }));
    }
    const last = meta.steps.length + 1;
    if (chapters.has(last)) items.push(h("li", { class: "replay-chapter" }, chapters.get(last)));
    list.replaceChildren(...items);
    const select = $("chapters");
    select.replaceChildren(...meta.chapters.map((c) => h("option", { value: c.index }, `${c.label} (${c.index})`)));
  }

  // --- staff: the deck orders, the RNG draws and the action as recorded ---------------------------
  function renderStaff(frame) {
    const box = $("staff");
    box.hidden = false;
    const step = frame.index > 0 ? meta.steps[frame.index - 1] : null;
    const draws = step ? step.draws : meta.start_draws;
    const inUse = Math.max(0, (frame.decks ?? (meta.deck_log || []).length) - 1); // the deck this moment deals from
    box.replaceChildren(
      h("section", { class: "replay-panel", dataset: { role: "step-detail" } },
        h("h2", {}, step ? `${t("step")} ${step.index} · ${step.name}` : t("deal")),
        step ? h("p", { dataset: { role: "action-words" } }, h("strong", {}, `${t("action")}: `), step.action_words) : null,
        step ? h("details", {}, h("summary", {}, t("recorded")), h("code", {}, JSON.stringify(step.action))) : null,
        h("p", {}, h("strong", {}, `${t("draws")}: `), draws && draws.length ? h("code", { dataset: { role: "draws" } }, draws.join(" · ")) : t("none"))),
      h("section", { class: "replay-panel", dataset: { role: "deck" } },
        h("h2", {}, t("deck")),
        (meta.deck_log || []).length
          ? h("ol", { class: "replay-decks" }, meta.deck_log.map((deck, i) => h("li", { class: i === inUse ? "in-use" : null },
            h("details", { open: i === inUse },
              h("summary", {}, `${t("shuffle")} ${i + 1} · ${deck.length}`),
              h("span", { class: "tc-cards replay-deck" }, deck.map((c) => card(c, "small")))))))
          : h("p", { class: "muted" }, t("none"))));
  }

  // --- moving --------------------------------------------------------------------------------------
  async function go(i) {
    if (!meta) return;
    const target = Math.max(0, Math.min(meta.total - 1, Number(i) || 0));
    try {
      await ensure(target);
    } catch (err) {
      notice(err.message || t("error"));
      stop();
      return;
    }
    notice("");
    index = target;
    render();
    const url = new URL(window.location.href);
    url.searchParams.set("step", String(index));
    window.history.replaceState(null, "", url);
  }

  function chapterJump(dir) {
    const starts = meta.chapters.map((c) => c.index);
    if (dir > 0) return starts.find((s) => s > index) ?? meta.total - 1;
    const before = starts.filter((s) => s < index);
    return before.length ? before[before.length - 1] : 0;
  }

  /** The first step of the next (or this, then the previous) turn: where the seat that acts changes. */
  function turnJump(dir) {
    const seatAt = (i) => (i >= 1 ? meta.steps[i - 1].seat : null);
    let i = index;
    if (dir > 0) {
      const now = seatAt(i);
      do i += 1; while (i < meta.total - 1 && seatAt(i) === now);
      return Math.min(i, meta.total - 1);
    }
    if (i <= 1) return 0;
    const turnStart = (j) => { const s = seatAt(j); while (j > 1 && seatAt(j - 1) === s) j -= 1; return j; };
    const start = turnStart(i);
    return start < i ? start : turnStart(i - 1);
  }

  function stop() {
    clearTimeout(timer);
    timer = null;
    root.dataset.playing = "0";
    const b = root.querySelector('[data-go="play"]');
    $("play-label").textContent = t("play");
    b.setAttribute("aria-pressed", "false");
  }

  function play() {
    if (index >= meta.total - 1) go(0);
    root.dataset.playing = "1";
    const b = root.querySelector('[data-go="play"]');
    $("play-label").textContent = t("pause");
    b.setAttribute("aria-pressed", "true");
    const tick = async () => {
      if (index >= meta.total - 1) { stop(); return; }
      await go(index + 1);
      if (root.dataset.playing === "1") timer = setTimeout(tick, Number($("speed").value) || 1000);
    };
    timer = setTimeout(tick, Number($("speed").value) || 1000);
  }

  const moves = {
    first: () => go(0),
    last: () => go(meta.total - 1),
    prev: () => go(index - 1),
    next: () => go(index + 1),
    "prev-chapter": () => go(chapterJump(-1)),
    "next-chapter": () => go(chapterJump(1)),
    "prev-turn": () => go(turnJump(-1)),
    "next-turn": () => go(turnJump(1)),
    play: () => (timer ? stop() : play()),
  };
  for (const b of root.querySelectorAll("[data-go]")) {
    b.addEventListener("click", () => {
      if (b.dataset.go !== "play") stop();
      moves[b.dataset.go]();
    });
  }
  $("range").addEventListener("input", (e) => { stop(); go(e.target.value); });
  $("chapters").addEventListener("change", (e) => { stop(); go(e.target.value); });
  root.addEventListener("keydown", (e) => {
    if (e.target.closest("select, input")) return;
    const key = e.shiftKey
      ? { ArrowLeft: "prev-turn", ArrowRight: "next-turn" }[e.key]
      : { ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last", PageUp: "prev-chapter", PageDown: "next-chapter" }[e.key];
    if (!key) return;
    e.preventDefault();
    stop();
    moves[key]();
  });
  root.tabIndex = -1;

  const first = Number(root.dataset.step) || 0;
  load(Math.max(0, first - Math.floor(WINDOW / 4)))
    .catch(() => load(0))
    .then(() => { root.dataset.total = String(meta.total); buildSteps(); return go(Math.min(first, meta.total - 1)); })
    .catch((err) => { notice(err.message || t("error")); root.dataset.ready = "error"; });
}
