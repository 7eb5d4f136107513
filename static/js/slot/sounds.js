// The slot's sounds: short WebAudio tones (no files), off until the player switches them on; his
// choice is kept on this device (localStorage "slot-audio": "on" / "off"). The AudioContext is
// the page's one (audio.js).

import { tones } from "../audio.js";

export const SOUND_KEY = "slot-audio";

// name -> [[frequency Hz, seconds], …] played one after the other
export const TONES = {
  click: [[880, 0.03]],
  spin: [[330, 0.05], [392, 0.05], [440, 0.05]],
  stop: [[196, 0.06]],
  win: [[523, 0.08], [659, 0.08], [784, 0.12]],
  good: [[659, 0.1], [988, 0.16]],
  bad: [[294, 0.12], [220, 0.2]],
};

export function soundOn() {
  try { return localStorage.getItem(SOUND_KEY) === "on"; } catch { return false; }
}

export function setSoundOn(on) {
  try { localStorage.setItem(SOUND_KEY, on ? "on" : "off"); } catch { /* private mode: this page only */ }
}

export function sound(name) {
  if (typeof document !== "undefined") document.getElementById("slot")?.setAttribute("data-last-sound", soundOn() ? name : `${name}:muted`);
  if (!soundOn()) return;
  tones(TONES[name] || [], { type: "triangle", resume: true });
}
