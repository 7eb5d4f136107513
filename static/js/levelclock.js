// The countdown to a level tournament's next level ([data-level-countdown]: the seconds left when
// the page was drawn). Counted on this page's own clock from the moment it arrived, so it stays
// right without reloads and whatever the device's clock says; at zero the next level applies
// from the next hand dealt (tournaments/freezeout.py), and it says so.
import { clock as mmss } from "./calls.js"; // "m:ss", as the calls to the tables count down

const running = new WeakMap();

/** Count `el` down from `seconds`: "tra 2:13" (its data-format, {tempo} the time), then its data-now-text. */
export function countdown(el, seconds, now = () => performance.now()) {
  clearInterval(running.get(el));
  const ends = now() + Math.max(0, Number(seconds) || 0) * 1000;
  const format = el.dataset.format || "{tempo}";
  const draw = () => {
    const left = (ends - now()) / 1000;
    el.textContent = left > 0 ? format.replace("{tempo}", mmss(left)) : el.dataset.nowText || "";
    el.dataset.left = String(Math.max(0, Math.ceil(left)));
    if (left <= 0) clearInterval(running.get(el));
  };
  draw();
  running.set(el, setInterval(draw, 1000));
}

if (typeof document !== "undefined") { // (Node's tests import countdown alone)
  for (const el of document.querySelectorAll("[data-level-countdown]")) countdown(el, el.dataset.levelCountdown);
}
