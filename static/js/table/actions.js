// Legal actions → what the table offers: card plays (click a card), card picking (discards,
// melds), forms (a button, with choices and an amount when the specs ask), Scala 40's opening.
// The client never decides what is legal: it only groups the server's specs and sends one back.

export const META = new Set(["label", "confirm", "amount"]);

export function actionOf(spec, extra = {}) {
  const action = {};
  for (const [k, v] of Object.entries(spec)) if (!META.has(k)) action[k] = v;
  return Object.assign(action, extra);
}

const sameCards = (a, b) => a.length === b.length && [...a].sort().join() === [...b].sort().join();

/** Find the enumerated spec whose cards are exactly the picked ones (any order). */
export function specForPick(specs, picked) {
  return specs.find((s) => Array.isArray(s.cards) && sameCards(s.cards, picked)) || null;
}

/** Group the legal specs. `hand` is the viewer's cards (codes). */
export function planActions(legal, hand) {
  const inHand = new Set(hand || []);
  const byType = new Map();
  for (const spec of legal || []) {
    if (!byType.has(spec.type)) byType.set(spec.type, []);
    byType.get(spec.type).push(spec);
  }
  const plan = { cardPlays: new Map(), picks: [], singles: [], forms: [], opening: null, swaps: [] };
  const picking = [...byType.values()].some((specs) => specs.some((s) => Array.isArray(s.cards) || (s.cards && s.cards.subset_of) || (s.melds && s.melds.list_of)));
  for (const [type, specs] of byType) {
    const first = specs[0];
    if (specs.some((s) => s.melds && s.melds.list_of)) { plan.opening = { type, spec: first }; continue; }
    if (specs.every((s) => s.use && Array.isArray(s.use.one_of))) { plan.swaps.push({ type, specs }); continue; }
    if (specs.some((s) => s.cards && !Array.isArray(s.cards) && s.cards.subset_of)) {
      plan.picks.push({ type, kind: "subset", specs });
      continue;
    }
    if (specs.some((s) => Array.isArray(s.cards))) { plan.picks.push({ type, kind: "enum", specs }); continue; }
    if (specs.every((s) => typeof s.card === "string" && inHand.has(s.card) && !s.amount && !s.use)) {
      if (picking) { plan.singles.push({ type, specs }); continue; }
      for (const s of specs) {
        if (!plan.cardPlays.has(s.card)) plan.cardPlays.set(s.card, []);
        plan.cardPlays.get(s.card).push(s);
      }
      continue;
    }
    plan.forms.push(formOf(type, specs));
  }
  return plan;
}

/** A form: the fields whose values differ between the specs of one type become choices. */
function formOf(type, specs) {
  const fields = [];
  const keys = new Set();
  for (const s of specs) for (const k of Object.keys(s)) if (!META.has(k) && k !== "type") keys.add(k);
  for (const k of keys) {
    const values = [];
    for (const s of specs) {
      const key = JSON.stringify(s[k] ?? null);
      if (!values.some((x) => x.key === key)) values.push({ key, value: s[k] });
    }
    // yes before no, whatever order the specs come in (Tresette's Ho / Busso / Per te)
    if (values.every((x) => typeof x.value === "boolean")) values.sort((a, b) => Number(b.value) - Number(a.value));
    if (values.length > 1) fields.push({ name: k, values });
  }
  return { type, specs, fields, label: specs[0].label || type };
}

/** The spec of a form matching the chosen values ({field: JSON key}). */
export function specForChoice(form, chosen) {
  return form.specs.find((s) => form.fields.every((f) => JSON.stringify(s[f.name] ?? null) === chosen[f.name])) || null;
}
