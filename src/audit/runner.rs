//! Running the program on cases of one game, in the form it reads: every run of the audit
//! after the probe goes through here, so none can use another form, and each counts.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
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
    /// Shared with the audits of other programs running at the same time.
    slots: Option<Arc<Slots>>,
}

/// The runs that may go on at once across every audit of a run auditing several programs.
#[derive(Debug)]
pub struct Slots {
    free: Mutex<usize>,
    freed: Condvar,
}

impl Slots {
    /// `count` runs at once.
    pub fn new(count: usize) -> Slots {
        Slots {
            free: Mutex::new(count.max(1)),
            freed: Condvar::new(),
        }
    }

    /// Waits for a free slot and holds it until the guard is dropped.
    pub fn hold(&self) -> SlotGuard<'_> {
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        while *free == 0 {
            free = self.freed.wait(free).unwrap_or_else(|e| e.into_inner());
        }
        *free -= 1;
        SlotGuard(self)
    }
}

/// A slot held: freed when dropped.
pub struct SlotGuard<'a>(&'a Slots);

impl Drop for SlotGuard<'_> {
    fn drop(&mut self) {
        *self.0.free.lock().unwrap_or_else(|e| e.into_inner()) += 1;
        self.0.freed.notify_one();
    }
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
            slots: None,
        }
    }

    /// The runner taking a slot of `slots` for each run.
    pub fn sharing(mut self, slots: Option<Arc<Slots>>) -> Runner<'a, G> {
        self.slots = slots;
        self
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
        let _slot = self.slots.as_ref().map(|s| s.hold());
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
