// The card faces' drawing primitives: SVG markup strings, every number in card units of the
// 100 × 140 box (cards.js draws the faces with them, french.js and italian.js the suits and figures).

export const W = 100;
export const H = 140;
export const FONT = "'DejaVu Sans Condensed','Arial Narrow','Roboto Condensed','Helvetica Neue',Arial,sans-serif";

// ---------------------------------------------------------------------------------------------
// Small SVG helpers (markup strings; every number is in card units of the 100 × 140 box).

export const n = (x) => Math.round(x * 100) / 100;

export function circle(cx, cy, r, fill, extra = "") {
  return `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(r)}" fill="${fill}"${extra}/>`;
}

export function path(d, fill, extra = "") {
  return `<path d="${d}" fill="${fill}"${extra}/>`;
}

export function place(x, y, size, inner, rotate = 0) {
  const rot = rotate ? ` rotate(${rotate})` : "";
  return `<g transform="translate(${n(x)} ${n(y)}) scale(${n(size / 100)})${rot}">${inner}</g>`;
}

export function text(x, y, size, content, fill, extra = "") {
  const narrow = content.length > 1 ? ` textLength="${n(size * 0.46 * content.length)}" lengthAdjust="spacingAndGlyphs"` : "";
  return (
    `<text x="${n(x)}" y="${n(y)}" font-size="${n(size)}" font-family="${FONT}" font-weight="700"` +
    ` text-anchor="middle" fill="${fill}"${narrow}${extra}>${content}</text>`
  );
}

export const stroke = (color, width) => ` stroke="${color}" stroke-width="${width}" stroke-linejoin="round"`;

