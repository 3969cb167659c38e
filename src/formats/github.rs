//! GitHub Actions: workflow-command annotations (`::error file=F,line=L,col=C,title=T::M`), one
//! per failed case, and a Markdown summary appended to `$GITHUB_STEP_SUMMARY`.
//!
//! GitHub shows at most 10 error annotations per step, so at most [`MAX_ANNOTATIONS`] are
//! printed, then one notice saying how many more there are and where the reports are. File
//! names are made relative to `$GITHUB_WORKSPACE` when they lie inside it (annotations are
//! placed on the files of the checked-out repository).

use std::fmt::Write as _;
use std::io::Write as _;
use std::path::Path;

use super::ci::{status_counts, Case, Ended, Suite};

/// The most error annotations printed by one run.
pub const MAX_ANNOTATIONS: usize = 10;

/// The most problems listed in the step summary.
pub const MAX_SUMMARY_PROBLEMS: usize = 20;

/// A workflow command's message, escaped as the Actions toolkit does.
fn escape_data(text: &str) -> String {
    text.replace('%', "%25")
        .replace('\r', "%0D")
        .replace('\n', "%0A")
}

/// A workflow command's property value, escaped as the Actions toolkit does.
fn escape_property(text: &str) -> String {
    escape_data(text).replace(':', "%3A").replace(',', "%2C")
}

/// `file` relative to `$GITHUB_WORKSPACE` when inside it.
fn in_workspace(file: &str) -> String {
    let Some(workspace) = std::env::var_os("GITHUB_WORKSPACE") else {
        return file.to_string();
    };
    match Path::new(file).strip_prefix(&workspace) {
        Ok(relative) => relative.to_string_lossy().to_string(),
        Err(_) => file.to_string(),
    }
}

fn is_problem(case: &Case) -> bool {
    matches!(case.outcome, Ended::Failed | Ended::Error)
}

/// The annotation of one failed case.
fn annotation(case: &Case) -> String {
    let mut properties = Vec::new();
    if let Some(at) = &case.location {
        properties.push(format!("file={}", escape_property(&in_workspace(&at.file))));
        if let Some(line) = at.line {
            properties.push(format!("line={line}"));
        }
        if let Some(column) = at.column {
            properties.push(format!("col={column}"));
        }
    }
    properties.push(format!(
        "title={}",
        escape_property(&format!("referee: {}", case.status))
    ));
    let message = if case.message.is_empty() {
        format!("{}: {}", case.name, case.status)
    } else {
        format!("{}: {}", case.name, case.message)
    };
    format!(
        "::error {}::{}\n",
        properties.join(","),
        escape_data(&message)
    )
}

/// The annotations of the failed cases of `suites` (at most [`MAX_ANNOTATIONS`], then a notice
/// naming the `reports` directory for the rest).
pub fn annotations(suites: &[Suite], reports: Option<&Path>) -> String {
    let problems: Vec<&Case> = suites
        .iter()
        .flat_map(|s| &s.cases)
        .filter(|c| is_problem(c))
        .collect();
    let mut out: String = problems
        .iter()
        .take(MAX_ANNOTATIONS)
        .map(|c| annotation(c))
        .collect();
    if problems.len() > MAX_ANNOTATIONS {
        let more = problems.len() - MAX_ANNOTATIONS;
        let where_ = reports.map_or(String::new(), |r| format!(": see {}", r.display()));
        out.push_str(&format!(
            "::notice title=referee::{}\n",
            escape_data(&format!(
                "{more} more problems not annotated (GitHub shows {MAX_ANNOTATIONS} per step){where_}"
            ))
        ));
    }
    out
}

/// A Markdown table cell.
fn cell(text: &str) -> String {
    let one_line = text.replace(['\r', '\n'], " ");
    let short: String = one_line.chars().take(200).collect();
    let short = if short.len() < one_line.len() {
        format!("{short}…")
    } else {
        short
    };
    short
        .replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace('<', "&lt;")
}

/// The step summary of the run `title`: a table of counts per suite and status, then the first
/// problems.
pub fn summary(title: &str, suites: &[Suite], reports: Option<&Path>) -> String {
    let (statuses, counts) = status_counts(suites);
    let mut md = format!("### {}\n\n", cell(title));
    let _ = writeln!(md, "| suite | {} | total |", statuses.join(" | "));
    let _ = writeln!(md, "|---|{}---|", "---|".repeat(statuses.len()));
    for row in counts {
        let counts: Vec<String> = row.counts.iter().map(usize::to_string).collect();
        let _ = writeln!(
            md,
            "| {} | {} | {} |",
            cell(&row.name),
            counts.join(" | "),
            row.total
        );
    }
    let problems: Vec<&Case> = suites
        .iter()
        .flat_map(|s| &s.cases)
        .filter(|c| is_problem(c))
        .collect();
    if problems.is_empty() {
        md.push_str("\nNo problem.\n");
    } else {
        let _ = writeln!(
            md,
            "\n{} problem{}{}:\n",
            problems.len(),
            if problems.len() == 1 { "" } else { "s" },
            if problems.len() > MAX_SUMMARY_PROBLEMS {
                format!(", the first {MAX_SUMMARY_PROBLEMS}")
            } else {
                String::new()
            }
        );
        md.push_str("| case | status | where | what |\n|---|---|---|---|\n");
        for case in problems.iter().take(MAX_SUMMARY_PROBLEMS) {
            let place =
                case.location
                    .as_ref()
                    .map_or(String::new(), |at| match (at.line, at.column) {
                        (Some(l), Some(c)) => format!("{}:{l}:{c}", at.file),
                        _ => at.file.clone(),
                    });
            let _ = writeln!(
                md,
                "| {} | {} | {} | {} |",
                cell(&case.name),
                cell(&case.status),
                cell(&place),
                cell(&case.message)
            );
        }
    }
    if let Some(dir) = reports {
        let _ = writeln!(md, "\nReports: `{}`", dir.display());
    }
    md.push('\n');
    md
}

/// Appends the summary of the run `title` to the Markdown file `path`.
pub fn append_summary(
    path: &Path,
    title: &str,
    suites: &[Suite],
    reports: Option<&Path>,
) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    file.write_all(summary(title, suites, reports).as_bytes())
}

#[cfg(test)]
mod tests {
    use super::super::ci::Location;
    use super::*;

    fn failed(name: &str, line: Option<u64>) -> Case {
        Case {
            name: name.into(),
            status: "invalid-input".into(),
            outcome: Ended::Failed,
            message: "a:b.in:2:3: expected a move, found x\nmore".into(),
            detail: String::new(),
            location: Some(Location {
                file: "dir/a:b,c.in".into(),
                line,
                column: line.map(|_| 3),
            }),
            time: None,
        }
    }

    #[test]
    fn annotations_escape_and_stop_at_the_limit() {
        let suites = [Suite {
            name: "pousse".into(),
            properties: vec![],
            cases: (0..13)
                .map(|i| failed(&format!("c{i}.in"), Some(2)))
                .collect(),
        }];
        let text = annotations(&suites, Some(Path::new("reports")));
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), MAX_ANNOTATIONS + 1);
        assert_eq!(
            lines[0],
            "::error file=dir/a%3Ab%2Cc.in,line=2,col=3,title=referee%3A invalid-input::c0.in: \
             a:b.in:2:3: expected a move, found x%0Amore"
        );
        assert!(lines[10].starts_with("::notice title=referee::3 more problems"));
        assert!(lines[10].ends_with("see reports"));
    }

    #[test]
    fn the_summary_counts_statuses_per_suite_and_lists_problems() {
        let mut ok = failed("ok.in", None);
        ok.outcome = Ended::Passed;
        ok.status = "ok".into();
        let suites = [
            Suite {
                name: "pousse".into(),
                properties: vec![],
                cases: vec![ok.clone(), failed("x|y.in", Some(2))],
            },
            Suite {
                name: "somegame".into(),
                properties: vec![],
                cases: vec![ok],
            },
        ];
        let md = summary("referee verify", &suites, None);
        assert!(
            md.contains("| suite | ok | invalid-input | total |"),
            "{md}"
        );
        assert!(md.contains("| pousse | 1 | 1 | 2 |"), "{md}");
        assert!(md.contains("| somegame | 1 | 0 | 1 |"), "{md}");
        assert!(
            md.contains("| x\\|y.in | invalid-input | dir/a:b,c.in:2:3 |"),
            "{md}"
        );
    }
}
