#!/usr/bin/env bash
# The example contest audited as .ci/run compares it across kernels: examples/contest/pousse
# at a fixed seed, the data and the contest's extremes only (no random cases, no repeated runs
# for the limits, a short shrinking), confined. Writes OUT/programs.txt: programs.csv's columns
# that no measured value changes (program, expected, does, existing-data, form, verdict), and
# OUT/contest.log, the audit's summary. Exits 0 when the audit ran (its own exit 0 or 1).
# Usage: scripts/ci/contest_audit.sh OUT
set -uo pipefail
cd "$(dirname "$0")/../.." || exit 1
out=$1
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
chmod 755 "$work"
target/release/referee audit pousse --package examples/contest/pousse --cases 0 --repeat 0 \
  --timeout 20 \
  --seed 1 --shrink-time 1 --out "$work/contest" > "$out/contest.log" 2>&1
code=$?
if [ $code -gt 1 ]; then
  echo "contest_audit.sh: the audit exited $code" >&2
  tail -n 20 "$out/contest.log" >&2
  exit 1
fi
python3 - "$work/contest/programs.csv" > "$out/programs.txt" <<'PY'
import csv, sys
for row in csv.DictReader(open(sys.argv[1], newline="")):
    print(",".join(row[c] for c in ("program", "expected", "does", "existing-data", "form", "verdict")))
PY
