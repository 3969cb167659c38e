//! Replays every regression vector in `tests/vectors/regressions/` (see
//! `referee::harness::regression` for the format): each divergence or crash ever found, with
//! its root cause, checked again with both implementations on every `cargo test`.

use std::fs;
use std::path::{Path, PathBuf};

use clap::ValueEnum;
use referee::game::Game;
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
    fn visit<G: Game>(self) -> Result<(), String> {
        self.0.check::<G>()
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

#[test]
fn every_fuzz_seed_replays_clean() {
    // The fuzz targets' seeds are contest inputs too: both implementations must agree on them.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds");
    let mut checked = 0;
    for target in fs::read_dir(&root).unwrap() {
        let target = target.unwrap().path();
        let name = target.file_name().unwrap().to_string_lossy().to_string();
        let game = GameName::from_str(name.split('_').next().unwrap(), false).unwrap();
        for seed in fs::read_dir(&target).unwrap() {
            let seed = seed.unwrap().path();
            let rules = seed
                .extension()
                .map(|x| x.to_string_lossy().to_string())
                .filter(|x| game.rule_sets().contains(&x.as_str()))
                .unwrap_or_default();
            let regression = Regression {
                game: game.as_str().to_string(),
                rules,
                expect: referee::harness::regression::Expectation::Agree,
                why: "a fuzz seed".into(),
                input: fs::read(&seed).unwrap(),
            };
            if let Err(why) = game.visit(Check(&regression)) {
                panic!("{}: {why}", seed.display());
            }
            checked += 1;
        }
    }
    assert!(checked > 30, "{checked}");
}
