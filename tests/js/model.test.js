// The table model (static/js/table/model.js): what the felt gets of a view.
import assert from "node:assert/strict";
import { test } from "node:test";

import { buildModel } from "../../static/js/table/model.js";

const seats = [{ number: 1, nickname: "anna" }, { number: 2, nickname: "bruno" }];

test("carte viste at Briscola: every trick of the smazzata, the last on the felt, the earlier in order", () => {
  const tricks = [
    { leader: 1, plays: [[1, "Ah"], [2, "3h"]], winner: 1 },
    { leader: 1, plays: [[1, "2c"], [2, "Kc"]], winner: 2 },
    { leader: 2, plays: [[2, "7d"], [1, "Jd"]], winner: 2 },
  ];
  const model = buildModel({ seat: 1, seats, view: { order: [1, 2], trick: [], tricks_seen: tricks, stock_count: 30 } });
  const seen = model.sections.filter((s) => s.key === "tricks_seen");
  assert.deepEqual(seen.map((s) => s.kind), ["seen", "plays"]);
  assert.deepEqual(seen[0].tricks.map((tr) => tr.plays), [[[1, "Ah"], [2, "3h"]], [[1, "2c"], [2, "Kc"]]]);
  assert.deepEqual(seen[0].tricks.map((tr) => tr.winner), [1, 2]);
  assert.deepEqual(seen[1].plays, [[2, "7d"], [1, "Jd"]]);
  // without carte viste the server sends only the last trick: nothing more to show
  const one = buildModel({ seat: 1, seats, view: { order: [1, 2], trick: [], tricks_seen: tricks.slice(-1) } });
  assert.deepEqual(one.sections.filter((s) => s.key === "tricks_seen").map((s) => s.kind), ["plays"]);
});

test("carte viste at Scopa, Asso, Cirulla: the moves and the taken cards, by seat, not raw values", () => {
  const deal = {
    table: ["5c"], hands: [["Ah"], null], hand_sizes: [1, 1], stock: 20, pile_sizes: [2, 0], scope: [0, 0],
    last_move: { pos: 1, card: "4s", take: [], scopa: false },
    piles: [["7h", "7d"], []],
    moves: [{ pos: 0, card: "7h", take: ["7d"], scopa: false }, { pos: 1, card: "4s", take: [], scopa: false }],
  };
  const model = buildModel({ seat: 1, seats, view: { positions: [1, 2], deal } });
  const moves = model.sections.find((s) => s.key === "moves");
  assert.equal(moves.kind, "seen");
  assert.deepEqual(moves.moves, [{ seat: 1, card: "7h", take: ["7d"], scopa: false }]); // the last is "Ultima giocata"
  const piles = model.sections.find((s) => s.key === "piles");
  assert.equal(piles.kind, "piles");
  assert.deepEqual(piles.piles, [[1, ["7h", "7d"]], [2, []]]);
  assert.equal(model.sections.some((s) => s.kind === "value" && (s.key === "moves" || s.key === "piles")), false);
});
