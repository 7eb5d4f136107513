// The slot page's arithmetic (static/js/slot/logic.js), run with `node --test tests/js/`.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  bandPrize, blurCells, cellCentre, chips, clock, countDuration, countValue, lineLift, linePoints,
  maxUnit, polyline, rowsOf, stepUnit, stopTimes, wheelAngle, winningCells,
} from "../../static/js/slot/logic.js";
import { fill } from "../../static/js/slot/i18n.js";
import { SYMBOL_CODES, symbolSvg } from "../../static/js/slot/symbols.js";

test("the unit bet steps up and down between 1 and 100", () => {
  assert.equal(stepUnit(1, 1), 2);
  assert.equal(stepUnit(5, 1), 10);
  assert.equal(stepUnit(75, 1), 100);
  assert.equal(stepUnit(100, 1), 100);
  assert.equal(stepUnit(100, -1), 75);
  assert.equal(stepUnit(2, -1), 1);
  assert.equal(stepUnit(1, -1), 1);
  assert.equal(stepUnit(7, -1), 5); // a unit between steps goes to the step below
  assert.equal(stepUnit(7, 1), 10);
});

test("the highest unit bet is what the credit pays for 30 lines, at most 100", () => {
  assert.equal(maxUnit(100000), 100);
  assert.equal(maxUnit(2999), 99);
  assert.equal(maxUnit(30), 1);
  assert.equal(maxUnit(29), 0);
  assert.equal(maxUnit(0), 0);
});

test("chips are grouped by thousands with a dot; the clock reads m:ss", () => {
  assert.equal(chips(100000), "100.000");
  assert.equal(chips(1000000), "1.000.000");
  assert.equal(chips(999), "999");
  assert.equal(chips(-3000), "-3.000");
  assert.equal(clock(600), "10:00");
  assert.equal(clock(61.2), "1:02");
  assert.equal(clock(-4), "0:00");
});

test("a payline goes from edge to edge through the centre of its cell on every reel", () => {
  assert.deepEqual(cellCentre(0, 0), [50, 50]);
  assert.deepEqual(cellCentre(4, 2), [450, 250]);
  const pts = linePoints([0, 1, 2, 1, 0]);
  assert.deepEqual(pts, [[0, 50], [50, 50], [150, 150], [250, 250], [350, 150], [450, 50], [500, 50]]);
  assert.equal(polyline([1, 1, 1, 1, 1]), "0,150 50,150 150,150 250,150 350,150 450,150 500,150");
  assert.equal(polyline([1, 1, 1, 1, 1], {}, -4), "0,146 50,146 150,146 250,146 350,146 450,146 500,146");
  const lifts = new Set(Array.from({ length: 30 }, (_, i) => lineLift(i + 1)));
  assert.ok(lifts.size > 1 && [...lifts].every((l) => Math.abs(l) <= 6));
});

test("a winning line lights its first count cells", () => {
  assert.deepEqual(winningCells([2, 1, 0, 1, 2], 3), [[0, 2], [1, 1], [2, 0]]);
  assert.deepEqual(winningCells([0, 0, 0, 0, 0], 5).length, 5);
});

test("the win counts up from 0 to the win, eased, and lands exactly on it", () => {
  assert.equal(countValue(0, 1500, 0, 1000), 0);
  assert.equal(countValue(0, 1500, 1000, 1000), 1500);
  assert.equal(countValue(0, 1500, 5000, 1000), 1500);
  const half = countValue(0, 1500, 500, 1000);
  assert.ok(half > 750 && half < 1500); // eased out: more than half at half time
  let last = 0;
  for (let ms = 0; ms <= 1000; ms += 50) {
    const v = countValue(0, 1500, ms, 1000);
    assert.ok(v >= last && Number.isInteger(v));
    last = v;
  }
  assert.equal(countDuration(0, 300), 0);
  assert.ok(countDuration(300, 300) < countDuration(30000, 300));
  assert.ok(countDuration(10 ** 9, 30) <= 4000);
});

test("the reels stop one after the other", () => {
  assert.deepEqual(stopTimes(5, { min: 700, step: 260 }), [700, 960, 1220, 1480, 1740]);
});

test("the Pierino wheel's marker lands in green when entered, in red when not", () => {
  for (const chance of [1, 10, 50, 99]) {
    for (const r of [0, 0.3, 0.999]) {
      const green = chance * 3.6;
      const inGreen = wheelAngle(true, chance, r) % 360;
      const inRed = wheelAngle(false, chance, r) % 360;
      assert.ok(inGreen > 0 && inGreen < green, `${chance} ${r} ${inGreen}`);
      assert.ok(inRed > green && inRed < 360, `${chance} ${r} ${inRed}`);
    }
  }
  assert.ok(wheelAngle(true, 100, 0.5) >= 4 * 360);
});

test("the Pierino bands: one band for the points", () => {
  const bands = [[0, 50000], [200, 100000], [400, 300000], [600, 1000000]];
  assert.equal(bandPrize(0, bands), 50000);
  assert.equal(bandPrize(199, bands), 50000);
  assert.equal(bandPrize(200, bands), 100000);
  assert.equal(bandPrize(599, bands), 300000);
  assert.equal(bandPrize(2500, bands), 1000000);
});

test("a window's rows, the blur from the reel's own strip, the texts and the symbols", () => {
  assert.deepEqual(rowsOf(["ABC", "DEF", "GHI", "JKL", "MNO"]), ["ADGJM", "BEHKN", "CFILO"]);
  let i = 0;
  const seq = [0, 0.5, 0.99];
  assert.deepEqual(blurCells("XYZW", 3, () => seq[i++]), ["X", "Z", "W"]);
  assert.equal(fill("Porta {n} di {of}", { n: 2 }), "Porta 2 di {of}");
  for (const code of "CMZLQTGRWSFPABD") {
    assert.ok(SYMBOL_CODES.includes(code));
    assert.match(symbolSvg(code), /^<svg viewBox="0 0 100 100"[^>]*>.+<\/svg>$/s);
  }
});
