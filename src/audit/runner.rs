//! Running the program on cases of one game, in the form it reads: every run of the audit
//! after the probe goes through here, so none can use another form, and each counts.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use super::outcome::Tried;
use super::program::{Limits, Program};
use super::units::judged;
use crate::game::{in_form, Form, Game};

/// The program, its limits and form, and the audit's deadline.
pub struct Runner<'a, G: Game> {
    /// The program.
    pub program: &'a Program,
    /// Each run's limits.
    pub limits: Limits,
    /// The form every run uses.
    pub form: Form,
    /// The rule set.
    pub rules: G::Options,
    /// Runs still going then are cut ([`crate::audit::program::Ending::Cut`]).
    pub deadline: Option<Instant>,
    runs: AtomicU64,
    fatal: Mutex<Option<String>>,
}

impl<'a, G: Game> Runner<'a, G> {
    /// A runner of `program` in `form`.
    pub fn new(
        program: &'a Program,
        limits: Limits,
        form: Form,
        rules: G::Options,
        deadline: Option<Instant>,
    ) -> Runner<'a, G> {
        Runner {
            program,
            limits,
            form,
            rules,
            deadline,
            runs: AtomicU64::new(0),
            fatal: Mutex::new(None),
        }
    }

    /// Runs the program on `input` (already in the form) within `limits`, cut at `cut`, and
    /// classifies the run against `expected`; `None` when it could not start (said by
    /// [`fatal`](Self::fatal)).
    pub fn run_within(
        &self,
        input: &[u8],
        expected: &str,
        limits: &Limits,
        cut: Option<Instant>,
    ) -> Option<Tried> {
        self.runs.fetch_add(1, Ordering::Relaxed);
        match self.program.run(input, limits, cut) {
            Ok(run) => Some(Tried::new(run, expected.to_string())),
            Err(e) => {
                let mut fatal = self.fatal.lock().unwrap_or_else(|e| e.into_inner());
                fatal.get_or_insert_with(|| {
                    format!("{}: cannot be run: {e}", self.program.display())
                });
                None
            }
        }
    }

    /// Runs the program on `input` (already in the form) within the audit's limits and
    /// deadline.
    pub fn run(&self, input: &[u8], expected: &str) -> Option<Tried> {
        self.run_within(input, expected, &self.limits, self.deadline)
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

    /// Why the audit cannot go on (the program could not be started), once.
    pub fn fatal(&self) -> Option<String> {
        self.fatal.lock().unwrap_or_else(|e| e.into_inner()).take()
    }
}
