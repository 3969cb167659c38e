#!/usr/bin/env bash
# Line coverage of each cargo-fuzz target: the committed seeds grown by SECONDS of fuzzing
# (default 60, seed 1), replayed by `cargo fuzz coverage` and summarised with llvm-cov per source file
# of the library and the reference that the target reaches at all (Debian's llvm-19: its tools read the profiles
# of this Rust's LLVM). Prints a Markdown table per target; `llvm-cov show` on the same
# profile shows the uncovered lines. Usage: scripts/eval/fuzz_coverage.sh [SECONDS] [TARGET...]
set -euo pipefail
cd "$(dirname "$0")/../../fuzz"
seconds=${1:-60}
shift || true
llvm=${LLVM_PATH:-/usr/lib/llvm-19/bin}
[ -x "$llvm/llvm-cov" ] || { echo "no llvm-cov in $llvm (apt-get install llvm-19)"; exit 2; }
targets=("$@")
[ ${#targets[@]} -gt 0 ] || mapfile -t targets < <(cargo fuzz list)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for target in "${targets[@]}"; do
  corpus="$work/$target"
  mkdir -p "$corpus"
  cp "seeds/$target"/* "$corpus/"
  dict=()
  [ "$target" = pousse_parsers_agree_and_never_panic ] && dict=(-dict=pousse.dict)
  cargo fuzz run -s none "$target" "$corpus" -- -max_total_time="$seconds" -seed=1 \
    -timeout=10 "${dict[@]}" >/dev/null 2>&1
  cargo fuzz coverage -s none --llvm-path "$llvm" "$target" "$corpus" >/dev/null 2>&1
  binary=target/x86_64-unknown-linux-gnu/coverage/x86_64-unknown-linux-gnu/release/$target
  echo
  echo "#### $target ($(find "$corpus" -type f | wc -l) inputs after ${seconds} s)"
  echo
  echo "| file | lines | covered |"
  echo "|---|---|---|"
  "$llvm/llvm-cov" report "$binary" -instr-profile="coverage/$target/coverage.profdata" \
    --ignore-filename-regex='(\.cargo|rustc|/fuzz/)' 2>/dev/null \
    | awk '
        $1 ~ /\.rs$/ && $8 > 0 && $9 < $8 {
          printf "| %s | %d | %d (%s) |\n", $1, $8, $8 - $9, $10
          lines += $8; missed += $9
        }
        END { printf "| files reached | %d | %d (%.2f%%) |\n", lines, lines - missed, 100 * (lines - missed) / lines }'
done
