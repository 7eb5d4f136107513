// Pages that reload themselves on a timer (the lobby, a tournament's lobby) must not cancel the
// player's own navigation: once he follows a link or sends a form the page is leaving
// (beforeunload), and a reload at that moment would abort where he was going.
// A navigation that never happens (a download, a prompt answered "stay") lifts the guard after a
// while, and so does coming back to the page from the browser's history cache.
export const STAY_MS = 10000;

export function reloader(win = globalThis) {
  let leaving = false;
  let timer = null;
  win.addEventListener("beforeunload", () => {
    leaving = true;
    win.clearTimeout(timer);
    timer = win.setTimeout(() => { leaving = false; }, STAY_MS);
  });
  win.addEventListener("pageshow", () => { leaving = false; });
  return {
    leaving: () => leaving,
    reload() {
      if (!leaving) win.location.reload();
    },
  };
}
