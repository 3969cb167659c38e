//! `referee grade`: grade submissions' output files against the engine's verdicts.
//!
//! The case `CASES/a/b.in` is answered by `SUBMISSIONS/<name>/a/b.out` for each folder
//! `<name>` directly under SUBMISSIONS. Verdicts: `AC` (the same lines as the engine's output,
//! ignoring trailing blanks on each line and the final newline), `PE` (the same tokens, but
//! line breaks or blank lines differ), `WA` (anything else, invalid UTF-8 included), `NO` (no
//! output file), and `JE` for every submission when the case's `.ans` disagrees with the
//! engine, or the engine cannot judge the case.

use std::fs;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::answer::{compare, Verdict};
use crate::detect::{recognise_file, rules_from_file_name};
use crate::error::RunError;
use crate::game::{render, Engine, Game, RuleSet};
use crate::games::{GameName, Visitor};
use crate::pool::{pool, progress};
use crate::report::write::write_csv_atomically;
use crate::walk::find_cases;

/// How to grade.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// The game of every case; recognised from content when `None`.
    pub game: Option<GameName>,
    /// The rule set (by name) for cases of the games that have it and whose name asks for
    /// none.
    pub rules: Option<String>,
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
        let judgements = G::judge(Engine::Fast, &mut file, rules)
            .map_err(|e| e.located(&self.path.display().to_string()))?;
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
    match fs::read(path.with_extension("ans")) {
        Ok(ans) if compare(&output, &ans) != Verdict::AC => Err(format!(
            "the answer file disagrees with the engine ({})",
            escape(&String::from_utf8_lossy(&ans))
        )),
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(format!("answer file: {e}")),
        _ => Ok(output),
    }
}

/// Text for one CSV cell: newlines shown as `\n`, cut at 200 characters.
fn escape(text: &str) -> String {
    let s = text.replace('\n', "\\n");
    match s.char_indices().nth(200) {
        Some((i, _)) => format!("{}...", &s[..i]),
        None => s,
    }
}

/// Grades every submission on every case; writes `grades.csv` and `summary.csv` into `out`.
/// Returns the number of cases that are judge errors.
pub fn grade(
    cases: &Path,
    submissions: &Path,
    options: &Options,
    jobs: Option<usize>,
    out: &Path,
) -> Result<usize, RunError> {
    let found = find_cases(&[cases.to_path_buf()])?;
    let mut names: Vec<String> = fs::read_dir(submissions)
        .map_err(|e| RunError::io(submissions, e))?
        .filter_map(Result::ok)
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().to_string())
        .collect();
    names.sort();
    let bar = progress(found.len(), "grading", "cases");
    // (relative case path, expected output or judge error, verdict per submission)
    type Graded = (PathBuf, Result<String, String>, Vec<(Verdict, String)>);
    let graded: Vec<Graded> = pool(jobs)?.install(|| {
        found
            .par_iter()
            .with_max_len(8) // small pieces balance uneven files (see batch::verify)
            .map(|f| {
                let rel = f.path.strip_prefix(cases).unwrap_or(&f.path).to_path_buf();
                let expected = match &f.error {
                    Some(e) => Err(e.clone()),
                    None => judge_case(&f.path, options),
                };
                let verdicts = names
                    .iter()
                    .map(|name| {
                        let out_file = submissions.join(name).join(&rel).with_extension("out");
                        match (&expected, fs::read(&out_file)) {
                            (Err(_), got) => (
                                Verdict::JE,
                                got.map(|g| String::from_utf8_lossy(&g).to_string())
                                    .unwrap_or_default(),
                            ),
                            (Ok(_), Err(_)) => (Verdict::NO, String::new()),
                            (Ok(e), Ok(got)) => {
                                (compare(e, &got), String::from_utf8_lossy(&got).to_string())
                            }
                        }
                    })
                    .collect();
                bar.inc(1);
                (rel, expected, verdicts)
            })
            .collect()
    });
    bar.finish_and_clear();
    let case_name = |rel: &Path| rel.to_string_lossy().replace('\\', "/");
    let mut grade_rows = Vec::new();
    for (s, name) in names.iter().enumerate() {
        for (rel, expected, verdicts) in &graded {
            let (verdict, got) = &verdicts[s];
            let expected_text = match expected {
                Ok(e) => escape(e),
                Err(why) => format!("judge error: {why}"),
            };
            grade_rows.push(vec![
                name.clone(),
                case_name(rel),
                verdict.as_str().to_string(),
                expected_text,
                escape(got),
            ]);
        }
    }
    let mut summary_rows = Vec::new();
    for (s, name) in names.iter().enumerate() {
        let count = |v: Verdict| graded.iter().filter(|g| g.2[s].0 == v).count();
        let worst = graded.iter().map(|g| g.2[s].0).max().unwrap_or(Verdict::AC);
        let mut row = vec![name.clone(), graded.len().to_string()];
        row.extend(Verdict::ALL.iter().map(|&v| count(v).to_string()));
        row.push(worst.as_str().to_string());
        summary_rows.push(row);
    }
    fs::create_dir_all(out).map_err(|e| RunError::io(out, e))?;
    write_csv_atomically(
        &out.join("grades.csv"),
        &["submission", "file", "verdict", "expected", "got"],
        grade_rows,
    )
    .map_err(|e| RunError::io(out, e))?;
    write_csv_atomically(
        &out.join("summary.csv"),
        &[
            "submission",
            "cases",
            "AC",
            "PE",
            "WA",
            "NO",
            "JE",
            "result",
        ],
        summary_rows.iter(),
    )
    .map_err(|e| RunError::io(out, e))?;
    let judge_errors = graded.iter().filter(|g| g.1.is_err()).count();
    eprintln!(
        "graded {} submissions on {} cases ({judge_errors} judge errors)",
        names.len(),
        graded.len()
    );
    for row in &summary_rows {
        eprintln!("  {}: {}", row[0], row[7]);
    }
    for (rel, expected, _) in &graded {
        if let Err(why) = expected {
            eprintln!("  JE {}: {why}", case_name(rel));
        }
    }
    Ok(judge_errors)
}
