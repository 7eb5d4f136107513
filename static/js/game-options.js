// The table's "Opzioni" (rules 004: "cliccando sul tasto opzioni sul tavolo"): the player's options
// for this game in a modal dialog, saved through the profile's own endpoint (game_options), which
// answers JSON here. Without JavaScript the button is a link to the profile's page of the game.
// Markup: templates/includes/game_options_dialog.html.

const dialog = document.getElementById("table-options-dialog");

/** The form's errors gone: each field as it was before a refused save. */
function clearErrors(form) {
  for (const p of form.querySelectorAll("p.error[data-from=options]")) p.remove();
  for (const field of form.querySelectorAll(".field.has-error")) field.classList.remove("has-error");
  for (const input of form.querySelectorAll("[aria-invalid]")) {
    input.removeAttribute("aria-invalid");
    input.removeAttribute("aria-errormessage");
  }
}

/** Put each refused field's message under it, tied to it for screen readers. */
function showErrors(form, errors) {
  let first = null;
  for (const [name, messages] of Object.entries(errors || {})) {
    const input = form.elements.namedItem(name);
    if (!input || !input.closest) continue;
    const field = input.closest(".field");
    field.classList.add("has-error");
    const note = document.createElement("p");
    note.className = "error";
    note.dataset.from = "options";
    note.id = `${input.id}_options_error`;
    note.textContent = messages.join(" ");
    field.append(note);
    input.setAttribute("aria-invalid", "true");
    input.setAttribute("aria-errormessage", note.id);
    first = first || input;
  }
  first?.focus();
}

function say(status, text, ok) {
  status.dataset.ok = ok ? "1" : "0";
  status.textContent = text;
}

async function save(event) {
  event.preventDefault();
  const form = event.currentTarget;
  const status = form.querySelector("[data-role=options-status]");
  const button = form.querySelector("button[type=submit]");
  clearErrors(form);
  say(status, "", true);
  button.disabled = true;
  let response = null;
  let body;
  try {
    response = await fetch(form.action, {
      method: "POST",
      body: new FormData(form),
      credentials: "same-origin",
      headers: { Accept: "application/json" },
    });
    body = await response.json();
  } catch {
    body = {};
  } finally {
    button.disabled = false;
  }
  if (response && response.ok) {
    say(status, `${body.message} ${body.applies_from}`, true);
    // the deck style is cosmetic: the table draws its next view with it (table/render.js deckStyle)
    const table = document.getElementById("table");
    if (table && body.values && body.values.stile_mazzo) table.dataset.deckStyle = body.values.stile_mazzo;
    return;
  }
  say(status, body.message || dialog.dataset.offline || "", false);
  showErrors(form, body.errors);
}

if (dialog) {
  const opener = document.querySelector("[data-role=options-open]");
  const form = dialog.querySelector("[data-role=options-form]");
  opener.setAttribute("role", "button");
  opener.setAttribute("aria-haspopup", "dialog");
  opener.addEventListener("click", (event) => {
    event.preventDefault();
    clearErrors(form);
    say(form.querySelector("[data-role=options-status]"), "", true);
    dialog.showModal();
    form.querySelector("input:not([type=hidden]), select")?.focus();
  });
  // a role=button link also answers the space bar, as a button does
  opener.addEventListener("keydown", (event) => {
    if (event.key === " ") {
      event.preventDefault();
      opener.click();
    }
  });
  dialog.querySelector("[data-role=options-close]").addEventListener("click", () => dialog.close());
  dialog.addEventListener("close", () => opener.focus());
  form.addEventListener("submit", save);
}
