// The page's one AudioContext (the table's sounds, table/sounds.js, and the calls' chime,
// calls.js) and the unlocking of it. A browser keeps audio locked until the player touches the
// page: while the sound switch is on ("tavolo-audio" in localStorage) and audio is still locked,
// a small "Attiva i suoni" banner asks once on this device; its click resumes the context. Once
// answered ("tavolo-audio-chiesto"), it never asks again here: the first touch of any later page
// unlocks its audio silently.

export const AUDIO_KEY = "tavolo-audio"; // "off" when the player switched the sounds off
export const ASKED_KEY = "tavolo-audio-chiesto"; // "1" once the player answered the banner

let ctx = null;

function read(key) {
  try { return localStorage.getItem(key); } catch { return null; }
}

function write(key, value) {
  try { localStorage.setItem(key, value); } catch { /* private mode: this page only */ }
}

export function muted() {
  return read(AUDIO_KEY) === "off";
}

export function setMuted(off) {
  write(AUDIO_KEY, off ? "off" : "on");
}

/** The page's AudioContext (created on first use); null on a device without Web Audio. */
export function context() {
  if (ctx) return ctx;
  const Ctor = typeof window !== "undefined" && (window.AudioContext || window.webkitAudioContext);
  if (!Ctor) return null;
  try { ctx = new Ctor(); } catch { ctx = null; }
  return ctx;
}

/**
 * Whether to show the "Attiva i suoni" banner: the sounds are on, the browser still holds audio
 * locked ("suspended": no touch on this page yet) and the player never answered it on this device.
 */
export function shouldAsk({ muted: off, state, answered }) {
  return !off && state === "suspended" && !answered;
}

function resume() {
  const audio = context();
  if (audio && audio.state === "suspended") audio.resume().catch(() => {});
}

/**
 * Offer to unlock the page's audio (once per device) and unlock it on the first touch anyway: a
 * touch elsewhere on the page unlocks the audio too, and counts as the answer (the banner goes).
 */
export function offerSoundUnlock(doc = document) {
  const audio = context();
  if (!audio) return;
  let bar = null;
  const touched = (event) => {
    if (bar && bar.contains(event.target)) return; // the banner's own buttons answer it
    resume();
    if (bar) { write(ASKED_KEY, "1"); bar.remove(); bar = null; }
    for (const type of ["pointerdown", "keydown"]) doc.removeEventListener(type, touched, true);
  };
  for (const type of ["pointerdown", "keydown"]) doc.addEventListener(type, touched, true);
  if (!shouldAsk({ muted: muted(), state: audio.state, answered: read(ASKED_KEY) === "1" })) return;
  bar = doc.createElement("div");
  bar.className = "audio-unlock";
  bar.setAttribute("role", "region");
  bar.setAttribute("aria-label", "Suoni");
  bar.dataset.testid = "audio-unlock";
  const why = doc.createElement("span");
  why.className = "audio-unlock__text";
  why.textContent = "Il browser blocca i suoni del tavolo.";
  const on = doc.createElement("button");
  on.type = "button";
  on.className = "button button--small";
  on.textContent = "Attiva i suoni";
  const off = doc.createElement("button");
  off.type = "button";
  off.className = "button button--ghost button--small";
  off.textContent = "Senza suoni";
  const answer = (sound) => {
    write(ASKED_KEY, "1");
    if (sound) resume();
    else setMuted(true);
    bar.remove();
    bar = null;
  };
  on.addEventListener("click", () => answer(true));
  off.addEventListener("click", () => answer(false));
  bar.append(why, on, off);
  doc.body.append(bar);
}
