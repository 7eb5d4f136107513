// Table sounds: the viewer's turn, time running out, a scopa. Made with Web Audio (no
// files to load) on the page's one AudioContext (../audio.js, which also asks once to unlock it);
// a mute switch remembered on this device ("tavolo-audio" in localStorage).
// Each sound also sets data-last-sound on the table, which the tests read.

import { context, muted, setMuted, soundAsk } from "../audio.js";

export { muted, setMuted, soundAsk };

const TONES = { turn: [[660, 0.09], [880, 0.12]], late: [[440, 0.08], [440, 0.08]], scopa: [[523, 0.08], [659, 0.08], [784, 0.16]] };

/** Play a named sound unless muted. */
export function play(root, name) {
  root.dataset.lastSound = muted() ? `${name}:muted` : name;
  if (muted()) return;
  try {
    const ctx = context();
    if (!ctx) return;
    let at = ctx.currentTime;
    for (const [freq, dur] of TONES[name] || []) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.08, at);
      gain.gain.exponentialRampToValueAtTime(0.0001, at + dur);
      osc.connect(gain).connect(ctx.destination);
      osc.start(at);
      osc.stop(at + dur);
      at += dur;
    }
  } catch { /* no audio on this device */ }
}
