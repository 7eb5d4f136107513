// What the player sends: the legal actions as buttons and forms (the in-page confirmation first
// when a spec asks for one), the cards picked for discards and melds, Scala 40's opening, Sette e
// mezzo's Premove, the amount box (betbox.js), and the table credit topped up from the felt.
// One action at a time: the page never decides what is legal, it sends back one of the server's specs.

import { card, describeCard, h, money, settings } from "./dom.js";
import { choiceText, fieldTitle } from "./choices.js";
import { actionOf, specForChoice, specForPick } from "./actions.js";
import { t } from "./i18n.js";
import { euroText } from "./amount.js";
import { amountBox, amountFocus, readAmount } from "./betbox.js";
import { forgetPicks, inFlight } from "./state.js";

/** The input of the table ``ctx``: ``act`` sends an action, ``renderActions`` draws the panels. */
export function input(ctx) {
  const { root, $, ui } = ctx;
  let pendingConfirm = null;

  // --- sending an action: the in-page confirmation first when the spec asks for one ----------
  function act(spec, extra = {}) {
    const action = actionOf(spec, extra);
    const go = () => {
      // One action at a time: a double click must not send twice (the server would refuse the
      // second, and the player would see a spurious "Giocata non ammessa"), not even on a newer
      // view that came meanwhile (at poker's invito every seat decides at once: another's answer
      // is a new view, the same decision still open). An answer lost on the way frees it after a while.
      // An action that could not go out (the socket is reconnecting) holds nothing back: the page
      // says so, and the player's next click sends it once the socket is open again.
      if (inFlight(ctx.sentFor, ctx.sentAt, Date.now())) return;
      if (!ctx.send({ type: "act", action, version: ctx.version })) return;
      ctx.sentFor = ctx.version;
      ctx.sentAt = Date.now();
      root.dataset.busy = "1";
      forgetPicks(ui);
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

  /** Close the confirmation if it is open (a new view, Escape); whether it was. */
  function closeConfirm() {
    if ($("confirm").hidden) return false;
    $("confirm").hidden = true;
    pendingConfirm = null;
    return true;
  }

  function optionText(field, value) {
    if (field === "meld" && ctx.model.melds) {
      const m = ctx.model.melds.melds.find((x) => x.id === value);
      if (m) return h("span", { class: "meld-choice" }, m.cards.map((c) => card(c, "small")));
    }
    if (typeof value === "string" && /^(?:[A2-9TJQK][hdcs]|X[1-4])$/.test(value)) return describeCard(value);
    if (value === null) return "—";
    const words = choiceText(field, value, { t, style: settings.style });
    if (words !== null) return words;
    if (typeof value === "object") return JSON.stringify(value);
    if (field === "mazzetto" && Number.isInteger(value)) return `Mazzetto ${value + 1}`;
    return String(value).replace(/_/g, " ");
  }

  // --- the legal actions -----------------------------------------------------------------------
  function renderActions(p) {
    const { plan } = ctx;
    const box = $("actions");
    const choices = $("choices");
    const typing = amountFocus(box);
    box.querySelector("[data-role=amount]")?.retire?.();
    box.replaceChildren();
    choices.replaceChildren();
    const me = ctx.model.seats.get(p.seat);
    // Ready / another match, SONO TORNATO.
    if (p.ready_deadline && me && !me.ready && (!p.view || p.over)) {
      const seconds = Math.max(0, Math.round((new Date(p.ready_deadline) - Date.now()) / 1000));
      box.append(h("button", { type: "button", dataset: { role: "ready" }, onclick: () => ctx.send({ type: "ready" }) },
        p.over ? t("Un'altra partita ({s} s)", { s: seconds }) : t("Sono pronto per iniziare ({s} s)", { s: seconds })));
    }
    if (me && me.status === "sitout" && !me.leaving) {
      box.append(h("button", { type: "button", dataset: { role: "back" }, onclick: () => ctx.send({ type: "sitout", sitout: false }) }, t("SONO TORNATO")));
    }
    // Cards picked for discards and melds.
    const hand = ctx.handCards();
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
            onclick: () => ctx.meldAct(spec, extra.cards) },
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
    const amount = amountSpecs.length ? amountBox(ctx, amountSpecs, typing) : null;
    if (amount) box.append(amount);
    else ui.amount = null; // no amount to choose: the decision it was typed for is gone
    for (const form of plan.forms) box.append(form.type === "premove" ? premoveEl(form) : formEl(form));
    // A card with several plays, a meld with several layouts, the jolly taken back: the choices.
    if (ui.layout) {
      choices.append(...ctx.layoutEl(p));
    } else if (swap) {
      choices.append(...ctx.swapEl(p, swap, picked));
    } else if (ui.choice && plan.cardPlays.has(ui.choice)) {
      const specs = plan.cardPlays.get(ui.choice);
      choices.append(h("span", { class: "choices-title" }, `${describeCard(ui.choice)}:`),
        ...specs.map((s) => h("button", { type: "button", dataset: { action: s.type }, onclick: () => act(s) },
          s.take && s.take.length ? [`${s.label} `, h("span", { class: "take" }, s.take.map((c) => card(c, "small")))] : (s.label || s.type))),
        h("button", { type: "button", class: "secondary", onclick: () => { ui.choice = null; renderActions(p); ctx.renderHand(p); } }, "Annulla"));
    } else { ui.choice = null; ui.swap = null; }
    choices.hidden = !choices.childNodes.length;
    amount?.restore();
  }

  /** Sette e mezzo's Premove (rules 004): the decision set before the turn comes, played by the server then. */
  function premoveEl(form) {
    const set = ctx.model.premove;
    const send = (s) => {
      if (!s.amount) { act(s); return; }
      const amount = s.amount.max > s.amount.min ? readAmount(ctx, s) : s.amount.min;
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
      const group = h("div", { class: "segmented", role: "group", "aria-label": fieldTitle(f.name, t), dataset: { field: f.name } });
      group.append(h("span", { class: "segmented-title" }, fieldTitle(f.name, t)));
      for (const val of f.values) {
        group.append(h("button", { type: "button", class: "secondary small", "aria-pressed": chosen[f.name] === val.key ? "true" : "false",
          onclick: () => { chosen[f.name] = val.key; renderActions(ctx.last); } }, optionText(f.name, val.value)));
      }
      wrap.append(group);
    }
    const s = spec || form.specs[0];
    const fixed = s.amount && s.amount.min === s.amount.max;
    // The rules' SITOUT at the invito is worded for the page (not a raw English word).
    const name = form.type === "sitout" ? t("SITOUT (salta la mano)") : (s.label || s.type);
    const text = fixed && s.amount.min > 0 ? `${name} ${money(s.amount.min)}` : name;
    wrap.append(h("button", { type: "button", dataset: { action: form.type, ...(s.amount && !fixed ? { amount: "" } : {}) }, disabled: !spec, onclick: () => {
      if (!spec) return;
      if (spec.amount) {
        const amount = fixed ? spec.amount.min : readAmount(ctx, spec);
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
        h("button", { type: "button", class: "secondary small", title: "Togli", onclick: () => { parts.splice(i, 1); ctx.renderAll(); } }, "×")));
    }
    if (spec.must_use) box.append(h("span", { class: "muted" }, ` Devi usare ${describeCard(spec.must_use)}`));
    box.append(h("button", { type: "button", class: "secondary", disabled: picked.length < (spec.melds.list_of?.cards?.min ?? 3),
      onclick: () => {
        // the layouts of this part, the parts before it as chosen (their cards are no longer free)
        const request = { type: opening.type, melds: [...parts.map((part) => ({ cards: part.cards, ...part.fields })), { cards: picked }] };
        ctx.chooseLayout(request, "Come calare il gioco?", (fields, choice) => {
          const chosen = Object.keys(fields).length > 0;
          parts.push({ cards: picked, fields, label: chosen ? choice.label : null, shown: chosen ? choice.layout.cards : picked });
          ui.picked = [];
          ctx.renderAll();
        }, { value: true });
      } }, "Aggiungi gioco"));
    box.append(h("button", { type: "button", dataset: { action: opening.type }, disabled: !parts.length,
      onclick: () => { const melds = parts.map((part) => ({ cards: part.cards, ...part.fields })); ui.meldPart = []; act(spec, { melds, must_use: undefined }); } }, spec.label || opening.type));
    return box;
  }

  // --- topping up the table credit from the felt (lobby:rebuy answers JSON), then playing on ----
  async function topUp(cents) {
    const token = document.querySelector("input[name=csrfmiddlewaretoken]")?.value || "";
    const body = new URLSearchParams({ amount: euroText(cents), csrfmiddlewaretoken: token });
    try {
      const res = await fetch(root.dataset.rebuyUrl, { method: "POST", credentials: "same-origin", body,
        headers: { Accept: "application/json", "X-CSRFToken": token } });
      const data = await res.json().catch(() => ({}));
      if (!res.ok) { ctx.notice(data.message || t("Ricarica non riuscita")); return false; }
      ctx.notice(data.message || t("Credito al tavolo aggiornato."));
      // a gioco a partite: topping up at the end-of-match panel is choosing another match
      const last = ctx.last;
      if (root.dataset.family === "partite" && last && (!last.view || last.over)) ctx.send({ type: "ready" });
      return true;
    } catch {
      ctx.notice(t("Ricarica non riuscita"));
      return false;
    }
  }

  /** "Esci alla prossima mano": the server's answer, the box unchecked again if refused. */
  async function leaveNext(leave, box) {
    const token = document.querySelector("input[name=csrfmiddlewaretoken]")?.value || "";
    try {
      const res = await fetch(root.dataset.leaveNextUrl, { method: "POST", credentials: "same-origin",
        body: new URLSearchParams({ leave: leave ? "1" : "0", csrfmiddlewaretoken: token }),
        headers: { Accept: "application/json", "X-CSRFToken": token } });
      const data = await res.json().catch(() => ({}));
      if (!res.ok) { box.checked = !leave; ctx.notice(data.message || t("Giocata non ammessa")); return; }
      if (data.left) window.location.assign(root.dataset.lobbyUrl || "/lobby/");
    } catch { box.checked = !leave; }
  }

  return { act, closeConfirm, renderActions, topUp, leaveNext };
}
