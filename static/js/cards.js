// Card faces drawn as SVG in code (RULINGS G3): French cards and the two Italian
// 40-card styles, napoletane and piacentine. No dependencies, no image files, system fonts only.
//
// Card codes are the engine's (games/cards.py): rank then suit, ranks A 2 3 4 5 6 7 8 9 T J Q K,
// suits h (cuori/coppe) d (quadri/denari) c (fiori/bastoni) s (picche/spade); jokers "X1".."X4".
// A covered card comes as null, undefined or "??" and is drawn as a back.
//
//   import { cardSvg, cardBack } from "/static/js/cards.js";
//   hand.append(cardSvg("Qh", { style: "napoletane", size: 72 }));   // "cavallo di coppe"
//   hand.append(cardSvg(null, { size: 40 }));                         // "carta coperta"
//
// Every card is drawn in the same 100 × 140 box (5:7) whatever the style, so a table layout does
// not depend on the deck style a player prefers (G3: the style is cosmetic only). Below 60 px wide
// a compact face is drawn instead: a big index and one big suit sign, readable at 40 px and in a
// fanned hand, where only the left edge shows. Suits are always told apart by shape, never by
// colour alone (the corner index carries the suit sign too).
//
// The faces are drawn in cards/: draw.js the SVG primitives, french.js and italian.js the suits and figures.

import { H, W, n } from "./cards/draw.js";
import { FRENCH_PALETTE, frenchFace } from "./cards/french.js";
import { ITALIAN_PALETTE, italianFace } from "./cards/italian.js";

const COMPACT_BELOW = 60; // px: narrower cards get the compact face

export const STYLES = Object.freeze(["francesi", "napoletane", "piacentine"]);
export const ITALIAN_STYLES = Object.freeze(["napoletane", "piacentine"]);
export const RANKS = "A23456789TJQK";
export const ITALIAN_RANKS = "A234567JQK";
export const SUITS = "hdcs";
export const JOKERS = Object.freeze(["X1", "X2", "X3", "X4"]);

const SUIT_NAME_FRENCH = { h: "cuori", d: "quadri", c: "fiori", s: "picche" };
const SUIT_NAME_ITALIAN = { h: "coppe", d: "denari", c: "bastoni", s: "spade" };
const RANK_NAME_FRENCH = { A: "asso", T: "10", J: "fante", Q: "donna", K: "re" };
const RANK_NAME_ITALIAN = { ...RANK_NAME_FRENCH, Q: "cavallo" };
// Italian cards number their figures: Fante 8, Cavallo 9, Re 10; the asso is the 1.

/** Tell whether a value is one of the engine's card codes. */
export function isCardCode(card) {
  return typeof card === "string" && /^(?:[A2-9TJQK][hdcs]|X[1-4])$/.test(card);
}

/** Tell whether a value stands for a covered card (null, undefined or "??"). */
export function isCovered(card) {
  return card === null || card === undefined || card === "??";
}

/** Return the style a card is drawn in: Italian styles only have A–7 and the three figures. */
function drawnStyle(card, style) {
  if (!STYLES.includes(style)) return "francesi";
  // A joker, 8, 9 or 10 has no Italian face: it is drawn as a French card.
  if (card[0] === "X" || !ITALIAN_RANKS.includes(card[0])) return "francesi";
  return style;
}

/** Return the Italian name of a card ("asso di cuori", "re di denari", "carta coperta"). */
export function cardLabel(card, style = "francesi") {
  if (isCovered(card)) return "carta coperta";
  if (!isCardCode(card)) throw new RangeError(`carta non valida: ${card}`);
  if (card[0] === "X") return "jolly";
  const italian = drawnStyle(card, style) !== "francesi";
  const ranks = italian ? RANK_NAME_ITALIAN : RANK_NAME_FRENCH;
  const suits = italian ? SUIT_NAME_ITALIAN : SUIT_NAME_FRENCH;
  return `${ranks[card[0]] ?? card[0]} di ${suits[card[1]]}`;
}

/** Return the style a table should draw a game's cards in: Italian styles only for 40-card decks. */
export function styleForGame(preferred, italianDeck) {
  return italianDeck && STYLES.includes(preferred) ? preferred : "francesi";
}

// ---------------------------------------------------------------------------------------------
// Backs and the public API.

const BACK_COLOUR = { francesi: "#1f4e9c", napoletane: "#a3262a", piacentine: "#5b2a6e" };

function backFace(style, compact) {
  const colour = BACK_COLOUR[style] ?? BACK_COLOUR.francesi;
  const step = compact ? 14 : 10;
  let lattice = "";
  for (let y = 12; y + step <= 128.01; y += step) {
    for (let x = 12; x + step <= 88.01; x += step) {
      const cx = x + step / 2;
      const cy = y + step / 2;
      const r = step / 2 - 1.2;
      lattice += `M${n(cx)} ${n(cy - r)}L${n(cx + r)} ${n(cy)}L${n(cx)} ${n(cy + r)}L${n(cx - r)} ${n(cy)}Z`;
    }
  }
  return (
    `<rect x="4" y="4" width="92" height="132" rx="5" fill="${colour}"/>` +
    `<rect x="8" y="8" width="84" height="124" rx="3" fill="none" stroke="#ffffff" stroke-opacity=".85" stroke-width="1.6"/>` +
    `<path d="${lattice}" fill="#ffffff" fill-opacity=".22"/>` +
    `<ellipse cx="50" cy="70" rx="${compact ? 22 : 18}" ry="${compact ? 30 : 25}" fill="${colour}" stroke="#ffffff" stroke-width="2"/>` +
    `<ellipse cx="50" cy="70" rx="${compact ? 14 : 11}" ry="${compact ? 21 : 17}" fill="none" stroke="#f1c75b" stroke-width="${compact ? 3 : 2}"/>`
  );
}

function wrap(inner, { label, cls, size, bg, edge, card }) {
  const dims = size ? ` width="${n(size)}" height="${n((size * H) / W)}"` : "";
  const data = card ? ` data-card="${card}"` : "";
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}"${dims} class="${cls}" role="img"` +
    ` aria-label="${label}" focusable="false"${data}>` +
    `<rect x="0.75" y="0.75" width="${W - 1.5}" height="${H - 1.5}" rx="7" fill="${bg}" stroke="${edge}" stroke-width="1.5"/>` +
    inner +
    "</svg>"
  );
}

function isCompact(opts) {
  if (typeof opts.compact === "boolean") return opts.compact;
  return typeof opts.size === "number" && opts.size < COMPACT_BELOW;
}

/**
 * Return the SVG markup of a card.
 *
 * options: style ("francesi" | "napoletane" | "piacentine", default "francesi"), size (width in
 * px; without it the SVG has no width and CSS sizes it, see cards.css), faceDown (draw the back),
 * compact (force the small-size face on or off; default: on below 60 px), fourColour (French
 * cards only: ♦ blue and ♣ green).
 */
export function cardMarkup(card, options = {}) {
  const style = STYLES.includes(options.style) ? options.style : "francesi";
  const opts = { ...options, style, compact: isCompact(options) };
  const size = typeof options.size === "number" ? options.size : undefined;
  if (options.faceDown || isCovered(card)) {
    return wrap(backFace(style, opts.compact), {
      label: "carta coperta",
      cls: `carta carta--${style} carta--coperta`,
      size,
      bg: "#ffffff",
      edge: "#6b7480",
    });
  }
  if (!isCardCode(card)) throw new RangeError(`carta non valida: ${card}`);
  const drawn = drawnStyle(card, style);
  const italian = drawn !== "francesi";
  const palette = italian ? ITALIAN_PALETTE[drawn] : FRENCH_PALETTE;
  const inner = italian ? italianFace(card, drawn, opts) : frenchFace(card, opts);
  const suitClass = card[0] === "X" ? "carta--jolly" : `carta--${card[1]}`;
  return wrap(inner, {
    label: cardLabel(card, style),
    cls: `carta carta--${drawn} ${suitClass}${opts.compact ? " carta--compatta" : ""}`,
    size,
    bg: palette.bg,
    edge: palette.edge,
    card,
  });
}

/** Parse markup into an SVG element of the current document. */
function toElement(markup) {
  const tpl = document.createElement("template");
  tpl.innerHTML = markup;
  return tpl.content.firstElementChild;
}

/** Return a card as an SVG element (a back for null, undefined, "??" or faceDown). */
export function cardSvg(card, options = {}) {
  return toElement(cardMarkup(card, options));
}

/** Return the back of a card as an SVG element ("carta coperta"). */
export function cardBack(options = {}) {
  return toElement(cardMarkup(null, options));
}

/** Return the cards of a deck for a style: 40 Italian cards, or 52 French cards and the jokers. */
export function deckCards(style = "francesi", { jokers = false } = {}) {
  const ranks = ITALIAN_STYLES.includes(style) ? ITALIAN_RANKS : RANKS;
  const cards = [...SUITS].flatMap((s) => [...ranks].map((r) => r + s));
  return jokers ? [...cards, ...JOKERS] : cards;
}
