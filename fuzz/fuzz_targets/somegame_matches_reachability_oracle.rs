#![no_main]
//! Glue only: the property is `referee::harness::fuzz::matches_oracle`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    referee::harness::fuzz::matches_oracle::<referee::somegame::SomeGame>(data)
});
