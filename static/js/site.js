// Behaviour shared by every page, in a file because the Content-Security-Policy allows no inline script.

// The compact menu on phones: the button shows and hides the navigation; Escape closes it.
for (const button of document.querySelectorAll("[data-menu-toggle]")) {
  const menu = document.getElementById(button.getAttribute("aria-controls"));
  const show = (open) => {
    button.setAttribute("aria-expanded", String(open));
    menu.classList.toggle("is-open", open);
  };
  button.addEventListener("click", () => show(button.getAttribute("aria-expanded") !== "true"));
  document.addEventListener("keydown", (event) => {
    if (event.key === "Escape" && menu.classList.contains("is-open")) { show(false); button.focus(); }
  });
}

// A select marked data-autosubmit submits its form when changed (the language switcher).
for (const select of document.querySelectorAll("select[data-autosubmit]")) {
  select.addEventListener("change", () => select.form.submit());
}

// Quick amounts (deposit page) fill the amount box; the player still confirms with the form's button.
for (const chips of document.querySelectorAll('[data-role="quick-amounts"]')) {
  chips.addEventListener("click", (event) => {
    const chip = event.target.closest("button[data-amount]");
    const box = document.getElementById("id_amount");
    if (chip && box) { box.value = chip.dataset.amount; box.focus(); }
  });
}

// A fieldset marked data-enabled-by="name=value" is enabled only while that radio is chosen (the
// sign-up's own deposit limits, disabled while the defaults are chosen; the server ignores them then).
for (const set of document.querySelectorAll("fieldset[data-enabled-by]")) {
  const [name, value] = set.dataset.enabledBy.split("=");
  const form = set.closest("form");
  const sync = () => { set.disabled = form.querySelector(`input[name="${name}"]:checked`)?.value !== value; };
  form.addEventListener("change", (event) => { if (event.target.name === name) sync(); });
  sync();
}
