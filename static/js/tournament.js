// The tournament lobby keeps itself current: the regulator answers a moment after a registration
// or a cancellation (asked every second while one waits), and while the tournament fills, waits
// or runs its stamp (state, turn, entrants, matches ended) is asked every few seconds. When
// either changes the page reloads, so a waiting player sees the start, the results and his next
// table ("Vai al tuo tavolo"); never while he is typing (the chat) or leaving the page (following
// "Vai al tuo tavolo" itself): the next tick retries.
import { reloader } from "./leaving.js";

const live = document.querySelector("[data-tournament-live]");
if (live) {
  const page = reloader();
  const every = live.dataset.waiting ? 1000 : 3000;
  let changed = false;
  const typing = () => {
    const el = document.activeElement;
    return el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA") && el.value !== "";
  };
  setInterval(async () => {
    if (!changed) {
      try {
        const response = await fetch(live.dataset.tournamentLive, { headers: { Accept: "application/json" } });
        const data = await response.json();
        changed =
          (data.state || "") !== live.dataset.state ||
          (live.dataset.stamp !== "" && data.stamp !== live.dataset.stamp);
      } catch {
        return; /* the next tick retries */
      }
    }
    if (changed && !typing() && document.visibilityState !== "hidden") page.reload();
  }, every);
}
