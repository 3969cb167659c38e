#![no_main]
//! Glue only: the property is `referee::somegame::oracle::fuzz_property`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| referee::somegame::oracle::fuzz_property(data));
