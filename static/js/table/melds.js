// Labels for the meld layouts the server lists (lobby:layouts, the engine's `layouts`): where a
// matta goes, ace low or high, which suit a jolly declares, a Scala 40 opening meld's points.
// No rule lives here: each layout comes with the fields that select it, its cards in their places
// and what they mean (matta, ace, span, points); this module only words them in Italian.

const SYMBOL = { h: "♥", d: "♦", c: "♣", s: "♠" };

/** "7♥", "10♠", "A♦", "J♣"; "jolly" for a jolly. */
export function shortCard(c) {
  if (c[0] === "X") return "jolly";
  return `${c[0] === "T" ? "10" : c[0]}${SYMBOL[c[1]] || c[1]}`;
}

/** "del 7♥", "dell'A♥", "dell'8♥" (and "dal", "al"). */
const articled = (prep, c) => ("A8".includes(c[0]) ? `${prep}ll'${shortCard(c)}` : `${prep}l ${shortCard(c)}`);

const mattaName = (m) => (m.kind === "jolly" ? "Jolly" : `Pinella ${shortCard(m.card)}`);

function mattaPhrase(o) {
  if (!o.matta) {
    const twos = o.natural_matte || [];
    return twos.length ? `${twos.map(shortCard).join(", ")} al suo posto` : "Senza matta";
  }
  return o.matta.stands_for ? `${mattaName(o.matta)} al posto ${articled("de", o.matta.stands_for)}` : mattaName(o.matta);
}

const acePhrase = (o) => (o.ace === "basso" ? "Asso basso" : o.ace === "alto" ? "Asso alto" : "");

/**
 * The server's layouts as choices: each with an Italian label that tells it from the others,
 * the cards in their places (`layout.cards`) and the fields to send. `value`: show the points
 * (Scala 40's opening) when they differ.
 */
export function layoutChoices(layouts, { value = false } = {}) {
  const kinds = new Set(layouts.map((o) => o.layout.kind));
  const mattas = new Set(layouts.map(mattaPhrase));
  const aces = new Set(layouts.map(acePhrase));
  const points = new Set(layouts.map((o) => o.points));
  const runs = layouts.filter((o) => o.span).length;
  return layouts.map((o) => {
    const parts = [];
    if (kinds.size > 1) parts.push(o.layout.kind === "scala" ? "Scala" : "Combinazione");
    if (aces.size > 1 && acePhrase(o)) parts.push(acePhrase(o));
    if (mattas.size > 1 || !parts.length) parts.push(mattaPhrase(o));
    let text = parts.map((x, k) => (k ? x.charAt(0).toLowerCase() + x.slice(1) : x)).join(", ");
    if (o.span && runs > 1 && aces.size <= 1 && mattas.size <= 1) {
      text += ` (${articled("da", o.span[0])} ${articled("a", o.span[1])})`;
    }
    if (value && o.points !== null && o.points !== undefined && points.size > 1) text += ` · ${o.points} punti`;
    return { ...o, label: text.charAt(0).toUpperCase() + text.slice(1) };
  });
}
