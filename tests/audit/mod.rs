//! `referee audit` on real programs: the judges of `examples/judges` (C built here with the
//! system compiler, and Python 3), among them judges written the way public solutions are (a
//! UVa 844 judge that reads only the multi-case form, a TopCoder judge that trusts the contest's
//! limits), referee's own binary, and hostile programs; by subject: the input form a program is
//! audited in, what is found and how it is shrunk and reported, and the processes audit starts.
//! No test here asserts how long anything takes; the hang guards are ten times what the runs
//! need on a loaded machine.
#![cfg(target_os = "linux")]

mod add_to;
mod findings;
mod forms;
mod processes;

use crate::common;
use common::audit::Report;
use common::command::stderr;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

fn judges() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/judges")
}

/// `python3 SCRIPT ARGS` for the judge `script` of `examples/judges/`, copied into `dir`.
fn python(dir: &Path, script: &str, args: &str) -> String {
    let copy = crate::common::programs::copied(dir, &judges().join(script));
    format!("python3 {copy} {args}")
}

/// Runs `referee audit GAME --cmd CMD` with `extra` flags into `out`.
fn audit(game: &str, cmd: &str, out: &Path, extra: &[&str]) -> Output {
    // The CPU time limit, unless the test sets its own: ten times what the slowest correct
    // judge here takes on the largest extremes (about 2 s: a game of 10^5 moves on the largest
    // board under the ICFP rules), so that no correct judge is a timeout on a slower machine.
    let audit = crate::common::audit::audit(game)
        .cmd(cmd)
        .out(out)
        .args(extra);
    if audit.has("--timeout") {
        audit.run()
    } else {
        audit.args(["--timeout", "20"]).run()
    }
}

/// The findings of the one program audited into `out`.
fn findings(out: &Path) -> Vec<std::collections::BTreeMap<String, String>> {
    Report(out).only_findings()
}

fn program_dir(out: &Path) -> PathBuf {
    Report(out).only_program_dir()
}

/// The moves of a Pousse input (either form): lines that are moves.
fn moves(input: &str) -> usize {
    input
        .lines()
        .filter(|l| l.starts_with(['L', 'R', 'T', 'B']))
        .count()
}

/// The form `audit` chose, from its summary.
fn form(run: &Output) -> String {
    let text = stderr(run);
    text.lines()
        .find_map(|l| l.trim_start().strip_prefix("form "))
        .and_then(|l| l.split(':').next())
        .unwrap_or_else(|| panic!("no form line: {text}"))
        .to_string()
}

/// The program `cmd`, run on the finding `row`'s saved input (in `out`) as its reproduce
/// command says, fails again: its output is not the saved answer, or it crashes.
fn fails_as_saved(cmd: &str, out: &Path, row: &std::collections::BTreeMap<String, String>) {
    let argv = shlex::split(cmd).unwrap();
    let again = std::process::Command::new(&argv[0])
        .args(&argv[1..])
        .stdin(fs::File::open(program_dir(out).join(&row["input"])).unwrap())
        .output()
        .unwrap();
    let expected =
        fs::read_to_string(program_dir(out).join(row["input"].replace(".in", ".ans"))).unwrap();
    let words = |text: &[u8]| -> Vec<String> {
        String::from_utf8_lossy(text)
            .split_whitespace()
            .map(String::from)
            .collect()
    };
    assert!(
        !again.status.success() || words(&again.stdout) != words(expected.as_bytes()),
        "{cmd} passes its saved case {}: {row:?}",
        row["input"]
    );
}
