// A level tournament's table (templates/tournaments/_table_levels.html): the level, the invito, the
// next one and the time to it, the players left, the player's position by chips and the average.
// Asked from the tournament (livello.json) when the page opens and whenever the table's socket
// brings a hand's end or a new hand (#table's data-over; other views at most every 5 s, and every
// 20 s anyway), so it follows the hands without a reload; the countdown runs on the page's clock
// between two answers (levelclock.js).
// When this tab was last at another table of the same tournament, the player has been moved (the
// tournament's call brought the page here): a notice says so.
import { countdown } from "./levelclock.js";

const strip = document.querySelector("[data-level-info]");
const table = document.getElementById("table");
const KEY = `livelli:${strip ? strip.dataset.tournamentId : ""}`;

function fill(data) {
  for (const el of strip.querySelectorAll("[data-field]")) {
    const name = el.dataset.field;
    if (name === "countdown") countdown(el, data.seconds_to_next);
    else if (name === "lobby_url") el.href = data.lobby_url;
    else if (data[name] !== undefined && data[name] !== null) el.textContent = String(data[name]);
  }
  const shown = {
    running: data.levels,
    in: data.levels && data.position !== null,
    out: data.levels && data.placing !== null,
    hand_for_hand: data.levels && data.hand_for_hand,
    finished: !data.levels && data.finished,
    placed: !data.levels && data.finished && data.placing !== null,
  };
  for (const el of strip.querySelectorAll("[data-when]")) el.hidden = !shown[el.dataset.when];
  strip.hidden = !data.levels && !data.finished;
  strip.dataset.level = data.levels ? String(data.level) : "";
  strip.dataset.position = data.position ?? "";
  if (!data.levels) strip.querySelector("[data-role=level-moved]").hidden = true;
  else movedNotice(data);
}

function movedNotice(data) {
  if (!data.levels || data.table_number === null) return;
  const here = strip.dataset.tableId;
  let before;
  try {
    before = sessionStorage.getItem(KEY);
    sessionStorage.setItem(KEY, here);
  } catch { return; /* private mode: no memory of the last table, no notice */ }
  if (before === null || before === here) return;
  const note = strip.querySelector("[data-role=level-moved]");
  note.textContent = note.dataset.format.replace("{tavolo}", String(data.table_number));
  note.hidden = false;
  setTimeout(() => { note.hidden = true; }, 12000);
}

let asking = null;
let again = false;
async function refresh() {
  if (asking) { again = true; return; }
  asking = (async () => {
    try {
      const response = await fetch(strip.dataset.levelInfo, { headers: { Accept: "application/json" } });
      if (response.ok) fill(await response.json());
    } catch { /* the next view or tick asks again */ }
  })();
  await asking;
  asking = null;
  if (again) { again = false; refresh(); }
}

if (strip && table) {
  refresh();
  // data-over turns "1" when a hand ends and "0" when the next is dealt: the tournament moves on
  // between the two (chips, eliminations, moves, the level), so that is when to ask
  new MutationObserver(() => refresh()).observe(table, { attributes: true, attributeFilter: ["data-over"] });
  setInterval(() => { if (document.visibilityState !== "hidden") refresh(); }, 20000);
}
