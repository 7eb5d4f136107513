// The sounds' unlock question (static/js/audio.js): when "Attiva i suoni" is asked, run with
// `node --test tests/js/`.
import assert from "node:assert/strict";
import { test } from "node:test";

import { context, shouldAsk } from "../../static/js/audio.js";

test("sounds on, audio still locked, never answered on this device: asked", () => {
  assert.equal(shouldAsk({ muted: false, state: "suspended", answered: false }), true);
});

test("never asked once answered, with the sounds off, or with audio already unlocked", () => {
  assert.equal(shouldAsk({ muted: false, state: "suspended", answered: true }), false);
  assert.equal(shouldAsk({ muted: true, state: "suspended", answered: false }), false);
  assert.equal(shouldAsk({ muted: false, state: "running", answered: false }), false);
  assert.equal(shouldAsk({ muted: false, state: "closed", answered: false }), false);
});

test("a device without Web Audio has no context (and nothing to ask)", () => {
  assert.equal(context(), null);
});
