// Game notices ("Avvisi di gioco") and the site's closing warnings: the ones in force come with the
// page; a logged-in player's page also listens on /ws/avvisi/ and shows new ones as they are
// published. Each notice leaves the page at its end time. The same socket brings the player's own
// calls ("your match is ready at table X"), which calls.js shows. A module loaded by base.html (a
// file, as the CSP allows no inline script).
import { unlockOnTouch } from "./audio.js";
import { showCall } from "./calls.js";

(() => {
  const box = document.querySelector("[data-site-notices]");
  if (!box) return;
  const list = box.querySelector("ul");

  const expire = (item) => {
    const ends = Date.parse(item.dataset.ends || "");
    if (Number.isNaN(ends)) return;
    const left = ends - Date.now();
    if (left <= 0) { item.remove(); return; }
    window.setTimeout(() => item.remove(), Math.min(left, 2147483647));
  };

  const show = (notice) => {
    const id = String(notice.id);
    let item = list.querySelector(`[data-notice-id="${CSS.escape(id)}"]`);
    if (!item) {
      item = document.createElement("li");
      item.dataset.noticeId = id;
      item.dataset.testid = "site-notice";
      item.setAttribute("data-testid", "site-notice");
      list.prepend(item);
    }
    item.className = `site-notice site-notice--${notice.level === "warning" ? "warning" : "info"}`;
    item.textContent = String(notice.text || "");
    item.dataset.ends = String(notice.ends_at || "");
    expire(item);
  };

  list.querySelectorAll("[data-notice-id]").forEach(expire);

  const path = box.dataset.ws;
  if (!path) return;
  unlockOnTouch(); // a player's page: his table's turn and his calls may sound
  let delay = 1000;
  const connect = () => {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${window.location.host}${path}`);
    socket.addEventListener("open", () => { delay = 1000; box.dataset.live = "open"; });
    socket.addEventListener("message", (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      if (message && message.type === "notice") show(message);
      else if (message && message.type === "call") showCall(message);
    });
    socket.addEventListener("close", (event) => {
      delete box.dataset.live;
      if (event.code >= 4400 && event.code < 4500) return; // refused (not logged in): no retry
      // (between half and all of the delay: the pages a dead server dropped do not all come back
      // in the same instant)
      window.setTimeout(connect, delay * (0.5 + Math.random() / 2));
      delay = Math.min(delay * 2, 30000);
    });
  };
  connect();
})();
