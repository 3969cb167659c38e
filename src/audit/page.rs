//! The HTML report of an audit of several programs (`--html`): the data's scores before and
//! after strengthening, which case rejects which program (the existing data, then each
//! strengthening case), every program's line, and each finding drawn as in the other reports.

use std::path::Path;

use super::audited::{AuditReport, ContestOutcome};
use super::contest_report::{row, PROGRAMS_HEADER, SCORES_EXPLAINED};
use super::entrants::{dir_name, Class};
use super::report::FINDINGS_HEADER;
use super::strengthen::OnCase;
use crate::report::html::{Cell, Page, PageRow, Table};

/// The page of `report`, whose reports are in `out`.
pub fn contest_page(
    title: &str,
    out: &Path,
    report: &AuditReport,
    outcome: &ContestOutcome,
    properties: &[(String, String)],
) -> Page {
    let mut page = Page::new(title);
    page.about = properties
        .iter()
        .map(|(k, v)| format!("{k}: {v}"))
        .chain([
            format!(
                "the problem's form: {} ({})",
                report.problem.form.map_or("none", |f| f.as_str()),
                report.problem.why
            ),
            format!("time limit: {}", report.time_limit.describe()),
            format!("reports in {}", out.display()),
        ])
        .collect();
    page.tables.push(scores(outcome));
    let mut anchors: Vec<Option<String>> = Vec::new();
    for program in &report.programs {
        let dir = out.join("programs").join(dir_name(&program.name));
        let mut first = None;
        for row in &program.rows {
            let anchor = page.add_finding(
                &format!("{}: ", program.name),
                &dir,
                &FINDINGS_HEADER,
                row,
                &[
                    ("the program's output", "got"),
                    ("the engine's verdict", "expected"),
                ],
            );
            first.get_or_insert(anchor);
        }
        anchors.push(first);
    }
    page.tables.push(matrix(report, outcome, &anchors));
    page.columns = PROGRAMS_HEADER.iter().map(|h| h.to_string()).collect();
    for (line, anchor) in outcome.lines.iter().zip(anchors) {
        let status = if line.does.is_none() {
            "not-run"
        } else if line.verdict.is_empty() {
            "as-expected"
        } else {
            "verdict"
        };
        page.add_row(PageRow {
            status: status.into(),
            game: String::new(),
            cells: row(line),
            problem: anchor,
        });
    }
    page
}

/// The scores table: each rate before and after strengthening.
fn scores(outcome: &ContestOutcome) -> Table {
    let s = &outcome.strengthening.scores;
    Table {
        id: "scores".into(),
        title: "The data's scores".into(),
        note: SCORES_EXPLAINED.into(),
        columns: vec![
            "".into(),
            "existing data".into(),
            format!("with the {} strengthening cases", outcome.tests.len()),
        ],
        rows: vec![
            vec![
                Cell::text("rejects the programs proved wrong (TPR)"),
                Cell::text(s.tpr_existing.text()),
                Cell::text(s.tpr_strengthened.text()),
            ],
            vec![
                Cell::text("accepts the programs with no finding (TNR)"),
                Cell::text(s.tnr_existing.text()),
                Cell::text(s.tnr_strengthened.text()),
            ],
        ],
    }
}

/// Which case rejects which program: a row per program (expected and actual class), a column
/// for the existing data and one per strengthening case.
fn matrix(report: &AuditReport, outcome: &ContestOutcome, anchors: &[Option<String>]) -> Table {
    let s = &outcome.strengthening;
    let mut columns = vec![
        "program".to_string(),
        "expected".into(),
        "does".into(),
        "existing data".into(),
    ];
    columns.extend(outcome.tests.iter().map(|t| t.file.clone()));
    let mut rows = Vec::new();
    for (p, (program, line)) in report.programs.iter().zip(&outcome.lines).enumerate() {
        let text = |c: Option<Class>| c.map_or(String::new(), |c| c.to_string());
        let data = match &program.on_data {
            Some(r) if r.class == Class::Accepted => cell("accepts", "passes"),
            Some(r) => cell(&r.text(), "rejects"),
            None if report.inputs.is_empty() => cell("no data", "passes"),
            None => cell("no result", "unknown"),
        };
        let mut cells = vec![
            Cell {
                text: program.name.clone(),
                class: String::new(),
                link: anchors[p].clone(),
            },
            Cell::text(text(line.expected)),
            Cell::text(text(line.does)),
            data,
        ];
        for &c in &s.chosen {
            let on = s.fails[c][p];
            cells.push(cell(
                on.as_str(),
                match on {
                    OnCase::Rejected => "rejects",
                    OnCase::Passes => "passes",
                    OnCase::Sometimes | OnCase::NotRun => "unknown",
                },
            ));
        }
        rows.push(cells);
    }
    Table {
        id: "matrix".into(),
        title: "Which case rejects which program".into(),
        note: "Each program run on the existing data and on each strengthening case as a judge \
               system runs a data file."
            .into(),
        columns,
        rows,
    }
}

fn cell(text: &str, class: &str) -> Cell {
    Cell {
        text: text.into(),
        class: class.into(),
        link: None,
    }
}
