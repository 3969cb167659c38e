//! Replays every regression vector in `tests/vectors/regressions/` (see
//! `referee::harness::regression` for the format): each divergence or crash ever found, with
//! its root cause, checked again with both implementations on every `cargo test`.

use std::fs;
use std::path::{Path, PathBuf};

use clap::ValueEnum;
use referee::game::AnyGame;
use referee::games::{GameName, Visitor};
use referee::harness::regression::Regression;

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files(&path, out);
        } else if path.extension().is_some_and(|x| x == "txt") {
            out.push(path);
        }
    }
}

struct Check<'a>(&'a Regression);

impl Visitor for Check<'_> {
    type Output = Result<(), String>;
    fn visit<G: AnyGame>(self) -> Result<(), String> {
        self.0.check::<G>().map_err(|e| e.to_string())
    }
}

#[test]
fn every_regression_vector_replays_clean() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vectors/regressions");
    let mut paths = Vec::new();
    files(&root, &mut paths);
    paths.sort();
    assert!(
        paths.len() >= 14,
        "only {} vectors under {}",
        paths.len(),
        root.display()
    );
    let mut failures = Vec::new();
    for path in &paths {
        let regression = Regression::parse(&fs::read(path).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(
            !regression.why.is_empty(),
            "{}: no root cause",
            path.display()
        );
        let game = GameName::from_str(&regression.game, false)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        if let Err(why) = game.visit(Check(&regression)) {
            failures.push(format!("{}: {why}", path.display()));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Replays one seed as its fuzz target does: through the game's generator for the structured
/// targets, as raw input for the parser targets, through the reachability oracle for its
/// target. A panic is the target's finding.
struct Replay<'a> {
    target: &'a str,
    bytes: &'a [u8],
}

impl Visitor for Replay<'_> {
    type Output = Result<(), String>;
    fn visit<G: AnyGame>(self) -> Result<(), String> {
        let bytes = self.bytes.to_vec();
        let target = self.target.to_string();
        std::panic::catch_unwind(move || {
            if target.ends_with("_engine_matches_reference") {
                referee::harness::fuzz::engine_matches_reference::<G>(&bytes);
            } else if target.ends_with("_parsers_agree_and_never_panic") {
                referee::harness::fuzz::parsers_agree_and_never_panic::<G>(&bytes);
            } else if target.ends_with("_oracle") {
                referee::harness::fuzz::matches_oracle::<G>(&bytes);
            } else {
                panic!("no such fuzz target: {target}");
            }
        })
        .map_err(|panic| {
            panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default()
        })
    }
}

#[test]
fn every_fuzz_seed_replays_clean() {
    // Each target's seeds, replayed as the target reads them; a finding would be written to
    // a directory of this test's own ($REFEREE_FINDINGS, set in the process it runs alone in).
    let findings = tempfile::tempdir().unwrap();
    let envs = [("REFEREE_FINDINGS", findings.path())];
    if !crate::common::alone::alone(module_path!(), "every_fuzz_seed_replays_clean", &envs) {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds");
    let targets = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/fuzz_targets");
    let mut checked = 0;
    for target in fs::read_dir(&root).unwrap() {
        let target = target.unwrap().path();
        let name = target.file_name().unwrap().to_string_lossy().to_string();
        assert!(
            targets.join(format!("{name}.rs")).is_file(),
            "{}: seeds of no fuzz target",
            target.display()
        );
        let game = GameName::from_str(name.split('_').next().unwrap(), false).unwrap();
        for seed in fs::read_dir(&target).unwrap() {
            let seed = seed.unwrap().path();
            let bytes = fs::read(&seed).unwrap();
            let replay = Replay {
                target: &name,
                bytes: &bytes,
            };
            if let Err(why) = game.visit(replay) {
                panic!("{}: {why}", seed.display());
            }
            checked += 1;
        }
    }
    assert!(checked > 30, "{checked}");
}
