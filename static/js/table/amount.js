// Amounts as the table's forms take them, with no DOM (Node's tests import it): euro typed the
// Italian way ("5" is € 5,00, "2,50", "1.234,56"), sent in cents; Mazzetti's MAZZETTO counts cards.

/** The actions whose "amount" is a number of cards (the size of a mazzetto), not money. */
export const COUNT_ACTIONS = new Set(["mazzetto"]);

/** Whether a spec's amount is a count of cards. */
export const isCount = (spec) => COUNT_ACTIONS.has(spec.type);

/** Cents as the Italian amount a person types: 1050 -> "10,50". */
export function euroText(cents) {
  const abs = Math.abs(cents);
  return `${cents < 0 ? "-" : ""}${Math.floor(abs / 100)},${String(abs % 100).padStart(2, "0")}`;
}

/** Play money (a training table: never euro) as gettoni, 100 cents a gettone, decimals only when
 * there are some: 100000 -> "1.000 gettoni", 150 -> "1,50 gettoni", 100 -> "1 gettone"
 * (wallet.money.format_play); ``tr`` translates the unit. */
export function playMoneyText(cents, tr = (word) => word) {
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100).toString().replace(/\B(?=(\d{3})+$)/g, ".");
  const rest = abs % 100 ? `,${String(abs % 100).padStart(2, "0")}` : "";
  return `${cents < 0 ? "-" : ""}${whole}${rest} ${tr(abs === 100 ? "gettone" : "gettoni")}`;
}

/** A level tournament's chips (no money at its tables): a whole number, thousands grouped the
 * Italian way: 1600 -> "1.600" (tournaments.levelinfo.chips_label). */
export function chipsText(n) {
  const abs = Math.abs(n);
  return `${n < 0 ? "-" : ""}${String(abs).replace(/\B(?=(\d{3})+$)/g, ".")}`;
}

/** Chips typed as a whole number, with or without the thousands' dots ("1600", "1.600"); null if not. */
export function parseChips(text) {
  const s = String(text ?? "").replace(/\s/g, "");
  if (!/^(\d{1,3}(?:\.\d{3})+|\d+)$/.test(s)) return null;
  const n = Number(s.replace(/\./g, ""));
  return Number.isSafeInteger(n) ? n : null;
}

/** An amount of a table's realm, the one place the table says "€" or "gettoni": euro
 * ("€ 1.234,50", "-€ 5,00") at a money table, gettoni (``playMoneyText``) at a training table,
 * whatever the game's family (a partita's credit is money too); as wallet.money.format_money. */
export function realmMoney(cents, play, tr = (word) => word) {
  if (play) return playMoneyText(cents, tr);
  const abs = Math.abs(cents);
  const whole = Math.floor(abs / 100).toString().replace(/\B(?=(\d{3})+$)/g, ".");
  return `${cents < 0 ? "-" : ""}€ ${whole},${String(abs % 100).padStart(2, "0")}`;
}

/** An amount typed the Italian way ("5", "5,5", "1.234,56", "€ 5,00") in cents; null if not one.
 * As the server's parser (wallet.money.parse_eur): one dot group with no decimal comma ("1.234",
 * "10.999") is ambiguous, not thousands. */
export function parseEuro(text) {
  const s = String(text ?? "").replace(/€/g, "").replace(/\s/g, "");
  const m = /^(\d{1,3}(?:\.\d{3})+|\d+)(?:,(\d{1,2}))?$/.exec(s);
  if (!m) return null;
  if (m[2] === undefined && (m[1].match(/\./g) ?? []).length === 1) return null;
  const whole = Number(m[1].replace(/\./g, ""));
  const frac = m[2] ? Number(m[2].padEnd(2, "0")) : 0;
  const cents = whole * 100 + frac;
  return Number.isSafeInteger(cents) ? cents : null;
}

/** A count of cards typed as a whole number; null if not one. */
export const parseCount = (text) => (/^\s*\d+\s*$/.test(text) ? Number(text) : null);

/** What a spec's box reads: the parse of its kind (cards, chips at a level tournament's table, else
 * euro), then the spec's range; null if outside it. */
export function readAmountText(spec, text, chips = false) {
  const n = (isCount(spec) ? parseCount : chips ? parseChips : parseEuro)(text ?? "");
  return n === null || n < spec.amount.min || n > spec.amount.max ? null : n;
}

/** The range and the slider's step of a box offering these specs (whole euro when both ends are). */
export function amountRange(specs, count = specs.every(isCount)) {
  const lo = Math.min(...specs.map((s) => s.amount.min));
  const hi = Math.max(...specs.map((s) => s.amount.max));
  const step = !count && lo % 100 === 0 && hi % 100 === 0 ? 100 : 1;
  return { lo, hi, step };
}

/** A number into the range, rounded to a whole unit; not a number is the least. */
export const clampAmount = (n, lo, hi) => Math.min(hi, Math.max(lo, Math.round(Number.isFinite(n) ? n : lo)));

/** The quick amounts under the box: Min, ½ piatto and Piatto (with a pot), Max; each amount once. */
export function amountMarks(lo, hi, pot) {
  const marks = [["Min", lo]];
  if (pot) marks.push(["½ piatto", Math.floor(pot / 2)], ["Piatto", pot]);
  marks.push(["Max", hi]);
  const seen = new Set();
  const out = [];
  for (const [name, val] of marks) {
    const v = clampAmount(val, lo, hi);
    if (seen.has(v) && name !== "Max") continue;
    seen.add(v);
    out.push([name, v]);
  }
  return out;
}

/** The decision an amount is typed for: the hand, the seat's last decision (``acted``) and the
 * ranges offered. A newer view of the same decision keeps what the player typed; another clears it. */
export const amountKey = (p, specs) =>
  JSON.stringify([p.hand ?? null, p.acted ?? null, specs.map((s) => [s.type, s.amount.min, s.amount.max])]);

/** What the box shows for a decision: the kept amount when still in range, else the least. */
export function keptAmount(kept, lo, hi) {
  return kept && kept.cents !== null && kept.cents >= lo && kept.cents <= hi ? kept.cents : lo;
}
