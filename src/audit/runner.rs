//! Running one program: every run of an audit goes through its [`Runner`], so each is counted,
//! held to the time limit (CPU time, as judge systems count it; wall-clock time only caps, see
//! [`super::usage`]), written in the form the program reads, and cut at the audit's deadline or
//! on interruption.

use crate::audit::Auditable;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::deadlines::{Deadlines, Meter};
use super::outcome::Tried;
use super::plan::judged;
use super::program::{Ending, Limits, Program};
use crate::game::{in_form, Form};

/// How much CPU time a run that is as long as the data's longest file may take, as a multiple
/// of the most CPU time a program expected accepted took on one data file.
pub const LIMIT_FACTOR: u32 = 5;

/// The least time limit a derived limit gives (the CPU time of starting an interpreter).
pub const LEAST_LIMIT: Duration = Duration::from_millis(250);

/// The CPU time a run may take, as judge systems set it: from the CPU times of the programs
/// expected accepted on the existing data, [`LIMIT_FACTOR`] times the slowest, scaled by the
/// run's input against the data's largest file, at least [`LEAST_LIMIT`], at most `--timeout`;
/// `--timeout` itself when no such time is known. A run's wall-clock time is capped at
/// [`super::usage::WALL_FACTOR`] times its limit, its waits for a CPU not counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct TimeLimit {
    /// `--timeout`: no run takes more CPU time.
    #[serde(with = "super::seconds")]
    pub most: Duration,
    /// The slowest accepted CPU time on one data file, and the data's largest file in bytes.
    pub from_data: Option<FromData>,
}

/// What a time limit derived from the data comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FromData {
    /// The most CPU time a program expected accepted took on one data file.
    #[serde(with = "super::seconds")]
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
            "; wall-clock cap {} x the limit, waits for a CPU not counted",
            super::usage::WALL_FACTOR
        );
        match self.from_data {
            None => format!(
                "{:.2} s of CPU time per run (--timeout){cap}",
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
    /// ([`super::program::Ending::Cut`]).
    deadlines: &'a Deadlines,
    /// The wall-clock time of the program's runs, shared by all its runners.
    meter: Meter,
    runs: Arc<AtomicU64>,
    /// The CPU time of the runs made through this runner (shared with
    /// [`reformed`](Self::reformed) ones, not with [`metered`](Self::metered) ones), in
    /// nanoseconds; a run stopped by the wall-clock cap counts its CPU limit.
    cpu: Arc<AtomicU64>,
    fatal: Arc<Mutex<Option<String>>>,
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

    /// The CPU time of the runs made through this runner (a run stopped by the wall-clock cap
    /// counts its CPU limit).
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
                // limit, as a judge charges a timeout.
                let charged = match run.ending {
                    Ending::WallCap => limits.cpu.max(run.cpu),
                    _ => run.cpu,
                };
                let nanos = u64::try_from(charged.as_nanos()).unwrap_or(u64::MAX);
                self.cpu.fetch_add(nanos, Ordering::Relaxed);
                Some(Tried::new(run, expected.to_string()))
            }
            Err(e) => {
                let mut fatal = self.fatal.lock().unwrap_or_else(|e| e.into_inner());
                fatal.get_or_insert_with(|| {
                    format!("{}: cannot be run: {e}", self.program.display())
                });
                None
            }
        }
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

    /// [`run`](Self::run) with `factor` times the time limit (a timeout run again), and
    /// `padding` bytes more environment.
    pub fn run_again(
        &self,
        input: &[u8],
        expected: &str,
        factor: u32,
        padding: usize,
    ) -> Option<Tried> {
        self.runs.fetch_add(1, Ordering::Relaxed);
        let limits = Limits {
            cpu: self.time_limit.for_bytes(input.len()) * factor,
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
        Some((self.run(&input, &expected)?, verdicts))
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

#[cfg(test)]
mod tests {
    use super::*;

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
