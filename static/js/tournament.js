// The tournament lobby keeps itself current: the regulator answers a moment after a registration
// or a cancellation (asked every second while one waits), and while the tournament fills, waits
// or runs its stamp (state, turn, entrants, matches ended) is asked every few seconds. When
// either changes the page reloads, so a waiting player sees the start, the results and his next
// table ("Vai al tuo tavolo"); never while he is typing (the chat) or leaving the page (following
// "Vai al tuo tavolo" itself): the next tick retries.
//
// A running level tournament's play (the level, the tables, the chip counts, the eliminations,
// and the info panel's level facts) changes with every hand anywhere: it has its own stamp ("live"), and when only that changes
// the play is drawn again in place ([data-level-live], tournaments:level_live), at most once
// every LIVE_MS, with no reload: the chat, the scroll and what the player is reading stay.
import { reloader } from "./leaving.js";
import { countdown } from "./levelclock.js";

export const LIVE_MS = 5000;

const live = document.querySelector("[data-tournament-live]");
if (live) {
  const page = reloader();
  const every = live.dataset.waiting ? 1000 : 3000;
  const play = document.querySelector("[data-level-live]");
  let changed = false;
  let drawn = 0; // when the play was last drawn in place (performance.now())
  let drawing = false;
  const typing = () => {
    const el = document.activeElement;
    return el && (el.tagName === "INPUT" || el.tagName === "TEXTAREA") && el.value !== "";
  };
  const redraw = async () => {
    drawing = true;
    try {
      const response = await fetch(play.dataset.levelLive, { headers: { Accept: "text/html" } });
      if (!response.ok) return;
      const html = await response.text();
      play.innerHTML = html;
      // the parts outside the play that change with it (the info panel's level facts) come as
      // templates: each replaces its part of the page
      const drawnAgain = [play];
      for (const part of play.querySelectorAll("template[data-live-part]")) {
        const target = document.querySelector(`:not(template)[data-live-part="${part.dataset.livePart}"]`);
        if (target) {
          target.replaceChildren(part.content);
          drawnAgain.push(target);
        }
        part.remove();
      }
      play.dataset.live = response.headers.get("X-Live") || "";
      drawn = performance.now();
      for (const root of drawnAgain) {
        for (const el of root.querySelectorAll("[data-level-countdown]")) countdown(el, el.dataset.levelCountdown);
      }
    } catch {
      /* the next tick retries */
    } finally {
      drawing = false;
    }
  };
  setInterval(async () => {
    let data = null;
    if (!changed) {
      try {
        const response = await fetch(live.dataset.tournamentLive, { headers: { Accept: "application/json" } });
        data = await response.json();
        changed =
          (data.state || "") !== live.dataset.state ||
          (live.dataset.stamp !== "" && data.stamp !== live.dataset.stamp);
      } catch {
        return; /* the next tick retries */
      }
    }
    if (changed) {
      if (!typing() && document.visibilityState !== "hidden") page.reload();
      return;
    }
    const stale = play && data && (data.live || "") !== play.dataset.live;
    if (stale && !drawing && performance.now() - drawn >= LIVE_MS && document.visibilityState !== "hidden") {
      await redraw();
    }
  }, every);
}
