//! The stages of an audit, each advancing every program it can (see the [module](super)
//! documentation): the probe, the existing data, the repeated runs, the cases, the programs that
//! fit no form ([`examine`]), the cases' units scheduled across the programs ([`schedule`]); each program's record ([`records()`]); the strengthening
//! ([`strengthening`]).
//!
//! Each program is one [`Subject`]: its entrant, its runner, and its [`Stage`], which every
//! stage advances (each state holds everything the stages before gave, nothing to be filled
//! later). When the stages are done, each program's record is built once
//! ([`crate::audit::reports::audited::ProgramRecord`]).

mod examine;
mod records;
pub(crate) mod schedule;
mod strengthening;

pub(in crate::audit) use examine::{
    cases_stage, data_stage, limits_stage, no_form_stage, probe_stage, screening_meters, CasesFacts,
};
pub(in crate::audit) use records::records;
pub(in crate::audit) use strengthening::strengthening_stage;

use crate::audit::cases::data::DataOutcome;
use crate::audit::cases::probe::Fit;
use crate::audit::entrants::Entrant;
use crate::audit::findings::finding::ProgramFindings;
use crate::audit::reports::audited::{CasesOutcome, FormUsed};
use crate::audit::running::deadlines::Deadlines;
use crate::audit::running::runner::{NoAnswer, Runner};
use crate::audit::settings::Settings;
use crate::audit::terms::Auditable;
use crate::game::Form;

/// The cases each program runs before the programs that do not go first (those the existing
/// data rejects) get theirs.
pub const FIRST_CASES: u64 = 2000;

/// How far a program got. Each state holds what the stages before it gave.
enum Stage {
    /// Not probed yet.
    Entered,
    /// It cannot be run: why.
    CannotRun(String),
    /// The deadline, or an interruption, came before its examples ran.
    NotProbed,
    /// The form its output fits, or the attempts that fit none.
    Probed(Fit),
    /// And its result on the existing data.
    Tried(Fit, DataOutcome),
    /// Every stage that examines it done.
    Examined {
        form: FormUsed,
        on_data: DataOutcome,
        cases: CasesOutcome,
        found: ProgramFindings,
    },
}

/// One program through the stages.
pub(in crate::audit) struct Subject<'e, G: Auditable> {
    entrant: &'e Entrant,
    /// Its runner; none when it did not build.
    runner: Option<Runner<'e, G>>,
    stage: Stage,
}

impl<'e, G: Auditable> Subject<'e, G> {
    pub(in crate::audit) fn new(
        entrant: &'e Entrant,
        settings: &Settings<G::Options>,
        form: Form,
        deadlines: &'e Deadlines,
    ) -> Subject<'e, G> {
        let (runner, stage) = match &entrant.program {
            Ok(program) => (
                Some(Runner::new(
                    program,
                    settings.limits,
                    form,
                    settings.rules,
                    deadlines,
                    settings.protected().into(),
                )),
                Stage::Entered,
            ),
            Err(why) => (None, Stage::CannotRun(why.to_string())),
        };
        Subject {
            entrant,
            runner,
            stage,
        }
    }

    /// Moves to the stage `next` makes of the current one.
    fn advance(&mut self, next: impl FnOnce(Stage) -> Stage) {
        let stage = std::mem::replace(&mut self.stage, Stage::Entered);
        self.stage = next(stage);
    }

    /// Its runner, when it can run.
    fn runnable(&self) -> Option<&Runner<'e, G>> {
        self.runner.as_ref().filter(|r| r.fatal().is_none())
    }

    /// Its findings, once examined.
    fn found(&self) -> Option<&ProgramFindings> {
        match &self.stage {
            Stage::Examined { found, .. } => Some(found),
            _ => None,
        }
    }

    fn found_mut(&mut self) -> Option<&mut ProgramFindings> {
        match &mut self.stage {
            Stage::Examined { found, .. } => Some(found),
            _ => None,
        }
    }
}

/// The state of a program that got no answer to a run.
fn stopped(no_answer: NoAnswer, cut: Stage) -> Stage {
    match no_answer {
        NoAnswer::CannotRun(why) => Stage::CannotRun(why),
        NoAnswer::Cut => cut,
    }
}
