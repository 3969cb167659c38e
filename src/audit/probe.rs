//! Which input form a program reads, found before its cases: it runs on the problem statement's
//! own examples ([`Game::PROBES`]) written in a form (both examples in the multi-case form, the
//! second alone in the single-case form, so that a program reading one case cannot pass for a
//! multi-case reader). The form *fits* when the output has the shape of an answer: one verdict
//! line per case, each in the game's output grammar ([`answers_in_shape`]). Whether the answers
//! are right is not asked here: a program that answers the examples wrongly in the form it
//! reads is audited in that form, and the examples are its first cases.
//!
//! With the problem's form known, the program must read it: only that form can fit (the other
//! is tried too, to say what the program reads instead). With one program and nothing known,
//! the form whose output fits is kept, the multi-case form when both fit (a run then holds
//! many cases). A program whose output fits no form tried is wrong whichever form the contest
//! uses: the pipeline reports the attempt in the problem's form (else the first tried) as its
//! finding.

use super::outcome::{answers_in_shape, exit_text, Tried};
use super::program::Ending;
use super::runner::Runner;
use super::Kind;
use crate::answer::escape;
use crate::game::{in_form, render, Engine, Form, Game};

/// What the probe found.
#[derive(Debug, Clone)]
pub enum Fit {
    /// The program's output has the shape of an answer in `form`.
    Fits {
        /// The form every run uses.
        form: Form,
        /// Why, in a sentence for the summary and the manifest.
        why: String,
    },
    /// No form tried fits: each attempt, the one in the problem's form (else the first tried)
    /// first.
    NoForm {
        /// The attempts.
        attempts: Vec<Attempt>,
        /// The form the program fits instead of the problem's, when it fits the other one.
        reads: Option<Form>,
    },
}

/// Why the probe gave no answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unprobed {
    /// The program could not be started: why.
    CannotRun(String),
    /// The audit's deadline or an interruption cut a run short.
    Cut,
}

/// One run of the examples in one form.
#[derive(Debug, Clone)]
pub struct Attempt {
    /// The form tried.
    pub form: Form,
    /// The examples in that form.
    pub input: Vec<u8>,
    /// The run, against the engine's output.
    pub tried: Tried,
    /// How many examples the input holds.
    pub cases: usize,
    /// Whether the output has the shape of an answer.
    pub fits: bool,
    /// Whether it timed out, then timed out again with twice the time (a reproduction).
    pub timed_out_twice: bool,
}

impl Attempt {
    /// What happened, in a few words.
    pub fn outcome(&self) -> String {
        let answered = match self.tried.kind {
            None => "answered correctly",
            Some(Kind::PresentationError) => "answered correctly, laid out differently",
            Some(_) => "answered wrongly",
        };
        match (self.tried.kind, self.tried.run.ending) {
            (_, Ending::Cut) => "cut short".into(),
            _ if self.fits => answered.into(),
            (_, Ending::TimedOut) => format!(
                "timed out after {:.1} s",
                self.tried.run.elapsed.as_secs_f64()
            ),
            (_, Ending::Exited(0)) if self.tried.run.stdout.is_empty() => "no output".into(),
            (_, Ending::Exited(0)) => format!(
                "an output that is not {} answer{} of the game",
                self.cases,
                if self.cases == 1 { "" } else { "s" }
            ),
            (kind, ending) => match (kind, exit_text(ending)) {
                (Some(kind), exit) if exit.is_empty() => kind.as_str().to_string(),
                (Some(kind), exit) => format!("{kind} (exit {exit})"),
                (None, exit) => format!("exit {exit}"),
            },
        }
    }

    /// The attempt in full: input, expected and actual output, standard error.
    pub fn shown<G: Game>(&self) -> String {
        let form = match self.form {
            Form::Single => G::SINGLE_FORM,
            Form::Multi => G::MULTI_FORM,
        };
        let block = |bytes: &[u8]| escape(bytes, 300);
        format!(
            "  {} form ({form}): {}\n    input:    {}\n    expected: {}\n    output:   {}\n    \
             stderr:   {}",
            self.form.as_str(),
            self.outcome(),
            block(&self.input),
            block(self.tried.expected.as_bytes()),
            block(&self.tried.run.stdout),
            block(&self.tried.run.stderr_tail),
        )
    }

    /// In one line: `multi form: crash (exit 1)`.
    pub fn summary(&self) -> String {
        format!("{} form: {}", self.form.as_str(), self.outcome())
    }
}

/// The statement's examples in `form` and the engine's output for them.
pub fn examples_in<G: Game>(form: Form, rules: G::Options) -> (Vec<u8>, String, usize) {
    let cases: Vec<Vec<u8>> = match form {
        Form::Single => vec![G::PROBES[1].as_bytes().to_vec()],
        Form::Multi => G::PROBES.iter().map(|p| p.as_bytes().to_vec()).collect(),
    };
    let input = in_form::<G>(form, &cases);
    let judged = G::judge(Engine::Fast, &mut &input[..], rules)
        .expect("the engine judges the statement's examples");
    (input, render::<G>(&judged), cases.len())
}

/// Runs the program on the examples in `form`.
fn attempt<G: Game>(runner: &Runner<G>, form: Form) -> Result<Attempt, Unprobed> {
    let (input, expected, cases) = examples_in::<G>(form, runner.rules);
    let tried = run::<G>(runner, &input, &expected, 1)?;
    Ok(Attempt {
        fits: answers_in_shape::<G>(&tried.run, cases),
        form,
        input,
        tried,
        cases,
        timed_out_twice: false,
    })
}

/// One run of the probe, `factor` times the time limit.
fn run<G: Game>(
    runner: &Runner<G>,
    input: &[u8],
    expected: &str,
    factor: u32,
) -> Result<Tried, Unprobed> {
    let tried = runner
        .run_slower(input, expected, factor)
        .ok_or_else(|| Unprobed::CannotRun(runner.fatal().unwrap_or_default()))?;
    if tried.cut() {
        return Err(Unprobed::Cut);
    }
    Ok(tried)
}

/// `attempt` again with twice the time when it timed out (a loaded machine is not a wrong
/// form).
fn again_if_timed_out<G: Game>(runner: &Runner<G>, attempt: &mut Attempt) -> Result<(), Unprobed> {
    if attempt.tried.kind != Some(Kind::Timeout) {
        return Ok(());
    }
    let tried = run::<G>(runner, &attempt.input, &attempt.tried.expected, 2)?;
    attempt.fits = answers_in_shape::<G>(&tried.run, attempt.cases);
    attempt.timed_out_twice = tried.kind == Some(Kind::Timeout);
    attempt.tried = tried;
    Ok(())
}

/// Probes the program of `runner`: in `problem`'s form when it is known, else in each form.
/// An attempt that timed out runs again with twice the time when the choice depends on it.
pub fn probe<G: Game>(runner: &Runner<G>, problem: Option<Form>) -> Result<Fit, Unprobed> {
    let first = problem.unwrap_or(Form::Multi);
    let other = match first {
        Form::Multi => Form::Single,
        Form::Single => Form::Multi,
    };
    let mut first_try = attempt::<G>(runner, first)?;
    if problem.is_some() {
        again_if_timed_out(runner, &mut first_try)?;
        if first_try.fits {
            return Ok(Fit::Fits {
                form: first,
                why: format!(
                    "the problem's form; the program's output has the shape of an answer in it \
                     ({})",
                    first_try.outcome()
                ),
            });
        }
    }
    let mut other_try = attempt::<G>(runner, other)?;
    if problem.is_none() {
        if !first_try.fits && !other_try.fits {
            again_if_timed_out(runner, &mut first_try)?;
            again_if_timed_out(runner, &mut other_try)?;
        }
        if let Some(why) = by_shape(&first_try, &other_try) {
            let form = if first_try.fits { first } else { other };
            return Ok(Fit::Fits { form, why });
        }
    }
    let reads = other_try.fits.then_some(other);
    Ok(Fit::NoForm {
        attempts: vec![first_try, other_try],
        reads,
    })
}

/// Why a form is kept by the shape of the output, the multi-case form's attempt first:
/// `None` when neither fits.
fn by_shape(multi: &Attempt, single: &Attempt) -> Option<String> {
    match (multi.fits, single.fits) {
        (true, true) => Some(format!(
            "the program's output fits both forms; the multi-case form lets a run hold many \
             cases ({})",
            multi.outcome()
        )),
        (true, false) | (false, true) => {
            let (kept, not) = if multi.fits {
                (multi, single)
            } else {
                (single, multi)
            };
            Some(format!(
                "the program's output fits the {} form only ({}; {})",
                kept.form.as_str(),
                kept.outcome(),
                not.summary()
            ))
        }
        (false, false) => None,
    }
}
