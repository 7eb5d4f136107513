// The tournament lobby: the regulator answers a moment after a registration or a cancellation,
// so while one waits ([data-poll]) ask for its state every second and reload when it changes.
const box = document.querySelector("[data-poll]");
if (box) {
  const timer = setInterval(async () => {
    try {
      const response = await fetch(box.dataset.poll, { headers: { Accept: "application/json" } });
      const data = await response.json();
      if (data.state !== box.dataset.state) {
        clearInterval(timer);
        location.reload();
      }
    } catch (e) {
      /* the next tick retries */
    }
  }, 1000);
}
