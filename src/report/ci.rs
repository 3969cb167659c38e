//! A run's results as CI systems see them: suites of test cases, each passed, failed, in error
//! or skipped, some with a position in an input file. `verify`, `grade`, `stress` and `audit`
//! describe their results in these terms, and [`super::publish`] renders them: JUnit XML
//! ([`super::junit`]), GitHub Actions annotations and a step summary ([`super::github`]).

use std::time::Duration;

/// How a test case ended, in JUnit's terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// Passed.
    Passed,
    /// Failed: a mismatch, a wrong answer, invalid input, a divergence, a finding.
    Failed,
    /// The judge itself could not judge (a judge error).
    Error,
    /// Not run (the reference skipped).
    Skipped,
}

/// Where in an input a problem is: a file, and when known a 1-based line and column (a column
/// counts bytes, as in every error referee prints).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// The file, as reported.
    pub file: String,
    /// 1-based line.
    pub line: Option<u64>,
    /// 1-based column.
    pub column: Option<u64>,
}

impl Location {
    /// The position in a detail of the form `FILE:LINE:COL: ...` (an input error located in
    /// `file`), else the file alone.
    pub fn in_detail(file: &str, detail: &str) -> Location {
        let position = detail
            .strip_prefix(file)
            .and_then(|rest| rest.strip_prefix(':'))
            .and_then(|rest| {
                let mut parts = rest.splitn(3, ':');
                let line = parts.next()?.parse().ok()?;
                let column = parts.next()?.parse().ok()?;
                Some((line, column))
            });
        Location {
            file: file.to_string(),
            line: position.map(|p| p.0),
            column: position.map(|p| p.1),
        }
    }
}

/// One test case.
#[derive(Debug, Clone)]
pub struct Case {
    /// Its name: the input file, with the case index in multi-case files.
    pub name: String,
    /// The report's own word for its status (`ok`, `expected-mismatch`, `WA`, ...).
    pub status: String,
    /// How it ended.
    pub outcome: Outcome,
    /// One line saying what went wrong (empty when passed).
    pub message: String,
    /// Everything else worth reading.
    pub detail: String,
    /// Where the problem is, when it is in a file.
    pub location: Option<Location>,
    /// Time taken, when measured.
    pub time: Option<Duration>,
}

impl Case {
    /// The case that stands for `count` more rows of `status` (ending as `outcome`) left out of
    /// the CI results; every one of them is in the report `report`.
    pub fn more_rows(count: u64, status: &str, outcome: Outcome, report: &str) -> Case {
        Case {
            name: format!("{count} more {status} rows"),
            status: status.to_string(),
            outcome,
            message: format!("{count} more rows of status {status} (every row is in {report})"),
            detail: String::new(),
            location: None,
            time: None,
        }
    }
}

/// A suite: one game (and rule set), or one submission.
#[derive(Debug, Clone)]
pub struct Suite {
    /// Its name.
    pub name: String,
    /// Properties (game, rule set, seed...).
    pub properties: Vec<(String, String)>,
    /// Its cases, in report order.
    pub cases: Vec<Case>,
}

/// The value of column `name` (of `header`) in `row`; empty when there is no such column.
pub fn column_of(header: &[&str], row: &[String], name: &str) -> String {
    header
        .iter()
        .position(|h| *h == name)
        .and_then(|i| row.get(i).cloned())
        .unwrap_or_default()
}

/// The suite of a contest audit: one case per program (columns [`header`] of
/// `programs.csv`), failed when the package's verdict says something of it, skipped when it
/// was not run.
pub fn programs_suite(
    game: &str,
    properties: &[(String, String)],
    header: &[&str],
    rows: &[Vec<String>],
) -> Suite {
    let column = |row: &[String], name: &str| column_of(header, row, name);
    let cases = rows
        .iter()
        .map(|row| {
            let verdict = column(row, "verdict");
            let (outcome, status) = if column(row, "does").is_empty() {
                (Outcome::Skipped, "not-run".to_string())
            } else if verdict == "as expected" {
                (Outcome::Passed, "as-expected".to_string())
            } else {
                (Outcome::Failed, "verdict".to_string())
            };
            let detail: Vec<String> = header
                .iter()
                .zip(row)
                .filter(|(h, v)| !v.is_empty() && **h != "program")
                .map(|(h, v)| format!("{h}: {v}"))
                .collect();
            Case {
                name: column(row, "program"),
                status,
                outcome,
                message: if outcome == Outcome::Passed {
                    String::new()
                } else {
                    verdict
                },
                detail: detail.join("\n"),
                location: None,
                time: None,
            }
        })
        .collect();
    Suite {
        name: game.to_string(),
        properties: properties.to_vec(),
        cases,
    }
}

/// The findings of a `stress` or `audit` run, the rows of its `findings.csv` under `header`, as
/// CI results: one suite per game (with `properties`), one failed case per finding, named by
/// its number and signature, its other columns as detail; a finding on an input file is placed
/// on that file. A run without findings is one suite for `game` with one passed case.
pub fn findings_suites(
    game: &str,
    properties: &[(String, String)],
    header: &[&str],
    rows: &[Vec<String>],
) -> Vec<Suite> {
    let column = |row: &[String], name: &str| column_of(header, row, name);
    let suite = |game: &str| Suite {
        name: game.to_string(),
        properties: properties.to_vec(),
        cases: Vec::new(),
    };
    let mut suites: Vec<Suite> = Vec::new();
    for row in rows {
        let game = column(row, "game");
        if !suites.iter().any(|s| s.name == game) {
            suites.push(suite(&game));
        }
        let signature = column(row, "signature");
        let kind = column(row, "kind");
        let detail: Vec<String> = header
            .iter()
            .zip(row)
            .filter(|(h, v)| !v.is_empty() && !["finding", "signature", "game"].contains(h))
            .map(|(h, v)| format!("{h}: {v}"))
            .collect();
        let case = Case {
            name: format!("finding {}: {signature}", column(row, "finding")),
            status: if kind.is_empty() {
                "divergence".to_string()
            } else {
                kind
            },
            outcome: Outcome::Failed,
            message: format!("{signature} ({} cases)", column(row, "count")),
            detail: detail.join("\n"),
            location: column(row, "case")
                .strip_prefix("file ")
                .map(|file| Location::in_detail(file, "")),
            time: None,
        };
        let at = suites.iter().position(|s| s.name == game).expect("pushed");
        suites[at].cases.push(case);
    }
    if suites.is_empty() {
        let mut only = suite(game);
        only.cases.push(Case {
            name: format!("{game}: no finding"),
            status: "ok".to_string(),
            outcome: Outcome::Passed,
            message: String::new(),
            detail: String::new(),
            location: None,
            time: None,
        });
        suites.push(only);
    }
    suites
}

/// One suite's row of a status table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SuiteCounts {
    /// The suite's name.
    pub name: String,
    /// How many of its cases have each status, in the table's order of statuses.
    pub counts: Vec<usize>,
    /// How many cases it has.
    pub total: usize,
}

/// The statuses of `suites` (passed first, then failed, in error and skipped, each by name)
/// and, per suite, the count of each of those statuses.
pub fn status_counts(suites: &[Suite]) -> (Vec<String>, Vec<SuiteCounts>) {
    let rank = |o: Outcome| {
        [
            Outcome::Passed,
            Outcome::Failed,
            Outcome::Error,
            Outcome::Skipped,
        ]
        .iter()
        .position(|&x| x == o)
    };
    let mut statuses: Vec<(Option<usize>, &str)> = suites
        .iter()
        .flat_map(|s| &s.cases)
        .map(|c| (rank(c.outcome), c.status.as_str()))
        .collect();
    statuses.sort_unstable();
    statuses.dedup();
    let statuses: Vec<String> = statuses.into_iter().map(|s| s.1.to_string()).collect();
    let rows = suites
        .iter()
        .map(|suite| {
            let counts = statuses
                .iter()
                .map(|st| suite.cases.iter().filter(|c| c.status == *st).count())
                .collect();
            SuiteCounts {
                name: suite.name.clone(),
                counts,
                total: suite.cases.len(),
            }
        })
        .collect();
    (statuses, rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_read_from_located_errors_only() {
        let at = Location::in_detail("a/b.in", "a/b.in:3:14: expected a move, found x");
        assert_eq!((at.line, at.column), (Some(3), Some(14)));
        let at = Location::in_detail("a/b.in", "a/b.in: read error: denied");
        assert_eq!((at.line, at.column), (None, None));
        let at = Location::in_detail("a/b.in", "engine X WINS, reference O WINS");
        assert_eq!((at.file.as_str(), at.line), ("a/b.in", None));
        // A file name holding colons is stripped whole, not split.
        let at = Location::in_detail("c:d.in", "c:d.in:2:1: case 2: expected N");
        assert_eq!((at.line, at.column), (Some(2), Some(1)));
    }
}
