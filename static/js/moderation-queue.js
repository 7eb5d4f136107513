// The moderators' queue announces what arrived since the page was drawn: every 10 s it asks
// /moderazione/api/coda/ for the open cases and the held lines; a case not in the table, or more
// held lines, shows a banner ("Nuova segnalazione: bullo") with a link that redraws the queue, and
// the tab's title counts them, so a moderator working in another tab sees it too.
// DOM contract: [data-queue-api] (with data-held-count) holding tr[data-case] rows and
// [data-role=queue-alert] with [data-role=queue-alert-text].

/** What is new in ``data`` against the cases shown and the held lines counted: {cases, held}. */
export function arrivals(shownIds, heldShown, data) {
  const shown = new Set(shownIds.map(String));
  const cases = (data.cases || []).filter((c) => !shown.has(String(c.id)));
  return { cases, held: Math.max(0, (data.held || 0) - heldShown) };
}

/** The banner's words for what arrived ("" when nothing did). */
export function alertText({ cases, held }) {
  const parts = [];
  if (cases.length === 1) parts.push(`Nuova segnalazione: ${cases[0].nickname}`);
  else if (cases.length > 1) parts.push(`${cases.length} nuove segnalazioni: ${cases.map((c) => c.nickname).join(", ")}`);
  if (held === 1) parts.push("1 nuovo messaggio trattenuto");
  else if (held > 1) parts.push(`${held} nuovi messaggi trattenuti`);
  return parts.join(" · ");
}

const root = typeof document !== "undefined" ? document.querySelector("[data-queue-api]") : null;
if (root) {
  const alert = root.querySelector("[data-role=queue-alert]");
  const text = root.querySelector("[data-role=queue-alert-text]");
  const title = document.title;
  const shownIds = [...root.querySelectorAll("tr[data-case]")].map((tr) => tr.dataset.case);
  const heldShown = Number(root.dataset.heldCount || 0);
  const check = async () => {
    try {
      const res = await fetch(root.dataset.queueApi, { headers: { Accept: "application/json" }, credentials: "same-origin" });
      if (!res.ok) return;
      const news = arrivals(shownIds, heldShown, await res.json());
      const words = alertText(news);
      text.textContent = words;
      alert.hidden = !words;
      const n = news.cases.length + news.held;
      document.title = n ? `(${n}) ${title}` : title;
    } catch { /* the next tick retries */ }
  };
  setInterval(check, Number(root.dataset.refreshMs || 10000));
}
