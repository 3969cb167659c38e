#!/usr/bin/env bash
# audit's throughput against the program it audits, measured in one run, for each game's fast C
# judge of examples/judges (Pousse: pousse.c; LittleSquares: littlesquares.c):
#   - referee audit GAME --batch B --jobs J on the default random cases (extremes included),
#     best of 3, for B = 100 and 1 and J = 1 and 2;
#   - the bare program on the very inputs of those runs (written once by --save-runs), started
#     one after the other as audit starts them (scripts/bench/back_to_back.c).
# Prints a Markdown table and the ratios the targets are about: audit's cases/s over the bare
# program's at --batch 100 (referee's own generation, judging and comparison hidden or cheap:
# at least 0.8), and --batch 100 over --batch 1, for audit and, as its ceiling, for the bare
# program (what batching can save is process start; a program slow per case caps it).
# Needs cc. Usage: [CASES=20000] [CASES1=3000] scripts/bench/audit_bench.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
CASES=${CASES:-20000}
CASES1=${CASES1:-3000}
cargo build --release --quiet
B=$PWD/target/release/referee
W=$(mktemp -d)
# As root, audit runs the programs as nobody, who must reach them.
chmod 755 "$W"
trap 'rm -rf "$W"' EXIT
cc -O2 -o "$W/back_to_back" scripts/bench/back_to_back.c
cc -O2 -o "$W/pousse" examples/judges/pousse.c
cc -O2 -o "$W/littlesquares" examples/judges/littlesquares.c

# audit GAME BATCH JOBS CASES: audit's cases per second, best of 3.
audit_rate() {
  local best=0 r
  for _ in 1 2 3; do
    r=$("$B" audit "$1" --cmd "$W/$1" --cases "$4" --batch "$2" --jobs "$3" --out "$W/out" 2>&1 \
      | sed -n 's/.* cases in .* (\([0-9.]*\) cases\/s).*/\1/p')
    best=$(python3 -c "print(max($best, ${r:-0}))")
  done
  echo "$best"
}
# bare GAME BATCH CASES: the bare program's cases per second on the inputs of that audit, best
# of 3.
bare_rate() {
  rm -rf "$W/runs"
  "$B" audit "$1" --cmd "$W/$1" --cases "$3" --batch "$2" --jobs 1 --out "$W/out" \
    --save-runs "$W/runs" 2>/dev/null || true
  local best=0 secs
  for _ in 1 2 3; do
    secs=$("$W/back_to_back" "$W/$1" "$W"/runs/*.in)
    best=$(python3 -c "print(max($best, $3 / $secs))")
  done
  echo "$best"
}

echo "| game | run | cases/s |"
echo "|---|---|---|"
for game in pousse littlesquares; do
  a100=$(audit_rate $game 100 1 "$CASES"); b100=$(bare_rate $game 100 "$CASES")
  a1=$(audit_rate $game 1 1 "$CASES1"); b1=$(bare_rate $game 1 "$CASES1")
  a100j2=$(audit_rate $game 100 2 "$CASES"); a1j2=$(audit_rate $game 1 2 "$CASES1")
  for row in "bare program, batches of 100, one at a time:$b100" "audit --batch 100 --jobs 1:$a100" \
             "audit --batch 100 --jobs 2:$a100j2" "bare program, one case per run:$b1" \
             "audit --batch 1 --jobs 1:$a1" "audit --batch 1 --jobs 2:$a1j2"; do
    python3 -c "print(f'| $game | ${row%%:*} | {float(${row##*:}):.0f} |')"
  done
  python3 - "$game" "$a100" "$b100" "$a1" "$b1" "$a100j2" "$a1j2" <<'PY' >> "$W/ratios"
import sys
game = sys.argv[1]
a100, b100, a1, b1, a100j2, a1j2 = map(float, sys.argv[2:])
print(f"- {game}: audit / bare program at --batch 100: {a100 / b100:.2f} (target: at least 0.8)")
print(f"- {game}: --batch 100 / --batch 1: audit {a100 / a1:.1f} (target: at least 20), "
      f"the bare program {b100 / b1:.1f}")
print(f"- {game}: --jobs 2 / --jobs 1: --batch 100 {a100j2 / a100:.2f}, --batch 1 {a1j2 / a1:.2f}")
PY
done
echo
cat "$W/ratios"
