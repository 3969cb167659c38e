#!/usr/bin/env bash
# BAPCtools' `bt fuzz` and `referee audit --package` on the same package (examples/contest/pousse,
# copied twice): what each finds among the package's wrong submissions, in what time, and the
# cases each writes. Needs BAPCtools (scripts/ci/bapctools.sh) and a release build of referee.
# Usage: scripts/bench/bapctools_vs_audit.sh [SECONDS]   (bt fuzz's --time, default 120)
set -euo pipefail
cd "$(dirname "$0")/../.."
seconds=${1:-120}
scripts/ci/bapctools.sh >/dev/null
cargo build --release --locked --quiet
export PATH="$PWD/target/release:$PATH"
work=$(mktemp -d)
# As root, audit runs the programs as nobody, who must reach them.
chmod 755 "$work"
export XDG_CONFIG_HOME="$work/config"
for side in fuzz audit; do
    mkdir -p "$work/$side"
    cp -r examples/contest/pousse "$work/$side/"
done

echo "== bt fuzz --time $seconds, every submission not in accepted/"
# bt fuzz 2026.10.0 fails an assertion of its progress bar when it saves its first case
# (GeneratorTask.save_test starts a second item on the bar of the submission's run): it runs
# here with that one method replaced by one that logs instead, nothing else changed. It also
# fails an assertion after printing its summary: its exit code is not used.
(
    cd "$work/fuzz/pousse"
    start=$(date +%s.%N)
    "$OLDPWD/target/bapctools/bin/python" - fuzz --time "$seconds" submissions/wrong_answer \
        submissions/run_time_error submissions/time_limit_exceeded > "$work/fuzz.log" 2>&1 <<'PY' || true
import sys
from bapctools import cli, fuzz

def save_test(self, bar, submission, verdict):
    with self.save_mutex:
        if self.saved:
            return
        self.saved = True
    self.fuzz.queue.ensure_alive()
    bar.log(f"{self.i}: {self.command}: saving the test case in generators.yaml")
    self.fuzz.save_test(self.get_command(), submission, verdict)
    self.fuzz.queue.ensure_alive()

fuzz.GeneratorTask.save_test = save_test
sys.argv = ["bt", *sys.argv[1:]]
cli.main()
PY
    end=$(date +%s.%N)
    echo "wall: $(echo "$end - $start" | bc) s"
    tr '\r' '\n' < "$work/fuzz.log" | grep -E '^Fuzz: +(wrong_answer|run_time_error|time_limit_exceeded)/|Found [0-9]+ test cases' | grep -v '\[' | sort -u || true
    # The cases it found are rules in generators.yaml (data/fuzz/); bt generate writes them.
    "$OLDPWD/target/bapctools/bin/bt" generate --no-visualizer > "$work/generate.log" 2>&1 || true
    written=$(find data/fuzz -name '*.in' 2>/dev/null | wc -l)
    bytes=$(find data/fuzz -name '*.in' -exec cat {} + 2>/dev/null | wc -c)
    longest=$(find data/fuzz -name '*.in' -exec wc -l {} + 2>/dev/null | grep -v total | sort -n | tail -n 1 | awk '{print $1}')
    echo "cases written: $written ($bytes bytes of input, the longest ${longest:-0} lines)"
)

echo "== referee audit --package (the example's command)"
(
    start=$(date +%s.%N)
    target/release/referee audit pousse --package "$work/audit/pousse" --cases 400 --batch 50 \
        --seed 1 --shrink-time 5 --out "$work/audit/out" > /dev/null 2> "$work/audit.log" || true
    end=$(date +%s.%N)
    echo "wall: $(echo "$end - $start" | bc) s"
    python3 - "$work/audit/out/programs.csv" <<'PY'
import csv, sys
for row in csv.DictReader(open(sys.argv[1])):
    if row["expected"] != "accepted":
        print(f'{row["program"]}: data {row["existing-data"]}; referee: {row["does"]}; first case {row["first-case"] or "-"}')
PY
    written=$(find "$work/audit/out/tests" -name '*.in' | wc -l)
    bytes=$(find "$work/audit/out/tests" -name '*.in' -exec cat {} + | wc -c)
    longest=$(find "$work/audit/out/tests" -name '*.in' -exec wc -l {} + | grep -v total | sort -n | tail -n 1 | awk '{print $1}')
    echo "cases written: $written ($bytes bytes of input, the longest ${longest:-0} lines)"
)
echo "work directory: $work"
