//! Running one program: every run of an audit goes through its [`Runner`], so each is counted,
//! held to the time limit (CPU time, as judge systems count it; wall-clock time only caps, see
//! [`referee_sandbox::Limits`]), written in the form the program reads, and cut at the audit's deadline or
//! on interruption.

use crate::audit::terms::Auditable;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::audit::running::deadlines::{Deadlines, Meter};
use crate::audit::terms::outcome::judged;
use crate::audit::terms::outcome::Tried;
use crate::game::{in_form, Form};
use referee_sandbox::{Ending, Limits, Program};

/// How much CPU time a run that is as long as the data's longest file may take, as a multiple
/// of the most CPU time a program expected accepted took on one data file.
pub const LIMIT_FACTOR: u32 = 5;

/// The most failing runs of one program checked for the files its sandbox hides from it
/// ([`Runner::blocked`]).
pub const BLOCKED_CHECKS: u32 = 3;

/// How many times its CPU time limit a run's wall-clock time may reach, its waits for a CPU
/// not counted ([`referee_sandbox::Limits::wall_factor`]), as DMOJ's `wall_time_factor`.
pub const WALL_FACTOR: u32 = 3;

/// The least time limit a derived limit gives (the CPU time of starting an interpreter).
pub const LEAST_LIMIT: Duration = Duration::from_millis(250);

/// The CPU time a run may take, as judge systems set it: from the CPU times of the programs
/// expected accepted on the existing data, [`LIMIT_FACTOR`] times the slowest, scaled by the
/// run's input against the data's largest file, at least [`LEAST_LIMIT`], at most `--timeout`;
/// `--timeout` itself when no such time is known. A run's wall-clock time is capped at
/// [`WALL_FACTOR`] times its limit, its waits for a CPU not counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TimeLimit {
    /// `--timeout`: no run takes more CPU time.
    #[serde(with = "crate::audit::terms::seconds")]
    pub most: Duration,
    /// The slowest accepted CPU time on one data file, and the data's largest file in bytes.
    pub from_data: Option<FromData>,
}

/// What a time limit derived from the data comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FromData {
    /// The most CPU time a program expected accepted took on one data file.
    #[serde(with = "crate::audit::terms::seconds")]
    pub slowest: Duration,
    /// The data's largest file, in bytes.
    pub largest: u64,
}

impl TimeLimit {
    /// `--timeout` for every run.
    pub fn fixed(most: Duration) -> TimeLimit {
        TimeLimit {
            most,
            from_data: None,
        }
    }

    /// The CPU time limit of a run on an input of `bytes` bytes.
    pub fn for_bytes(&self, bytes: usize) -> Duration {
        match self.from_data {
            None => self.most,
            Some(FromData { slowest, largest }) => {
                let scale = (bytes as f64 / largest.max(1) as f64).max(1.0);
                (slowest * LIMIT_FACTOR)
                    .mul_f64(scale)
                    .clamp(LEAST_LIMIT.min(self.most), self.most)
            }
        }
    }

    /// In words, for summaries and manifests.
    pub fn describe(&self) -> String {
        let cap = format!(
            "; a run of several cases the sum of theirs, and the largest of theirs per answer \
             it has written (a case alone its own); wall-clock cap {} x the limit, waits for a \
             CPU not counted",
            WALL_FACTOR
        );
        match self.from_data {
            None => format!(
                "{:.2} s of CPU time per case (--timeout){cap}",
                self.most.as_secs_f64()
            ),
            Some(FromData { slowest, largest }) => format!(
                "CPU time: {LIMIT_FACTOR} x the slowest accepted CPU time on a data file ({:.3} \
                 s), scaled by the input's size against the data's largest file ({largest} \
                 bytes), between {:.2} and {:.2} s{cap}",
                slowest.as_secs_f64(),
                LEAST_LIMIT.min(self.most).as_secs_f64(),
                self.most.as_secs_f64()
            ),
        }
    }
}

/// Why a program gave no answer to a run that was to end.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NoAnswer {
    /// It could not be started: why.
    CannotRun(String),
    /// The audit's deadline, or an interruption, cut the run short.
    Cut,
}

/// One program, its limits and form, and the audit's deadline.
pub struct Runner<'a, G: Auditable> {
    /// The program.
    pub program: &'a Program,
    /// The output caps, and `--timeout`.
    pub limits: Limits,
    /// Each run's time limit.
    pub time_limit: TimeLimit,
    /// The form every run of cases uses.
    pub form: Form,
    /// The rule set.
    pub rules: G::Options,
    /// The audit's deadlines: runs still going at the findings' end are cut
    /// ([`referee_sandbox::Ending::Cut`]).
    deadlines: &'a Deadlines,
    /// The wall-clock time of the program's runs, shared by all its runners.
    meter: Meter,
    runs: Arc<AtomicU64>,
    /// The CPU time the runs made through this runner cost
    /// ([`Run::cost`](referee_sandbox::Run::cost); shared with [`reformed`](Self::reformed)
    /// ones, not with [`metered`](Self::metered) ones), in nanoseconds; a run stopped by the
    /// wall-clock cap counts its CPU limit.
    cpu: Arc<AtomicU64>,
    fatal: Arc<Mutex<Option<String>>>,
    /// How many more of its failing runs are run again watched for the files the sandbox
    /// hides from it ([`Runner::blocked`]).
    checks_left: Arc<std::sync::atomic::AtomicU32>,
    /// What it may never be given to read, whatever it asks.
    protected: Arc<[PathBuf]>,
}

impl<'a, G: Auditable> Runner<'a, G> {
    /// A runner of `program` in `form`, every run held to `--timeout` until another time
    /// limit is set.
    pub fn new(
        program: &'a Program,
        limits: Limits,
        form: Form,
        rules: G::Options,
        deadlines: &'a Deadlines,
        protected: Arc<[PathBuf]>,
    ) -> Runner<'a, G> {
        Runner {
            program,
            limits,
            time_limit: TimeLimit::fixed(limits.cpu),
            form,
            rules,
            deadlines,
            meter: Meter::default(),
            runs: Arc::new(AtomicU64::new(0)),
            cpu: Arc::new(AtomicU64::new(0)),
            fatal: Arc::new(Mutex::new(None)),
            checks_left: Arc::new(std::sync::atomic::AtomicU32::new(BLOCKED_CHECKS)),
            protected,
        }
    }

    /// A runner of the same program whose runs of cases use `form`; its runs count with this
    /// one's.
    pub fn reformed(&self, form: Form) -> Runner<'a, G> {
        Runner {
            program: self.program,
            limits: self.limits,
            time_limit: self.time_limit,
            form,
            rules: self.rules,
            deadlines: self.deadlines,
            meter: self.meter.clone(),
            runs: Arc::clone(&self.runs),
            cpu: Arc::clone(&self.cpu),
            fatal: Arc::clone(&self.fatal),
            checks_left: Arc::clone(&self.checks_left),
            protected: Arc::clone(&self.protected),
        }
    }

    /// The same runner, its runs counted with this one's, whose [`cpu`](Self::cpu) counts only
    /// the runs made through it (what one finding's shrinking spends, whatever other runs of the
    /// program go on at the same time).
    pub fn metered(&self) -> Runner<'a, G> {
        Runner {
            cpu: Arc::new(AtomicU64::new(0)),
            ..self.reformed(self.form)
        }
    }

    /// When its runs of cases and of their failures' examination are cut: the findings' end
    /// ([`Deadlines::findings`], which the screening's reserve brings forward).
    pub fn deadline(&self) -> Option<Instant> {
        self.deadlines.findings()
    }

    /// The audit's deadlines.
    pub fn deadlines(&self) -> &'a Deadlines {
        self.deadlines
    }

    /// The wall-clock time of the program's runs.
    pub fn meter(&self) -> &Meter {
        &self.meter
    }

    /// The CPU time the runs made through this runner cost
    /// ([`Run::cost`](referee_sandbox::Run::cost); a run stopped by the wall-clock cap counts
    /// its CPU limit).
    pub fn cpu(&self) -> Duration {
        Duration::from_nanos(self.cpu.load(Ordering::Relaxed))
    }

    /// Runs the program on `input` as it is, given `cpu` of CPU time, cut at `cut`, and
    /// classifies the run against `expected`; `None` when the program could not start (said
    /// by [`fatal`](Self::fatal)).
    pub fn run_for(
        &self,
        input: &[u8],
        expected: &str,
        cpu: Duration,
        cut: Option<Instant>,
    ) -> Option<Tried> {
        self.runs.fetch_add(1, Ordering::Relaxed);
        let limits = Limits { cpu, ..self.limits };
        self.run_limited(input, expected, &limits, cut)
    }

    /// One run within `limits`, cut at `cut`, classified against `expected` (not counted). A
    /// run may always write twice its expected output: an output limit below a correct answer
    /// would blame the program for the audit's settings.
    fn run_limited(
        &self,
        input: &[u8],
        expected: &str,
        limits: &Limits,
        cut: Option<Instant>,
    ) -> Option<Tried> {
        let limits = &Limits {
            max_output: limits.max_output.max(2 * expected.len()),
            ..*limits
        };
        match self.program.run(input, limits, cut) {
            Ok(run) => {
                self.meter.record(run.elapsed);
                // A run stopped by the wall-clock cap (it sleeps or blocks) is charged its CPU
                // limit, as a judge charges a timeout; others what they cost, the sandbox's
                // work for them included where the kernel counts it.
                let charged = match run.ending {
                    Ending::WallCap => limits.cpu.max(run.cost),
                    _ => run.cost,
                };
                let nanos = u64::try_from(charged.as_nanos()).unwrap_or(u64::MAX);
                self.cpu.fetch_add(nanos, Ordering::Relaxed);
                let tried = Tried::new(run, expected.to_string());
                if tried.kind.is_some() && !tried.cut() {
                    if let Some(why) = self.blocked(input, expected, limits, cut) {
                        self.fatal
                            .lock()
                            .unwrap_or_else(|e| e.into_inner())
                            .get_or_insert(why);
                        return None;
                    }
                }
                Some(tried)
            }
            Err(e) => {
                let mut fatal = self.fatal.lock().unwrap_or_else(|e| e.into_inner());
                fatal.get_or_insert_with(|| match e {
                    referee_sandbox::RunError::NotStarted(e) => {
                        format!("{}: cannot be run: {e}", self.program.display())
                    }
                    referee_sandbox::RunError::Sandbox(e) => format!(
                        "{}: not audited: the sandbox failed (the machine's doing, not the \
                         program's): {e}",
                        self.program.display()
                    ),
                });
                None
            }
        }
    }

    /// Whether the program may fail because its sandbox hides files it reads, checked on a
    /// failing run (`input` within `limits`): that run again with the same access, watched for
    /// the paths it asks for. When it fails again having asked for files the sandbox hides
    /// (never the audit's inputs, reports or package, which it may never read), it is not
    /// audited: why, the files, and the `--allow-read` that would give them, for a
    /// person to decide. A program is never run with more than it was given: what it asks for
    /// is its own say-so. Checked on its first failing runs, [`BLOCKED_CHECKS`] at most (a run
    /// in a form it does not read fails whatever it may read), and never again once a check
    /// finds it asks for nothing hidden.
    fn blocked(
        &self,
        input: &[u8],
        expected: &str,
        limits: &Limits,
        cut: Option<Instant>,
    ) -> Option<String> {
        let left = self
            .checks_left
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1));
        if self.program.jail().is_none() || left.is_err() {
            return None;
        }
        let watched = self.program.run_watched(input, limits, cut).ok()?;
        let hidden: Vec<PathBuf> = watched
            .hidden
            .iter()
            .filter(|p| !is_protected(p, &self.protected))
            .cloned()
            .collect();
        let fails = Tried::new(watched, expected.to_string()).kind.is_some();
        if hidden.is_empty() || !fails {
            self.checks_left.store(0, Ordering::SeqCst);
            return None;
        }
        let listed = |paths: &[PathBuf]| {
            paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        let flags: Vec<String> = directories_of(&hidden, &self.protected)
            .iter()
            .map(|d| format!("--allow-read {}", d.display()))
            .collect();
        let grant = match flags.is_empty() {
            true => String::new(),
            false => format!("; if they are its own, give them with {}", flags.join(" ")),
        };
        Some(format!(
            "{}: the sandbox hides files it reads ({}), and it fails without them: not audited \
             (audit never gives a program what it asks for){grant} (docs/security.md)",
            self.program.display(),
            listed(&hidden),
        ))
    }

    /// [`run_for`](Self::run_for) that must end: why it did not otherwise.
    pub fn run_to_end(
        &self,
        input: &[u8],
        expected: &str,
        cpu: Duration,
        cut: Option<Instant>,
    ) -> Result<Tried, NoAnswer> {
        let tried = self
            .run_for(input, expected, cpu, cut)
            .ok_or_else(|| NoAnswer::CannotRun(self.fatal().unwrap_or_default()))?;
        if tried.cut() {
            return Err(NoAnswer::Cut);
        }
        Ok(tried)
    }

    /// The time limit of a run of cases of `sizes` bytes each (in the single-case form): the sum
    /// of their limits, as a judge system gives each case its own ([`TimeLimit::for_bytes`]);
    /// a run of one case, that case's.
    pub fn limit_of_cases(&self, sizes: impl IntoIterator<Item = usize>) -> Duration {
        sizes
            .into_iter()
            .map(|bytes| self.time_limit.for_bytes(bytes))
            .sum()
    }

    /// Runs the program on `input`, the cases of `sizes` bytes each together, cut at `cut`:
    /// within the sum of their limits ([`limit_of_cases`](Self::limit_of_cases)), and, when
    /// there are several, within the largest case's limit per answer line
    /// ([`Limits::per_answer`]): a case that overruns its own limit stops the run soon after
    /// (its run then a timeout, [`referee_sandbox::Ending::AnswerLate`]), never at the sum of
    /// every case's; the cases run alone tell a program that holds its answers from one that
    /// overran ([`crate::audit::findings::settle`]).
    pub fn run_batch(
        &self,
        input: &[u8],
        expected: &str,
        sizes: &[usize],
        cut: Option<Instant>,
    ) -> Option<Tried> {
        self.runs.fetch_add(1, Ordering::Relaxed);
        let each: Vec<Duration> = sizes
            .iter()
            .map(|&b| self.time_limit.for_bytes(b))
            .collect();
        let limits = Limits {
            cpu: each.iter().sum(),
            per_answer: (each.len() > 1)
                .then(|| each.iter().copied().max())
                .flatten(),
            ..self.limits
        };
        self.run_limited(input, expected, &limits, cut)
    }

    /// Runs the program on `input` as it is, within the time limit of its size, cut at the
    /// audit's deadline.
    pub fn run(&self, input: &[u8], expected: &str) -> Option<Tried> {
        self.run_for(
            input,
            expected,
            self.time_limit.for_bytes(input.len()),
            self.deadline(),
        )
    }

    /// [`run`](Self::run) given `cpu` of CPU time (a timeout is run again with more), and
    /// `padding` bytes more environment.
    pub fn run_again(
        &self,
        input: &[u8],
        expected: &str,
        cpu: Duration,
        padding: usize,
    ) -> Option<Tried> {
        self.runs.fetch_add(1, Ordering::Relaxed);
        let limits = Limits {
            cpu,
            padding,
            ..self.limits
        };
        self.run_limited(input, expected, &limits, self.deadline())
    }

    /// The cases of `inputs` (each in the single-case form) as one input in the program's form.
    pub fn input_of(&self, inputs: &[Vec<u8>]) -> Vec<u8> {
        in_form::<G>(self.form, inputs)
    }

    /// Runs the program on the cases `inputs` together, with the engine's expected output;
    /// `None` when the engine does not judge them or the program could not start. Also the
    /// engine's verdict of each case.
    pub fn run_cases(&self, inputs: &[Vec<u8>]) -> Option<(Tried, Vec<String>)> {
        let input = self.input_of(inputs);
        let (expected, verdicts) = judged::<G>(&input, self.rules)?;
        let sizes: Vec<usize> = inputs.iter().map(Vec::len).collect();
        Some((
            self.run_batch(&input, &expected, &sizes, self.deadline())?,
            verdicts,
        ))
    }

    /// Runs so far.
    pub fn runs(&self) -> u64 {
        self.runs.load(Ordering::Relaxed)
    }

    /// Why the program cannot be run, once it failed to start.
    pub fn fatal(&self) -> Option<String> {
        self.fatal.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

/// Whether `path` is, or is inside, one of `protected` (each resolved), once its links and
/// `..` are resolved.
fn is_protected(path: &Path, protected: &[PathBuf]) -> bool {
    let path = crate::formats::write::real_path(path);
    protected.iter().any(|q| path.starts_with(q))
}

/// The directories that hold `paths` (a directory is its own), each once, none inside
/// another: what a program that asked for `paths` needs to read. A directory that holds one
/// of `protected`, or the root, is never one: the file itself stands for it then.
fn directories_of(paths: &[PathBuf], protected: &[PathBuf]) -> Vec<PathBuf> {
    let holds_protected = |dir: &Path| {
        dir.parent().is_none()
            || is_protected(dir, protected)
            || protected
                .iter()
                .any(|q| q.starts_with(crate::formats::write::real_path(dir)))
    };
    let mut dirs: Vec<PathBuf> = paths
        .iter()
        .filter_map(|p| {
            let dir = if p.is_dir() { p.as_path() } else { p.parent()? };
            if !holds_protected(dir) {
                Some(dir.to_path_buf())
            } else if !holds_protected(p) {
                Some(p.clone())
            } else {
                None
            }
        })
        .collect();
    dirs.sort();
    dirs.dedup();
    let all = dirs.clone();
    dirs.retain(|d| !all.iter().any(|other| other != d && d.starts_with(other)));
    dirs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_directories_a_program_needs_hold_every_path_once() {
        let dir = tempfile::tempdir().unwrap();
        let classes = dir.path().join("classes");
        std::fs::create_dir_all(classes.join("nested")).unwrap();
        for file in [
            "classes/Main.class",
            "classes/nested/Util.class",
            "config.txt",
        ] {
            std::fs::write(dir.path().join(file), "").unwrap();
        }
        let asked = [
            classes.join("Main.class"),
            classes.join("nested/Util.class"),
            classes.clone(),
            dir.path().join("config.txt"),
        ];
        // The classes' directory holds the nested one; the configuration's is the root, which
        // holds them all.
        assert_eq!(directories_of(&asked, &[]), [dir.path().to_path_buf()]);
        assert_eq!(
            directories_of(&asked[..3], &[]),
            std::slice::from_ref(&classes)
        );
        assert!(directories_of(&[], &[]).is_empty());
        // A directory holding what the audit protects is never given: the file stands for it.
        let data = dir.path().join("data");
        assert_eq!(
            directories_of(&asked, &[data]),
            [classes, dir.path().join("config.txt")]
        );
        assert_eq!(
            directories_of(&[PathBuf::from("/etc-like")], &[]),
            [PathBuf::from("/etc-like")]
        );
    }

    #[test]
    fn a_protected_path_is_known_by_what_it_names_not_how_it_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let package = dir.path().join("pkg");
        std::fs::create_dir_all(package.join("data/secret")).unwrap();
        std::fs::create_dir(dir.path().join("elsewhere")).unwrap();
        std::os::unix::fs::symlink(&package, dir.path().join("link")).unwrap();
        // Named with `..` by the auditor, asked for through a link by the program.
        let protected = crate::audit::settings::protected(
            &[dir.path().join("elsewhere/../pkg")],
            [&None; 3],
            &dir.path().join("out"),
        );
        for asked in ["link/data/secret/1.ans", "pkg/data", "elsewhere/../pkg"] {
            assert!(is_protected(&dir.path().join(asked), &protected), "{asked}");
        }
        assert!(!is_protected(&dir.path().join("elsewhere/x"), &protected));
        // The directory holding the package is never one to give.
        assert_eq!(
            directories_of(&[dir.path().join("elsewhere")], &protected),
            [dir.path().join("elsewhere")]
        );
        assert!(directories_of(&[dir.path().join("link/data/x")], &protected).is_empty());
    }

    #[test]
    fn a_time_limit_from_the_data_scales_with_the_input_and_stays_in_bounds() {
        let most = Duration::from_secs(2);
        assert_eq!(TimeLimit::fixed(most).for_bytes(1 << 30), most);
        let limit = TimeLimit {
            most,
            from_data: Some(FromData {
                slowest: Duration::from_millis(20),
                largest: 1000,
            }),
        };
        // As long as the data's largest file: five times the slowest, but at least the floor.
        assert_eq!(limit.for_bytes(10), LEAST_LIMIT);
        assert_eq!(limit.for_bytes(1000), LEAST_LIMIT);
        // Four times the file: four times the time.
        assert_eq!(limit.for_bytes(4000), Duration::from_millis(400));
        // Never above --timeout.
        assert_eq!(limit.for_bytes(1 << 30), most);
        // A --timeout below the floor is the limit.
        let tight = TimeLimit {
            most: Duration::from_millis(100),
            from_data: Some(FromData {
                slowest: Duration::from_millis(1),
                largest: 10,
            }),
        };
        assert_eq!(tight.for_bytes(1), Duration::from_millis(100));
    }
}
