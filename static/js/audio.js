// The page's one AudioContext (the table's sounds, table/sounds.js, and the calls' chime,
// calls.js) and the unlocking of it. A browser keeps audio locked until the player touches the
// page: while the sound switch is on ("tavolo-audio" in localStorage) and audio is still locked,
// a small "Attiva i suoni" question beside the table's sound switch (and in a call) asks once on
// this device; its click resumes the context. Once answered ("tavolo-audio-chiesto"), it is never
// asked again here: the first touch of any page unlocks its audio silently.

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
  // A context the browser lets start may still read "suspended" for a moment (its audio thread
  // starting): once it runs, a question already shown has nothing left to ask.
  ctx?.addEventListener?.("statechange", () => {
    if (ctx.state !== "running" || typeof document === "undefined") return;
    for (const shown of document.querySelectorAll("[data-testid=audio-unlock]")) shown.remove();
  });
  return ctx;
}

/**
 * Play tones one after the other on the page's AudioContext: ``notes`` as [[frequency Hz, seconds], …],
 * each fading from ``volume``; nothing on a device without Web Audio (or before the page may sound).
 */
export function tones(notes, { volume = 0.08, type = "sine", resume = false } = {}) {
  try {
    const audio = context();
    if (!audio) return;
    if (resume && audio.state === "suspended") audio.resume();
    let at = audio.currentTime;
    for (const [freq, dur] of notes) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.type = type;
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(volume, at);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + dur);
      osc.connect(gain).connect(audio.destination);
      osc.start(at);
      osc.stop(at + dur);
      at += dur;
    }
  } catch { /* no audio on this device (or not allowed before the player touched the page) */ }
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

let asking = false; // an "Attiva i suoni" was shown on this page

/** Whether this page should ask now (shouldAsk with this device's switch and this page's audio). */
export function askingNow() {
  const audio = context();
  return Boolean(audio) && shouldAsk({ muted: muted(), state: audio.state, answered: read(ASKED_KEY) === "1" });
}

/**
 * The small "Attiva i suoni" / "Senza suoni" question, or null when there is nothing to ask: shown
 * where the sounds matter (the table's sound switch, a call), in the page's flow. ``onAnswer``
 * runs after either answer (the table redraws its sound switch).
 */
export function soundAsk(doc = document, onAnswer = () => {}) {
  if (!askingNow()) return null;
  asking = true;
  const bar = doc.createElement("span");
  bar.className = "audio-unlock";
  bar.setAttribute("role", "group");
  bar.setAttribute("aria-label", "Suoni");
  bar.dataset.testid = "audio-unlock";
  const why = doc.createElement("span");
  why.className = "audio-unlock__text";
  why.textContent = "Il browser blocca i suoni.";
  const on = doc.createElement("button");
  on.type = "button";
  on.className = "button button--small";
  on.dataset.role = "audio-on";
  on.textContent = "Attiva i suoni";
  const off = doc.createElement("button");
  off.type = "button";
  off.className = "button button--ghost button--small";
  off.dataset.role = "audio-off";
  off.textContent = "Senza suoni";
  const answer = (sound) => {
    write(ASKED_KEY, "1");
    if (sound) resume();
    else setMuted(true);
    for (const other of doc.querySelectorAll("[data-testid=audio-unlock]")) other.remove();
    onAnswer();
  };
  on.addEventListener("click", () => answer(true));
  off.addEventListener("click", () => answer(false));
  bar.append(why, on, off);
  return bar;
}

/**
 * Unlock the page's audio on the player's first touch (a browser allows it then). A touch outside
 * the question, once it was shown, counts as its answer: the player went on, it is not asked again.
 */
export function unlockOnTouch(doc = document) {
  if (!context()) return;
  const touched = (event) => {
    if (event.target instanceof Element && event.target.closest("[data-testid=audio-unlock]")) return;
    resume();
    if (asking) {
      write(ASKED_KEY, "1");
      for (const other of doc.querySelectorAll("[data-testid=audio-unlock]")) other.remove();
    }
    for (const type of ["pointerdown", "keydown"]) doc.removeEventListener(type, touched, true);
  };
  for (const type of ["pointerdown", "keydown"]) doc.addEventListener(type, touched, true);
}
