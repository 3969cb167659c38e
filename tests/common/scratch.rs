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

/// A fresh directory that the programs an audit runs can reach: every user may enter it (mode
/// 0755), since an audit run as root runs its programs and builds as nobody, and a temporary
/// directory is its owner's alone (0700). It goes when dropped.
pub fn reachable() -> tempfile::TempDir {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::Builder::new()
        .prefix("referee-programs-")
        .tempdir()
        .unwrap();
    std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o755)).unwrap();
    dir
}
