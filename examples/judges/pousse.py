#!/usr/bin/env python3
"""A judge of Pousse (UVa 844, the waterloo rules): single-game and multi-case input.

Planted bugs, chosen with --plant:
  full-line   a push into a full line does nothing (the last marker should fall off);
  hang-on-n1  loops forever on a 1 x 1 board.
"""
import sys

PLANT = sys.argv[sys.argv.index("--plant") + 1] if "--plant" in sys.argv else None


def play(n, moves):
    if PLANT == "hang-on-n1" and n == 1:
        while True:
            pass
    board = [["."] * n for _ in range(n)]
    for number, move in enumerate(moves, 1):
        mover = "X" if number % 2 else "O"
        edge, k = move[0], int(move[1:]) - 1
        if edge in "LR":
            squares = [(k, c) for c in range(n)]
        else:
            squares = [(r, k) for r in range(n)]
        if edge in "RB":
            squares.reverse()
        empty = [i for i, (r, c) in enumerate(squares) if board[r][c] == "."]
        if not empty and PLANT == "full-line":
            continue
        last = empty[0] if empty else n - 1
        for i in range(last, 0, -1):
            (r, c), (pr, pc) = squares[i], squares[i - 1]
            board[r][c] = board[pr][pc]
        r, c = squares[0]
        board[r][c] = mover
        lines = board + [list(col) for col in zip(*board)]
        x = sum(all(v == "X" for v in line) for line in lines)
        o = sum(all(v == "O" for v in line) for line in lines)
        if x != o:
            return "X WINS" if x > o else "O WINS"
    return "TIE GAME"


def game(lines, at):
    """The game starting at line `at`: its verdict and the line after its QUIT."""
    n = int(lines[at])
    end = lines.index("QUIT", at + 1)
    return play(n, lines[at + 1:end]), end + 1


def main():
    lines = [line.rstrip("\r") for line in sys.stdin.read().split("\n")]
    if len(lines) > 1 and lines[1] == "":
        verdicts, at = [], 2
        for _ in range(int(lines[0])):
            verdict, at = game(lines, at)
            verdicts.append(verdict)
            at += 1
        print("\n\n".join(verdicts))
    else:
        print(game(lines, 0)[0])


main()
