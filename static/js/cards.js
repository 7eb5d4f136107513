// Card faces drawn as SVG in code (issue 10, RULINGS G3): French cards and the two Italian
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

const W = 100;
const H = 140;
const FONT = "'DejaVu Sans Condensed','Arial Narrow','Roboto Condensed','Helvetica Neue',Arial,sans-serif";
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
const ITALIAN_INDEX = { A: "1", J: "8", Q: "9", K: "10" };

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
// Small SVG helpers (markup strings; every number is in card units of the 100 × 140 box).

const n = (x) => Math.round(x * 100) / 100;

function circle(cx, cy, r, fill, extra = "") {
  return `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}" fill="${fill}"${extra}/>`;
}

function path(d, fill, extra = "") {
  return `<path d="${d}" fill="${fill}"${extra}/>`;
}

function place(x, y, size, inner, rotate = 0) {
  const rot = rotate ? ` rotate(${rotate})` : "";
  return `<g transform="translate(${n(x)} ${n(y)}) scale(${n(size / 100)})${rot}">${inner}</g>`;
}

function text(x, y, size, content, fill, extra = "") {
  const narrow = content.length > 1 ? ` textLength="${n(size * 0.46 * content.length)}" lengthAdjust="spacingAndGlyphs"` : "";
  return (
    `<text x="${n(x)}" y="${n(y)}" font-size="${n(size)}" font-family="${FONT}" font-weight="700"` +
    ` text-anchor="middle" fill="${fill}"${narrow}${extra}>${content}</text>`
  );
}

const stroke = (color, width) => ` stroke="${color}" stroke-width="${width}" stroke-linejoin="round"`;

// ---------------------------------------------------------------------------------------------
// French suits, each in a −50…50 box.

const FRENCH_SUIT = {
  h: () =>
    path("M0 44C-7 35-48 9-48-16C-48-35-34-46-22-46C-11-46-3-39 0-30C3-39 11-46 22-46C34-46 48-35 48-16C48 9 7 35 0 44Z", "currentColor"),
  d: () => path("M0-48Q17-21 36 0Q17 21 0 48Q-17 21-36 0Q-17-21 0-48Z", "currentColor"),
  c: () =>
    circle(0, -24, 20, "currentColor") +
    circle(-23, 8, 20, "currentColor") +
    circle(23, 8, 20, "currentColor") +
    circle(0, 4, 12, "currentColor") +
    path("M-4 10C-4 28-10 40-19 48L19 48C10 40 4 28 4 10Z", "currentColor"),
  s: () =>
    path(
      "M0-48C8-33 46-15 46 9C46 27 32 35 20 33C12 32 6 27 3 21C4 33 10 42 19 48L-19 48C-10 42-4 33-3 21C-6 27-12 32-20 33C-32 35-46 27-46 9C-46-15-8-33 0-48Z",
      "currentColor",
    ),
};

const FRENCH_PALETTE = {
  bg: "#ffffff",
  edge: "#9aa3ad",
  ink: "#1b1b1b",
  red: "#c8102e",
  blue: "#1f4e9c",
  gold: "#e3a92b",
  skin: "#f6d7b4",
  white: "#ffffff",
  hair: "#6b3f1d",
};
// Four-colour variant (option fourColour): ♦ blue and ♣ green, a help for colour-blind players.
const FRENCH_SUIT_COLOUR = { h: "#c8102e", d: "#c8102e", c: "#1b1b1b", s: "#1b1b1b" };
const FOUR_COLOUR = { h: "#c8102e", d: "#1565c0", c: "#1b7f3b", s: "#1b1b1b" };

function frenchPip(suit, x, y, size, colour, flip = false) {
  return `<g color="${colour}">${place(x, y, size, FRENCH_SUIT[suit](), flip ? 180 : 0)}</g>`;
}

// Pip positions of the French 2–10: columns 31/50/69, rows spread over 24…116.
const FC = [31, 50, 69];
const FR4 = [24, 54.67, 85.33, 116];
const FRENCH_LAYOUT = {
  2: [[50, 24], [50, 116]],
  3: [[50, 24], [50, 70], [50, 116]],
  4: [[31, 24], [69, 24], [31, 116], [69, 116]],
  5: [[31, 24], [69, 24], [50, 70], [31, 116], [69, 116]],
  6: [[31, 24], [69, 24], [31, 70], [69, 70], [31, 116], [69, 116]],
  7: [[31, 24], [69, 24], [50, 47], [31, 70], [69, 70], [31, 116], [69, 116]],
  8: [[31, 24], [69, 24], [50, 47], [31, 70], [69, 70], [50, 93], [31, 116], [69, 116]],
  9: [...FR4.flatMap((y) => [[FC[0], y], [FC[2], y]]), [50, 70]],
  10: [...FR4.flatMap((y) => [[FC[0], y], [FC[2], y]]), [50, 39.33], [50, 100.67]],
};

function frenchIndex(label, suit, colour) {
  const one = text(10, 21, 19, label, colour) + frenchPip(suit, 10, 31, 12, colour);
  return one + `<g transform="rotate(180 ${W / 2} ${H / 2})">${one}</g>`;
}

// A French court card: a bust in a frame, mirrored as on a double-headed card.
function frenchCourtHalf(rank, suit, colour, p) {
  const red = suit === "h" || suit === "d";
  const robe = red ? p.red : p.blue;
  const trim = red ? p.blue : p.red;
  const line = stroke(p.ink, 0.8);
  let out = "";
  // The item each figure holds, on the left: the king's sword, the queen's flower, the jack's halberd.
  if (rank === "K") {
    out += path("M27.5 66L27.5 24L29 20L30.5 24L30.5 66Z", "#c9d3dd", line);
    out += path("M23 58H35V61H23Z", p.gold, line) + path("M27.8 61H30.2V68H27.8Z", p.ink);
  } else if (rank === "Q") {
    out += path("M29.2 68L29.2 34", "none", stroke("#2f7d32", 1.4));
    out += path("M29.2 52Q24 48 23 44Q28 45 29.2 50Z", "#2f7d32");
    for (let i = 0; i < 5; i += 1) {
      const a = (i * 72 * Math.PI) / 180;
      out += circle(29.2 + 3.2 * Math.sin(a), 31 - 3.2 * Math.cos(a), 2.6, trim);
    }
    out += circle(29.2, 31, 2, p.gold);
  } else {
    out += path("M28.6 68L28.6 20", "none", stroke("#8a5a2b", 1.6));
    out += path("M28.6 22L34.5 26L34.5 32L28.6 29Z", "#c9d3dd", line) + path("M28.6 22L26 18L28.6 19.5L31.2 18Z", "#c9d3dd", line);
  }
  // Shoulders, robe, trim and collar.
  out += path("M22 70C23 60 31 54 41 52L59 52C69 54 77 60 78 70Z", robe, line);
  out += path("M45.5 52L54.5 52L56 70L44 70Z", p.gold, line);
  out += path("M24.5 64C30 60 36 58 41 58L41 61C36 61 30 63 25.5 67Z", trim);
  out += path("M75.5 64C70 60 64 58 59 58L59 61C64 61 70 63 74.5 67Z", trim);
  if (rank === "K") for (const x of [48, 52]) for (const y of [56, 61, 66]) out += circle(x + (y === 61 ? 2 : 0) - 1, y, 0.9, p.ink);
  out += path("M38 52Q50 63 62 52Q50 57 38 52Z", p.white, line);
  // The head, drawn a little larger than the shoulders so that it reads at small sizes.
  let head = path("M46 44H54V53H46Z", p.skin);
  // Hair behind the face.
  if (rank === "Q") head += path("M40.5 38Q39 24 50 23.5Q61 24 59.5 38L62 53L56 51Q57.5 42 57 35Q50 31 43 35Q42.5 42 44 51L38 53Z", p.hair, line);
  if (rank === "J") head += path("M41.2 33Q40 42 43 46L44 34ZM58.8 33Q60 42 57 46L56 34Z", p.hair);
  head += `<ellipse cx="50" cy="38" rx="8.3" ry="9.6" fill="${p.skin}"${line}/>`;
  head += circle(46.7, 37, 1, p.ink) + circle(53.3, 37, 1, p.ink);
  head += path("M47.5 43.2Q50 44.6 52.5 43.2", "none", stroke("#9b2c2c", 0.9));
  if (rank === "K") {
    head += path("M41.8 40Q42 52 50 53.5Q58 52 58.2 40Q55 46.5 50 46.5Q45 46.5 41.8 40Z", p.hair, line);
    head += path("M46 44.5Q50 42.6 54 44.5", "none", stroke(p.hair, 1.2));
    head += path("M40.5 30.5L39.5 18L45 24L50 15L55 24L60.5 18L59.5 30.5Z", p.gold, line);
    head += circle(50, 25.5, 1.6, p.red) + circle(44.5, 27, 1.1, p.blue) + circle(55.5, 27, 1.1, p.blue);
  } else if (rank === "Q") {
    head += path("M42.5 29.5L44 21.5L47 25.5L50 19L53 25.5L56 21.5L57.5 29.5Z", p.gold, line);
    head += circle(50, 25.8, 1.4, p.red);
  } else {
    // The jack's cap with a golden band and a pompon.
    head += path("M39.5 32Q39.5 20 51 20Q62 20.5 62.5 29.5Q51 26.5 39.5 32Z", trim, line);
    head += path("M40 30.5Q51 25.5 62 28.5L62.3 30Q51 27.5 39.6 32.3Z", p.gold);
    head += circle(51, 19.5, 2.2, p.gold, line);
  }
  out += `<g transform="translate(50 53) scale(1.12) translate(-50 -53)">${head}</g>`;
  // The suit sign beside the figure.
  out += frenchPip(suit, 71, 20, 10, colour);
  return out;
}

function frenchCourt(rank, suit, colour, p) {
  const half = frenchCourtHalf(rank, suit, colour, p);
  return (
    `<rect x="20" y="10" width="60" height="120" rx="2" fill="#fbf6e9"/>` +
    half +
    `<g transform="rotate(180 50 70)">${half}</g>` +
    `<path d="M20 70H80" stroke="${colour}" stroke-width="0.8"/>` +
    `<rect x="20" y="10" width="60" height="120" rx="2" fill="none" stroke="${colour}" stroke-width="1.2"/>`
  );
}

// The joker: a jester's head with a three-pointed cap and bells.
function jesterHead(p) {
  const line = stroke(p.ink, 1);
  return (
    path("M-30 30Q-10 18 0 20Q10 18 30 30L24 40L12 33L0 42L-12 33L-24 40Z", p.gold, line) +
    `<ellipse cx="0" cy="6" rx="13" ry="15" fill="${p.skin}"${line}/>` +
    circle(-4.5, 3, 1.5, p.ink) +
    circle(4.5, 3, 1.5, p.ink) +
    path("M-6 12Q0 18 6 12", "none", stroke("#9b2c2c", 1.4)) +
    circle(0, 8, 2, p.red) +
    path("M-15-4Q-34-10-40-32Q-24-24-12-16Z", p.red, line) +
    path("M-8-8Q-4-34 0-46Q4-34 8-8Z", p.blue, line) +
    path("M15-4Q34-10 40-32Q24-24 12-16Z", "#2f7d32", line) +
    path("M-15-4Q0-14 15-4Q12-12 0-14Q-12-12-15-4Z", p.gold, line) +
    circle(-40, -32, 3.6, p.gold, line) +
    circle(0, -46, 3.6, p.gold, line) +
    circle(40, -32, 3.6, p.gold, line)
  );
}

function jokerFace(compact, p) {
  if (compact) {
    return text(50, 34, 26, "JOLLY", p.red) + place(50, 88, 86, jesterHead(p));
  }
  const corner = text(10, 19, 11, "J", p.red) + text(10, 30, 11, "O", p.red) + text(10, 41, 11, "L", p.red) +
    text(10, 52, 11, "L", p.red) + text(10, 63, 11, "Y", p.red);
  return (
    corner +
    `<g transform="rotate(180 50 70)">${corner}</g>` +
    place(50, 64, 80, jesterHead(p)) +
    text(50, 114, 16, "JOLLY", p.ink, ' letter-spacing="1"')
  );
}

function frenchFace(card, opts) {
  const p = FRENCH_PALETTE;
  if (card[0] === "X") return jokerFace(opts.compact, p);
  const [rank, suit] = card;
  const colour = (opts.fourColour ? FOUR_COLOUR : FRENCH_SUIT_COLOUR)[suit];
  const label = rank === "T" ? "10" : rank;
  if (opts.compact) {
    return (
      text(26, 44, 42, label, colour) +
      frenchPip(suit, 26, 66, 28, colour) +
      frenchPip(suit, 62, 104, 54, colour)
    );
  }
  let out = frenchIndex(label, suit, colour);
  if (rank === "A") {
    out += frenchPip(suit, 50, 70, suit === "s" ? 58 : 48, colour);
  } else if ("JQK".includes(rank)) {
    out += frenchCourt(rank, suit, colour, p);
  } else {
    for (const [x, y] of FRENCH_LAYOUT[label]) out += frenchPip(suit, x, y, 20, colour, y > 70);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Italian suits, drawn in several colours, each in a −50…50 box. The two styles differ in palette
// and in some shapes: napoletane swords are curved and their batons tilted knobbly cudgels,
// piacentine swords are straight and their batons upright, banded clubs.

const ITALIAN_PALETTE = {
  napoletane: {
    bg: "#fffaf0",
    edge: "#a89a7e",
    ink: "#2b1d0e",
    gold: "#eab53b",
    goldDark: "#b07d12",
    red: "#c0392b",
    blue: "#2e6db4",
    green: "#3f8f3a",
    wood: "#b9803f",
    woodDark: "#7a4f1f",
    steel: "#a9c8e8",
    skin: "#f5d6b4",
    white: "#ffffff",
    hair: "#5c3a1a",
    horse: "#f2efe6",
    index: { h: "#b52a1c", d: "#8a6100", c: "#2f6f2a", s: "#1f4f8f" },
  },
  piacentine: {
    bg: "#ffffff",
    edge: "#8e99a6",
    ink: "#141414",
    gold: "#f4c430",
    goldDark: "#a57a00",
    red: "#d62d20",
    blue: "#1f4e9c",
    green: "#2f7d32",
    wood: "#8b5a2b",
    woodDark: "#4e3015",
    steel: "#c3ced9",
    skin: "#f7d9bd",
    white: "#ffffff",
    hair: "#3b2a1a",
    horse: "#a0673a",
    index: { h: "#c0221a", d: "#7d5a00", c: "#23672a", s: "#1a3f7e" },
  },
};

function cup(style, p) {
  const line = stroke(p.ink, 3);
  const wide = style === "piacentine";
  const bowl = wide
    ? "M-38-38L38-38C38-10 22 4 0 6C-22 4-38-10-38-38Z"
    : "M-30-40L30-40C32-14 20 2 0 4C-20 2-32-14-30-40Z";
  return (
    path(bowl, p.gold, line) +
    `<ellipse cx="0" cy="${wide ? -38 : -40}" rx="${wide ? 38 : 30}" ry="7" fill="${p.red}"${line}/>` +
    path(wide ? "M-30-22Q0-14 30-22" : "M-26-22Q0-14 26-22", "none", stroke(p.red, 4)) +
    path("M-5 4H5V28H-5Z", p.gold, line) +
    `<ellipse cx="0" cy="15" rx="10" ry="5" fill="${wide ? p.blue : p.red}"${line}/>` +
    path("M-26 46C-22 34-10 28 0 27C10 28 22 34 26 46Z", wide ? p.gold : p.blue, line)
  );
}

function coin(style, p) {
  const line = stroke(p.ink, 3);
  let out = circle(0, 0, 45, p.gold, line);
  if (style === "piacentine") {
    // A sun: a blue field with eight golden rays.
    out += circle(0, 0, 31, p.blue, stroke(p.ink, 2));
    let rays = "";
    for (let i = 0; i < 8; i += 1) {
      const a = (i * Math.PI) / 4;
      const b = a + Math.PI / 8;
      const c = a - Math.PI / 8;
      rays += `M${n(27 * Math.sin(a))} ${n(-27 * Math.cos(a))}L${n(10 * Math.sin(b))} ${n(-10 * Math.cos(b))}L${n(10 * Math.sin(c))} ${n(-10 * Math.cos(c))}Z`;
    }
    out += path(rays, p.gold) + circle(0, 0, 10, p.red, stroke(p.ink, 2));
  } else {
    // A rosette: a red ring of dots around a golden flower.
    out += circle(0, 0, 32, p.red, stroke(p.ink, 2));
    for (let i = 0; i < 8; i += 1) {
      const a = (i * Math.PI) / 4;
      out += circle(19 * Math.sin(a), -19 * Math.cos(a), 8.5, p.gold);
    }
    out += circle(0, 0, 12, p.green, stroke(p.ink, 2)) + circle(0, 0, 5, p.gold);
  }
  return out;
}

function baton(style, p) {
  if (style === "piacentine") {
    const line = stroke(p.ink, 3);
    return (
      path("M-12-6L-21-13L-19-17L-11-13Z", p.wood, line) +
      path("M9 22L18 16L20 20L8 28Z", p.wood, line) +
      path("M-7 47C-8 20-14-10-15-34C-16-48 16-48 15-34C14-10 8 20 7 47Z", p.wood, line) +
      path("M-14-20L14-20L13-14L-13-14Z", p.red) +
      path("M-10 12L10 12L9.5 18L-9.5 18Z", p.red) +
      circle(-6, -33, 3, p.woodDark) +
      circle(6, -2, 2.6, p.woodDark)
    );
  }
  const line = stroke(p.ink, 3);
  return (
    `<g transform="rotate(-18)">` +
    path("M-6 48C-7 22-13-8-15-32C-16-48 16-48 15-32C13-8 7 22 6 48Z", p.green, line) +
    path("M-12 -18L-20-24L-18-28L-11-24Z", p.green, line) +
    path("M10 2L19-3L20 1L10 8Z", p.green, line) +
    path("M-13-30L13-30L12.5-25L-12.5-25Z", p.red) +
    path("M-9 20L9 20L8.5 25L-8.5 25Z", p.red) +
    circle(-5, -38, 2.4, p.woodDark) +
    circle(4, -8, 2.2, p.woodDark) +
    "</g>"
  );
}

function sword(style, p) {
  const line = stroke(p.ink, 3);
  const blade =
    style === "piacentine"
      ? path("M-7 16L-7-36L0-49L7-36L7 16Z", p.steel, line) + path("M0-40L0 14", "none", stroke(p.ink, 1.5))
      : path("M-7 16C-11-8-8-30 8-49C6-30 10-8 7 16Z", p.steel, line);
  return (
    blade +
    path("M-20 15L20 15L20 23L-20 23Z", p.gold, line) +
    circle(-21, 19, 4.5, p.gold, line) +
    circle(21, 19, 4.5, p.gold, line) +
    path("M-4 23H4V40H-4Z", style === "piacentine" ? p.blue : p.red, line) +
    circle(0, 44, 6, p.gold, line)
  );
}

const ITALIAN_SUIT = { h: cup, d: coin, c: baton, s: sword };

function italianPip(style, suit, x, y, size, p, rotate = 0) {
  return place(x, y, size, ITALIAN_SUIT[suit](style, p), rotate);
}

// Pip positions of the Italian 2–7; swords and batons are tall, so they get a little more room.
const ITALIAN_LAYOUT = {
  2: [[50, 40], [50, 100]],
  3: [[50, 30], [50, 70], [50, 110]],
  4: [[34, 40], [66, 40], [34, 100], [66, 100]],
  5: [[33, 34], [67, 34], [50, 70], [33, 106], [67, 106]],
  6: [[34, 30], [66, 30], [34, 70], [66, 70], [34, 110], [66, 110]],
  7: [[34, 27], [66, 27], [50, 52], [34, 79], [66, 79], [34, 113], [66, 113]],
};
const ITALIAN_PIP_SIZE = { 2: 36, 3: 30, 4: 34, 5: 30, 6: 30, 7: 26 };

function italianIndex(label, suit, style, p) {
  const colour = p.index[suit];
  const one = text(11, 20, label.length > 1 ? 16 : 17, label, colour) + italianPip(style, suit, 11, 30.5, 13, p);
  return one + `<g transform="rotate(180 ${W / 2} ${H / 2})">${one}</g>`;
}

// Italian figures are full length and single-ended: the Fante stands, the Cavallo rides, the Re
// is robed and crowned; each holds his suit sign.
function fante(style, suit, p) {
  const line = stroke(p.ink, 1);
  const robe = style === "piacentine" ? p.blue : p.red;
  const hose = style === "piacentine" ? p.red : p.blue;
  return (
    `<ellipse cx="50" cy="122" rx="18" ry="2.5" fill="${p.ink}" opacity=".15"/>` +
    path("M43 96H48.5V120H43Z", hose, line) +
    path("M51.5 96H57V120H51.5Z", hose, line) +
    `<ellipse cx="44.5" cy="121" rx="5" ry="2" fill="${p.ink}"/><ellipse cx="56" cy="121" rx="5" ry="2" fill="${p.ink}"/>` +
    path("M38 62L62 62L67 98L33 98Z", robe, line) +
    path("M46 62L54 62L55 98L45 98Z", p.gold, line) +
    path("M37.5 78H62.5V82H37.5Z", p.woodDark) +
    path("M38 63L29 84L33.5 86.5L42 70Z", robe, line) +
    circle(31, 86, 3, p.skin, line) +
    path("M62 63L69 50L73 53L65 71Z", robe, line) +
    circle(71, 50, 3, p.skin, line) +
    path("M40 60Q50 66 60 60Q50 63 40 60Z", p.white, line) +
    path("M46 52H54V61H46Z", p.skin) +
    `<ellipse cx="50" cy="51" rx="7.5" ry="8.5" fill="${p.skin}"${line}/>` +
    circle(47.2, 50, 0.9, p.ink) +
    circle(52.8, 50, 0.9, p.ink) +
    path("M42.5 50Q42 58 44.5 60L45 50ZM57.5 50Q58 58 55.5 60L55 50Z", p.hair) +
    path("M41 47Q41 36 51 36Q60 37 61 45Q51 42 41 47Z", hose, line) +
    path("M56 38Q64 27 71 31Q63 33 58 41Z", p.gold, line) +
    italianPip(style, suit, 71, 36, 22, p)
  );
}

function cavallo(style, suit, p) {
  const line = stroke(p.ink, 1);
  const robe = style === "piacentine" ? p.green : p.blue;
  const cloth = style === "piacentine" ? p.red : p.red;
  const legs = ["M36 98L34 120H38.5L40.5 98Z", "M44 99L44 121H48.5L48.5 99Z", "M60 99L62 121H66.5L64.5 99Z", "M67 97L72 118H76.5L71 96Z"];
  let out = `<ellipse cx="54" cy="122" rx="26" ry="2.5" fill="${p.ink}" opacity=".15"/>`;
  for (const d of legs) out += path(d, p.horse, line);
  out += path("M33 90Q22 96 24 114Q28 102 34 97Z", p.hair, line);
  out += `<ellipse cx="52" cy="92" rx="21" ry="10.5" fill="${p.horse}"${line}/>`;
  out += path("M62 88Q64 74 71 64L78 60L87 70L84 74L77 71Q74 80 73 94Z", p.horse, line);
  out += path("M72 63L73 56L76 61Z", p.horse, line);
  out += path("M71 64Q66 70 64 82L66 83Q68 72 74 66Z", p.hair);
  out += circle(79, 65.5, 0.9, p.ink);
  out += path("M42 83H62V98Q52 101 42 98Z", cloth, line);
  out += path("M42 93H62", "none", stroke(p.gold, 1.6));
  out += path("M49 84L53 105L57.5 104L55 84Z", robe, line);
  out += path("M42 60L56 60L58 86L40 86Z", robe, line);
  out += path("M43 61L34 50L30 53L40 68Z", robe, line) + circle(32, 50, 2.8, p.skin, line);
  out += path("M47 51H53V61H47Z", p.skin);
  out += `<ellipse cx="50" cy="50" rx="7" ry="8" fill="${p.skin}"${line}/>`;
  out += circle(52.5, 49, 0.9, p.ink);
  out += path("M42.5 48Q42 38 50.5 37Q58.5 38 58 48Q50 43 42.5 48Z", p.gold, line);
  out += path("M50 37L50 31", "none", stroke(p.red, 2.2));
  out += italianPip(style, suit, 30, 38, 20, p);
  return out;
}

function re(style, suit, p) {
  const line = stroke(p.ink, 1);
  const robe = style === "piacentine" ? p.red : p.blue;
  const cape = style === "piacentine" ? p.blue : p.red;
  let out = `<ellipse cx="50" cy="122" rx="24" ry="2.5" fill="${p.ink}" opacity=".15"/>`;
  out += path("M31 64L33 60L31 120L28 120Z", p.goldDark);
  out += path("M30 61L31 120", "none", stroke(p.gold, 2.4)) + circle(30, 58.5, 3.5, p.gold, line);
  out += path("M37 60L63 60L72 120L28 120Z", cape, line);
  out += path("M42 60L58 60L62 120L38 120Z", robe, line);
  out += path("M47 60H53L54 120H46Z", p.gold, line);
  for (const y of [72, 86, 100, 114]) out += circle(50, y, 1.2, p.ink);
  out += path("M35 60Q50 72 65 60L66 66Q50 78 34 66Z", p.white, line);
  for (const x of [40, 46, 54, 60]) out += circle(x, 67 + (x === 46 || x === 54 ? 2.5 : 0), 0.9, p.ink);
  out += path("M60 66L70 78L66 81L58 72Z", cape, line) + circle(68.5, 80, 2.8, p.skin, line);
  out += path("M47 49H53V60H47Z", p.skin);
  out += `<ellipse cx="50" cy="47" rx="7.5" ry="8.5" fill="${p.skin}"${line}/>`;
  out += circle(47.2, 46, 0.9, p.ink) + circle(52.8, 46, 0.9, p.ink);
  out += path("M42.6 48Q43 59 50 60Q57 59 57.4 48Q54.5 53 50 53Q45.5 53 42.6 48Z", p.hair, line);
  out += path("M42.5 40L41.5 28L46 34L50 25L54 34L58.5 28L57.5 40Z", p.gold, line);
  out += circle(50, 35.5, 1.5, p.red);
  out += italianPip(style, suit, 72, 86, 26, p);
  return out;
}

const ITALIAN_FIGURE = { J: fante, Q: cavallo, K: re };

function italianFace(card, style, opts) {
  const p = ITALIAN_PALETTE[style];
  const [rank, suit] = card;
  const label = ITALIAN_INDEX[rank] ?? rank;
  if (opts.compact) {
    return (
      text(26, 44, 42, label, p.index[suit]) +
      italianPip(style, suit, 25, 70, 34, p) +
      italianPip(style, suit, 63, 98, 70, p)
    );
  }
  let out = italianIndex(label, suit, style, p);
  if (style === "piacentine") {
    out += `<rect x="20" y="11" width="60" height="118" rx="3" fill="none" stroke="${p.edge}" stroke-width="0.8"/>`;
  }
  if (rank === "A") {
    out += italianPip(style, suit, 50, 70, suit === "d" ? 58 : 72, p);
    if (suit === "d") {
      // The asso di denari is the big ornate coin of Italian decks: a laurel ring around it.
      let leaves = "";
      for (let i = 0; i < 16; i += 1) {
        const a = (i * Math.PI) / 8;
        const x = 50 + 34 * Math.sin(a);
        const y = 70 - 34 * Math.cos(a);
        leaves += `<ellipse cx="${n(x)}" cy="${n(y)}" rx="2.2" ry="5" fill="${p.green}" transform="rotate(${n((a * 180) / Math.PI + 30)} ${n(x)} ${n(y)})"/>`;
      }
      out = leaves + out;
    }
  } else if (ITALIAN_FIGURE[rank]) {
    out += ITALIAN_FIGURE[rank](style, suit, p);
  } else {
    const size = ITALIAN_PIP_SIZE[rank];
    for (const [x, y] of ITALIAN_LAYOUT[rank]) out += italianPip(style, suit, x, y, size, p);
  }
  return out;
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
