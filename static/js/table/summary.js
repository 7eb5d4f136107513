// The end-of-hand / end-of-match summary on the felt: who won what and why.
// Giochi a partite: the winner, the points of the last smazzata by line with its breakdown
// (carte, denari, settebello, primiera, scope... as the engine's score detail has them) and the
// match totals. Giochi a puntate: each pot with its winners and the hands they showed (the
// "punto" of the MOSTRO events seen during the hand, e.g. "Full di K"). Both list the automatic
// measures the hand saw (a clock that ran out, a sitout for time or credit, a penalty, a match lost
// for time or abandon), from the events of the hand (client.js keeps them).

import { h, money } from "./dom.js";
import { t } from "./i18n.js";

const DETAIL_ROWS = [["carte", "Carte"], ["denari", "Denari"], ["settebello", "Settebello"], ["primiera", "Primiera"],
  ["scope", "Scope"], ["napola", "Napola"], ["re_bello", "Re bello"], ["grande", "Grande"], ["piccola", "Piccola"]];

export function lineName(model, lines, i, seatName) {
  const line = lines && lines[i];
  if (!line) return `${i + 1}`;
  return line.map((pos) => seatName(model.posSeat(pos))).join(" e ");
}

/** The last smazzata's score sheet: one column per line, a row per scoring item. */
function detailTable(model, deal, lines, seatName) {
  const detail = deal && typeof deal.detail === "object" ? deal.detail : null;
  const n = Array.isArray(deal?.points) ? deal.points.length : 0;
  if (!n) return null;
  const head = h("tr", {}, h("th", {}, ""), ...Array.from({ length: n }, (_, i) => h("th", { scope: "col" }, lineName(model, lines, i, seatName))));
  const rows = [];
  for (const [key, name] of DETAIL_ROWS) {
    if (!detail || !(key in detail)) continue;
    const v = detail[key];
    const won = detail[`${key}_punto`];
    const cells = Array.from({ length: n }, (_, i) => {
      let text;
      if (Array.isArray(v)) text = String(v[i] ?? "");
      else if (Number.isInteger(v)) text = v === i ? "✓" : ""; // the line that took it (settebello)
      else text = "";
      const mark = Number.isInteger(won) && won === i ? " ✓" : "";
      return h("td", { class: "num" }, `${text}${mark}`);
    });
    rows.push(h("tr", { dataset: { row: key } }, h("th", { scope: "row" }, t(name)), ...cells));
  }
  rows.push(h("tr", { class: "total", dataset: { row: "punti" } }, h("th", { scope: "row" }, t("Punti")),
    ...deal.points.map((p) => h("td", { class: "num" }, String(p)))));
  return h("table", { class: "summary-sheet" }, h("thead", {}, head), h("tbody", {}, rows));
}

/** One automatic measure in words, or null for an event that is not one. */
export function measureText(e, { seatName, lineName }) {
  if (!e || typeof e !== "object") return null;
  const who = Number.isInteger(e.seat) ? seatName(e.seat) : "";
  const amount = typeof e.amount === "number" ? money(e.amount) : "";
  switch (e.type) {
    case "tempo_scaduto": return t("Tempo scaduto: {line} perde la partita (penalità {penalty} punti)", { line: lineName(e.line), penalty: e.penalty ?? 0 });
    case "abbandona": return t("Abbandono: {line} perde la partita (penalità {penalty} punti)", { line: lineName(e.line), penalty: e.penalty ?? 0 });
    case "timeout": return t("Tempo scaduto per {who}: giocata automatica", { who });
    case "sitout":
      if (e.reason === "timeout") return t("{who} in sitout: tempo scaduto", { who });
      if (e.reason === "credito") return t("{who} in sitout: credito insufficiente", { who });
      return null;
    case "penalty": case "penale_banco": case "penale_punta": return t("Penale per {who}: {amount}", { who, amount });
    case "puntate_annullate": return t("Puntate annullate");
    case "pochi_giocatori": return t("Non ci sono abbastanza giocatori");
    default: return null;
  }
}

function measuresEl(list) {
  if (!list || !list.length) return null;
  return h("div", { class: "summary-measures", dataset: { role: "measures" } }, h("strong", {}, t("Misure automatiche")),
    h("ul", {}, list.map((text) => h("li", {}, text))));
}

/** Who won the match, in words: "Hai vinto" for the viewer's own line, else "Ha vinto" and its names. */
export function winnerText(model, r, lines, seatName) {
  if (r.draw || !Number.isInteger(r.winner)) return t("Pareggio");
  const line = lines && lines[r.winner];
  const seats = line ? line.map((pos) => Number(model.posSeat(pos))) : [];
  if (Number.isInteger(model.me) && seats.includes(model.me)) return seats.length > 1 ? t("Avete vinto") : t("Hai vinto");
  const name = lineName(model, lines, r.winner, seatName);
  return seats.length > 1 ? t("Hanno vinto {name}", { name }) : t("Ha vinto {name}", { name });
}

/** The summary of a finished match or hand, or null while play goes on. */
export function summaryEl(model, p, { seatName, shown, measures = [] }) {
  if (!p.view || !p.over) return null;
  const r = model.result;
  const box = h("section", { class: "summary", dataset: { role: "summary" }, "aria-label": t("Fine della partita") });
  if (r && r.per_seat) {
    box.setAttribute("aria-label", t("Fine della partita"));
    box.append(h("h3", {}, t("Fine della partita")));
    const lines = model.lines;
    box.append(h("p", { class: "summary-winner" }, winnerText(model, r, lines, seatName)));
    const history = Array.isArray(model.history) ? model.history : [];
    const sheet = detailTable(model, history[history.length - 1], lines, seatName);
    if (sheet) box.append(sheet);
    if (Array.isArray(r.points) && history.length > 1) {
      box.append(h("p", { class: "summary-totals" }, `${t("Totale")}: `,
        r.points.map((pt, i) => `${lineName(model, lines, i, seatName)} ${pt}`).join(" · ")));
    }
    const m = measuresEl(measures);
    if (m) box.append(m);
    return box;
  }
  if (r && Array.isArray(r.pots)) {
    box.setAttribute("aria-label", t("Fine della mano"));
    box.append(h("h3", {}, t("Fine della mano")));
    box.append(h("ul", {}, r.pots.filter((pot) => pot.amount > 0).map((pot) => h("li", {},
      `${money(pot.amount)} → `,
      (pot.winners || []).map((w, i) => [i ? ", " : "", h("strong", {}, seatName(w)), shown[w] ? ` (${shown[w]})` : ""])))));
    // the other hands shown at the showdown
    const winners = new Set(r.pots.flatMap((pot) => pot.winners || []).map(Number));
    const others = Object.entries(shown).filter(([seat]) => !winners.has(Number(seat)));
    if (others.length) box.append(h("p", { class: "summary-shown" }, others.map(([seat, punto], i) => `${i ? " · " : ""}${seatName(seat)}: ${punto}`)));
    const m = measuresEl(measures);
    if (m) box.append(m);
    return box;
  }
  return null;
}
