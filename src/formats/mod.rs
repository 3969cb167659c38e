//! The rows of `verdicts.csv` and `mismatches.csv`: their columns, statuses and order.
//!
//! Rows are ordered by file, compared path component by component (the order of a sorted
//! directory walk), then by case index. Writing a directory of reports as one is [`mod@write`]'s
//! job, describing the run that wrote them [`manifest`]'s; a run's results for CI systems are
//! [`ci`]'s, rendered as JUnit XML by [`junit`] and for GitHub Actions by [`github`].
//! Combining shard runs is [`merge`]'s, with each command's own part.

pub mod as_text;
pub mod ci;
pub mod github;
pub mod html;
pub mod junit;
pub mod manifest;
pub mod merge;
pub mod publish;
pub mod refusal;
pub mod write;

use std::cmp::Ordering;
use std::path::Path;

use refusal::Refusal;

/// Opens the CSV report `path` and reads its header; errors name the file.
pub fn open_csv(path: &Path) -> Result<(csv::Reader<std::fs::File>, csv::StringRecord), Refusal> {
    let csv = |source| Refusal::Csv {
        path: path.to_path_buf(),
        source,
    };
    let mut reader = csv::Reader::from_path(path).map_err(csv)?;
    let header = reader.headers().map_err(csv)?.clone();
    Ok((reader, header))
}

/// The required columns of `verdicts.csv`/`mismatches.csv`, first and in this order.
pub const REQUIRED: [&str; 8] = [
    "file",
    "index",
    "game",
    "rules",
    "engine",
    "reference",
    "expected",
    "status",
];

/// The extra columns that follow the required ones.
pub const EXTRA: [&str; 4] = ["size", "engine_detail", "reference_detail", "detail"];

/// The column added by `--timings`.
pub const TIMING: &str = "engine_micros";

/// A row's status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Status {
    /// Engine, reference and expected answer agree.
    Ok,
    /// The two implementations disagree.
    EngineReferenceMismatch,
    /// The engine disagrees with the `.ans` file.
    ExpectedMismatch,
    /// The input is malformed, unreadable or not recognised.
    InvalidInput,
    /// The reference was not run (beyond its budget or limits, or `--no-reference`).
    ReferenceSkipped,
}

impl Status {
    /// Every status, in report order.
    pub const ALL: [Status; 5] = [
        Status::Ok,
        Status::EngineReferenceMismatch,
        Status::ExpectedMismatch,
        Status::InvalidInput,
        Status::ReferenceSkipped,
    ];

    /// The CSV spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Ok => "ok",
            Status::EngineReferenceMismatch => "engine-reference-mismatch",
            Status::ExpectedMismatch => "expected-mismatch",
            Status::InvalidInput => "invalid-input",
            Status::ReferenceSkipped => "reference-skipped",
        }
    }

    /// The status spelled `text` in a report.
    pub fn from_name(text: &str) -> Option<Status> {
        Status::ALL.into_iter().find(|s| s.as_str() == text)
    }

    /// Whether the row belongs in `mismatches.csv` (and makes the run exit 1).
    pub fn is_problem(self) -> bool {
        !matches!(self, Status::Ok | Status::ReferenceSkipped)
    }
}

/// One row of `verdicts.csv`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Row {
    /// The input file, as walked (`/`-separated).
    pub file: String,
    /// The 1-based case index within the file (`None` for a row about the whole file).
    pub index: Option<u64>,
    /// The game (empty when not recognised).
    pub game: String,
    /// The Pousse rule set (empty for other games).
    pub rules: String,
    /// The engine's verdict.
    pub engine: String,
    /// The reference's verdict.
    pub reference: String,
    /// The `.ans` verdict.
    pub expected: String,
    /// The status.
    pub status: Option<Status>,
    /// Moves (Pousse) or squares.
    pub size: Option<u64>,
    /// The engine's explanation (decisive move, reason).
    pub engine_detail: String,
    /// The reference's explanation.
    pub reference_detail: String,
    /// Errors, skip reasons, disagreements.
    pub detail: String,
    /// Engine time for the whole file, in microseconds (reported with `--timings` only).
    pub engine_micros: Option<u64>,
}

impl Row {
    /// The row's fields, in column order.
    pub fn fields(&self, timings: bool) -> Vec<String> {
        let opt = |v: Option<u64>| v.map_or(String::new(), |v| v.to_string());
        let mut f = vec![
            self.file.clone(),
            opt(self.index),
            self.game.clone(),
            self.rules.clone(),
            self.engine.clone(),
            self.reference.clone(),
            self.expected.clone(),
            self.status.map_or("", Status::as_str).to_string(),
            opt(self.size),
            self.engine_detail.clone(),
            self.reference_detail.clone(),
            self.detail.clone(),
        ];
        if timings {
            f.push(opt(self.engine_micros));
        }
        f
    }
}

thread_local! {
    static BOOKKEEPING: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Counts `steps` of a driver's bookkeeping on this thread: each row or file a driver visits
/// after judging (to sort, look up, count or write it), so that a test can check that
/// verify and merge stay O(n log n) in the number of rows, without timing them.
pub fn add_bookkeeping(steps: u64) {
    BOOKKEEPING.with(|w| w.set(w.get().wrapping_add(steps)));
}

/// The bookkeeping steps on this thread since the last call (which resets it).
pub fn bookkeeping() -> u64 {
    BOOKKEEPING.with(|w| w.replace(0))
}

impl Row {
    /// The report order of two rows: [`order`] on their files and indices, without
    /// allocating (one bookkeeping step).
    pub fn report_order(a: &Row, b: &Row) -> Ordering {
        add_bookkeeping(1);
        a.file
            .split('/')
            .cmp(b.file.split('/'))
            .then(a.index.cmp(&b.index))
    }

    /// A row read back from a report written with [`Row::fields`]; `None` if it is not one.
    pub fn from_record(record: &csv::StringRecord) -> Option<Row> {
        let field = |i: usize| record.get(i).unwrap_or("").to_string();
        let number = |i: usize| -> Option<Option<u64>> {
            match record.get(i).unwrap_or("") {
                "" => Some(None),
                v => v.parse().ok().map(Some),
            }
        };
        if record.len() < REQUIRED.len() + EXTRA.len() {
            return None;
        }
        Some(Row {
            file: field(0),
            index: number(1)?,
            game: field(2),
            rules: field(3),
            engine: field(4),
            reference: field(5),
            expected: field(6),
            status: match record.get(7)? {
                "" => None,
                s => Some(Status::from_name(s)?),
            },
            size: number(8)?,
            engine_detail: field(9),
            reference_detail: field(10),
            detail: field(11),
            engine_micros: number(12)?,
        })
    }
}

/// The report order of two (file, index) pairs: file by path components, then index (a row
/// without index first).
pub fn order(a: (&str, &str), b: (&str, &str)) -> Ordering {
    a.0.split('/').cmp(b.0.split('/')).then_with(|| {
        match (a.1.parse::<u64>(), b.1.parse::<u64>()) {
            (Ok(x), Ok(y)) => x.cmp(&y),
            _ => a.1.len().cmp(&b.1.len()).then(a.1.cmp(b.1)),
        }
    })
}

/// The header of `verdicts.csv`.
pub fn header(timings: bool) -> Vec<&'static str> {
    let mut h: Vec<&str> = REQUIRED.iter().chain(EXTRA.iter()).copied().collect();
    if timings {
        h.push(TIMING);
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn order_is_by_path_components_then_numeric_index() {
        let mut v = vec![
            ("a-b/x.in", "1"),
            ("a/b/z.in", "10"),
            ("a/b/z.in", "9"),
            ("a/b/z.in", ""),
            ("a.in", "1"),
        ];
        v.sort_by(|a, b| order(*a, *b));
        assert_eq!(
            v,
            // Component-wise, as a sorted walk visits them: "a" < "a-b" < "a.in".
            vec![
                ("a/b/z.in", ""),
                ("a/b/z.in", "9"),
                ("a/b/z.in", "10"),
                ("a-b/x.in", "1"),
                ("a.in", "1")
            ]
        );
        let row = |(file, index): (&str, &str)| Row {
            file: file.to_string(),
            index: index.parse().ok(),
            ..Row::default()
        };
        for a in &v {
            for b in &v {
                assert_eq!(Row::report_order(&row(*a), &row(*b)), order(*a, *b));
            }
        }
    }
}
