// The amount box: euro typed the Italian way, a slider and the quick multiples, clamped to what
// the server allows and sent in cents (amount.js reads and writes the amounts). Mazzetti's
// MAZZETTO: the "amount" is the size of the mazzetto, a number of cards, not money.
// What the player typed and has not committed survives a redraw of the same decision.

import { h, money, settings } from "./dom.js";
import { t } from "./i18n.js";
import { amountKey, amountMarks, amountRange, clampAmount, euroText, isCount, keptAmount, parseChips, parseCount, parseEuro, readAmountText } from "./amount.js";

const countText = (n) => t("{n} carte", { n });

/** The amount box of ``ctx`` (its ui, last view, model) for these specs; ``typing``: where the
 * player was in the box before the redraw (``amountFocus``), restored by the box's ``restore()``. */
export function amountBox(ctx, specs, typing) {
  const { ui } = ctx;
  const count = specs.every(isCount);
  // a level tournament's table: chips, whole numbers (no euro, no cents)
  const [parse, fmt, said] = count ? [parseCount, String, countText] : settings.chips ? [parseChips, String, money] : [parseEuro, euroText, money];
  const name = count ? t("Carte del mazzetto") : settings.chips ? t("Importo (chips)") : (settings.play ? t("Importo (gettoni)") : t("Importo (€)"));
  const { lo, hi, step } = amountRange(specs, count || settings.chips);
  const key = amountKey(ctx.last, specs);
  if (ui.amount?.key !== key) ui.amount = { key, cents: null, text: null };
  const kept = ui.amount; // text: what the player typed and has not committed yet (null once formatted)
  const start = keptAmount(kept, lo, hi);
  const input = h("input", { type: "text", name: "amount", value: kept.text ?? fmt(start), inputmode: count || settings.chips ? "numeric" : "decimal", autocomplete: "off",
    size: 9, "aria-label": name, dataset: { cents: String(start) } });
  const slider = h("input", { type: "range", min: lo, max: hi, step, value: start, "aria-label": count ? name : t("Importo (cursore)"), "aria-valuetext": said(start) });
  const shown = h("output", { class: "amount-money", "aria-live": "polite" }, said(start));
  const set = (n, fromSlider = false) => {
    const v = clampAmount(n, lo, hi);
    kept.cents = v;
    kept.text = null;
    input.value = fmt(v);
    input.dataset.cents = String(v);
    if (!fromSlider) slider.value = String(v);
    slider.setAttribute("aria-valuetext", said(v));
    shown.textContent = said(v);
  };
  const typed = (text) => {
    const n = parse(text);
    if (n !== null) { shown.textContent = said(n); kept.cents = n; input.dataset.cents = String(n); }
  };
  // A box being redrawn is not the player leaving it: the browser's change on its removal commits nothing.
  let retired = false;
  input.addEventListener("change", () => { if (!retired) set(parse(input.value) ?? lo); });
  input.addEventListener("input", () => { kept.text = input.value; typed(input.value); });
  if (kept.text !== null) typed(kept.text);
  slider.addEventListener("input", () => set(Number(slider.value), true));
  const pot = count ? null : ctx.model.pots.find(([k]) => k === "pot" || k === "piatto")?.[1];
  const multiples = h("div", { class: "multiples" });
  for (const [mark, v] of amountMarks(lo, hi, pot)) {
    multiples.append(h("button", { type: "button", class: "secondary small", dataset: { multiple: mark }, onclick: () => set(v) }, mark));
  }
  input.addEventListener("keydown", (e) => {
    if (e.key !== "Enter") return;
    e.preventDefault();
    set(parse(input.value) ?? lo);
    const buttons = [...ctx.$("actions").querySelectorAll("button[data-action][data-amount]")];
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
export function amountFocus(box) {
  const el = document.activeElement;
  if (!el || !box.contains(el) || !el.closest("[data-role=amount]")) return null;
  if (el.type === "range") return { type: "range" };
  return { type: "text", start: el.selectionStart, end: el.selectionEnd, direction: el.selectionDirection };
}

/** The amount in the box for ``spec``, or null after telling the player what the box takes. */
export function readAmount(ctx, spec) {
  const input = ctx.$("actions").querySelector("input[name=amount]");
  const n = readAmountText(spec, input?.value ?? "", settings.chips);
  if (n === null) {
    ctx.notice(isCount(spec) ? t("Carte del mazzetto: da {min} a {max}", { min: spec.amount.min, max: spec.amount.max })
      : t("Importo non ammesso: da {min} a {max}", { min: money(spec.amount.min), max: money(spec.amount.max) }));
  }
  return n;
}
