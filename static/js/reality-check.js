// Reality check ("promemoria di gioco"): while the player is seated at real-money tables, every N
// minutes (his setting) a reminder shows the time played and the session's net result, with
// "Continua" and "Esci dai tavoli". It also says when his session-time limit is used up.
// The state comes from GET /conto/promemoria/ (wallet.selectors.reality_check_get), polled; texts
// come translated from the server. Markup: templates/includes/reality_check.html.
const POLL_MS = 30000;

const root = document.querySelector("[data-role=reality-check]");

function csrf() {
  return root.querySelector("input[name=csrfmiddlewaretoken]")?.value || "";
}

async function poll() {
  let state;
  try {
    const response = await fetch(root.dataset.url, { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (!response.ok) return;
    state = await response.json();
  } catch {
    return; // offline for a moment: the next poll tries again
  }
  const message = root.querySelector("[data-role=reality-message]");
  const limit = root.querySelector("[data-role=reality-limit]");
  if (!state.playing) {
    root.hidden = true;
    return;
  }
  if (state.due || state.time_limit_reached) {
    message.textContent = state.message;
    limit.textContent = state.time_limit_message || "";
    limit.hidden = !state.time_limit_reached;
    root.querySelector("[data-role=reality-continue]").hidden = state.time_limit_reached;
    root.dataset.session = state.session;
    root.hidden = false;
  }
}

async function acknowledge() {
  root.hidden = true;
  try {
    await fetch(root.dataset.continueUrl, {
      method: "POST",
      credentials: "same-origin",
      headers: { "X-CSRFToken": csrf() },
    });
  } catch {
    // the reminder comes back at the next poll: nothing is lost
  }
}

if (root) {
  root.querySelector("[data-role=reality-continue]").addEventListener("click", acknowledge);
  poll();
  setInterval(poll, POLL_MS);
}
