//! Which input form a program reads, found before any work: the program runs on the problem
//! statement's own examples ([`Game::PROBES`]) in each form, the second example alone in the
//! single-case form and both in the multi-case form (so that a program reading only one case
//! cannot pass for a multi-case reader). A form is kept when the program answers it correctly
//! (accepted, or the right verdicts laid out differently); `auto` prefers the multi-case form,
//! which lets a run hold many cases. Every later run of the audit uses the form kept.

use std::time::Instant;

use super::outcome::{exit_text, Tried};
use super::program::{Ending, Limits, Program};
use super::Kind;
use crate::answer::escape;
use crate::game::{in_form, render, Engine, Form, Game};

/// The form kept, and why.
#[derive(Debug, Clone)]
pub struct Chosen {
    /// The form every run uses.
    pub form: Form,
    /// Why, in a sentence for the summary and the manifest.
    pub why: String,
    /// The runs of the program the probe took.
    pub runs: u64,
}

/// One probe run.
struct Attempt {
    form: Form,
    input: Vec<u8>,
    tried: Tried,
    runs: u64,
}

impl Attempt {
    /// Whether the program answered correctly.
    fn answered(&self) -> bool {
        matches!(self.tried.kind, None | Some(Kind::PresentationError)) && !self.tried.cut()
    }

    /// What happened, in a few words.
    fn outcome(&self) -> String {
        match (self.tried.kind, self.tried.run.ending) {
            (_, Ending::Cut) => "cut short".into(),
            (None, _) => "answered correctly".into(),
            (Some(Kind::PresentationError), _) => "answered, laid out differently".into(),
            (_, Ending::TimedOut) => format!(
                "timed out after {:.1} s",
                self.tried.run.elapsed.as_secs_f64()
            ),
            (Some(kind), ending) => match exit_text(ending) {
                exit if exit.is_empty() => kind.as_str().to_string(),
                exit => format!("{kind} (exit {exit})"),
            },
        }
    }

    /// The attempt in full, for the error when no form is answered.
    fn shown<G: Game>(&self) -> String {
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
}

/// Runs the program on the probe of `form`; a timeout is given a second run with twice the
/// time (a loaded machine is not a wrong form).
fn attempt<G: Game>(
    program: &Program,
    limits: &Limits,
    rules: G::Options,
    form: Form,
) -> Result<Attempt, String> {
    let cases: Vec<Vec<u8>> = match form {
        Form::Single => vec![G::PROBES[1].as_bytes().to_vec()],
        Form::Multi => G::PROBES.iter().map(|p| p.as_bytes().to_vec()).collect(),
    };
    let input = in_form::<G>(form, &cases);
    let judged = G::judge(Engine::Fast, &mut &input[..], rules)
        .map_err(|e| format!("the engine rejects the {} probe: {e}", G::NAME))?;
    let expected = render::<G>(&judged);
    let mut slower = *limits;
    let mut tried = None;
    let mut runs = 0;
    for _ in 0..2 {
        runs += 1;
        let run = program
            .run(&input, &slower, None::<Instant>)
            .map_err(|e| format!("{}: cannot be run: {e}", program.display()))?;
        let t = Tried::new(run, expected.clone());
        let again = t.kind == Some(Kind::Timeout);
        tried = Some(t);
        if !again {
            break;
        }
        slower.timeout *= 2;
    }
    Ok(Attempt {
        form,
        input,
        tried: tried.expect("one run at least"),
        runs,
    })
}

/// The form of `asked`, or with `None` the form the program answers (the multi-case form when
/// it answers both). An error shows every attempt when the program answers no form tried.
pub fn choose<G: Game>(
    program: &Program,
    limits: &Limits,
    rules: G::Options,
    asked: Option<Form>,
) -> Result<Chosen, String> {
    let forms = match asked {
        Some(form) => vec![form],
        None => vec![Form::Multi, Form::Single],
    };
    let attempts = forms
        .into_iter()
        .map(|form| attempt::<G>(program, limits, rules, form))
        .collect::<Result<Vec<_>, _>>()?;
    if super::program::interrupted() {
        return Err("interrupted before the program's input form was found".into());
    }
    let answered: Vec<&Attempt> = attempts.iter().filter(|a| a.answered()).collect();
    let Some(kept) = answered.first() else {
        let shown: Vec<String> = attempts.iter().map(Attempt::shown::<G>).collect();
        return Err(format!(
            "{} does not answer {}'s statement examples in {}; every finding would be an \
             artifact of the input form:\n{}",
            program.display(),
            G::NAME,
            match asked {
                Some(form) => format!("the {} form (--form {})", form.as_str(), form.as_str()),
                None => "either input form".to_string(),
            },
            shown.join("\n")
        ));
    };
    let other = attempts.iter().find(|a| a.form != kept.form);
    let why = match (asked, other) {
        (Some(_), _) => format!(
            "asked with --form; the program {} the statement's examples in it",
            kept.outcome().replace("answered", "answers")
        ),
        (None, Some(o)) if o.answered() => {
            "the program answers the statement's examples in both forms; the multi-case form \
             lets a run hold many cases"
                .to_string()
        }
        (None, Some(o)) => format!(
            "the program answers the statement's examples in the {} form only (in the {} form: \
             {})",
            kept.form.as_str(),
            o.form.as_str(),
            o.outcome()
        ),
        (None, None) => "the only form tried".to_string(),
    };
    Ok(Chosen {
        form: kept.form,
        why,
        runs: attempts.iter().map(|a| a.runs).sum(),
    })
}
