// The report's behaviour: filters over the rows table, and each board replay started by the
// game's own script (referee.replays[game]). Without JavaScript every table and every text
// drawing is still there.
(function () {
  "use strict";
  const form = document.getElementById("filters");
  if (form) {
    form.hidden = false;
    const status = document.getElementById("filter-status");
    const game = document.getElementById("filter-game");
    const shown = document.getElementById("shown");
    const rows = Array.from(document.querySelectorAll("table.rows tbody tr"));
    const apply = () => {
      let n = 0;
      for (const row of rows) {
        const keep = (!status.value || row.dataset.status === status.value) && (!game.value || row.dataset.game === game.value);
        row.hidden = !keep;
        if (keep) n += 1;
      }
      shown.textContent = `${n} of ${rows.length} rows`;
    };
    // Nothing is hidden before a filter is chosen.
    status.addEventListener("change", apply);
    game.addEventListener("change", apply);
    shown.textContent = `${rows.length} of ${rows.length} rows`;
  }
  // Each replay starts when it comes near the viewport: a report with many long games opens
  // as fast as one with none.
  const replays = (window.referee && window.referee.replays) || {};
  const start = (el) => {
    const play = replays[el.dataset.game];
    if (play && !el.dataset.started) {
      el.dataset.started = "1";
      play(el, JSON.parse(el.dataset.replay));
    }
  };
  const pending = document.querySelectorAll(".replay[data-game]");
  if ("IntersectionObserver" in window) {
    const seen = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (entry.isIntersecting) {
          seen.unobserve(entry.target);
          start(entry.target);
        }
      }
    }, { rootMargin: "400px" });
    for (const el of pending) seen.observe(el);
  } else {
    for (const el of pending) start(el);
  }
})();
