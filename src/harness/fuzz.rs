//! The properties the cargo-fuzz targets check, as plain functions over the fuzzer's bytes, so
//! that a target is one line of glue. Structured targets decode the bytes with the game's one
//! generator ([`Fuzzed`], the same `Arbitrary` decoding libfuzzer-sys uses). On a failure the
//! case is written as a regression vector (see [`write_finding`]) before the panic, so that
//! keeping it is copying one file into `tests/vectors/regressions/`.

use std::path::PathBuf;

use arbitrary::{Arbitrary, Unstructured};

use super::cross_examine;
use super::regression::{Expectation, Regression};
use super::signatures::signature;
use crate::game::Generated;
use crate::game::Referenced;
use crate::game::{Case, Game, ReferenceReading, RuleSet};
use crate::util::error::JudgeError;

/// A case decoded from a fuzzer's bytes by the game's one generator: the cargo-fuzz targets'
/// `Arbitrary` input.
#[derive(Debug, Clone)]
pub struct Fuzzed<C>(pub C);

impl<'a, C: Case> Arbitrary<'a> for Fuzzed<C> {
    fn arbitrary(u: &mut Unstructured<'a>) -> arbitrary::Result<Fuzzed<C>> {
        Ok(Fuzzed(C::generate(u, None, &C::Shape::default())))
    }
}

/// Where findings are written: `$REFEREE_FINDINGS`, else `findings/` in the current directory.
fn findings_dir() -> PathBuf {
    std::env::var_os("REFEREE_FINDINGS").map_or_else(|| PathBuf::from("findings"), PathBuf::from)
}

/// Writes a failing input as a regression vector named after its content and returns the
/// file's path (or why it could not be written).
pub fn write_finding<G: Game>(target: &str, input: &[u8], rules: G::Options, why: &str) -> String {
    let regression = Regression {
        game: G::NAME.to_string(),
        rules: if rules == G::Options::default() {
            String::new()
        } else {
            rules.name().to_string()
        },
        expect: Expectation::Agree,
        why: why.to_string(),
        input: input.to_vec(),
    };
    let dir = findings_dir();
    let file = dir.join(format!(
        "{target}-{:016x}.txt",
        crate::util::hash::fnv1a(input)
    ));
    match std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&file, regression.to_bytes()))
    {
        Ok(()) => file.display().to_string(),
        Err(e) => format!("(not written: {}: {e})", file.display()),
    }
}

/// Decodes a case of `G` from the fuzzer's bytes and panics, explaining, if engine and
/// reference disagree on it.
pub fn engine_matches_reference<G: Game + Generated + Referenced>(data: &[u8]) {
    let Ok(Fuzzed(case)) = Fuzzed::<G::Case>::arbitrary_take_rest(Unstructured::new(data)) else {
        return;
    };
    let (input, rules) = (case.input(), case.options());
    if let Err(d) = cross_examine::<G>(&input, rules) {
        let target = format!("{}_engine_matches_reference", G::NAME);
        let file = write_finding::<G>(&target, &input, rules, "found by the fuzz target");
        panic!(
            "engine and reference disagree\n{d}\ninput ({file}):\n{}",
            case.describe()
        );
    }
}

/// Raw bytes as an input of `G` (the first byte picks the rule set): both parsers accept it
/// (and then both implementations judge it alike) or both reject it at the same position. A
/// panic anywhere is a finding too.
pub fn parsers_agree_and_never_panic<G: Game + Referenced>(data: &[u8]) {
    let names = G::Options::NAMES;
    let rules = match (data.first(), names.len()) {
        (Some(&b), n) if n > 0 => {
            G::Options::from_name(names[b as usize % n]).expect("a listed rule set")
        }
        _ => G::Options::default(),
    };
    let readings = reference_readings_agree::<G>(data);
    if let Err(d) = readings.and_then(|()| cross_examine::<G>(data, rules)) {
        let target = format!("{}_parsers_agree_and_never_panic", G::NAME);
        let file = write_finding::<G>(&target, data, rules, "found by the fuzz target");
        let signature = signature("divergence", &[&d.gist]);
        panic!(
            "parsers or judges disagree under {rules:?}\nsignature: {signature}\n{d}\ninput ({file}): {:?}",
            String::from_utf8_lossy(data)
        );
    }
}

/// The reference's reading of `input` a case at a time ([`Referenced::reference_cases`], each
/// case's grammar checked, as `verify` reads a file) finds the error its parser finds on the
/// whole input, at the same line, column and case, or none when that finds none.
pub fn reference_readings_agree<G: Game + Referenced>(
    input: &[u8],
) -> Result<(), super::Divergence> {
    let divergence = |why: String| super::Divergence {
        engine: String::new(),
        reference: why.clone(),
        gist: why,
    };
    let whole = G::reference_parses(input);
    let by_case = match crate::game::reference_reading::<G>(Box::new(input), u64::MAX) {
        ReferenceReading::Accepts => Ok(()),
        ReferenceReading::Rejects(e) => Err(e),
        ReferenceReading::Unread => {
            return Err(divergence(
                "the reference's reading stops unread".to_string(),
            ))
        }
    };
    let at = |r: &Result<(), JudgeError>| match r {
        Ok(()) => None,
        Err(JudgeError::Input(e)) => Some(format!("{} in case {:?}", e.position, e.case)),
        Err(e) => Some(e.to_string()),
    };
    if at(&whole) == at(&by_case) {
        Ok(())
    } else {
        Err(divergence(format!(
            "the reference's parser: {whole:?}; its reading case by case: {by_case:?}"
        )))
    }
}

/// The fuzz property `GAME_matches_ORACLE` of a game with an oracle ([`Case::oracle`]): a case
/// of the oracle's shape decoded from the fuzzer's bytes by the game's generator; the engine's
/// verdict is the oracle's, and the reference agrees with the engine. Nothing for a game
/// without an oracle.
pub fn matches_oracle<G: Game + Generated + Referenced>(data: &[u8]) {
    let Some((oracle, shape)) = <G::Case as Case>::oracle() else {
        return;
    };
    let case = <G::Case as Case>::generate(&mut Unstructured::new(data), None, &shape);
    let label = case.shape_label();
    let failure = case
        .oracle_agrees()
        .map_err(|why| {
            let why = why.to_string();
            let sig = signature("oracle-disagrees", &[&why, &label]);
            let oracle = oracle.replace('_', " ");
            format!("engine and {oracle} disagree: {why}\nsignature: {sig}")
        })
        .and_then(|()| {
            cross_examine::<G>(&case.input(), case.options()).map_err(|d| {
                let sig = signature("divergence", &[&d.gist, &label]);
                format!("engine and reference disagree\nsignature: {sig}\n{d}")
            })
        });
    if let Err(why) = failure {
        let target = format!("{}_matches_{oracle}", G::NAME);
        let file = write_finding::<G>(
            &target,
            &case.input(),
            case.options(),
            &format!("found by the fuzz target {target}"),
        );
        panic!("{why}\ninput ({file}):\n{}", case.describe());
    }
}
