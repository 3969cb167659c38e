#!/usr/bin/env python3
"""A judge of Some Game (DMOJ ioiqrp5), as referee reads the lost statement: data sets of
'P R C K' and R rows of C numbers until the end of input; PLAYER x, NO WINNERS or ERROR per data
set, an empty line between verdicts. Lines wrap around both glued edges of the torus.

Each step's squares split into cycles (rows for the row step, and so on); a player has a line
when a run of its squares along a cycle is K long, or fills the whole cycle. The winner is the
last mover when one of its squares lies on every such run and taking it breaks them all.
Linear in the board's size.

Planted bug, chosen with --plant:
  no-wrap   lines do not cross the top and bottom edges (the board is a cylinder).
"""
import sys
from collections import Counter

PLANT = sys.argv[sys.argv.index("--plant") + 1] if "--plant" in sys.argv else None
STEPS = [(0, 1), (1, 0), (1, 1), (1, -1), (1, 2), (2, 1), (1, -2), (2, -1)]


def sequences(rows, cols, dr, dc):
    """The board's squares along step (dr, dc) as (squares, cyclic) sequences that cover it."""
    if PLANT == "no-wrap" and dr != 0:
        out = []
        for start in range(rows * cols):
            r, c = divmod(start, cols)
            if 0 <= r - dr < rows:
                continue
            squares = []
            while r < rows:
                squares.append(r * cols + c)
                r, c = r + dr, (c + dc) % cols
            out.append((squares, False))
        return out
    seen = [False] * (rows * cols)
    out = []
    for start in range(rows * cols):
        if seen[start]:
            continue
        squares = []
        r, c = divmod(start, cols)
        while not seen[r * cols + c]:
            seen[r * cols + c] = True
            squares.append(r * cols + c)
            r, c = (r + dr) % rows, (c + dc) % cols
        out.append((squares, True))
    return out


def long_runs(cells, rows, cols, k):
    """Every run of one player's squares with a line in it: (player, squares, whole cycle)."""
    runs = []
    for dr, dc in STEPS:
        for squares, cyclic in sequences(rows, cols, dr, dc):
            values = [cells[s] for s in squares]
            if cyclic and values.count(values[0]) == len(values):
                if values[0]:
                    runs.append((values[0], squares, True))
                continue
            if cyclic:
                # Start the cycle where the value changes, so no run wraps.
                cut = next(i for i in range(len(values)) if values[i] != values[i - 1])
                squares = squares[cut:] + squares[:cut]
                values = values[cut:] + values[:cut]
            i = 0
            while i < len(values):
                j = i
                while j < len(values) and values[j] == values[i]:
                    j += 1
                if values[i] and j - i >= k:
                    runs.append((values[i], squares[i:j], False))
                i = j
    return runs


def verdict(players, rows, cols, k, cells):
    if k == 0:
        return "PLAYER 1" if not any(cells) else "ERROR"
    if any(v > players for v in cells):
        return "ERROR"
    counts = Counter(v for v in cells if v)
    m, j = divmod(sum(counts.values()), players)
    if len(counts) != (players if m else j):
        return "ERROR"
    if any(n != m + (1 if p <= j else 0) for p, n in counts.items()):
        return "ERROR"
    last = j if j else players
    runs = long_runs(cells, rows, cols, k)
    owners = {player for player, _, _ in runs}
    if not owners:
        return "NO WINNERS"
    if owners != {last}:
        return "ERROR"
    # A square on every run, whose removal leaves each run without a line.
    on = Counter(s for _, squares, _ in runs for s in squares)
    places = [{s: i for i, s in enumerate(squares)} for _, squares, _ in runs]
    for square, n in on.items():
        if n != len(runs):
            continue
        breaks = True
        for (_, squares, whole), place in zip(runs, places):
            if whole:
                breaks = breaks and len(squares) - 1 < k
            else:
                i = place[square]
                breaks = breaks and i < k and len(squares) - 1 - i < k
        if breaks:
            return f"PLAYER {last}"
    return "ERROR"


def main():
    numbers = [int(t) for t in sys.stdin.read().split()]
    at, verdicts = 0, []
    while at < len(numbers):
        players, rows, cols, k = numbers[at:at + 4]
        at += 4
        cells = numbers[at:at + rows * cols]
        at += rows * cols
        verdicts.append(verdict(players, rows, cols, k, cells))
    print("\n\n".join(verdicts))


main()
