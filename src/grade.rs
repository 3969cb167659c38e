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
use crate::report::manifest::Manifest;
use crate::report::write::Staging;
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
        let mut file = fs::File::open(self.path).map_err(|e| e.to_string())?;
        let judgements =
            G::judge(Engine::Fast, &mut file, rules).map_err(|e| e.located(&display(self.path)))?;
        Ok(render::<G>(&judgements))
    }
}

/// The case's expected output per the engine, or why it cannot be graded (a JE).
fn judge_case(path: &Path, options: &Options) -> Result<String, String> {
    let game = match options.game {
        Some(g) => g,
        None => recognise_file(path)?,
    };
    let output = game.visit(EngineOutput {
        path,
        rules: options.rules.as_deref(),
    })?;
    let ans = path.with_extension("ans");
    let file = match fs::File::open(&ans) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(output),
        Err(e) => return Err(format!("answer file: {e}")),
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

/// Grades the output at `out_file` (of a submission under `submissions`, whose real path is
/// `tree`) against `expected`, reading it only when it is a regular file inside that tree, and
/// no more of it than the comparison needs.
fn grade_output(
    out_file: &Path,
    submissions: &Path,
    tree: &Path,
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
    let meta = match fs::metadata(out_file) {
        Ok(m) => m,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return without(if out_file.symlink_metadata().is_ok() {
                "a symbolic link to nothing"
            } else {
                ""
            })
        }
        Err(e) => return without(&format!("unreadable: {e}")),
    };
    if !out_file
        .canonicalize()
        .is_ok_and(|real| real.starts_with(tree))
    {
        return without(&format!(
            "a symbolic link leaving {} (not followed)",
            display(submissions)
        ));
    }
    if !meta.is_file() {
        return without("not a regular file (not read)");
    }
    let file = match fs::File::open(out_file) {
        Ok(f) => f,
        Err(e) => return without(&format!("unreadable: {e}")),
    };
    let expected = match expected {
        Ok(e) => e,
        Err(_) => {
            let mut head = Vec::new();
            let _ = file.take(HEAD as u64).read_to_end(&mut head);
            return graded(Verdict::JE, head, "");
        }
    };
    if meta.len() > longest_output(expected) {
        let mut head = Vec::new();
        let _ = file.take(HEAD as u64).read_to_end(&mut head);
        let why = format!(
            "the output has {} bytes, far more than expected (not read)",
            meta.len()
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

/// Grades every submission on every case; writes `grades.csv`, `summary.csv` and the manifest
/// into `out`. Returns the number of cases that are judge errors.
pub fn grade(
    cases: &Path,
    submissions: &Path,
    options: &Options,
    jobs: Option<usize>,
    out: &Path,
) -> Result<usize, RunError> {
    let staging = Staging::new(out).map_err(|e| RunError::io(out, e))?;
    let found = find_cases(&[cases.to_path_buf()])?;
    let tree = submissions
        .canonicalize()
        .map_err(|e| RunError::io(submissions, e))?;
    let mut names: Vec<(String, PathBuf)> = fs::read_dir(submissions)
        .map_err(|e| RunError::io(submissions, e))?
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .map(|e| (display(Path::new(&e.file_name())), e.path()))
        .collect();
    names.sort();
    let bar = progress(found.len(), "grading", "cases");
    // (case name, expected output or judge error, grade per submission)
    type Case = (String, Result<String, String>, Vec<Graded>);
    let graded: Vec<Case> = pool(jobs)?.install(|| {
        found
            .par_iter()
            .with_max_len(8) // small pieces balance uneven files (see verify::run)
            .map(|f| {
                let rel = f.path.strip_prefix(cases).unwrap_or(&f.path).to_path_buf();
                let expected = match &f.error {
                    Some(e) => Err(e.clone()),
                    None => judge_case(&f.path, options),
                };
                let grades = names
                    .iter()
                    .map(|(_, dir)| {
                        let out_file = dir.join(&rel).with_extension("out");
                        grade_output(&out_file, submissions, &tree, &expected)
                    })
                    .collect();
                bar.inc(1);
                (display(&rel), expected, grades)
            })
            .collect()
    });
    bar.finish_and_clear();
    let mut grade_rows = Vec::new();
    for (s, (name, _)) in names.iter().enumerate() {
        for (case, expected, grades) in &graded {
            let g = &grades[s];
            let expected_text = match expected {
                Ok(e) => escape(e.as_bytes(), 200),
                Err(why) => format!("judge error: {why}"),
            };
            grade_rows.push(vec![
                name.clone(),
                case.clone(),
                g.verdict.as_str().to_string(),
                expected_text,
                escape(&g.head, 200),
                g.detail.clone(),
            ]);
        }
    }
    let mut summary_rows = Vec::new();
    for (s, (name, _)) in names.iter().enumerate() {
        let count = |v: Verdict| graded.iter().filter(|g| g.2[s].verdict == v).count();
        let worst = graded
            .iter()
            .map(|g| g.2[s].verdict)
            .max()
            .unwrap_or(Verdict::AC);
        let mut row = vec![name.clone(), graded.len().to_string()];
        row.extend(Verdict::ALL.iter().map(|&v| count(v).to_string()));
        row.push(worst.as_str().to_string());
        summary_rows.push(row);
    }
    let mut manifest = Manifest::new("grade", options.manifest(), &found, None);
    write(staging, &grade_rows, &summary_rows, &mut manifest).map_err(|e| RunError::io(out, e))?;
    let judge_errors = graded.iter().filter(|g| g.1.is_err()).count();
    eprintln!(
        "graded {} submissions on {} cases ({judge_errors} judge errors)",
        names.len(),
        graded.len()
    );
    for row in &summary_rows {
        eprintln!("  {}: {}", row[0], row[7]);
    }
    for (case, expected, _) in &graded {
        if let Err(why) = expected {
            eprintln!("  JE {case}: {why}");
        }
    }
    let dir = out.display();
    eprintln!("reports: {dir}/{GRADES}, {dir}/{SUMMARY}, {dir}/{MANIFEST}");
    Ok(judge_errors)
}

fn write(
    mut staging: Staging,
    grades: &[Vec<String>],
    summary: &[Vec<String>],
    manifest: &mut Manifest,
) -> std::io::Result<()> {
    let header = ["submission", "file", "verdict", "expected", "got", "detail"];
    let digest = staging.csv(GRADES, &header, grades)?;
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
    let digest = staging.csv(SUMMARY, &header, summary)?;
    manifest.reports.insert(SUMMARY.into(), digest);
    staging.json(MANIFEST, manifest)?;
    staging.commit()
}
