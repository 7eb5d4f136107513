// The countdown to a level tournament's next level (static/js/levelclock.js): `node --test tests/js/`.
import assert from "node:assert/strict";
import { test } from "node:test";

import { countdown } from "../../static/js/levelclock.js";

test("the countdown runs on the page's clock, then says the level comes with the next hand", (t) => {
  t.mock.timers.enable({ apis: ["setInterval"] });
  let now = 1000;
  const el = { dataset: { format: "tra {tempo}", nowText: "dalla prossima mano" }, textContent: "" };
  countdown(el, 133, () => now);
  assert.equal(el.textContent, "tra 2:13");
  now += 73_000;
  t.mock.timers.tick(1000);
  assert.equal(el.textContent, "tra 1:00");
  now += 59_500;
  t.mock.timers.tick(1000);
  assert.equal(el.textContent, "tra 0:01");
  now += 600;
  t.mock.timers.tick(1000);
  assert.equal(el.textContent, "dalla prossima mano");
  assert.equal(el.dataset.left, "0");
  countdown(el, 0, () => now); // a level already due: no countdown at all
  assert.equal(el.textContent, "dalla prossima mano");
});
