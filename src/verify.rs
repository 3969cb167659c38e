//! `referee verify`: judge every case with the engine and the reference, compare them with
//! each other and with the `.ans` answers, and produce report rows.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::time::Instant;

use crate::detect::recognise;
use crate::error::JudgeError;
use crate::game::{Game, GameName, Implementation, LittleSquares, Pousse, SomeGame};
use crate::pousse::Rules;
use crate::report::{Row, Status};
use crate::walk::Found;

/// The default reference budget, in the reference's elementary steps (a few seconds of work).
pub const DEFAULT_REFERENCE_BUDGET: u64 = 2_000_000_000;

/// Inputs larger than this that the engine rejects are not re-parsed by the reference.
pub const REFERENCE_PARSE_LIMIT: u64 = 1 << 20;

/// Inputs up to this size are read once into memory and judged from there by both
/// implementations; larger ones are streamed from disk by the engine.
pub const IN_MEMORY_LIMIT: u64 = 8 << 20;

/// A case's content: in memory when small, else on disk.
enum Input<'a> {
    Memory(Vec<u8>),
    Disk(&'a Path),
}

impl Input<'_> {
    fn judge<G: Game>(
        &self,
        implementation: Implementation,
        options: G::Options,
    ) -> Result<Vec<G::Judgement>, JudgeError> {
        match self {
            Input::Memory(bytes) => G::judge(implementation, &mut &bytes[..], options),
            Input::Disk(path) => {
                let mut file = File::open(path)?;
                G::judge(implementation, &mut file, options)
            }
        }
    }

    fn len(&self) -> u64 {
        match self {
            Input::Memory(bytes) => bytes.len() as u64,
            Input::Disk(path) => std::fs::metadata(path).map_or(u64::MAX, |m| m.len()),
        }
    }
}

/// How to verify.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// The game of every file; recognised from content when `None`.
    pub game: Option<GameName>,
    /// The Pousse rule set for files whose name does not say (`name.icfp98.in`).
    pub rules: Rules,
    /// Estimated reference steps beyond which the reference is skipped.
    pub reference_budget: u64,
    /// Never run the reference.
    pub no_reference: bool,
}

/// The Pousse rule set a file's name asks for: `case.icfp98.in`, `case.icfp98-board.in` or
/// `case.waterloo.in`; `None` when the name says nothing.
pub fn rules_from_name(path: &Path) -> Option<Rules> {
    let stem = path.file_stem()?.to_str()?;
    let (_, suffix) = stem.rsplit_once('.')?;
    suffix.parse().ok()
}

/// The expected verdicts in a sibling `.ans` file: its non-empty lines, trailing white space
/// removed. `Ok(None)` when there is no `.ans`.
pub fn expected_verdicts(case: &Path) -> Result<Option<Vec<String>>, String> {
    let ans: PathBuf = case.with_extension("ans");
    let file = match File::open(&ans) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(format!("{}: {e}", ans.display())),
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

/// Recognises a file's game from its first 4 KiB.
pub fn recognise_file(path: &Path) -> Result<GameName, String> {
    let mut head = Vec::with_capacity(4096);
    File::open(path)
        .and_then(|f| f.take(4096).read_to_end(&mut head))
        .map_err(|e| format!("unreadable: {e}"))?;
    recognise(&head)
}

/// Verifies one file; every problem becomes a row, never a panic or an early stop.
pub fn verify_file(found: &Found, options: &Options) -> Vec<Row> {
    let base = Row {
        file: found.name.clone(),
        ..Row::default()
    };
    let whole_file = |status, detail: String| {
        vec![Row {
            status: Some(status),
            detail,
            ..base.clone()
        }]
    };
    if let Some(e) = &found.error {
        return whole_file(Status::InvalidInput, e.clone());
    }
    let input = match read_small(&found.path) {
        Ok(Some(bytes)) => Input::Memory(bytes),
        Ok(None) => Input::Disk(&found.path),
        Err(e) => return whole_file(Status::InvalidInput, format!("unreadable: {e}")),
    };
    let recognised = match (&input, options.game) {
        (_, Some(g)) => Ok(g),
        (Input::Memory(bytes), None) => recognise(&bytes[..bytes.len().min(4096)]),
        (Input::Disk(path), None) => recognise_file(path),
    };
    let game = match recognised {
        Ok(g) => g,
        Err(why) => return whole_file(Status::InvalidInput, why),
    };
    match game {
        GameName::Pousse => {
            let rules = rules_from_name(&found.path).unwrap_or(options.rules);
            verify_as::<Pousse>(found, &input, base, options, rules, rules.name())
        }
        GameName::Littlesquares => verify_as::<LittleSquares>(found, &input, base, options, (), ""),
        GameName::Somegame => verify_as::<SomeGame>(found, &input, base, options, (), ""),
    }
}

/// The whole file when it is at most [`IN_MEMORY_LIMIT`] bytes, `None` when larger.
fn read_small(path: &Path) -> std::io::Result<Option<Vec<u8>>> {
    let file = File::open(path)?;
    let mut bytes = Vec::new();
    file.take(IN_MEMORY_LIMIT + 1).read_to_end(&mut bytes)?;
    Ok((bytes.len() as u64 <= IN_MEMORY_LIMIT).then_some(bytes))
}

/// What the reference said about a file.
enum Second<J> {
    Judged(Vec<J>),
    Rejected(JudgeError),
    Skipped(String),
}

fn verify_as<G: Game>(
    found: &Found,
    input: &Input,
    mut base: Row,
    options: &Options,
    game_options: G::Options,
    rules: &str,
) -> Vec<Row> {
    base.game = G::NAME.to_string();
    base.rules = rules.to_string();
    let started = Instant::now();
    let engine = input.judge::<G>(Implementation::Fast, game_options);
    base.engine_micros = Some(started.elapsed().as_micros() as u64);
    let expected = match expected_verdicts(&found.path) {
        Ok(e) => e,
        Err(why) => {
            base.status = Some(Status::InvalidInput);
            base.detail = format!("unreadable answer file: {why}");
            return vec![base];
        }
    };
    let affordable = |cost: u64| {
        if options.no_reference {
            Err("reference not run (--no-reference)".to_string())
        } else if cost > options.reference_budget {
            Err(format!(
                "reference not run: estimated {cost} steps, over the budget of {} (--reference-budget)",
                options.reference_budget
            ))
        } else {
            Ok(())
        }
    };
    let second = |cost: u64| match affordable(cost) {
        Ok(()) => match input.judge::<G>(Implementation::Reference, game_options) {
            Ok(js) => Second::Judged(js),
            Err(e) => Second::Rejected(e),
        },
        Err(why) => Second::Skipped(why),
    };
    match engine {
        Err(JudgeError::Io(e)) => {
            base.status = Some(Status::InvalidInput);
            base.detail = format!("unreadable: {e}");
            vec![base]
        }
        Err(JudgeError::Input(e)) => {
            base.index = e.case;
            base.status = Some(Status::InvalidInput);
            base.detail = e.located(&found.name);
            if input.len() <= REFERENCE_PARSE_LIMIT && !options.no_reference {
                match input.judge::<G>(Implementation::Reference, game_options) {
                    Err(JudgeError::Input(r)) if r.position == e.position && r.case == e.case => {}
                    Err(r) => {
                        base.status = Some(Status::EngineReferenceMismatch);
                        base.reference_detail = r.located(&found.name);
                    }
                    Ok(_) => {
                        base.status = Some(Status::EngineReferenceMismatch);
                        base.reference_detail = "the reference accepts this input".into();
                    }
                }
            }
            vec![base]
        }
        Ok(judgements) => {
            let cost = judgements
                .iter()
                .map(G::reference_cost)
                .fold(0u64, u64::saturating_add);
            let reference = second(cost);
            rows_for::<G>(&found.name, base, &judgements, reference, expected)
        }
    }
}

fn rows_for<G: Game>(
    name: &str,
    base: Row,
    judgements: &[G::Judgement],
    reference: Second<G::Judgement>,
    expected: Option<Vec<String>>,
) -> Vec<Row> {
    let answers = expected.as_ref().map_or(0, Vec::len);
    let cases = judgements.len().max(answers);
    let mut rows = Vec::with_capacity(cases);
    for i in 0..cases {
        let mut row = Row {
            index: Some(i as u64 + 1),
            ..base.clone()
        };
        let expected = expected.as_ref().map(|e| e.get(i));
        row.expected = expected.flatten().cloned().unwrap_or_default();
        let Some(j) = judgements.get(i) else {
            row.status = Some(Status::ExpectedMismatch);
            row.detail = format!(
                "the answer file has {answers} verdicts, the input {} cases",
                judgements.len()
            );
            rows.push(row);
            continue;
        };
        row.engine = G::verdict(j);
        row.engine_detail = G::explain(j);
        row.size = Some(G::size(j));
        let mut skipped = None;
        let mut status = match &reference {
            Second::Judged(rs) => match rs.get(i) {
                Some(r) if G::refusal(r).is_some() => {
                    skipped = G::refusal(r);
                    Status::Ok
                }
                Some(r) => {
                    row.reference = G::verdict(r);
                    row.reference_detail = G::explain(r);
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
            Second::Rejected(e) => {
                row.reference_detail = format!("rejected: {}", e.located(name));
                Status::EngineReferenceMismatch
            }
            Second::Skipped(why) => {
                skipped = Some(why.clone());
                Status::Ok
            }
        };
        if status == Status::Ok {
            match expected {
                Some(None) => {
                    status = Status::ExpectedMismatch;
                    row.detail = format!(
                        "the answer file has {answers} verdicts, the input {} cases",
                        judgements.len()
                    );
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
