#!/usr/bin/env bash
# `referee verify` on one multi-case file against the same games split into many files, every
# case cross-examined by both implementations in both runs, side by side in one run:
#   - one UVa 844 file of GAMES six-by-six games (default 10^6, 98 bytes each) with its `.ans`;
#   - the same games and answers split into 1,000 files;
#   - verify of the one file with --jobs 2 and --jobs 1, verify of the 1,000 files with --jobs 2.
# Prints the best of RUNS wall times (timings on shared machines are noisy; the best run is the
# least disturbed), their ratios, and the peak resident memory (GNU time) of the one-file run.
# With HUGE=1, also one file of 10x the games, once, with its time and peak memory.
# Usage: scripts/bench/big_file_bench.sh   (GAMES=1000000 RUNS=3 HUGE=0)
set -euo pipefail
cd "$(dirname "$0")/../.."
GAMES=${GAMES:-1000000}
RUNS=${RUNS:-3}
HUGE=${HUGE:-0}
[ -x /usr/bin/time ] || { echo "needs GNU time (apt-get install time)"; exit 2; }
cargo build --release --quiet
B=$PWD/target/release/referee
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

# One file of GAMES games and its answers, then the same games in 1,000 files.
one() { # DIR GAMES
  "$B" gen pousse --out "$1" --count 1 --form multi --per-file "$2" --n 6 --moves 30 --answers >/dev/null
}
one "$W/one" "$GAMES"
python3 - "$W/one" "$W/many" 1000 <<'PY'
import os, sys
src, dst, parts = sys.argv[1], sys.argv[2], int(sys.argv[3])
os.makedirs(dst)
with open(os.path.join(src, "pousse-1-000000.in")) as f:
    count = int(f.readline())
    games, game = [], []
    for line in f:
        if line.strip() == "" and not game:
            continue
        game.append(line)
        if line.startswith("QUIT"):
            games.append("".join(game))
            game = []
with open(os.path.join(src, "pousse-1-000000.ans")) as f:
    answers = [l for l in f if l.strip()]
assert len(games) == count == len(answers)
per = count // parts
for p in range(parts):
    chunk = games[p * per:(p + 1) * per] if p < parts - 1 else games[p * per:]
    ans = answers[p * per:(p + 1) * per] if p < parts - 1 else answers[p * per:]
    name = os.path.join(dst, f"part-{p:04d}")
    with open(name + ".in", "w") as f:
        f.write(f"{len(chunk)}\n")
        for g in chunk:
            f.write("\n" + g)
    with open(name + ".ans", "w") as f:
        f.writelines(ans)
PY

. scripts/bench/best_time.sh
# Every case cross-examined: GAMES rows, all `ok` (engine, reference and answer agree).
all_ok() { # REPORT_DIR
  local ok
  ok=$(grep -c ',ok,' "$1/verdicts.csv" || true)
  [ "$ok" = "$GAMES" ] || { echo "$1: $ok of $GAMES cases ok"; exit 1; }
}
peak() { # prints the peak resident memory in MB of one run of the command
  /usr/bin/time -f '%M' "$@" 2>&1 >/dev/null | tail -1 | awk '{printf "%.1f", $1 / 1024}'
}

t_one2=$(best "$B" verify "$W/one" --jobs 2 --out "$W/r1")
all_ok "$W/r1"
t_many2=$(best "$B" verify "$W/many" --jobs 2 --out "$W/r2")
all_ok "$W/r2"
t_one1=$(best "$B" verify "$W/one" --jobs 1 --out "$W/r3")
all_ok "$W/r3"
cmp -s "$W/r1/verdicts.csv" "$W/r3/verdicts.csv" || { echo "reports differ between jobs 1 and 2"; exit 1; }
m_one=$(peak "$B" verify "$W/one" --jobs 2 --out "$W/r4")
bytes=$(stat -c %s "$W/one/pousse-1-000000.in")
printf 'one file of %d games (%d bytes), every case cross-examined\n' "$GAMES" "$bytes"
printf '  one file, --jobs 2:          %7.3f s  peak %s MB\n' "$t_one2" "$m_one"
printf '  1,000 files, --jobs 2:       %7.3f s\n' "$t_many2"
printf '  one file, --jobs 1:          %7.3f s\n' "$t_one1"
printf '  one file / 1,000 files:      %7.2f  (target <= 1.2)\n' "$(echo "$t_one2 / $t_many2" | bc -l)"
printf '  --jobs 1 / --jobs 2:         %7.2f  (target >= 1.7)\n' "$(echo "$t_one1 / $t_one2" | bc -l)"
if [ "$HUGE" = 1 ]; then
  rm -rf "$W/many" "$W/r"*
  GAMES=$((GAMES * 10))
  one "$W/huge" "$GAMES"
  s=$(date +%s.%N)
  m_huge=$(peak "$B" verify "$W/huge" --jobs 2 --out "$W/r5")
  e=$(date +%s.%N)
  all_ok "$W/r5"
  printf 'one file of %d games (%d bytes), --jobs 2: %.1f s  peak %s MB\n' "$GAMES" \
    "$(stat -c %s "$W/huge/pousse-1-000000.in")" "$(echo "$e - $s" | bc -l)" "$m_huge"
fi
