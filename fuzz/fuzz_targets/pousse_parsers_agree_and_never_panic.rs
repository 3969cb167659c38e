#![no_main]
//! Glue only: the property lives in `referee::harness::fuzz::pousse_parsers_agree_and_never_panic`.
libfuzzer_sys::fuzz_target!(|data: &[u8]| referee::harness::fuzz::pousse_parsers_agree_and_never_panic(data));
