//! What the command line asks that cannot be done: flags that contradict each other, values
//! out of range, output paths that would overwrite what the run reads. Each ends the command
//! with exit code 2 before any work ([`crate::util::error::RunRefusal`]).

use std::path::PathBuf;

use super::LEAST_SECONDS;

/// A command line refused, with the flags and values its message names.
#[derive(Debug, thiserror::Error)]
pub enum UsageError {
    /// Two output flags name one file.
    #[error("{a} {} and {b} {} are the same file: give each its own", first.display(), second.display())]
    SameFile {
        /// The first flag.
        a: &'static str,
        /// Its file.
        first: PathBuf,
        /// The second flag.
        b: &'static str,
        /// Its file.
        second: PathBuf,
    },
    /// An output file inside a file or tree the run reads.
    #[error(
        "{flag} {} is inside {what} {}: writing it would replace what the run reads; give it a \
         path apart",
        path.display(),
        tree.display()
    )]
    InsideWhatIsRead {
        /// The output's flag.
        flag: &'static str,
        /// The output file.
        path: PathBuf,
        /// What is read there (a flag or a role).
        what: &'static str,
        /// What is read.
        tree: PathBuf,
    },
    /// An output file that is one of the reports the run writes in `--out`.
    #[error(
        "{flag} {}: {name} is one of the reports the run writes in --out {}; give it another \
         name",
        path.display(),
        out.display()
    )]
    OneOfTheReports {
        /// The output's flag.
        flag: &'static str,
        /// The output file.
        path: PathBuf,
        /// The report's name.
        name: String,
        /// The report directory.
        out: PathBuf,
    },
    /// Saved runs inside the report directory, which the reports replace as a whole.
    #[error(
        "--save-runs {} is inside --out {}: the reports replace their directory as a whole; give \
         the saved runs a directory apart",
        saved.display(),
        out.display()
    )]
    SavedRunsInOut {
        /// The directory of saved runs.
        saved: PathBuf,
        /// The report directory.
        out: PathBuf,
    },
    /// A report directory holding what the command reads.
    #[error(
        "--out {} holds {what} {}: give the reports a directory of their own, apart from what the \
         command reads",
        out.display(),
        tree.display()
    )]
    OutHoldsWhatIsRead {
        /// The report directory.
        out: PathBuf,
        /// What is read there (a flag or a role).
        what: &'static str,
        /// What is read.
        tree: PathBuf,
    },
    /// A report directory inside a tree the run reads or writes, which it would replace.
    #[error(
        "--out {} is inside {flag} {}: the reports replace their directory as a whole, so give \
         them one outside the trees the run reads and writes",
        out.display(),
        tree.display()
    )]
    OutInside {
        /// The report directory.
        out: PathBuf,
        /// The tree's flag.
        flag: &'static str,
        /// The tree.
        tree: PathBuf,
    },
    /// `--allow-read` names a path the audit keeps from every program.
    #[error(
        "--allow-read {} would let every program read {}, which the audit keeps from them (the \
         package, its data and answers, the reports): give a directory apart from them",
        path.display(),
        protected.display()
    )]
    AllowsProtected {
        /// The path `--allow-read` names.
        path: PathBuf,
        /// The protected path it is, holds or lies in.
        protected: PathBuf,
    },
    /// A time that is not a number of seconds (values are printed as Rust's shortest form,
    /// `1e-300` rather than its 300 digits).
    #[error("{flag} must be a non-negative number of seconds, not {value:?}")]
    NotSeconds {
        /// The flag.
        flag: &'static str,
        /// Its value.
        value: f64,
    },
    /// A time of more seconds than a duration holds.
    #[error("{flag} {value:?} is more seconds than a time can hold (at most about 1.8e19)")]
    TooManySeconds {
        /// The flag.
        flag: &'static str,
        /// Its value.
        value: f64,
    },
    /// A time limit every run would be over.
    #[error(
        "{flag} must be at least {least} s, not {value:?}: every run would be over it",
        least = LEAST_SECONDS.as_secs_f64()
    )]
    BelowLeastSeconds {
        /// The flag.
        flag: &'static str,
        /// Its value.
        value: f64,
    },
    /// An output file that is a directory.
    #[error("{flag} {}: is a directory", path.display())]
    IsDirectory {
        /// The flag.
        flag: &'static str,
        /// Its value.
        path: PathBuf,
    },
    /// An output file in a directory that does not exist.
    #[error("{flag} {}: the directory {} does not exist", path.display(), parent.display())]
    NoDirectory {
        /// The flag.
        flag: &'static str,
        /// Its value.
        path: PathBuf,
        /// The directory it names.
        parent: PathBuf,
    },
    /// An output limit a correct program's output would be over.
    #[error(
        "--max-output must be at least {least} bytes, not {value}: a correct program's output \
         would be over it"
    )]
    MaxOutput {
        /// The value.
        value: u64,
        /// The least allowed.
        least: u64,
    },
    /// `--add-to` with `--shard`.
    #[error(
        "--add-to adds the strengthening cases of a whole run; with --shard, merge the shards \
         (the merged tests/ holds their cases)"
    )]
    AddToAShard,
    /// `--add-to` naming no package.
    #[error("--add-to {}: not a problem package (no data/ directory)", .0.display())]
    NotAPackage(PathBuf),
    /// `--package` naming no package with submissions.
    #[error("--package {}: no submissions/ directory", .0.display())]
    NoSubmissions(PathBuf),
    /// `--move` for a game without moves.
    #[error("--move: {0} cases have no moves to step through")]
    NoMoves(&'static str),
    /// `gen` without `--out` asked for more than one case or for answers.
    #[error(
        "without --out, gen writes one case to standard output: --count, --answers and \
         --per-file need --out (--answer FILE writes the case's answer)"
    )]
    OneCaseWithoutOut,
    /// `gen --case` with knobs or `--like-audit`.
    #[error("--case names a case: no knob or --like-audit goes with it")]
    CaseWithKnobs,
    /// `gen --coverage` with knobs.
    #[error("--coverage counts the cases audit draws: no knob goes with it")]
    CoverageWithKnobs,
    /// An input too large to draw.
    #[error("{name}: larger than {mib} MiB; show draws inputs up to that size")]
    TooLargeToDraw {
        /// The input, as named.
        name: String,
        /// The largest drawn, in MiB.
        mib: u64,
    },
}

impl crate::util::error::RunRefusal for UsageError {}

/// No sandbox on this machine for the programs `audit` runs: why (the flag it comes from, when
/// one does), and what to do.
#[cfg(target_os = "linux")]
#[derive(Debug, thiserror::Error)]
#[error(
    "{}. audit runs other people's programs in a sandbox; --unconfined runs them with your \
     rights instead (docs/security.md)",
    why(.0)
)]
pub struct NoSandbox(pub referee_sandbox::SandboxError);

/// The sandbox's error in the words of referee's flags.
#[cfg(target_os = "linux")]
fn why(error: &referee_sandbox::SandboxError) -> String {
    use referee_sandbox::SandboxError;
    match error {
        SandboxError::AllowRead { path, source } => {
            format!("--allow-read {}: {source}", path.display())
        }
        SandboxError::NoSuchFile { path } => {
            format!("--allow-read {}: no such file", path.display())
        }
        SandboxError::Cgroup { dir, reason } => format!("--cgroup {}: {reason}", dir.display()),
        other => other.to_string(),
    }
}

#[cfg(target_os = "linux")]
impl crate::util::error::RunRefusal for NoSandbox {}
