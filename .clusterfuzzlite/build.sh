#!/bin/bash -eu
# ClusterFuzzLite build: the same cargo-fuzz targets as fuzz/, with the sanitizer the
# infrastructure selects, copied to $OUT with their seed corpora and dictionary.
cd "$SRC/referee/fuzz"
cargo fuzz build -O --debug-assertions
for target in pousse_engine_matches_reference pousse_parsers_agree_and_never_panic \
              littlesquares_engine_matches_reference somegame_engine_matches_reference \
              somegame_matches_reachability_oracle; do
  cp "target/x86_64-unknown-linux-gnu/release/$target" "$OUT/"
  (cd "seeds/$target" && zip -q -r "$OUT/${target}_seed_corpus.zip" .)
done
cp pousse.dict "$OUT/pousse_parsers_agree_and_never_panic.dict"
