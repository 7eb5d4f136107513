// Meld layouts (Burraco, Scala 40): where the matta goes, ace low or high, the jolly's suit. When
// picked cards can take several layouts the server lists them (POST {"action": ...} to
// data-layouts-url, lobby:layouts) and the choices panel lists them (button[data-layout], with
// data-start or data-jolly-suit: what is sent); Scala 40's "Sostituisci il jolly" opens it with
// button[data-use=cala] and button[data-use=attacca][data-meld] (where the jolly taken back goes).
// The server lists the layouts; the page only words them (melds.js).

import { card, describeCard, h } from "./dom.js";
import { actionOf } from "./actions.js";
import { layoutChoices } from "./melds.js";

/** The meld layouts of the table ``ctx``: asking the server, and the choices panel's buttons. */
export function layouts(ctx) {
  const { root, ui } = ctx;
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
    const at = ctx.version;
    fetchLayouts(request).then((found) => {
      asking = false;
      if (ctx.sentFor === null) root.dataset.busy = "0";
      if (at === ctx.version) answer(found);
    });
  }

  /** With several layouts, ask which in the choices panel; `send(fields, choice)` gets the pick. */
  function pickLayout(found, title, send, opts = {}) {
    const list = layoutChoices(found || [], opts);
    // one layout, none (the engine's refusal follows) or no answer: sent without a layout, the server takes the first
    if (list.length <= 1) { ui.layout = null; send({}, list[0] || null); return; }
    ui.layout = { title, choices: list, send };
    ctx.renderActions(ctx.last);
    ctx.$("choices").querySelector("button[data-layout]")?.focus();
  }

  /** Ask the server for the layouts of a request, then pick one as ``pickLayout``. */
  function chooseLayout(request, title, send, opts = {}) {
    askLayouts(request, (found) => pickLayout(found, title, send, opts));
  }

  /** Lay (cala) or attach (attacca) the picked cards: the layout asked first when there is a choice. */
  function meldAct(spec, picked) {
    const base = { ...spec, cards: undefined, start: undefined, jolly_suit: undefined };
    const go = (fields) => ctx.act(base, { cards: picked, ...fields });
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
      h("button", { type: "button", class: "secondary", onclick: () => { ui.layout = null; ctx.renderActions(p); } }, "Annulla")];
  }

  /** Scala 40's sostituzione del jolly: the jolly taken back goes at once into a new meld or onto another one on the table. */
  function swapEl(p, spec, picked) {
    const left = [...ctx.handCards()];
    left.splice(left.indexOf(spec.card), 1);
    const available = picked.every((c) => picked.filter((x) => x === c).length <= left.filter((x) => x === c).length);
    const base = { type: spec.type, meld: spec.meld, card: spec.card };
    const swapAct = (use) => ctx.act(base, { use });
    // where the jolly attaches with these cards: every meld the server lists a layout of
    const key = JSON.stringify([spec.meld, spec.card, picked]);
    if (available && ui.swapLayouts?.key !== key) {
      ui.swapLayouts = { key, layouts: undefined };
      const at = ctx.version;
      fetchLayouts({ ...base, use: { type: "attacca", cards: picked } }).then((found) => {
        if (ui.swapLayouts?.key !== key || at !== ctx.version) return;
        ui.swapLayouts.layouts = found;
        ctx.renderActions(ctx.last);
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
      for (const m of ctx.model.melds?.melds || []) {
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
    out.push(h("button", { type: "button", class: "secondary", onclick: () => { ui.swap = null; ctx.renderActions(p); } }, "Annulla"));
    return out;
  }

  return { chooseLayout, meldAct, layoutEl, swapEl };
}
