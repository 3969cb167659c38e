//! The properties the cargo-fuzz targets check, as plain functions over the fuzzer's bytes, so
//! that a target is one line of glue and every saved input replays in an ordinary test
//! (`tests/regressions.rs`). Decoding uses `arbitrary_take_rest`, as libfuzzer-sys does.

use arbitrary::{Arbitrary, Unstructured};

use super::littlesquares::GridCase;
use super::pousse::PousseCase;
use super::somegame::BoardCase;
use super::{compare, Case};
use crate::game::Pousse;
use crate::pousse::Rules;

/// Decodes a structured case and panics, explaining, if engine and reference disagree on it.
pub fn engine_matches_reference<C>(data: &[u8])
where
    C: Case + for<'a> Arbitrary<'a>,
{
    let Ok(case) = C::arbitrary_take_rest(Unstructured::new(data)) else {
        return;
    };
    if let Err(d) = compare::<C::G>(&case.input(), case.options()) {
        panic!("engine and reference disagree\n{d}\ninput:\n{case:?}");
    }
}

/// `pousse_engine_matches_reference`.
pub fn pousse_engine_matches_reference(data: &[u8]) {
    engine_matches_reference::<PousseCase>(data);
}

/// `littlesquares_engine_matches_reference`.
pub fn littlesquares_engine_matches_reference(data: &[u8]) {
    engine_matches_reference::<GridCase>(data);
}

/// `somegame_engine_matches_reference`.
pub fn somegame_engine_matches_reference(data: &[u8]) {
    engine_matches_reference::<BoardCase>(data);
}

/// `pousse_parsers_agree_and_never_panic`: raw bytes as a transcript; both parsers accept it
/// (and then both implementations judge it alike) or both reject it at the same position.
/// A panic anywhere is a finding too.
pub fn pousse_parsers_agree_and_never_panic(data: &[u8]) {
    let rules = match data.first() {
        Some(b) => Rules::ALL[*b as usize % 3],
        None => Rules::Waterloo,
    };
    if let Err(d) = compare::<Pousse>(data, rules) {
        panic!(
            "parsers or judges disagree under {rules}\n{d}\ninput: {:?}",
            String::from_utf8_lossy(data)
        );
    }
}

/// `somegame_matches_reachability_oracle`: on tiny tori, the engine's verdict is the one the
/// exhaustive reachability oracle gives, and the reference agrees with the engine.
pub fn somegame_matches_reachability_oracle(data: &[u8]) {
    use super::somegame::TinyTorusCase;
    let Ok(case) = TinyTorusCase::arbitrary_take_rest(Unstructured::new(data)) else {
        return;
    };
    if let Err(why) = case.engine_agrees_with_oracle() {
        panic!("engine and reachability oracle disagree: {why}\ninput:\n{case:?}");
    }
    if let Err(d) = compare::<crate::game::SomeGame>(&case.0.input(), ()) {
        panic!("engine and reference disagree\n{d}\ninput:\n{case:?}");
    }
}
