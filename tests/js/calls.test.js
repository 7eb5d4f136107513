// The player's calls (static/js/calls.js): what a page does with "your match is ready", run with
// `node --test tests/js/`.
import assert from "node:assert/strict";
import { test } from "node:test";

import { clock, countdownEnd, plan } from "../../static/js/calls.js";

const call = { kind: "match", key: "torneo-7-2-41", url: "/lobby/tavolo/41/", table_id: 41, tournament_id: 7 };
const page = (over) => ({ tableId: null, tournamentId: null, typing: false, ...over });

test("any page counts down and takes the player to his table", () => {
  assert.equal(plan(call, page()), "wait");
});

test("his own table needs nothing; a table of the same tournament goes straight on", () => {
  assert.equal(plan(call, page({ tableId: 41, tournamentId: 7 })), "none");
  assert.equal(plan(call, page({ tableId: 33, tournamentId: 7 })), "go");
});

test("a slot tournament's call takes any page to his slot, and leaves the slot's page alone", () => {
  const slot = { kind: "match", key: "torneo-9-slot", url: "/tornei/9/slot/", table_id: null, tournament_id: 9 };
  assert.equal(plan(slot, page({ path: "/tornei/9/" })), "wait");
  assert.equal(plan(slot, page({ path: "/tornei/9/slot/" })), "none");
});

test("at another live table, or while typing, the player is told but not moved", () => {
  assert.equal(plan(call, page({ tableId: 5 })), "notice");
  assert.equal(plan(call, page({ tableId: 5, tournamentId: 9 })), "notice");
  assert.equal(plan(call, page({ typing: true })), "notice");
});

test("a notice (a warning, a ban) is told on every page, and moves nobody", () => {
  const notice = { kind: "notice", key: "avviso-3", text: "Ammonizione" };
  assert.equal(plan(notice, page()), "notice");
  assert.equal(plan(notice, page({ tableId: 41, tournamentId: 7 })), "notice");
  assert.equal(plan({ ...notice, text: "" }, page()), "none");
});

test("an invitation to a tournament is a notice: its button leads there, nobody is moved", () => {
  const invitation = { kind: "notice", key: "invito-torneo-9", text: "Sei invitato", url: "/tornei/9/", action: "Vai al torneo" };
  assert.equal(plan(invitation, page()), "notice");
  assert.equal(plan(invitation, page({ tableId: 41, tournamentId: 9 })), "notice");
});

test("what is not a call to a table is left alone", () => {
  assert.equal(plan(null, page()), "none");
  assert.equal(plan({ ...call, kind: "other" }, page()), "none");
  assert.equal(plan({ ...call, url: "" }, page()), "none");
});

test("the countdown of a call is kept across reloads", () => {
  const store = {};
  assert.equal(countdownEnd(store, "a", 1000, 10), 11000);
  assert.equal(countdownEnd(store, "a", 5000, 10), 11000);
  assert.equal(countdownEnd(store, "b", 5000, 3), 8000);
});

test("the time left reads m:ss and never goes below zero", () => {
  assert.equal(clock(75), "1:15");
  assert.equal(clock(9.2), "0:10");
  assert.equal(clock(-3), "0:00");
});
