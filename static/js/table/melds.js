// Meld layouts for Burraco and Scala 40: where a matta goes, ace low or high, which suit a jolly
// declares. A faithful port of games/melds.py (meld_options, extend_options, choose_layout): the
// server still decides what is legal; the table only lists the layouts a chosen set of cards can
// take, so the player can pick one and send it as the request's `start` / `jolly_suit`.
// tests/browser/test_table_client.py checks this port against the Python module on random cards.

const RANKS = "A23456789TJQK";
const SUITS = "hdcs";
const SEQ = "scala";
const SET = "tris";
const MIN_MELD = 3;
const TOP = 14; // the ace after the king

/** How each game's melds differ (games.melds.BURRACO / SCALA40). */
export const MELD_RULES = {
  burraco: { name: "burraco", wildTwos: true, setDistinctSuits: false, setMax: null, seqMaxNaturals: 14, wildMoves: true },
  scala40: { name: "scala40", wildTwos: false, setDistinctSuits: true, setMax: 4, seqMaxNaturals: 13, wildMoves: false },
};

const isJoker = (c) => c[0] === "X";
const rankNumber = (c) => RANKS.indexOf(c[0]) + 1;
const rankOfPosition = (pos) => (pos === TOP ? "A" : RANKS[pos - 1]);

export function isMatta(c, rules) {
  return c[0] === "X" || (rules.wildTwos && c[0] === "2");
}

export function naturalAt(c, suit, pos) {
  return c[1] === suit && c[0] === rankOfPosition(pos);
}

/** The index of the meld's matta in its cards, or null. */
export function wildIndex(meld, rules) {
  const cards = meld.cards;
  if (meld.kind === SEQ) {
    for (let i = 0; i < cards.length; i += 1) if (!naturalAt(cards[i], meld.suit, meld.start + i)) return i;
    return null;
  }
  for (let i = 0; i < cards.length; i += 1) if (isMatta(cards[i], rules)) return i;
  return null;
}

/** The card the matta stands for (sequence: its position; combination: the declared suit). */
export function wildStandsFor(meld, rules) {
  const i = wildIndex(meld, rules);
  if (i === null) return null;
  if (meld.kind === SEQ) return rankOfPosition(meld.start + i) + meld.suit;
  return meld.jolly_suit ? meld.rank + meld.jolly_suit : null;
}

function layout(suit, start, length, fixed, loose, rules, wildFixedAt, wildMustBeEnd) {
  const end = start + length - 1;
  if (start < 1 || end > TOP || length < MIN_MELD) return null;
  const slots = new Map();
  for (const [pos, c] of fixed) {
    if (pos < start || pos > end) return null;
    slots.set(pos, c);
  }
  const rest = [...loose];
  for (let pos = start; pos <= end; pos += 1) {
    if (slots.has(pos)) continue;
    const i = rest.findIndex((c) => naturalAt(c, suit, pos));
    if (i >= 0) slots.set(pos, rest.splice(i, 1)[0]);
  }
  const empty = [];
  for (let pos = start; pos <= end; pos += 1) if (!slots.has(pos)) empty.push(pos);
  if (wildFixedAt !== null) {
    if (rest.length || empty.length) return null;
  } else if (rest.length || empty.length) {
    if (rest.length !== 1 || empty.length !== 1 || !isMatta(rest[0], rules)) return null;
    if (wildMustBeEnd && empty[0] !== start && empty[0] !== end) return null;
    slots.set(empty[0], rest[0]);
  }
  const cards = [];
  for (let pos = start; pos <= end; pos += 1) cards.push(slots.get(pos));
  const naturals = cards.filter((c, i) => naturalAt(c, suit, start + i)).length;
  if (naturals === 0 || naturals > rules.seqMaxNaturals || length - naturals > 1) return null;
  return cards;
}

export function sequenceOptions(cards, rules) {
  const n = cards.length;
  if (n < MIN_MELD || n > TOP) return [];
  const suits = new Set(cards.filter((c) => !isJoker(c)).map((c) => c[1]));
  const out = [];
  for (const suit of SUITS) {
    if (!suits.has(suit)) continue;
    const offsuit = cards.filter((c) => isJoker(c) || c[1] !== suit);
    if (offsuit.length > 1 || (offsuit.length && !isMatta(offsuit[0], rules))) continue;
    const pin = cards.find((c) => c.slice(1) === suit && !"A2".includes(c[0]));
    const anchor = pin === undefined ? null : rankNumber(pin);
    const lo = anchor === null ? 1 : Math.max(1, anchor - n + 1);
    const hi = anchor === null ? TOP - n + 1 : Math.min(anchor, TOP - n + 1);
    for (let start = lo; start <= hi; start += 1) {
      const laid = layout(suit, start, n, new Map(), cards, rules, null, false);
      if (laid !== null) out.push({ kind: SEQ, suit, start, cards: laid });
    }
  }
  return out;
}

export function setOptions(cards, rules) {
  const n = cards.length;
  if (n < MIN_MELD || (rules.setMax !== null && n > rules.setMax)) return [];
  const wild = cards.filter((c) => isMatta(c, rules));
  const naturals = cards.filter((c) => !isMatta(c, rules));
  if (wild.length > 1 || !naturals.length) return [];
  const rank = naturals[0][0];
  if (naturals.some((c) => c[0] !== rank)) return [];
  const ordered = [...[...naturals].sort((a, b) => SUITS.indexOf(a[1]) - SUITS.indexOf(b[1])), ...wild];
  if (!rules.setDistinctSuits) return [{ kind: SET, rank, cards: ordered, jolly_suit: null }];
  const used = naturals.map((c) => c[1]);
  if (new Set(used).size !== used.length) return [];
  if (!wild.length) return [{ kind: SET, rank, cards: ordered, jolly_suit: null }];
  return [...SUITS].filter((s) => !used.includes(s)).map((s) => ({ kind: SET, rank, cards: [...ordered], jolly_suit: s }));
}

/** Every layout (combination or sequence) these cards can take as a new meld. */
export function meldOptions(cards, rules) {
  return [...setOptions(cards, rules), ...sequenceOptions(cards, rules)];
}

/** The layouts of `meld` with `cards` added (attaccare / allungare), as extend_options. */
export function extendOptions(meld, cards, rules) {
  if (!cards.length) return [];
  const kind = meld.kind;
  for (const c of cards) {
    if (!isMatta(c, rules) && (kind === SEQ ? c[1] !== meld.suit : c[0] !== meld.rank)) return [];
  }
  if (kind === SET) {
    let options = setOptions([...meld.cards, ...cards], rules);
    const declared = meld.jolly_suit ?? null;
    if (declared !== null) options = options.filter((o) => o.jolly_suit === declared);
    return options.filter((o) => o.rank === meld.rank);
  }
  const { suit, start } = meld;
  const old = meld.cards;
  const w = wildIndex(meld, rules);
  const fixed = new Map();
  old.forEach((c, i) => { if (i !== w) fixed.set(start + i, c); });
  const loose = [...cards];
  let wildFixedAt = null;
  let moving = false;
  if (w !== null) {
    const wpos = start + w;
    if (cards.some((c) => naturalAt(c, suit, wpos))) {
      if (!rules.wildMoves) return [];
      loose.push(old[w]);
      moving = true;
    } else {
      fixed.set(wpos, old[w]);
      wildFixedAt = wpos;
    }
  }
  const n = old.length + cards.length;
  const out = [];
  for (let s = Math.max(1, start + old.length - n); s <= start; s += 1) {
    const laid = layout(suit, s, n, fixed, loose, rules, wildFixedAt, moving);
    if (laid !== null) out.push({ kind: SEQ, suit, start: s, cards: laid });
  }
  return out;
}

/** Scala 40's opening value of a meld (ace 1 before the 2, 11 after the king or in a combination). */
export function scala40Value(meld) {
  if (meld.kind === SEQ) {
    let total = 0;
    for (let i = 0; i < meld.cards.length; i += 1) {
      const pos = meld.start + i;
      total += pos === TOP ? 11 : Math.min(pos, 10);
    }
    return total;
  }
  const r = meld.rank === "A" ? 11 : Math.min(RANKS.indexOf(meld.rank) + 1, 10);
  return r * meld.cards.length;
}

// --- the choices offered to the player ---------------------------------------------------------

const SYMBOL = { h: "♥", d: "♦", c: "♣", s: "♠" };

/** "7♥", "10♠", "A♦", "J♣"; "jolly" for a jolly. */
export function shortCard(c) {
  if (isJoker(c)) return "jolly";
  return `${c[0] === "T" ? "10" : c[0]}${SYMBOL[c[1]] || c[1]}`;
}

/** "del 7♥", "dell'A♥", "dell'8♥" (and "dal", "al"). */
const articled = (prep, c) => ("A8".includes(c[0]) ? `${prep}ll'${shortCard(c)}` : `${prep}l ${shortCard(c)}`);
const ofCard = (c) => articled("de", c);

function mattaName(c, rules) {
  if (isJoker(c)) return "Jolly";
  return rules.wildTwos && c[0] === "2" ? `Pinella ${shortCard(c)}` : shortCard(c);
}

function mattaPhrase(o, rules) {
  const i = wildIndex(o, rules);
  if (i === null) {
    const twos = rules.wildTwos ? o.cards.filter((c) => c[0] === "2") : [];
    return twos.length ? `${twos.map(shortCard).join(", ")} al suo posto` : "Senza matta";
  }
  const stands = wildStandsFor(o, rules);
  return stands ? `${mattaName(o.cards[i], rules)} al posto ${ofCard(stands)}` : mattaName(o.cards[i], rules);
}

/** "Asso basso" / "Asso alto" when a natural ace sits at an end of the sequence. */
function acePhrase(o) {
  if (o.kind !== SEQ) return "";
  const last = o.start + o.cards.length - 1;
  if (o.start === 1 && naturalAt(o.cards[0], o.suit, 1)) return "Asso basso";
  if (last === TOP && naturalAt(o.cards[o.cards.length - 1], o.suit, TOP)) return "Asso alto";
  return "";
}

/** What a layout sends: a sequence its start, a combination its jolly's suit (games.melds.choose_layout). */
function fieldsOf(o) {
  if (o.kind === SEQ) return { start: o.start };
  return o.jolly_suit ? { jolly_suit: o.jolly_suit } : {};
}

/**
 * The layouts the player can choose among, one per request the engine tells apart (the first
 * layout of each `start` / `jolly_suit`, the one choose_layout takes), each with an Italian
 * label, the cards in their places and the fields to send. `value`: show Scala 40's value.
 */
export function layoutChoices(options, rules, { value = false } = {}) {
  const seen = new Set();
  const picked = [];
  options.forEach((o, i) => {
    const fields = fieldsOf(o);
    const key = JSON.stringify(fields);
    if (seen.has(key)) return;
    if (!Object.keys(fields).length && i !== 0) return; // only the first layout is reached without fields
    seen.add(key);
    picked.push({ layout: o, fields });
  });
  const kinds = new Set(picked.map((c) => c.layout.kind));
  const mattas = new Set(picked.map((c) => mattaPhrase(c.layout, rules)));
  const aces = new Set(picked.map((c) => acePhrase(c.layout)));
  const values = new Set(picked.map((c) => scala40Value(c.layout)));
  for (const c of picked) {
    const o = c.layout;
    const parts = [];
    if (kinds.size > 1) parts.push(o.kind === SEQ ? "Scala" : "Combinazione");
    if (aces.size > 1 && acePhrase(o)) parts.push(acePhrase(o));
    if (mattas.size > 1 || !parts.length) parts.push(mattaPhrase(o, rules));
    let text = parts.map((x, k) => (k ? x.charAt(0).toLowerCase() + x.slice(1) : x)).join(", ");
    if (o.kind === SEQ && picked.filter((x) => x.layout.kind === SEQ).length > 1 && aces.size <= 1 && mattas.size <= 1) {
      text += ` (${articled("da", rankOfPosition(o.start) + o.suit)} ${articled("a", rankOfPosition(o.start + o.cards.length - 1) + o.suit)})`;
    }
    if (value && rules.name === "scala40" && values.size > 1) text += ` · ${scala40Value(o)} punti`;
    c.label = text.charAt(0).toUpperCase() + text.slice(1);
  }
  return picked;
}
