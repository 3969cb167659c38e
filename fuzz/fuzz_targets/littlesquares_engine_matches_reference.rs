#![no_main]
//! Glue only: the property is `referee::harness::fuzz::engine_matches_reference`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    referee::harness::fuzz::engine_matches_reference::<referee::littlesquares::LittleSquares>(data)
});
