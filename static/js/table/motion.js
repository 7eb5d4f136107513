// Movement on the felt: cards dealt into the hand, a card played flying from its seat to
// the table, captured cards flying from the table to the seat that took them, chips going from a
// seat to the pot. Web Animations only (the page's CSP blocks inline styles, not the CSSOM), short
// (under half a second, play is never held up) and skipped when the player's system asks for
// reduced motion (WCAG 2.3.3). Each render that moved something says what in data-motion on the
// table ("deal:2 play:1 capture:3 chips:1"), which the browser tests read.

const DURATION = 380;

export function reduced() {
  return window.matchMedia?.("(prefers-reduced-motion: reduce)").matches ?? false;
}

// The felt's cards, the "last move" reminder aside (it repeats cards that have already moved).
const FELT_CARDS = "[data-role=view] [data-card]:not([data-card=covered])";
const feltCards = (root) => [...root.querySelectorAll(FELT_CARDS)].filter((el) => !el.closest(".zone-move"));

const centreOf = (r) => ({ x: r.left + r.width / 2, y: r.top + r.height / 2 });

/** What the felt shows before a new view is drawn: where cards, seats, bets and pots are. */
export function before(root) {
  const rects = (els, key) => {
    const out = new Map();
    for (const el of els) {
      const k = key(el);
      if (k === undefined || k === null) continue;
      if (!out.has(k)) out.set(k, []);
      out.get(k).push({ rect: el.getBoundingClientRect(), el });
    }
    return out;
  };
  return {
    view: rects(feltCards(root), (el) => el.dataset.card),
    hand: rects(root.querySelectorAll("[data-role=hand] [data-card]"), (el) => el.dataset.card),
    bets: new Map([...root.querySelectorAll("[data-role=seats] [data-seat]")].map((el) => [el.dataset.seat, el.querySelector(".seat-bet")?.textContent || ""])),
    stacks: new Map([...root.querySelectorAll("[data-role=seats] [data-seat]")].map((el) => [el.dataset.seat, cents(el.querySelector(".seat-chips")?.textContent)])),
    pots: root.querySelector("[data-role=pots]")?.getBoundingClientRect() || null,
  };
}

/** "€ 1.234,50" -> 123450, "1.000 gettoni" -> 100000 (decimals only when some); null for no amount. */
function cents(text) {
  const m = /([0-9][0-9.]*)(?:,([0-9]{1,2}))?/.exec(text || "");
  return m ? Number(m[1].replace(/\./g, "")) * 100 + Number((m[2] || "0").padEnd(2, "0")) : null;
}

/** A chip flying between two places of the table (then removed). */
function chipFly(root, from, to) {
  const layer = root.querySelector("[data-role=motion]") || root;
  const box = layer.getBoundingClientRect();
  const chip = document.createElement("span");
  chip.className = "chip-icon motion-ghost";
  chip.setAttribute("aria-hidden", "true");
  const a = centreOf(from);
  const b = centreOf(to);
  chip.style.left = `${a.x - box.left}px`;
  chip.style.top = `${a.y - box.top}px`;
  layer.append(chip);
  const anim = chip.animate([{ transform: "translate(0, 0)" }, { transform: `translate(${b.x - a.x}px, ${b.y - a.y}px)`, opacity: 0.3 }],
    { duration: DURATION, easing: "ease-in-out" });
  anim.onfinish = () => chip.remove();
  anim.oncancel = () => chip.remove();
}

function count(map) {
  const out = new Map();
  for (const [k, list] of map) out.set(k, list.length);
  return out;
}

function fly(el, from, to, opts = {}) {
  const a = centreOf(from);
  const b = centreOf(to);
  return el.animate(
    [{ transform: `translate(${a.x - b.x}px, ${a.y - b.y}px) scale(${opts.scale ?? 0.8})`, opacity: opts.fade ?? 0.4 },
      { transform: "translate(0, 0) scale(1)", opacity: 1 }],
    { duration: DURATION, easing: "cubic-bezier(.2,.7,.3,1)" });
}

/** A copy of a card that left the felt, flown to where it went, then removed. */
function ghost(root, old, to) {
  const layer = root.querySelector("[data-role=motion]") || root;
  const copy = old.el.cloneNode(true);
  copy.removeAttribute("data-card"); // a ghost is not a card of the table (tests and screen readers)
  copy.setAttribute("aria-hidden", "true");
  copy.classList.add("motion-ghost");
  const box = layer.getBoundingClientRect();
  copy.style.left = `${old.rect.left - box.left}px`;
  copy.style.top = `${old.rect.top - box.top}px`;
  copy.style.width = `${old.rect.width}px`;
  copy.style.height = `${old.rect.height}px`;
  layer.append(copy);
  const a = centreOf(old.rect);
  const b = centreOf(to);
  const anim = copy.animate([{ transform: "translate(0, 0)", opacity: 1 }, { transform: `translate(${b.x - a.x}px, ${b.y - a.y}px) scale(.6)`, opacity: 0 }],
    { duration: DURATION, easing: "ease-in" });
  anim.onfinish = () => copy.remove();
  anim.oncancel = () => copy.remove();
}

/**
 * Animate what changed between ``prev`` (from ``before``) and the page now, given the events that
 * made the change. Returns the tally written to data-motion.
 */
export function animate(root, prev, events) {
  const tally = { deal: 0, play: 0, capture: 0, chips: 0 };
  if (!prev || reduced()) return tally;
  const seatBox = (no) => root.querySelector(`[data-role=seats] [data-seat="${no}"]`)?.getBoundingClientRect();
  const view = root.querySelector("[data-role=view]");
  const felt = view?.getBoundingClientRect();
  if (!felt) return tally;
  const actorOf = (code) => (events || []).find((e) => e && e.card === code && Number.isInteger(e.seat))?.seat;

  // Cards new to the hand: dealt from the centre of the felt.
  const had = count(prev.hand);
  for (const el of root.querySelectorAll("[data-role=hand] [data-card]")) {
    const code = el.dataset.card;
    const left = had.get(code) || 0;
    if (left > 0) { had.set(code, left - 1); continue; }
    fly(el, felt, el.getBoundingClientRect(), { scale: 0.5, fade: 0 });
    tally.deal += 1;
  }
  // Cards new on the felt: played from the seat that played them (or dealt from the centre).
  const shown = count(prev.view);
  for (const el of feltCards(root)) {
    const code = el.dataset.card;
    const left = shown.get(code) || 0;
    if (left > 0) { shown.set(code, left - 1); continue; }
    const seat = actorOf(code);
    const from = seat !== undefined ? seatBox(seat) : null;
    fly(el, from || felt, el.getBoundingClientRect(), from ? {} : { scale: 0.5, fade: 0 });
    tally.play += 1;
  }
  // Cards gone from the felt: captured, flown to the seat that took them.
  const now = new Map();
  for (const el of feltCards(root)) now.set(el.dataset.card, (now.get(el.dataset.card) || 0) + 1);
  const taker = (events || []).find((e) => e && Number.isInteger(e.seat) && Array.isArray(e.take) && e.take.length)?.seat;
  for (const [code, list] of prev.view) {
    const gone = list.length - (now.get(code) || 0);
    if (gone <= 0 || taker === undefined) continue;
    const to = seatBox(taker);
    if (!to) continue;
    for (const old of list.slice(0, gone)) { ghost(root, old, to); tally.capture += 1; }
  }
  // Money that moved: a chip from a seat whose stack fell to its bet or the pot, from the pot to a
  // seat whose stack grew (a pot won).
  const pots = root.querySelector("[data-role=pots]")?.getBoundingClientRect() || prev.pots || felt;
  for (const el of root.querySelectorAll("[data-role=seats] [data-seat]")) {
    const was = prev.stacks.get(el.dataset.seat);
    const now = cents(el.querySelector(".seat-chips")?.textContent);
    const bet = el.querySelector(".seat-bet");
    const betChanged = bet && bet.textContent !== prev.bets.get(el.dataset.seat);
    if (!betChanged && (was === null || was === undefined || now === null || now === was)) continue;
    const seat = el.getBoundingClientRect();
    if (betChanged && bet.querySelector(".chip-icon")) fly(bet.querySelector(".chip-icon"), seat, bet.getBoundingClientRect(), { scale: 1.4 });
    else if (now < was) chipFly(root, seat, pots);
    else chipFly(root, pots, seat);
    tally.chips += 1;
  }
  return tally;
}

export function tallyText(tally) {
  return Object.entries(tally).filter(([, n]) => n).map(([k, n]) => `${k}:${n}`).join(" ");
}
