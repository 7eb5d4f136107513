// The table socket's reconnection (static/js/table/connection.js): run with `node --test tests/js/`.
// A fake WebSocket and timers: every socket the page opens, every notice it shows, every wait.
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { QUIET_ATTEMPTS, connection } from "../../static/js/table/connection.js";

let sockets;
let timers;

class FakeSocket {
  static OPEN = 1;
  constructor(url) {
    this.url = url;
    this.readyState = 0;
    this.sent = [];
    this.listeners = {};
    sockets.push(this);
  }
  addEventListener(type, fn) { (this.listeners[type] ||= []).push(fn); }
  fire(type, event = {}) { for (const fn of this.listeners[type] || []) fn(event); }
  send(data) { this.sent.push(JSON.parse(data)); }
  close() {}
  open() { this.readyState = 1; this.fire("open"); }
  shut(code) { this.readyState = 3; this.fire("close", { code }); }
  view(version) { this.fire("message", { data: JSON.stringify({ type: "table.state", version }) }); }
}

beforeEach(() => {
  sockets = [];
  timers = [];
  globalThis.WebSocket = FakeSocket;
  globalThis.location = { protocol: "http:", host: "gioco.test" };
  globalThis.document = { getElementById: () => null };
  globalThis.setTimeout = (fn, ms) => { timers.push({ fn, ms }); return timers.length; };
  globalThis.setInterval = () => 0;
});

function page() {
  const notices = [];
  const ctx = {
    root: { dataset: {} },
    tableId: 7,
    version: 12,
    notice: (text) => notices.push(text),
    clearNotice: () => {},
  };
  const frames = [];
  const socket = connection(ctx, { random: () => 0.5, onFrame: (msg) => frames.push(msg) });
  socket.connect();
  sockets[0].open();
  return { ctx, notices, frames, send: socket.send };
}

/** Run the one timer the page set (its next connection attempt); the socket it opened. */
function nextAttempt() {
  assert.equal(timers.length, 1, "one reconnection is pending");
  const { fn, ms } = timers.pop();
  fn();
  return { socket: sockets.at(-1), ms };
}

test("a 4409 reconnects at once, asks for the missed versions and says nothing", () => {
  const { notices, frames } = page();
  sockets[0].shut(4409);
  const { socket, ms } = nextAttempt();
  assert.ok(ms < 250, ms);
  assert.equal(socket.url, "ws://gioco.test/ws/table/7/");
  socket.open();
  assert.deepEqual(socket.sent, [{ type: "sync", version: 12 }]);
  socket.view(13);
  assert.deepEqual(frames.map((f) => f.version), [13]);
  assert.deepEqual(notices, []);
});

test("a handover whose first attempts fail goes on quietly, then the notice and the back-off", () => {
  const { notices } = page();
  sockets[0].shut(4409);
  // the new owner still taking the table (4409 again), then a handshake the server dropped (1006)
  for (const code of Array.from({ length: QUIET_ATTEMPTS - 1 }, (_, i) => (i % 2 ? 1006 : 4409))) {
    nextAttempt().socket.shut(code);
    assert.deepEqual(notices, [], `no notice after a ${code}`);
  }
  const { socket } = nextAttempt();
  socket.shut(1006);  // the last quiet attempt failed too: now the player is told
  assert.deepEqual(notices, ["Tentativo di riconnessione in corso"]);
  const retry = nextAttempt();
  assert.ok(retry.ms >= 500, retry.ms);  // the back-off's first step (half of one to one second)
  retry.socket.open();
  assert.deepEqual(notices, ["Tentativo di riconnessione in corso", "Connessione ristabilita"]);
  assert.deepEqual(retry.socket.sent, [{ type: "sync", version: 12 }]);
});

test("once the new owner's view came, a close is an ordinary loss again", () => {
  const { notices } = page();
  sockets[0].shut(4409);
  const { socket } = nextAttempt();
  socket.open();
  socket.view(13);
  socket.shut(1006);  // a network loss after the handover: the notice at once
  assert.deepEqual(notices, ["Tentativo di riconnessione in corso"]);
});

test("a second owner change after the first one's view is quiet again", () => {
  const { notices } = page();
  for (const version of [13, 14]) {
    sockets.at(-1).shut(4409);
    const { socket } = nextAttempt();
    socket.open();
    socket.view(version);
  }
  assert.deepEqual(notices, []);
});

test("a close no attempt can undo stops the handover with its reason", () => {
  const { ctx, notices } = page();
  sockets[0].shut(4409);
  nextAttempt().socket.shut(4404);
  assert.deepEqual(notices, ["Il tavolo è stato chiuso"]);
  assert.equal(ctx.root.dataset.closed, "4404");
  assert.equal(timers.length, 0);
});

test("a frame sent while the socket reconnects does not go out, and the sender is told", () => {
  const { notices, send } = page();
  assert.equal(send({ type: "act", action: { type: "gioca" }, version: 12 }), true);
  assert.deepEqual(sockets[0].sent, [{ type: "act", action: { type: "gioca" }, version: 12 }]);
  sockets[0].shut(1006);
  assert.equal(send({ type: "act", action: { type: "gioca" }, version: 12 }), false);
  assert.equal(sockets[0].sent.length, 1);
  assert.deepEqual(notices, ["Tentativo di riconnessione in corso", "Tentativo di riconnessione in corso"]);
});
