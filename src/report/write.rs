//! Writing CSV reports (RFC 4180) atomically: every report goes to a temporary file in the same
//! directory, is flushed and synced, then renamed over the final name, so an interrupted run
//! never leaves a half-written report.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use super::{header, Row, Status};

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::{Row, Status};

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
