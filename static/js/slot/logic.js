// The slot page's arithmetic, pure (no DOM): the unit bet's steps, the paylines' geometry over the
// reels, the win counting up, the clock, the reels' stopping times, the Pierino wheel's angle.
// Tested by node --test (tests/js/slot.test.js).

export const LINES = 30;
export const MIN_UNIT = 1;
export const MAX_UNIT = 100;

/** The highest unit bet the credit pays (0: no spin possible). */
export function maxUnit(credit, lines = LINES, top = MAX_UNIT) {
  return Math.max(0, Math.min(top, Math.floor(Number(credit) / lines)));
}

/** The unit bet after pressing + (delta 1) or − (delta −1): the usual steps 1, 2, 5, 10, 20, 50, 100
 * and never outside MIN_UNIT … MAX_UNIT. */
export const STEPS = [1, 2, 3, 4, 5, 10, 15, 20, 25, 30, 40, 50, 75, 100];
export function stepUnit(unit, delta) {
  const u = Math.max(MIN_UNIT, Math.min(MAX_UNIT, Math.round(Number(unit) || MIN_UNIT)));
  if (delta > 0) return STEPS.find((s) => s > u) ?? MAX_UNIT;
  const lower = STEPS.filter((s) => s < u);
  return lower.length ? lower[lower.length - 1] : MIN_UNIT;
}

/** Chips as the pages write them: 100000 -> "100.000" (Italian grouping, whatever the locale). */
export function chips(n) {
  const v = Math.round(Number(n) || 0);
  const sign = v < 0 ? "-" : "";
  return sign + String(Math.abs(v)).replace(/\B(?=(\d{3})+(?!\d))/g, ".");
}

/** "m:ss" of a number of seconds (never negative). */
export function clock(seconds) {
  const s = Math.max(0, Math.ceil(Number(seconds) || 0));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/** The centre of cell (reel, row) in a box of width × height split into 5 reels × 3 rows. */
export function cellCentre(reel, row, { width = 500, height = 300, reels = 5, rows = 3 } = {}) {
  return [((reel + 0.5) * width) / reels, ((row + 0.5) * height) / rows];
}

/** The points of a payline (the row of each reel, left to right), from the left edge to the right
 * edge of the box through every cell's centre. */
export function linePoints(rowsOfLine, box = {}) {
  const width = box.width ?? 500;
  const pts = rowsOfLine.map((row, reel) => cellCentre(reel, row, box));
  return [[0, pts[0][1]], ...pts, [width, pts[pts.length - 1][1]]];
}

/** The "points" attribute of an SVG polyline through ``linePoints``; ``lift`` moves the line up or
 * down a little (lines that share a path stay apart). */
export function polyline(rowsOfLine, box = {}, lift = 0) {
  return linePoints(rowsOfLine, box)
    .map(([x, y]) => `${Math.round(x * 10) / 10},${Math.round((y + lift) * 10) / 10}`)
    .join(" ");
}

/** A small offset for line n (1…30) so that lines sharing cells do not cover each other: −6 … +6. */
export function lineLift(n) {
  return ((Number(n) % 7) - 3) * 2;
}

/** The cells a winning line pays: its first ``count`` cells as [reel, row]. */
export function winningCells(rowsOfLine, count) {
  return rowsOfLine.slice(0, count).map((row, reel) => [reel, row]);
}

/** The value shown while a win counts up from ``from`` to ``to`` over ``duration`` ms, ``elapsed`` ms
 * in (eased out; integers; exactly ``to`` at the end). */
export function countValue(from, to, elapsed, duration) {
  if (duration <= 0 || elapsed >= duration) return to;
  if (elapsed <= 0) return from;
  const p = elapsed / duration;
  const eased = 1 - (1 - p) ** 3;
  return Math.round(from + (to - from) * eased);
}

/** How long a win counts up: longer for bigger wins (× total bet), 0 for no win, at most 4 s. */
export function countDuration(win, bet) {
  if (!win || win <= 0) return 0;
  const times = bet > 0 ? win / bet : 1;
  return Math.round(Math.min(4000, 600 + 500 * Math.log2(1 + times)));
}

/** When each reel stops (ms after the spin began): not before ``min``, then one after the other. */
export function stopTimes(reels = 5, { min = 700, step = 260 } = {}) {
  return Array.from({ length: reels }, (_, i) => min + i * step);
}

/** The Pierino wheel: its green sector is ``chance``% of the circle, from 0° clockwise. The final
 * angle of the marker (degrees, after ``turns`` whole turns) lands inside green if ``entered``,
 * inside red otherwise; ``r`` in [0, 1) picks where (never on the border). */
export function wheelAngle(entered, chance, r, turns = 4) {
  const green = Math.max(0, Math.min(100, Number(chance))) * 3.6;
  const margin = 0.1;
  const pick = margin + (1 - 2 * margin) * Math.max(0, Math.min(0.999, r));
  const inside = entered ? green * pick : green + (360 - green) * pick;
  return turns * 360 + inside;
}

/** The band a Pierino mode's points win: bands are [[lowest points, chips], …] ascending. */
export function bandPrize(points, bands) {
  let prize = 0;
  for (const [lowest, chipsWon] of bands) if (points >= lowest) prize = chipsWon;
  return prize;
}

/** The rows of a window (5 columns of 3 symbols, top to bottom) as 3 strings of 5. */
export function rowsOf(window) {
  return [0, 1, 2].map((row) => window.map((col) => col[row]).join(""));
}

/** Random symbols to blur past while a reel spins, from that reel's strip (``r``: a random source). */
export function blurCells(strip, count, r) {
  const out = [];
  for (let i = 0; i < count; i += 1) out.push(strip[Math.floor(r() * strip.length) % strip.length]);
  return out;
}
