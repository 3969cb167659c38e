#!/usr/bin/env bash
# Parallel speedup of `referee verify` on 10,000 small generated cases (a third of each game,
# with engine answers), --jobs 1 against --jobs 2, best of RUNS runs each (timings on shared
# machines are noisy; the best run is the least disturbed). Usage: scripts/bench/verify_speedup.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-3}
cargo build --release --quiet
B=$PWD/target/release/referee
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
$B gen pousse --out "$W/p" --count 3400 --n 6 --moves 60 --palette 3 --rules icfp98 --answers
$B gen littlesquares --out "$W/l" --count 3300 --rows 4 --cols 5 --filled 0.3 --answers
$B gen somegame --out "$W/s" --count 3300 --rows 5 --cols 5 --players 2 --k 3 --fill 0.5 --perturb 0 --answers
. scripts/bench/best_time.sh
# The machine's own parallel speedup in the same run: two CPU-bound processes at once against
# one after the other (shared virtual CPUs often deliver less than 2).
burn() { awk 'BEGIN { s = 0; for (i = 0; i < 3e7; i++) s += i * i }'; }
serial() { burn; burn; }
parallel() { burn & burn & wait; }
b1=$(best serial)
b2=$(best parallel)
printf 'machine baseline (2 CPU-bound processes)  serial: %6.3f s  parallel: %6.3f s  speedup %.2f\n' \
  "$b1" "$b2" "$(echo "$b1 / $b2" | bc -l)"
for mode in "" "--no-reference"; do
  t1=$(best "$B" verify "$W" --jobs 1 --out "$W/r1" $mode)
  t2=$(best "$B" verify "$W" --jobs 2 --out "$W/r2" $mode)
  cmp -s "$W/r1/verdicts.csv" "$W/r2/verdicts.csv" || { echo "reports differ between jobs 1 and 2"; exit 1; }
  printf 'verify 10000 files %-15s jobs 1: %6.3f s  jobs 2: %6.3f s  speedup %.2f  per file (jobs 1): %.0f us\n' \
    "${mode:-(with reference)}" "$t1" "$t2" "$(echo "$t1 / $t2" | bc -l)" "$(echo "$t1 * 100" | bc -l)"
done
