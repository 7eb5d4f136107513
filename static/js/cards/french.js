// French card faces: the suits, the pips' layouts, the court cards and the jokers (cards.js wraps them).

import { H, W, circle, path, place, stroke, text } from "./draw.js";

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

export const FRENCH_PALETTE = {
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

export function frenchFace(card, opts) {
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

