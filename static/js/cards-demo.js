// The card demo page (static/cards-demo.html): every face of the three decks, and a rough timing.
import { STYLES, cardSvg, cardBack, deckCards } from "./cards.js";

const TITLES = { napoletane: "Napoletane (40 carte)", piacentine: "Piacentine (40 carte)", francesi: "Francesi (52 carte e jolly)" };
const SUIT_TITLES = {
  napoletane: { h: "Coppe", d: "Denari", c: "Bastoni", s: "Spade" },
  piacentine: { h: "Coppe", d: "Denari", c: "Bastoni", s: "Spade" },
  francesi: { h: "Cuori ♥", d: "Quadri ♦", c: "Fiori ♣", s: "Picche ♠" },
};
const demo = document.getElementById("demo");
const el = (tag, attrs = {}, text = "") => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
};
const row = (cards, opts, attrs = {}) => {
  const div = el("div", { class: "carte", ...attrs });
  for (const c of cards) div.append(cardSvg(c, opts));
  return div;
};

for (const style of ["napoletane", "piacentine", "francesi"]) {
  const section = el("section", { id: `stile-${style}`, "data-style": style });
  section.append(el("h2", {}, TITLES[style]));
  const cards = deckCards(style, { jokers: style === "francesi" });
  for (const suit of "hdcs") {
    section.append(el("h3", {}, SUIT_TITLES[style][suit]));
    section.append(row(cards.filter((c) => c[1] === suit), { style, size: 100 }, { "data-size": "100" }));
  }
  if (style === "francesi") {
    section.append(el("h3", {}, "Jolly"));
    section.append(row(cards.filter((c) => c[0] === "X"), { style, size: 100 }, { "data-size": "100" }));
  }
  section.append(el("h3", {}, "A 40 px (faccia compatta)"));
  for (const suit of "hdcs") {
    section.append(row(cards.filter((c) => c[1] === suit), { style, size: 40 }, { "data-size": "40" }));
  }
  if (style === "francesi") {
    section.append(row(cards.filter((c) => c[0] === "X"), { style, size: 40 }, { "data-size": "40" }));
  }
  section.append(el("h3", {}, "Mano a ventaglio (56 px) e dorso"));
  const fan = el("div", { class: "carte carte--ventaglio", "data-role": "fan" });
  const hand = style === "francesi" ? ["Ah", "Kd", "Tc", "7s", "Qh", "X1"] : ["Ah", "Kd", "Qc", "Js", "7d", "3c"];
  for (const c of hand) {
    const svg = cardSvg(c, { style, compact: true });
    svg.classList.add("carta--sm");
    fan.append(svg);
  }
  const backs = el("div", { class: "carte", "data-role": "backs" });
  for (const size of [100, 56, 40]) backs.append(cardBack({ style, size }));
  backs.append(cardSvg(null, { style, size: 56 }), cardSvg("??", { style, size: 56 }));
  section.append(fan, backs);
  if (style === "francesi") {
    section.append(el("h3", {}, "Quattro colori (aiuto per daltonici)"));
    section.append(row(["Ah", "Ad", "Ac", "As", "Qd", "Tc"], { style, size: 72, fourColour: true }));
    section.append(row(["Ah", "Ad", "Ac", "As", "Qd", "Tc"], { style, size: 40, fourColour: true }));
  }
  demo.append(section);
}
// A rough figure: how long drawing every card of the three decks takes, as elements.
const all = STYLES.flatMap((style) => deckCards(style, { jokers: style === "francesi" }).map((c) => [c, style]));
const start = performance.now();
const rounds = 10;
for (let i = 0; i < rounds; i += 1) for (const [c, style] of all) cardSvg(c, { style, size: i % 2 ? 40 : 100 });
const ms = (performance.now() - start) / (rounds * all.length);
const timing = el("p", { id: "tempo" }, `${rounds * all.length} carte disegnate: ${ms.toFixed(3)} ms per carta.`);
demo.before(timing);
document.body.dataset.ready = String(STYLES.length);
