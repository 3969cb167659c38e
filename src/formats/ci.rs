//! A run's results as CI systems see them: suites of test cases, each passed, failed, in error
//! or skipped, some with a position in an input file. `verify`, `grade`, `stress` and `audit`
//! describe their results in these terms, and [`super::publish`] renders them: JUnit XML
//! ([`super::junit`]), GitHub Actions annotations and a step summary ([`super::github`]).

use std::time::Duration;

/// How a test case ended, in JUnit's terms.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
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
    pub outcome: Ended,
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
    pub fn more_rows(count: u64, status: &str, outcome: Ended, report: &str) -> Case {
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

/// A finding of a `stress` or `audit` run as CI outputs and the HTML report show it: built by
/// each command from its typed findings.
#[derive(Debug, Clone)]
pub struct ShownFinding {
    /// Its number, from 1.
    pub number: usize,
    /// Its game.
    pub game: String,
    /// Its rule set's name (empty for the default).
    pub rules: String,
    /// Its status word: its kind, or `divergence`.
    pub status: String,
    /// Its signature.
    pub signature: String,
    /// How many failing cases share it.
    pub count: u64,
    /// Its input file.
    pub input: std::path::PathBuf,
    /// The data file its case came from, when it came from one (for annotations).
    pub data_file: Option<String>,
    /// Side-by-side accounts, each a heading and a text (in lines, control bytes escaped:
    /// [`crate::util::answer::as_lines`]).
    pub sides: Vec<(String, String)>,
    /// Facts listed under its message, each a label and a text.
    pub facts: Vec<(String, String)>,
    /// Its report row, each column's name and value (the CI detail shows all but its number,
    /// signature and game).
    pub columns: Vec<(String, String)>,
}

impl ShownFinding {
    /// Its name: `finding N: SIGNATURE`.
    pub fn name(&self) -> String {
        format!("finding {}: {}", self.number, self.signature)
    }

    /// Its one-line message: `SIGNATURE (N cases)`.
    pub fn message(&self) -> String {
        format!("{} ({} cases)", self.signature, self.count)
    }
}

/// The findings of a `stress` or `audit` run as CI results: one suite per game (with
/// `properties`), one failed case per finding, named by its number and signature, its other
/// columns as detail; a finding on an input file is placed on that file. A run without
/// findings is one suite for `game` with one passed case.
pub fn findings_suites(
    game: &str,
    properties: &[(String, String)],
    findings: &[ShownFinding],
) -> Vec<Suite> {
    let suite = |game: &str| Suite {
        name: game.to_string(),
        properties: properties.to_vec(),
        cases: Vec::new(),
    };
    let mut suites: Vec<Suite> = Vec::new();
    for f in findings {
        if !suites.iter().any(|s| s.name == f.game) {
            suites.push(suite(&f.game));
        }
        let detail: Vec<String> = f
            .columns
            .iter()
            .filter(|(h, v)| {
                !v.is_empty() && !["finding", "signature", "game"].contains(&h.as_str())
            })
            .map(|(h, v)| format!("{h}: {v}"))
            .collect();
        let case = Case {
            name: f.name(),
            status: f.status.clone(),
            outcome: Ended::Failed,
            message: f.message(),
            detail: detail.join("\n"),
            location: f
                .data_file
                .as_ref()
                .map(|file| Location::in_detail(file, "")),
            time: None,
        };
        let at = suites
            .iter()
            .position(|s| s.name == f.game)
            .expect("pushed");
        suites[at].cases.push(case);
    }
    if suites.is_empty() {
        let mut only = suite(game);
        only.cases.push(Case {
            name: format!("{game}: no finding"),
            status: "ok".to_string(),
            outcome: Ended::Passed,
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
    let rank = |o: Ended| {
        [Ended::Passed, Ended::Failed, Ended::Error, Ended::Skipped]
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
