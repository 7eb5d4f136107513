// The moderators' queue announcing new reports (static/js/moderation-queue.js): `node --test tests/js/`.
import assert from "node:assert/strict";
import { test } from "node:test";

import { alertText, arrivals } from "../../static/js/moderation-queue.js";

test("a case not shown yet is news, one already shown is not", () => {
  const news = arrivals(["4"], 0, { cases: [{ id: 4, nickname: "vecchio" }, { id: 9, nickname: "bullo" }], held: 0 });
  assert.deepEqual(news, { cases: [{ id: 9, nickname: "bullo" }], held: 0 });
  assert.equal(alertText(news), "Nuova segnalazione: bullo");
});

test("several cases and held lines are counted; nothing new says nothing", () => {
  const news = arrivals([], 1, { cases: [{ id: 1, nickname: "a" }, { id: 2, nickname: "b" }], held: 3 });
  assert.equal(alertText(news), "2 nuove segnalazioni: a, b · 2 nuovi messaggi trattenuti");
  assert.equal(alertText(arrivals(["1"], 2, { cases: [{ id: 1, nickname: "a" }], held: 1 })), "");
});
