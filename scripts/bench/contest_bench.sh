#!/usr/bin/env bash
# A contest audit against the same programs audited one by one, measured in one run: P copies
# of examples/judges/pousse.c (a correct judge, so every program runs every case) audited
#   - together: referee audit pousse --cmd p1=... --cmd pP=... (each case generated and judged
#     once, at most --jobs runs at once across the programs);
#   - one by one: P runs of referee audit pousse --cmd ... on the same cases (each generating
#     and judging every case again).
# Prints the wall-clock times (best of 3), their ratio, and the cases the engine judged in
# each (audit.json's cases_judged against P times the cases).
# Needs cc. Usage: [PROGRAMS=4] [CASES=20000] [BATCH=100] [JOBS=2] scripts/bench/contest_bench.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
PROGRAMS=${PROGRAMS:-4}
CASES=${CASES:-20000}
BATCH=${BATCH:-100}
JOBS=${JOBS:-2}
cargo build --release --quiet
B=$PWD/target/release/referee
W=$(mktemp -d)
# As root, audit runs the programs as nobody, who must reach them.
chmod 755 "$W"
trap 'rm -rf "$W"' EXIT
cc -O2 -o "$W/judge" examples/judges/pousse.c
flags=(--cases "$CASES" --batch "$BATCH" --jobs "$JOBS")

# best FUNCTION: the best wall-clock seconds of 3 calls of the function.
best() {
  local best="" t start
  for _ in 1 2 3; do
    start=$(date +%s.%N)
    "$1" >/dev/null 2>&1
    t=$(awk -v a="$(date +%s.%N)" -v b="$start" 'BEGIN { printf "%.2f", a - b }')
    if [ -z "$best" ] || awk -v a="$t" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$t; fi
  done
  echo "$best"
}

together() {
  local cmds=()
  for i in $(seq "$PROGRAMS"); do cmds+=(--cmd "p$i=$W/judge"); done
  "$B" audit pousse "${cmds[@]}" "${flags[@]}" --out "$W/together"
}
one_by_one() {
  for i in $(seq "$PROGRAMS"); do
    "$B" audit pousse --cmd "$W/judge" "${flags[@]}" --out "$W/alone$i"
  done
}

t_together=$(best together)
t_alone=$(best one_by_one)
judged=$(sed -n 's/.*"cases_judged": \([0-9]*\).*/\1/p' "$W/together/audit.json" | head -n 1)
echo "| programs | cases each | --batch | --jobs | together (s) | one by one (s) | one by one / together | cases judged together | one by one |"
echo "|---|---|---|---|---|---|---|---|---|"
echo "| $PROGRAMS | $CASES | $BATCH | $JOBS | $t_together | $t_alone | $(awk -v a="$t_alone" -v b="$t_together" 'BEGIN { printf "%.2f", a / b }') | $judged | $((PROGRAMS * CASES)) |"
