// The table's WebSocket: opening it, reconnecting (with a spread back-off), resyncing by version
// after a gap, and closing a socket the server's heartbeat says is dead.
//
// data-heartbeat-ms: how often the server sends the table's version ({"type": "table.version"}):
// a page behind it asks "sync" (broadcasts lost in a channel-layer outage), and a socket silent for
// three beats is closed and opened again (a server that died).

import { t } from "./i18n.js";
import { behind, retryDelay, silent } from "./state.js";

// A handover (the table's owner moved to another process: closed with 4409) is routine: the page
// reconnects quietly. The new owner may still be taking the table when the first attempt arrives
// (closed with 4409 again) or the server may drop that handshake: so many attempts are made quietly
// before the notice and the back-off below start.
export const QUIET_ATTEMPTS = 3;

// The server's closes that no reconnection can undo, and what the page says of each.
const FINAL_CLOSES = {
  4401: "Sessione scaduta: accedi di nuovo per tornare al tavolo",  // not logged in any more
  4403: "Non puoi più assistere a questo tavolo",  // an account not active, or a table without observers
  4404: "Il tavolo è stato chiuso",  // closed by the staff, or gone
};

/** The table's socket for ``ctx`` (root, tableId, version, notice); ``onFrame(msg)`` gets every
 * frame but the heartbeats. ``random``: the source of the reconnection's spread (not of the game:
 * that is the server's, RULINGS G4), passed in like every other random source. */
export function connection(ctx, { random, onFrame }) {
  const { root } = ctx;
  let socket = null;
  let retries = 0;
  let heard = Date.now(); // when the socket last brought a message
  let beating = false; // the server sends heartbeats (once one came)
  // in a handover (from a 4409 until the new owner's view comes): the quiet attempts left; else null
  let quiet = null;

  const isOpen = () => socket !== null && socket.readyState === WebSocket.OPEN;

  /** Send a frame on the open socket; whether it went out (else the page says it is reconnecting). */
  function send(msg) {
    if (isOpen()) { socket.send(JSON.stringify(msg)); return true; }
    ctx.notice(t("Tentativo di riconnessione in corso"), true);
    return false;
  }

  function onMessage(event) {
    heard = Date.now();
    let msg;
    try { msg = JSON.parse(event.data); } catch { return; }
    if (msg.type === "table.version") {
      beating = true;
      if (behind(msg, ctx.version)) send({ type: "sync", version: ctx.version });
      return;
    }
    if (msg.type === "table.state") quiet = null;
    onFrame(msg);
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/ws/table/${ctx.tableId}/`);
    socket.addEventListener("open", () => {
      heard = Date.now();
      root.dataset.connected = "1";
      if (retries) ctx.notice(t("Connessione ristabilita"));
      else ctx.clearNotice();
      if (retries || quiet !== null) socket.send(JSON.stringify({ type: "sync", version: ctx.version }));
      retries = 0;
    });
    socket.addEventListener("message", onMessage);
    socket.addEventListener("close", (event) => {
      root.dataset.connected = "0";
      ctx.sentFor = null;
      root.dataset.busy = "0";
      // Closes that another attempt cannot undo (lobby/consumers.py, piattaforma/consumers.py):
      // say why, once, and stop.
      const final = FINAL_CLOSES[event.code];
      if (final) { root.dataset.closed = String(event.code); ctx.notice(t(final), true); return; }
      // 4409: the table's owner is in another server process now (a takeover). Reconnect at once
      // and resync by version, with no notice: the table goes on after a moment's pause. Only if
      // QUIET_ATTEMPTS sockets close before a view comes do the notice and the back-off start.
      if (event.code === 4409 && quiet === null) quiet = QUIET_ATTEMPTS;
      if (quiet > 0) {
        const first = quiet === QUIET_ATTEMPTS;
        quiet -= 1;
        // (a few sockets at once: not all in the same instant; a second attempt a moment later)
        setTimeout(connect, (first ? 0 : 250) + random() * 250);
        return;
      }
      retries += 1;
      // Ten attempts, up to one to five seconds apart (data-max-retries / data-retry-ms change them).
      const most = Number(root.dataset.maxRetries || 10);
      const step = Number(root.dataset.retryMs || 1000);
      if (retries > most) { ctx.notice(t("Tentativo di riconnessione fallito - controlla la tua connessione"), true); return; }
      ctx.notice(t("Tentativo di riconnessione in corso"), true);
      setTimeout(connect, retryDelay(retries, step, random()));
    });
  }

  setInterval(() => {
    if (beating && isOpen() && silent(heard, Date.now(), Number(root.dataset.heartbeatMs || 0))) socket.close();
  }, 250);

  /** Send a chat line if the socket is open; whether it was sent. */
  function chat(text) {
    if (!isOpen()) return false;
    socket.send(JSON.stringify({ type: "chat", text }));
    return true;
  }

  return { send, connect, chat };
}
