//! The harness reaches every corner: a short seeded `stress` run of each game shows every
//! structural feature of the game (how games end, run lengths, winning steps, wrapped lines,
//! malformed inputs...), as `referee stress --stats` counts them.

use std::time::Duration;

use referee::game::Game;
use referee::littlesquares::LittleSquares;
use referee::pousse::Pousse;
use referee::somegame::SomeGame;

fn reached<G: Game + referee::game::Generated + referee::game::Referenced>(cases: u64) {
    let out = tempfile::tempdir().unwrap();
    let limits = referee::stress::Limits {
        seed: 1,
        cases: Some(cases),
        time: None,
        case_time: Duration::from_secs(60),
        shrink_time: Duration::from_secs(30),
        keep_going: false,
        max_findings: 20,
        stats: true,
        shard: None,
    };
    let report = referee::stress::run::<G>(limits, None, out.path()).unwrap();
    assert!(report.findings.is_empty(), "{:?}", report.findings);
    let missing = report.stats.missing();
    assert!(
        missing.is_empty(),
        "{} features not reached in {cases} cases: {missing:?}",
        G::NAME
    );
}

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn a_short_pousse_run_reaches_every_feature() {
    reached::<Pousse>(2000);
}

#[test]
fn a_short_littlesquares_run_reaches_every_feature() {
    reached::<LittleSquares>(2000);
}

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn a_short_somegame_run_reaches_every_feature() {
    reached::<SomeGame>(2000);
}

/// Every feature of the game's coverage table occurs within the first 1,000 random cases of
/// `audit`, whatever the seed, under each rule set: the corners of the limits are placed in
/// every period of 1,000 cases, the rest comes often.
fn audit_reaches<G: Game + referee::game::Generated + referee::game::Packaged>(seeds: &[u64]) {
    use referee::game::RuleSet;
    let names = <G::Options as RuleSet>::NAMES;
    let all: Vec<G::Options> = if names.is_empty() {
        vec![G::Options::default()]
    } else {
        names
            .iter()
            .filter_map(|n| G::Options::from_name(n))
            .collect()
    };
    for rules in all {
        for &seed in seeds {
            let covered = referee::gen::coverage::<G>(seed, 1000, rules);
            assert!(
                covered.missing().is_empty(),
                "{} seed {seed}: not reached in 1000 cases: {:?}\n{}",
                G::NAME,
                covered.missing(),
                covered.markdown()
            );
        }
    }
}

#[test]
#[ignore = "long tier: .ci/run runs it (cargo test -- --include-ignored)"]
fn audits_first_thousand_pousse_cases_reach_every_corner() {
    audit_reaches::<Pousse>(&[1, 7]);
}

#[test]
fn audits_first_thousand_littlesquares_cases_reach_every_corner() {
    audit_reaches::<LittleSquares>(&[1, 2, 3, 4]);
}

#[test]
fn audits_first_thousand_somegame_cases_reach_every_corner() {
    audit_reaches::<SomeGame>(&[1, 2, 3, 4]);
}
