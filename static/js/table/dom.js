// Small DOM helpers shared by the table modules: element builder, cards, money and labels.

import { cardLabel, cardSvg, isCardCode, isCovered } from "../cards.js";
import { chipsText, realmMoney } from "./amount.js";
import { t } from "./i18n.js";


/** Build an element: h("div", {class: "x", dataset: {seat: 1}, onclick}, child, "text", [more]). */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") el.className = v;
    else if (k === "dataset") Object.assign(el.dataset, v);
    else if (k.startsWith("on") && typeof v === "function") el.addEventListener(k.slice(2), v);
    // Through the CSSOM: the Content-Security-Policy blocks style attributes, not style properties.
    else if (k === "style") el.style.cssText = v;
    else if (k === "text") el.textContent = v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  append(el, children);
  return el;
}

function append(el, children) {
  for (const c of children) {
    if (c === undefined || c === null || c === false) continue;
    if (Array.isArray(c)) append(el, c);
    else el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
}

/** The table-wide drawing settings (deck style, card size), set once by the client. */
// chips: a level tournament's table, whose amounts are the tournament's chips, not money
export const settings = { style: "francesi", money: true, play: false, chips: false, seatName: (n) => `Posto ${n}` };

const SUITS_IT = { h: "coppe", d: "denari", c: "bastoni", s: "spade" };
const SUITS_FR = { h: "cuori", d: "quadri", c: "fiori", s: "picche" };
const SUIT_FIELDS = new Set(["trump", "suit", "jolly_suit"]); // a suit letter shown as its name

// Fields that name seats: the fallback shows the player's nickname rather than a number.
const SEAT_FIELDS = new Set(["seat", "raiser", "winner_seat", "winners", "eligible", "leader", "banker", "dealer",
  "receiver", "candidate", "opened_by", "first", "closer", "owner", "players", "folded", "priority", "stand_up"]);

export function cardSize(kind = "table") {
  const phone = window.innerWidth < 600;
  if (kind === "hand") return phone ? 56 : 72;
  if (kind === "small") return phone ? 34 : 44;
  return phone ? 44 : 56;
}

/** One card (an SVG): face-up cards carry data-card="<code>", covered ones data-card="covered". */
export function card(code, kind = "table") {
  const size = cardSize(kind);
  const covered = isCovered(code);
  const svg = cardSvg(covered ? null : code, { style: settings.style, size, compact: size < 60 });
  svg.classList.add("tc-card", `tc-card--${kind}`);
  if (covered) svg.dataset.card = "covered";
  return svg;
}

export function cardRow(cards, kind = "table") {
  return h("span", { class: "tc-cards" }, cards.map((c) => card(c, kind)));
}

/** n covered cards (a back and a count when there are many). */
export function coveredCards(n, kind = "small") {
  if (!n) return null;
  const shown = Math.min(n, 5);
  const row = h("span", { class: "tc-cards tc-cards--fan", title: `${n} carte coperte` });
  for (let i = 0; i < shown; i += 1) row.append(card(null, kind));
  if (n > shown) row.append(h("span", { class: "tc-count" }, `×${n}`));
  return row;
}

export const isCard = (v) => isCardCode(v);
/** A list of cards: codes, possibly some covered (null); all-covered lists only when `covered` is allowed. */
export const isCardList = (v, covered = false) => Array.isArray(v) && v.length > 0
  && v.every((c) => isCardCode(c) || isCovered(c)) && (covered || v.some((c) => isCardCode(c)));
export const describeCard = (c) => cardLabel(c, settings.style);

/** Money is in integer cents: "€ 12,50"; play money (settings.play) in gettoni; a level
 * tournament's chips (settings.chips) as a whole number, "1.600". */
export function money(cents) {
  if (typeof cents !== "number") return String(cents ?? "—");
  if (!settings.money) return String(cents);
  if (settings.chips) return chipsText(cents);
  return realmMoney(cents, settings.play, t);
}

const LABELS = {
  pot: "Piatto", piatto: "Piatto", bestia: "Bestia", posta: "Posta del banco", garage: "Garage",
  stock: "Tallone", stock_count: "Tallone", tallone: "Tallone", deck_size: "Mazzo", discard_count: "Scarti",
  scarti: "Scarti", scarto: "Scarto", briscola: "Briscola", trump: "Seme di briscola", table: "Carte in tavola",
  phase: "Fase", invito: "Invito", limit: "Limite", min_pair: "Apertura minima", variant: "Variante",
  stacks: "Credito", chips: "Credito", bets: "Puntata", put_in: "Nel piatto", showing: "Punto",
  hand_counts: "Carte", hand_sizes: "Carte", pile_sizes: "Prese", taken_counts: "Carte prese", scope: "Scope",
  pozzetti: "Pozzetto", punti_in_tavola: "Punti in tavola", changed: "Carte cambiate", decisions: "Scelta", status: "Stato", caps: "Massimo",
  totals: "Punti", deals_won: "Smazzate vinte", deal_no: "Smazzata", round: "Giro", rounds: "Giri",
  result: "Risultato", history: "Smazzate", config: "Regole del tavolo", street: "Giro di carte",
  punto: "Il tuo punto", last_move: "Ultima giocata", scope_cards: "Carte delle scope", trick: "Presa in corso",
  tricks_seen: "Ultima presa", melds: "Giochi in tavola", vele: "Vele", mazzetti: "Mazzetti",
  punta: "Carte del punto", banco_cards: "Carte del banco", designation: "Assegnazione del banco",
  accusi: "Accusi", shown: "Carte mostrate", declarations: "Dichiarazioni", matta: "Matta", parol: "Parol",
  spareggio: "Spareggio", rake: "Rake", min_bet: "Puntata minima", min_posta: "Posta minima",
  min_bank: "Banco minimo", alla_regola: "Alla regola", prefs: "Preferenze", seguito: "Seguito",
  ultimo_colpo: "Ultimo colpo", carte_sfilate: "Carte sfilate", declarations_: "Dichiarazioni",
  opened: "Aperto", out: "Eliminato", closed_by: "Chiusura", raccolto: "Carta raccolta", in_mano: "In mano",
  pozzetto_line: "Pozzetto preso", pozzetto_mode: "Pozzetto", turn_no: "Turno", ended: "Fine smazzata",
  blind: "Buio", giro_pazzo: "Giro pazzo", parol_hand: "Mano di parol", dealout: "Carte a tutti",
  girate: "Girate", distribuzione: "Distribuzione", chosen: "Scelte", hidden: "Nascoste",
  ferito: "Ferito", obligated: "Obbligato", banker_asked: "Banco chiesto", priority: "Priorità",
  receiver: "Riceve le carte", candidate: "Candidato al banco", punta_play: "Gioco del punto",
  banco_play: "Gioco del banco", banco: "Banco", penalties: "Penalità", results: "Risultati",
  count: "Carte", mode: "Modalità", points: "Punti", winner: "Vincitore", reason: "Motivo",
  carried_in: "Riportato", carried_out: "Riportato alla mano dopo", pots: "Piatti", amount: "Importo",
  eligible: "In gioco", winners: "Vincitori", shares: "Quote", mp: "MP", vp: "VP", lines: "Linee",
  number: "Numero", dealer: "Mazziere", decider: "Ultima presa", detail: "Dettaglio", carte: "Carte",
  denari: "Denari", settebello: "Settebello", primiera: "Primiera", cappotto: "Cappotto",
  sitout: "Sitout", stand_up: "Si alzano", per_seat: "Per posto", forfeit: "Abbandono", draw: "Pari",
  deals: "Smazzate", cash: "Regolamento", best: "Punto migliore", cards: "Carte", vele_cards: "Carte delle vele",
  alla_regola_: "Alla regola", mazzetto: "Mazzetto", wins: "Vinti", coups: "Colpi", halved: "Dimezzato", start: "Iniziale",
  seat: "Posto", posts: "Puntate al buio", raiser: "Ultimo rilancio al buio", stage: "Fase del buio", order: "Ordine",
  down: "Coperte", up: "Scoperte", bank: "Banco", cover: "Copertura del banco", max_bet: "Puntata massima",
  punte: "Punte", decision: "Decisione", premove: "Premove", rake_bp: "Percentuale di rake",
  briscola_in_stock: "Briscola nel tallone",
  // engine keys of the rules and details panels (no English key reaches the page)
  banco_card: "Carta del banco", banco_points: "Punti del banco", bank_result: "Esito del banco", banker: "Banco",
  bet: "Puntata", bidder: "Offerente", card: "Carta", card_points: "Punti delle carte",
  cash_divisor: "Divisore della differenza punti", combinations: "Combinazioni", covered: "Coperte", deal: "Smazzata",
  dealt: "Carte date", decider_always: "Spareggio sempre all'ultima presa", end: "Fine", ended_by: "Fine per",
  first: "Primo", folded: "Passati", forfeit_min_vp: "VP minimi a chi non abbandona", format: "Formato", from: "Da",
  hand: "Mano", hands: "Mani", height: "Altezza", id: "Numero", invito_capped: "Invito ridotto",
  jolly_suit: "Seme del jolly", key: "Disposizione", kind: "Tipo", ko: "Eliminazione diretta", label: "Nome",
  last_taker: "Ultima presa", last_trick: "Ultima mano", leader: "Primo di mano", line: "Linea", loser: "Perdente",
  loss: "Perdita", lower_wins: "Vince il punteggio più basso", min_credit: "Credito minimo",
  on_timeout: "Tempo scaduto", owner: "Di", pairs: "Coppie", penalty_cap: "Penalità massima", plays: "Giocate",
  pos: "Posizione", rake_cap: "Rake massimo", rank: "Valore", seats: "Posti", size: "Dimensione", suit: "Seme",
  take: "Prende", target: "Punteggio da raggiungere", tricks: "Prese", turns: "Turni", vp_table: "Tabella dei VP",
  win: "Vittoria", won: "Vinte",
};

// Engine words shown as values (a punta's status at Sette e mezzo, a deal's stage): Italian on the page.
const VALUES = {
  wait: "in attesa", bet: "deve puntare", bust: "sballato", out: "fuori", penalty: "penalità", play: "in gioco",
  sto: "sta", won: "vince", primo_giro: "primo giro", "??": "coperta", cash: "tavolo cash",
  lost: "perde", loses: "perde", wins: "vince", forfeit: "partita persa",
};

// Words that mean something only under their field (poker's buio stage).
const KEYED_VALUES = { stage: { offer: "puntate al buio", see: "si vede il buio", open: "puntate aperte" } };

/** An engine word in the page's language ("wait" → "in attesa"); others with spaces for underscores. */
export function valueText(v, key = "") {
  const found = KEYED_VALUES[key]?.[v] ?? VALUES[v];
  return found ? t(found) : String(v).replace(/_/g, " ");
}

const PHASES = {
  invito: "Invito", apertura: "Apertura", cambio: "Cambio carte", puntata: "Puntate", puntate: "Puntate",
  fine: "Fine della mano", over: "Fine", accept: "Scelta del banco", accetta: "Scelta del banco", bet: "Puntate",
  play: "Gioco", gioco: "Gioco", gioca: "Gioca o scarta", pesca: "Pesca", dichiarazione: "Dichiarazioni",
  punta: "Gioca il punto", banco: "Gioca il banco", scelta: "Scelta del gioco", showdown: "Carte in tavola",
  buio: "Buio", parola: "Parola", build: "Formazione dei mazzetti", banker: "Gioca il banco", mostra: "Carte mostrate",
  parol: "Parol", scopri: "Scopri", variante: "Scelta della variante",
};

/** The Italian name of an engine phase ("cambio" → "Cambio carte"); unknown ones humanised. */
export function phaseLabel(phase) {
  return PHASES[phase] ? t(PHASES[phase]) : label(phase);
}

export function label(key) {
  if (LABELS[key]) return t(LABELS[key]);
  const s = String(key).replace(/_/g, " ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The name of a seat's detail: as ``label``, but a seat's "punto" is that seat's, not the
 *  viewer's own ("Il tuo punto", the hand's note). */
export function seatLabel(key) {
  return key === "punto" ? t("Punto") : label(key);
}

/** A short inline rendering (seat details): objects as "name value" pairs, cards as small faces. */
export function inline(value, key = "") {
  if (value && typeof value === "object" && !Array.isArray(value)) {
    const parts = Object.entries(value).filter(([, v]) => v !== null && v !== undefined && v !== false);
    return h("span", { class: "inline" }, parts.map(([k, v], i) => [i ? " · " : "", `${seatLabel(k)} `, v && typeof v === "object" ? readable(v, k) : inline(v, k)]));
  }
  if (typeof value === "string" && !isCardCode(value)) return document.createTextNode(valueText(value, key));
  return readable(value, key);
}

/** A readable rendering of any JSON value (the fallback: nothing a view holds is dropped). */
export function readable(value, key = "") {
  if (value === null || value === undefined) return h("span", { class: "muted" }, "—");
  if (SEAT_FIELDS.has(key) && Number.isInteger(value)) return document.createTextNode(settings.seatName(value));
  if (SEAT_FIELDS.has(key) && Array.isArray(value) && value.length && value.every(Number.isInteger)) {
    return document.createTextNode(value.map((n) => settings.seatName(n)).join(", "));
  }
  if (typeof value === "boolean") return document.createTextNode(value ? "sì" : "no");
  if (SUIT_FIELDS.has(key) && typeof value === "string" && value.length === 1 && SUITS_IT[value]) {
    return document.createTextNode((settings.style === "francesi" ? SUITS_FR : SUITS_IT)[value]);
  }
  if (key === "rank" && value === "T") return document.createTextNode("10"); // a meld's rank, as the cards write it
  if (isCardCode(value)) return card(value, "small");
  if (key === "rake_bp" && typeof value === "number") return document.createTextNode(`${(value / 100).toLocaleString("it-IT")}%`);
  if (typeof value === "number" && /pot|piatto|chips|stack|bet|amount|posta|garage|rake|bestia|put_in|invito|share|^start$|cover|min_/.test(key)) {
    return document.createTextNode(money(value));
  }
  if (Array.isArray(value)) {
    if (!value.length) return h("span", { class: "muted" }, "—");
    if (isCardList(value)) return cardRow(value, "small");
    if (value.every((v) => v === null || typeof v !== "object")) return document.createTextNode(value.map((v) => v ?? "—").join(" · "));
    return h("ol", { class: "tc-list" }, value.map((v) => h("li", {}, v && typeof v === "object" && !Array.isArray(v) ? inline(v, key) : readable(v, key))));
  }
  if (typeof value === "object") {
    const entries = Object.entries(value);
    if (!entries.length) return h("span", { class: "muted" }, "—");
    return h("dl", { class: "tc-dl" }, entries.map(([k, v]) => [h("dt", {}, label(k)), h("dd", {}, readable(v, k))]));
  }
  if (typeof value === "string") return document.createTextNode(valueText(value, key));
  return document.createTextNode(String(value));
}
