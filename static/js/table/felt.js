// The felt: seats around it, the centre (phase, pots, table cards, piles, tricks, vele) and the
// sections below it (melds, scores, details). Pure rendering from the model of model.js.

import { card, cardRow, coveredCards, h, inline, isCard, isCardList, label, money, phaseLabel, readable, seatLabel, valueText } from "./dom.js";
import { t } from "./i18n.js";
import { cardLink } from "./report.js";

const PILE_KEYS = new Set(["stock", "stock_count", "tallone", "deck_size", "discard_count"]);
const CENTER_CARD_KEYS = new Set(["table", "briscola", "punta", "banco_cards", "scope_cards", "scarti", "scarto"]);

export function seatName(model, no) {
  const s = model.seats.get(Number(no));
  return s ? s.nickname : `Posto ${no}`;
}

function clockText(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** One seat: nickname, markers, chips or points, bet, clock, its visible cards. */
export function seatEl(model, s, p) {
  const classes = ["seat"];
  if (s.me) classes.push("me");
  if (s.toAct) classes.push("to-act");
  if (s.status === "sitout") classes.push("sitout");
  if (s.badges.includes("Passato")) classes.push("folded");
  const badges = [...s.badges];
  if (s.bot) badges.push("bot");
  if (s.status === "sitout" && !badges.includes("Sitout")) badges.push("Sitout");
  if (s.leaving) badges.push("Lascia il tavolo");
  const el = h("div", { class: classes.join(" "), dataset: { seat: s.no, nickname: s.nickname } },
    h("div", { class: "seat-head" },
      s.dealer ? h("span", { class: "seat-dealer", title: "Mazziere" }, "D") : null,
      h("strong", { class: "seat-name" }, s.missing ? s.nickname : cardLink(s.nickname)),
      s.bot ? h("span", { class: "badge seat-bot", title: "Giocatore automatico" }, "bot") : null),
    badges.filter((b) => b !== "bot").length
      ? h("div", { class: "seat-badges" }, badges.filter((b) => b !== "bot" && b !== "Mazziere").map((b) => h("span", { class: "badge" }, b)))
      : null,
    s.chips !== undefined ? h("div", { class: "seat-chips" }, money(s.chips)) : null);
  if (s.bet) el.append(h("div", { class: "seat-bet" }, h("span", { class: "chip-icon", "aria-hidden": "true" }), money(s.bet)));
  for (const [key, value] of s.info) {
    const text = typeof value === "number" && /put_in|cap/.test(key) ? money(value) : null;
    el.append(h("div", { class: "seat-info" }, `${seatLabel(key)}: `, text ?? inline(value, key)));
  }
  if (!s.me) {
    const cards = h("div", { class: "seat-cards" });
    if (s.cards) cards.append(cardRow(s.cards, "small"));
    else {
      if (s.up && s.up.length) cards.append(cardRow(s.up, "small"));
      const hidden = s.up ? s.covered : s.count;
      if (hidden) cards.append(coveredCards(hidden));
    }
    if (cards.childNodes.length) el.append(cards);
  }
  // Clocks: the deadline of the seat that must act, its riserva di tempo (the rules' "time bank"),
  // the line's tempo partita.
  const clock = h("div", { class: "seat-clock" });
  if (s.toAct && p.deadline) clock.append(h("span", { class: "clock", title: t("Tempo per decidere"), dataset: { deadline: p.deadline } }, "…"));
  if (p.bank_seat === s.no) clock.append(h("span", { class: "badge badge-bank" }, t("riserva di tempo")));
  else if (s.time_bank) clock.append(h("span", { class: "muted", title: t("Riserva di tempo") }, `+${s.time_bank} s`));
  const line = model.lineOf ? model.lineOf(s.no) : String(s.no);
  if (p.clocks && p.clocks[line] !== undefined) clock.append(h("span", { class: "muted", title: "Tempo partita" }, `partita ${clockText(p.clocks[line])}`));
  if (clock.childNodes.length) el.append(clock);
  return el;
}

/** Update every running clock (called each second). */
export function tickClocks(root) {
  for (const el of root.querySelectorAll(".clock[data-deadline]")) {
    const ms = new Date(el.dataset.deadline) - Date.now();
    el.textContent = clockText(ms);
    el.classList.toggle("clock-late", ms < 10000);
  }
}

// Where each seat sits on the felt's 3 × 3 grid, the viewer at the bottom, then clockwise.
const AREAS = {
  1: ["b"], 2: ["b", "t"], 3: ["b", "tl", "tr"], 4: ["b", "l", "t", "r"], 5: ["b", "l", "tl", "tr", "r"],
  6: ["b", "bl", "tl", "t", "tr", "br"], 7: ["b", "bl", "l", "tl", "tr", "r", "br"],
  8: ["b", "bl", "l", "tl", "t", "tr", "r", "br"],
  // Nine or ten seats (chemin de fer, mazzetti, sette e mezzo): the felt gets five columns.
  9: ["b", "bl", "l", "tl", "tm1", "tm2", "tr", "r", "br"],
  10: ["b", "bl", "l", "tl", "tm1", "t", "tm2", "tr", "r", "br"],
};

/** Place the seats around the felt, the viewer at the bottom. */
export function placeSeats(container) {
  const list = [...container.children];
  const n = list.length;
  const mine = list.findIndex((el) => el.classList.contains("me"));
  const start = mine < 0 ? 0 : mine;
  const areas = AREAS[Math.min(n, 10)] || AREAS[10];
  container.closest(".felt")?.classList.toggle("felt--wide", n > 8);
  list.forEach((el, i) => {
    const k = (i - start + n) % n;
    const area = areas[k] ?? "t";
    el.style.setProperty("--area", area);
    el.classList.add(area[0] === "t" ? "seat--top" : area[0] === "b" ? "seat--bottom" : "seat--side");
    el.style.setProperty("--order", String(k));
  });
}

function pile(title, n) {
  return h("div", { class: "pile" }, n ? card(null, "small") : null, h("span", {}, `${title}: ${n}`));
}

/** The centre of the felt. */
export function centre(model) {
  const box = h("div", { class: "centre" });
  if (model.phase) box.append(h("div", { class: "phase" }, phaseLabel(model.phase)));
  const pots = model.pots.filter(([, v]) => v);
  if (pots.length) {
    box.append(h("div", { class: "pots", dataset: { role: "pots" } },
      pots.map(([k, v]) => h("span", { class: "pot" }, h("span", { class: "chip-icon", "aria-hidden": "true" }), `${label(k)} ${money(v)}`))));
  }
  const piles = [];
  for (const sec of model.sections) {
    if (sec.kind === "value" && PILE_KEYS.has(sec.key) && typeof sec.value === "number") {
      piles.push(pile(label(sec.key), sec.value));
      sec.done = true;
    }
  }
  if (model.vele) { box.append(veleEl(model.vele)); }
  for (const sec of model.sections) {
    if (sec.done) continue;
    if (sec.kind === "value" && CENTER_CARD_KEYS.has(sec.key)) {
      sec.done = true;
      const v = sec.value;
      if (sec.key === "scarti" && isCardList(v)) {
        // every card of the pile: who picks it up (Burraco's raccogli) takes them all; a fan, the top card whole
        const fan = cardRow(v, "small");
        fan.classList.add("scarti-fan");
        fan.dataset.role = "scarti";
        box.append(h("div", { class: "zone zone-scarti" }, h("span", { class: "zone-title" }, `Scarti (${v.length})`), fan));
      } else if (isCard(v)) {
        box.append(h("div", { class: `zone zone-${sec.key}` }, h("span", { class: "zone-title" }, label(sec.key)), card(v)));
      } else if (Array.isArray(v) && !v.length && sec.key !== "table") {
        // an empty pile other than the table: nothing to show
      } else if (Array.isArray(v) && (!v.length || isCardList(v, true))) {
        box.append(h("div", { class: `zone zone-${sec.key}` }, h("span", { class: "zone-title" }, label(sec.key)),
          v.length ? cardRow(v) : h("span", { class: "muted" }, "nessuna carta")));
      } else if (typeof v === "number") piles.push(pile(label(sec.key), v));
      else sec.done = false;
    } else if (sec.kind === "plays" && !sec.plays.length) {
      sec.done = true;
    } else if (sec.kind === "plays") {
      if (sec.key === "designation" && sec.plays.length > 8) {
        sec.done = true;
        // the card that gave the banco, the whole deal folded away (it filled the felt for the whole banco)
        const [lastSeat, lastCard] = sec.plays[sec.plays.length - 1];
        box.append(h("div", { class: "zone zone-designation" }, h("span", { class: "zone-title" }, `${label(sec.key)} (${sec.plays.length} carte)`),
          h("span", { class: "designation-last" }, card(lastCard, "small"), ` ${t("ultima a {name}", { name: seatName(model, lastSeat) })}`),
          h("details", { class: "designation-all" }, h("summary", {}, t("Tutte le carte")),
            h("span", { class: "tc-cards tc-cards--fan" }, sec.plays.map(([s, c]) => { const el = card(c, "small"); el.setAttribute("aria-label", `${el.getAttribute("aria-label")} a ${seatName(model, s)}`); return el; })))));
        continue;
      }
      sec.done = true;
      box.append(h("div", { class: `zone zone-${sec.key}` }, h("span", { class: "zone-title" }, label(sec.key)),
        h("div", { class: "plays" }, sec.plays.map(([s, c]) => h("figure", { class: `play${sec.winner === s ? " winner" : ""}` },
          card(c), h("figcaption", {}, seatName(model, s)))))));
    } else if (sec.kind === "value" && sec.key === "mazzetti" && Array.isArray(sec.value) && sec.value.every((m) => m && typeof m === "object" && "size" in m)) {
      sec.done = true;
      if (sec.value.length) {
        box.append(h("div", { class: "zone zone-mazzetti", dataset: { role: "mazzetti" } }, h("span", { class: "zone-title" }, label(sec.key)),
          h("div", { class: "plays" }, sec.value.map((m, i) => h("figure", { class: "play" }, card(m.card ?? null, "small"),
            h("figcaption", {}, `${i + 1}: ${m.size} carte${m.owner !== null && m.owner !== undefined ? ` · ${seatName(model, m.owner)}` : ""}`))))));
      }
    } else if (sec.kind === "value" && sec.key === "bank" && sec.value && typeof sec.value === "object" && Array.isArray(sec.value.down)) {
      // Sette e mezzo: the banco's area, its covered card and the ones it drew face up
      sec.done = true;
      const b = sec.value;
      box.append(h("div", { class: "zone zone-banco_cards", dataset: { role: "banco" } }, h("span", { class: "zone-title" }, label("bank")),
        cardRow([...b.down.map((c) => (c === "??" ? null : c)), ...(b.up || [])], "small"),
        typeof b.points === "number" ? h("span", {}, `${label("points")}: ${b.points % 2 ? `${(b.points - 1) / 2},5` : b.points / 2}`) : null));
    } else if (sec.kind === "move") {
      sec.done = true;
      const m = sec.move;
      box.append(h("div", { class: "zone zone-move" }, h("span", { class: "zone-title" }, label(sec.key)),
        h("span", {}, `${seatName(model, sec.seat)}: `), m.card ? card(m.card, "small") : null,
        m.take && m.take.length ? [" prende ", cardRow(m.take, "small")] : null, m.scopa ? h("strong", {}, " Scopa!") : null));
    }
  }
  if (piles.length) box.append(h("div", { class: "piles" }, piles));
  return box;
}

// Whether the cards seen are open (kept across the views: each one redraws the table); open at first.
let seenOpen = true;

/** A card of a list of cards seen, named with who played it (screen readers hear both). */
function playedCard(model, seat, code, winner = false) {
  const el = card(code, "small");
  el.setAttribute("aria-label", t("{card} di {name}", { card: el.getAttribute("aria-label") || code, name: seatName(model, seat) }));
  if (winner) el.classList.add("seen-winner");
  return el;
}

/** Carte viste: every trick or move of the smazzata before the last, in order, and the cards each
 * line has taken (capture games), below the felt (it would not fit on it); the player may fold it. */
export function seenEl(model) {
  const parts = [];
  let count = 0;
  let what = "";
  let taken = null; // the cards each line has taken: after the moves
  for (const sec of model.sections) {
    if (sec.kind === "seen" && sec.tricks) {
      sec.done = true;
      count += sec.tricks.length;
      what = "tricks";
      parts.push(h("ol", { class: "seen-list", dataset: { role: "seen-tricks" } }, sec.tricks.map((tr, i) => h("li", { class: "seen-item" },
        h("span", { class: "seen-no", "aria-hidden": "true" }, `${i + 1}.`), h("span", { class: "tc-cards" }, tr.plays.map(([s, c]) => playedCard(model, s, c, s === tr.winner))),
        h("span", { class: "seen-who" }, t("presa di {name}", { name: seatName(model, tr.winner) }))))));
    } else if (sec.kind === "seen" && sec.moves) {
      sec.done = true;
      count += sec.moves.length;
      what = "moves";
      parts.push(h("ol", { class: "seen-list", dataset: { role: "seen-moves" } }, sec.moves.map((m, i) => h("li", { class: "seen-item" },
        h("span", { class: "seen-no", "aria-hidden": "true" }, `${i + 1}.`), h("span", { class: "seen-who" }, `${seatName(model, m.seat)}:`), playedCard(model, m.seat, m.card),
        m.take.length ? [h("span", { class: "seen-who" }, t("prende")), cardRow(m.take, "small")] : null,
        m.scopa ? h("strong", {}, t("Scopa!")) : null))));
    } else if (sec.kind === "piles") {
      sec.done = true;
      const lines = model.seatLines;
      const name = (i) => (lines && lines[i] ? lines[i].map((pos) => seatName(model, model.posSeat(pos))).join(" e ") : t("Linea {n}", { n: i + 1 }));
      const rows = sec.piles.map(([, cards], i) => [i, cards]).filter(([, cards]) => cards.length);
      if (rows.length) {
        taken = h("div", { class: "seen-piles", dataset: { role: "seen-piles" } }, h("strong", {}, t("Carte prese")),
          rows.map(([i, cards]) => h("div", { class: "seen-item" }, h("span", { class: "seen-who" }, `${name(i)} (${cards.length}):`), cardRow(cards, "small"))));
      }
    }
  }
  if (taken) parts.push(taken);
  if (!parts.length) return null;
  const box = h("details", { class: "seen", dataset: { role: "seen" } },
    h("summary", {}, what === "tricks" ? t("Carte viste: le {n} prese precedenti", { n: count })
      : what === "moves" ? t("Carte viste: le {n} giocate precedenti", { n: count }) : t("Carte viste")), parts);
  box.open = seenOpen;
  // The player's fold is kept at once: "toggle" comes a task later, and a view drawn in between
  // would draw the box again as it was (and a removed box's late "toggle" says nothing).
  box.querySelector("summary").addEventListener("click", () => { seenOpen = !box.open; });
  box.addEventListener("toggle", () => { if (box.isConnected) seenOpen = box.open; });
  return box;
}

/** Telesina: the vele laid out on their grid (positions: [row, column]). */
function veleEl({ layout, cards }) {
  if (!layout || !layout.positions) return h("div", {}, readable(layout, "vele"));
  const pos = Object.entries(layout.positions);
  const rows = Math.max(...pos.map(([, [r]]) => r)) + 1;
  const cols = Math.max(...pos.map(([, [, c]]) => c)) + 1;
  const grid = h("div", { class: "vele-grid", dataset: { role: "vele" }, style: `--rows:${rows};--cols:${cols}` });
  for (const [name, [r, c]] of pos) {
    const code = cards[name];
    grid.append(h("div", { class: "vela", style: `grid-row:${r + 1};grid-column:${c + 1}`, title: `Vela ${name}` },
      card(code ?? null, "small"), h("span", { class: "vela-name" }, name)));
  }
  return h("div", { class: "zone zone-vele" }, h("span", { class: "zone-title" }, `Vele: ${layout.label || layout.key || ""}`), grid);
}

/** Burraco and Scala 40: the melds on the table, grouped by line or owner. */
export function meldsEl(model, onMeld) {
  const { melds, posSeat } = model.melds;
  const box = h("div", { class: "melds", dataset: { role: "melds" } }, h("h3", {}, "Giochi in tavola"));
  if (!melds.length) { box.append(h("p", { class: "muted" }, "Nessun gioco in tavola")); return box; }
  const groups = new Map();
  for (const m of melds) {
    const owner = m.line !== undefined ? `line:${m.line}` : `pos:${m.owner}`;
    if (!groups.has(owner)) groups.set(owner, []);
    groups.get(owner).push(m);
  }
  // the viewer's own melds last: they sit at the bottom of the felt, next to him
  const mineFirst = (owner) => {
    const [kind, n] = owner.split(":");
    if (kind === "pos") return Number(posSeat(n)) === model.me;
    const line = model.seatLines && model.seatLines[n];
    return !!line && line.some((pos) => Number(posSeat(pos)) === model.me);
  };
  const ordered = [...groups].sort(([a], [b]) => Number(mineFirst(a)) - Number(mineFirst(b)));
  for (const [owner, list] of ordered) {
    const [kind, n] = owner.split(":");
    let who;
    if (kind === "pos") who = seatName(model, posSeat(n));
    else {
      const lines = model.seatLines;
      who = lines && lines[n] ? lines[n].map((p) => seatName(model, posSeat(p))).join(" e ") : `Linea ${Number(n) + 1}`;
    }
    box.append(h("div", { class: "meld-group" }, h("span", { class: "zone-title" }, who),
      h("div", { class: "meld-list" }, list.map((m) => {
        const el = h("div", { class: "meld", dataset: { meld: m.id }, title: m.kind === "scala" ? "Scala" : "Combinazione" }, cardRow(m.cards || [], "small"));
        if (onMeld) onMeld(el, m);
        return el;
      }))));
  }
  return box;
}

/** Points per line when lines are pairs (coppie), and the score sheet of the match. */
export function scoresEl(model) {
  const parts = [];
  for (const sec of model.sections) {
    if (sec.kind !== "lines" || sec.done) continue;
    sec.done = true;
    const names = (i) => (sec.lines && sec.lines[i] ? sec.lines[i].map((pp) => seatName(model, sec.posSeat(pp))).join(" e ") : `Linea ${i + 1}`);
    parts.push(h("div", { class: "line-values" }, h("strong", {}, `${label(sec.key)}: `),
      sec.values.map((val, i) => h("span", { class: "line-value" }, `${names(i)} `, readable(val, sec.key)))));
  }
  if (Array.isArray(model.history) && model.history.length) {
    const rows = model.history.map((d) => h("tr", {}, h("td", {}, d.number ?? ""), h("td", { class: "num" }, Array.isArray(d.points) ? d.points.join(" – ") : readable(d.points))));
    parts.push(h("details", { class: "score-sheet" }, h("summary", {}, `Smazzate giocate (${model.history.length})`),
      h("table", { class: "data" }, h("thead", {}, h("tr", {}, h("th", {}, "N."), h("th", { class: "num" }, "Punti"))), h("tbody", {}, rows)),
      readable(model.history, "history")));
  } else if (model.history && !Array.isArray(model.history)) parts.push(readable(model.history, "history"));
  return parts.length ? h("div", { class: "scores", dataset: { role: "scores" } }, parts) : null;
}

/** The result of a hand or a match: pots with their winners, then everything else. */
export function resultEl(model, r, title = "Risultato") {
  if (r === null || r === undefined) return null;
  const box = h("div", { class: "result", dataset: { role: "result" } }, h("h3", {}, title));
  if (r && typeof r === "object" && Array.isArray(r.pots)) {
    box.append(h("ul", { class: "pots-result" }, r.pots.map((pot, i) => h("li", {},
      `${r.pots.length > 1 ? (i === 0 ? "Piatto principale" : `Piatto laterale ${i}`) : "Piatto"}: ${money(pot.amount)}`,
      pot.winners ? ` → ${pot.winners.map((w) => seatName(model, w)).join(", ")}` : ""))));
    const rest = { ...r };
    delete rest.pots;
    box.append(h("details", {}, h("summary", {}, "Dettaglio"), readable(rest, "result")));
  } else if (r && typeof r === "object" && r.per_seat) {
    box.append(h("ul", {}, Object.entries(r.per_seat).map(([s, x]) => h("li", {}, `${seatName(model, s)}: ${x.points ?? ""} punti${x.won ? " · vince" : ""}`))));
    box.append(h("details", {}, h("summary", {}, "Dettaglio"), readable(r, "result")));
  } else box.append(readable(r, "result"));
  return box;
}

/** The fallback: everything the view holds that no renderer above has shown. */
export function detailsEl(model) {
  const rest = { ...model.rest };
  for (const sec of model.sections) {
    if (sec.done) continue;
    const v = sec.value;
    if (v === null || v === undefined || v === false) continue;
    if (Array.isArray(v) && !v.length) continue;
    if (typeof v === "object" && !Array.isArray(v) && !Object.keys(v).length) continue;
    rest[sec.key] = v;
  }
  const box = h("div", { class: "details", dataset: { role: "details" } });
  // the player's automatic-play options: folded away, like the table's rules (they crowded a phone)
  const prefs = rest.prefs;
  delete rest.prefs;
  const entries = Object.entries(rest);
  if (entries.length) {
    box.append(h("dl", { class: "tc-dl" }, entries.map(([k, v]) => [h("dt", {}, label(k)), h("dd", {}, isCardList(v) ? cardRow(v, "small") : readable(v, k))])));
  }
  if (prefs) box.append(h("details", {}, h("summary", {}, t("Preferenze di gioco automatico")), readable(prefs, "prefs")));
  if (model.config) box.append(h("details", {}, h("summary", {}, t("Regole del tavolo")), readable(model.config, "config")));
  return box.childNodes.length ? box : null;
}

/** One line of the table's log for an event a seat made ("bruno: VEDO € 3,00"); null for others. */
export function eventLine(model, e) {
  if (!e || typeof e !== "object" || !Number.isInteger(e.seat) || e.to) return null;
  if (e.type === "variante" && (e.vele || e.distribuzione)) { // Telesina: the dealer's choice, in words
    return h("li", {}, h("strong", {}, `${seatName(model, e.seat)}: `),
      t("variante: vele {vele}, distribuzione {distribuzione}", { vele: valueText(e.vele, "vele"), distribuzione: valueText(e.distribuzione, "distribuzione") }));
  }
  const parts = [h("strong", {}, `${seatName(model, e.seat)}: `), String(e.type).replace(/_/g, " ").toUpperCase()];
  if (typeof e.amount === "number" && e.amount > 0) parts.push(` ${money(e.amount)}`);
  if (typeof e.posta === "number") parts.push(` ${money(e.posta)}`);
  if (typeof e.mode === "string") parts.push(` ${e.mode.replace(/_/g, " ")}`);
  if (typeof e.play === "string") parts.push(` ${e.play.replace(/_/g, " ").toUpperCase()}`);
  if (isCard(e.card)) parts.push(" ", card(e.card, "small"));
  if (Array.isArray(e.take) && e.take.length) parts.push(" prende ", cardRow(e.take, "small"));
  if (e.scopa) parts.push(h("strong", {}, " Scopa!"));
  return h("li", {}, parts);
}
