// The moderators' case page: the decision form shows the minutes of a mute only for a mute and the
// days of a chat suspension only for a suspension. Without this script both stay visible (the
// server ignores the one that does not apply). A file, as the CSP allows no inline script.
(() => {
  const form = document.querySelector("[data-testid=decide-form]");
  if (!form) return;
  const select = form.querySelector("select[name=decision]");
  const fields = form.querySelectorAll("[data-for]");
  const sync = () => {
    fields.forEach((field) => {
      const on = field.dataset.for === select.value;
      field.hidden = !on;
      field.querySelectorAll("input").forEach((input) => { input.disabled = !on; });
    });
  };
  select.addEventListener("change", sync);
  sync();
})();
