// The chat panels of the lobby, the tournament lobby and HELP (templates/includes/chat_panel.html).
//
// DOM contract: a panel is [data-chat=<WebSocket path>] with [data-chat-room] (moderation's channel
// name, for "Segnala"), optional [data-chat-report] (lines and players may be reported) and
// [data-chat-notices] (moderation's notices are shown there); inside: [data-role=chat-log] (lines
// are p[data-line][data-speaker]), [data-role=chat-status] (why a line was not sent, or the
// connection's state) and form[data-role=chat-form]. A panel inside a closed <details> (HELP)
// connects when it is opened. The panel gets data-connected="1" while its socket is open.

import { h } from "./table/dom.js";
import { chatModeration, speaker } from "./table/report.js";

const CLOSED_FOR_GOOD = { 4401: "Accedi per usare la chat.", 4403: "Non puoi accedere a questa chat.", 4404: "Questa chat non esiste più." };

function start(panel) {
  const log = panel.querySelector("[data-role=chat-log]");
  const status = panel.querySelector("[data-role=chat-status]");
  const form = panel.querySelector("[data-role=chat-form]");
  const mod = panel.dataset.chatReport || panel.dataset.chatNotices
    ? chatModeration(panel, log, panel.dataset.chatRoom) : null;
  if (mod && !panel.dataset.chatReport) panel.querySelector("[data-role=report-player]")?.remove();
  const me = document.querySelector("[data-testid=nickname]")?.textContent.trim() || "";
  let socket = null;
  let retries = 0;
  // HELP: "Chiudi la conversazione" only while there is an open conversation to close
  const closer = panel.closest("details")?.querySelector("form.help-close");
  let closed = false;
  const syncCloser = () => { if (closer) closer.hidden = closed || !log.querySelector("[data-line]"); };

  function say(text, ok = false) {
    status.textContent = text;
    status.dataset.ok = ok ? "1" : "0";
    status.hidden = !text;
  }

  function add(msg) {
    if (msg.line && log.querySelector(`[data-line="${msg.line}"]`)) return;  // a history already shown
    const p = panel.dataset.chatReport && mod ? mod.line(msg)
      : h("p", { dataset: { line: msg.line ?? "", speaker: msg.nickname } }, speaker(msg.nickname), msg.text);
    if (msg.staff) p.classList.add("chat-staff");
    if (msg.nickname === me) p.classList.add("chat-mine");
    log.append(p);
  }

  function onMessage(event) {
    let msg;
    try { msg = JSON.parse(event.data); } catch { return; }
    if (msg.type === "chat.history") {
      msg.lines.forEach(add);
      closed = !!msg.closed;
      if (msg.closed) say(msg.closed, true);
    }
    else if (msg.type === "help.closed") { closed = true; say(msg.message, true); }  // by the staff or by him
    else if (msg.type === "chat") {
      add(msg);
      closed = false;  // HELP: a new line reopens the conversation
      if (msg.nickname === me) say("");  // his own line is out (a held one released): the refusal is old news
    }
    else if (msg.type === "error") say(msg.message || "Messaggio non inviato");
    else if (msg.type === "notice" && mod && panel.dataset.chatNotices) mod.show([msg]);
    log.scrollTop = log.scrollHeight;
    syncCloser();
  }

  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}${panel.dataset.chat}`);
    socket.addEventListener("open", () => {
      panel.dataset.connected = "1";
      if (retries) { say(""); mod?.poll(); }  // notices pushed while the socket was closed
      retries = 0;
    });
    socket.addEventListener("message", onMessage);
    socket.addEventListener("close", (event) => {
      panel.dataset.connected = "0";
      if (CLOSED_FOR_GOOD[event.code]) { say(CLOSED_FOR_GOOD[event.code]); form.hidden = true; return; }
      retries += 1;
      if (retries > 10) { say("Chat non raggiungibile: ricarica la pagina."); return; }
      say("Riconnessione alla chat in corso…");
      setTimeout(connect, Math.min(1000 * retries, 5000));
    });
  }

  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const input = form.elements.text;
    if (!input.value.trim()) return;
    if (socket?.readyState !== WebSocket.OPEN) { say("Chat non collegata: riprova tra un momento."); return; }
    socket.send(JSON.stringify({ type: "chat", text: input.value }));
    input.value = "";
    say("");
  });
  connect();
}

for (const panel of document.querySelectorAll("[data-chat]")) {
  const details = panel.closest("details");
  if (details && !details.open) details.addEventListener("toggle", () => start(panel), { once: true });
  else start(panel);
}

// The staff's HELP desk: the list of conversations refreshes itself.
const threads = document.querySelector("[data-help-threads]");
if (threads) {
  setInterval(async () => {
    try {
      const res = await fetch(threads.dataset.helpThreads, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (!res.ok) return;
      const { threads: rows } = await res.json();
      const current = threads.dataset.current;
      threads.replaceChildren(...rows.map((t) => h("li", { class: t.waiting ? "help-waiting" : "", dataset: { player: t.player } },
        h("a", { href: `?giocatore=${t.player}`, "aria-current": String(t.player) === current ? "page" : null },
          h("strong", {}, t.nickname), t.waiting ? h("span", { class: "tag" }, "da rispondere") : null,
          h("span", { class: "muted help-last" }, t.last_text)))));
    } catch { /* the next tick retries */ }
  }, Number(threads.dataset.refreshMs || 10000));
}
