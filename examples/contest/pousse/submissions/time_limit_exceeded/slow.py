#!/usr/bin/env python3
"""Pousse (UVa 844 rules): one game, or T games after a count and an empty line.

Every line of the board is counted again after each move: N^2 per move, too slow for the
largest boards with many moves."""
import sys


def play(n, moves):
    board = [["."] * n for _ in range(n)]
    rows = {"X": [0] * n, "O": [0] * n}
    cols = {"X": [0] * n, "O": [0] * n}
    full = {"X": 0, "O": 0}

    def place(r, c, v):
        old = board[r][c]
        if old == v:
            return
        if old != ".":
            full[old] -= (rows[old][r] == n) + (cols[old][c] == n)
            rows[old][r] -= 1
            cols[old][c] -= 1
        rows[v][r] += 1
        cols[v][c] += 1
        full[v] += (rows[v][r] == n) + (cols[v][c] == n)
        board[r][c] = v

    for number, move in enumerate(moves):
        who = "O" if number % 2 else "X"
        edge, k = move[0], int(move[1:]) - 1
        if edge == "L":
            line = [(k, c) for c in range(n)]
        elif edge == "R":
            line = [(k, c) for c in range(n - 1, -1, -1)]
        elif edge == "T":
            line = [(r, k) for r in range(n)]
        else:
            line = [(r, k) for r in range(n - 1, -1, -1)]
        end = n - 1
        for i, (r, c) in enumerate(line):
            if board[r][c] == ".":
                end = i
                break
        for i in range(end, 0, -1):
            (r, c), (pr, pc) = line[i], line[i - 1]
            v = board[pr][pc]
            if v == ".":
                continue
            place(r, c, v)
        place(line[0][0], line[0][1], who)
        lines = board + [list(col) for col in zip(*board)]
        x = sum(all(v == "X" for v in line) for line in lines)
        o = sum(all(v == "O" for v in line) for line in lines)
        if x != o:
            return "X WINS" if x > o else "O WINS"
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
