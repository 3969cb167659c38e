//! Replays every input ever saved in `fuzz/regressions/<target>/` (fuzz crashes, stress
//! findings, planted-bug finds, hand-reconstructed bugs) through the same property the fuzz
//! target checks, on stable Rust. Each directory's README names the root causes.

use std::fs;
use std::path::Path;

use referee::harness::fuzz;

type Property = fn(&[u8]);

const TARGETS: [(&str, Property); 5] = [
    (
        "somegame_matches_reachability_oracle",
        fuzz::somegame_matches_reachability_oracle,
    ),
    (
        "pousse_engine_matches_reference",
        fuzz::pousse_engine_matches_reference,
    ),
    (
        "pousse_parsers_agree_and_never_panic",
        fuzz::pousse_parsers_agree_and_never_panic,
    ),
    (
        "littlesquares_engine_matches_reference",
        fuzz::littlesquares_engine_matches_reference,
    ),
    (
        "somegame_engine_matches_reference",
        fuzz::somegame_engine_matches_reference,
    ),
];

#[test]
fn every_saved_input_replays_clean() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/regressions");
    let mut replayed = 0;
    for (target, property) in TARGETS {
        let dir = root.join(target);
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        let mut files: Vec<_> = entries.map(|e| e.unwrap().path()).collect();
        files.sort();
        for file in files {
            if file.extension().is_some_and(|x| x == "md") {
                continue;
            }
            let data = fs::read(&file).unwrap();
            let outcome = std::panic::catch_unwind(|| property(&data));
            assert!(outcome.is_ok(), "{target}: {} fails again", file.display());
            replayed += 1;
        }
    }
    assert!(
        replayed > 0,
        "no regression inputs found under {}",
        root.display()
    );
}

#[test]
fn seeds_replay_clean_too() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/seeds");
    for (target, property) in TARGETS {
        for entry in fs::read_dir(root.join(target)).unwrap() {
            property(&fs::read(entry.unwrap().path()).unwrap());
        }
    }
}
