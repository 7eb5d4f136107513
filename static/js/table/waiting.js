// Why a table between hands is not dealing, from the payload's "waiting" block
// (lobby.selectors.table_waiting): a seat short of the credit to be dealt in (a gioco a partite:
// the perdita massima), sitting out or gone, too few players. The viewer short of credit gets a
// top-up form on the felt; topping up restarts the table.

import { h, settings } from "./dom.js";
import { t } from "./i18n.js";
import { euroText, parseEuro, realmMoney } from "./amount.js";

/** Table credit is money at every table (a gioco a partite's scores are not): "€ 16,50"; gettoni
 * at a training table. */
const money = (cents) => realmMoney(cents, settings.play, t);

/** The "why we wait" panel of the felt, or null when nothing holds the table up. */
export function waitingEl(model, p, { topUp, seatName }) {
  const w = p.waiting;
  if (!w || !Array.isArray(w.seats)) return null;
  const running = p.view && !p.over;
  if (running) return null;
  const lines = [];
  let form = null;
  for (const s of w.seats) {
    const name = seatName(s.number);
    if (s.number === p.seat) {
      if (s.short > 0) {
        lines.push(h("li", { dataset: { why: "short-me" } }, t("Il tuo credito al tavolo ({credit}) è sotto il minimo per giocare ({min}): ricarica almeno {short}.",
          { credit: money(s.credit), min: money(w.min_credit), short: money(s.short) })));
        form = topUpForm(s.short, topUp);
      } else if (s.sitout) lines.push(h("li", { dataset: { why: "sitout-me" } }, t("Sei in sitout: premi SONO TORNATO per giocare.")));
    } else if (s.short > 0) {
      lines.push(h("li", { dataset: { why: "short" } }, t("{name} non ha credito sufficiente per giocare ({credit}).", { name, credit: money(s.credit) })));
    } else if (s.away) {
      lines.push(h("li", { dataset: { why: "away" } }, t("{name} si è disconnesso.", { name })));
    } else if (s.sitout) {
      lines.push(h("li", { dataset: { why: "sitout" } }, t("{name} è in sitout.", { name })));
    }
  }
  // At the end of a match only what stops the next one matters; the count only while nothing deals.
  if (!p.view && w.playing < w.players_needed) {
    lines.push(h("li", { dataset: { why: "players" } }, t("Servono {need} giocatori in grado di giocare: ora sono {n}.", { need: w.players_needed, n: w.playing })));
  }
  if (!lines.length) return null;
  return h("div", { class: "waiting-why", dataset: { role: "waiting" }, role: "status" },
    h("strong", {}, t("Il tavolo aspetta:")), h("ul", {}, lines), form);
}

function topUpForm(short, topUp) {
  const input = h("input", { type: "text", name: "topup", inputmode: "decimal", value: euroText(short), size: 8, "aria-label": (settings.play ? t("Importo da aggiungere (gettoni)") : t("Importo da aggiungere (€)")) });
  const button = h("button", { type: "submit", dataset: { role: "topup" } }, t("Ricarica e gioca"));
  const form = h("form", { class: "topup-form", dataset: { role: "topup-form" } },
    h("label", {}, `${(settings.play ? t("Importo da aggiungere (gettoni)") : t("Importo da aggiungere (€)"))} `, input), button);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const cents = parseEuro(input.value);
    if (cents === null || cents <= 0) { input.setAttribute("aria-invalid", "true"); input.focus(); return; }
    button.disabled = true;
    await topUp(cents);
    button.disabled = false;
  });
  return form;
}
