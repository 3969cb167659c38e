//! CSV reports (RFC 4180): rows, their order, and atomic writing.
//!
//! Rows are ordered by file, compared path component by component (the order of a sorted
//! directory walk), then by case index. Every report is written to a temporary file in the
//! same directory, flushed and synced, then renamed over the final name, so an interrupted run
//! never leaves a half-written report.

use std::cmp::Ordering;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};

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

/// Writes `records` (after `header`) to `path` atomically.
pub fn write_csv_atomically<I, R>(path: &Path, header: &[&str], records: I) -> io::Result<()>
where
    I: IntoIterator<Item = R>,
    R: IntoIterator,
    R::Item: AsRef<[u8]>,
{
    let dir = path.parent().unwrap_or(Path::new("."));
    let name = path
        .file_name()
        .map_or("report".into(), |n| n.to_string_lossy().to_string());
    let tmp: PathBuf = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let result = (|| {
        let file = fs::File::create(&tmp)?;
        let mut w = csv::Writer::from_writer(io::BufWriter::new(file));
        w.write_record(header)?;
        for r in records {
            w.write_record(r)?;
        }
        w.flush()?;
        let file = w
            .into_inner()
            .map_err(|e| io::Error::other(e.to_string()))?
            .into_inner()
            .map_err(|e| e.into_error())?;
        file.sync_all()?;
        fs::rename(&tmp, path)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result.map_err(|e| match e.kind() {
        io::ErrorKind::Other => e,
        _ => io::Error::new(e.kind(), format!("{}: {e}", path.display())),
    })
}

/// Writes `verdicts.csv` (every row) and `mismatches.csv` (problem rows) into `dir`, creating
/// it if needed. Rows must already be in report order.
pub fn write_verdicts(dir: &Path, rows: &[Row], timings: bool) -> io::Result<()> {
    fs::create_dir_all(dir)?;
    let header = header(timings);
    write_csv_atomically(
        &dir.join("verdicts.csv"),
        &header,
        rows.iter().map(|r| r.fields(timings)),
    )?;
    write_csv_atomically(
        &dir.join("mismatches.csv"),
        &header,
        rows.iter()
            .filter(|r| r.status.is_some_and(Status::is_problem))
            .map(|r| r.fields(timings)),
    )
}

/// Combines the `verdicts.csv` of several shard directories into `out`: the same two reports
/// an unsharded run writes. Returns the number of problem rows.
pub fn merge(shards: &[PathBuf], out: &Path) -> Result<usize, String> {
    let mut header: Option<csv::StringRecord> = None;
    let mut rows: Vec<csv::StringRecord> = Vec::new();
    for dir in shards {
        let path = dir.join("verdicts.csv");
        let mut reader =
            csv::Reader::from_path(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        let h = reader
            .headers()
            .map_err(|e| format!("{}: {e}", path.display()))?
            .clone();
        if h.iter().take(REQUIRED.len()).ne(REQUIRED.iter().copied()) {
            return Err(format!(
                "{}: not a verdicts report (header {h:?})",
                path.display()
            ));
        }
        match &header {
            Some(first) if *first != h => {
                return Err(format!(
                    "{}: columns differ from the first report's",
                    path.display()
                ));
            }
            _ => header = Some(h),
        }
        for record in reader.records() {
            rows.push(record.map_err(|e| format!("{}: {e}", path.display()))?);
        }
    }
    let header = header.ok_or("no shard reports given")?;
    rows.sort_by(|a, b| order((&a[0], &a[1]), (&b[0], &b[1])));
    let status_column = REQUIRED.len() - 1;
    let is_problem = |r: &csv::StringRecord| {
        Status::ALL
            .iter()
            .any(|s| s.as_str() == &r[status_column] && s.is_problem())
    };
    let problems = rows.iter().filter(|r| is_problem(r)).count();
    let head: Vec<&str> = header.iter().collect();
    fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    write_csv_atomically(&out.join("verdicts.csv"), &head, rows.iter())
        .map_err(|e| e.to_string())?;
    write_csv_atomically(
        &out.join("mismatches.csv"),
        &head,
        rows.iter().filter(|r| is_problem(r)),
    )
    .map_err(|e| e.to_string())?;
    Ok(problems)
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
    }

    #[test]
    fn atomic_write_leaves_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let rows = vec![Row {
            file: "a,b.in".into(),
            index: Some(1),
            status: Some(Status::Ok),
            detail: "line\nbreak \"quoted\"".into(),
            ..Row::default()
        }];
        write_verdicts(dir.path(), &rows, false).unwrap();
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names.len(), 2, "{names:?}");
        let text = fs::read_to_string(dir.path().join("verdicts.csv")).unwrap();
        assert!(text.starts_with("file,index,game,rules,engine,reference,expected,status,"));
        assert!(text.contains("\"a,b.in\",1,"));
        let mismatches = fs::read_to_string(dir.path().join("mismatches.csv")).unwrap();
        assert_eq!(mismatches.lines().count(), 1);
    }
}
