#!/usr/bin/env bash
# How verify, grade and merge scale with the number of files: for each size in SIZES, that many
# small Pousse games (`gen pousse --n 6 --moves 30 --answers`), then
#   - verify DIR (engine, reference and the .ans of every file);
#   - grade, one submission whose .out files are the answers (hard links);
#   - verify --shard 1/2 and 2/2, then merge of the two.
# Each is timed with /usr/bin/time (wall seconds, peak resident memory). Prints a Markdown
# table: files, step, seconds, microseconds per file, peak MiB and peak bytes per file. A
# driver linear in the number of files keeps microseconds per file flat across sizes.
# Usage: [SIZES="10000 100000 1000000"] [JOBS=2] scripts/scale_bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
SIZES=${SIZES:-"10000 100000 1000000"}
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

echo "| files | step | seconds | us per file | peak MiB | peak bytes per file |"
echo "|---|---|---|---|---|---|"
for n in $SIZES; do
  rm -rf "$W/cases" "$W/subs" "$W"/out*
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
  step "$n" "grade" "$B" grade --cases "$W/cases" --submissions "$W/subs" --jobs "$JOBS" \
    --out "$W/out-grade"
  "$B" verify "$W/cases" --jobs "$JOBS" --shard 1/2 --out "$W/out1" >/dev/null 2>&1 || true
  "$B" verify "$W/cases" --jobs "$JOBS" --shard 2/2 --out "$W/out2" >/dev/null 2>&1 || true
  step "$n" "merge" "$B" merge "$W/out1" "$W/out2" --out "$W/out-merged"
done
