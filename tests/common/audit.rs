//! `referee audit` for every test module: one builder of its command line ([`Audit`]) and one
//! reader of the report directory it writes ([`Report`]).

use std::collections::BTreeMap;
use std::ffi::{OsStr, OsString};
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;
use std::time::Duration;

use super::command::{csv_rows, referee};

/// The hang guard of an audit: a few thousand cases in a debug build, on a machine whose cores
/// are all busy with other work, take far less.
pub const HANG_GUARD: Duration = Duration::from_secs(1200);

/// `referee audit GAME ...`, built flag by flag.
#[derive(Debug, Clone)]
pub struct Audit {
    args: Vec<OsString>,
    hang_guard: Duration,
}

/// `referee audit GAME`.
pub fn audit(game: &str) -> Audit {
    Audit {
        args: vec!["audit".into(), game.into()],
        hang_guard: HANG_GUARD,
    }
}

impl Audit {
    /// One more argument.
    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Audit {
        self.args.push(arg.as_ref().to_owned());
        self
    }

    /// More arguments.
    pub fn args<S: AsRef<OsStr>>(self, args: impl IntoIterator<Item = S>) -> Audit {
        args.into_iter().fold(self, Audit::arg)
    }

    /// `--cmd COMMAND`.
    pub fn cmd(self, command: &str) -> Audit {
        self.args(["--cmd", command])
    }

    /// `--package DIR`.
    pub fn package(self, dir: &Path) -> Audit {
        self.arg("--package").arg(dir)
    }

    /// `--out DIR`.
    pub fn out(self, dir: &Path) -> Audit {
        self.arg("--out").arg(dir)
    }

    /// Whether the arguments hold `flag`.
    pub fn has(&self, flag: &str) -> bool {
        self.args.iter().any(|a| a == flag)
    }

    /// The arguments after `referee`, for a test that starts it its own way.
    pub fn into_args(self) -> Vec<OsString> {
        self.args
    }

    /// Runs it to its end (or the hang guard) and gives what it printed and its exit.
    pub fn run(self) -> Output {
        referee()
            .args(&self.args)
            .timeout(self.hang_guard)
            .output()
            .unwrap()
    }
}

/// The report directory of an audit.
#[derive(Debug, Clone, Copy)]
pub struct Report<'a>(pub &'a Path);

impl Report<'_> {
    /// `programs.csv`, each row by its program's name.
    pub fn programs(&self) -> BTreeMap<String, BTreeMap<String, String>> {
        csv_rows(&self.0.join("programs.csv"))
            .into_iter()
            .map(|row| (row["program"].clone(), row))
            .collect()
    }

    /// The rows of `programs.csv`, in its order.
    pub fn program_rows(&self) -> Vec<BTreeMap<String, String>> {
        csv_rows(&self.0.join("programs.csv"))
    }

    /// The directory of `program` (`programs/NAME`, a `/` of the name spelled `-`).
    pub fn program_dir(&self, program: &str) -> PathBuf {
        self.0.join("programs").join(program.replace('/', "-"))
    }

    /// The directory of the one program audited.
    pub fn only_program_dir(&self) -> PathBuf {
        let dirs: Vec<PathBuf> = fs::read_dir(self.0.join("programs"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(dirs.len(), 1, "{dirs:?}");
        dirs[0].clone()
    }

    /// The rows of `program`'s `findings.csv`.
    pub fn findings(&self, program: &str) -> Vec<BTreeMap<String, String>> {
        csv_rows(&self.program_dir(program).join("findings.csv"))
    }

    /// The rows of the one program's `findings.csv`.
    pub fn only_findings(&self) -> Vec<BTreeMap<String, String>> {
        csv_rows(&self.only_program_dir().join("findings.csv"))
    }

    /// `audit.json`, parsed.
    pub fn json(&self) -> serde_json::Value {
        let path = self.0.join("audit.json");
        let text = fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        serde_json::from_slice(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
    }
}
