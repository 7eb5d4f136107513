// The table's own words in the page's language. The page carries a catalog (json_script
// "table-i18n", from lobby/client_text.py: Italian msgid -> translation, empty in Italian);
// t("Il tuo credito è {credit}", {credit: "€ 8,00"}) looks the Italian text up, then fills it in.

let catalog = null;

function load() {
  if (catalog) return catalog;
  catalog = {};
  const el = document.getElementById("table-i18n");
  if (el) {
    try { catalog = JSON.parse(el.textContent || "{}") || {}; } catch { catalog = {}; }
  }
  return catalog;
}

export function t(text, vars = {}) {
  const found = load()[text];
  const out = typeof found === "string" && found ? found : text;
  return out.replace(/\{(\w+)\}/g, (m, k) => (k in vars ? String(vars[k]) : m));
}
