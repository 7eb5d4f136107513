// Drawing the table from the last view: the seats, the felt (felt.js), the end-of-hand summary,
// the hand, the toggles and the log of the last moves. The action panels are input.js's.

import { styleForGame } from "../cards.js";
import { realmMoney } from "./amount.js";
import { card, describeCard, h, settings } from "./dom.js";
import { planActions } from "./actions.js";
import { buildModel } from "./model.js";
import { centre, detailsEl, eventLine, meldsEl, placeSeats, resultEl, scoresEl, seatEl, seatName, seenEl, tickClocks } from "./felt.js";
import { t } from "./i18n.js";
import { lineName, measureText, summaryEl } from "./summary.js";
import { muted, play, setMuted, soundAsk } from "./sounds.js";
import { waitingEl } from "./waiting.js";
import { SERVER_ORDERED, clockLine, handOrder, sortHand, turnKey } from "./state.js";

// Pairs (coppie): the seats at N, E, S, O as the rules place them, the partner opposite.
const COMPASS = { b: "S", l: "O", t: "N", r: "E" };

/** Overlap the hand's cards just enough to fit the width (a fan), before wrapping. */
function fitHand(row, n) {
  const avail = row.clientWidth;
  const w = row.firstElementChild?.getBoundingClientRect().width || 0;
  if (!avail || !w || n < 2) return;
  const gap = 6;
  const need = n * w + (n - 1) * gap;
  const overlap = need > avail ? Math.min(w * 0.62, (need - avail) / (n - 1) + gap) : 0;
  row.style.setProperty("--overlap", `${overlap}px`);
  row.classList.toggle("fanned", overlap > 0);
}

function toggle(role, text, on, change) {
  const box = h("input", { type: "checkbox", dataset: { role }, checked: on ? true : undefined });
  box.addEventListener("change", () => change(box.checked, box));
  return h("label", { class: "toggle" }, box, ` ${text}`);
}

/** The drawing of the table ``ctx``: ``renderAll`` draws the last view, the others a part of it. */
export function renderer(ctx) {
  const { root, $, ui } = ctx;
  let lastTurn = null;
  let logHand = null;

  /** The viewer's cards as shown: sorted when long (in the server's order where the player chose
   * one), in the player's own order when he moved or sorted them. */
  function handCards() {
    const me = ctx.model?.seats.get(ctx.last?.seat);
    return handOrder((me && me.cards) || [], ui.order, root.dataset.game);
  }

  /** Burraco, Scala 40: the buttons that sort the hand on the spot (a drag still moves a card after). */
  function sortButtons(p, hand) {
    if (!SERVER_ORDERED.has(root.dataset.game) || hand.length < 2 || hand.some((c) => typeof c !== "string")) return null;
    const sortBy = (by) => () => {
      const picked = ui.picked.map((i) => hand[i]);
      ui.order = sortHand(hand, by, root.dataset.game);
      // the picks stay on the same cards (a card may come twice: each index once)
      const taken = new Set();
      ui.picked = picked.map((c) => { const i = ui.order.findIndex((x, k) => x === c && !taken.has(k)); taken.add(i); return i; }).filter((i) => i >= 0);
      renderHand(p);
      ctx.renderActions(p);
      $("hand").querySelector(`[data-sort="${by}"]`)?.focus();
    };
    return h("div", { class: "hand-sort", role: "group", "aria-label": t("Ordina la mano") },
      h("button", { type: "button", class: "secondary small", dataset: { sort: "seme" }, onclick: sortBy("seme") }, t("Per seme")),
      h("button", { type: "button", class: "secondary small", dataset: { sort: "valore" }, title: t("Per valore, matte prima"), onclick: sortBy("valore") }, t("Per valore")));
  }

  function markPairs(seats, p) {
    const { model } = ctx;
    const lines = model.seatLines;
    if (!lines || !lines.some((l) => l.length > 1) || seats.children.length !== 4) return;
    const lineOf = (no) => lines.findIndex((l) => l.some((pos) => Number(model.posSeat(pos)) === no));
    const mine = lineOf(p.seat);
    seats.classList.add("seats--pairs");
    for (const el of seats.children) {
      const no = Number(el.dataset.seat);
      const line = lineOf(no);
      el.dataset.line = String(line);
      const compass = COMPASS[el.style.getPropertyValue("--area")];
      if (compass) {
        el.dataset.compass = compass;
        el.querySelector(".seat-head")?.prepend(h("span", { class: "seat-compass", title: t("Posizione") }, compass));
      }
      if (mine >= 0 && line === mine && no !== p.seat) {
        el.classList.add("partner");
        el.querySelector(".seat-head")?.append(h("span", { class: "badge badge-partner" }, t("Compagno")));
      }
    }
  }

  // --- toggles: "Sitout prossima mano", "Esci alla prossima mano" (giochi a puntate), the sound ---
  function renderToggles(p) {
    const box = $("toggles");
    if (!box) return;
    box.replaceChildren();
    const me = ctx.model.seats.get(p.seat);
    if (me && root.dataset.family === "puntate") {
      // checked while he sits out: unchecking it is SONO TORNATO
      box.append(toggle("sitout-next", t("Sitout prossima mano"), me.status === "sitout", (on) => ctx.send({ type: "sitout", sitout: on })));
      box.append(toggle("leave-next", t("Esci alla prossima mano"), !!me.leaving, ctx.leaveNext));
    }
    const sound = h("button", { type: "button", class: "secondary small sound-switch", dataset: { role: "sound" },
      "aria-pressed": muted() ? "false" : "true" }, muted() ? t("Audio spento") : t("Audio attivo"));
    sound.addEventListener("click", () => { setMuted(!muted()); renderToggles(p); });
    box.append(sound);
    const ask = soundAsk(document, () => renderToggles(p)); // audio the browser still holds locked
    if (ask) box.append(ask);
  }

  function renderHand(p) {
    const { model, plan } = ctx;
    const el = $("hand");
    const hand = handCards();
    el.replaceChildren();
    if (!hand.length) { el.hidden = true; return; }
    el.hidden = false;
    const picking = plan.picks.length > 0 || plan.singles.length > 0 || !!plan.opening || plan.swaps.length > 0;
    const pickable = new Set();
    for (const g of plan.picks) for (const s of g.specs) for (const c of Array.isArray(s.cards) ? s.cards : s.cards.subset_of) pickable.add(c);
    for (const g of plan.singles) for (const s of g.specs) pickable.add(s.card);
    if (plan.opening || plan.swaps.length) for (const c of hand) pickable.add(c);
    const covered = new Set(model.handCovered || []);
    const row = h("div", { class: "hand-cards" });
    hand.forEach((code, i) => {
      const c = card(code, "hand");
      if (covered.has(code)) c.classList.add("covered-mine");
      const plays = plan.cardPlays.get(code);
      if ((picking && pickable.has(code)) || plays) {
        c.dataset.playable = "";
        const btn = h("button", { type: "button", class: "carta-btn", "aria-label": describeCard(code), draggable: "true", dataset: { index: String(i) } });
        btn.append(c);
        if (picking) {
          btn.setAttribute("aria-pressed", ui.picked.includes(i) ? "true" : "false");
          c.setAttribute("aria-pressed", ui.picked.includes(i) ? "true" : "false");
          btn.addEventListener("click", () => {
            ui.picked = ui.picked.includes(i) ? ui.picked.filter((x) => x !== i) : [...ui.picked, i];
            ui.layout = null;
            // in place (not a new hand): a double-click lands on the same button and discards
            const on = ui.picked.includes(i) ? "true" : "false";
            btn.setAttribute("aria-pressed", on);
            c.setAttribute("aria-pressed", on);
            ctx.renderActions(p);
          });
        } else {
          if (ui.choice === code) btn.setAttribute("aria-pressed", "true");
          btn.addEventListener("click", () => {
            if (plays.length === 1) { ctx.act(plays[0]); return; }
            ui.choice = code;
            renderHand(p);
            ctx.renderActions(p);
          });
        }
        row.append(btn);
      } else {
        // not playable now: still a place in the hand the player may move (drag, Alt+arrows)
        row.append(h("span", { class: "hand-slot", tabindex: "0", draggable: "true", role: "img", "aria-label": describeCard(code),
          title: t("Trascina o Alt+frecce per spostarla"), dataset: { index: String(i) } }, c));
      }
    });
    const playing = row.querySelector("[data-playable]") !== null;
    el.classList.toggle("hand--playing", playing);
    // what a tap does: pick cards, turn one up (Telesina's "Scopri"), or play it
    const kinds = new Set([...plan.cardPlays.values()].flat().map((s) => s.type));
    const uncover = kinds.size === 1 && kinds.has("scopro");
    const hint = !playing ? "" : picking ? t(" · tocca le carte da scegliere")
      : uncover ? t(" · tocca la carta da scoprire") : t(" · tocca una carta per giocarla");
    el.append(h("div", { class: "hand-head" }, h("span", { class: "zone-title" }, t("Le tue carte"), model.handNote ? h("strong", { class: "hand-note" }, ` · ${model.handNote}`) : null, hint),
      sortButtons(p, hand)), row);
    fitHand(row, hand.length);
  }

  /** A meld the viewer may extend answers a click: the picked cards are attached to it. */
  function attachOnClick(el, meld) {
    const spec = ctx.plan?.picks.flatMap((g) => g.specs).find((s) => s.meld === meld.id && s.cards && s.cards.subset_of);
    if (!spec) return;
    el.classList.add("meld--attachable");
    el.setAttribute("role", "button");
    el.setAttribute("tabindex", "0");
    el.setAttribute("aria-label", `${spec.label || spec.type}: ${meld.cards.map(describeCard).join(", ")}`);
    const go = () => {
      const hand = handCards();
      const picked = ui.picked.map((i) => hand[i]).filter(Boolean);
      if (picked.length < (spec.cards.min ?? 1)) { ctx.notice(t("Scegli prima le carte da attaccare")); return; }
      ctx.meldAct(spec, picked);
    };
    el.addEventListener("click", go);
    el.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } });
  }

  /** Beside a laptop's dock: the felt drawn a little smaller (down to 80 %) when that makes it fit
   *  above the dock, so that the dock covers none of it; a phone's felt scrolls under the dock. */
  function fitFelt() {
    const felt = root.querySelector(".felt");
    const dock = $("dock");
    if (!felt || !dock) return;
    felt.style.zoom = "";
    if (window.innerWidth < 700 || !dock.offsetHeight) return;
    const room = window.innerHeight - (felt.getBoundingClientRect().top + window.scrollY) - dock.offsetHeight - 12;
    const need = felt.offsetHeight;
    if (need > room && room > 0) felt.style.zoom = String(Math.max(0.8, room / need));
  }

  /** A phone's felt scrolls under the dock, whose top covers the felt's foot, where the viewer's
   *  seat is: as his turn begins the page scrolls just enough to bring his seat above the dock. Only
   *  then, so that a player who scrolls away to read the table is not pulled back at every move. */
  function seatAboveDock(p) {
    const mine = ctx.model.seats.get(p.seat);
    const turn = Boolean(mine && mine.toAct && !p.over);
    const began = turn && !ctx.myTurn;
    ctx.myTurn = turn;
    const seat = root.querySelector("[data-role=seats] .seat.me");
    const dock = $("dock");
    if (!began || window.innerWidth >= 700 || !seat || !dock || !dock.offsetHeight) return;
    const under = seat.getBoundingClientRect().bottom - dock.getBoundingClientRect().top + 8;
    if (under > 0) window.scrollBy({ top: under, behavior: "instant" });
  }

  /** The viewer's turn, above his hand: "Tocca a te" and the running clock, never out of sight. */
  function renderTurn(p) {
    const el = $("turn");
    if (!el) return;
    const me = ctx.model.seats.get(p.seat);
    if (!me || !me.toAct || !p.deadline || p.over) { el.hidden = true; el.replaceChildren(); return; }
    const bank = p.bank_seat === me.no ? h("span", { class: "badge badge-bank" }, t("riserva di tempo"))
      : me.time_bank ? h("span", { class: "turn-bank", title: t("Riserva di tempo") }, t("+{s} s di riserva", { s: me.time_bank })) : "";
    el.replaceChildren(h("strong", {}, t("Tocca a te")), " ",
      h("span", { class: "clock", title: t("Tempo per decidere"), dataset: { deadline: p.deadline } }, "…"), bank);
    el.hidden = false;
  }

  // --- the whole table ---------------------------------------------------------------------------
  function renderAll() {
    const p = ctx.last;
    if (!p) return;
    const model = buildModel(p);
    ctx.model = model;
    // Sette e mezzo's Premove the viewer set (only his own view has it): shown by the Premove panel.
    const premove = model.sections.find((sec) => sec.key === "premove");
    model.premove = premove ? premove.value : null;
    if (premove) premove.done = true;
    model.lineOf = (no) => clockLine(p, no);
    settings.money = root.dataset.family !== "partite";
    settings.play = root.dataset.realm === "play";
    settings.chips = root.dataset.units === "chips"; // a level tournament's table: its chips, not money
    settings.seatName = (n) => seatName(model, n);
    const hand = handCards();
    ctx.plan = planActions(p.legal, hand);
    ui.picked = ui.picked.filter((i) => i < hand.length);
    // Between hands and matches a seat's table credit comes with the "waiting" block (a stack out of
    // money shows € 0,00). A partita moves credit only when the match settles: its seats keep showing
    // the last credit during the match.
    if (p.waiting) ctx.credits = new Map((p.waiting.seats || []).map((w) => [w.number, w.credit]));
    // At a partita the felt counts points (settings.money is off): the credit goes in already as
    // money of the table's realm (gettoni at a training table).
    const credit = (c) => (settings.money ? c : realmMoney(c, settings.play, t));
    if (!p.view || !settings.money) for (const [no, c] of ctx.credits || []) { const s = model.seats.get(no); if (s && s.chips === undefined) s.chips = credit(c); }
    const seats = $("seats");
    seats.replaceChildren(...[...model.seats.values()].filter((s) => !s.missing || p.view).map((s) => seatEl(model, s, p)));
    placeSeats(seats);
    seats.dataset.count = String(seats.children.length);
    markPairs(seats, p);
    // Screen readers: each seat is a group named by its player and state (WCAG 1.3.1, 4.1.2).
    for (const el of seats.children) {
      const s = model.seats.get(Number(el.dataset.seat));
      if (!s) continue;
      const parts = [s.nickname];
      if (s.me) parts.push(t("tu"));
      if (s.toAct) parts.push(t("di turno"));
      if (s.status === "sitout") parts.push(t("Sitout"));
      if (el.dataset.compass) parts.push(el.dataset.compass);
      el.setAttribute("role", "group");
      el.setAttribute("aria-label", parts.join(", "));
    }
    const view = $("view");
    view.replaceChildren();
    if (!p.view) view.append(h("p", { class: "waiting" }, t("In attesa dei giocatori…")));
    else view.append(centre(model));
    // Why the table waits: who is short of credit, sitting out or gone, and a top-up.
    const why = waitingEl(model, p, { topUp: ctx.topUp, seatName: (n) => seatName(model, n) });
    if (why) view.append(why);
    // The end of a hand or match, on the felt: who won what, and the score sheet.
    const names = { seatName: (n) => seatName(model, n), lineName: (i) => lineName(model, model.lines, i, (n) => seatName(model, n)) };
    const summary = summaryEl(model, p, { seatName: names.seatName, shown: ctx.notes.shown,
      measures: ctx.notes.measures.map((e) => measureText(e, names)).filter(Boolean) });
    if (summary) {
      view.append(summary);
      // A partita's money for the viewer (the felt counts points): what the match moved on his credit.
      const mine = (p.waiting?.seats || []).find((w) => w.number === p.seat);
      if (p.over && typeof mine?.result === "number") {
        const amount = realmMoney(Math.abs(mine.result), settings.play, t);
        summary.append(h("p", { class: "match-money", dataset: { role: "match-money" } },
          mine.result > 0 ? t("Hai vinto {amount}", { amount }) : mine.result < 0 ? t("Hai perso {amount}", { amount }) : t("Partita in parità: il tuo credito non cambia")));
      }
      // The server holds the next deal a moment after a hand (longer after a showdown): when it comes.
      if (p.next_hand_at) {
        summary.append(h("p", { class: "next-hand", "data-role": "next-hand" }, t("Prossima mano tra"), " ",
          h("span", { class: "clock", dataset: { deadline: p.next_hand_at } })));
      }
    }
    // The side panel's seat count, live.
    const count = document.querySelector("[data-role=seated-count]");
    if (count) count.textContent = String((p.seats || []).length);
    const below = $("below");
    below.replaceChildren();
    // Burraco, Scala 40: the melds lie on the felt, the viewer's nearest to him.
    if (model.melds) view.append(meldsEl(model, attachOnClick));
    for (const el of [seenEl(model), resultEl(model, model.result), resultEl(model, model.dealResult, "Risultato della smazzata"), scoresEl(model), detailsEl(model)]) if (el) below.append(el);
    renderHand(p);
    renderTurn(p);
    ctx.renderActions(p);
    renderToggles(p);
    fitFelt();
    seatAboveDock(p);
    tickClocks(root);
    // The viewer's turn comes: a sound (once per decision).
    const key = turnKey(model.seats.get(p.seat), p);
    if (key && key !== lastTurn) {
      if (!ctx.scopaNow) play(root, "turn");
      const sr = $("sr-status"); // screen readers hear it; nothing moves on the page
      if (sr) sr.textContent = t("Tocca a te");
    }
    lastTurn = key;
  }

  /** The last moves at the table, newest first (a new hand starts a new log). */
  function logEvents(msg) {
    const log = $("log");
    if (!log) return;
    if (msg.hand !== logHand) { logHand = msg.hand; log.querySelector("ol")?.replaceChildren(); }
    const lines = (msg.events || []).map((e) => eventLine(ctx.model, e)).filter(Boolean);
    if (!lines.length) { log.hidden = !log.querySelector("li"); return; }
    let list = log.querySelector("ol");
    if (!list) { list = h("ol", { class: "log-lines" }); log.append(h("span", { class: "zone-title" }, t("Ultime giocate")), list); }
    for (const line of lines) list.prepend(line);
    while (list.children.length > 6) list.lastElementChild.remove();
    log.hidden = false;
  }

  /** Set the deck style of the table's cards (Italian styles only for 40-card decks). */
  function deckStyle() {
    settings.style = styleForGame(root.dataset.deckStyle, ctx.italian);
  }

  return { handCards, renderAll, renderHand, logEvents, deckStyle };
}
