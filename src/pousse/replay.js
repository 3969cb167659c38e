// Pousse replays in the HTML report: plays the moves the report carries (from the board before
// the first of them) and draws the board after any of them as SVG, with buttons, a slider and
// the arrow keys to step. The push is the rule of docs/games/pousse.md: the marker enters at the
// edge square; markers from there up to the first empty square of the line move one square on;
// in a full line the last marker falls off. The element's data-step and data-board attributes
// (rows top to bottom separated by "/", "." for empty) say what is shown.
(function () {
  "use strict";
  const SVG = "http://www.w3.org/2000/svg";
  const WINDOW = 40;

  function parseBoard(text) {
    return text.split("/").map((row) => row.split(""));
  }

  function boardText(board) {
    return board.map((row) => row.join("")).join("/");
  }

  // The squares of the line a move enters, from its entry square on.
  function line(n, move) {
    const edge = move[0];
    const i = parseInt(move.slice(1), 10) - 1;
    const out = [];
    for (let k = 0; k < n; k++) {
      if (edge === "L") out.push([i, k]);
      else if (edge === "R") out.push([i, n - 1 - k]);
      else if (edge === "T") out.push([k, i]);
      else out.push([n - 1 - k, i]);
    }
    return out;
  }

  function play(board, move, colour) {
    const squares = line(board.length, move);
    let free = squares.findIndex(([r, c]) => board[r][c] === ".");
    if (free < 0) free = squares.length - 1; // a full line: the last marker falls off
    for (let k = free; k > 0; k--) {
      const [r, c] = squares[k];
      const [pr, pc] = squares[k - 1];
      board[r][c] = board[pr][pc];
    }
    const [r0, c0] = squares[0];
    board[r0][c0] = colour;
  }

  // Rows and columns held whole by one colour.
  function straights(board) {
    const n = board.length;
    const rows = new Set();
    const cols = new Set();
    for (let i = 0; i < n; i++) {
      const r = board[i][0];
      if (r !== "." && board[i].every((v) => v === r)) rows.add(i);
      const c = board[0][i];
      if (c !== "." && board.every((row) => row[i] === c)) cols.add(i);
    }
    return { rows, cols };
  }

  function windowAround(n, focus) {
    if (n <= WINDOW) return [0, n - 1];
    const start = Math.min(Math.max(focus - WINDOW / 2, 0), n - WINDOW);
    return [start, start + WINDOW - 1];
  }

  function el(name, attrs, parent) {
    const e = document.createElementNS(SVG, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }

  // An SVG drawing of `board`, the entry square of `move` outlined, straights shaded.
  function drawBoard(board, move, caption) {
    const n = board.length;
    let focus = [0, 0];
    let entry = null;
    if (move) {
      entry = line(n, move)[0];
      focus = entry;
    }
    const [r0, r1] = windowAround(n, focus[0]);
    const [c0, c1] = windowAround(n, focus[1]);
    const rows = r1 - r0 + 1;
    const cols = c1 - c0 + 1;
    const cell = Math.max(10, Math.min(36, Math.floor(360 / Math.max(rows, cols))));
    const pad = 22;
    const svg = el("svg", {
      width: pad + cols * cell + 4,
      height: pad + rows * cell + 4,
      role: "img",
      "aria-label": caption,
      class: "pousse-board",
    });
    const s = straights(board);
    for (let c = c0; c <= c1; c++) {
      const t = el("text", { x: pad + (c - c0 + 0.5) * cell, y: 14, class: "label" }, svg);
      t.textContent = c + 1;
    }
    for (let r = r0; r <= r1; r++) {
      const t = el("text", { x: pad - 4, y: pad + (r - r0 + 0.65) * cell, class: "label row" }, svg);
      t.textContent = r + 1;
      for (let c = c0; c <= c1; c++) {
        const x = pad + (c - c0) * cell;
        const y = pad + (r - r0) * cell;
        const v = board[r][c];
        const straight = v !== "." && (s.rows.has(r) || s.cols.has(c));
        el("rect", { x, y, width: cell, height: cell, class: straight ? "sq straight" : "sq" }, svg);
        if (v !== ".") {
          const t = el("text", { x: x + cell / 2, y: y + cell * 0.7, class: v === "X" ? "x" : "o" }, svg);
          t.setAttribute("font-size", Math.floor(cell * 0.7));
          t.textContent = v;
        }
      }
    }
    if (entry && entry[0] >= r0 && entry[0] <= r1 && entry[1] >= c0 && entry[1] <= c1) {
      el("rect", {
        x: pad + (entry[1] - c0) * cell + 1,
        y: pad + (entry[0] - r0) * cell + 1,
        width: cell - 2,
        height: cell - 2,
        class: "entry",
      }, svg);
    }
    const figure = document.createElement("figure");
    figure.appendChild(svg);
    const note = document.createElement("figcaption");
    note.textContent = caption + (n > WINDOW ? ` (rows ${r0 + 1}-${r1 + 1}, columns ${c0 + 1}-${c1 + 1} of ${n})` : "");
    figure.appendChild(note);
    return figure;
  }

  function replay(root, data) {
    const first = data.first;
    const last = first + data.moves.length;
    // Boards at every CHECKPOINT-th carried move, computed as they are first needed; any
    // other board is played on from the checkpoint before it.
    const CHECKPOINT = 32;
    const checkpoints = [parseBoard(data.start)];
    function boardAt(step) {
      const k = step - first;
      const c = Math.floor(k / CHECKPOINT);
      while (checkpoints.length <= c) {
        const from = (checkpoints.length - 1) * CHECKPOINT;
        const b = checkpoints[checkpoints.length - 1].map((row) => row.slice());
        for (let i = from; i < from + CHECKPOINT; i++) {
          play(b, data.moves[i], (first + i + 1) % 2 === 1 ? "X" : "O");
        }
        checkpoints.push(b);
      }
      const b = checkpoints[c].map((row) => row.slice());
      for (let i = c * CHECKPOINT; i < k; i++) {
        play(b, data.moves[i], (first + i + 1) % 2 === 1 ? "X" : "O");
      }
      return b;
    }
    root.textContent = "";
    const controls = document.createElement("div");
    controls.className = "controls";
    const button = (label, title) => {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = label;
      b.title = title;
      controls.appendChild(b);
      return b;
    };
    const toFirst = button("|◀", "first move shown (Home)");
    const back = button("◀", "previous move (left arrow)");
    const forward = button("▶", "next move (right arrow)");
    const toLast = button("▶|", "last move shown (End)");
    const slider = document.createElement("input");
    slider.type = "range";
    slider.min = first;
    slider.max = last;
    slider.setAttribute("aria-label", "move");
    controls.appendChild(slider);
    const status = document.createElement("span");
    status.className = "step";
    controls.appendChild(status);
    root.appendChild(controls);
    const boardsView = document.createElement("div");
    boardsView.className = "boards";
    root.appendChild(boardsView);
    const said = document.createElement("p");
    said.className = "said";
    root.appendChild(said);

    function show(step) {
      step = Math.max(first, Math.min(last, step));
      const board = boardAt(step);
      const move = step > first ? data.moves[step - first - 1] : null;
      root.dataset.step = step;
      root.dataset.board = boardText(board);
      slider.value = step;
      const mover = step % 2 === 1 ? "X" : "O";
      let text = step === 0 ? "before the first move" : `move ${step} of ${data.total}: ${mover} ${move || ""}`;
      if (step === data.decisive) text += " (the decisive move)";
      status.textContent = text;
      boardsView.textContent = "";
      boardsView.appendChild(drawBoard(board, move, step === 0 ? "empty board" : `after move ${step}`));
      const s = straights(board);
      const count = (c) =>
        [...s.rows].filter((r) => board[r][0] === c).length + [...s.cols].filter((k) => board[0][k] === c).length;
      let note = `Straights: X ${count("X")}, O ${count("O")}.`;
      if (step === data.decisive) {
        note += ` ${data.verdict}: ${data.explanation}.`;
        if (data.earlier !== null && data.earlier_board) {
          boardsView.appendChild(drawBoard(parseBoard(data.earlier_board), null, `after move ${data.earlier} (the same configuration)`));
        }
      }
      said.textContent = note;
    }

    toFirst.addEventListener("click", () => show(first));
    back.addEventListener("click", () => show(Number(root.dataset.step) - 1));
    forward.addEventListener("click", () => show(Number(root.dataset.step) + 1));
    toLast.addEventListener("click", () => show(last));
    slider.addEventListener("input", () => show(Number(slider.value)));
    root.addEventListener("keydown", (e) => {
      const step = Number(root.dataset.step);
      const to = { ArrowLeft: step - 1, ArrowRight: step + 1, Home: first, End: last }[e.key];
      if (to !== undefined) {
        show(to);
        e.preventDefault();
      }
    });
    show(last);
  }

  window.referee = window.referee || { replays: {} };
  window.referee.replays.pousse = replay;
})();
