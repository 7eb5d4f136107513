// Italian card faces, napoletane and piacentine: the suits, the pips' layouts and the three figures
// (fante, cavallo, re); cards.js wraps them.

import { H, W, circle, n, path, place, stroke, text } from "./draw.js";

const ITALIAN_INDEX = { A: "1", J: "8", Q: "9", K: "10" };

// ---------------------------------------------------------------------------------------------
// Italian suits, drawn in several colours, each in a −50…50 box. The two styles differ in palette
// and in some shapes: napoletane swords are curved and their batons tilted knobbly cudgels,
// piacentine swords are straight and their batons upright, banded clubs.

export const ITALIAN_PALETTE = {
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

export function italianFace(card, style, opts) {
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

