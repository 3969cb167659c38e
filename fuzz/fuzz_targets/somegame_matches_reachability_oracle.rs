#![no_main]
//! Glue only: the property lives in `referee::harness::fuzz::somegame_matches_reachability_oracle`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| referee::harness::fuzz::somegame_matches_reachability_oracle(data));
