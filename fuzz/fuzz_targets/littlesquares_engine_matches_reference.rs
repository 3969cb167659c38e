#![no_main]
//! Glue only: the property lives in `referee::harness::fuzz::littlesquares_engine_matches_reference`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| referee::harness::fuzz::littlesquares_engine_matches_reference(data));
