// The table's pure state (static/js/table/state.js): run with `node --test tests/js/`.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  PENDING_MS, answered, arrange, behind, clockLine, forgetPicks, handOrder, inFlight, moveInHand, newHandNotes, newUi,
  noteEvents, retryDelay, silent, sortHand, turnKey, viewArrives,
} from "../../static/js/table/state.js";

test("an action in flight holds the next one back until answered or lost", () => {
  assert.equal(inFlight(null, 0, 10), false);
  assert.equal(inFlight(5, 1000, 1000 + PENDING_MS - 1), true);
  assert.equal(inFlight(5, 1000, 1000 + PENDING_MS), false);
});

test("a view answers the action in flight once the seat's decision shows in it", () => {
  const view = { seat: 1, acted: 4, to_act: [1, 2] };
  assert.equal(answered(view, null), true); // nothing in flight
  assert.equal(answered(view, 5), false); // another seat's answer at the invito: still ours to make
  assert.equal(answered({ ...view, acted: 6 }, 5), true);
  assert.equal(answered({ ...view, to_act: [2] }, 5), true);
  assert.equal(answered({ ...view, over: true }, 5), true);
  assert.equal(answered({ seat: 1, to_act: [1] }, 5), true); // a runtime that does not say
});

test("the heartbeat resyncs a page behind and closes a silent socket", () => {
  assert.equal(behind({ version: 8 }, 7), true);
  assert.equal(behind({ version: 7 }, 7), false);
  assert.equal(silent(0, 3001, 1000), true);
  assert.equal(silent(0, 3000, 1000), false);
  assert.equal(silent(0, 1e9, 0), false); // no heartbeat: never silent
});

test("reconnection waits one step more per attempt, at most five, spread over half to all of it", () => {
  assert.equal(retryDelay(1, 1000, 0), 500);
  assert.equal(retryDelay(1, 1000, 1), 1000);
  assert.equal(retryDelay(3, 1000, 0.5), 2250);
  assert.equal(retryDelay(12, 1000, 1), 5000);
});

test("a view of another version forgets what was picked; the same version keeps it", () => {
  const ui = newUi();
  Object.assign(ui, { picked: [1, 2], choice: "7h", meldPart: [{ cards: ["Ah"] }], layout: {}, swap: {}, swapLayouts: {}, amount: { key: "k" } });
  viewArrives(ui, { version: 3 }, { version: 3 });
  assert.deepEqual(ui.picked, [1, 2]);
  viewArrives(ui, null, { version: 4 });
  assert.deepEqual(ui.picked, [1, 2]); // the first view
  viewArrives(ui, { version: 3 }, { version: 4 });
  assert.deepEqual([ui.picked, ui.choice, ui.meldPart, ui.layout, ui.swap, ui.swapLayouts], [[], null, [], null, null, null]);
  assert.deepEqual(ui.amount, { key: "k" }); // the amount box keeps its own decision (amount.js)
  ui.meldPart = [{ cards: ["Ah"] }];
  forgetPicks(ui);
  assert.equal(ui.meldPart.length, 1);
});

test("the hand is shown in the player's order, long hands sorted by suit and rank", () => {
  assert.deepEqual(arrange(["Ah", "2c", "Kd"], ["Kd"]), ["Kd", "Ah", "2c"]);
  assert.deepEqual(arrange(["Ah", "2c"], null), ["Ah", "2c"]);
  assert.deepEqual(handOrder(["Kd", "Ah", "2c"], null), ["Kd", "Ah", "2c"]); // short: as dealt
  const long = ["Ks", "2h", "X1", "Ad", "Th", "3c", "Jd", "5s", "9h"];
  assert.deepEqual(handOrder(long, null), ["2h", "9h", "Th", "Ad", "Jd", "3c", "5s", "Ks", "X1"]);
  assert.deepEqual(handOrder([null, null], ["Ah"]), [null, null]); // covered cards stay as they come
});

test("Burraco and Scala 40 hands keep the server's order (the option Ordina la mano), however long", () => {
  const byValue = ["X1", "2c", "Ah", "3d", "3s", "5h", "7c", "9d", "Jh", "Qs", "Kd"]; // "per valore, matte prima"
  assert.deepEqual(handOrder(byValue, null, "burraco"), byValue);
  assert.deepEqual(handOrder(byValue, null, "scala40"), byValue);
  assert.deepEqual(handOrder(byValue, ["Kd"], "burraco"), ["Kd", ...byValue.slice(0, -1)]); // a card moved by hand
  assert.notDeepEqual(handOrder(byValue, null, "tresette"), byValue); // elsewhere long hands are sorted
});

test("the sort buttons order the hand by suit or by value with the matte first", () => {
  const hand = ["Kd", "2c", "X1", "Ah", "5h", "3d", "2h"];
  assert.deepEqual(sortHand(hand, "seme", "burraco"), ["Ah", "2h", "5h", "3d", "Kd", "2c", "X1"]);
  assert.deepEqual(sortHand(hand, "valore", "burraco"), ["X1", "2h", "2c", "Ah", "3d", "5h", "Kd"]);
  assert.deepEqual(sortHand(hand, "valore", "scala40"), ["X1", "Ah", "2h", "2c", "3d", "5h", "Kd"]); // only the jolly is a matta
  assert.deepEqual(sortHand(hand, "seme", "burraco"), sortHand([...hand].reverse(), "seme", "burraco"));
});

test("moving a card in the hand keeps the picks on the same cards", () => {
  const moved = moveInHand(["A", "B", "C", "D"], [0, 3], 0, 2);
  assert.deepEqual(moved.order, ["B", "C", "A", "D"]);
  assert.deepEqual(moved.picked, [2, 3]);
});

test("a hand's notes keep the hands shown and the measures, and start afresh with the next hand", () => {
  const notes = newHandNotes();
  const measure = (e) => e.type === "misura";
  const scope = noteEvents(notes, { hand: 1, events: [{ type: "mostro", seat: 2, punto: "7 e mezzo" }, { type: "misura" }, { scopa: true }, null] }, measure);
  assert.equal(scope, 1);
  assert.deepEqual(notes.shown, { 2: "7 e mezzo" });
  assert.equal(notes.measures.length, 1);
  assert.equal(noteEvents(notes, { hand: 1, events: [] }, measure), 0);
  assert.equal(notes.measures.length, 1);
  noteEvents(notes, { hand: 2 }, measure);
  assert.deepEqual([notes.shown, notes.measures], [{}, []]);
});

test("the turn's key names one decision; clocks go by line in a gioco a partite", () => {
  assert.equal(turnKey({ toAct: true }, { hand: 3, deadline: "T" }), "3:T");
  assert.equal(turnKey({ toAct: false }, { hand: 3, deadline: "T" }), null);
  assert.equal(turnKey(undefined, { hand: 3, deadline: "T" }), null);
  const p = { clocks: { 0: 1, 1: 1 }, view: { positions: [2, 0, 3, 1] } };
  assert.deepEqual([0, 1, 2, 3].map((no) => clockLine(p, no)), ["1", "1", "0", "0"]);
  assert.equal(clockLine({ clocks: { 2: 1 } }, 2), "2");
});
