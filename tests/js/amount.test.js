// The amounts of the table's forms (static/js/table/amount.js): run with `node --test tests/js/`.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  amountKey, amountMarks, amountRange, chipsText, clampAmount, euroText, isCount, keptAmount, parseChips, parseCount, parseEuro, playMoneyText,
  readAmountText, realmMoney,
} from "../../static/js/table/amount.js";

test("euro are typed the Italian way and read in cents", () => {
  assert.equal(parseEuro("5"), 500);
  assert.equal(parseEuro("2,5"), 250);
  assert.equal(parseEuro("2,50"), 250);
  assert.equal(parseEuro("0,05"), 5);
  assert.equal(parseEuro("1.234,56"), 123456);
  assert.equal(parseEuro("1.234,00"), 123400);
  assert.equal(parseEuro("1.234.567"), 123456700);
  assert.equal(parseEuro("€ 5,00"), 500);
  assert.equal(parseEuro(" 7 "), 700);
});

test("what is not an amount is null", () => {
  for (const text of ["", "2,", ",5", "2.5", "2,505", "1.23,00", "1.234", "10.999", "abc", "-5", null, undefined, "9".repeat(20)]) {
    assert.equal(parseEuro(text), null, String(text));
  }
});

test("cents are written as a person types them", () => {
  assert.equal(euroText(1050), "10,50");
  assert.equal(euroText(5), "0,05");
  assert.equal(euroText(0), "0,00");
  assert.equal(euroText(-250), "-2,50");
  for (const cents of [0, 1, 99, 100, 12345, 1000000]) assert.equal(parseEuro(euroText(cents)), cents);
});

test("a mazzetto's size is a whole count of cards", () => {
  assert.equal(isCount({ type: "mazzetto" }), true);
  assert.equal(isCount({ type: "raise" }), false);
  assert.equal(parseCount(" 12 "), 12);
  assert.equal(parseCount("1,5"), null);
  assert.equal(parseCount(""), null);
});

test("an amount outside the spec's range is refused", () => {
  const spec = { type: "raise", amount: { min: 100, max: 900 } };
  assert.equal(readAmountText(spec, "2"), 200);
  assert.equal(readAmountText(spec, "0,50"), null);
  assert.equal(readAmountText(spec, "10"), null);
  assert.equal(readAmountText({ type: "mazzetto", amount: { min: 1, max: 10 } }, "4"), 4);
});

test("the range spans every spec; the slider steps by whole euro when both ends are", () => {
  const specs = [{ type: "bet", amount: { min: 200, max: 1000 } }, { type: "raise", amount: { min: 100, max: 800 } }];
  assert.deepEqual(amountRange(specs), { lo: 100, hi: 1000, step: 100 });
  assert.deepEqual(amountRange([{ type: "bet", amount: { min: 150, max: 1000 } }]), { lo: 150, hi: 1000, step: 1 });
  assert.deepEqual(amountRange([{ type: "mazzetto", amount: { min: 100, max: 200 } }]), { lo: 100, hi: 200, step: 1 });
});

test("amounts are clamped and rounded into the range", () => {
  assert.equal(clampAmount(50, 100, 900), 100);
  assert.equal(clampAmount(1000, 100, 900), 900);
  assert.equal(clampAmount(250.6, 100, 900), 251);
  assert.equal(clampAmount(NaN, 100, 900), 100);
});

test("the quick amounts name each amount once, Max always", () => {
  assert.deepEqual(amountMarks(100, 900, 600), [["Min", 100], ["½ piatto", 300], ["Piatto", 600], ["Max", 900]]);
  assert.deepEqual(amountMarks(100, 900, null), [["Min", 100], ["Max", 900]]);
  assert.deepEqual(amountMarks(100, 400, 150), [["Min", 100], ["Piatto", 150], ["Max", 400]]);
  assert.deepEqual(amountMarks(100, 100, 2000), [["Min", 100], ["Max", 100]]);
});

test("a typed amount belongs to its decision: a newer view of it keeps it, another clears it", () => {
  const specs = [{ type: "raise", amount: { min: 100, max: 900 } }];
  const view = { version: 6, hand: 2, acted: 4 };
  const key = amountKey(view, specs);
  assert.equal(amountKey({ ...view, version: 7 }, specs), key); // another seat answered: same decision
  assert.notEqual(amountKey({ ...view, acted: 7 }, specs), key); // the seat decided
  assert.notEqual(amountKey({ ...view, hand: 3 }, specs), key);
  assert.notEqual(amountKey(view, [{ type: "raise", amount: { min: 300, max: 900 } }]), key);
  assert.equal(keptAmount({ key, cents: 450, text: "4,5" }, 100, 900), 450);
  assert.equal(keptAmount({ key, cents: 950, text: null }, 100, 900), 100);
  assert.equal(keptAmount({ key, cents: null, text: null }, 100, 900), 100);
  assert.equal(keptAmount(null, 100, 900), 100);
});

test("play money reads as gettoni, never euro (wallet.money.format_play)", () => {
  assert.equal(playMoneyText(100000), "1.000 gettoni");
  assert.equal(playMoneyText(150), "1,50 gettoni");
  assert.equal(playMoneyText(100), "1 gettone");
  assert.equal(playMoneyText(50), "0,50 gettoni");
  assert.equal(playMoneyText(123456700), "1.234.567 gettoni");
  assert.equal(playMoneyText(-500), "-5 gettoni");
  assert.equal(playMoneyText(2000, (w) => ({ gettoni: "chips" })[w] ?? w), "20 chips");
});

test("a level tournament's chips are whole numbers, grouped and typed the Italian way", () => {
  assert.equal(chipsText(1600), "1.600");
  assert.equal(chipsText(480), "480");
  assert.equal(chipsText(1234567), "1.234.567");
  assert.equal(chipsText(-40), "-40");
  assert.equal(parseChips("40"), 40);
  assert.equal(parseChips(" 1.600 "), 1600);
  assert.equal(parseChips("1600"), 1600);
  for (const bad of ["", "4,5", "1.60", "€ 40", "-3", "abc"]) assert.equal(parseChips(bad), null, bad);
  const spec = { type: "punto", amount: { min: 40, max: 480 } };
  assert.equal(readAmountText(spec, "40", true), 40); // 40 chips, not € 40 (4000 cents)
  assert.equal(readAmountText(spec, "40"), null); // as euro: 4000, above the range
  assert.equal(readAmountText(spec, "500", true), null);
});

test("a table's money is the realm's: euro at a money table, gettoni at a training one", () => {
  assert.equal(realmMoney(123450, false), "€ 1.234,50");
  assert.equal(realmMoney(-500, false), "-€ 5,00");
  assert.equal(realmMoney(2000, true), "20 gettoni");
  assert.equal(realmMoney(100, true), "1 gettone");
});
