//! Hostile input and faults, through the binary, by what they attack: the tree a run was
//! pointed at, its memory, endless inputs, its reports, and its flags and outputs.

mod endless;
mod flags;
mod memory;
mod reports;
mod tree;

use std::fs;
use std::path::{Path, PathBuf};

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// `a.in` and `a.ans` in `dir`, holding `input` and `answer`.
fn case_files(dir: &Path, input: &str, answer: &str) -> (PathBuf, PathBuf) {
    let paths = (dir.join("a.in"), dir.join("a.ans"));
    fs::write(&paths.0, input).unwrap();
    fs::write(&paths.1, answer).unwrap();
    paths
}
