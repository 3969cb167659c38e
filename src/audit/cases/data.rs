//! The existing data: the input files of the problem (a package's `data/sample` and
//! `data/secret`, or `--inputs`), read once for every stage: each file's bytes, its answer (its
//! `.ans`, read inside its tree, else the engine's output), its cases and the form it is
//! written in. From it come the problem's input form ([`problem_form`], from every file, the
//! other shards' too), each program's result as a judge system gives it ([`run_on_data`]), and
//! the time limit of the other runs ([`time_limit`], from CPU times).

use crate::audit::terms::Auditable;
use std::io::Read;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};

use crate::audit::running::runner::{FromData, NoAnswer, Runner, TimeLimit};
use crate::audit::settings::FormRule;
use crate::audit::terms::Class;
use crate::audit::terms::Kind;
use crate::game::{render, Case, Engine, Form};
use crate::util::answer::{compare, Verdict};
use crate::util::error::{JudgeError, RunError};
use crate::util::shard::Shard;
use crate::util::walk::{display, find_cases, CaseFile};

/// The largest data file read (larger ones are skipped, and said).
pub const LARGEST_INPUT: u64 = 64 << 20;

/// One data file.
#[derive(Debug, Clone)]
pub struct DataFile<C> {
    /// Its name, as reports write it.
    pub name: String,
    /// Its place in the sorted list of every data file (before sharding).
    pub position: usize,
    /// Its bytes.
    pub input: Vec<u8>,
    /// The output it must get: its `.ans`, else the engine's.
    pub expected: String,
    /// Its cases.
    pub cases: Vec<C>,
    /// The form it is written in, when its shape says ([`Forms::form_of`](crate::game::Forms::form_of)).
    pub form: Option<Form>,
}

/// The data files of a run.
#[derive(Debug, Clone)]
pub struct Data<C> {
    /// The files read, of this run's slice.
    pub files: Vec<DataFile<C>>,
    /// The forms of the valid files of the other slices, when sharded.
    pub other_forms: Vec<Option<Form>>,
    /// Every file found, before sharding (for the manifest).
    pub found: Vec<CaseFile>,
    /// Files not read, answers not used, and why.
    pub notes: Vec<String>,
}

impl<C> Data<C> {
    /// The largest file's size in bytes.
    pub fn biggest(&self) -> u64 {
        self.files
            .iter()
            .map(|f| f.input.len() as u64)
            .max()
            .unwrap_or(0)
    }
}

/// Reads the data files under `inputs` (this slice's, with `shard`) as inputs of `G` under
/// `rules`: a file that cannot be read, is too large or is not a valid input is left out and
/// said; an `.ans` that differs from the engine's output is used, and said.
pub fn read<G: Auditable>(
    inputs: &[PathBuf],
    shard: Option<Shard>,
    rules: G::Options,
) -> Result<Data<G::Case>, RunError> {
    let found = if inputs.is_empty() {
        Vec::new()
    } else {
        find_cases(inputs)?
    };
    let mut files = Vec::new();
    let mut other_forms = Vec::new();
    let mut notes = Vec::new();
    for (position, file) in found.iter().enumerate() {
        if shard.is_some_and(|s| !s.contains(&file.name)) {
            // Another slice's: only its form counts here (each slice finds the same form).
            let mut elsewhere = Vec::new();
            if let Ok(data) = read_file::<G>(file, rules, &mut elsewhere) {
                other_forms.push(data.form);
            }
            continue;
        }
        match read_file::<G>(file, rules, &mut notes) {
            Ok(mut data) => {
                data.position = position;
                files.push(data);
            }
            Err(why) => notes.push(format!("{}: {why}", file.name)),
        }
    }
    Ok(Data {
        files,
        other_forms,
        found,
        notes,
    })
}

/// Why a data file is left out.
#[derive(Debug, thiserror::Error)]
enum LeftOut {
    /// The walk did not read it: why.
    #[error("{0}")]
    NotRead(String),
    /// It cannot be read.
    #[error("{0}")]
    Unreadable(#[from] std::io::Error),
    /// It is larger than any input audit reads.
    #[error("larger than {LARGEST_INPUT} bytes")]
    TooLarge,
    /// It breaks the game's input grammar (the error located in it).
    #[error("not a valid input: {0}")]
    Invalid(String),
}

/// One data file, or why it is left out.
fn read_file<G: Auditable>(
    file: &CaseFile,
    rules: G::Options,
    notes: &mut Vec<String>,
) -> Result<DataFile<G::Case>, LeftOut> {
    if let Some(why) = &file.error {
        return Err(LeftOut::NotRead(why.clone()));
    }
    let opened = crate::util::guard::open_regular(&file.path)?;
    let mut input = Vec::new();
    opened.take(LARGEST_INPUT + 1).read_to_end(&mut input)?;
    if input.len() as u64 > LARGEST_INPUT {
        return Err(LeftOut::TooLarge);
    }
    let invalid = |e: JudgeError| LeftOut::Invalid(e.located(&file.name));
    let judged = G::judge(Engine::Fast, &mut &input[..], rules).map_err(invalid)?;
    let cases = G::Case::from_input(&input, rules).map_err(invalid)?;
    let engine = render::<G>(&judged);
    let expected = answer_of(file, input.len() as u64, &engine, notes);
    Ok(DataFile {
        name: file.name.clone(),
        position: 0,
        form: G::form_of(&input, cases.len()),
        expected,
        cases,
        input,
    })
}

/// The `.ans` beside `file` (inside its tree, at most what an answer can need), else the
/// engine's output `engine`.
fn answer_of(file: &CaseFile, len: u64, engine: &str, notes: &mut Vec<String>) -> String {
    let ans = file.path.with_extension("ans");
    match crate::util::guard::open(&ans, &file.tree, crate::util::guard::answer_bound(len)) {
        Ok(Some(mut opened)) => {
            let mut text = String::new();
            if opened.file.read_to_string(&mut text).is_err() {
                notes.push(format!(
                    "{}: not text; the engine's output is expected",
                    display(&ans)
                ));
                return engine.to_string();
            }
            if compare(engine, text.as_bytes()) != Verdict::AC {
                notes.push(format!(
                    "{}: the .ans differs from the engine's output (referee verify says more); \
                     programs are run against the .ans",
                    file.name
                ));
            }
            text
        }
        Ok(None) => engine.to_string(),
        Err(why) => {
            notes.push(format!(
                "{}: {why}; the engine's output is expected",
                display(&ans)
            ));
            engine.to_string()
        }
    }
}

/// The problem's input form, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProblemForm {
    /// The form every program must read; `None`: each program's own, by its output's shape.
    pub form: Option<Form>,
    /// Why, in a sentence.
    pub why: String,
}

/// The problem's form under `rule`: `--form`; else (several programs) the form of the data, the
/// form most of its files (of every slice) are written in when they differ, else the form of
/// the statement's examples; else (one program) none.
pub fn problem_form<G: Auditable>(rule: FormRule, data: &Data<G::Case>) -> ProblemForm {
    let forms: Vec<Option<Form>> = data
        .files
        .iter()
        .map(|f| f.form)
        .chain(data.other_forms.iter().copied())
        .collect();
    let count = |form: Form| forms.iter().filter(|f| **f == Some(form)).count();
    let (multi, single) = (count(Form::Multi), count(Form::Single));
    match rule {
        FormRule::Asked(form) => ProblemForm {
            form: Some(form),
            why: "asked with --form".into(),
        },
        FormRule::ByShape => ProblemForm {
            form: None,
            why: "the form the program's output fits".into(),
        },
        FormRule::Problem if multi + single == 0 => ProblemForm {
            form: Some(G::STATEMENT_FORM),
            why: if forms.is_empty() {
                "the statement's examples' form (no data)".into()
            } else {
                "the statement's examples' form (the data reads alike in both forms)".into()
            },
        },
        FormRule::Problem => {
            let form = if multi >= single {
                Form::Multi
            } else {
                Form::Single
            };
            let why = if multi > 0 && single > 0 {
                format!(
                    "the form of most of the data ({} files in the multi-case form, {} in the \
                     single-case form)",
                    multi, single
                )
            } else {
                "the data's form".to_string()
            };
            ProblemForm {
                form: Some(form),
                why,
            }
        }
    }
}

/// The data file a program fails first, and how.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FailedFile {
    /// Its name.
    pub name: String,
    /// Its place among every data file.
    pub position: usize,
    /// How the program fails it.
    pub kind: Kind,
}

/// A program's result on the data, as a judge system gives it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OnData {
    /// `accepted`, or the class of the first file it fails.
    pub class: Class,
    /// The first file it fails, and how.
    pub failed: Option<FailedFile>,
    /// The most CPU time one file took.
    #[serde(with = "crate::audit::terms::seconds")]
    pub slowest: Duration,
    /// The most memory one file's run held, in bytes.
    pub memory: u64,
    /// The files it ran.
    pub files: usize,
}

impl OnData {
    /// In words: `accepted (27 files)`, `wrong_answer on 003.in (wrong-answer)`.
    pub fn text(&self) -> String {
        match &self.failed {
            None => format!("{} ({} files)", self.class, self.files),
            Some(f) => format!("{} on {} ({})", self.class, f.name, f.kind),
        }
    }

    /// Whether it timed out on the data (such a program is done with).
    pub fn timed_out(&self) -> bool {
        self.failed
            .as_ref()
            .is_some_and(|f| f.kind == Kind::Timeout)
    }

    /// The result of two slices of the data: the first file failed, the files counted once.
    pub fn and(&self, other: &OnData) -> OnData {
        let failed = [&self.failed, &other.failed]
            .into_iter()
            .flatten()
            .min_by_key(|f| f.position)
            .cloned();
        OnData {
            class: failed
                .as_ref()
                .map_or(Class::Accepted, |f| Class::of_kind(f.kind)),
            failed,
            slowest: self.slowest.max(other.slowest),
            memory: self.memory.max(other.memory),
            files: self.files + other.files,
        }
    }
}

/// What a program's runs on the existing data gave.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "result", rename_all = "kebab-case")]
pub enum DataOutcome {
    /// There is no data in this run.
    NoData,
    /// The audit's deadline, or an interruption, cut its runs short.
    Cut,
    /// Its result.
    Ran(OnData),
}

impl DataOutcome {
    /// Its result, when its runs ended.
    pub fn result(&self) -> Option<&OnData> {
        match self {
            DataOutcome::Ran(r) => Some(r),
            _ => None,
        }
    }

    /// Whether the data rejects it.
    pub fn rejects(&self) -> bool {
        self.result().is_some_and(|r| r.class != Class::Accepted)
    }

    /// Whether the data judged it: its runs ended, or there is no data to judge it.
    pub fn judged(&self) -> bool {
        !matches!(self, DataOutcome::Cut)
    }

    /// The outcome of two slices of the data.
    pub fn and(&self, other: &DataOutcome) -> DataOutcome {
        match (self, other) {
            (DataOutcome::Ran(a), DataOutcome::Ran(b)) => DataOutcome::Ran(a.and(b)),
            (DataOutcome::NoData, o) | (o, DataOutcome::NoData) => o.clone(),
            (DataOutcome::Ran(r), DataOutcome::Cut) | (DataOutcome::Cut, DataOutcome::Ran(r))
                if r.failed.is_some() =>
            {
                DataOutcome::Ran(r.clone())
            }
            _ => DataOutcome::Cut,
        }
    }
}

/// Runs the program of `runner` on every data file as it is, against its answer, each within
/// the runner's time limit and cut at `cut`, as a judge system does: its result is the first
/// file it does not pass.
pub fn run_on_data<G: Auditable>(
    runner: &Runner<G>,
    files: &[DataFile<G::Case>],
    cut: Option<Instant>,
) -> Result<OnData, NoAnswer> {
    let mut slowest = Duration::ZERO;
    let mut memory = 0;
    for (ran, file) in files.iter().enumerate() {
        let limit = runner.time_limit.for_bytes(file.input.len());
        let tried = runner.run_to_end(&file.input, &file.expected, limit, cut)?;
        slowest = slowest.max(tried.run.cpu);
        memory = memory.max(tried.run.memory);
        if let Some(kind) = tried.kind {
            return Ok(OnData {
                class: Class::of_kind(kind),
                failed: Some(FailedFile {
                    name: file.name.clone(),
                    position: file.position,
                    kind,
                }),
                slowest,
                memory,
                files: ran + 1,
            });
        }
    }
    Ok(OnData {
        class: Class::Accepted,
        failed: None,
        slowest,
        memory,
        files: files.len(),
    })
}

/// The time limit of every run after the data's, from the results `accepted` on the data of
/// the programs expected accepted (at most `most`, `--timeout`); `most` itself when none of
/// them ran the data to its end or there is no data.
pub fn time_limit(most: Duration, accepted: &[&OnData], biggest: u64) -> TimeLimit {
    let slowest = accepted
        .iter()
        .filter(|r| r.class == Class::Accepted && r.files > 0)
        .map(|r| r.slowest)
        .max();
    match slowest {
        Some(slowest) if biggest > 0 => TimeLimit {
            most,
            from_data: Some(FromData {
                slowest,
                largest: biggest,
            }),
        },
        _ => TimeLimit::fixed(most),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pousse::Pousse;

    fn file(form: Option<Form>) -> DataFile<crate::pousse::PousseCase> {
        DataFile {
            name: "f.in".into(),
            position: 0,
            input: Vec::new(),
            expected: String::new(),
            cases: Vec::new(),
            form,
        }
    }

    fn data(files: &[DataFile<crate::pousse::PousseCase>]) -> Data<crate::pousse::PousseCase> {
        Data {
            files: files.to_vec(),
            other_forms: Vec::new(),
            found: Vec::new(),
            notes: Vec::new(),
        }
    }

    #[test]
    fn the_problems_form_is_the_datas_else_the_statements() {
        let form = |rule, files: &[_]| problem_form::<Pousse>(rule, &data(files)).form;
        let multi = [file(Some(Form::Multi)), file(Some(Form::Multi))];
        assert_eq!(form(FormRule::Problem, &multi), Some(Form::Multi));
        let mostly_single = [
            file(Some(Form::Single)),
            file(Some(Form::Single)),
            file(Some(Form::Multi)),
        ];
        assert_eq!(form(FormRule::Problem, &mostly_single), Some(Form::Single));
        // No data, or data that reads alike in both forms: the statement's form.
        assert_eq!(form(FormRule::Problem, &[]), Some(Form::Multi));
        assert_eq!(form(FormRule::Problem, &[file(None)]), Some(Form::Multi));
        // --form wins; one program with nothing said has none.
        assert_eq!(
            form(FormRule::Asked(Form::Single), &multi),
            Some(Form::Single)
        );
        assert_eq!(form(FormRule::ByShape, &multi), None);
        // Sharded: the other slices' files count too.
        let mut sliced = data(&[file(Some(Form::Single))]);
        sliced.other_forms = vec![Some(Form::Multi), Some(Form::Multi)];
        assert_eq!(
            problem_form::<Pousse>(FormRule::Problem, &sliced).form,
            Some(Form::Multi)
        );
    }

    #[test]
    fn the_time_limit_comes_from_the_accepted_programs_slowest_run() {
        let most = Duration::from_secs(2);
        let result = |class, ms| OnData {
            class,
            failed: None,
            slowest: Duration::from_millis(ms),
            memory: 1 << 20,
            files: 3,
        };
        let fast = result(Class::Accepted, 10);
        let slow = result(Class::Accepted, 30);
        let rejected = result(Class::WrongAnswer, 900);
        let limit = time_limit(most, &[&fast, &slow, &rejected], 100);
        assert_eq!(
            limit.from_data,
            Some(FromData {
                slowest: Duration::from_millis(30),
                largest: 100
            })
        );
        assert_eq!(time_limit(most, &[&rejected], 100), TimeLimit::fixed(most));
        assert_eq!(time_limit(most, &[&fast], 0), TimeLimit::fixed(most));
    }
}
