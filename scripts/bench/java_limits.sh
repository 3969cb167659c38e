#!/usr/bin/env bash
# A Java submission's advised time limit beside problemtools' own: the LittleSquares package
# (`referee package littlesquares --format-version legacy`) with examples/judges/LittleSquares.java
# added to its accepted submissions; `referee audit --repeat 5 --cases 0 --jobs J` advises the
# limits (CPU time of every thread of the JVM, the slowest of 5 runs per data file), and Kattis
# problemtools' `verifyproblem -p submissions` runs each submission once per file and sets its
# own time limit from the slowest accepted run. problemtools' Java compile line asks for
# `-source 21`; with an older JDK the script gives it the same line without (a user config).
# Needs javac and problemtools (scripts/ci/problemtools.sh). Usage:
# [RUNS=3] scripts/bench/java_limits.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-3}
cargo build --release --quiet
B=$PWD/target/release/referee
VERIFY=${REFEREE_VERIFYPROBLEM:-$PWD/target/problemtools/bin/verifyproblem}
[ -x "$VERIFY" ] || { echo "problemtools is not installed (scripts/ci/problemtools.sh)"; exit 2; }
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
# As root, audit runs the programs as nobody, who must reach them.
chmod 755 "$W"
"$B" package littlesquares --out "$W/littlesquares" --format-version legacy >/dev/null 2>&1
cp examples/judges/LittleSquares.java "$W/littlesquares/submissions/accepted/"
chmod -R a+rX "$W/littlesquares"
mkdir -p "$W/config/problemtools"
printf "java:\n    compile: 'javac -encoding UTF-8 -sourcepath {path} -d {path} {files}'\n" \
  >"$W/config/problemtools/languages.yaml"
echo "| run | referee audit --jobs 1 | referee audit --jobs 2 | problemtools |"
echo "|---|---|---|---|"
for run in $(seq "$RUNS"); do
  row="| $run"
  for jobs in 1 2; do
    advice=$("$B" audit littlesquares --package "$W/littlesquares" --repeat 5 --cases 0 \
      --jobs "$jobs" --out "$W/audit" 2>&1 | sed -n 's/^  time limit: \([0-9.]* s\), from accepted\/\([^ ]*\) .*(\([0-9.]*-[0-9.]* s\).*/\1 (\2, its runs \3)/p')
    row="$row | $advice"
  done
  verified=$(PATH="$PWD/target/release:$PATH" XDG_CONFIG_HOME="$W/config" \
    "$VERIFY" "$W/littlesquares" -p submissions 2>&1 |
    sed -n 's/.*Slowest AC runtime: \([0-9.]*\), setting timelim to \([0-9]*\) secs.*/\2 s (slowest accepted run \1 s)/p')
  echo "$row | $verified |"
done
