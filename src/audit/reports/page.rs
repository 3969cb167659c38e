//! The HTML report of an audit (`--html`), printed from the typed report: the data's scores
//! before and after strengthening, which case rejects which program (the existing data, then
//! each strengthening case), every program's line, and each finding drawn as in the other
//! reports.

use std::path::Path;

use crate::audit::reports::audited::scores_of;
use crate::audit::reports::audited::OnCase;
use crate::audit::reports::audited::{AuditReport, ProgramRecord};
use crate::audit::reports::report::{
    program_row, shown, LineStatus, ProgramLine, PROGRAMS_HEADER, SCORES_EXPLAINED,
};
use crate::formats::html::{Cell, Page, PageRow, Table};

/// The page of `report`, whose reports are in `out`, its programs' lines `lines`.
pub fn audit_page(
    title: &str,
    out: &Path,
    report: &AuditReport,
    lines: &[ProgramLine],
    properties: &[(String, String)],
) -> Page {
    let mut page = Page::new(title);
    page.problem_word = "finding";
    page.about = about(report, out, properties);
    page.tables.push(scores(report));
    if let Some(advice) = &report.limits {
        page.tables
            .push(crate::audit::limits::page::limits_table(advice));
    }
    let mut rows: Vec<Row> = Vec::new();
    for (program, line) in report.programs.iter().zip(lines) {
        let mut anchor = None;
        for (i, finding) in program.findings.iter().enumerate() {
            let shown = shown(report, program, i + 1, finding, out);
            let added = page.add_finding(&format!("{}: ", program.name), &shown);
            anchor.get_or_insert(added);
        }
        rows.push(Row {
            program,
            line,
            anchor,
        });
    }
    page.tables.push(matrix(report, &rows));
    page.columns = PROGRAMS_HEADER.iter().map(|h| h.to_string()).collect();
    for Row { line, anchor, .. } in rows {
        let status = match line.status {
            LineStatus::NotRun => "not-run",
            LineStatus::AsExpected => "as-expected",
            LineStatus::Verdict => "verdict",
        };
        page.add_row(PageRow {
            status: status.into(),
            game: String::new(),
            cells: program_row(line),
            problem: anchor,
        });
    }
    page
}

/// The lines under the title, in words: what was audited and how, the time limit of the runs,
/// where the reports are.
fn about(report: &AuditReport, out: &Path, properties: &[(String, String)]) -> Vec<String> {
    let property = |key: &str| {
        properties
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    };
    let programs = report.programs.len();
    let mut about = vec![format!(
        "{programs} program{} audited as judges of {} (rules {}){}, in the {} form ({}).",
        if programs == 1 { "" } else { "s" },
        report.game,
        report.rules,
        property("seed").map_or(String::new(), |s| format!(", seed {s}")),
        report.problem.form.map_or("no", |f| f.as_str()),
        report.problem.why
    )];
    about.push(format!(
        "Programs run {}; the memory limit {}.",
        report.confinement.text(),
        crate::util::text::mebibytes(report.memory_limit)
    ));
    about.push(format!(
        "Time limit of the runs: {}.",
        report.time_limit.describe()
    ));
    about.push(format!("Reports in {}.", out.display()));
    about
}

/// "with the strengthening case", "with the 2 strengthening cases", "with no strengthening case".
fn with_tests(count: usize) -> String {
    match count {
        0 => "with no strengthening case".into(),
        1 => "with the strengthening case".into(),
        n => format!("with the {n} strengthening cases"),
    }
}

/// The scores table: each rate before and after strengthening.
fn scores(report: &AuditReport) -> Table {
    let s = scores_of(report);
    Table {
        id: "scores".into(),
        title: "The data's scores".into(),
        note: SCORES_EXPLAINED.into(),
        columns: vec![
            "".into(),
            "existing data".into(),
            with_tests(report.tests.len()),
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
        figure: None,
    }
}

/// A program of the page: its record, its line, and the anchor of its first finding.
struct Row<'a> {
    program: &'a ProgramRecord,
    line: &'a ProgramLine,
    anchor: Option<String>,
}

/// Which case rejects which program: a row per program (expected and actual class), a column
/// for the existing data and one per strengthening case.
fn matrix(report: &AuditReport, rows: &[Row]) -> Table {
    let mut columns = vec![
        "program".to_string(),
        "expected".into(),
        "does".into(),
        "existing data".into(),
    ];
    columns.extend(report.tests.iter().map(|t| t.file.clone()));
    let mut cells_of_rows = Vec::new();
    for Row {
        program,
        line,
        anchor,
    } in rows
    {
        let text =
            |c: Option<crate::audit::terms::Class>| c.map_or(String::new(), |c| c.to_string());
        let data = match program.on_data().and_then(|d| d.result()) {
            Some(r) if !program.rejected_by_data() => {
                cell(&format!("accepts ({})", r.files), "passes")
            }
            Some(r) => cell(&r.text(), "rejects"),
            None if !report.has_data => cell("no data", "passes"),
            None => cell("no result", "unknown"),
        };
        let mut cells = vec![
            Cell {
                text: program.name.clone(),
                class: String::new(),
                link: anchor.clone(),
            },
            Cell::text(text(line.expected)),
            Cell::text(text(line.does)),
            data,
        ];
        for test in &report.tests {
            let on = test.on_program(program);
            cells.push(cell(
                on.as_str(),
                match on {
                    OnCase::Rejected => "rejects",
                    OnCase::Passes => "passes",
                    OnCase::Sometimes | OnCase::NotRun => "unknown",
                },
            ));
        }
        cells_of_rows.push(cells);
    }
    Table {
        id: "matrix".into(),
        title: "Which case rejects which program".into(),
        note: "Each program run on the existing data and on each strengthening case as a judge \
               system runs a data file."
            .into(),
        columns,
        rows: cells_of_rows,
        figure: None,
    }
}

fn cell(text: &str, class: &str) -> Cell {
    Cell {
        text: text.into(),
        class: class.into(),
        link: None,
    }
}
