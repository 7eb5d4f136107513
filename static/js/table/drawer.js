// The table's chat on a narrow screen (below 1100 px, where it is not beside the table): a drawer
// the header's "Chat" button opens and closes, with the count of the lines that arrived while it was
// closed. The button says whether it is open (aria-expanded) and how many lines are unread (its
// badge, read out with its words); opening moves the focus to the chat's field, Escape or "Chiudi"
// closes it and gives the focus back to the button. On a wide screen the chat is the side panel:
// always shown, nothing is counted.

const WIDE = "(min-width: 1100px)";

export function chatDrawer(doc = document) {
  const toggle = doc.querySelector("[data-role=chat-toggle]");
  const panel = doc.getElementById("table-chat");
  const badge = doc.querySelector("[data-role=chat-unread]");
  const count = doc.querySelector("[data-role=chat-unread-count]");
  const close = doc.querySelector("[data-role=chat-close]");
  if (!toggle || !panel) return { arrived() {}, isOpen: () => false };
  const wide = window.matchMedia(WIDE);
  let unread = 0;

  const isOpen = () => panel.dataset.open === "1";
  function show() {
    badge.hidden = unread === 0;
    count.textContent = String(unread);
  }
  function setOpen(open, { focus = true } = {}) {
    panel.dataset.open = open ? "1" : "0";
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
    if (open) {
      unread = 0;
      show();
      const log = panel.querySelector("[data-role=chat-log]");
      if (log) log.scrollTop = log.scrollHeight;
      if (focus) panel.querySelector("[data-role=chat-form] input")?.focus();
    } else if (focus) toggle.focus();
  }

  toggle.addEventListener("click", () => setOpen(!isOpen()));
  close?.addEventListener("click", () => setOpen(false));
  doc.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && isOpen() && !wide.matches) { e.stopImmediatePropagation(); setOpen(false); }
  }, true);
  wide.addEventListener("change", () => { if (wide.matches && isOpen()) setOpen(false, { focus: false }); });
  setOpen(false, { focus: false });

  return {
    isOpen,
    /** A line of the chat arrived: counted while the drawer is closed (not his own lines). */
    arrived(mine) {
      if (mine || wide.matches || isOpen()) return;
      unread += 1;
      show();
    },
  };
}
