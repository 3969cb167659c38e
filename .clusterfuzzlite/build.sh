#!/bin/bash -eu
# ClusterFuzzLite build: every cargo-fuzz target of fuzz/ (as `cargo fuzz list` names them),
# with the sanitizer the infrastructure selects, copied to $OUT with its seed corpus and, for
# the raw-bytes target, its dictionary. SANITIZER=none builds without one, on stable Rust, as
# scripts/ci/check_fuzz_build.sh does to check this script where ClusterFuzzLite cannot run.
cd "$SRC/referee/fuzz"
sanitizer=()
if [ "${SANITIZER:-}" = none ]; then
  sanitizer=(-s none)
fi
cargo fuzz build -O --debug-assertions "${sanitizer[@]}"
for target in $(cargo fuzz list); do
  cp "target/x86_64-unknown-linux-gnu/release/$target" "$OUT/"
  (cd "seeds/$target" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
done
cp pousse.dict "$OUT/pousse_parsers_agree_and_never_panic.dict"
