#![no_main]
//! Glue only: the property is `referee::harness::fuzz::parsers_agree_and_never_panic`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    referee::harness::fuzz::parsers_agree_and_never_panic::<referee::somegame::SomeGame>(data)
});
