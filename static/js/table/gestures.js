// Gestures on the hand, wired once on the table: double-click a card to play or
// discard it; drag a card onto the felt to play or discard it, onto a card of the table to capture
// it, onto a meld to attach it (with the cards already picked), onto another card of the hand to
// move it there. Every gesture has a click or key equivalent (a card's button, the action buttons,
// Alt+←/→ to move a card in the hand): the gestures only save clicks.
//
// A mouse drags with the browser's drag and drop. A finger (or a pen) drags with Pointer Events:
// it holds the card a moment (TOUCH_HOLD_MS) without moving, then moves it; a finger that moves
// sooner scrolls the page, and one that lifts sooner taps the card, as before.
//
// The hand's cards carry data-index (their place in the hand as shown); the client passes:
//   play(index, onCard)   play or discard the card (onCard: the table card it was dropped on, or null)
//   attach(index, meldId) attach it (and the picked cards) to a meld
//   move(from, to)        move it in the hand

import { t } from "./i18n.js";
import { moveInHand } from "./state.js";

const TYPE = "application/x-carta";
const TOUCH_HOLD_MS = 180; // how long a finger holds a card before it drags it
const TOUCH_SLOP_PX = 8; // a finger that moves further before that scrolls (or taps) instead

export function wireGestures(root, { play, attach, move }) {
  const hand = root.querySelector("[data-role=hand]");
  const slotOf = (el) => el?.closest?.("[data-role=hand] [data-index]");
  let dragging = null;

  hand.addEventListener("dblclick", (e) => {
    const slot = slotOf(e.target);
    if (!slot) return;
    e.preventDefault();
    play(Number(slot.dataset.index), null);
  });
  hand.addEventListener("keydown", (e) => {
    const slot = slotOf(e.target);
    if (!slot || !e.altKey || (e.key !== "ArrowLeft" && e.key !== "ArrowRight")) return;
    e.preventDefault();
    const from = Number(slot.dataset.index);
    move(from, from + (e.key === "ArrowLeft" ? -1 : 1), true);
  });
  root.addEventListener("dragstart", (e) => {
    const slot = slotOf(e.target);
    if (!slot) return;
    if (touch) { e.preventDefault(); return; } // a finger drags with Pointer Events (below)
    dragging = Number(slot.dataset.index);
    e.dataTransfer.setData(TYPE, String(dragging));
    e.dataTransfer.setData("text/plain", slot.querySelector("[data-card]")?.dataset.card || "");
    e.dataTransfer.effectAllowed = "move";
    root.dataset.dragging = "1";
  });
  root.addEventListener("dragend", () => { dragging = null; delete root.dataset.dragging; clearOver(); });

  /** Where a drop at this element goes: a hand slot, a meld, a table card, the felt; or null. */
  function targetOf(el) {
    const slot = slotOf(el);
    if (slot) return { kind: "hand", el: slot };
    const meld = el?.closest?.("[data-role=view] .meld[data-meld], [data-role=below] .meld[data-meld]");
    if (meld) return { kind: "meld", el: meld };
    const onCard = el?.closest?.("[data-role=view] [data-card]:not([data-card=covered])");
    const felt = el?.closest?.(".felt");
    if (felt) return { kind: "felt", el: onCard || felt, card: onCard ? onCard.dataset.card : null };
    return null;
  }
  function clearOver() { for (const el of root.querySelectorAll(".drop-over")) el.classList.remove("drop-over"); }

  root.addEventListener("dragover", (e) => {
    if (dragging === null) return;
    const target = targetOf(e.target);
    if (!target) return;
    e.preventDefault(); // a drop is allowed here
    e.dataTransfer.dropEffect = "move";
    if (!target.el.classList.contains("drop-over")) { clearOver(); target.el.classList.add("drop-over"); }
  });
  root.addEventListener("drop", (e) => {
    const raw = e.dataTransfer.getData(TYPE);
    const target = targetOf(e.target);
    clearOver();
    if (raw === "" || !target) return;
    e.preventDefault();
    dragging = null;
    delete root.dataset.dragging;
    dropOn(Number(raw), target);
  });

  function dropOn(from, target) {
    if (target.kind === "hand") {
      const to = Number(target.el.dataset.index);
      if (to !== from) move(from, to, false);
    } else if (target.kind === "meld") attach(from, target.el.dataset.meld);
    else play(from, target.card);
  }

  // --- touch: Pointer Events (a finger or a pen) ----------------------------------------------------
  let touch = null; // {id, from, slot, x, y, timer, ghost, dx, dy, active}
  const endTouch = () => {
    if (!touch) return;
    clearTimeout(touch.timer);
    touch.ghost?.remove();
    touch.slot.classList.remove("touch-dragging");
    if (touch.active) { delete root.dataset.dragging; clearOver(); }
    touch = null;
  };
  const targetAt = (x, y) => targetOf(document.elementFromPoint(x, y));
  const follow = (x, y) => {
    touch.ghost.style.left = `${x - touch.dx}px`;
    touch.ghost.style.top = `${y - touch.dy}px`;
  };
  hand.addEventListener("pointerdown", (e) => {
    const slot = slotOf(e.target);
    if (!slot || e.pointerType === "mouse" || !e.isPrimary) return;
    endTouch();
    touch = { id: e.pointerId, from: Number(slot.dataset.index), slot, x: e.clientX, y: e.clientY, active: false };
    touch.timer = setTimeout(() => {
      if (!touch) return;
      // held still: the card comes up under the finger and follows it
      const box = slot.getBoundingClientRect();
      touch.active = true;
      touch.dx = touch.x - box.left;
      touch.dy = touch.y - box.top;
      touch.ghost = slot.cloneNode(true);
      touch.ghost.removeAttribute("data-index");
      touch.ghost.classList.add("touch-ghost");
      touch.ghost.setAttribute("aria-hidden", "true");
      touch.ghost.tabIndex = -1;
      touch.ghost.style.width = `${box.width}px`;
      document.body.append(touch.ghost);
      follow(touch.x, touch.y);
      slot.classList.add("touch-dragging");
      root.dataset.dragging = "1";
      try { slot.releasePointerCapture?.(touch.id); } catch { /* not captured */ }
    }, TOUCH_HOLD_MS);
  });
  // Once a card is held the page must not scroll under it: the first move is cancelled.
  root.addEventListener("touchmove", (e) => { if (touch?.active) e.preventDefault(); }, { passive: false });
  root.addEventListener("contextmenu", (e) => { if (touch && slotOf(e.target)) e.preventDefault(); });
  document.addEventListener("pointermove", (e) => {
    if (!touch || e.pointerId !== touch.id) return;
    if (!touch.active) {
      if (Math.hypot(e.clientX - touch.x, e.clientY - touch.y) > TOUCH_SLOP_PX) endTouch(); // a scroll
      return;
    }
    e.preventDefault();
    follow(e.clientX, e.clientY);
    const target = targetAt(e.clientX, e.clientY);
    if (!target) clearOver();
    else if (!target.el.classList.contains("drop-over")) { clearOver(); target.el.classList.add("drop-over"); }
  });
  document.addEventListener("pointerup", (e) => {
    if (!touch || e.pointerId !== touch.id) return;
    if (!touch.active) { endTouch(); return; } // a tap: the card's own click handles it
    e.preventDefault();
    const { from } = touch;
    const target = targetAt(e.clientX, e.clientY);
    endTouch();
    if (target) dropOn(from, target);
  });
  document.addEventListener("pointercancel", (e) => { if (touch && e.pointerId === touch.id) endTouch(); });
}

/** What the gestures do at the table ``ctx``: ``wireGestures``'s play, attach and move. */
export function handGestures(ctx) {
  const { ui } = ctx;

  /** Play or discard the card at ``i`` (dropped on the table card ``onCard``, or null). */
  function play(i, onCard) {
    const code = ctx.handCards()[i];
    const { plan, last } = ctx;
    if (!code || !plan || !last) return;
    const plays = plan.cardPlays.get(code);
    if (plays && plays.length) {
      // dropped on a table card: the plays that take it
      const taking = onCard ? plays.filter((s) => Array.isArray(s.take) && s.take.includes(onCard)) : [];
      const list = taking.length ? taking : plays;
      if (list.length === 1) { ctx.act(list[0]); return; }
      ui.choice = code;
      ctx.renderHand(last);
      ctx.renderActions(last);
      return;
    }
    const singles = plan.singles.flatMap((g) => g.specs).filter((s) => s.card === code);
    if (singles.length === 1) { ctx.act(singles[0]); return; }
    if (singles.length > 1) { ui.picked = [i]; ctx.renderHand(last); ctx.renderActions(last); ctx.notice(t("Scegli la giocata")); return; }
    ctx.notice(t("Questa carta non si può giocare ora"));
  }

  /** Attach the card at ``i`` (and the cards picked) to the meld ``meldId``. */
  function attach(i, meldId) {
    const hand = ctx.handCards();
    const spec = ctx.plan?.picks.flatMap((g) => g.specs).find((s) => String(s.meld) === String(meldId) && s.cards && s.cards.subset_of);
    if (!spec) { ctx.notice(t("Non puoi attaccare a questo gioco ora")); return; }
    const picked = (ui.picked.includes(i) ? ui.picked : [...ui.picked, i]).map((j) => hand[j]).filter(Boolean);
    if (!picked.every((c) => spec.cards.subset_of.includes(c))) { ctx.notice(t("Giocata non ammessa")); return; }
    ctx.meldAct(spec, picked);
  }

  /** Move the card at ``from`` to ``to`` in the hand (by the keyboard: the focus follows it). */
  function move(from, to, byKey) {
    const hand = ctx.handCards();
    if (to < 0 || to >= hand.length || from === to || !ctx.last) return;
    const moved = moveInHand(hand, ui.picked, from, to);
    ui.picked = moved.picked;
    ui.order = moved.order;
    ctx.renderHand(ctx.last);
    if (byKey) ctx.$("hand").querySelector(`[data-index="${to}"]`)?.focus();
  }

  return { play, attach, move };
}
