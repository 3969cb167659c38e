//! Running BAPCtools' `bt` on a problem package: the command is the path in `REFEREE_BT` (as
//! `.ci/run` sets it after `scripts/ci/bapctools.sh`). Without it a test says it was skipped, and
//! fails instead when `REFEREE_REQUIRE_TOOLS` is set.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `bt`, or `None` (the test is skipped) when `REFEREE_BT` is not set.
pub fn bt() -> Option<PathBuf> {
    super::tool::from_env(
        "REFEREE_BT",
        "BAPCtools' bt, installed by scripts/ci/bapctools.sh",
    )
}

/// Runs `bt ARGS` in the problem directory `problem`, with this referee first on PATH (the
/// package's programs find it there), and BAPCtools' temporary files and its record of the
/// problems it has seen (it warns of another problem with the same UUID) inside `problem`'s
/// parent.
pub fn run(bt: &Path, problem: &Path, args: &[&str]) -> Output {
    let bin = Path::new(env!("CARGO_BIN_EXE_referee")).parent().unwrap();
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    Command::new(bt)
        .args(args)
        .current_dir(problem)
        .env("PATH", path)
        .env("TMPDIR", problem.parent().unwrap())
        .env("XDG_CONFIG_HOME", problem.parent().unwrap().join("config"))
        .output()
        .unwrap()
}

/// What `bt` printed, its progress bars' carriage returns as new lines and its colours (which
/// it prints in CI, `CI` set) left out.
pub fn text(output: &Output) -> String {
    let printed = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    let mut plain = String::with_capacity(printed.len());
    let mut chars = printed.chars();
    while let Some(c) = chars.next() {
        match c {
            // An escape sequence: ESC [ parameters, then a final byte from '@' to '~'.
            '\u{1b}' => {
                if chars.next() == Some('[') {
                    for c in chars.by_ref() {
                        if ('@'..='~').contains(&c) {
                            break;
                        }
                    }
                }
            }
            '\r' => plain.push('\n'),
            c => plain.push(c),
        }
    }
    plain
}
