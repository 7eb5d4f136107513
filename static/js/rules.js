// The rules pages: each [data-cards] row ({% cards %} in templates/rules) drawn with the tables'
// own card faces. The row keeps its label (role="img", the cards named in words) for screen
// readers; the drawn cards are decoration for them, and the words stay for a page without scripts.
import { cardSvg } from "./cards.js";

const SIZE = 64; // px: a full face, readable, four to a phone's line

for (const row of document.querySelectorAll(".rule-cards[data-cards]")) {
  const style = row.dataset.style || "francesi";
  const drawn = document.createElement("span");
  drawn.className = "rule-cards__faces";
  drawn.setAttribute("aria-hidden", "true");
  for (const code of row.dataset.cards.split(/\s+/).filter(Boolean)) {
    const svg = cardSvg(code, { style, size: SIZE });
    svg.classList.add("rule-card");
    drawn.append(svg);
  }
  row.querySelector(".rule-cards__text")?.setAttribute("hidden", "");
  row.append(drawn);
}
