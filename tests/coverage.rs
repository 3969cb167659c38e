//! The harness reaches every corner: a short seeded `stress` run of each game shows every
//! structural feature of the game (how games end, run lengths, winning steps, wrapped lines,
//! malformed inputs...), as `referee stress --stats` counts them.

use std::time::Duration;

use referee::game::Game;
use referee::littlesquares::LittleSquares;
use referee::pousse::Pousse;
use referee::somegame::SomeGame;

fn reached<G: Game>(cases: u64) {
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
fn a_short_pousse_run_reaches_every_feature() {
    reached::<Pousse>(2000);
}

#[test]
fn a_short_littlesquares_run_reaches_every_feature() {
    reached::<LittleSquares>(2000);
}

#[test]
fn a_short_somegame_run_reaches_every_feature() {
    reached::<SomeGame>(2000);
}
