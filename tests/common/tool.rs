//! An external tool a test runs (problemtools, BAPCtools, online-judge-tools, DMOJ, Slurm),
//! named by an environment variable that `.ci/run` sets after installing it. Without it the
//! test says it was skipped (on standard error, in every run), and fails instead when
//! `REFEREE_REQUIRE_TOOLS` is set.

use std::io::Write;
use std::path::PathBuf;

/// The path in `variable`, or `None` (the test is skipped, said on standard error) when it is
/// not set; `what` names the tool and how to get it.
pub fn from_env(variable: &str, what: &str) -> Option<PathBuf> {
    match std::env::var_os(variable) {
        Some(path) => Some(PathBuf::from(path)),
        None => {
            assert!(
                !required(),
                "{variable} is not set ({what}; .ci/run sets it)"
            );
            // Past the test harness's capture (it takes only the print macros' output), so
            // that a skipped check shows in every run, not only with --nocapture.
            let _ = writeln!(std::io::stderr(), "SKIPPED: set {variable} ({what})");
            None
        }
    }
}

/// Whether the tests' external tools are required (`.ci/run` sets `REFEREE_REQUIRE_TOOLS`): a
/// missing one fails its test instead of skipping a check.
pub fn required() -> bool {
    std::env::var_os("REFEREE_REQUIRE_TOOLS").is_some()
}
