// The self-reloading pages' guard (static/js/leaving.js): run with `node --test tests/js/`.
import assert from "node:assert/strict";
import { test } from "node:test";

import { STAY_MS, reloader } from "../../static/js/leaving.js";

function fakeWindow() {
  const listeners = {};
  const timers = [];
  return {
    reloads: 0,
    timers,
    location: { reload() { this.owner.reloads += 1; } },
    addEventListener(type, fn) { (listeners[type] ||= []).push(fn); },
    fire(type) { for (const fn of listeners[type] || []) fn(); },
    setTimeout(fn, ms) { timers.push({ fn, ms }); return timers.length; },
    clearTimeout() {},
  };
}

function page() {
  const win = fakeWindow();
  win.location.owner = win;
  return { win, guard: reloader(win) };
}

test("a page nobody is leaving reloads", () => {
  const { win, guard } = page();
  guard.reload();
  assert.equal(win.reloads, 1);
});

test("a page the player is leaving does not reload under his navigation", () => {
  const { win, guard } = page();
  win.fire("beforeunload");
  guard.reload();
  assert.equal(win.reloads, 0);
  assert.equal(guard.leaving(), true);
});

test("a navigation that did not happen lifts the guard after a while", () => {
  const { win, guard } = page();
  win.fire("beforeunload");
  assert.equal(win.timers.at(-1).ms, STAY_MS);
  win.timers.at(-1).fn();
  guard.reload();
  assert.equal(win.reloads, 1);
});

test("coming back to the page from the history cache lifts the guard", () => {
  const { win, guard } = page();
  win.fire("beforeunload");
  win.fire("pageshow");
  guard.reload();
  assert.equal(win.reloads, 1);
});
