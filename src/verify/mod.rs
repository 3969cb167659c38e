//! `referee verify`: judge every case of a file with the engine and the reference, compare them
//! with each other and with the `.ans` answers, and produce report rows. Generic over the game;
//! [`run`] walks the files and dispatches each to its game.

mod answers;
mod cases;
pub mod merge;
pub mod package;
pub mod run;

use std::io::Read;
use std::path::Path;

use answers::AnswerLines;

use crate::formats::{Row, Status};
use crate::game::AnyGame;
use crate::game::Referenced;
use crate::game::{Game, ReferenceReading, RuleSet};
use crate::games::detect::{recognise_input, rules_from_file_name};
use crate::games::GameName;
use crate::util::error::JudgeError;
use crate::util::walk::CaseFile;

/// The default reference budget, in the reference's elementary steps (a few seconds of work).
pub const DEFAULT_REFERENCE_BUDGET: u64 = 2_000_000_000;

/// Inputs up to this size are read once into memory and read from there by both
/// implementations; larger ones are read from disk by each, a case at a time.
pub const IN_MEMORY_LIMIT: u64 = 8 << 20;

/// The default bound of the reference on one case in `verify`: what it can hold
/// ([`crate::util::text::reference_input_limit`]), at most [`IN_MEMORY_LIMIT`].
pub fn default_reference_max_bytes() -> u64 {
    crate::util::text::reference_input_limit().min(IN_MEMORY_LIMIT)
}

/// Where a file's rows go, in order: a function any thread may call.
pub type Emit<'a> = dyn FnMut(Row) + Send + 'a;

/// How to verify, whatever the game.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// Estimated reference steps of one case beyond which the reference is skipped on it.
    pub reference_budget: u64,
    /// Never run the reference.
    pub no_reference: bool,
    /// The largest case the reference runs on, in bytes (it holds a case in memory; its worst
    /// factor is [`crate::util::text::REFERENCE_MEMORY_FACTOR`]).
    pub reference_max_bytes: u64,
    /// Threads for the cases of one file (1: judged in the calling thread).
    pub jobs: usize,
}

/// A case's content: in memory when small, else on disk.
pub enum Input<'a> {
    /// The whole file.
    Memory(Vec<u8>),
    /// A file too large to hold, streamed by the engine.
    Disk(&'a Path),
}

impl<'a> Input<'a> {
    /// The file at `path`: in memory when at most [`IN_MEMORY_LIMIT`] bytes.
    pub fn read(path: &'a Path) -> std::io::Result<Input<'a>> {
        let file = crate::util::guard::open_regular(path)?;
        if file.metadata()?.len() > IN_MEMORY_LIMIT {
            return Ok(Input::Disk(path));
        }
        let mut bytes = Vec::new();
        file.take(IN_MEMORY_LIMIT + 1).read_to_end(&mut bytes)?;
        Ok(if bytes.len() as u64 <= IN_MEMORY_LIMIT {
            Input::Memory(bytes)
        } else {
            Input::Disk(path)
        })
    }

    /// A reader of the whole input, from its start.
    pub fn reader(&self) -> std::io::Result<Box<dyn Read + Send + '_>> {
        Ok(match self {
            Input::Memory(bytes) => Box::new(&bytes[..]),
            Input::Disk(path) => Box::new(crate::util::guard::open_regular(path)?),
        })
    }

    /// The game of the input, recognised from its content.
    pub fn recognise(&self) -> Result<GameName, crate::games::RecogniseError> {
        match self {
            Input::Memory(bytes) => recognise_input(&bytes[..]),
            Input::Disk(path) => crate::games::detect::recognise_file(path),
        }
    }

    fn len(&self) -> u64 {
        match self {
            Input::Memory(bytes) => bytes.len() as u64,
            Input::Disk(path) => std::fs::metadata(path).map_or(u64::MAX, |m| m.len()),
        }
    }
}

/// The single row of a file that yields no cases.
fn whole_file(file: &CaseFile, status: Status, detail: String) -> Row {
    Row {
        file: file.name.clone(),
        status: Some(status),
        detail,
        ..Row::default()
    }
}

/// Reads `file` and hands its content to `verify`; a file the walk could not reach, or that
/// cannot be read, is one `invalid-input` row.
pub fn with_input(file: &CaseFile, emit: &mut Emit, verify: impl FnOnce(&Input, &mut Emit)) {
    if let Some(e) = &file.error {
        return emit(whole_file(file, Status::InvalidInput, e.clone()));
    }
    match Input::read(&file.path) {
        Ok(input) => verify(&input, emit),
        Err(e) => emit(whole_file(
            file,
            Status::InvalidInput,
            format!("unreadable: {e}"),
        )),
    }
}

/// Verifies `file` as game `G`: under the rule set its name asks for, else `rules`.
pub fn verify_as<G: Game + Referenced>(
    file: &CaseFile,
    settings: &Settings,
    rules: G::Options,
    emit: &mut Emit,
) {
    with_input(file, emit, |input, emit| {
        let rules = rules_from_file_name(&file.path).unwrap_or(rules);
        verify_file::<G>(file, input, settings, rules, emit)
    })
}

/// Verifies `file` as `game`, or as the game its content shows when `None`. `rules` (a rule
/// set name) applies to files of the games that have such a rule set and whose name asks for
/// none.
pub fn verify_any(
    file: &CaseFile,
    settings: &Settings,
    game: Option<GameName>,
    rules: Option<&str>,
    packages: &[package::Package],
    emit: &mut Emit,
) {
    struct Verify<'a, 'e> {
        file: &'a CaseFile,
        input: &'a Input<'a>,
        settings: &'a Settings,
        rules: Option<&'a str>,
        layout: crate::judge_system::check::Layout,
        role: package::Role,
        emit: &'e mut Emit<'e>,
    }
    impl crate::games::Visitor for Verify<'_, '_> {
        type Output = ();
        fn visit<G: AnyGame>(self) {
            let rules = rules_from_file_name(&self.file.path)
                .or_else(|| self.rules.and_then(G::Options::from_name))
                .unwrap_or_default();
            match self.role {
                package::Role::InvalidInput => {
                    return (self.emit)(package::invalid_input_row::<G>(self.file, rules))
                }
                _ => verify_file::<G>(self.file, self.input, self.settings, rules, self.emit),
            };
            match self.role {
                package::Role::ValidOutput => (self.emit)(package::output_row::<G>(
                    self.file,
                    rules,
                    self.layout,
                    true,
                )),
                package::Role::InvalidOutput => (self.emit)(package::output_row::<G>(
                    self.file,
                    rules,
                    self.layout,
                    false,
                )),
                _ => {}
            }
        }
    }
    // In a package: its rule set (unless --rules names one), its game, the file's role.
    let placed = package::place(packages, file);
    let rules = rules.or(placed.and_then(|(p, _)| p.rules.as_deref()));
    let game = game.or_else(|| placed.and_then(|(p, _)| package::game_of(p)));
    let role = placed.map_or(package::Role::Case, |(_, role)| role);
    let layout = placed.map_or(crate::judge_system::check::Layout::REFEREE, |(p, _)| {
        p.layout
    });
    with_input(file, emit, |input, emit| {
        let game = match game.map_or_else(|| input.recognise(), Ok) {
            Ok(g) => g,
            Err(why) => return emit(whole_file(file, Status::InvalidInput, why.to_string())),
        };
        game.visit(Verify {
            file,
            input,
            settings,
            rules,
            layout,
            role,
            emit,
        })
    });
}

/// Verifies `file` (read as `input`) as game `G` under `options`, handing each row to `emit`;
/// every problem becomes a row, never a panic or an early stop. Every case is cross-examined
/// on its own as the engine judges it ([`cases::cross_examine`]); a file with an invalid case
/// gives the rows of the cases before it, then one `invalid-input` row for it.
pub fn verify_file<G: Game + Referenced>(
    file: &CaseFile,
    input: &Input,
    settings: &Settings,
    options: G::Options,
    emit: &mut Emit,
) {
    let base = Row {
        file: file.name.clone(),
        game: G::NAME.to_string(),
        rules: options.name().to_string(),
        ..Row::default()
    };
    let answers = match AnswerLines::open_counted(file, input.len()) {
        Ok(a) => a,
        Err(why) => return emit(unreadable_answers(base, why)),
    };
    cases::cross_examine::<G>(file, input, settings, options, base, answers, emit)
}

/// The row of a file whose `.ans` cannot be read.
fn unreadable_answers(mut base: Row, why: answers::AnswerError) -> Row {
    base.status = Some(Status::InvalidInput);
    base.detail = format!("unreadable answer file: {why}");
    base
}

/// The one row of a file the engine rejects with `e`: invalid input, checked against the
/// reference's own reading of the same input (unless `--no-reference`), case by case up to
/// the case the engine rejects: the reference must reject it at the same line and column.
fn rejected<G: Game + Referenced>(
    file: &CaseFile,
    input: &Input,
    settings: &Settings,
    mut base: Row,
    e: JudgeError,
) -> Row {
    base.status = Some(Status::InvalidInput);
    let e = match e {
        JudgeError::Input(e) => e,
        JudgeError::Io(e) => {
            base.detail = format!("unreadable: {e}");
            return base;
        }
        other => {
            base.detail = other.located(&file.name);
            return base;
        }
    };
    base.index = e.case;
    base.detail = e.located(&file.name);
    if settings.no_reference {
        return base;
    }
    let Ok(reader) = input.reader() else {
        return base;
    };
    match crate::game::reference_reading::<G>(reader, settings.reference_max_bytes) {
        ReferenceReading::Rejects(JudgeError::Input(r))
            if r.position == e.position && r.case == e.case => {}
        ReferenceReading::Rejects(r) => {
            base.status = Some(Status::EngineReferenceMismatch);
            base.reference_detail = r.located(&file.name);
        }
        ReferenceReading::Unread => {}
        ReferenceReading::Accepts => {
            base.status = Some(Status::EngineReferenceMismatch);
            base.reference_detail = "the reference accepts this input".into();
        }
    }
    base
}
