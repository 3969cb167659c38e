//! Which input form a program reads, found before its cases: it runs on the problem statement's
//! own examples ([`Forms::PROBES`](crate::game::Forms::PROBES)) written in a form (both examples in the multi-case form, the
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
//! finding. A timeout is the program's like any other failure: the time limit counts CPU time,
//! which a busy machine does not change. When the audit's deadline cuts an attempt after
//! another one ended without fitting, the program fits no form tried: a program that never
//! answers within `--time` is wrong, not unaudited.

use crate::audit::running::runner::{NoAnswer, Runner};
use crate::audit::terms::outcome::{answers_in_shape, exit_text, Tried};
use crate::audit::terms::Auditable;
use crate::audit::terms::Kind;
use crate::game::{in_form, render, Engine, Form};
use crate::util::answer::escape;
use referee_sandbox::Ending;

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
            (_, Ending::TimedOut | Ending::WallCap) => {
                format!("timed out ({})", self.tried.run.stopped())
            }
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
    pub fn shown<G: Auditable>(&self) -> String {
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
pub fn examples_in<G: Auditable>(form: Form, rules: G::Options) -> (Vec<u8>, String, usize) {
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
fn attempt<G: Auditable>(runner: &Runner<G>, form: Form) -> Result<Attempt, NoAnswer> {
    let (input, expected, cases) = examples_in::<G>(form, runner.rules);
    let limit = runner.time_limit.for_bytes(input.len());
    let tried = runner.run_to_end(&input, &expected, limit, runner.deadline())?;
    Ok(Attempt {
        fits: answers_in_shape::<G>(&tried.run, cases),
        form,
        input,
        tried,
        cases,
    })
}

/// Probes the program of `runner`: in `problem`'s form when it is known, else in each form.
pub fn probe<G: Auditable>(runner: &Runner<G>, problem: Option<Form>) -> Result<Fit, NoAnswer> {
    let first = problem.unwrap_or(Form::Multi);
    let other = match first {
        Form::Multi => Form::Single,
        Form::Single => Form::Multi,
    };
    let first_try = attempt::<G>(runner, first)?;
    if problem.is_some() && first_try.fits {
        return Ok(Fit::Fits {
            form: first,
            why: format!(
                "the problem's form; the program's output has the shape of an answer in it ({})",
                first_try.outcome()
            ),
        });
    }
    let other_try = match attempt::<G>(runner, other) {
        Ok(other_try) => other_try,
        // Cut after the first attempt ended: it is all there is to say.
        Err(NoAnswer::Cut) if !first_try.fits => {
            return Ok(Fit::NoForm {
                attempts: vec![first_try],
                reads: None,
            })
        }
        Err(NoAnswer::Cut) => {
            return Ok(Fit::Fits {
                form: first,
                why: format!(
                    "the program's output fits the {} form ({}; --time ran out, or an \
                     interruption came, before the other form was tried)",
                    first.as_str(),
                    first_try.outcome()
                ),
            })
        }
        Err(e) => return Err(e),
    };
    if problem.is_none() {
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
