#!/usr/bin/env bash
# Checks .clusterfuzzlite/build.sh where ClusterFuzzLite cannot run (it needs Docker): runs it
# as the builder image would, with $SRC holding the repository and an empty $OUT, without a
# sanitizer, and requires a binary and a seed corpus in $OUT for every target of fuzz/.
set -euo pipefail
cd "$(dirname "$0")/../.."
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/src" "$tmp/out"
ln -s "$PWD" "$tmp/src/referee"
SRC="$tmp/src" OUT="$tmp/out" SANITIZER=none bash .clusterfuzzlite/build.sh
targets=$(cd fuzz && cargo fuzz list)
for target in $targets; do
  [ -x "$tmp/out/$target" ] || { echo "build.sh did not build $target"; exit 1; }
  unzip -tq "$tmp/out/${target}_seed_corpus.zip" >/dev/null
  # The binary runs its seed corpus without a finding.
  mkdir -p "$tmp/run/$target"
  unzip -q "$tmp/out/${target}_seed_corpus.zip" -d "$tmp/run/$target"
  "$tmp/out/$target" -runs=0 "$tmp/run/$target" >/dev/null 2>&1
done
[ -f "$tmp/out/pousse_parsers_agree_and_never_panic.dict" ]
echo "build.sh built $(echo "$targets" | wc -w) targets, each with its seed corpus"
