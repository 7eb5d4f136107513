// The words of a form's choices (static/js/table/input.js formEl): an engine's field names and
// values in Italian ("per_te" → "Per te", true → "Sì", "napoletana:d" → "Napoletana di denari").
// Pure (Node's tests import it): the caller passes the translation function and the deck style.

const FIELDS = {
  ho: "Ho", busso: "Busso", per_te: "Per te", combo: "Accuso", kind: "Accuso", mazzetto: "Mazzetto",
};

const fill = (s, vars = {}) => s.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));

// Tresette's accusi (games/tresette/deal.py combos): the napoletana by suit (Italian or French
// deck), three or four cards of a rank.
const COMBOS = {
  "napoletana:h": "Napoletana di coppe", "napoletana:d": "Napoletana di denari",
  "napoletana:c": "Napoletana di bastoni", "napoletana:s": "Napoletana di spade",
  "tre:A": "Tre assi", "tre:2": "Tre due", "tre:3": "Tre tre",
  "quattro:A": "Quattro assi", "quattro:2": "Quattro due", "quattro:3": "Quattro tre",
};
const COMBOS_FR = {
  "napoletana:h": "Napoletana di cuori", "napoletana:d": "Napoletana di quadri",
  "napoletana:c": "Napoletana di fiori", "napoletana:s": "Napoletana di picche",
};
// Cirulla's accusi (games/cirulla).
const ACCUSI = { cirulla: "Cirulla", decino: "Decino", mazziere: "Accuso del mazziere" };

/** The title of a form's field ("per_te" → "Per te"); unknown ones humanised. */
export function fieldTitle(name, t = fill) {
  if (FIELDS[name]) return t(FIELDS[name]);
  const s = String(name).replace(/_/g, " ");
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The words of one value of a field; null when the caller draws it itself (cards, melds…). */
export function choiceText(field, value, { t = fill, style = "francesi" } = {}) {
  if (typeof value === "boolean") return value ? t("Sì") : t("No");
  if (field === "combo" && typeof value === "string") {
    const words = (style === "francesi" && COMBOS_FR[value]) || COMBOS[value];
    if (words) return t(words);
  }
  if (field === "kind" && ACCUSI[value]) return t(ACCUSI[value]);
  return null;
}
