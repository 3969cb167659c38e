#!/usr/bin/env bash
# The README's test command on a loaded machine: `cargo test` three times (RUNS) while one
# `yes > /dev/null` per core keeps every core busy. No test asserts wall-clock time (hang guards
# of ten times the expected time aside), so every run must pass; a failure prints its log's end.
# Usage: [RUNS=3] scripts/ci/test_under_load.sh [cargo test arguments...]
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-3}
cargo test --no-run --quiet "$@"
cores=$(nproc)
pids=()
log=$(mktemp)
stop() { kill "${pids[@]}" 2>/dev/null || true; rm -f "$log"; }
trap stop EXIT
for _ in $(seq "$cores"); do
  yes > /dev/null &
  pids+=($!)
done
for run in $(seq "$RUNS"); do
  started=$(date +%s)
  if cargo test --quiet "$@" > "$log" 2>&1; then
    echo "run $run of $RUNS under load (load average $(cut -d' ' -f1 /proc/loadavg) on $cores cores): passed in $(( $(date +%s) - started )) s"
  else
    echo "run $run of $RUNS under load: FAILED; the end of its log:"
    tail -n 60 "$log"
    exit 1
  fi
done
