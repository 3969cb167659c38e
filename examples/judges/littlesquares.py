#!/usr/bin/env python3
"""A judge of LittleSquares (TopCoder SRM 389), in both input forms (rows of '.' and '#' with
empty lines between grids, or TopCoder literals {"..", ".."}); one verdict per grid. Bands of two
rows are independent games; a run of L fully empty columns in a band is worth g(L), a lone empty
square 1; the grid's value is the XOR of its parts' (Sprague-Grundy). No planted bug."""
import re
import sys


def grundy(limit):
    g = []
    for length in range(limit + 1):
        seen = {g[a] ^ g[length - 2 - a] for a in range(length - 1)}
        seen |= {g[a] ^ g[length - 1 - a] ^ 1 for a in range(length)}
        m = 0
        while m in seen:
            m += 1
        g.append(m)
    return g


def first_wins(grid, g):
    value = 0
    for b in range(0, len(grid) - 1, 2):
        top, bottom = grid[b], grid[b + 1]
        run = 0
        for t, u in zip(top + "#", bottom + "#"):
            if t == "." and u == ".":
                run += 1
                continue
            value ^= g[run]
            run = 0
            if (t == ".") != (u == "."):
                value ^= 1
    if len(grid) % 2:
        value ^= grid[-1].count(".") % 2
    return value != 0


def main():
    text = sys.stdin.read()
    if text.lstrip().startswith("{"):
        grids = [re.findall(r'"([^"]*)"', literal) for literal in re.findall(r"\{[^}]*\}", text)]
    else:
        grids, grid = [], []
        for line in text.split("\n"):
            line = line.rstrip("\r")
            if line:
                grid.append(line)
            elif grid:
                grids.append(grid)
                grid = []
        if grid:
            grids.append(grid)
    g = grundy(max(len(grid[0]) for grid in grids))
    for grid in grids:
        print("first" if first_wins(grid, g) else "second")


main()
