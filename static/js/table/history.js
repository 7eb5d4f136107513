// The hand history panel: the player's own last hands (lobby:my_hands_json), each linking to
// its detail page (lobby:my_hand). Loaded when the panel is first opened and after each hand.

import { h, money } from "./dom.js";

export function loadHistory(root, panel) {
  if (!panel) return { refresh() {} };
  const url = panel.dataset.url;
  const list = h("div", { class: "history-list" }, h("p", { class: "muted" }, "Apri per vedere le tue ultime mani."));
  let loaded = false;
  async function refresh() {
    if (!url) return;
    try {
      const res = await fetch(url, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (!res.ok) throw new Error(String(res.status));
      const data = await res.json();
      loaded = true;
      list.replaceChildren(render(data.hands || []));
    } catch {
      list.replaceChildren(h("p", { class: "muted" }, "Storico non disponibile in questo momento."));
    }
  }
  const details = panel.querySelector("details") || panel;
  details.append(list);
  details.addEventListener("toggle", () => { if (details.open) refresh(); });
  if (details.open) refresh();
  return { refresh: () => { if (loaded && details.open) refresh(); } };
}

function render(hands) {
  if (!hands.length) return h("p", { class: "muted" }, "Non hai ancora giocato mani a questo tavolo.");
  return h("ul", { class: "history-hands" }, hands.map((x) => {
    let outcome = "";
    if (typeof x.delta === "number") outcome = x.delta > 0 ? `+${money(x.delta)}` : money(x.delta);
    else if (x.won === true) outcome = "vinta";
    else if (x.won === false) outcome = "persa";
    const lost = typeof x.delta === "number" ? x.delta < 0 : x.won === false; // the loss colour, not the win's
    return h("li", { dataset: { hand: x.id } },
      h("a", { href: x.url }, `Mano ${x.number}`),
      h("span", { class: "muted" }, ` · ${x.ended_at ? new Date(x.ended_at).toLocaleString("it-IT", { dateStyle: "short", timeStyle: "short" }) : ""}`),
      outcome ? h("span", { class: `history-outcome${lost ? " neg" : ""}`, dataset: { outcome: lost ? "lost" : "won" } }, ` ${outcome}`) : null);
  }));
}
