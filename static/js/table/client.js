// The live table client: one WebSocket, the server's per-seat view, the legal actions.
// It never decides what is legal: it shows the view and sends back one of the server's specs.
//
// DOM contract (the end-to-end tests drive the page through it): #table carries data-table,
// data-version, data-connected ("1"/"0"), data-game, data-over; inside, data-role= notice, seats
// ([data-seat] with data-nickname, classes me and to-act), hand (cards with data-card, playable ones
// data-playable, picked ones aria-pressed), choices and actions (button[data-action=<type>], ready,
// back), amount (input[name=amount], a range slider, multiples), confirm (data-confirm=yes/no),
// history, chat-log, chat-form. data-heartbeat-ms: how often the server sends the table's version
// ({"type": "table.version"}): a page behind it asks "sync" (broadcasts lost in a channel-layer
// outage), and a socket silent for three beats is closed and opened again (a server that died). Burraco and Scala 40: when picked cards can take several layouts
// (the server lists them: POST {"action": ...} to data-layouts-url, lobby:layouts)
// the choices panel lists them (button[data-layout], with data-start or data-jolly-suit: what is
// sent); Scala 40's "Sostituisci il jolly" opens it with button[data-use=cala] and
// button[data-use=attacca][data-meld] (where the jolly taken back goes).
// Modules: model.js reads a payload, actions.js groups the legal specs, melds.js words the
// server's meld layouts, felt.js draws the table, dom.js holds the helpers, history.js the hand
// history panel.

import { styleForGame } from "../cards.js";
import { card, describeCard, h, money, settings } from "./dom.js";
import { actionOf, planActions, specForChoice, specForPick } from "./actions.js";
import { layoutChoices } from "./melds.js";
import { buildModel } from "./model.js";
import { centre, detailsEl, eventLine, meldsEl, placeSeats, resultEl, scoresEl, seatEl, seatName, tickClocks } from "./felt.js";
import { loadHistory } from "./history.js";
import { t } from "./i18n.js";
import { lineName, measureText, summaryEl } from "./summary.js";
import { muted, play, setMuted } from "./sounds.js";
import { euroText, parseEuro, waitingEl } from "./waiting.js";
import { chatModeration } from "./report.js";
import { arrange, wireGestures } from "./gestures.js";
import { animate, before, tallyText } from "./motion.js";

// The server's closes that no reconnection can undo, and what the page says of each.
const FINAL_CLOSES = {
  4401: "Sessione scaduta: accedi di nuovo per tornare al tavolo",  // not logged in any more
  4403: "Non puoi più assistere a questo tavolo",  // an account not active, or a table without observers
  4404: "Il tavolo è stato chiuso",  // closed by the staff, or gone
};

// An action sent and not answered (neither a view showing it nor an error) for this long no longer
// holds the next one back: its answer was lost on the way.
const PENDING_MS = 4000;

// `random`: the source of the reconnection's spread (not of the game: that is the server's, RULINGS
// G4), passed in like every other random source.
export function start(root, { random }) {
  const $ = (role) => root.querySelector(`[data-role="${role}"]`);
  const tableId = root.dataset.table;
  const italian = root.dataset.italianDeck === "1";
  const ui = { picked: [], choice: null, form: {}, amount: null, meldPart: [], layout: null, swap: null, swapLayouts: null, order: null };
  let socket = null;
  let version = 0;
  let retries = 0;
  let noticeTimer = null;
  let last = null;
  let model = null;
  let plan = null;
  let pendingConfirm = null;
  let sentFor = null; // the version an action was sent against, until the server answers
  let sentAt = 0; // when it was sent
  let heard = Date.now(); // when the socket last brought a message
  let beating = false; // the server sends heartbeats (once one came)
  let handover = false; // closed with 4409 (the table's owner moved): reconnecting quietly, until a view comes

  root.dataset.connected = "0";
  root.dataset.version = "0";
  root.dataset.over = "0";

  function notice(text, sticky = false) {
    const el = $("notice");
    el.textContent = text;
    el.hidden = false;
    clearTimeout(noticeTimer);
    if (!sticky) noticeTimer = setTimeout(() => { el.hidden = true; }, 3500);
  }
  function clearNotice() { const el = $("notice"); el.hidden = true; clearTimeout(noticeTimer); }

  function send(msg) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(msg));
    else notice(t("Tentativo di riconnessione in corso"), true);
  }

  // --- sending an action: the in-page confirmation first when the spec asks for one ----------
  function act(spec, extra = {}) {
    const action = actionOf(spec, extra);
    const go = () => {
      // One action at a time: a double click must not send twice (the server would refuse the
      // second, and the player would see a spurious "Giocata non ammessa"), not even on a newer
      // view that came meanwhile (at poker's invito every seat decides at once: another's answer
      // is a new view, the same decision still open). An answer lost on the way frees it after a while.
      if (sentFor !== null && Date.now() - sentAt < PENDING_MS) return;
      sentFor = version;
      sentAt = Date.now();
      root.dataset.busy = "1";
      ui.picked = []; ui.choice = null; ui.layout = null; ui.swap = null; ui.swapLayouts = null;
      send({ type: "act", action, version });
    };
    if (spec.confirm) askConfirm(spec.confirm, go);
    else go();
  }

  function askConfirm(text, yes) {
    const box = $("confirm");
    pendingConfirm = yes;
    box.replaceChildren(h("p", {}, text),
      h("div", { class: "confirm-buttons" },
        h("button", { type: "button", dataset: { confirm: "yes" }, onclick: () => { box.hidden = true; const f = pendingConfirm; pendingConfirm = null; if (f) f(); } }, t("Sì")),
        h("button", { type: "button", class: "secondary", dataset: { confirm: "no" }, onclick: () => { box.hidden = true; pendingConfirm = null; } }, t("No"))));
    box.hidden = false;
    box.querySelector("[data-confirm=yes]").focus();
  }

  // --- the amount box: euro typed the Italian way ("5" is € 5,00, "2,50"), a slider, multiples; ----
  // clamped to what the server allows, and sent in cents (issue 20: the box showed cents).
  // Mazzetti's MAZZETTO: the "amount" is the size of the mazzetto, a number of cards, not money.
  const COUNT_ACTIONS = new Set(["mazzetto"]);
  const isCount = (spec) => COUNT_ACTIONS.has(spec.type);
  const parseCount = (text) => (/^\s*\d+\s*$/.test(text) ? Number(text) : null);
  const countText = (n) => t("{n} carte", { n });

  /** The decision an amount is typed for: the hand, the seat's last decision (``acted``) and the
   * ranges offered. A newer view of the same decision keeps what the player typed; another clears it. */
  const amountKey = (p, specs) => JSON.stringify([p.hand ?? null, p.acted ?? null, specs.map((s) => [s.type, s.amount.min, s.amount.max])]);

  function amountBox(specs, typing) {
    const count = specs.every(isCount);
    const [parse, fmt, said] = count ? [parseCount, String, countText] : [parseEuro, euroText, money];
    const name = count ? t("Carte del mazzetto") : t("Importo (€)");
    const lo = Math.min(...specs.map((s) => s.amount.min));
    const hi = Math.max(...specs.map((s) => s.amount.max));
    const key = amountKey(last, specs);
    if (ui.amount?.key !== key) ui.amount = { key, cents: null, text: null };
    const kept = ui.amount; // text: what the player typed and has not committed yet (null once formatted)
    const start = kept.cents !== null && kept.cents >= lo && kept.cents <= hi ? kept.cents : lo;
    const step = !count && lo % 100 === 0 && hi % 100 === 0 ? 100 : 1;
    const input = h("input", { type: "text", name: "amount", value: kept.text ?? fmt(start), inputmode: count ? "numeric" : "decimal", autocomplete: "off",
      size: 9, "aria-label": name, dataset: { cents: String(start) } });
    const slider = h("input", { type: "range", min: lo, max: hi, step, value: start, "aria-label": count ? name : t("Importo (cursore)"), "aria-valuetext": said(start) });
    const shown = h("output", { class: "amount-money", "aria-live": "polite" }, said(start));
    const set = (n, fromSlider = false) => {
      const v = Math.min(hi, Math.max(lo, Math.round(Number.isFinite(n) ? n : lo)));
      kept.cents = v;
      kept.text = null;
      input.value = fmt(v);
      input.dataset.cents = String(v);
      if (!fromSlider) slider.value = String(v);
      slider.setAttribute("aria-valuetext", said(v));
      shown.textContent = said(v);
    };
    // A box being redrawn is not the player leaving it: the browser's change on its removal commits nothing.
    let retired = false;
    input.addEventListener("change", () => { if (!retired) set(parse(input.value) ?? lo); });
    input.addEventListener("input", () => {
      kept.text = input.value;
      const n = parse(input.value);
      if (n !== null) { shown.textContent = said(n); kept.cents = n; input.dataset.cents = String(n); }
    });
    if (kept.text !== null) { const n = parse(kept.text); if (n !== null) { shown.textContent = said(n); input.dataset.cents = String(n); } }
    slider.addEventListener("input", () => set(Number(slider.value), true));
    const pot = count ? null : model.pots.find(([k]) => k === "pot" || k === "piatto")?.[1];
    const marks = [["Min", lo]];
    if (pot) marks.push(["½ piatto", Math.floor(pot / 2)], ["Piatto", pot]);
    marks.push(["Max", hi]);
    const seen = new Set();
    const multiples = h("div", { class: "multiples" });
    for (const [name, val] of marks) {
      const v = Math.min(hi, Math.max(lo, val));
      if (seen.has(v) && name !== "Max") continue;
      seen.add(v);
      multiples.append(h("button", { type: "button", class: "secondary small", dataset: { multiple: name }, onclick: () => set(v) }, name));
    }
    input.addEventListener("keydown", (e) => {
      if (e.key !== "Enter") return;
      e.preventDefault();
      set(parse(input.value) ?? lo);
      const buttons = [...$("actions").querySelectorAll("button[data-action][data-amount]")];
      if (buttons.length === 1) buttons[0].click();
    });
    const el = h("div", { class: "amount", dataset: { role: "amount" } }, h("label", {}, `${name} `, input), shown, slider, multiples);
    el.retire = () => { retired = true; };
    // Redrawn while the player was in it: the focus and the caret go back where they were.
    el.restore = () => {
      if (typing?.type === "text") { input.focus(); input.setSelectionRange(typing.start, typing.end, typing.direction); }
      else if (typing?.type === "range") slider.focus();
    };
    return el;
  }

  /** The amount box's field the player is in, with its caret, before the actions are redrawn. */
  function amountFocus(box) {
    const el = document.activeElement;
    if (!el || !box.contains(el) || !el.closest("[data-role=amount]")) return null;
    if (el.type === "range") return { type: "range" };
    return { type: "text", start: el.selectionStart, end: el.selectionEnd, direction: el.selectionDirection };
  }

  function readAmount(spec) {
    const input = $("actions").querySelector("input[name=amount]");
    const n = (isCount(spec) ? parseCount : parseEuro)(input?.value ?? "");
    if (n === null || n < spec.amount.min || n > spec.amount.max) {
      notice(isCount(spec) ? t("Carte del mazzetto: da {min} a {max}", { min: spec.amount.min, max: spec.amount.max })
        : t("Importo non ammesso: da {min} a {max}", { min: money(spec.amount.min), max: money(spec.amount.max) }));
      return null;
    }
    return n;
  }

  function optionText(field, value) {
    if (field === "meld" && model.melds) {
      const m = model.melds.melds.find((x) => x.id === value);
      if (m) return h("span", { class: "meld-choice" }, m.cards.map((c) => card(c, "small")));
    }
    if (typeof value === "string" && /^(?:[A2-9TJQK][hdcs]|X[1-4])$/.test(value)) return describeCard(value);
    if (value === null) return "—";
    if (typeof value === "object") return JSON.stringify(value);
    if (field === "mazzetto" && Number.isInteger(value)) return `Mazzetto ${value + 1}`;
    return String(value).replace(/_/g, " ");
  }

  // --- meld layouts (Burraco, Scala 40): where the matta goes, ace low or high, the jolly's suit ---
  // The server lists them (lobby:layouts asks the engine for this seat); the page only words them.
  const layoutsUrl =
    root.dataset.layoutsUrl || new URL("disposizioni/", window.location.href.split(/[?#]/)[0]).href;
  let asking = false; // a layout question is on its way: the page waits for its answer

  /** The layouts the server lists for a meld request sent without one, or null if it cannot say. */
  async function fetchLayouts(request) {
    const token = document.querySelector("input[name=csrfmiddlewaretoken]")?.value || "";
    try {
      const res = await fetch(layoutsUrl, { method: "POST", credentials: "same-origin", signal: AbortSignal.timeout(8000),
        headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": token },
        body: JSON.stringify({ action: request }) });
      const data = await res.json().catch(() => null);
      if (res.ok && data && Array.isArray(data.layouts)) return data.layouts;
      if (res.status === 422) return []; // the engine refuses the request: sent as is, its refusal is shown
      return null;
    } catch {
      return null;
    }
  }

  /** Ask the server, then `answer(layouts or null)` unless the table moved on; one question at a time. */
  function askLayouts(request, answer) {
    if (asking) return;
    asking = true;
    root.dataset.busy = "1";
    const at = version;
    fetchLayouts(request).then((layouts) => {
      asking = false;
      if (sentFor === null) root.dataset.busy = "0";
      if (at === version) answer(layouts);
    });
  }

  /** With several layouts, ask which in the choices panel; `send(fields, choice)` gets the pick. */
  function pickLayout(layouts, title, send, opts = {}) {
    const list = layoutChoices(layouts || [], opts);
    // one layout, none (the engine's refusal follows) or no answer: sent without a layout, the server takes the first
    if (list.length <= 1) { ui.layout = null; send({}, list[0] || null); return; }
    ui.layout = { title, choices: list, send };
    renderActions(last);
    $("choices").querySelector("button[data-layout]")?.focus();
  }

  /** Ask the server for the layouts of a request, then pick one as ``pickLayout``. */
  function chooseLayout(request, title, send, opts = {}) {
    askLayouts(request, (layouts) => pickLayout(layouts, title, send, opts));
  }

  /** Lay (cala) or attach (attacca) the picked cards: the layout asked first when there is a choice. */
  function meldAct(spec, picked) {
    const base = { ...spec, cards: undefined, start: undefined, jolly_suit: undefined };
    const go = (fields) => act(base, { cards: picked, ...fields });
    // a spec that takes a start or a jolly's suit may have several layouts: the server lists them
    if (spec.start === undefined && spec.jolly_suit === undefined) { go({}); return; }
    chooseLayout(actionOf(base, { cards: picked }), spec.meld !== undefined ? "Dove vanno le carte?" : "Come calare il gioco?", go);
  }

  function layoutEl(p) {
    const lay = ui.layout;
    return [h("span", { class: "choices-title" }, lay.title),
      ...lay.choices.map((c, i) => h("button", { type: "button", class: "layout-choice",
        dataset: { layout: String(i), ...(c.fields.start !== undefined ? { start: c.fields.start } : {}), ...(c.fields.jolly_suit ? { jollySuit: c.fields.jolly_suit } : {}) },
        onclick: () => { ui.layout = null; lay.send(c.fields, c); } },
      c.label, h("span", { class: "take" }, c.layout.cards.map((x) => card(x, "small"))))),
      h("button", { type: "button", class: "secondary", onclick: () => { ui.layout = null; renderActions(p); } }, "Annulla")];
  }

  /** Scala 40's sostituzione del jolly: the jolly taken back goes at once into a new meld or onto another one on the table. */
  function swapEl(p, spec, picked) {
    const left = [...handCards()];
    left.splice(left.indexOf(spec.card), 1);
    const available = picked.every((c) => picked.filter((x) => x === c).length <= left.filter((x) => x === c).length);
    const base = { type: spec.type, meld: spec.meld, card: spec.card };
    const swapAct = (use) => act(base, { use });
    // where the jolly attaches with these cards: every meld the server lists a layout of
    const key = JSON.stringify([spec.meld, spec.card, picked]);
    if (available && ui.swapLayouts?.key !== key) {
      ui.swapLayouts = { key, layouts: undefined };
      const at = version;
      fetchLayouts({ ...base, use: { type: "attacca", cards: picked } }).then((layouts) => {
        if (ui.swapLayouts?.key !== key || at !== version) return;
        ui.swapLayouts.layouts = layouts;
        renderActions(last);
      });
    }
    const found = available ? ui.swapLayouts.layouts : []; // undefined: asked, no answer yet; null: no answer
    const out = [h("span", { class: "choices-title" }, `${spec.label || spec.type} con ${describeCard(spec.card)}, poi usa il jolly:`)];
    out.push(h("button", { type: "button", dataset: { use: "cala" }, disabled: !available || picked.length < 2,
      title: "Scegli almeno due carte della mano", onclick: () => chooseLayout({ ...base, use: { type: "cala", cards: picked } }, "Come calare il gioco?",
        (fields) => swapAct({ type: "cala", cards: picked, ...fields })) },
    picked.length >= 2 ? `In un nuovo gioco con le carte scelte (${picked.length})` : "In un nuovo gioco (scegli le carte)"));
    if (found === undefined) out.push(h("span", { class: "muted", dataset: { role: "swap-wait" } }, "Cerco dove si attacca il jolly…"));
    else if (found === null) out.push(h("span", { class: "muted" }, "Non riesco a sapere dove si attacca il jolly: riprova"));
    else {
      let attachable = 0;
      for (const m of model.melds?.melds || []) {
        const options = found.filter((o) => o.meld === m.id); // their fields name the meld too
        if (!options.length) continue;
        attachable += 1;
        // the meld the jolly leaves shows the card that took its place
        const shown = m.id === spec.meld ? m.cards.map((c) => (c[0] === "X" ? spec.card : c)) : m.cards;
        out.push(h("button", { type: "button", dataset: { use: "attacca", meld: m.id },
          onclick: () => pickLayout(options, "Dove va il jolly?", (fields) => swapAct({ type: "attacca", meld: m.id, cards: picked, ...fields })) },
        picked.length ? "Attaccalo con le carte scelte a " : "Attaccalo a ", h("span", { class: "meld-choice" }, shown.map((c) => card(c, "small")))));
      }
      if (!attachable) out.push(h("span", { class: "muted" }, picked.length ? "Con queste carte non si attacca a nessun gioco" : "Non si attacca da solo a nessun gioco"));
    }
    out.push(h("button", { type: "button", class: "secondary", onclick: () => { ui.swap = null; renderActions(p); } }, "Annulla"));
    return out;
  }

  // --- the legal actions -----------------------------------------------------------------------
  function renderActions(p) {
    const box = $("actions");
    const choices = $("choices");
    const typing = amountFocus(box);
    box.querySelector("[data-role=amount]")?.retire?.();
    box.replaceChildren();
    choices.replaceChildren();
    const me = model.seats.get(p.seat);
    // Ready / another match, SONO TORNATO.
    if (p.ready_deadline && me && !me.ready && (!p.view || p.over)) {
      const seconds = Math.max(0, Math.round((new Date(p.ready_deadline) - Date.now()) / 1000));
      box.append(h("button", { type: "button", dataset: { role: "ready" }, onclick: () => send({ type: "ready" }) },
        p.over ? t("Un'altra partita ({s} s)", { s: seconds }) : t("Sono pronto per iniziare ({s} s)", { s: seconds })));
    }
    if (me && me.status === "sitout" && !me.leaving) {
      box.append(h("button", { type: "button", dataset: { role: "back" }, onclick: () => send({ type: "sitout", sitout: false }) }, t("SONO TORNATO")));
    }
    // Cards picked for discards and melds.
    const hand = handCards();
    const picked = ui.picked.map((i) => hand[i]).filter(Boolean);
    for (const g of plan.picks) {
      if (g.kind === "enum") {
        const spec = specForPick(g.specs, picked);
        box.append(h("button", { type: "button", dataset: { action: g.type }, disabled: !spec, title: spec ? "" : t("Scegli le carte"),
          onclick: () => spec && act(spec) }, g.specs[0].label || g.type, picked.length ? ` (${picked.length})` : ""));
      } else {
        for (const spec of g.specs) {
          const min = spec.cards.min ?? 1;
          const ok = picked.length >= min && picked.every((c) => spec.cards.subset_of.includes(c));
          const extra = { cards: picked };
          const b = h("button", { type: "button", dataset: { action: g.type, ...(spec.meld !== undefined ? { meld: spec.meld } : {}) }, disabled: !ok,
            onclick: () => meldAct(spec, extra.cards) },
          spec.label || g.type, spec.meld !== undefined ? [" ", optionText("meld", spec.meld)] : "");
          box.append(b);
        }
      }
    }
    for (const g of plan.singles) {
      const spec = picked.length === 1 ? g.specs.find((s) => s.card === picked[0]) : null;
      box.append(h("button", { type: "button", dataset: { action: g.type }, disabled: !spec, title: spec ? "" : t("Scegli una carta"),
        onclick: () => spec && act(spec) }, g.specs[0].label || g.type));
    }
    if (plan.opening) box.append(openingEl(plan.opening, picked));
    // Scala 40: take a jolly back by putting its card in its place; the panel then asks where the jolly goes.
    for (const g of plan.swaps) {
      for (const spec of g.specs) {
        const on = ui.swap && ui.swap.meld === spec.meld && ui.swap.card === spec.card;
        box.append(h("button", { type: "button", dataset: { action: g.type, meld: spec.meld }, "aria-pressed": on ? "true" : "false",
          title: "Poi scegli dove usare il jolly",
          onclick: () => { ui.swap = on ? null : spec; ui.layout = null; ui.swapLayouts = null; renderActions(p); } },
        `${spec.label || g.type} `, optionText("meld", spec.meld), ` con ${describeCard(spec.card)}`));
      }
    }
    const swap = ui.swap && plan.swaps.flatMap((g) => g.specs).find((s) => s.meld === ui.swap.meld && s.card === ui.swap.card);
    // Buttons and forms.
    const amountSpecs = plan.forms.flatMap((f) => f.specs).filter((s) => s.amount && s.amount.max > s.amount.min);
    const amount = amountSpecs.length ? amountBox(amountSpecs, typing) : null;
    if (amount) box.append(amount);
    else ui.amount = null; // no amount to choose: the decision it was typed for is gone
    for (const form of plan.forms) box.append(form.type === "premove" ? premoveEl(form) : formEl(form));
    // A card with several plays, a meld with several layouts, the jolly taken back: the choices.
    if (ui.layout) {
      choices.append(...layoutEl(p));
    } else if (swap) {
      choices.append(...swapEl(p, swap, picked));
    } else if (ui.choice && plan.cardPlays.has(ui.choice)) {
      const specs = plan.cardPlays.get(ui.choice);
      choices.append(h("span", { class: "choices-title" }, `${describeCard(ui.choice)}:`),
        ...specs.map((s) => h("button", { type: "button", dataset: { action: s.type }, onclick: () => act(s) },
          s.take && s.take.length ? [`${s.label} `, h("span", { class: "take" }, s.take.map((c) => card(c, "small")))] : (s.label || s.type))),
        h("button", { type: "button", class: "secondary", onclick: () => { ui.choice = null; renderActions(p); renderHand(p); } }, "Annulla"));
    } else { ui.choice = null; ui.swap = null; }
    choices.hidden = !choices.childNodes.length;
    amount?.restore();
  }

  /** Sette e mezzo's Premove (rules 004): the decision set before the turn comes, played by the server then. */
  function premoveEl(form) {
    const set = model.premove;
    const send = (s) => {
      if (!s.amount) { act(s); return; }
      const amount = s.amount.max > s.amount.min ? readAmount(s) : s.amount.min;
      if (amount !== null) act(s, { amount });
    };
    const box = h("div", { class: "form-group premove", dataset: { role: "premove" }, role: "group", "aria-label": t("Premove") },
      h("span", { class: "choices-title" }, t("Premove: decidi prima che tocchi a te")));
    if (set && set.decision) {
      box.append(h("span", { class: "premove-set", dataset: { role: "premove-set" } },
        t("Impostato: {decision}", { decision: `${String(set.decision).toUpperCase()}${set.amount ? ` ${money(set.amount)}` : ""}` })));
    }
    for (const s of form.specs) {
      const cancel = s.decision === null || s.decision === undefined;
      box.append(h("button", { type: "button", class: cancel ? "secondary" : "", dataset: { action: "premove", decision: cancel ? "" : s.decision },
        "aria-pressed": cancel ? undefined : (set && set.decision === s.decision ? "true" : "false"), onclick: () => send(s) },
      cancel ? t("Annulla premove") : String(s.decision).toUpperCase()));
    }
    return box;
  }

  function formEl(form) {
    const chosen = ui.form[form.type] || {};
    for (const f of form.fields) if (!f.values.some((v) => v.key === chosen[f.name])) chosen[f.name] = f.values[0].key;
    ui.form[form.type] = chosen;
    const spec = specForChoice(form, chosen);
    const wrap = h("div", { class: form.fields.length ? "form-group" : "form-inline" });
    for (const f of form.fields) {
      const group = h("div", { class: "segmented", role: "group", "aria-label": f.name });
      group.append(h("span", { class: "segmented-title" }, f.name.replace(/_/g, " ")));
      for (const val of f.values) {
        group.append(h("button", { type: "button", class: "secondary small", "aria-pressed": chosen[f.name] === val.key ? "true" : "false",
          onclick: () => { chosen[f.name] = val.key; renderActions(last); } }, optionText(f.name, val.value)));
      }
      wrap.append(group);
    }
    const s = spec || form.specs[0];
    const fixed = s.amount && s.amount.min === s.amount.max;
    // The rules' SITOUT at the invito is worded for the page (issue 20: a raw English word).
    const name = form.type === "sitout" ? t("SITOUT (salta la mano)") : (s.label || s.type);
    const text = fixed && s.amount.min > 0 ? `${name} ${money(s.amount.min)}` : name;
    wrap.append(h("button", { type: "button", dataset: { action: form.type, ...(s.amount && !fixed ? { amount: "" } : {}) }, disabled: !spec, onclick: () => {
      if (!spec) return;
      if (spec.amount) {
        const amount = fixed ? spec.amount.min : readAmount(spec);
        if (amount === null) return;
        act(spec, { amount });
      } else act(spec);
    } }, text));
    return wrap;
  }

  /** Scala 40's opening: several melds at once, each a group of picked cards. */
  function openingEl(opening, picked) {
    const spec = opening.spec;
    const parts = ui.meldPart;
    const box = h("div", { class: "opening", dataset: { role: "opening" } });
    box.append(h("span", { class: "zone-title" }, `${spec.label || "Apri"}: ${parts.length} giochi`));
    for (const [i, part] of parts.entries()) {
      box.append(h("span", { class: "opening-part" }, part.shown.map((c) => card(c, "small")),
        part.label ? h("span", { class: "opening-layout" }, part.label) : null,
        h("button", { type: "button", class: "secondary small", title: "Togli", onclick: () => { parts.splice(i, 1); renderAll(); } }, "×")));
    }
    if (spec.must_use) box.append(h("span", { class: "muted" }, ` Devi usare ${describeCard(spec.must_use)}`));
    box.append(h("button", { type: "button", class: "secondary", disabled: picked.length < (spec.melds.list_of?.cards?.min ?? 3),
      onclick: () => {
        // the layouts of this part, the parts before it as chosen (their cards are no longer free)
        const request = { type: opening.type, melds: [...parts.map((part) => ({ cards: part.cards, ...part.fields })), { cards: picked }] };
        chooseLayout(request, "Come calare il gioco?", (fields, choice) => {
          const chosen = Object.keys(fields).length > 0;
          parts.push({ cards: picked, fields, label: chosen ? choice.label : null, shown: chosen ? choice.layout.cards : picked });
          ui.picked = [];
          renderAll();
        }, { value: true });
      } }, "Aggiungi gioco"));
    box.append(h("button", { type: "button", dataset: { action: opening.type }, disabled: !parts.length,
      onclick: () => { const melds = parts.map((part) => ({ cards: part.cards, ...part.fields })); ui.meldPart = []; act(spec, { melds, must_use: undefined }); } }, spec.label || opening.type));
    return box;
  }

  // Long hands (rummy, tresette) are shown sorted by suit and rank; short ones as dealt.
  const ORDER = "A23456789TJQK";
  const SUIT_ORDER = "hdcs";
  const sortKey = (c) => (c[0] === "X" ? 99 : SUIT_ORDER.indexOf(c[1]) * 20 + ORDER.indexOf(c[0]));

  function handCards() {
    const me = model?.seats.get(last?.seat);
    const cards = (me && me.cards) || [];
    if (cards.some((c) => typeof c !== "string")) return cards;
    // the player's own order (cards dragged or moved with Alt+arrows) over the sorted or dealt one
    return arrange(cards.length < 9 ? cards : [...cards].sort((a, b) => sortKey(a) - sortKey(b)), ui.order);
  }

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

  function renderHand(p) {
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
            renderActions(p);
          });
        } else {
          if (ui.choice === code) btn.setAttribute("aria-pressed", "true");
          btn.addEventListener("click", () => {
            if (plays.length === 1) { act(plays[0]); return; }
            ui.choice = code;
            renderHand(p);
            renderActions(p);
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
    const hint = !playing ? "" : picking ? t(" · tocca le carte da scegliere") : t(" · tocca una carta per giocarla");
    el.append(h("span", { class: "zone-title" }, t("Le tue carte"), model.handNote ? h("strong", { class: "hand-note" }, ` · ${model.handNote}`) : null, hint), row);
    fitHand(row, hand.length);
  }

  /** A meld the viewer may extend answers a click: the picked cards are attached to it. */
  function attachOnClick(el, meld) {
    const spec = plan?.picks.flatMap((g) => g.specs).find((s) => s.meld === meld.id && s.cards && s.cards.subset_of);
    if (!spec) return;
    el.classList.add("meld--attachable");
    el.setAttribute("role", "button");
    el.setAttribute("tabindex", "0");
    el.setAttribute("aria-label", `${spec.label || spec.type}: ${meld.cards.map(describeCard).join(", ")}`);
    const go = () => {
      const hand = handCards();
      const picked = ui.picked.map((i) => hand[i]).filter(Boolean);
      if (picked.length < (spec.cards.min ?? 1)) { notice(t("Scegli prima le carte da attaccare")); return; }
      meldAct(spec, picked);
    };
    el.addEventListener("click", go);
    el.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); go(); } });
  }

  // --- topping up the table credit from the felt (lobby:rebuy answers JSON), then playing on ----
  const rebuyUrl = root.dataset.rebuyUrl;
  async function topUp(cents) {
    const token = document.querySelector("input[name=csrfmiddlewaretoken]")?.value || "";
    const body = new URLSearchParams({ amount: euroText(cents), csrfmiddlewaretoken: token });
    try {
      const res = await fetch(rebuyUrl, { method: "POST", credentials: "same-origin", body,
        headers: { Accept: "application/json", "X-CSRFToken": token } });
      const data = await res.json().catch(() => ({}));
      if (!res.ok) { notice(data.message || t("Ricarica non riuscita")); return false; }
      notice(data.message || t("Credito al tavolo aggiornato."));
      // a gioco a partite: topping up at the end-of-match panel is choosing another match
      if (root.dataset.family === "partite" && last && (!last.view || last.over)) send({ type: "ready" });
      return true;
    } catch {
      notice(t("Ricarica non riuscita"));
      return false;
    }
  }

  // --- the whole table ---------------------------------------------------------------------------
  function renderAll() {
    const p = last;
    if (!p) return;
    model = buildModel(p);
    // Sette e mezzo's Premove the viewer set (only his own view has it): shown by the Premove panel.
    const premove = model.sections.find((sec) => sec.key === "premove");
    model.premove = premove ? premove.value : null;
    if (premove) premove.done = true;
    // Tempo partita: giochi a partite keep one clock per line (0, 1: positions alternate), others per seat.
    model.lineOf = (no) => {
      const pos = p.view?.positions;
      if (p.clocks && "0" in p.clocks && Array.isArray(pos) && pos.includes(no)) return String(pos.indexOf(no) % 2);
      return String(no);
    };
    settings.money = root.dataset.family !== "partite";
    settings.seatName = (n) => seatName(model, n);
    const hand = handCards();
    plan = planActions(p.legal, hand);
    ui.picked = ui.picked.filter((i) => i < hand.length);
    // Between hands a seat's table credit comes with the "waiting" block (a stack out of money shows € 0,00).
    if (!p.view && settings.money) for (const w of p.waiting?.seats || []) { const s = model.seats.get(w.number); if (s && s.chips === undefined) s.chips = w.credit; }
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
    else view.append(centre(model, p));
    // Why the table waits (issue 20): who is short of credit, sitting out or gone, and a top-up.
    const why = waitingEl(model, p, { topUp, seatName: (n) => seatName(model, n) });
    if (why) view.append(why);
    // The end of a hand or match, on the felt: who won what, and the score sheet.
    const names = { seatName: (n) => seatName(model, n), lineName: (i) => lineName(model, model.lines, i, (n) => seatName(model, n)) };
    const summary = summaryEl(model, p, { seatName: names.seatName, shown: shownPunti,
      measures: measures.map((e) => measureText(e, names)).filter(Boolean) });
    if (summary) {
      view.append(summary);
      // The server holds the next deal a moment after a hand (longer after a showdown): when it comes.
      if (p.next_hand_at) {
        summary.append(h("p", { class: "next-hand", "data-role": "next-hand" }, t("Prossima mano tra"), " ",
          h("span", { class: "clock", dataset: { deadline: p.next_hand_at } })));
      }
    }
    // The side panel's seat count, live (issue 20).
    const count = document.querySelector("[data-role=seated-count]");
    if (count) count.textContent = String((p.seats || []).length);
    const below = $("below");
    below.replaceChildren();
    // Burraco, Scala 40: the melds lie on the felt (issue 20), the viewer's nearest to him.
    if (model.melds) view.append(meldsEl(model, attachOnClick));
    for (const el of [resultEl(model, model.result), resultEl(model, model.dealResult, "Risultato della smazzata"), scoresEl(model), detailsEl(model)]) if (el) below.append(el);
    renderHand(p);
    renderActions(p);
    renderToggles(p);
    tickClocks(root);
    // The viewer's turn comes: a sound (once per decision).
    const mine = model.seats.get(p.seat);
    const turnKey = mine && mine.toAct && p.deadline ? `${p.hand}:${p.deadline}` : null;
    if (turnKey && turnKey !== lastTurn) {
      if (!scopaNow) play(root, "turn");
      const sr = $("sr-status"); // screen readers hear it; nothing moves on the page
      if (sr) sr.textContent = t("Tocca a te");
    }
    lastTurn = turnKey;
  }

  // --- pairs (coppie): the seats at N, E, S, O as the rules place them, the partner opposite ------
  const COMPASS = { b: "S", l: "O", t: "N", r: "E" };
  function markPairs(seats, p) {
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
  let lastTurn = null;
  function toggle(role, text, on, change) {
    const input = h("input", { type: "checkbox", dataset: { role }, checked: on ? true : undefined });
    input.addEventListener("change", () => change(input.checked, input));
    return h("label", { class: "toggle" }, input, ` ${text}`);
  }
  async function leaveNext(leave, input) {
    const token = document.querySelector("input[name=csrfmiddlewaretoken]")?.value || "";
    try {
      const res = await fetch(root.dataset.leaveNextUrl, { method: "POST", credentials: "same-origin",
        body: new URLSearchParams({ leave: leave ? "1" : "0", csrfmiddlewaretoken: token }),
        headers: { Accept: "application/json", "X-CSRFToken": token } });
      const data = await res.json().catch(() => ({}));
      if (!res.ok) { input.checked = !leave; notice(data.message || t("Giocata non ammessa")); return; }
      if (data.left) window.location.assign(root.dataset.lobbyUrl || "/lobby/");
    } catch { input.checked = !leave; }
  }
  function renderToggles(p) {
    const box = $("toggles");
    if (!box) return;
    box.replaceChildren();
    const me = model.seats.get(p.seat);
    if (me && root.dataset.family === "puntate") {
      // checked while he sits out: unchecking it is SONO TORNATO
      box.append(toggle("sitout-next", t("Sitout prossima mano"), me.status === "sitout", (on) => send({ type: "sitout", sitout: on })));
      box.append(toggle("leave-next", t("Esci alla prossima mano"), !!me.leaving, leaveNext));
    }
    const sound = h("button", { type: "button", class: "secondary small sound-switch", dataset: { role: "sound" },
      "aria-pressed": muted() ? "false" : "true" }, muted() ? t("Audio spento") : t("Audio attivo"));
    sound.addEventListener("click", () => { setMuted(!muted()); renderToggles(p); });
    box.append(sound);
  }

  function renderState(msg) {
    const prev = last ? last.version : null;
    if (last && msg.version !== last.version) { ui.picked = []; ui.choice = null; ui.meldPart = []; ui.layout = null; ui.swap = null; ui.swapLayouts = null; }
    if (msg.over && !(last && last.over)) history.refresh();
    last = msg;
    version = msg.version;
    settings.style = styleForGame(root.dataset.deckStyle, italian);
    root.dataset.version = String(msg.version);
    root.dataset.game = msg.game || "";
    root.dataset.over = msg.over ? "1" : "0";
    if (!$("confirm").hidden) { $("confirm").hidden = true; pendingConfirm = null; }
    notePunti(msg);
    const moved = prev !== null && prev !== msg.version ? before(root) : null;
    renderAll();
    const tally = tallyText(animate(root, moved, msg.events));
    if (tally) root.dataset.motion = tally;
    logEvents(msg);
  }

  /** The last moves at the table, newest first (a new hand starts a new log). */
  let logHand = null;
  const shownPunti = {}; // seat -> the hand he showed (MOSTRO), for the end-of-hand summary
  let puntiHand = null;
  const measures = []; // this hand's events that are automatic measures (summary.js words them)
  let scopaNow = false; // a scopa sounded with this message: the turn's sound gives way to it
  function notePunti(msg) {
    scopaNow = false;
    if (msg.hand !== puntiHand) { puntiHand = msg.hand; for (const k of Object.keys(shownPunti)) delete shownPunti[k]; measures.length = 0; }
    for (const e of msg.events || []) {
      if (e && typeof e === "object" && measureText(e, { seatName: () => "", lineName: () => "" })) measures.push(e);
      if (e && e.type === "mostro" && typeof e.punto === "string") shownPunti[e.seat] = e.punto;
      if (e && e.scopa) { play(root, "scopa"); scopaNow = true; }
    }
  }
  function logEvents(msg) {
    const log = $("log");
    if (!log) return;
    if (msg.hand !== logHand) { logHand = msg.hand; log.querySelector("ol")?.replaceChildren(); }
    const lines = (msg.events || []).map((e) => eventLine(model, e)).filter(Boolean);
    if (!lines.length) { log.hidden = !log.querySelector("li"); return; }
    let list = log.querySelector("ol");
    if (!list) { list = h("ol", { class: "log-lines" }); log.append(h("span", { class: "zone-title" }, t("Ultime giocate")), list); }
    for (const line of lines) list.prepend(line);
    while (list.children.length > 6) list.lastElementChild.remove();
    log.hidden = false;
  }

  /** Whether a view answers the action in flight: the server's owner says which version this
   * seat's last decision made (``acted``); without it, or once the seat is no longer due, any view does. */
  function answered(msg) {
    if (sentFor === null || typeof msg.acted !== "number") return true;
    return msg.acted > sentFor || !(msg.to_act || []).includes(msg.seat) || !!msg.over;
  }

  function onMessage(event) {
    heard = Date.now();
    let msg;
    try { msg = JSON.parse(event.data); } catch { return; }
    if (msg.type === "table.version") {
      beating = true;
      if (msg.version > version) send({ type: "sync", version });
      return;
    }
    if (msg.type === "error" || (msg.type === "table.state" && answered(msg))) { sentFor = null; root.dataset.busy = "0"; }
    if (msg.type === "table.state") handover = false;
    if (msg.type === "table.state") renderState(msg);
    else if (msg.type === "error") notice(msg.message || t("Giocata non ammessa"));
    else if (msg.type === "chat" || msg.type === "chat.history") {  // history: on (re)connect
      const log = $("chat-log");
      for (const m of msg.type === "chat" ? [msg] : msg.lines) {
        if (m.line && log.querySelector(`[data-line="${m.line}"]`)) continue;
        const p = chat.line(m);
        if (m.audience === "spectators" || String(m.room || "").startsWith("spettatori:")) {
          p.classList.add("chat-spectators");  // written during a hand: the players do not see it
          p.title = "Solo tra spettatori";
        }
        log.append(p);
      }
      log.scrollTop = log.scrollHeight;
    } else if (msg.type === "notice") chat.show([msg]);  // moderation's notices, pushed live
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/ws/table/${tableId}/`);
    socket.addEventListener("open", () => {
      heard = Date.now();
      root.dataset.connected = "1";
      if (retries) notice(t("Connessione ristabilita"));
      else clearNotice();
      if (retries || handover) socket.send(JSON.stringify({ type: "sync", version }));
      retries = 0;
    });
    socket.addEventListener("message", onMessage);
    socket.addEventListener("close", (event) => {
      root.dataset.connected = "0";
      sentFor = null;
      root.dataset.busy = "0";
      // 4409: the table's owner is in another server process now (a takeover). Reconnect at once
      // and resync by version, with no notice: the table goes on after a moment's pause. Only if
      // the new socket closes again before a view comes do the notice and the back-off below start.
      if (event.code === 4409 && !handover) {
        handover = true;
        setTimeout(connect, random() * 250);  // (a few sockets at once: not all in the same instant)
        return;
      }
      // Closes that another attempt cannot undo (lobby/consumers.py, piattaforma/consumers.py):
      // say why, once, and stop.
      const final = FINAL_CLOSES[event.code];
      if (final) { root.dataset.closed = String(event.code); notice(t(final), true); return; }
      retries += 1;
      // Ten attempts, up to one to five seconds apart (data-max-retries / data-retry-ms change
      // them), each wait drawn between half and all of its step: when a server dies, its thousand
      // sockets close in the same instant, and must not all knock again in the same instant.
      const most = Number(root.dataset.maxRetries || 10);
      const step = Number(root.dataset.retryMs || 1000);
      if (retries > most) { notice(t("Tentativo di riconnessione fallito - controlla la tua connessione"), true); return; }
      notice(t("Tentativo di riconnessione in corso"), true);
      setTimeout(connect, Math.min(step * retries, step * 5) * (0.5 + random() / 2));
    });
  }

  $("chat-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const input = e.target.elements.text;
    if (input.value.trim() && socket?.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ type: "chat", text: input.value }));
      input.value = "";
    }
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !$("confirm").hidden) { $("confirm").hidden = true; pendingConfirm = null; }
    else if (e.key === "Escape" && (ui.layout || ui.swap) && last) { ui.layout = null; ui.swap = null; renderActions(last); }
  });

  let lateFor = null;
  setInterval(() => {
    tickClocks(root);
    // Ten seconds left on the viewer's own decision: a warning sound, once.
    const mine = root.querySelector("[data-role=seats] .seat.me.to-act .clock[data-deadline]");
    if (mine && new Date(mine.dataset.deadline) - Date.now() < 10000 && lateFor !== mine.dataset.deadline) {
      lateFor = mine.dataset.deadline;
      play(root, "late");
    }
  }, 1000);
  setInterval(() => {
    const beatMs = Number(root.dataset.heartbeatMs || 0);
    if (beating && beatMs > 0 && socket?.readyState === WebSocket.OPEN && Date.now() - heard > 3 * beatMs) socket.close();
  }, 250);
  let resizeTimer = null;
  window.addEventListener("resize", () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(renderAll, 150); });
  // --- gestures: double-click, drag onto the felt, a table card, a meld or the hand (gestures.js) ---
  function playCard(i, onCard) {
    const code = handCards()[i];
    if (!code || !plan || !last) return;
    const plays = plan.cardPlays.get(code);
    if (plays && plays.length) {
      // dropped on a table card: the plays that take it
      const taking = onCard ? plays.filter((s) => Array.isArray(s.take) && s.take.includes(onCard)) : [];
      const list = taking.length ? taking : plays;
      if (list.length === 1) { act(list[0]); return; }
      ui.choice = code;
      renderHand(last);
      renderActions(last);
      return;
    }
    const singles = plan.singles.flatMap((g) => g.specs).filter((s) => s.card === code);
    if (singles.length === 1) { act(singles[0]); return; }
    if (singles.length > 1) { ui.picked = [i]; renderHand(last); renderActions(last); notice(t("Scegli la giocata")); return; }
    notice(t("Questa carta non si può giocare ora"));
  }
  function attachCard(i, meldId) {
    const hand = handCards();
    const spec = plan?.picks.flatMap((g) => g.specs).find((s) => String(s.meld) === String(meldId) && s.cards && s.cards.subset_of);
    if (!spec) { notice(t("Non puoi attaccare a questo gioco ora")); return; }
    const picked = (ui.picked.includes(i) ? ui.picked : [...ui.picked, i]).map((j) => hand[j]).filter(Boolean);
    if (!picked.every((c) => spec.cards.subset_of.includes(c))) { notice(t("Giocata non ammessa")); return; }
    meldAct(spec, picked);
  }
  function moveCard(from, to, byKey) {
    const hand = handCards();
    if (to < 0 || to >= hand.length || from === to || !last) return;
    const order = [...hand];
    order.splice(to, 0, ...order.splice(from, 1));
    const was = hand.map((_, k) => k);
    was.splice(to, 0, ...was.splice(from, 1)); // was[new place] = old place
    ui.picked = ui.picked.map((old) => was.indexOf(old));
    ui.order = order;
    renderHand(last);
    if (byKey) $("hand").querySelector(`[data-index="${to}"]`)?.focus();
  }
  wireGestures(root, { play: playCard, attach: attachCard, move: moveCard });

  const history = loadHistory(root, $("history"));
  const chat = chatModeration(root, $("chat-log"), tableId);
  connect();
  return { seatName: (n) => seatName(model, n) };
}
