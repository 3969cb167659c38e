#!/usr/bin/env bash
# End-to-end performance table: seeded workloads from `referee gen`, each timed (best of RUNS)
# against `wc -l` on the same file, with peak memory from /usr/bin/time, and the engine against
# the reference where the reference can finish. Prints a Markdown table (the README's
# performance section holds the latest). Usage: [RUNS=3] [BENCH_DIR=dir] scripts/bench/bench.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-3}
cargo build --release --quiet
B=$PWD/target/release/referee
# Workloads go to a temporary directory, or to $BENCH_DIR (kept, and reused when present:
# generating 10^6-move undecided games by trial moves takes minutes).
if [ -n "${BENCH_DIR:-}" ]; then
  W=$BENCH_DIR
  mkdir -p "$W"
else
  W=$(mktemp -d)
  trap 'rm -rf "$W"' EXIT
fi
gen() { # directory, then `referee gen` arguments: generates unless the directory exists
  local dir=$1; shift
  [ -d "$dir" ] || $B gen "$@" --out "$dir" >/dev/null
}

best() { # best wall time of RUNS runs of a command, in seconds
  local best=999999 s e t
  for _ in $(seq "$RUNS"); do
    s=$(date +%s%N); "$@" >/dev/null 2>&1 || true; e=$(date +%s%N)
    t=$(echo "($e - $s) / 1000000000" | bc -l)
    best=$(echo "if ($t < $best) $t else $best" | bc -l)
  done
  printf '%.4f' "$best"
}
peak_kb() { /usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n 1; }

echo "| workload | file | wc -l | referee | per unit | x wc -l | peak memory |"
echo "|---|---|---|---|---|---|---|"
row() { # name file units unit-name command...
  local name=$1 file=$2 units=$3 unit=$4; shift 4
  local wc t kb
  wc=$(best wc -l "$file")
  t=$(best "$@")
  kb=$(peak_kb "$@")
  printf '| %s | %s MB | %.1f ms | %.1f ms | %.1f ns/%s | %.1f | %s MB |\n' "$name" \
    "$(echo "$(stat -c %s "$file") / 1000000" | bc -l | xargs printf '%.1f')" \
    "$(echo "$wc * 1000" | bc -l)" "$(echo "$t * 1000" | bc -l)" \
    "$(echo "$t * 1000000000 / $units" | bc -l)" "$unit" "$(echo "$t / $wc" | bc -l)" \
    "$(echo "$kb / 1024" | bc -l | xargs printf '%.1f')"
}

for rules in waterloo icfp98 icfp98-board; do
  for n in 4 8 64 100 1000; do
    gen "$W/p-$rules-$n" pousse --n "$n" --moves 1000000 --palette 0 --undecided --rules "$rules" --seed 5
    f=$(ls "$W/p-$rules-$n"/*.in)
    moves=$(($(wc -l < "$f") - 2))
    row "pousse $rules N=$n, $moves undecided moves" "$f" "$moves" move "$B" judge pousse "$f" --rules "$rules"
  done
done
echo
echo "| same transcript (no move decides under icfp98) | waterloo | icfp98 | icfp98-board | icfp98 / waterloo |"
echo "|---|---|---|---|---|"
for n in 4 8 64 100 1000; do
  f=$(ls "$W/p-icfp98-$n"/*.in)
  tw=$(best "$B" judge pousse "$f" --rules waterloo)
  ti=$(best "$B" judge pousse "$f" --rules icfp98)
  tb=$(best "$B" judge pousse "$f" --rules icfp98-board)
  printf '| N=%s, %s moves | %.1f ms | %.1f ms | %.1f ms | %.2f |\n' "$n" "$(($(wc -l < "$f") - 2))" \
    "$(echo "$tw * 1000" | bc -l)" "$(echo "$ti * 1000" | bc -l)" "$(echo "$tb * 1000" | bc -l)" \
    "$(echo "$ti / $tw" | bc -l)"
done
echo
echo "| workload | file | wc -l | referee | per unit | x wc -l | peak memory |"
echo "|---|---|---|---|---|---|---|"
gen "$W/ls" littlesquares --rows 4000 --cols 4000 --filled 0.1 --seed 5
row "littlesquares 4000 x 4000" "$W"/ls/*.in 16000000 square "$B" judge littlesquares "$W"/ls/*.in
gen "$W/sg" somegame --rows 2000 --cols 2000 --players 4 --k 5 --fill 0.6 --perturb 0 --seed 5
row "somegame 2000 x 2000, P=4, K=5 (every player has lines: ERROR)" "$W"/sg/*.in 4000000 square "$B" judge somegame "$W"/sg/*.in
gen "$W/sgn" somegame --rows 2000 --cols 2000 --players 4 --k 10 --fill 0.6 --perturb 0 --seed 5
row "somegame 2000 x 2000, P=4, K=10 (nobody has a line)" "$W"/sgn/*.in 4000000 square "$B" judge somegame "$W"/sgn/*.in
# The same board with player 4 (the last mover) given one line of K by swapping squares, so
# the counts stay legal: the only case that needs the walk after the scan.
if [ ! -f "$W/sgw.in" ]; then
  python3 - "$W"/sgn/*.in "$W/sgw.in" <<'PY'
import sys
lines = open(sys.argv[1]).read().split("\n")
players, rows, cols, k = map(int, lines[0].split())
board = [line.split() for line in lines[1:1 + rows]]
donors = ((r, c) for r in range(rows - 1, 0, -1) for c in range(cols) if board[r][c] == "4")
for c in range(k):
    if board[0][c] != "4":
        r, d = next(donors)
        board[0][c], board[r][d] = board[r][d], board[0][c]
open(sys.argv[2], "w").write(lines[0] + "\n" + "\n".join(" ".join(row) for row in board) + "\n")
PY
fi
row "somegame 2000 x 2000, P=4, K=10 (the last mover alone has a line: the walk)" "$W/sgw.in" 4000000 square "$B" judge somegame "$W/sgw.in"

echo
echo "| engine vs reference (same input) | engine | reference | ratio |"
echo "|---|---|---|---|"
ratio() { # name file args...
  local name=$1 file=$2; shift 2
  local e r
  e=$(best "$B" judge "$@" "$file")
  r=$(best "$B" judge "$@" "$file" --engine reference)
  printf '| %s | %.2f ms | %.0f ms | %.0f |\n' "$name" "$(echo "$e * 1000" | bc -l)" \
    "$(echo "$r * 1000" | bc -l)" "$(echo "$r / $e" | bc -l)"
}
gen "$W/pr" pousse --n 100 --moves 100000 --palette 0 --seed 6
ratio "pousse N=100, 10^5 random moves, waterloo" "$W"/pr/*.in pousse
gen "$W/pr8" pousse --n 8 --moves 2000 --palette 0 --undecided --rules icfp98 --seed 6
ratio "pousse N=8, 2000 undecided moves, icfp98" "$W"/pr8/*.icfp98.in pousse --rules icfp98
gen "$W/lsr" littlesquares --rows 6 --cols 6 --filled 0.35 --seed 6
ratio "littlesquares 6 x 6, ~23 empty" "$W"/lsr/*.in littlesquares
gen "$W/sgr" somegame --rows 40 --cols 40 --players 2 --k 4 --fill 0.3 --perturb 0 --seed 6
ratio "somegame 40 x 40, P=2, K=4" "$W"/sgr/*.in somegame
