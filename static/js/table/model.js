// Reads the server's payload into a table model: seats (with their own chips, bets, cards and
// badges), the viewer's hand, and the sections of the felt (pots, table cards, piles, melds…).
// Every engine view is plain JSON: the common shapes are recognised by key; whatever is left is
// kept in `rest` and shown by the fallback, so nothing a view holds is ever dropped.

const STRUCTURAL = new Set(["game", "seat", "legal", "legal_actions", "to_act", "players", "order", "active",
  "positions", "playing_order", "turn", "actor", "time_bank", "over", "tricks_played", "lines", "next_id"]);
const SEAT_MONEY = new Set(["stacks", "chips"]);
const POS_ARRAYS = new Set(["hands", "hand_sizes", "pile_sizes", "scope", "accusi", "shown", "matta", "opened", "out"]);
const LINE_ARRAYS = new Set(["totals", "deals_won", "taken_counts", "pozzetti", "pozzetto_line", "pozzetto_mode", "punti_in_tavola"]);
const SEAT_SCALARS = { dealer: "Mazziere", banker: "Banco", receiver: "Riceve", candidate: "Candidato al banco",
  leader: "Primo di mano", last_taker: "Ultima presa", ferito: "Ferito", obligated: "Obbligato" };
export const POT_KEYS = ["pot", "piatto", "bestia", "posta", "garage", "cover"];

const isSeatKey = (k) => /^\d+$/.test(k);

export function buildModel(p) {
  const view = p.view;
  const me = p.seat;
  const seats = new Map();
  const seat = (n) => {
    const no = Number(n);
    if (!seats.has(no)) seats.set(no, { no, nickname: `Posto ${no}`, missing: true, badges: [], info: [], cards: null, up: null, covered: 0, count: null });
    return seats.get(no);
  };
  for (const s of p.seats || []) {
    Object.assign(seat(s.number), s, { missing: false, me: s.number === me, toAct: (p.to_act || []).includes(s.number) });
  }
  const model = { seats, me, dealResult: null, handNote: null, handCovered: [], phase: null, pots: [], sections: [], lines: null,
    lineValues: [], rest: {}, result: null, history: null, config: null, melds: null, vele: null, posSeat: (i) => i };
  if (!view) return model;

  const v = { ...view };
  const top = v.deal && typeof v.deal === "object" && Array.isArray(v.positions);
  if (Array.isArray(v.positions)) {
    const pos = v.positions;
    model.posSeat = (i) => pos[Number(i)] ?? Number(i);
    model.positions = pos.length;
    for (const n of pos) seat(n);
  }
  for (const k of ["seats", "order", "players"]) {
    if (Array.isArray(v[k]) && v[k].every(Number.isInteger)) { for (const n of v[k]) seat(n); if (k === "seats") delete v[k]; }
  }
  if (Array.isArray(v.folded)) for (const n of v.folded) seat(n).badges.push("Passato");
  delete v.folded;

  model.config = v.config ?? null; delete v.config;
  model.history = v.history ?? null; delete v.history;
  model.result = v.result ?? null; delete v.result;
  model.phase = v.phase ?? null; delete v.phase;

  const deal = top ? v.deal : null;
  if (top || v.deal === null) delete v.deal;
  read(model, v, me, top ? (n) => Number(n) : model.posSeat, seat, false);
  if (deal) {
    if (deal.phase !== undefined && model.phase === null) model.phase = deal.phase;
    const d = { ...deal };
    delete d.phase;
    if (d.result !== undefined) { model.dealResult = d.result; delete d.result; }
    read(model, d, me, model.posSeat, seat, true);
    model.lines = deal.lines ?? resultLines(view) ?? null;
  }
  if (!model.lines && model.result?.lines) model.lines = resultLines(view);
  // Pairs (coppie) whose deal does not list its lines: partners sit at alternate positions.
  if (!model.lines && model.config?.format === "coppie" && Array.isArray(view.positions) && view.positions.length === 4) {
    model.lines = [[0, 2], [1, 3]];
  }
  // Values per line (totals, deals won…): on the seat when every line is one seat, else a table.
  const lines = model.lines || (Array.isArray(view.positions) ? view.positions.map((_, i) => [i]) : null);
  for (const [key, values] of model.lineValues) {
    if (lines && lines.every((l) => l.length === 1) && values.length === lines.length) {
      values.forEach((val, i) => pushInfo(seat(model.posSeat(lines[i][0])), key, val));
    } else {
      model.sections.push({ kind: "lines", key, values, lines, posSeat: model.posSeat });
    }
  }
  model.seatLines = lines;
  for (const s of seats.values()) {  // seats the view names but the table no longer lists
    if (s.missing) { s.me = s.no === me; s.toAct = (p.to_act || []).includes(s.no); }
  }
  return model;
}

/** A match result names its lines by seat number, the deal by position: positions, as the deal's. */
function resultLines(view) {
  const lines = view.result?.lines;
  const pos = view.positions;
  if (!Array.isArray(lines)) return null;
  if (!Array.isArray(pos)) return lines;
  return lines.map((line) => line.map((n) => (pos.includes(Number(n)) ? pos.indexOf(Number(n)) : Number(n))));
}

function pushInfo(s, key, value) {
  if (value === null || value === undefined || value === false || value === "") return;
  if (Array.isArray(value) && !value.length) return;
  if (typeof value === "object" && !Array.isArray(value) && !Object.keys(value).length) return;
  s.info.push([key, value]);
}

function seatHand(model, s, value, me) {
  if (value === null || value === undefined) return;
  if (Array.isArray(value)) { s.cards = value; return; }
  if (typeof value === "object") {
    if (Array.isArray(value.cards)) s.cards = value.cards;
    // Sette e mezzo: the covered card(s) and the ones dealt face up; the seat's own are all known
    if (Array.isArray(value.down)) {
      const up = Array.isArray(value.up) ? value.up : [];
      if (value.down.every((c) => typeof c === "string" && c !== "??")) s.cards = [...value.down, ...up];
      else { s.up = [...value.down.filter((c) => c !== "??"), ...up]; s.covered = value.down.filter((c) => c === "??").length; }
    }
    if (Array.isArray(value.up)) s.up = value.up;
    if (typeof value.covered === "number") s.covered = value.covered;
    if (typeof value.count === "number") s.count = value.count;
    if (Array.isArray(value.covered_cards) && s.no === me) model.handCovered = value.covered_cards;
    if (value.shown) s.badges.push("Mostra");
    for (const [k, x] of Object.entries(value)) if (!["cards", "up", "down", "covered", "count", "covered_cards", "shown"].includes(k)) pushInfo(s, k, x);
  }
}

function perSeat(model, s, key, value, me) {
  if (SEAT_MONEY.has(key)) s.chips = value;
  else if (key === "bets") { if (value) s.bet = value; }
  else if (key === "put_in") { if (value) s.info.push([key, value]); }
  else if (key === "hands") seatHand(model, s, value, me);
  else if (key === "hand_counts" || key === "hand_sizes" || key === "count") s.count = value;
  else if (key === "sitout") { if (value) s.badges.push("Sitout"); }
  else if (key === "time_bank") { /* the payload's seats carry it */ }
  else if (value && typeof value === "object" && !Array.isArray(value)) {
    for (const [k, x] of Object.entries(value)) perSeat(model, s, k, x, me);
  } else pushInfo(s, key, value);
}

function read(model, v, me, posSeat, seat, inDeal) {
  for (const [key, value] of Object.entries(v)) {
    if (STRUCTURAL.has(key)) continue;
    if (key in SEAT_SCALARS && (Number.isInteger(value))) {
      seat(posSeat(value)).badges.push(SEAT_SCALARS[key]);
      if (key === "dealer") seat(posSeat(value)).dealer = true;
      continue;
    }
    if (key === "hand" && Array.isArray(value) && me !== null && me !== undefined) { seat(me).cards = value; continue; }
    if (POT_KEYS.includes(key) && typeof value === "number") { model.pots.push([key, value]); continue; }
    if (key === "punto" && typeof value === "string") { model.handNote = value; continue; }
    if (inDeal && LINE_ARRAYS.has(key) && Array.isArray(value)) { model.lineValues.push([key, value]); continue; }
    if (!inDeal && (key === "totals" || key === "deals_won") && Array.isArray(value)) { model.lineValues.push([key, value]); continue; }
    if (POS_ARRAYS.has(key) && Array.isArray(value) && (inDeal || value.length === model.positions)) {
      value.forEach((x, i) => perSeat(model, seat(model.posSeat(i)), key, x, me));
      continue;
    }
    if (value && typeof value === "object" && !Array.isArray(value)) {
      const keys = Object.keys(value);
      if (keys.length && keys.every(isSeatKey) && key !== "vele_cards") {
        for (const k of keys) perSeat(model, seat(posSeat(k)), key, value[k], me);
        continue;
      }
    }
    if (key === "melds") { model.melds = { melds: value, posSeat }; continue; }
    if (key === "vele") { model.vele = { layout: value, cards: v.vele_cards || {} }; continue; }
    if (key === "vele_cards") { if (!v.vele) model.rest[key] = value; continue; }
    if ((key === "trick" || key === "designation") && value) {
      const plays = key === "trick" ? value : value.dealt;
      if (Array.isArray(plays)) {
        model.sections.push({ kind: "plays", key, plays: plays.map(([s, c]) => [posSeat(s), c]) });
        if (key === "designation") for (const [k, x] of Object.entries(value)) if (k !== "dealt" && k !== "seat" && k !== "start") model.rest[`${key}_${k}`] = x;
        continue;
      }
    }
    if (key === "tricks_seen" && Array.isArray(value)) {
      // the last trick on the felt; at carte viste every earlier one of the smazzata, in order
      const tricks = value.map((t) => ({ plays: t.plays.map(([s, c]) => [posSeat(s), c]), winner: posSeat(t.winner) }));
      if (tricks.length > 1) model.sections.push({ kind: "seen", key, tricks: tricks.slice(0, -1) });
      for (const t of tricks.slice(-1)) model.sections.push({ kind: "plays", key, ...t });
      continue;
    }
    // Scopa, Asso, Cirulla a carte viste: every move of the smazzata and each position's taken cards
    if (key === "moves" && Array.isArray(value) && value.every((m) => m && typeof m === "object" && "card" in m)) {
      const moves = value.map((m) => ({ seat: posSeat(m.pos ?? m.seat), card: m.card, take: m.take || [], scopa: !!m.scopa }));
      if (moves.length > 1) model.sections.push({ kind: "seen", key, moves: moves.slice(0, -1) });
      continue;
    }
    if (key === "piles" && Array.isArray(value) && value.every(Array.isArray)) {
      model.sections.push({ kind: "piles", key, piles: value.map((cards, i) => [posSeat(i), cards]) });
      continue;
    }
    if (key === "last_move" && value && typeof value === "object") {
      model.sections.push({ kind: "move", key, seat: posSeat(value.pos ?? value.seat), move: value });
      continue;
    }
    model.sections.push({ kind: "value", key, value });
  }
}
