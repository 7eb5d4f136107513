// The slot page's words in the page's language: the page carries a catalog (json_script
// "slot-i18n", from tournaments/slotpage.py: Italian msgid -> translation, empty in Italian).
// t("Porta {n}", {n: 3}) looks the Italian text up, then fills it in.

let catalog = null;

export function fill(text, vars = {}) {
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
}

export function t(text, vars = {}) {
  if (catalog === null) {
    catalog = {};
    const node = typeof document !== "undefined" ? document.getElementById("slot-i18n") : null;
    try { catalog = JSON.parse(node?.textContent || "{}") || {}; } catch { catalog = {}; }
  }
  const found = catalog[text];
  return fill(typeof found === "string" && found ? found : text, vars);
}
