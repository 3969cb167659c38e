#!/usr/bin/env bash
# What the limits' advice costs an audit: the example contest audited with --repeat 0 and with
# --repeat K (default 5), in one run. Prints each run's wall-clock seconds, CPU seconds (user
# + system of referee and every program it ran), runs, and the seconds of the repeated runs'
# stage, then the ratios.
# Usage: [K=5] [CASES=400] scripts/bench/repeat_bench.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
K=${K:-5}
CASES=${CASES:-400}
cargo build --release --quiet
B=$PWD/target/release/referee
W=$(mktemp -d)
# As root, audit runs the programs as nobody, who must reach the builds.
chmod 755 "$W"
trap 'rm -rf "$W"' EXIT
walls=()
cpus=()
for repeat in 0 "$K"; do
  /usr/bin/time -f "%e %U %S" -o "$W/time-$repeat" "$B" audit pousse \
    --package examples/contest/pousse --cases "$CASES" --seed 1 --shrink-time 5 \
    --repeat "$repeat" --out "$W/out-$repeat" 2> "$W/log-$repeat" || true
  # The last line: time writes "Command exited with non-zero status 1" first (audit exits 1
  # when the package's verdict lists anything).
  read -r wall user sys < <(tail -n 1 "$W/time-$repeat")
  runs=$(grep -o '[0-9]* runs (' "$W/log-$repeat" | grep -o '^[0-9]*')
  stage=$(grep -o 'repeated runs [0-9.]* s' "$W/log-$repeat" | grep -o '[0-9.]* s')
  cpu=$(awk "BEGIN { print $user + $sys }")
  echo "--repeat $repeat: wall $wall s, CPU $cpu s, $runs runs, repeated runs' stage $stage"
  walls+=("$wall")
  cpus+=("$cpu")
done
awk "BEGIN { printf \"wall --repeat $K / --repeat 0: %.2f\\n\", ${walls[1]} / ${walls[0]} }"
awk "BEGIN { printf \"CPU  --repeat $K / --repeat 0: %.2f\\n\", ${cpus[1]} / ${cpus[0]} }"
