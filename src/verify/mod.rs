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
/// non-empty lines, trailing white space removed. `Ok(None)` when there is no `.ans`. It is
/// read through [`crate::guard`]: from the case's tree only, a regular file, and no longer than
/// [`crate::guard::answer_bound`] of the input.
pub fn expected_verdicts(case: &CaseFile, input_len: u64) -> Result<Option<Vec<String>>, String> {
    let ans: PathBuf = case.path.with_extension("ans");
    let file = match crate::guard::open(&ans, &case.tree, crate::guard::answer_bound(input_len)) {
        Ok(Some(opened)) => opened.file,
        Ok(None) => return Ok(None),
        Err(why) => return Err(format!("{}: {why}", crate::walk::display(&ans))),
    };
    let mut out = Vec::new();
    for line in BufReader::new(file).lines() {
        let line = line.map_err(|e| format!("{}: {e}", ans.display()))?;
        let line = line.trim_end();
        if !line.is_empty() {
            out.push(line.to_string());
        }
    }
    Ok(Some(out))
}

/// The single row of a file that yields no cases.
fn whole_file(file: &CaseFile, status: Status, detail: String) -> Vec<Row> {
    vec![Row {
        file: file.name.clone(),
        status: Some(status),
        detail,
        ..Row::default()
    }]
}

/// Reads `file` and hands its content to `verify`; a file the walk could not reach, or that
/// cannot be read, is one `invalid-input` row.
pub fn with_input(file: &CaseFile, verify: impl FnOnce(&Input) -> Vec<Row>) -> Vec<Row> {
    if let Some(e) = &file.error {
        return whole_file(file, Status::InvalidInput, e.clone());
    }
    match Input::read(&file.path) {
        Ok(input) => verify(&input),
        Err(e) => whole_file(file, Status::InvalidInput, format!("unreadable: {e}")),
    }
}

/// Verifies `file` as game `G`: under the rule set its name asks for, else `rules`.
pub fn verify_as<G: Game>(file: &CaseFile, settings: &Settings, rules: G::Options) -> Vec<Row> {
    with_input(file, |input| {
        let rules = rules_from_file_name(&file.path).unwrap_or(rules);
        verify_file::<G>(file, input, settings, rules)
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
    struct Verify<'a> {
        file: &'a CaseFile,
        input: &'a Input<'a>,
        settings: &'a Settings,
        rules: Option<&'a str>,
        role: package::Role,
    }
    impl crate::games::Visitor for Verify<'_> {
        type Output = Vec<Row>;
        fn visit<G: Game>(self) -> Vec<Row> {
            let rules = rules_from_file_name(&self.file.path)
                .or_else(|| self.rules.and_then(G::Options::from_name))
                .unwrap_or_default();
            let mut rows = match self.role {
                package::Role::InvalidInput => {
                    return vec![package::invalid_input_row::<G>(self.file, rules)]
                }
                _ => verify_file::<G>(self.file, self.input, self.settings, rules),
            };
            match self.role {
                package::Role::ValidOutput => {
                    rows.push(package::output_row::<G>(self.file, rules, true))
                }
                package::Role::InvalidOutput => {
                    rows.push(package::output_row::<G>(self.file, rules, false))
                }
                _ => {}
            }
            rows
        }
    }
    // In a package: its rule set (unless --rules names one), its game, the file's role.
    let placed = package::place(packages, file);
    let rules = rules.or(placed.and_then(|(p, _)| p.rules.as_deref()));
    let game = game.or_else(|| placed.and_then(|(p, _)| package::game_of(p)));
    let role = placed.map_or(package::Role::Case, |(_, role)| role);
    let rows = with_input(file, |input| {
        let game = match game.map_or_else(|| input.recognise(), Ok) {
            Ok(g) => g,
            Err(why) => return whole_file(file, Status::InvalidInput, why),
        };
        game.visit(Verify {
            file,
            input,
            settings,
            rules,
            role,
        })
    });
    rows.into_iter().for_each(emit);
}

/// What the reference said about a file.
enum ReferenceOutcome<J> {
    Judged(Vec<J>),
    Rejected(JudgeError),
    Skipped(String),
    Refused { case: u64, reason: String },
}

/// Verifies `file` (read as `input`) as game `G` under `options`; every problem becomes a row,
/// never a panic or an early stop.
pub fn verify_file<G: Game>(
    file: &CaseFile,
    input: &Input,
    settings: &Settings,
    options: G::Options,
) -> Vec<Row> {
    let mut base = Row {
        file: file.name.clone(),
        game: G::NAME.to_string(),
        rules: options.name().to_string(),
        ..Row::default()
    };
    let started = Instant::now();
    let engine = input.judge::<G>(Engine::Fast, options);
    base.engine_micros = Some(started.elapsed().as_micros() as u64);
    let expected = match expected_verdicts(file, input.len()) {
        Ok(e) => e,
        Err(why) => {
            base.status = Some(Status::InvalidInput);
            base.detail = format!("unreadable answer file: {why}");
            return vec![base];
        }
    };
    match engine {
        Err(JudgeError::Input(e)) => {
            base.index = e.case;
            base.status = Some(Status::InvalidInput);
            base.detail = e.located(&file.name);
            if input.len() <= REFERENCE_PARSE_LIMIT && !settings.no_reference {
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
            }
            vec![base]
        }
        Err(e) => {
            base.status = Some(Status::InvalidInput);
            base.detail = match e {
                JudgeError::Io(e) => format!("unreadable: {e}"),
                other => other.located(&file.name),
            };
            vec![base]
        }
        Ok(judgements) => {
            let cost = judgements
                .iter()
                .map(|j| G::reference_cost(j, options))
                .fold(0u64, u64::saturating_add);
            let reference = if settings.no_reference {
                ReferenceOutcome::Skipped("reference not run (--no-reference)".to_string())
            } else if input.len() > settings.reference_max_bytes {
                ReferenceOutcome::Skipped(format!(
                    "reference not run: the input has {} bytes, over --reference-max-bytes {} \
                     (by default what the reference can hold: the available memory over {})",
                    input.len(),
                    settings.reference_max_bytes,
                    crate::text::REFERENCE_MEMORY_FACTOR
                ))
            } else if cost > settings.reference_budget {
                ReferenceOutcome::Skipped(format!(
                    "reference not run: estimated {cost} steps, over the budget of {} (--reference-budget)",
                    settings.reference_budget
                ))
            } else {
                match input.judge::<G>(Engine::Reference, options) {
                    Ok(js) => ReferenceOutcome::Judged(js),
                    Err(JudgeError::Refused { case, reason }) => {
                        ReferenceOutcome::Refused { case, reason }
                    }
                    Err(e) => ReferenceOutcome::Rejected(e),
                }
            };
            rows_for::<G>(&file.name, base, &judgements, reference, expected)
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
    let answers = expected.as_ref().map_or(0, Vec::len);
    let cases = judgements.len().max(answers);
    let count_mismatch = || {
        format!(
            "the answer file has {answers} verdicts, the input {} cases",
            judgements.len()
        )
    };
    let mut rows = Vec::with_capacity(cases);
    for i in 0..cases {
        let index = i as u64 + 1;
        let mut row = Row {
            index: Some(index),
            ..base.clone()
        };
        let expected = expected.as_ref().map(|e| e.get(i));
        row.expected = expected.flatten().cloned().unwrap_or_default();
        let Some(j) = judgements.get(i) else {
            row.status = Some(Status::ExpectedMismatch);
            row.detail = count_mismatch();
            rows.push(row);
            continue;
        };
        row.engine = j.verdict();
        row.engine_detail = j.explain();
        row.size = Some(j.size());
        let mut skipped = None;
        let mut status = match &reference {
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
                Some(Some(e)) if *e != row.engine => {
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
        rows.push(row);
    }
    rows
}
