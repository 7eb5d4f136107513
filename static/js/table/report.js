// Chat moderation on the table page and the chat panels (lobby, tournament): "Segnala" on a chat
// line and on a player (reason from the rules' list, optional note; POST to
// moderation:report_api), and the player's notices from moderation (a warning, a mute and its end,
// a report handled): pushed over the socket (show), shown in the chat. The unread ones are fetched
// once when the page opens, when it comes back into view or online, and when a chat socket
// reconnects (poll): what was pushed while no socket was open. No timer polls the server.
//
// DOM contract: chat lines are p[data-line] with button[data-report-line]; the chat has
// button[data-role=report-player]; the dialog is form[data-role=report-form] (select[name=reason],
// textarea[name=note]; reporting a player: select[name=nickname] of the seated players and of
// those who spoke in the chat, or input[name=nickname] when there is nobody else); its answer is [data-role=report-result];
// notices are p.chat-notice[data-notice] in the chat log.

import { h } from "./dom.js";

const REPORT_URL = "/moderazione/api/segnala/";
const NOTICES_URL = "/moderazione/api/avvisi/";
const CONDUCT_URL = "/moderazione/api/provvedimenti/";

function csrf() {
  return document.querySelector("input[name=csrfmiddlewaretoken]")?.value || "";
}

async function call(url, body) {
  const init = { credentials: "same-origin", headers: { Accept: "application/json" }, signal: AbortSignal.timeout(8000) };
  if (body) Object.assign(init, { method: "POST", body: JSON.stringify(body),
    headers: { ...init.headers, "Content-Type": "application/json", "X-CSRFToken": csrf() } });
  const res = await fetch(url, init);
  const data = await res.json().catch(() => ({}));
  return { ok: res.ok, data };
}

/** A nickname linking to the player's public card ("scheda personale", rules 004: "visualizzabile
 *  da tutti i giocatori cliccando sul nickname"), in a new tab so that nobody leaves his table. */
export function cardLink(nickname, cls = "card-link") {
  return h("a", { class: cls, href: `/moderazione/giocatori/${encodeURIComponent(nickname)}/`,
    target: "_blank", rel: "noopener", title: "Scheda del giocatore" }, nickname);
}

/** A speaker's nickname in a chat line, linking to his card. */
export function speaker(nickname) {
  return h("strong", {}, cardLink(nickname, "chat-nick"), ": ");
}

function when(iso) {
  const d = new Date(iso);
  const two = (n) => String(n).padStart(2, "0");
  return `${two(d.getDate())}/${two(d.getMonth() + 1)}/${d.getFullYear()} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** At a tournament table (root[data-tournament]) the end-of-match summary ([data-role=summary], drawn
 *  again on every view) lists the player's automatic measures of that tournament: rules 004, "A fine
 *  partita, nel resoconto che appare sul tavolo, sono sempre visualizzati tutti i provvedimenti presi
 *  automaticamente dal sistema". Fetched when the summary first appears and again when a conduct
 *  notice arrives (moderation may record them a moment after the match's end). */
function conductInSummary(root) {
  const tournament = root.dataset.tournament;
  if (!tournament) return () => {};
  let data = null;
  let loading = null;
  const draw = () => {
    const box = root.querySelector("[data-role=summary]");
    if (!box || box.querySelector("[data-role=conduct]") || !data?.measures?.length) return;
    box.append(h("div", { class: "summary-conduct", dataset: { role: "conduct" } },
      h("h4", {}, "Provvedimenti automatici"),
      h("ul", {}, data.measures.map((m) => h("li", { dataset: { kind: m.kind } },
        m.ends_at ? `${m.label} fino al ${when(m.ends_at)}` : m.label))),
      h("p", {}, `Ammonizioni effettive: ${data.effective}`)));
  };
  const load = () => {
    loading ??= call(`${CONDUCT_URL}?torneo=${encodeURIComponent(tournament)}`)
      .then(({ ok, data: body }) => { data = ok ? body : {}; })
      .catch(() => { data = {}; })
      .finally(() => { loading = null; root.querySelector("[data-role=conduct]")?.remove(); draw(); });
    return loading;
  };
  new MutationObserver(() => {
    if (!root.querySelector("[data-role=summary]")) return;
    if (data === null && !loading) load();
    else draw();
  }).observe(root, { childList: true, subtree: true });
  return load;
}

/** Set up reporting and notices for a chat (a table id, or a room: "lobby", "torneo:5").
 *  Returns line(msg), the chat line for a chat message, show(notices) and poll(). */
export function chatModeration(root, log, tableId) {
  const channel = /^\d+$/.test(String(tableId)) ? `table:${tableId}` : String(tableId);
  const me = document.querySelector("[data-testid=nickname]")?.textContent.trim() || "";
  let reasons = null;
  const dialog = h("div", { class: "report-dialog", hidden: true, role: "dialog", "aria-label": "Segnala" });
  log.closest(".chat")?.append(
    h("button", { type: "button", class: "link report-player", dataset: { role: "report-player" }, onclick: () => open({}) },
      "Segnala un giocatore"),
    dialog);

  async function open(target) {
    if (!reasons) {
      const { ok, data } = await call(REPORT_URL).catch(() => ({ ok: false, data: {} }));
      if (!ok) return;
      reasons = data.reasons;
    }
    const players = [...new Set([...document.querySelectorAll("[data-seat][data-nickname], [data-speaker]")]
      .map((s) => s.dataset.nickname || s.dataset.speaker))].filter((n) => n && n !== me);
    const who = target.line
      ? h("p", {}, h("strong", {}, `${target.nickname}: `), target.text)
      : h("label", {}, "Giocatore ", players.length
        ? h("select", { name: "nickname", required: true }, players.map((n) => h("option", { value: n }, n)))
        : h("input", { name: "nickname", required: true, maxlength: 20, autocomplete: "off" }));
    const form = h("form", { dataset: { role: "report-form" } },
      h("h3", {}, target.line ? "Segnala il messaggio" : "Segnala un giocatore"), who,
      h("label", {}, "Motivo ", h("select", { name: "reason", required: true },
        h("option", { value: "" }, "Scegli…"), reasons.map((r) => h("option", { value: r.value }, r.label)))),
      h("label", {}, "Nota (facoltativa) ", h("textarea", { name: "note", maxlength: 500, rows: 2 })),
      h("p", { dataset: { role: "report-result" }, role: "status" }),
      h("div", { class: "report-buttons" },
        h("button", { type: "submit" }, "Invia segnalazione"),
        h("button", { type: "button", class: "link", onclick: () => { dialog.hidden = true; } }, "Annulla")));
    form.addEventListener("submit", async (e) => {
      e.preventDefault();
      const f = form.elements;
      const body = { reason: f.reason.value, note: f.note.value, channel };
      if (target.line) body.line = target.line; else body.nickname = f.nickname?.value || "";
      const result = form.querySelector("[data-role=report-result]");
      try {
        const { ok, data } = await call(REPORT_URL, body);
        result.textContent = data.message || "Segnalazione non inviata";
        result.dataset.ok = ok ? "1" : "0";
        if (ok) setTimeout(() => { if (dialog.contains(form)) dialog.hidden = true; }, 1500);
      } catch { result.textContent = "Segnalazione non inviata: riprova."; result.dataset.ok = "0"; }
    });
    dialog.replaceChildren(form);
    dialog.hidden = false;
    form.elements.reason.focus();
  }

  const conductReload = conductInSummary(root);

  function showNotices(notices) {
    if (notices.some((n) => String(n.code || "").startsWith("conduct_"))) conductReload();
    for (const n of notices) {
      if (log.querySelector(`[data-notice="${n.id}"]`)) continue;
      log.append(h("p", { class: "chat-notice", dataset: { notice: n.id, code: n.code } }, n.text));
    }
    log.scrollTop = log.scrollHeight;
    if (notices.length) call(NOTICES_URL, { read: notices.map((n) => n.id) }).catch(() => {});
  }
  async function poll() {
    try { const { ok, data } = await call(NOTICES_URL); if (ok) showNotices(data.notices || []); } catch { /* next time */ }
  }
  poll();
  document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible") poll(); });
  window.addEventListener("online", poll);

  return {
    line(msg) {
      const p = h("p", { dataset: { line: msg.line ?? "", speaker: msg.nickname } }, speaker(msg.nickname), msg.text);
      if (msg.line && msg.nickname !== me) {
        p.append(" ", h("button", { type: "button", class: "link report-line", title: "Segnala", "aria-label": "Segnala",
          dataset: { reportLine: msg.line }, onclick: () => open(msg) }, "⚑"));
      }
      return p;
    },
    poll,
    show: showNotices,
  };
}
