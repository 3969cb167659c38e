//! `referee grade`: grade submissions' output files against the engine's verdicts.
//!
//! The case `CASES/a/b.in` is answered by `SUBMISSIONS/<name>/a/b.out` for each folder
//! `<name>` directly under SUBMISSIONS. Verdicts: `AC` (the same lines as the engine's output,
//! ignoring trailing blanks on each line and the final newline), `PE` (the same tokens, but
//! line breaks or blank lines differ), `WA` (anything else, invalid UTF-8 included), `NO` (no
//! output file), and `JE` for every submission when the case's `.ans` disagrees with the
//! engine, or the engine cannot judge the case.

use std::collections::BTreeMap;
use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::answer::{compare_reader, escape, longest_output, Verdict, HEAD};
use crate::detect::{recognise_file, rules_from_file_name};
use crate::error::RunError;
use crate::game::{render, Engine, Game, RuleSet};
use crate::games::{GameName, Visitor};
use crate::pool::{pool, progress};
use crate::report::ci::{Case, Outcome as CaseOutcome, Suite};
use crate::report::manifest::Manifest;
use crate::report::write::Staging;
use crate::shard::Shard;
use crate::walk::{display, find_cases};

/// How to grade.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The game of every case; recognised from content when `None`.
    pub game: Option<GameName>,
    /// The rule set (by name) for cases of the games that have it and whose name asks for
    /// none.
    pub rules: Option<String>,
}

impl Options {
    /// The options, for the manifest.
    fn manifest(&self) -> BTreeMap<String, String> {
        let mut m = BTreeMap::new();
        m.insert("game".into(), self.game.map_or("", |g| g.as_str()).into());
        m.insert("rules".into(), self.rules.clone().unwrap_or_default());
        m
    }
}

/// The engine's output for the case at `path`, judged as game `G`.
struct EngineOutput<'a> {
    path: &'a Path,
    rules: Option<&'a str>,
}

impl Visitor for EngineOutput<'_> {
    type Output = Result<String, String>;
    fn visit<G: Game>(self) -> Result<String, String> {
        let rules = rules_from_file_name(self.path)
            .or_else(|| self.rules.and_then(G::Options::from_name))
            .unwrap_or_default();
        let mut file = crate::guard::open_regular(self.path).map_err(|e| e.to_string())?;
        let judgements =
            G::judge(Engine::Fast, &mut file, rules).map_err(|e| e.located(&display(self.path)))?;
        Ok(render::<G>(&judgements))
    }
}

/// The case's expected output per the engine, or why it cannot be graded (a JE). Its `.ans`
/// is read through [`crate::guard`], as `verify` reads it.
fn judge_case(case: &crate::walk::CaseFile, options: &Options) -> Result<String, String> {
    let path = &case.path;
    let game = match options.game {
        Some(g) => g,
        None => recognise_file(path)?,
    };
    let output = game.visit(EngineOutput {
        path,
        rules: options.rules.as_deref(),
    })?;
    let ans = path.with_extension("ans");
    let input_len = fs::metadata(path).map_or(0, |m| m.len());
    let file = match crate::guard::open(&ans, &case.tree, crate::guard::answer_bound(input_len)) {
        Ok(Some(opened)) => opened.file,
        Ok(None) => return Ok(output),
        Err(why) => return Err(format!("answer file: {why}")),
    };
    match compare_reader(&output, file) {
        Ok(c) if c.verdict == Verdict::AC => Ok(output),
        Ok(c) => Err(format!(
            "the answer file disagrees with the engine ({})",
            escape(&c.head, 200)
        )),
        Err(e) => Err(format!("answer file: {e}")),
    }
}

/// The grade of one submission on one case.
#[derive(Debug, Clone)]
struct Graded {
    verdict: Verdict,
    /// The output's first bytes.
    head: Vec<u8>,
    detail: String,
}

/// Grades the output at `out_file` (of a submission in the submissions' `tree`) against
/// `expected`, reading it only when it is a regular file inside that tree, and no more of it
/// than the comparison needs.
fn grade_output(
    out_file: &Path,
    tree: &crate::guard::Tree,
    expected: &Result<String, String>,
) -> Graded {
    let graded = |verdict, head, detail: &str| Graded {
        verdict,
        head,
        detail: detail.to_string(),
    };
    let no = |detail: &str| graded(Verdict::NO, Vec::new(), detail);
    // A case that cannot be judged is a judge error for every submission, output or none.
    let verdict_without_output = if expected.is_err() {
        Verdict::JE
    } else {
        Verdict::NO
    };
    let without = |detail: &str| graded(verdict_without_output, Vec::new(), detail);
    let (file, len) = match crate::guard::open(out_file, tree, u64::MAX) {
        Ok(Some(opened)) => (opened.file, opened.len),
        Ok(None) => return without(""),
        Err(why) => return without(&why),
    };
    let expected = match expected {
        Ok(e) => e,
        Err(_) => {
            let mut head = Vec::new();
            let _ = file.take(HEAD as u64).read_to_end(&mut head);
            return graded(Verdict::JE, head, "");
        }
    };
    if len > longest_output(expected) {
        let mut head = Vec::new();
        let _ = file.take(HEAD as u64).read_to_end(&mut head);
        let why = format!(
            "the output has {} bytes, far more than expected (not read)",
            len
        );
        return graded(Verdict::WA, head, &why);
    }
    match compare_reader(expected, file) {
        Ok(c) => graded(c.verdict, c.head, &c.detail),
        Err(e) => no(&format!("unreadable: {e}")),
    }
}

/// The file names of the reports.
const GRADES: &str = "grades.csv";
const SUMMARY: &str = "summary.csv";
/// The manifest of a grade report directory.
pub const MANIFEST: &str = "grade.json";
/// The columns of `grades.csv`.
const GRADES_HEADER: [&str; 6] = ["submission", "file", "verdict", "expected", "got", "detail"];

/// One row of `grades.csv`: a submission's grade on one case.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GradeRow {
    /// The submission (its folder's name).
    pub submission: String,
    /// The case, relative to the cases' folder.
    pub file: String,
    /// The grade.
    pub verdict: Verdict,
    /// The expected output (escaped), or why the case is a judge error.
    pub expected: String,
    /// The output's first bytes (escaped).
    pub got: String,
    /// Why.
    pub detail: String,
}

impl GradeRow {
    fn fields(&self) -> [&str; 6] {
        [
            &self.submission,
            &self.file,
            self.verdict.as_str(),
            &self.expected,
            &self.got,
            &self.detail,
        ]
    }

    /// A row read back from `grades.csv`.
    fn from_record(record: &csv::StringRecord) -> Option<GradeRow> {
        let field = |i: usize| record.get(i).map(str::to_string);
        Some(GradeRow {
            submission: field(0)?,
            file: field(1)?,
            verdict: Verdict::from_name(record.get(2)?)?,
            expected: field(3)?,
            got: field(4)?,
            detail: field(5)?,
        })
    }
}

/// What a grade run found.
#[derive(Debug, Default)]
pub struct Outcome {
    /// Every row, by submission then case.
    pub rows: Vec<GradeRow>,
    /// The cases that are judge errors.
    pub judge_errors: usize,
}

/// Grades every submission on every case (of the slice `shard`, when given); writes
/// `grades.csv`, `summary.csv` and the manifest into `out`.
pub fn grade(
    cases: &Path,
    submissions: &Path,
    options: &Options,
    jobs: Option<usize>,
    shard: Option<Shard>,
    out: &Path,
) -> Result<Outcome, RunError> {
    let staging = Staging::new(out).map_err(|e| RunError::io(out, e))?;
    let found = find_cases(&[cases.to_path_buf()])?;
    let relative =
        |f: &crate::walk::CaseFile| display(f.path.strip_prefix(cases).unwrap_or(&f.path));
    let judged: Vec<crate::walk::CaseFile> = found
        .iter()
        .filter(|f| shard.is_none_or(|s| s.contains(&relative(f))))
        .cloned()
        .collect();
    let tree = crate::guard::Tree::new(submissions).map_err(|e| RunError::io(submissions, e))?;
    let mut names: Vec<(String, PathBuf)> = fs::read_dir(submissions)
        .map_err(|e| RunError::io(submissions, e))?
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .map(|e| (display(Path::new(&e.file_name())), e.path()))
        .collect();
    names.sort();
    let bar = progress(judged.len(), "grading", "cases");
    // (case name, expected output or judge error, grade per submission)
    type Case = (String, Result<String, String>, Vec<Graded>);
    let graded: Vec<Case> = pool(jobs)?.install(|| {
        judged
            .par_iter()
            .with_max_len(8) // small pieces balance uneven files (see verify::run)
            .map(|f| {
                let rel = f.path.strip_prefix(cases).unwrap_or(&f.path).to_path_buf();
                let expected = match &f.error {
                    Some(e) => Err(e.clone()),
                    None => judge_case(f, options),
                };
                let grades = names
                    .iter()
                    .map(|(_, dir)| {
                        let out_file = dir.join(&rel).with_extension("out");
                        grade_output(&out_file, &tree, &expected)
                    })
                    .collect();
                bar.inc(1);
                (display(&rel), expected, grades)
            })
            .collect()
    });
    bar.finish_and_clear();
    let mut rows = Vec::new();
    for (s, (name, _)) in names.iter().enumerate() {
        for (case, expected, grades) in &graded {
            let g = &grades[s];
            rows.push(GradeRow {
                submission: name.clone(),
                file: case.clone(),
                verdict: g.verdict,
                expected: match expected {
                    Ok(e) => escape(e.as_bytes(), 200),
                    Err(why) => format!("judge error: {why}"),
                },
                got: escape(&g.head, 200),
                detail: g.detail.clone(),
            });
        }
    }
    let mut manifest = Manifest::new(
        "grade",
        options.manifest(),
        &found,
        shard.map(|s| (s, &judged[..])),
    );
    write(staging, &rows, &mut manifest).map_err(|e| RunError::io(out, e))?;
    let judge_errors = graded.iter().filter(|g| g.1.is_err()).count();
    let outcome = Outcome { rows, judge_errors };
    eprint!("{}", summary(&outcome, names.len(), graded.len(), out));
    Ok(outcome)
}

/// The summary printed on standard error.
pub fn summary(outcome: &Outcome, submissions: usize, cases: usize, out: &Path) -> String {
    let mut s = format!(
        "graded {submissions} submissions on {cases} cases ({} judge errors)\n",
        outcome.judge_errors
    );
    for row in summary_rows(&outcome.rows) {
        s.push_str(&format!("  {}: {}\n", row[0], row[7]));
    }
    let mut seen = std::collections::BTreeSet::new();
    for row in &outcome.rows {
        if row.verdict == Verdict::JE && seen.insert(&row.file) {
            s.push_str(&format!("  JE {}: {}\n", row.file, row.expected));
        }
    }
    let dir = out.display();
    s.push_str(&format!(
        "reports: {dir}/{GRADES}, {dir}/{SUMMARY}, {dir}/{MANIFEST}\n"
    ));
    s
}

/// The rows of `summary.csv`: per submission, its cases, the count of each verdict and its
/// worst verdict.
fn summary_rows(rows: &[GradeRow]) -> Vec<Vec<String>> {
    let mut per: Vec<(&str, [usize; 5])> = Vec::new();
    for row in rows {
        if per.last().map(|p| p.0) != Some(row.submission.as_str()) {
            per.push((&row.submission, [0; 5]));
        }
        let counts = &mut per.last_mut().expect("pushed").1;
        counts[Verdict::ALL
            .iter()
            .position(|&v| v == row.verdict)
            .expect("a verdict")] += 1;
    }
    per.into_iter()
        .map(|(name, counts)| {
            let worst = Verdict::ALL
                .iter()
                .zip(counts)
                .filter(|(_, n)| *n > 0)
                .map(|(v, _)| *v)
                .next_back()
                .unwrap_or(Verdict::AC);
            let mut row = vec![name.to_string(), counts.iter().sum::<usize>().to_string()];
            row.extend(counts.iter().map(|n| n.to_string()));
            row.push(worst.as_str().to_string());
            row
        })
        .collect()
}

fn write(staging: Staging, rows: &[GradeRow], manifest: &mut Manifest) -> std::io::Result<()> {
    let mut staging = staging;
    let digest = staging.csv(GRADES, &GRADES_HEADER, rows.iter().map(GradeRow::fields))?;
    manifest.reports.insert(GRADES.into(), digest);
    let header = [
        "submission",
        "cases",
        "AC",
        "PE",
        "WA",
        "NO",
        "JE",
        "result",
    ];
    let digest = staging.csv(SUMMARY, &header, summary_rows(rows))?;
    manifest.reports.insert(SUMMARY.into(), digest);
    staging.json(MANIFEST, manifest)?;
    staging.commit()
}

/// Reads the rows of the `grades.csv` in `dir`.
pub fn read_rows(dir: &Path) -> Result<Vec<GradeRow>, String> {
    let path = dir.join(GRADES);
    let (mut reader, header) = crate::report::open_csv(&path)?;
    if header.iter().ne(GRADES_HEADER.iter().copied()) {
        return Err(format!("{}: not a grades report", path.display()));
    }
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| format!("{}: {e}", path.display()))?;
        rows.push(
            GradeRow::from_record(&record)
                .ok_or_else(|| format!("{}: a malformed row {record:?}", path.display()))?,
        );
    }
    Ok(rows)
}

/// Combines the rows of shard runs (each checked to hold only its slice's cases) into the
/// reports of one run in `staging`, in the order an unsharded run writes them.
pub fn write_merged(
    staging: Staging,
    rows: Vec<GradeRow>,
    manifest: &mut Manifest,
) -> std::io::Result<Outcome> {
    let mut rows = rows;
    rows.sort_by(|a, b| {
        a.submission
            .cmp(&b.submission)
            .then_with(|| crate::report::order((&a.file, ""), (&b.file, "")))
    });
    write(staging, &rows, manifest)?;
    let mut judge_error_cases: Vec<&str> = rows
        .iter()
        .filter(|r| r.verdict == Verdict::JE)
        .map(|r| r.file.as_str())
        .collect();
    judge_error_cases.sort_unstable();
    judge_error_cases.dedup();
    let judge_errors = judge_error_cases.len();
    Ok(Outcome { rows, judge_errors })
}

/// A grade run's rows as CI results: one suite per submission, one case per graded output;
/// `PE`, `WA` and `NO` fail, `JE` is an error (the case, not the submission, is wrong).
pub fn suites(rows: &[GradeRow]) -> Vec<Suite> {
    let mut suites: Vec<Suite> = Vec::new();
    for row in rows {
        if suites.last().map(|s| &s.name) != Some(&row.submission) {
            suites.push(Suite {
                name: row.submission.clone(),
                properties: vec![("submission".to_string(), row.submission.clone())],
                cases: Vec::new(),
            });
        }
        let outcome = match row.verdict {
            Verdict::AC => CaseOutcome::Passed,
            Verdict::JE => CaseOutcome::Error,
            _ => CaseOutcome::Failed,
        };
        let message = match row.verdict {
            Verdict::AC => String::new(),
            Verdict::JE => row.expected.clone(),
            _ => {
                let mut m = format!("expected {:?}, got {:?}", row.expected, row.got);
                if !row.detail.is_empty() {
                    m = format!("{}: {m}", row.detail);
                }
                m
            }
        };
        suites.last_mut().expect("pushed").cases.push(Case {
            name: row.file.clone(),
            status: row.verdict.as_str().to_string(),
            outcome,
            message,
            detail: row.detail.clone(),
            location: None,
            time: None,
        });
    }
    suites
}
