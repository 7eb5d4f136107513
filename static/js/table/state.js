// The table's state as the frames make it, with no DOM (Node's tests import it): versions and the
// action in flight, the reconnection's pacing, what the player has picked, the hand's order, the
// events a hand keeps for its summary.

/** An action sent and not answered (neither a view showing it nor an error) for this long no longer
 * holds the next one back: its answer was lost on the way. */
export const PENDING_MS = 4000;

/** Whether an action sent against ``sentFor`` at ``sentAt`` still holds the next one back at ``now``. */
export const inFlight = (sentFor, sentAt, now) => sentFor !== null && now - sentAt < PENDING_MS;

/** Whether a view answers the action in flight: the server's owner says which version this
 * seat's last decision made (``acted``); without it, or once the seat is no longer due, any view does. */
export function answered(msg, sentFor) {
  if (sentFor === null || typeof msg.acted !== "number") return true;
  return msg.acted > sentFor || !(msg.to_act || []).includes(msg.seat) || !!msg.over;
}

/** Whether the server's heartbeat says the page missed a version (it then asks "sync"). */
export const behind = (beat, version) => beat.version > version;

/** Whether a socket that heard nothing since ``heard`` is dead: silent for three heartbeats. */
export const silent = (heard, now, beatMs) => beatMs > 0 && now - heard > 3 * beatMs;

/** The wait before reconnection attempt ``retries``: one step more per attempt, at most five, each
 * drawn between half and all of it (``r`` in [0, 1)), so that the thousand sockets of a server that
 * died do not all knock again in the same instant. */
export const retryDelay = (retries, step, r) => Math.min(step * retries, step * 5) * (0.5 + r / 2);

/** What the player has chosen on the page and not sent yet. */
export function newUi() {
  return { picked: [], choice: null, form: {}, amount: null, meldPart: [], layout: null, swap: null, swapLayouts: null, order: null };
}

/** Forget the cards picked and the choices open (an action was sent). */
export function forgetPicks(ui) {
  ui.picked = [];
  ui.choice = null;
  ui.layout = null;
  ui.swap = null;
  ui.swapLayouts = null;
}

/** A view of another version: what was picked on the previous one no longer applies. */
export function viewArrives(ui, prev, msg) {
  if (prev && msg.version !== prev.version) {
    forgetPicks(ui);
    ui.meldPart = [];
  }
}

/** The hand in the player's own order: ``order`` (codes) first as far as the hand has them, then the rest. */
export function arrange(cards, order) {
  if (!order || !order.length) return cards;
  const left = [...cards];
  const out = [];
  for (const code of order) {
    const i = left.indexOf(code);
    if (i >= 0) { out.push(code); left.splice(i, 1); }
  }
  return [...out, ...left];
}

// Long hands (tresette) are shown sorted by suit and rank; short ones as dealt. Burraco and Scala 40
// hands come in the order the player chose (the option "Ordina la mano"): the server's order holds.
const ORDER = "A23456789TJQK";
const SUIT_ORDER = "hdcs";
const sortKey = (c) => (c[0] === "X" ? 99 : SUIT_ORDER.indexOf(c[1]) * 20 + ORDER.indexOf(c[0]));

/** Games whose server orders the viewer's hand by the player's option "Ordina la mano". */
export const SERVER_ORDERED = new Set(["burraco", "scala40"]);

/** The viewer's cards as the page shows them: the player's own order over the sorted, dealt or
 * server's one (``game`` in SERVER_ORDERED: never re-sorted). */
export function handOrder(cards, order, game = "") {
  if (cards.some((c) => typeof c !== "string")) return cards;
  const sorted = cards.length < 9 || SERVER_ORDERED.has(game) ? cards : [...cards].sort((a, b) => sortKey(a) - sortKey(b));
  return arrange(sorted, order);
}

/** The buttons "Per seme" / "Per valore" of Burraco and Scala 40 (the same orders as the option
 * "Ordina la mano", games/melds.py sort_hand): by suit ♥♦♣♠ then rank A..K, the jolly last; or by
 * value with the matte first (the jolly, then Burraco's 2s by suit), then rank A..K, suit. */
export function sortHand(cards, by, game) {
  const joker = (c) => c[0] === "X";
  const rank = (c) => ORDER.indexOf(c[0]);
  const suit = (c) => SUIT_ORDER.indexOf(c[1]);
  const cmp = (a, b) => {
    for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return a[i] - b[i];
    return 0;
  };
  const key = by === "seme"
    ? (c) => (joker(c) ? [1, 0, 0] : [0, suit(c), rank(c)])
    : (c) => (joker(c) ? [0, 0, 0] : game === "burraco" && c[0] === "2" ? [1, 0, suit(c)] : [2, rank(c), suit(c)]);
  return [...cards].sort((a, b) => cmp(key(a), key(b)) || (a < b ? -1 : a > b ? 1 : 0));
}

/** Move a card of the hand from one place to another: the new order, and the picks where they went. */
export function moveInHand(hand, picked, from, to) {
  const order = [...hand];
  order.splice(to, 0, ...order.splice(from, 1));
  const was = hand.map((_, k) => k);
  was.splice(to, 0, ...was.splice(from, 1)); // was[new place] = old place
  return { order, picked: picked.map((old) => was.indexOf(old)) };
}

/** What a hand keeps for its end-of-hand summary: the hands shown (MOSTRO) and the measures. */
export function newHandNotes() {
  return { hand: null, shown: {}, measures: [] };
}

/** Note a view's events in ``notes`` (a new hand starts afresh); ``isMeasure(e)`` tells the
 * automatic measures. Returns how many scope were made. */
export function noteEvents(notes, msg, isMeasure) {
  let scope = 0;
  if (msg.hand !== notes.hand) {
    notes.hand = msg.hand;
    for (const k of Object.keys(notes.shown)) delete notes.shown[k];
    notes.measures.length = 0;
  }
  for (const e of msg.events || []) {
    if (e && typeof e === "object" && isMeasure(e)) notes.measures.push(e);
    if (e && e.type === "mostro" && typeof e.punto === "string") notes.shown[e.seat] = e.punto;
    if (e && e.scopa) scope += 1;
  }
  return scope;
}

/** The viewer's decision, once per decision (its sound plays once): null when he is not due. */
export const turnKey = (mine, p) => (mine && mine.toAct && p.deadline ? `${p.hand}:${p.deadline}` : null);

/** Tempo partita: giochi a partite keep one clock per line (0, 1: positions alternate), others per seat. */
export function clockLine(p, no) {
  const pos = p.view?.positions;
  if (p.clocks && "0" in p.clocks && Array.isArray(pos) && pos.includes(no)) return String(pos.indexOf(no) % 2);
  return String(no);
}
