// The slot's symbols drawn in SVG (no images, no emoji): a school theme for "Pierino Tenta la
// Fortuna". symbolSvg(code) returns the markup of one symbol (viewBox 0 0 100 100); the reel cell's
// class (sym-C, sym-W…) gives its background. Codes: games/slot/table.py.

const ART = {
  // Campanella: the school bell
  C: '<path d="M50 14c-4 0-6 3-6 6-13 3-20 14-20 28v14l-8 10h68l-8-10V48c0-14-7-25-20-28 0-3-2-6-6-6z" fill="#ffd34d" stroke="#8a5a00" stroke-width="3"/><circle cx="50" cy="80" r="7" fill="#8a5a00"/><path d="M36 40c2-8 8-12 14-12" stroke="#fff6c8" stroke-width="4" fill="none" stroke-linecap="round"/>',
  // Mappamondo: the globe on its stand
  M: '<circle cx="50" cy="44" r="27" fill="#3aa0ff" stroke="#0b3d75" stroke-width="3"/><path d="M34 30c8 2 10 10 6 14s2 10 8 8 10 4 8 10M58 20c-2 6 6 8 10 6M62 48c6-2 10 2 12 6" stroke="#2fbf55" stroke-width="6" fill="none" stroke-linecap="round"/><path d="M50 71v10M34 86h32" stroke="#6b4a1f" stroke-width="6" stroke-linecap="round"/><path d="M22 44a28 28 0 0 0 48 20" stroke="#c9a227" stroke-width="4" fill="none"/>',
  // Zaino: the school bag
  Z: '<rect x="22" y="26" width="56" height="60" rx="12" fill="#e4572e" stroke="#7a220b" stroke-width="3"/><path d="M36 26v-6a14 14 0 0 1 28 0v6" stroke="#7a220b" stroke-width="5" fill="none"/><rect x="30" y="52" width="40" height="22" rx="5" fill="#ff8a5c" stroke="#7a220b" stroke-width="3"/><path d="M22 44h56" stroke="#7a220b" stroke-width="3"/><rect x="46" y="48" width="8" height="8" rx="2" fill="#ffd34d"/>',
  // Libro: the open book
  L: '<path d="M50 30c-10-8-24-8-34-4v52c10-4 24-4 34 4 10-8 24-8 34-4V26c-10-4-24-4-34 4z" fill="#fff7e0" stroke="#5b2a86" stroke-width="3"/><path d="M50 30v52" stroke="#5b2a86" stroke-width="3"/><path d="M24 40h18M24 50h18M24 60h18M58 40h18M58 50h18M58 60h18" stroke="#9b7fc2" stroke-width="3"/><path d="M16 78c10-4 24-4 34 4 10-8 24-8 34-4v6H16z" fill="#7b3fb4"/>',
  // Quaderno: the exercise book
  Q: '<rect x="24" y="16" width="52" height="70" rx="5" fill="#2bb3a3" stroke="#0d5a52" stroke-width="3"/><rect x="32" y="30" width="36" height="14" rx="2" fill="#fff"/><path d="M36 37h28" stroke="#0d5a52" stroke-width="3"/><path d="M24 24h-5M24 36h-5M24 48h-5M24 60h-5M24 72h-5" stroke="#0d5a52" stroke-width="4" stroke-linecap="round"/>',
  // Matita: the pencil
  T: '<path d="M26 74l40-40 12 12-40 40-16 4z" fill="#ffbf2e" stroke="#6b4a00" stroke-width="3"/><path d="M66 34l6-6a6 6 0 0 1 8 0l4 4a6 6 0 0 1 0 8l-6 6z" fill="#ff7aa8" stroke="#6b4a00" stroke-width="3"/><path d="M26 74l-4 16 16-4z" fill="#f3d9a4"/><path d="M22 90l4-6 2 2z" fill="#333"/><path d="M34 66l36-36" stroke="#e09a00" stroke-width="3"/>',
  // Gomma: the eraser
  G: '<path d="M18 62l30-30 34 20-30 30z" fill="#ff6f91" stroke="#7a1a33" stroke-width="3"/><path d="M18 62l16 10 30-30-16-10z" fill="#4d7cff" stroke="#1a2f7a" stroke-width="3"/><path d="M34 72v8l-16-10v-8z" fill="#2a4dbf"/><path d="M64 42v8l18 10v-8z" fill="#c2456a"/>',
  // Righello: the ruler
  R: '<g transform="rotate(-20 50 50)"><rect x="8" y="38" width="84" height="24" rx="3" fill="#9ad14b" stroke="#3a5a10" stroke-width="3"/><path d="M16 38v10M24 38v6M32 38v10M40 38v6M48 38v10M56 38v6M64 38v10M72 38v6M80 38v10" stroke="#3a5a10" stroke-width="2.5"/></g>',
  // Bomba: the wild
  W: '<circle cx="46" cy="58" r="26" fill="#2b2f3a" stroke="#000" stroke-width="3"/><circle cx="38" cy="50" r="7" fill="#5c6475"/><rect x="56" y="26" width="14" height="12" rx="2" fill="#555" transform="rotate(35 63 32)"/><path d="M68 28c4-8 10-10 16-8" stroke="#b07a3c" stroke-width="4" fill="none"/><path d="M84 12l2 8 8 2-8 2-2 8-2-8-8-2 8-2z" fill="#ffd34d"/><text x="46" y="66" text-anchor="middle" font-size="20" font-weight="900" fill="#ffd34d" font-family="Arial, sans-serif">WILD</text>',
  // Serratura: the keyhole (bonus)
  S: '<rect x="18" y="14" width="64" height="72" rx="14" fill="#d9a521" stroke="#6b4a00" stroke-width="4"/><circle cx="50" cy="42" r="12" fill="#1c1c1c"/><path d="M44 48l-6 24h24l-6-24z" fill="#1c1c1c"/><text x="50" y="98" text-anchor="middle" font-size="13" font-weight="900" fill="#6b4a00" font-family="Arial, sans-serif">BONUS</text>',
  // Fionda: the slingshot (free spin)
  F: '<path d="M50 88V56M50 56L30 22M50 56l20-34" stroke="#7a4a1a" stroke-width="9" stroke-linecap="round" fill="none"/><path d="M30 22c6 16 34 16 40 0" stroke="#e33" stroke-width="4" fill="none"/><circle cx="50" cy="36" r="6" fill="#777"/><text x="50" y="98" text-anchor="middle" font-size="12" font-weight="900" fill="#7a4a1a" font-family="Arial, sans-serif">FREE SPIN</text>',
  // Pierino: the pupil with his cap
  P: '<circle cx="50" cy="52" r="26" fill="#ffd0a8" stroke="#7a4a2a" stroke-width="3"/><path d="M24 44c0-18 52-18 52 0z" fill="#e23b3b" stroke="#7a1a1a" stroke-width="3"/><path d="M70 44h16" stroke="#7a1a1a" stroke-width="6" stroke-linecap="round"/><circle cx="41" cy="54" r="4" fill="#222"/><circle cx="59" cy="54" r="4" fill="#222"/><path d="M40 66c6 6 14 6 20 0" stroke="#7a2a2a" stroke-width="4" fill="none" stroke-linecap="round"/><circle cx="33" cy="62" r="4" fill="#ff9a8a"/><circle cx="67" cy="62" r="4" fill="#ff9a8a"/>',
  // The Pierino mode's point symbols
  A: '<path d="M50 10l11 26 28 2-22 18 7 28-24-15-24 15 7-28-22-18 28-2z" fill="#ffd34d" stroke="#8a5a00" stroke-width="3"/>',
  B: '<path d="M50 84C20 62 12 46 18 32c6-14 24-16 32-2 8-14 26-12 32 2 6 14-2 30-32 52z" fill="#ff3d6e" stroke="#7a0f2a" stroke-width="3"/>',
  D: '<g fill="#b07cff" stroke="#4a1f8a" stroke-width="2.5"><circle cx="50" cy="28" r="14"/><circle cx="72" cy="46" r="14"/><circle cx="64" cy="72" r="14"/><circle cx="36" cy="72" r="14"/><circle cx="28" cy="46" r="14"/></g><circle cx="50" cy="52" r="10" fill="#ffd34d" stroke="#8a5a00" stroke-width="2.5"/>',
  _: "",
};

export function symbolSvg(code) {
  const art = ART[code] ?? "";
  return `<svg viewBox="0 0 100 100" class="sym-art" aria-hidden="true" focusable="false">${art}</svg>`;
}

export const SYMBOL_CODES = Object.keys(ART);
