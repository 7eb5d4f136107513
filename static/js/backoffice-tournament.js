// The back office's tournament form (tournaments/admin.py): only the sections of the chosen format
// are shown (turns, levels or slot: fieldsets with the classes fmt-group fmt-<kind>), the game list
// offers only that format's games, and the options' help names only the chosen game's keys. The
// server ignores what a hidden section holds (TournamentForm.clean), so the page is only a guide.
(function () {
  "use strict";
  const GROUP = {
    ko: "turns", danese: "turns", danel: "turns", danko: "turns", danelko: "turns",
    freezeout: "levels", shootout: "levels", slot: "slot",
  };
  const LEVEL_GAMES = ["poker5", "telesina", "bestia", "chemin", "mazzetti", "settemezzo"];

  function gameGroup(game) {
    if (game === "slot") return "slot";
    return LEVEL_GAMES.includes(game) ? "levels" : "turns";
  }

  function update(form) {
    const format = form.querySelector("#id_format");
    const game = form.querySelector("#id_game");
    if (!format || !game) return;
    const group = GROUP[format.value] || "turns";
    for (const fieldset of form.querySelectorAll("fieldset.fmt-group")) {
      fieldset.hidden = !fieldset.classList.contains(`fmt-${group}`);
    }
    const levels = form.querySelector(".field-skill_levels");
    if (levels) levels.hidden = group === "slot"; // the slot is chance: no skill levels
    for (const option of game.options) {
      if (!option.value) continue;
      option.hidden = option.disabled = gameGroup(option.value) !== group;
    }
    if (game.value && gameGroup(game.value) !== group) {
      game.value = "";
    }
    for (const line of form.querySelectorAll(".game-options")) {
      line.hidden = line.dataset.game !== game.value;
    }
  }

  function start() {
    const form = document.querySelector("#tournament_form");
    if (!form) return;
    form.addEventListener("change", (event) => {
      if (event.target.id === "id_format" || event.target.id === "id_game") update(form);
    });
    update(form);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();
