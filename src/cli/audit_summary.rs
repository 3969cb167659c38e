//! What `referee audit` says when it is done, one program or many: the summary on standard
//! error, the CI outputs and the HTML report, all printed from the typed report, and the exit
//! code: 1 when the package's verdict lists anything, 2 when no program could be run at all.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::ExitCode;

use super::{publish_all, rate, CiArgs, HtmlArgs};
use crate::audit::audited::{AuditReport, CasesOutcome, ProgramRecord};
use crate::audit::report::{
    detail, failing, finding_path, lines, none_ran, package_verdict, properties, suite,
    ProgramLine, MANIFEST, PROGRAMS,
};
use crate::audit::strengthen::{scores_of, uncovered};
use crate::audit::verdict::Standing;
use crate::audit::Kind;
use crate::error::RunError;

/// What the summary shows beside the report.
pub(super) struct Shown<'a> {
    pub(super) out: &'a Path,
    /// The run's options, as its manifest has them.
    pub(super) options: &'a BTreeMap<String, String>,
    pub(super) ci: &'a CiArgs,
    pub(super) html: &'a HtmlArgs,
}

/// `code`, or after an interruption by signal N, `128 + N`, said on standard error with where
/// the reports of what was found before are.
pub(super) fn exit_code(out: &Path, code: u8) -> ExitCode {
    let Some(signal) = crate::audit::program::interrupted_by() else {
        return ExitCode::from(code);
    };
    eprintln!(
        "interrupted by signal {signal}: every process the audit started ended; the reports in \
         {} hold what was found before (exit {})",
        out.display(),
        128 + signal
    );
    ExitCode::from(128 + signal as u8)
}

/// The summary of an audit, its CI outputs and HTML report; its exit code (1 when the
/// package's verdict lists anything). When no program could be run at all, an error (exit 2).
pub(super) fn summary(shown: &Shown, report: &AuditReport) -> Result<u8, RunError> {
    if let Some(why) = none_ran(report) {
        return Err(RunError::Usage(why));
    }
    let lines = lines(report);
    for note in &report.notes {
        eprintln!("note: {note}");
    }
    eprintln!(
        "audit {}: {} program{}; the problem's form: {} ({}); time limit {}",
        report.game,
        report.programs.len(),
        if report.programs.len() == 1 { "" } else { "s" },
        report.problem.form.map_or("none", |f| f.as_str()),
        report.problem.why,
        report.time_limit.describe()
    );
    eprintln!(
        "programs run {}; memory limit {}",
        report.confinement.text(),
        crate::audit::program::mebibytes(report.memory_limit)
    );
    if report.effort.random_dropped > 0 {
        eprintln!(
            "note: {} random cases outside the contest's limits dropped",
            report.effort.random_dropped
        );
    }
    for (program, line) in report.programs.iter().zip(&lines) {
        program_said(shown, report, program, line);
    }
    effort_said(report);
    for line in report.limits.iter().flat_map(|a| a.lines()) {
        eprintln!("{line}");
    }
    strengthening_said(shown, report, &lines);
    let properties = properties(report, shown.options);
    let suites = [suite(report, &lines, &properties)];
    let title = format!("referee audit {}", report.game);
    publish_all(
        &title,
        &suites,
        &shown.ci.output(shown.out, false),
        shown.html,
        || crate::audit::page::audit_page(&title, shown.out, report, &lines, &properties),
    )?;
    Ok(u8::from(failing(&lines, &scores_of(report))))
}

/// One program: its line, the form its runs used, its pace, and each finding with the
/// commands that reproduce it.
fn program_said(shown: &Shown, report: &AuditReport, program: &ProgramRecord, line: &ProgramLine) {
    eprintln!(
        "{}{}: {}; existing data: {}; referee's cases: {}",
        program.name,
        line.expected
            .map_or(String::new(), |c| format!(" (expected {c})")),
        line.does
            .map_or("not classified".to_string(), |c| format!("does {c}")),
        line.existing_data.as_deref().unwrap_or("no result"),
        line.referee_cases
    );
    let Some(examined) = program.examined() else {
        return;
    };
    eprintln!(
        "  form {}: {}",
        examined.form.form().as_str(),
        examined.form.why()
    );
    let batch = shown.options.get("batch").map_or("1", String::as_str);
    if examined.form.form() == crate::game::Form::Single && batch != "1" {
        eprintln!("  note: --batch {batch} needs the multi-case form; one case per run");
    }
    if let CasesOutcome::Cases(tally) = examined.cases {
        let time = report.effort.cases_time.saturating_sub(tally.examining);
        eprintln!(
            "  {} cases in {:.1} s ({}), {} runs of {}",
            tally.cases,
            time.as_secs_f64(),
            rate(tally.cases, time),
            program.runs,
            program.command.as_deref().unwrap_or("")
        );
    }
    if program.unexamined > 0 {
        eprintln!(
            "  note: {} failing runs not narrowed: --time ran out (the first ones are reported)",
            program.unexamined
        );
    }
    findings_said(shown, report, program);
}

/// Each finding of a program.
fn findings_said(shown: &Shown, report: &AuditReport, program: &ProgramRecord) {
    let counts: Vec<String> = Kind::ALL
        .iter()
        .filter_map(|k| program.failing.get(k).map(|n| format!("{k} {n}")))
        .collect();
    if !counts.is_empty() {
        eprintln!("  failing cases: {}", counts.join(", "));
    }
    let rules = shown
        .options
        .get("rules")
        .filter(|r| !r.is_empty())
        .map_or(String::new(), |r| format!(" --rules {r}"));
    let command = program.command.as_deref().unwrap_or("");
    for (i, f) in program.findings.iter().enumerate() {
        let input = shown.out.join(finding_path(program, f));
        if f.kind == Kind::EngineDisputed {
            eprintln!(
                "  ENGINE DISPUTED (finding {}): the reference does not side with referee's \
                 engine on {}: {}",
                i + 1,
                input.display(),
                f.evidence.text()
            );
        }
        eprintln!(
            "  finding {} ({}, {} case{}): {}",
            i + 1,
            f.kind,
            f.count,
            if f.count == 1 { "" } else { "s" },
            f.signature
        );
        eprintln!("    from:      {}", detail(f));
        eprintln!("    confirmed: {}", f.evidence.text());
        if let Some((allowed, has)) = &f.outside {
            eprintln!("    outside the contest's limits: they allow {allowed}, the case has {has}");
        }
        eprintln!("    reproduce: {command} < {}", input.display());
        eprintln!(
            "    expected:  referee judge {} {}{rules}",
            report.game,
            input.display()
        );
    }
    if program.findings.is_empty() && program.standing() == Standing::NoFinding {
        eprintln!("  no finding");
    } else if program.standing() == Standing::NoFinding && !report.strict {
        eprintln!("  only flaky or engine-disputed findings: not a verdict without --strict");
    }
}

/// The cases generated, the runs and the time of each stage.
fn effort_said(report: &AuditReport) {
    let effort = &report.effort;
    let cases: u64 = report.programs.iter().map(ProgramRecord::cases).sum();
    let runs = report.runs();
    let phases: Vec<String> = effort
        .phases
        .iter()
        .map(|(name, secs)| format!("{name} {secs:.1} s"))
        .collect();
    eprintln!(
        "{} cases generated and judged once, {cases} cases run in all, {runs} runs ({:.0} runs/s); \
         {}; {:.1} s in all",
        effort.cases_judged,
        runs as f64 / effort.elapsed.as_secs_f64().max(1e-9),
        phases.join(", "),
        effort.elapsed.as_secs_f64()
    );
    if let Some(budget) = &effort.budget {
        let strengthening = effort
            .phases
            .iter()
            .find(|(name, _)| name == "strengthening")
            .map_or(0.0, |(_, secs)| *secs);
        eprintln!(
            "budget: {}",
            budget.text(std::time::Duration::from_secs_f64(strengthening))
        );
    }
}

/// The scores, the strengthening cases, the package's verdict and where the reports are.
fn strengthening_said(shown: &Shown, report: &AuditReport, lines: &[ProgramLine]) {
    let out = shown.out.display();
    let scores = scores_of(report);
    eprintln!(
        "existing data: rejects {} of the programs proved wrong (TPR), accepts {} of those \
         audited with no finding (TNR)",
        scores.tpr_existing.text(),
        scores.tnr_existing.text()
    );
    if report.tests.is_empty() {
        eprintln!("strengthening: no case added");
    } else {
        eprintln!(
            "strengthened data: rejects {} (TPR), accepts {} (TNR), the same programs counted",
            scores.tpr_strengthened.text(),
            scores.tnr_strengthened.text()
        );
        eprintln!(
            "strengthening: {} case{} in the problem's form (greedy set cover of the programs \
             proved wrong that the existing data accepts; every program that must be accepted \
             passes each)",
            report.tests.len(),
            if report.tests.len() == 1 { "" } else { "s" }
        );
        for t in &report.tests {
            let fails: Vec<&str> = (0..report.programs.len())
                .filter(|&p| t.on[p] == crate::audit::audited::OnCase::Rejected)
                .map(|p| report.programs[p].name.as_str())
                .collect();
            eprintln!(
                "  {out}/{}{} ({} bytes) fails {}; from {}",
                t.file,
                t.added_as
                    .as_ref()
                    .map_or(String::new(), |a| format!(", added as data/secret/{a}")),
                t.bytes,
                fails.join(", "),
                t.from
            );
        }
    }
    for said in report.dropped.iter().chain(&report.not_candidates) {
        eprintln!("not a strengthening case: {said}");
    }
    for p in uncovered(report) {
        eprintln!(
            "not covered: {}: no usable case fails it (see its findings)",
            report.programs[p].name
        );
    }
    let listed: Vec<String> = package_verdict(&scores)
        .iter()
        .map(|p| format!("  the data: {p}"))
        .chain(
            lines
                .iter()
                .flat_map(|l| l.verdict.iter().map(move |v| format!("  {}: {v}", l.name))),
        )
        .collect();
    if listed.is_empty() {
        eprintln!("package verdict: every program does what it should");
    } else {
        eprintln!("package verdict:");
        for line in listed {
            eprintln!("{line}");
        }
    }
    eprintln!("reports: {out}/{PROGRAMS}, {out}/{MANIFEST}, {out}/programs/NAME/findings.csv");
}
