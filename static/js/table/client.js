// The live table client: one WebSocket, the server's per-seat view, the legal actions.
// It never decides what is legal: it shows the view and sends back one of the server's specs.
//
// DOM contract (the end-to-end tests drive the page through it): #table carries data-table,
// data-version (of the view drawn), data-held (views received, held back while a pointer is
// pressed), data-connected ("1"/"0"), data-game, data-over; inside, data-role= notice, seats
// ([data-seat] with data-nickname, classes me and to-act), hand (cards with data-card, playable ones
// data-playable, picked ones aria-pressed), choices and actions (button[data-action=<type>], ready,
// back), amount (input[name=amount], a range slider, multiples), confirm (data-confirm=yes/no),
// and beside it (the side panel) history, chat-log, chat-form.
//
// Modules, one concern each: connection.js the socket (reconnection, resync by version); state.js
// the pure state (versions, the action in flight, picks, the hand's order); render.js draws the
// table (felt.js the felt, summary.js the end of a hand); input.js the actions and forms, betbox.js
// the amount box, amount.js the amounts; layouts.js the meld layouts; gestures.js the hand's
// gestures; model.js reads a payload, actions.js groups the legal specs, dom.js holds the helpers,
// history.js the hand history panel.

import { play } from "./sounds.js";
import { measureText } from "./summary.js";
import { seatName, tickClocks } from "./felt.js";
import { loadHistory } from "./history.js";
import { t } from "./i18n.js";
import { chatModeration } from "./report.js";
import { chatDrawer } from "./drawer.js";
import { handGestures, wireGestures } from "./gestures.js";
import { animate, before, tallyText } from "./motion.js";
import { connection } from "./connection.js";
import { input } from "./input.js";
import { layouts } from "./layouts.js";
import { renderer } from "./render.js";
import { answered, newHandNotes, newUi, noteEvents, viewArrives } from "./state.js";

const NO_NAMES = { seatName: () => "", lineName: () => "" };
const HOLD_MS = 1000; // a view waits at most this long for a pressed pointer's release

/** A refusal of a chat line (the table's limits, moderation's rules: a mute, a hold): codes chat_*. */
export function isChatRefusal(msg) {
  return typeof msg.code === "string" && msg.code.startsWith("chat_");
}

// `random`: the source of the reconnection's spread (not of the game: that is the server's, RULINGS
// G4), passed in like every other random source.
export function start(root, { random }) {
  const $ = (role) => root.querySelector(`[data-role="${role}"]`);
  // the chat and the hand history sit beside the table (a side panel), outside its root
  const $page = (role) => $(role) || document.querySelector(`[data-role="${role}"]`);
  // The table as the page knows it; the modules below read it and add their functions to it.
  const ctx = {
    root, $,
    tableId: root.dataset.table,
    italian: root.dataset.italianDeck === "1",
    ui: newUi(),
    version: 0,
    last: null, // the last view (a table.state frame)
    model: null,
    plan: null,
    sentFor: null, // the version an action was sent against, until the server answers
    sentAt: 0, // when it was sent
    notes: newHandNotes(), // this hand's shown hands (MOSTRO) and measures, for its summary
    scopaNow: false, // a scopa sounded with this view: the turn's sound gives way to it
  };
  let noticeTimer = null;

  root.dataset.connected = "0";
  root.dataset.version = "0";
  root.dataset.over = "0";
  root.dataset.held = "0";

  ctx.notice = (text, sticky = false) => {
    const el = $("notice");
    el.textContent = text;
    el.hidden = false;
    clearTimeout(noticeTimer);
    if (!sticky) noticeTimer = setTimeout(() => { el.hidden = true; }, 3500);
  };
  ctx.clearNotice = () => { const el = $("notice"); el.hidden = true; clearTimeout(noticeTimer); };

  const socket = connection(ctx, { random, onFrame });
  ctx.send = socket.send;
  Object.assign(ctx, input(ctx), layouts(ctx), renderer(ctx));

  function renderState(frame) {
    // a tournament table closed at the end of its match is public to all: its players still read
    // the result from their own seat ("Hai vinto")
    const msg = frame.closed && frame.seat === null && ctx.last && Number.isInteger(ctx.last.seat) ? { ...frame, seat: ctx.last.seat } : frame;
    const prev = ctx.last ? ctx.last.version : null;
    viewArrives(ctx.ui, ctx.last, msg);
    if (msg.over && !(ctx.last && ctx.last.over)) history.refresh();
    ctx.last = msg;
    ctx.version = msg.version;
    ctx.deckStyle();
    const scope = noteEvents(ctx.notes, msg, (e) => measureText(e, NO_NAMES));
    for (let i = 0; i < scope; i += 1) play(root, "scopa");
    whenReleased(() => {
      // data-version names the view on the screen, not the last one received: a view held for a
      // pressed pointer is not there yet, and whoever reads the page by its version must wait
      root.dataset.version = String(msg.version);
      root.dataset.game = msg.game || "";
      root.dataset.over = msg.over ? "1" : "0";
      ctx.closeConfirm();
      ctx.scopaNow = scope > 0;
      const moved = prev !== null && prev !== msg.version ? before(root) : null;
      ctx.renderAll();
      const tally = tallyText(animate(root, moved, msg.events));
      if (tally) root.dataset.motion = tally;
      ctx.logEvents(msg);
    });
  }

  // A view drawn between a button's press and its release would take the click away: the drawing
  // replaces the buttons and the hand, and the browser gives a click whose press and release fell
  // on different elements to neither (at poker's invito every seat answers at once: the others'
  // answers arrive while the player presses his). While a pointer is down on the table the views'
  // drawing waits for its release (at most HOLD_MS), then they are drawn in turn, after the click.
  let pressed = false;
  let held = [];
  let holdTimer = null;
  // (data-held: how many views wait so)
  function whenReleased(draw) {
    if (!pressed) {
      draw();
      return;
    }
    held.push(draw);
    root.dataset.held = String(held.length);
  }
  function release() {
    pressed = false;
    clearTimeout(holdTimer);
    const draws = held;
    held = [];
    root.dataset.held = "0";
    for (const draw of draws) draw();
  }
  root.addEventListener("pointerdown", (e) => {
    if (!e.isPrimary) return;
    pressed = true;
    clearTimeout(holdTimer);
    holdTimer = setTimeout(release, HOLD_MS);
  });
  // (after the click: it is dispatched in the same task as the release)
  for (const type of ["pointerup", "pointercancel"]) document.addEventListener(type, () => { if (pressed) setTimeout(release, 0); });

  function onFrame(msg) {
    if (msg.type === "error" || (msg.type === "table.state" && answered(msg, ctx.sentFor))) { ctx.sentFor = null; root.dataset.busy = "0"; }
    if (msg.type === "table.state") renderState(msg);
    else if (msg.type === "error" && isChatRefusal(msg)) chatStatus(msg.message || t("Messaggio non inviato"));
    else if (msg.type === "error") ctx.notice(msg.message || t("Giocata non ammessa"));
    else if (msg.type === "chat" || msg.type === "chat.history") {  // history: on (re)connect
      const log = $page("chat-log");
      for (const m of msg.type === "chat" ? [msg] : msg.lines) {
        if (m.line && log.querySelector(`[data-line="${m.line}"]`)) continue;
        const p = chat.line(m);
        if (m.audience === "spectators" || String(m.room || "").startsWith("spettatori:")) {
          p.classList.add("chat-spectators");  // written during a hand: the players do not see it
          p.title = "Solo tra spettatori";
        }
        log.append(p);
        if (msg.type === "chat") drawer.arrived(m.nickname === me);
      }
      log.scrollTop = log.scrollHeight;
    } else if (msg.type === "notice") chat.show([msg]);  // moderation's notices, pushed live
  }

  // Why a line was not sent (a mute and its end, the chat's rules) stays under the chat until the next
  // line is sent: a notice on the felt would go unseen by a player looking at the chat.
  function chatStatus(text) {
    const el = $page("chat-status");
    el.textContent = text;
    el.hidden = !text;
  }
  $page("chat-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const text = e.target.elements.text;
    chatStatus("");
    if (text.value.trim() && socket.chat(text.value)) text.value = "";
  });
  document.addEventListener("keydown", (e) => {
    if (e.key !== "Escape") return;
    if (ctx.closeConfirm()) return;
    if ((ctx.ui.layout || ctx.ui.swap) && ctx.last) { ctx.ui.layout = null; ctx.ui.swap = null; ctx.renderActions(ctx.last); }
  });

  let lateFor = null;
  setInterval(() => {
    tickClocks(root);
    // Ten seconds left on the viewer's own decision: a warning sound, once.
    const mine = root.querySelector("[data-role=seats] .seat.me.to-act .clock[data-deadline]");
    if (mine && new Date(mine.dataset.deadline) - Date.now() < 10000 && lateFor !== mine.dataset.deadline) {
      lateFor = mine.dataset.deadline;
      play(root, "late");
    }
  }, 1000);
  let resizeTimer = null;
  window.addEventListener("resize", () => { clearTimeout(resizeTimer); resizeTimer = setTimeout(ctx.renderAll, 150); });
  // Double-click, drag onto the felt, a table card, a meld or the hand (gestures.js).
  wireGestures(root, handGestures(ctx));

  const history = loadHistory(root, $page("history"));
  const chat = chatModeration(root, $page("chat-log"), ctx.tableId);
  const drawer = chatDrawer(document); // the chat on a narrow screen: a drawer, its unread lines
  const me = document.querySelector("[data-testid=nickname]")?.textContent.trim() || "";
  socket.connect();
  return { seatName: (n) => seatName(ctx.model, n) };
}
