// Table sounds: the viewer's turn, time running out, a scopa. Made with Web Audio (no
// files to load) on the page's one AudioContext (../audio.js, which also asks once to unlock it);
// a mute switch remembered on this device ("tavolo-audio" in localStorage).
// Each sound also sets data-last-sound on the table, which the tests read.

import { muted, setMuted, soundAsk, tones } from "../audio.js";

export { muted, setMuted, soundAsk };

const TONES = { turn: [[660, 0.09], [880, 0.12]], late: [[440, 0.08], [440, 0.08]], scopa: [[523, 0.08], [659, 0.08], [784, 0.16]] };

/** Play a named sound unless muted. */
export function play(root, name) {
  root.dataset.lastSound = muted() ? `${name}:muted` : name;
  if (muted()) return;
  tones(TONES[name] || []);
}
