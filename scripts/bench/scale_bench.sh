#!/usr/bin/env bash
# How verify, grade and merge scale with the number of files: for each size in SIZES, that many
# small Pousse games (`gen pousse --n 6 --moves 30 --answers`), then
#   - verify DIR (engine, reference and the .ans of every file), and again with --html;
#   - grade, one submission whose .out files are the answers (hard links);
#   - verify --shard K/10 and K/100 for every K, then merge of the 10 and of the 100 shards;
# and one UVa 844 input of LARGE_GAMES games (a count, then games of 6 x 6 and 30 moves), with
# its .ans, verified (streamed by the engine: it is larger than verify holds in memory).
# Each is timed with /usr/bin/time (wall seconds, peak resident memory). Prints a Markdown
# table: files, step, seconds, microseconds per file, peak MiB and peak bytes per file. A
# driver linear in the number of files keeps microseconds per file flat across sizes; one that
# streams keeps peak MiB flat.
# Usage: [SIZES="10000 100000 1000000"] [LARGE_GAMES=10000000] [JOBS=2] scripts/bench/scale_bench.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
SIZES=${SIZES:-"10000 100000 1000000"}
LARGE_GAMES=${LARGE_GAMES:-10000000}
JOBS=${JOBS:-2}
cargo build --release --quiet
B=$PWD/target/release/referee
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT

# step FILES NAME COMMAND...: runs COMMAND under /usr/bin/time and prints a table row.
step() {
  local files=$1 name=$2
  shift 2
  /usr/bin/time -f "%e %M" -o "$W/time" "$@" >/dev/null 2>"$W/stderr" || {
    # Exit 1 only says something disagreed; anything else is a failure of the benchmark.
    [ $? -eq 1 ] || { cat "$W/stderr" >&2; exit 1; }
  }
  read -r secs kib <"$W/time"
  python3 -c "
files, secs, kib = $files, $secs, $kib
print(f'| {files} | $name | {secs:.2f} | {secs / files * 1e6:.1f} | {kib / 1024:.0f} | {kib * 1024 / files:.0f} |')"
}

# shards N: the verify reports of the N shards of the cases, in $W/shards-N/K.
shards() {
  local n=$1
  mkdir -p "$W/shards-$n"
  for k in $(seq 1 "$n"); do
    "$B" verify "$W/cases" --jobs "$JOBS" --shard "$k/$n" --out "$W/shards-$n/$k" >/dev/null 2>&1 || true
  done
}

echo "| files | step | seconds | us per file | peak MiB | peak bytes per file |"
echo "|---|---|---|---|---|---|"
for n in $SIZES; do
  rm -rf "$W/cases" "$W/subs" "$W"/out* "$W"/shards-*
  "$B" gen pousse --n 6 --moves 30 --count "$n" --seed 7 --answers --out "$W/cases" 2>/dev/null
  python3 - "$W/cases" "$W/subs/copy" <<'PY'
import os, sys
cases, copy = sys.argv[1:]
for root, _, names in os.walk(cases):
    target = os.path.join(copy, os.path.relpath(root, cases))
    os.makedirs(target, exist_ok=True)
    for name in names:
        if name.endswith(".ans"):
            os.link(os.path.join(root, name), os.path.join(target, name[:-4] + ".out"))
PY
  step "$n" "verify" "$B" verify "$W/cases" --jobs "$JOBS" --out "$W/out"
  step "$n" "verify --html" "$B" verify "$W/cases" --jobs "$JOBS" --out "$W/out-html" \
    --html "$W/report.html"
  echo "<!-- $n files: the HTML page has $(stat -c %s "$W/report.html") bytes -->"
  step "$n" "grade" "$B" grade --cases "$W/cases" --submissions "$W/subs" --jobs "$JOBS" \
    --out "$W/out-grade"
  shards 10
  step "$n" "merge of 10 shards" "$B" merge "$W"/shards-10/* --out "$W/out-merged-10"
  shards 100
  step "$n" "merge of 100 shards" "$B" merge "$W"/shards-100/* --out "$W/out-merged-100"
  cmp "$W/out/verdicts.csv" "$W/out-merged-100/verdicts.csv"
done

if [ "$LARGE_GAMES" -gt 0 ]; then
  rm -rf "$W/cases" "$W/subs" "$W"/out* "$W"/shards-*
  mkdir -p "$W/large"
  python3 - "$W/large/games.in" "$W/one-game" "$LARGE_GAMES" <<'PY'
import sys
path, one, games = sys.argv[1], sys.argv[2], int(sys.argv[3])
moves = "".join(f"{'LTRB'[i % 4]}{1 + i % 6}\n" for i in range(30))
with open(one, "w") as f:
    f.write(f"6\n{moves}QUIT\n")
game = f"\n6\n{moves}QUIT\n"
with open(path, "w") as f:
    f.write(f"{games}\n")
    chunk = game * 10000
    for _ in range(games // 10000):
        f.write(chunk)
    f.write(game * (games % 10000))
PY
  verdict=$("$B" judge pousse "$W/one-game")
  { yes "$verdict" || true; } | head -n "$LARGE_GAMES" >"$W/large/games.ans"
  echo "<!-- one file of $LARGE_GAMES games: $(stat -c %s "$W/large/games.in") bytes -->"
  step "$LARGE_GAMES" "verify, one file of $LARGE_GAMES games" "$B" verify "$W/large" --jobs "$JOBS" --out "$W/out-large"
fi
