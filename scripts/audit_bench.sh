#!/usr/bin/env bash
# audit's throughput against process start, measured in one run: the bare spawn rate (`/bin/true`
# run N times by hyperfine -N, no shell), then `referee audit` on the C Pousse judge of
# examples/judges with --batch 1 and --batch 100, with --jobs 1 and --jobs 2. Prints a Markdown
# table and the three ratios the targets are about. Needs hyperfine (Debian package) and cc.
# Usage: [CASES=5000] scripts/audit_bench.sh
set -euo pipefail
cd "$(dirname "$0")/.."
CASES=${CASES:-5000}
cargo build --release --quiet
B=$PWD/target/release/referee
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cc -O2 -o "$W/judge" examples/judges/pousse.c
command -v hyperfine >/dev/null || { echo "hyperfine is needed (apt-get install hyperfine)" >&2; exit 2; }
hyperfine -N --warmup 100 --runs "$CASES" --export-json "$W/true.json" /bin/true >/dev/null 2>&1
bare=$(python3 -c "import json,sys; print(1 / json.load(open(sys.argv[1]))['results'][0]['mean'])" "$W/true.json")
rate() { # batch jobs: audit's cases per second (best of 3)
  local best=0 r
  for _ in 1 2 3; do
    r=$("$B" audit pousse --cmd "$W/judge" --cases "$CASES" --batch "$1" --jobs "$2" --out "$W/out" 2>&1 \
      | sed -n 's/.*(\([0-9.]*\) cases\/s).*/\1/p')
    best=$(python3 -c "print(max($best, $r))")
  done
  echo "$best"
}
b1j1=$(rate 1 1); b1j2=$(rate 1 2); b100j1=$(rate 100 1); b100j2=$(rate 100 2)
echo "| run | cases/s | time per case |"
echo "|---|---|---|"
for row in "bare spawn (/bin/true), one at a time:$bare" "audit --batch 1 --jobs 1:$b1j1" \
           "audit --batch 1 --jobs 2:$b1j2" "audit --batch 100 --jobs 1:$b100j1" \
           "audit --batch 100 --jobs 2:$b100j2"; do
  name=${row%%:*}; r=${row##*:}
  python3 -c "print(f'| $name | {float($r):.0f} | {1e6/float($r):.0f} us |')"
done
python3 - "$bare" "$b1j1" "$b1j2" "$b100j1" <<'PY'
import sys
bare, b1j1, b1j2, b100j1 = map(float, sys.argv[1:])
print()
print(f"- --batch 1 time per case / bare spawn time: {bare / b1j1:.2f} (target: at most 1.5)")
print(f"- --batch 100 / --batch 1 cases per second: {b100j1 / b1j1:.1f} (target: at least 20)")
print(f"- --jobs 2 / --jobs 1 at --batch 1: {b1j2 / b1j1:.2f} (target: at least 1.7)")
PY
