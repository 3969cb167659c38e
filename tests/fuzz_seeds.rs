//! The committed seeds of each structured fuzz target (`fuzz/seeds/<game>_engine_matches_reference`)
//! decode, through the game's generator, into cases that together show every structural feature
//! of the game (`Game::FEATURES`), so that fuzzing starts in every corner of the rules rather
//! than waiting for the fuzzer to grow inputs long enough to reach them.
//!
//! `REFEREE_BLESS_SEEDS=1 cargo test --test integration fuzz_seeds::` adds a seed for each
//! feature no seed shows: random byte strings from a fixed seed, the first that decodes to a
//! case showing it, written as `feature-<number>-<name>`.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use arbitrary::{Arbitrary, Unstructured};
use referee::game::Generated;
use referee::game::{Case, Engine, Game};
use referee::harness::fuzz::Fuzzed;
use referee::littlesquares::LittleSquares;
use referee::pousse::Pousse;
use referee::somegame::SomeGame;
use referee::util::random::{Entropy, Rng};

/// The features the case decoded from `bytes` shows (none if the engine rejects it).
fn features_of<G: Game + Generated>(bytes: &[u8]) -> Vec<&'static str> {
    let Ok(Fuzzed(case)) = Fuzzed::<G::Case>::arbitrary_take_rest(Unstructured::new(bytes)) else {
        return Vec::new();
    };
    let input = case.input();
    match G::judge(Engine::Fast, &mut &input[..], case.options()) {
        Ok(judgements) => G::features(&input, case.options(), &judgements),
        Err(_) => Vec::new(),
    }
}

fn seeds_dir<G: Game>() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("fuzz/seeds")
        .join(format!("{}_engine_matches_reference", G::NAME))
}

/// A file name for a seed showing feature number `index`, `feature`.
fn seed_name(index: usize, feature: &str) -> String {
    let mut name = format!("feature-{index:02}-");
    for c in feature.chars() {
        match c {
            'a'..='z' | '0'..='9' => name.push(c),
            'A'..='Z' => name.push(c.to_ascii_lowercase()),
            _ if !name.ends_with('-') => name.push('-'),
            _ => {}
        }
    }
    name.trim_end_matches('-').to_string()
}

/// Random byte strings (from a fixed seed) until one decodes to a case showing `feature`.
fn find_seed<G: Game + referee::game::Generated>(feature: &str) -> Option<Vec<u8>> {
    for attempt in 0..200_000u64 {
        let mut rng = Rng::for_item(0x5eed, attempt);
        let len = 16 + rng.below(4080) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| rng.next_u64() as u8).collect();
        if features_of::<G>(&bytes).contains(&feature) {
            return Some(bytes);
        }
    }
    None
}

fn seeds_reach_every_feature<G: Game + Generated>() {
    let dir = seeds_dir::<G>();
    let mut shown = BTreeSet::new();
    for entry in std::fs::read_dir(&dir).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        shown.extend(features_of::<G>(&bytes));
    }
    let mut missing: Vec<&str> = G::FEATURES
        .iter()
        .copied()
        .filter(|f| !shown.contains(f))
        .collect();
    if std::env::var_os("REFEREE_BLESS_SEEDS").is_some() {
        missing.retain(|feature| match find_seed::<G>(feature) {
            Some(bytes) => {
                let index = G::FEATURES.iter().position(|f| f == feature).unwrap();
                let file = dir.join(seed_name(index, feature));
                std::fs::write(&file, bytes).unwrap();
                eprintln!("wrote {}", file.display());
                false
            }
            None => true,
        });
    }
    assert!(
        missing.is_empty(),
        "no seed in {} shows {missing:?}; `REFEREE_BLESS_SEEDS=1 cargo test --test integration fuzz_seeds::` adds them",
        dir.display()
    );
}

#[test]
fn pousse_seeds_reach_every_feature() {
    seeds_reach_every_feature::<Pousse>();
}

#[test]
fn littlesquares_seeds_reach_every_feature() {
    seeds_reach_every_feature::<LittleSquares>();
}

#[test]
fn somegame_seeds_reach_every_feature() {
    seeds_reach_every_feature::<SomeGame>();
}
