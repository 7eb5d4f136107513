// Mouse gestures on the hand (issue 20), wired once on the table: double-click a card to play or
// discard it; drag a card onto the felt to play or discard it, onto a card of the table to capture
// it, onto a meld to attach it (with the cards already picked), onto another card of the hand to
// move it there. Every gesture has a click or key equivalent (a card's button, the action buttons,
// Alt+←/→ to move a card in the hand): the gestures only save clicks.
//
// The hand's cards carry data-index (their place in the hand as shown); the client passes:
//   play(index, onCard)   play or discard the card (onCard: the table card it was dropped on, or null)
//   attach(index, meldId) attach it (and the picked cards) to a meld
//   move(from, to)        move it in the hand

const TYPE = "application/x-carta";

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
    const from = Number(raw);
    dragging = null;
    delete root.dataset.dragging;
    if (target.kind === "hand") {
      const to = Number(target.el.dataset.index);
      if (to !== from) move(from, to, false);
    } else if (target.kind === "meld") attach(from, target.el.dataset.meld);
    else play(from, target.card);
  });
}

/** The hand in the player's own order: ``order`` (codes) first as far as the hand has them, then the rest. */
export function arrange(cards, order) {
  if (!order || !order.length) return cards;
  const left = [...cards];
  const out = [];
  for (const code of order) {
    const i = left.indexOf(code);
    if (i >= 0) { out.push(code); left.splice(i, 1); }
  }
  return [...out, ...left];
}
