//! What `referee audit` says when it is done, one program or many: the summary on standard
//! error, the CI outputs and the HTML report, all printed from the typed report, and the exit
//! code: 1 when the package's verdict lists anything, 2 when no program could be run at all.

use std::io::{self, Write};
use std::path::Path;
use std::process::ExitCode;

use super::{publish_all, rate, CiArgs, HtmlArgs};
use crate::audit::findings::verdict::{Scores, Standing};
use crate::audit::reports::audited::{scores_of, uncovered};
use crate::audit::reports::audited::{AuditReport, CasesOutcome, ProgramRecord};
use crate::audit::reports::report::RunOptions;
use crate::audit::reports::report::{
    detail, failing, finding_path, lines, none_ran, package_verdict, properties, suite, ProgramLine,
};
use crate::audit::terms::layout::Layout;
use crate::audit::Kind;
use crate::util::error::RunError;

/// What the summary shows beside the report.
pub(super) struct Shown<'a> {
    pub(super) out: &'a Path,
    /// The run's options.
    pub(super) options: &'a RunOptions,
    pub(super) ci: &'a CiArgs,
    pub(super) html: &'a HtmlArgs,
    /// Whether `--batch` was given (else a single-case form says nothing of it).
    pub(super) batch_asked: bool,
}

/// `code`, or after an interruption by signal N, `128 + N`, said on standard error with where
/// the reports of what was found before are, and, when the signal came once `changed` (the
/// package of `--add-to`) was changed, that it was.
pub(super) fn exit_code(
    out: &Path,
    code: u8,
    interrupt: &referee_sandbox::Interrupt,
    changed: Option<&Path>,
) -> ExitCode {
    let Some(signal) = interrupt.signal() else {
        return ExitCode::from(code);
    };
    if let Some(package) = changed {
        eprintln!(
            "interrupted by signal {signal} once the audit was complete: {} was changed (its \
             added cases and limits are in it), and the reports in {} are the whole audit's \
             (exit {})",
            package.display(),
            out.display(),
            128 + signal
        );
        return ExitCode::from(128 + signal as u8);
    }
    eprintln!(
        "interrupted by signal {signal}: every process the audit started ended; the reports in \
         {} hold what was found before (exit {})",
        out.display(),
        128 + signal
    );
    ExitCode::from(128 + signal as u8)
}

/// The summary of an audit, its CI outputs and HTML report, each a sink of the typed report;
/// its exit code (1 when the package's verdict lists anything). When no program could be run at
/// all, an error (exit 2), unless the audit was interrupted first.
pub(super) fn summary(shown: &Shown, report: &AuditReport) -> Result<u8, RunError> {
    if let Some(none) = none_ran(report).filter(|_| !report.interrupted) {
        return Err(none.into());
    }
    let lines = lines(report);
    let said = Said {
        shown,
        report,
        lines: &lines,
    };
    said.summary(&mut std::io::stderr().lock())
        .map_err(RunError::Summary)?;
    said.publish()?;
    Ok(u8::from(failing(&lines, &scores_of(report))))
}

/// An audit's typed report, with what its sinks show beside it.
struct Said<'a> {
    shown: &'a Shown<'a>,
    report: &'a AuditReport,
    lines: &'a [ProgramLine],
}

impl Said<'_> {
    /// The summary, written to `out` (standard error).
    fn summary(&self, out: &mut dyn Write) -> io::Result<()> {
        let (shown, report) = (self.shown, self.report);
        for note in &report.notes {
            writeln!(out, "note: {note}")?;
        }
        writeln!(
            out,
            "audit {}: {} program{}; the problem's form: {} ({}); time limit {}",
            report.game,
            report.programs.len(),
            if report.programs.len() == 1 { "" } else { "s" },
            report.problem.form.map_or("none", |f| f.as_str()),
            report.problem.why,
            report.time_limit.describe()
        )?;
        writeln!(
            out,
            "programs run {}; memory limit {}",
            report.confinement.text(),
            crate::util::text::mebibytes(report.memory_limit)
        )?;
        if report.effort.random_dropped > 0 {
            writeln!(
                out,
                "note: {} random cases outside the contest's limits dropped",
                report.effort.random_dropped
            )?;
        }
        for (program, line) in report.programs.iter().zip(self.lines) {
            program_said(out, shown, report, program, line)?;
        }
        effort_said(out, report)?;
        for line in report.limits.iter().flat_map(|a| a.lines()) {
            writeln!(out, "{line}")?;
        }
        strengthening_said(out, shown, report, self.lines)
    }

    /// The CI outputs (JUnit, GitHub annotations, JSON) and the HTML page.
    fn publish(&self) -> Result<(), RunError> {
        let (shown, report) = (self.shown, self.report);
        let properties = properties(report, shown.options);
        let suites = [suite(report, self.lines, &properties)];
        let title = format!("referee audit {}", report.game);
        publish_all(
            &title,
            &suites,
            &shown.ci.output(shown.out, false),
            shown.html,
            || {
                crate::audit::reports::page::audit_page(
                    &title,
                    shown.out,
                    report,
                    self.lines,
                    &properties,
                )
            },
        )
    }
}

/// One program: its line, the form its runs used, its pace, and each finding with the
/// commands that reproduce it.
fn program_said(
    out: &mut dyn Write,
    shown: &Shown,
    report: &AuditReport,
    program: &ProgramRecord,
    line: &ProgramLine,
) -> io::Result<()> {
    writeln!(
        out,
        "{}{}: {}; existing data: {}; referee's cases: {}",
        program.name,
        line.expected
            .map_or(String::new(), |c| format!(" (expected {c})")),
        line.does
            .map_or("not classified".to_string(), |c| format!("does {c}")),
        line.existing_data.as_deref().unwrap_or("no result"),
        line.referee_cases
    )?;
    let Some(examined) = program.examined() else {
        return Ok(());
    };
    writeln!(
        out,
        "  form {}: {}",
        examined.form.form().as_str(),
        examined.form.why()
    )?;
    let batch = shown.options.batch;
    if examined.form.form() == crate::game::Form::Single && batch != 1 && shown.batch_asked {
        writeln!(
            out,
            "  note: --batch {batch} needs the multi-case form; one case per run"
        )?;
    }
    if let CasesOutcome::Cases(tally) = examined.cases {
        let time = report.effort.cases_time.saturating_sub(tally.examining);
        writeln!(
            out,
            "  {} cases in {:.1} s ({}), {} runs of {}",
            tally.cases,
            time.as_secs_f64(),
            rate(tally.cases, time),
            program.runs,
            program.command.as_deref().unwrap_or("")
        )?;
    }
    if program.unexamined > 0 {
        writeln!(
            out,
            "  note: {} failing runs not narrowed: --time ran out (the first ones are reported)",
            program.unexamined
        )?;
    }
    findings_said(out, shown, report, program)
}

/// Each finding of a program.
fn findings_said(
    out: &mut dyn Write,
    shown: &Shown,
    report: &AuditReport,
    program: &ProgramRecord,
) -> io::Result<()> {
    let counts: Vec<String> = Kind::ALL
        .iter()
        .filter_map(|k| program.failing.get(k).map(|n| format!("{k} {n}")))
        .collect();
    if !counts.is_empty() {
        writeln!(out, "  failing cases: {}", counts.join(", "))?;
    }
    let rules = Some(&shown.options.rules)
        .filter(|r| !r.is_empty())
        .map_or(String::new(), |r| format!(" --rules {r}"));
    for (i, f) in program.findings.iter().enumerate() {
        let input = shown.out.join(finding_path(program, f));
        if f.kind == Kind::EngineDisputed {
            writeln!(
                out,
                "  ENGINE DISPUTED (finding {}): the reference does not side with referee's \
                 engine on {}: {}",
                i + 1,
                input.display(),
                f.evidence.text()
            )?;
        }
        writeln!(
            out,
            "  finding {} ({}, {} case{}): {}",
            i + 1,
            f.kind,
            f.count,
            if f.count == 1 { "" } else { "s" },
            f.signature
        )?;
        writeln!(out, "    from:      {}", detail(f))?;
        writeln!(out, "    confirmed: {}", f.evidence.text())?;
        if let Some((allowed, has)) = &f.outside {
            writeln!(
                out,
                "    outside the contest's limits: they allow {allowed}, the case has {has}"
            )?;
        }
        writeln!(
            out,
            "    reproduce: {}",
            crate::audit::reports::report::reproduce(
                report,
                program,
                f,
                &input.display().to_string()
            )
        )?;
        writeln!(
            out,
            "    expected:  referee judge {} {}{rules}",
            report.game,
            input.display()
        )?;
    }
    if program.findings.is_empty() && program.standing() == Standing::NoFinding {
        writeln!(out, "  no finding")?;
    } else if program.standing() == Standing::NoFinding && !report.strict {
        writeln!(
            out,
            "  only flaky or engine-disputed findings: not a verdict without --strict"
        )?;
    }
    Ok(())
}

/// The cases generated, the runs and the time of each stage.
fn effort_said(out: &mut dyn Write, report: &AuditReport) -> io::Result<()> {
    let effort = &report.effort;
    let cases: u64 = report.programs.iter().map(ProgramRecord::cases).sum();
    let runs = report.runs();
    let phases: Vec<String> = effort
        .phases
        .iter()
        .map(|(name, secs)| format!("{name} {secs:.1} s"))
        .collect();
    writeln!(
        out,
        "{} cases generated and judged once, {cases} cases run in all, {runs} runs ({:.0} runs/s); \
         {}; {:.1} s in all",
        effort.cases_judged,
        runs as f64 / effort.elapsed.as_secs_f64().max(1e-9),
        phases.join(", "),
        effort.elapsed.as_secs_f64()
    )?;
    if let Some(budget) = &effort.budget {
        let strengthening = effort
            .phases
            .iter()
            .find(|(name, _)| name == "strengthening")
            .map_or(0.0, |(_, secs)| *secs);
        writeln!(
            out,
            "budget: {}",
            budget.text(std::time::Duration::from_secs_f64(strengthening))
        )?;
    }
    Ok(())
}

/// The scores, the strengthening cases, the package's verdict and where the reports are.
fn strengthening_said(
    out: &mut dyn Write,
    shown: &Shown,
    report: &AuditReport,
    lines: &[ProgramLine],
) -> io::Result<()> {
    let dir = shown.out.display();
    let scores = scores_of(report);
    writeln!(
        out,
        "existing data: rejects {} of the programs proved wrong (TPR), accepts {} of those \
         audited with no finding (TNR)",
        scores.tpr_existing.text(),
        scores.tnr_existing.text()
    )?;
    if report.tests.is_empty() {
        writeln!(out, "strengthening: no case added")?;
    } else {
        writeln!(
            out,
            "strengthened data: rejects {} (TPR), accepts {} (TNR), the same programs counted",
            scores.tpr_strengthened.text(),
            scores.tnr_strengthened.text()
        )?;
        writeln!(
            out,
            "strengthening: {} case{} in the problem's form (greedy set cover of the programs \
             proved wrong that the existing data accepts; every program that must be accepted \
             passes each)",
            report.tests.len(),
            if report.tests.len() == 1 { "" } else { "s" }
        )?;
        for t in &report.tests {
            let fails: Vec<&str> = report
                .programs
                .iter()
                .filter(|p| t.on_program(p) == crate::audit::reports::audited::OnCase::Rejected)
                .map(|p| p.name.as_str())
                .collect();
            writeln!(
                out,
                "  {dir}/{}{} ({} bytes) fails {}; from {}",
                t.file,
                t.added_as
                    .as_ref()
                    .map_or(String::new(), |a| format!(", added as {a}")),
                t.bytes,
                fails.join(", "),
                t.from
            )?;
        }
    }
    for said in report.dropped.iter().chain(&report.not_candidates) {
        writeln!(out, "not a strengthening case: {said}")?;
    }
    for program in uncovered(report) {
        writeln!(
            out,
            "not covered: {}: no usable case fails it (see its findings)",
            program.name
        )?;
    }
    verdict_said(out, shown, &scores, lines)
}

/// The package's verdict (what the data and each program do that they should not), and where
/// the reports are.
fn verdict_said(
    out: &mut dyn Write,
    shown: &Shown,
    scores: &Scores,
    lines: &[ProgramLine],
) -> io::Result<()> {
    let dir = shown.out.display();
    let listed: Vec<String> = package_verdict(scores)
        .iter()
        .map(|p| format!("  the data: {p}"))
        .chain(
            lines
                .iter()
                .flat_map(|l| l.verdict.iter().map(move |v| format!("  {}: {v}", l.name))),
        )
        .collect();
    if listed.is_empty() {
        writeln!(out, "package verdict: every program does what it should")?;
    } else {
        writeln!(out, "package verdict:")?;
        for line in listed {
            writeln!(out, "{line}")?;
        }
    }
    writeln!(
        out,
        "reports: {dir}/{}, {dir}/{}, {dir}/{}",
        Layout::PROGRAMS,
        Layout::MANIFEST,
        Layout::findings("NAME")
    )
}
