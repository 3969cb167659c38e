//! The reports of `grade` (and of `merge` of its shards), written as the rows come: a
//! submission's rows go to its own part of `grades.csv` (buffered, appended a chunk at a time,
//! one file open at a time), the parts are joined in submission order at the end; counts per
//! submission and a bounded set of rows ([`KEPT_ROWS`]) are all that memory holds.

use crate::formats::refusal::Refusal;
use std::collections::BTreeMap;
use std::io::{self, Write};

use crate::formats::ci::{Case, Ended, Suite};
use crate::formats::manifest::Manifest;
use crate::formats::write::Staging;
use crate::util::answer::Verdict;

/// The file names of the reports.
pub const GRADES: &str = "grades.csv";
pub const SUMMARY: &str = "summary.csv";
/// The manifest of a grade report directory.
pub const MANIFEST: &str = "grade.json";
/// The names a grade run's reports take in its report directory.
pub const REPORTS: [&str; 3] = [GRADES, SUMMARY, MANIFEST];
/// The columns of `grades.csv`.
pub const GRADES_HEADER: [&str; 6] = ["submission", "file", "verdict", "expected", "got", "detail"];
/// The rows kept for the CI results by default: the first this many that are not `AC`, and
/// the first this many that are; every row is in `grades.csv`.
pub const KEPT_ROWS: usize = 10_000;
/// The judge errors named in the summary; the rest are counted.
pub const NAMED_JUDGE_ERRORS: usize = 20;
/// The bytes of a submission's rows held before they are appended to its part.
const PART_CHUNK: usize = 16 * 1024;

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
    pub fn from_record(record: &csv::StringRecord) -> Option<GradeRow> {
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

    /// The order of `grades.csv`: by submission, then by case as the walk sorts them.
    pub fn report_order(a: &GradeRow, b: &GradeRow) -> std::cmp::Ordering {
        a.submission
            .cmp(&b.submission)
            .then_with(|| crate::formats::order((&a.file, ""), (&b.file, "")))
    }
}

/// What a grade run (or a merge of its shards) found: counts, and a bounded set of rows.
#[derive(Debug, Default)]
pub struct GradeTotals {
    /// Rows in all.
    pub rows: u64,
    /// Per submission, in report order: the count of each verdict, in [`Verdict::ALL`]'s
    /// order.
    pub per_submission: Vec<(String, [u64; 5])>,
    /// The cases that are judge errors.
    pub judge_errors: usize,
    /// The first [`NAMED_JUDGE_ERRORS`] judge errors: the case and why.
    pub judge_errors_named: Vec<(String, String)>,
    /// The rows kept (see [`KEPT_ROWS`]), in report order.
    pub kept: Vec<GradeRow>,
}

/// A submission's part of `grades.csv`: rows not yet appended, and the part's file name.
struct Part {
    name: String,
    part_file: String,
    pending: Vec<u8>,
    counts: [u64; 5],
}

/// The reports being written.
pub struct GradeReports {
    parts: Vec<Part>,
    by_name: BTreeMap<String, usize>,
    outcome: GradeTotals,
    kept_failing: usize,
    kept_passing: usize,
    kept_limit: usize,
}

impl GradeReports {
    /// Reports for `submissions` (their rows may come in any order of submissions; each
    /// submission's rows in report order), keeping up to `kept_rows` rows of each kind.
    pub fn new(submissions: &[String], kept_rows: usize) -> GradeReports {
        let mut reports = GradeReports {
            parts: Vec::new(),
            by_name: BTreeMap::new(),
            outcome: GradeTotals::default(),
            kept_failing: 0,
            kept_passing: 0,
            kept_limit: kept_rows,
        };
        for name in submissions {
            reports.part_of(name);
        }
        reports
    }

    fn part_of(&mut self, submission: &str) -> usize {
        if let Some(&i) = self.by_name.get(submission) {
            return i;
        }
        let i = self.parts.len();
        self.parts.push(Part {
            name: submission.to_string(),
            part_file: format!("{GRADES}.part{i}"),
            pending: Vec::new(),
            counts: [0; 5],
        });
        self.by_name.insert(submission.to_string(), i);
        i
    }

    /// Adds `row`: counted, kept while there is room, and written to its submission's part.
    pub fn row(&mut self, staging: &mut Staging, row: GradeRow) -> io::Result<()> {
        let i = self.part_of(&row.submission);
        self.outcome.rows += 1;
        self.parts[i].counts[verdict_index(row.verdict)] += 1;
        if row.verdict == Verdict::JE {
            // Each case that is a judge error is one for every submission: named once, from
            // the first submission's rows.
            if i == 0 && self.outcome.judge_errors_named.len() < NAMED_JUDGE_ERRORS {
                self.outcome
                    .judge_errors_named
                    .push((row.file.clone(), row.expected.clone()));
            }
        }
        // The row in CSV form, appended to its part's pending bytes (a small buffer: one row).
        let mut writer = csv::WriterBuilder::new()
            .buffer_capacity(512)
            .from_writer(&mut self.parts[i].pending);
        writer.write_record(row.fields())?;
        writer.flush()?;
        drop(writer);
        if self.parts[i].pending.len() >= PART_CHUNK {
            self.append(staging, i)?;
        }
        let keep = if row.verdict == Verdict::AC {
            self.kept_passing < self.kept_limit && {
                self.kept_passing += 1;
                true
            }
        } else {
            self.kept_failing < self.kept_limit && {
                self.kept_failing += 1;
                true
            }
        };
        if keep {
            self.outcome.kept.push(row);
        }
        Ok(())
    }

    /// Appends part `i`'s pending rows to its file.
    fn append(&mut self, staging: &mut Staging, i: usize) -> io::Result<()> {
        let part = &mut self.parts[i];
        let mut file = staging.append_part(&part.part_file)?;
        file.write_all(&part.pending)?;
        part.pending.clear();
        Ok(())
    }

    /// Joins the parts into `grades.csv`, writes `summary.csv` and `manifest`, and puts the
    /// reports in place.
    pub fn finish(
        mut self,
        mut staging: Staging,
        manifest: &mut Manifest,
    ) -> io::Result<GradeTotals> {
        let mut order: Vec<usize> = (0..self.parts.len()).collect();
        order.sort_by(|&a, &b| self.parts[a].name.cmp(&self.parts[b].name));
        let mut grades = staging.csv_sink(GRADES, &GRADES_HEADER)?;
        for &i in &order {
            self.append(&mut staging, i)?;
            let mut part = staging.take_part(&self.parts[i].part_file)?;
            grades.copy_from(&mut part)?;
        }
        manifest.reports.insert(GRADES.into(), grades.finish()?);
        let mut outcome = self.outcome;
        outcome.per_submission = order
            .iter()
            .map(|&i| (self.parts[i].name.clone(), self.parts[i].counts))
            .collect();
        // Every submission gets `JE` on each case that is one.
        outcome.judge_errors = self
            .parts
            .iter()
            .map(|p| p.counts[verdict_index(Verdict::JE)] as usize)
            .max()
            .unwrap_or(0);
        outcome.kept.sort_by(|a, b| a.submission.cmp(&b.submission));
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
        let digest = staging.csv(SUMMARY, &header, summary_rows(&outcome.per_submission))?;
        manifest.reports.insert(SUMMARY.into(), digest);
        staging.json(MANIFEST, manifest)?;
        staging.commit()?;
        Ok(outcome)
    }
}

/// Where `verdict` is counted in a submission's counts: its place in [`Verdict::ALL`].
fn verdict_index(verdict: Verdict) -> usize {
    Verdict::ALL
        .iter()
        .position(|&v| v == verdict)
        .expect("every verdict is in Verdict::ALL")
}

/// The worst verdict of `counts` (in [`Verdict::ALL`]'s order), `AC` when there is none.
fn worst(counts: &[u64; 5]) -> Verdict {
    Verdict::ALL
        .iter()
        .zip(counts)
        .filter(|(_, n)| **n > 0)
        .map(|(v, _)| *v)
        .next_back()
        .unwrap_or(Verdict::AC)
}

/// The rows of `summary.csv`: per submission, its cases, the count of each verdict and its
/// worst verdict.
fn summary_rows(per_submission: &[(String, [u64; 5])]) -> Vec<Vec<String>> {
    per_submission
        .iter()
        .map(|(name, counts)| {
            let mut row = vec![name.clone(), counts.iter().sum::<u64>().to_string()];
            row.extend(counts.iter().map(|n| n.to_string()));
            row.push(worst(counts).as_str().to_string());
            row
        })
        .collect()
}

/// The summary printed on standard error.
pub fn summary(
    outcome: &GradeTotals,
    submissions: usize,
    cases: usize,
    out: &std::path::Path,
) -> String {
    let mut s = format!(
        "graded {submissions} submissions on {cases} cases ({} judge errors)\n",
        outcome.judge_errors
    );
    for (name, counts) in &outcome.per_submission {
        s.push_str(&format!("  {name}: {}\n", worst(counts).as_str()));
    }
    for (file, why) in &outcome.judge_errors_named {
        s.push_str(&format!("  JE {file}: {why}\n"));
    }
    if outcome.judge_errors > outcome.judge_errors_named.len() {
        s.push_str(&format!(
            "  and {} more judge errors (every one in {GRADES})\n",
            outcome.judge_errors - outcome.judge_errors_named.len()
        ));
    }
    let dir = out.display();
    s.push_str(&format!(
        "reports: {dir}/{GRADES}, {dir}/{SUMMARY}, {dir}/{MANIFEST}\n"
    ));
    s
}

/// A grade run's rows as CI results: one suite per submission, one case per kept row, and
/// per submission one case saying how many rows of each verdict are not shown; `PE`, `WA` and
/// `NO` fail, `JE` is an error (the case, not the submission, is wrong).
pub fn suites(outcome: &GradeTotals) -> Vec<Suite> {
    let mut suites: Vec<Suite> = Vec::new();
    let mut shown: BTreeMap<(&str, Verdict), u64> = BTreeMap::new();
    for row in &outcome.kept {
        *shown.entry((&row.submission, row.verdict)).or_default() += 1;
        suite_named(&mut suites, &row.submission)
            .cases
            .push(case_of(row));
    }
    for (name, counts) in &outcome.per_submission {
        for (&verdict, &n) in Verdict::ALL.iter().zip(counts) {
            let seen = shown.get(&(name.as_str(), verdict)).copied().unwrap_or(0);
            if n > seen {
                suite_named(&mut suites, name).cases.push(Case::more_rows(
                    n - seen,
                    verdict.as_str(),
                    outcome_of(verdict),
                    GRADES,
                ));
            }
        }
    }
    suites.sort_by(|a, b| a.name.cmp(&b.name));
    suites
}

/// The suite of `submission` in `suites`, made when missing.
fn suite_named<'s>(suites: &'s mut Vec<Suite>, submission: &str) -> &'s mut Suite {
    match suites.iter().position(|s| s.name == submission) {
        Some(i) => &mut suites[i],
        None => {
            suites.push(Suite {
                name: submission.to_string(),
                properties: vec![("submission".to_string(), submission.to_string())],
                cases: Vec::new(),
            });
            suites.last_mut().expect("pushed")
        }
    }
}

fn outcome_of(verdict: Verdict) -> Ended {
    match verdict {
        Verdict::AC => Ended::Passed,
        Verdict::JE => Ended::Error,
        _ => Ended::Failed,
    }
}

fn case_of(row: &GradeRow) -> Case {
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
    Case {
        name: row.file.clone(),
        status: row.verdict.as_str().to_string(),
        outcome: outcome_of(row.verdict),
        message,
        detail: row.detail.clone(),
        location: None,
        time: None,
    }
}

/// The rows of the `grades.csv` in a directory, read one at a time.
pub struct GradeRows {
    path: std::path::PathBuf,
    records: csv::StringRecordsIntoIter<std::fs::File>,
}

impl GradeRows {
    /// Opens the `grades.csv` of `dir`, checking its header.
    pub fn open(dir: &std::path::Path) -> Result<GradeRows, Refusal> {
        let path = dir.join(GRADES);
        let (reader, header) = crate::formats::open_csv(&path)?;
        if header.iter().ne(GRADES_HEADER.iter().copied()) {
            return Err(Refusal::NotThisReport {
                path,
                what: "a grades report",
            });
        }
        Ok(GradeRows {
            path,
            records: reader.into_records(),
        })
    }

    /// The report's path.
    pub fn path(&self) -> &std::path::Path {
        &self.path
    }
}

impl Iterator for GradeRows {
    type Item = Result<GradeRow, Refusal>;
    fn next(&mut self) -> Option<Self::Item> {
        let record = self.records.next()?;
        Some(
            record
                .map_err(|source| Refusal::Csv {
                    path: self.path.clone(),
                    source,
                })
                .and_then(|record| {
                    GradeRow::from_record(&record).ok_or_else(|| Refusal::MalformedRow {
                        path: self.path.clone(),
                        record: format!("{record:?}"),
                    })
                }),
        )
    }
}
