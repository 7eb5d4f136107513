// Who won a match, in the end-of-match summary (static/js/table/summary.js): run with
// `node --test tests/js/`.
import assert from "node:assert/strict";
import { test } from "node:test";

import { winnerText } from "../../static/js/table/summary.js";

globalThis.document ??= { getElementById: () => null }; // no page: the Italian texts as they are

const names = { 1: "Carla", 2: "Dario", 3: "Elio", 4: "Fede" };
const seatName = (n) => names[n] || `Posto ${n}`;
const model = (me) => ({ me, posSeat: (i) => i + 1 });

test("the viewer's own win, and the other's by name", () => {
  const lines = [[0], [1]];
  assert.equal(winnerText(model(1), { winner: 0 }, lines, seatName), "Hai vinto");
  assert.equal(winnerText(model(2), { winner: 0 }, lines, seatName), "Ha vinto Carla");
  assert.equal(winnerText(model(null), { winner: 1 }, lines, seatName), "Ha vinto Dario");
});

test("pairs win together", () => {
  const lines = [[0, 2], [1, 3]];
  assert.equal(winnerText(model(3), { winner: 0 }, lines, seatName), "Avete vinto");
  assert.equal(winnerText(model(1), { winner: 1 }, lines, seatName), "Hanno vinto Dario e Fede");
});

test("a draw, or no winner", () => {
  assert.equal(winnerText(model(1), { winner: 0, draw: true }, [[0], [1]], seatName), "Pareggio");
  assert.equal(winnerText(model(1), { winner: null }, [[0], [1]], seatName), "Pareggio");
});
