//! Scratch directories for tests: in the temporary directory, removed when dropped (whether the
//! test passes or fails), so that a test run leaves nothing behind.

use std::path::PathBuf;

/// A fresh directory named after `name`, and its path; it goes when the first is dropped.
pub fn scratch(name: &str) -> (tempfile::TempDir, PathBuf) {
    let scratch = tempfile::Builder::new()
        .prefix(&format!("referee-{name}-"))
        .tempdir()
        .unwrap();
    let dir = scratch.path().to_path_buf();
    (scratch, dir)
}
