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
    status.addEventListener("change", apply);
    game.addEventListener("change", apply);
    apply();
  }
  const replays = (window.referee && window.referee.replays) || {};
  for (const el of document.querySelectorAll(".replay[data-game]")) {
    const play = replays[el.dataset.game];
    if (play) play(el, JSON.parse(el.dataset.replay));
  }
})();
