#!/usr/bin/env python3
"""Pousse (UVa 844 rules): one game, or T games after a count and an empty line.

Each row and column keeps how many markers of each side it holds, and each side how many of
its lines are full, so a push costs the length of the pushed segment."""
import sys


def play(n, moves):
    # Squares 0 (empty), 1 (X) or 2 (O), row by row; counts[side][line], rows then columns.
    board = [0] * (n * n)
    counts = [None, [0] * (2 * n), [0] * (2 * n)]
    full = [0, 0, 0]
    starts = {"L": (0, n, 1), "R": (n - 1, n, -1), "T": (0, 1, n), "B": (n * n - n, 1, -n)}

    def place(square, v):
        old = board[square]
        r, c = divmod(square, n)
        if old:
            line = counts[old]
            full[old] -= (line[r] == n) + (line[n + c] == n)
            line[r] -= 1
            line[n + c] -= 1
        line = counts[v]
        line[r] += 1
        line[n + c] += 1
        full[v] += (line[r] == n) + (line[n + c] == n)
        board[square] = v

    for number, move in enumerate(moves):
        who = 2 if number % 2 else 1
        first, across, step = starts[move[0]]
        entry = first + (int(move[1:]) - 1) * across
        end = n - 1
        square = entry
        for i in range(n):
            if not board[square]:
                end = i
                break
            square += step
        square = entry + end * step
        for _ in range(end):
            v = board[square - step]
            if board[square] != v:
                place(square, v)
            square -= step
        if board[entry] != who:
            place(entry, who)
        if full[1] != full[2]:
            return "X WINS" if full[1] > full[2] else "O WINS"
    return "TIE GAME"


def game(words, at):
    """The game whose size is words[at]: its verdict and the index after its QUIT."""
    n = int(words[at])
    end = words.index("QUIT", at + 1)
    return play(n, words[at + 1:end]), end + 1


def main():
    text = sys.stdin.read()
    lines = text.split("\n")
    words = text.split()
    if len(lines) > 1 and lines[1].strip() == "":
        verdicts, at = [], 1
        for _ in range(int(words[0])):
            verdict, at = game(words, at)
            verdicts.append(verdict)
        print("\n\n".join(verdicts))
    else:
        print(game(words, 0)[0])


main()
