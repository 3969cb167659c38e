#!/usr/bin/env python3
"""A judge of Some Game (DMOJ ioiqrp5), as referee reads the lost statement: data sets of
'P R C K' and R rows of C numbers until the end of input; PLAYER x, NO WINNERS or ERROR per data
set, an empty line between verdicts. Lines wrap around both glued edges of the torus.

Planted bug, chosen with --plant:
  no-wrap   lines do not cross the top and bottom edges (the board is a cylinder).
"""
import sys

PLANT = sys.argv[sys.argv.index("--plant") + 1] if "--plant" in sys.argv else None
STEPS = [(0, 1), (1, 0), (1, 1), (1, -1), (1, 2), (2, 1), (1, -2), (2, -1)]


def has_line(board, rows, cols, k, player):
    for r in range(rows):
        for c in range(cols):
            for dr, dc in STEPS:
                x, y, length = r, c, 0
                while board[x][y] == player:
                    length += 1
                    if length >= k:
                        return True
                    x, y = x + dr, (y + dc) % cols
                    if PLANT == "no-wrap":
                        if not 0 <= x < rows:
                            break
                    else:
                        x %= rows
                    if (x, y) == (r, c):
                        return True
    return False


def verdict(players, rows, cols, k, board):
    values = [v for row in board for v in row]
    if k == 0:
        return "PLAYER 1" if not any(values) else "ERROR"
    if any(v > players for v in values):
        return "ERROR"
    filled = sum(1 for v in values if v)
    m, j = divmod(filled, players)
    for p in range(1, players + 1):
        if values.count(p) != m + (1 if p <= j else 0):
            return "ERROR"
    last = j if j else players
    with_line = [p for p in range(1, players + 1) if has_line(board, rows, cols, k, p)]
    if not with_line:
        return "NO WINNERS"
    if with_line != [last]:
        return "ERROR"
    for r in range(rows):
        for c in range(cols):
            if board[r][c] == last:
                board[r][c] = 0
                nobody = not any(has_line(board, rows, cols, k, p) for p in range(1, players + 1))
                board[r][c] = last
                if nobody:
                    return f"PLAYER {last}"
    return "ERROR"


def main():
    numbers = [int(t) for t in sys.stdin.read().split()]
    at, verdicts = 0, []
    while at < len(numbers):
        players, rows, cols, k = numbers[at:at + 4]
        at += 4
        board = [numbers[at + r * cols:at + (r + 1) * cols] for r in range(rows)]
        at += rows * cols
        verdicts.append(verdict(players, rows, cols, k, board))
    print("\n\n".join(verdicts))


main()
