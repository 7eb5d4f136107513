// The lobby page (templates/lobby/lobby.html).
// Live counts without reloading the page; a table opened or closed meanwhile reloads the list.
const table = document.getElementById("lobby-tables");
const shown = () => [...table.querySelectorAll("tr[data-table]")].map((row) => row.dataset.table).sort().join();
async function refresh() {
  try {
    const data = await (await fetch(table.dataset.src, {headers: {Accept: "application/json"}})).json();
    if (data.tables.map((t) => String(t.id)).sort().join() !== shown()) { location.reload(); return; }
    for (const t of data.tables) {
      const row = table.querySelector(`tr[data-table="${t.id}"]`);
      if (!row) continue;
      row.querySelector('[data-field="seated"]').textContent = `${t.seated}/${t.seats}`;
      row.querySelector('[data-field="waiting"]').textContent = t.waiting;
    }
  } catch (e) { /* the next tick retries */ }
}
setInterval(refresh, 3000);

// Filter by game: the chips show one game's tables, or all of them.
const chips = document.querySelector('[data-role="game-filter"]');
chips?.addEventListener("click", (event) => {
  const chip = event.target.closest("button[data-game]");
  if (!chip) return;
  for (const other of chips.querySelectorAll("button[data-game]")) {
    other.setAttribute("aria-pressed", String(other === chip));
  }
  for (const row of table.querySelectorAll("tr[data-table]")) {
    row.hidden = chip.dataset.game !== "" && row.dataset.game !== chip.dataset.game;
  }
});
