//! `referee verify`: judge every case of a file with the engine and the reference, compare them
//! with each other and with the `.ans` answers, and produce report rows. Generic over the game;
//! [`run`] walks the files and dispatches each to its game.

pub mod package;
pub mod run;

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::detect::{recognise_input, rules_from_file_name};
use crate::error::JudgeError;
use crate::game::{Engine, Game, Judged, RuleSet};
use crate::games::GameName;
use crate::report::{Row, Status};
use crate::walk::CaseFile;

/// The default reference budget, in the reference's elementary steps (a few seconds of work).
pub const DEFAULT_REFERENCE_BUDGET: u64 = 2_000_000_000;

/// Inputs larger than this that the engine rejects are not re-parsed by the reference.
pub const REFERENCE_PARSE_LIMIT: u64 = 1 << 20;

/// Inputs up to this size are read once into memory and judged from there by both
/// implementations; larger ones are streamed from disk by the engine.
pub const IN_MEMORY_LIMIT: u64 = 8 << 20;

/// The default input limit of the reference in `verify`: what it can hold
/// ([`crate::text::reference_input_limit`]), at most [`IN_MEMORY_LIMIT`], so that larger inputs
/// are streamed by the engine in memory bounded by the board.
pub fn default_reference_max_bytes() -> u64 {
    crate::text::reference_input_limit().min(IN_MEMORY_LIMIT)
}

/// How to verify, whatever the game.
#[derive(Debug, Clone, Copy)]
pub struct Settings {
    /// Estimated reference steps beyond which the reference is skipped.
    pub reference_budget: u64,
    /// Never run the reference.
    pub no_reference: bool,
    /// The largest input the reference runs on (it holds its input in memory; its worst
    /// factor is [`crate::text::REFERENCE_MEMORY_FACTOR`]).
    pub reference_max_bytes: u64,
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
        let file = crate::guard::open_regular(path)?;
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

    fn judge<G: Game>(
        &self,
        engine: Engine,
        options: G::Options,
    ) -> Result<Vec<G::Judgement>, JudgeError> {
        match self {
            Input::Memory(bytes) => G::judge(engine, &mut &bytes[..], options),
            Input::Disk(path) => G::judge(engine, &mut crate::guard::open_regular(path)?, options),
        }
    }

    /// The game of the input, recognised from its content.
    pub fn recognise(&self) -> Result<GameName, String> {
        match self {
            Input::Memory(bytes) => recognise_input(&bytes[..]),
            Input::Disk(path) => crate::detect::recognise_file(path),
        }
    }

    fn len(&self) -> u64 {
        match self {
            Input::Memory(bytes) => bytes.len() as u64,
            Input::Disk(path) => std::fs::metadata(path).map_or(u64::MAX, |m| m.len()),
        }
    }
}

/// The expected verdicts in the `.ans` file beside `case` (an input of `input_len` bytes): its
/// non-empty lines, trailing white space removed, each cut at [`ANSWER_LINE_MAX`] bytes.
/// `Ok(None)` when there is no `.ans`; read as [`AnswerLines::open`] says.
pub fn expected_verdicts(case: &CaseFile, input_len: u64) -> Result<Option<Vec<String>>, String> {
    let Some(mut lines) = AnswerLines::open(case, input_len)? else {
        return Ok(None);
    };
    let mut out = Vec::new();
    while let Some(line) = lines.read_line().map_err(|e| lines.error(e))? {
        out.push(line);
    }
    Ok(Some(out))
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
pub fn with_input(
    file: &CaseFile,
    emit: &mut dyn FnMut(Row),
    verify: impl FnOnce(&Input, &mut dyn FnMut(Row)),
) {
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
pub fn verify_as<G: Game>(
    file: &CaseFile,
    settings: &Settings,
    rules: G::Options,
    emit: &mut dyn FnMut(Row),
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
    emit: &mut dyn FnMut(Row),
) {
    struct Verify<'a, 'e> {
        file: &'a CaseFile,
        input: &'a Input<'a>,
        settings: &'a Settings,
        rules: Option<&'a str>,
        layout: crate::judge_system::check::Layout,
        role: package::Role,
        emit: &'e mut dyn FnMut(Row),
    }
    impl crate::games::Visitor for Verify<'_, '_> {
        type Output = ();
        fn visit<G: Game>(self) {
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
            Err(why) => return emit(whole_file(file, Status::InvalidInput, why)),
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

/// What the reference said about a file.
enum ReferenceOutcome<J> {
    Judged(Vec<J>),
    Rejected(JudgeError),
    Skipped(String),
    Refused { case: u64, reason: String },
}

/// Verifies `file` (read as `input`) as game `G` under `options`, handing each row to `emit`;
/// every problem becomes a row, never a panic or an early stop. A file too large to hold that
/// the reference will not judge is streamed ([`verify_streamed`]).
pub fn verify_file<G: Game>(
    file: &CaseFile,
    input: &Input,
    settings: &Settings,
    options: G::Options,
    emit: &mut dyn FnMut(Row),
) {
    let mut base = Row {
        file: file.name.clone(),
        game: G::NAME.to_string(),
        rules: options.name().to_string(),
        ..Row::default()
    };
    let not_run = reference_not_run(input.len(), settings);
    if let (Input::Disk(path), Some(why)) = (input, &not_run) {
        return verify_streamed::<G>(file, path, base, options, why.clone(), emit);
    }
    let started = Instant::now();
    let engine = input.judge::<G>(Engine::Fast, options);
    base.engine_micros = Some(started.elapsed().as_micros() as u64);
    let expected = match expected_verdicts(file, input.len()) {
        Ok(e) => e,
        Err(why) => return emit(unreadable_answers(base, why)),
    };
    let judgements = match engine {
        Ok(judgements) => judgements,
        Err(e) => {
            let parse_again =
                (!settings.no_reference && input.len() <= REFERENCE_PARSE_LIMIT).then_some(input);
            return emit(rejected::<G>(file, parse_again, base, options, e));
        }
    };
    let cost = judgements
        .iter()
        .map(|j| G::reference_cost(j, options))
        .fold(0u64, u64::saturating_add);
    let reference = if let Some(why) = not_run {
        ReferenceOutcome::Skipped(why)
    } else if cost > settings.reference_budget {
        ReferenceOutcome::Skipped(format!(
            "reference not run: estimated {cost} steps, over the budget of {} (--reference-budget)",
            settings.reference_budget
        ))
    } else {
        match input.judge::<G>(Engine::Reference, options) {
            Ok(js) => ReferenceOutcome::Judged(js),
            Err(JudgeError::Refused { case, reason }) => ReferenceOutcome::Refused { case, reason },
            Err(e) => ReferenceOutcome::Rejected(e),
        }
    };
    rows_for::<G>(&file.name, base, &judgements, reference, expected)
        .into_iter()
        .for_each(emit);
}

/// Why the reference is not run on an input of `len` bytes, before any judging: `None` when it
/// may be (its budget is checked from the engine's judgements).
fn reference_not_run(len: u64, settings: &Settings) -> Option<String> {
    if settings.no_reference {
        Some("reference not run (--no-reference)".to_string())
    } else if len > settings.reference_max_bytes {
        Some(format!(
            "reference not run: the input has {len} bytes, over --reference-max-bytes {} (by \
             default what the reference can hold: the available memory over {}, at most {} \
             bytes)",
            settings.reference_max_bytes,
            crate::text::REFERENCE_MEMORY_FACTOR,
            IN_MEMORY_LIMIT
        ))
    } else {
        None
    }
}

/// The row of a file whose `.ans` cannot be read.
fn unreadable_answers(mut base: Row, why: String) -> Row {
    base.status = Some(Status::InvalidInput);
    base.detail = format!("unreadable answer file: {why}");
    base
}

/// The one row of a file the engine rejects with `e`: invalid input, checked against the
/// reference's parser on `parse_again` when given.
fn rejected<G: Game>(
    file: &CaseFile,
    parse_again: Option<&Input>,
    mut base: Row,
    options: G::Options,
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
    let Some(input) = parse_again else {
        return base;
    };
    match input.judge::<G>(Engine::Reference, options) {
        Err(JudgeError::Input(r)) if r.position == e.position && r.case == e.case => {}
        Err(r) => {
            base.status = Some(Status::EngineReferenceMismatch);
            base.reference_detail = r.located(&file.name);
        }
        Ok(_) => {
            base.status = Some(Status::EngineReferenceMismatch);
            base.reference_detail = "the reference accepts this input".into();
        }
    }
    base
}

/// Verifies a file too large to hold (at `path`), which the reference does not judge (`why`),
/// by the engine alone in two streamed passes: the first finds whether every case is valid (a
/// file with an invalid case is one row, as in memory), the second compares each judgement
/// with its `.ans` line as it comes. Memory: the engine's board and one line of the `.ans`.
fn verify_streamed<G: Game>(
    file: &CaseFile,
    path: &Path,
    mut base: Row,
    options: G::Options,
    why: String,
    emit: &mut dyn FnMut(Row),
) {
    let judge = |each: &mut dyn FnMut(G::Judgement)| {
        let mut input = crate::guard::open_regular(path)?;
        G::judge_each(&mut input, options, each)
    };
    let started = Instant::now();
    let mut judged = 0u64;
    let first = judge(&mut |_| judged += 1);
    base.engine_micros = Some(started.elapsed().as_micros() as u64);
    let len = std::fs::metadata(path).map_or(u64::MAX, |m| m.len());
    let answers = match AnswerLines::open_counted(file, len) {
        Ok(a) => a,
        Err(why) => return emit(unreadable_answers(base, why)),
    };
    if let Err(e) = first {
        return emit(rejected::<G>(file, None, base, options, e));
    }
    let counts = Counts {
        judged,
        answers: answers.as_ref().map(AnswerLines::count),
    };
    let reference = ReferenceOutcome::Skipped(why);
    let mut answers = answers;
    let mut next_answer = || answers.as_mut().map(AnswerLines::next_line);
    let mut i = 0;
    let second = judge(&mut |j| {
        let expected = next_answer();
        let expected = expected.as_ref().map(|e| e.as_deref());
        emit(row_for::<G>(
            &file.name,
            &base,
            i,
            Some(&j),
            &reference,
            expected,
            counts,
        ));
        i += 1;
    });
    if let Err(e) = second {
        base.status = Some(Status::InvalidInput);
        base.detail = format!("changed while it was read: {}", e.located(&file.name));
        return emit(base);
    }
    while let Some(Some(line)) = next_answer() {
        emit(row_for::<G>(
            &file.name,
            &base,
            i,
            None,
            &reference,
            Some(Some(&line)),
            counts,
        ));
        i += 1;
    }
}

/// The non-empty lines of a `.ans`, read one at a time (each cut at [`ANSWER_LINE_MAX`]
/// bytes, no verdict being longer), trailing white space removed.
struct AnswerLines {
    reader: BufReader<std::io::Take<std::fs::File>>,
    path: PathBuf,
    /// The lines counted by [`AnswerLines::open_counted`].
    count: u64,
}

/// The longest `.ans` line kept: longer ones are cut (they are no verdict of any game).
const ANSWER_LINE_MAX: usize = 4096;

impl AnswerLines {
    /// The `.ans` beside `case` (an input of `input_len` bytes), opened through
    /// [`crate::guard`]: from the case's tree only, a regular file, no longer than
    /// [`crate::guard::answer_bound`] of the input; `Ok(None)` when there is none.
    fn open(case: &CaseFile, input_len: u64) -> Result<Option<AnswerLines>, String> {
        let ans: PathBuf = case.path.with_extension("ans");
        match crate::guard::open(&ans, &case.tree, crate::guard::answer_bound(input_len)) {
            Ok(Some(opened)) => Ok(Some(AnswerLines {
                reader: BufReader::new(opened.file),
                path: ans,
                count: 0,
            })),
            Ok(None) => Ok(None),
            Err(why) => Err(format!("{}: {why}", crate::walk::display(&ans))),
        }
    }

    /// [`open`](Self::open), its lines counted first (a pass over the file).
    fn open_counted(case: &CaseFile, input_len: u64) -> Result<Option<AnswerLines>, String> {
        let Some(mut counting) = AnswerLines::open(case, input_len)? else {
            return Ok(None);
        };
        let mut count = 0;
        while counting
            .read_line()
            .map_err(|e| counting.error(e))?
            .is_some()
        {
            count += 1;
        }
        Ok(AnswerLines::open(case, input_len)?.map(|lines| AnswerLines { count, ..lines }))
    }

    /// A read error, named by the file.
    fn error(&self, e: std::io::Error) -> String {
        format!("{}: {e}", self.path.display())
    }

    fn count(&self) -> u64 {
        self.count
    }

    /// The next non-empty line, `None` at the end (or on a read error, which the count's
    /// pass would have met first).
    fn next_line(&mut self) -> Option<String> {
        self.read_line().ok().flatten()
    }

    fn read_line(&mut self) -> std::io::Result<Option<String>> {
        loop {
            let mut line = Vec::new();
            let read = (&mut self.reader)
                .take(ANSWER_LINE_MAX as u64)
                .read_until(b'\n', &mut line)?;
            if read == 0 {
                return Ok(None);
            }
            if line.last() != Some(&b'\n') && line.len() == ANSWER_LINE_MAX {
                // The rest of an overlong line.
                let mut rest = Vec::new();
                loop {
                    rest.clear();
                    let n = (&mut self.reader)
                        .take(64 * 1024)
                        .read_until(b'\n', &mut rest)?;
                    if n == 0 || rest.last() == Some(&b'\n') {
                        break;
                    }
                }
            }
            let text = String::from_utf8(line).map_err(|_| {
                std::io::Error::new(
                    std::io::ErrorKind::InvalidData,
                    "stream did not contain valid UTF-8",
                )
            })?;
            let text = text.trim_end();
            if !text.is_empty() {
                return Ok(Some(text.to_string()));
            }
        }
    }
}

fn rows_for<G: Game>(
    name: &str,
    base: Row,
    judgements: &[G::Judgement],
    reference: ReferenceOutcome<G::Judgement>,
    expected: Option<Vec<String>>,
) -> Vec<Row> {
    let answers = expected.as_ref().map(Vec::len);
    let counts = Counts {
        judged: judgements.len() as u64,
        answers: answers.map(|a| a as u64),
    };
    (0..judgements.len().max(answers.unwrap_or(0)))
        .map(|i| {
            let expected = expected.as_ref().map(|e| e.get(i).map(String::as_str));
            row_for::<G>(
                name,
                &base,
                i,
                judgements.get(i),
                &reference,
                expected,
                counts,
            )
        })
        .collect()
}

/// How many cases the engine judged in a file, and how many verdicts its `.ans` holds (`None`:
/// no `.ans`).
#[derive(Debug, Clone, Copy)]
struct Counts {
    judged: u64,
    answers: Option<u64>,
}

/// The row of case `i` (from 0) of file `name`: the engine's `judgement` (`None` past its last
/// case), compared with the reference's and with the `.ans` line `expected` (`None`: no `.ans`;
/// `Some(None)`: past its last verdict).
fn row_for<G: Game>(
    name: &str,
    base: &Row,
    i: usize,
    judgement: Option<&G::Judgement>,
    reference: &ReferenceOutcome<G::Judgement>,
    expected: Option<Option<&str>>,
    counts: Counts,
) -> Row {
    let index = i as u64 + 1;
    let count_mismatch = || {
        format!(
            "the answer file has {} verdicts, the input {} cases",
            counts.answers.unwrap_or(0),
            counts.judged
        )
    };
    let mut row = Row {
        index: Some(index),
        ..base.clone()
    };
    row.expected = expected.flatten().unwrap_or_default().to_string();
    let Some(j) = judgement else {
        row.status = Some(Status::ExpectedMismatch);
        row.detail = count_mismatch();
        return row;
    };
    row.engine = j.verdict();
    row.engine_detail = j.explain();
    row.size = Some(j.size());
    let mut skipped = None;
    let mut status = match reference {
        ReferenceOutcome::Judged(rs) => match rs.get(i) {
            Some(r) => {
                row.reference = r.verdict();
                row.reference_detail = r.explain();
                if r == j {
                    Status::Ok
                } else {
                    row.detail = "engine and reference disagree".into();
                    Status::EngineReferenceMismatch
                }
            }
            None => {
                row.detail = format!("the reference found {} cases", rs.len());
                Status::EngineReferenceMismatch
            }
        },
        ReferenceOutcome::Refused { case, reason } => {
            skipped = Some(if *case == index {
                reason.clone()
            } else {
                format!("reference not run: it refuses case {case} of this file ({reason})")
            });
            Status::Ok
        }
        ReferenceOutcome::Rejected(e) => {
            row.reference_detail = format!("rejected: {}", e.located(name));
            Status::EngineReferenceMismatch
        }
        ReferenceOutcome::Skipped(why) => {
            skipped = Some(why.clone());
            Status::Ok
        }
    };
    if status == Status::Ok {
        match expected {
            Some(None) => {
                status = Status::ExpectedMismatch;
                row.detail = count_mismatch();
            }
            Some(Some(e)) if e != row.engine => {
                status = Status::ExpectedMismatch;
                row.detail = "the engine disagrees with the answer file".into();
            }
            _ => {
                if let Some(why) = skipped {
                    status = Status::ReferenceSkipped;
                    row.detail = why;
                }
            }
        }
    }
    row.status = Some(status);
    row
}
