// The lobby page (templates/lobby/lobby.html).
// Live counts without reloading the page; a table opened or closed meanwhile reloads the list.
// Filters: by game (the chips), highest entry, variant, only tables with a free seat.
import { reloader } from "./leaving.js";

const page = reloader();
const table = document.getElementById("lobby-tables");
const shown = () => [...table.querySelectorAll("tr[data-table]")].map((row) => row.dataset.table).sort().join();
const filters = document.querySelector('[data-role="lobby-filters"]');
const chips = document.querySelector('[data-role="game-filter"]');
let game = "";

function applyFilters() {
  const stakes = Number(filters?.querySelector("[data-filter=stakes]")?.value || 0);
  const variant = filters?.querySelector("[data-filter=variant]")?.value || "";
  const free = !!filters?.querySelector("[data-filter=free]")?.checked;
  let n = 0;
  for (const row of table.querySelectorAll("tr[data-table]")) {
    const hide = (game !== "" && row.dataset.game !== game)
      || (stakes > 0 && Number(row.dataset.minBuyIn) > stakes)
      || (variant !== "" && row.dataset.variant !== variant)
      || (free && Number(row.dataset.free) <= 0);
    row.hidden = hide;
    if (!hide) n += 1;
  }
  const count = document.querySelector('[data-role="lobby-count"]');
  if (count) count.textContent = `${n} / ${table.querySelectorAll("tr[data-table]").length}`;
}

async function refresh() {
  try {
    const data = await (await fetch(table.dataset.src, {headers: {Accept: "application/json"}})).json();
    if (data.tables.map((t) => String(t.id)).sort().join() !== shown()) { page.reload(); return; }
    for (const t of data.tables) {
      const row = table.querySelector(`tr[data-table="${t.id}"]`);
      if (!row) continue;
      row.querySelector('[data-field="seated"]').textContent = `${t.seated}/${t.seats}`;
      row.querySelector('[data-field="waiting"]').textContent = t.waiting;
      row.dataset.free = String(t.free);
    }
    applyFilters();
  } catch { /* the next tick retries */ }
}
setInterval(refresh, 3000);

// Filter by game: the chips show one game's tables, or all of them.
chips?.addEventListener("click", (event) => {
  const chip = event.target.closest("button[data-game]");
  if (!chip) return;
  for (const other of chips.querySelectorAll("button[data-game]")) {
    other.setAttribute("aria-pressed", String(other === chip));
  }
  game = chip.dataset.game;
  applyFilters();
});
filters?.addEventListener("change", applyFilters);
filters?.addEventListener("submit", (event) => event.preventDefault());
applyFilters();
