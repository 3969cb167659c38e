//! What `referee audit` says when it is done: the summary on standard error, the CI outputs
//! and the HTML report, for one program or several, and the exit code.

use std::path::Path;
use std::process::ExitCode;

use super::{publish, rate, CiArgs, HtmlArgs};
use crate::audit::audited::{AuditReport, ContestOutcome, ProgramAudit};
use crate::audit::report::{FINDINGS_HEADER, MANIFEST};
use crate::audit::verdict::Standing;
use crate::audit::Kind;
use crate::error::RunError;
use crate::game::Constraints;

/// What the summary shows beside the report.
pub(super) struct Shown<'a> {
    pub(super) game: &'static str,
    pub(super) out: &'a Path,
    pub(super) seed: u64,
    pub(super) rules: Option<&'a str>,
    pub(super) strict: bool,
    pub(super) batch: usize,
    pub(super) constraints: Constraints,
    pub(super) shard: Option<crate::shard::Shard>,
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

/// The summary of an audit of one program; its exit code (0 no finding, 1 proved wrong). A
/// program that cannot be run is an error (exit 2).
pub(super) fn one(shown: &Shown, report: &AuditReport) -> Result<u8, RunError> {
    let program = &report.programs[0];
    if let Standing::CannotRun(why) = &program.standing {
        return Err(RunError::Usage(why.clone()));
    }
    for note in &report.notes {
        eprintln!("skipped {note}");
    }
    describe_runs(shown, report, program);
    let properties = properties_of_one(shown, report, program);
    let suites = crate::report::ci::findings_suites(
        shown.game,
        &properties,
        &FINDINGS_HEADER,
        &program.rows,
    );
    let title = format!("referee audit {}", shown.game);
    publish(&title, &suites, &shown.ci.output(shown.out, false))?;
    shown.html.write(
        || {
            let about = properties
                .iter()
                .map(|(k, v)| format!("{k}: {v}"))
                .chain([format!("findings in {}", shown.out.display())])
                .collect();
            crate::report::html::findings_page(
                &title,
                about,
                shown.out,
                &FINDINGS_HEADER,
                &program.rows,
                &[
                    ("the program's output", "got"),
                    ("the engine's verdict", "expected"),
                ],
            )
        },
        &suites,
    )?;
    Ok(findings_said(shown, program))
}

/// The form, the pace and the notes of one program's audit.
fn describe_runs(shown: &Shown, report: &AuditReport, program: &ProgramAudit) {
    let form = program.form.form.map_or("none", |f| f.as_str());
    eprintln!("form {form}: {}", program.form.why);
    if program.form.form == Some(crate::game::Form::Single) && shown.batch > 1 {
        eprintln!(
            "note: --batch {} needs the multi-case form; one case per run",
            shown.batch
        );
    }
    if report.dropped > 0 {
        eprintln!(
            "note: {} random cases outside the contest's limits dropped",
            report.dropped
        );
    }
    if let Some(data) = &program.on_data {
        eprintln!("existing data: {}", data.text());
    }
    eprintln!(
        "audit {}: {} cases in {:.1} s ({}), {} runs of {}; {:.1} s in all",
        shown.game,
        program.cases,
        program.case_time.as_secs_f64(),
        rate(program.cases, program.case_time),
        program.runs,
        program.command.as_deref().unwrap_or(""),
        report.elapsed.as_secs_f64()
    );
    if program.found.unexamined > 0 {
        eprintln!(
            "note: {} failing runs not narrowed: --time ran out (the first ones are reported)",
            program.found.unexamined
        );
    }
    if let Standing::NotAudited(why) = &program.standing {
        eprintln!("not audited: {why}");
    }
}

/// The run's properties for CI outputs and the HTML report.
fn properties_of_one(
    shown: &Shown,
    report: &AuditReport,
    program: &ProgramAudit,
) -> Vec<(String, String)> {
    let mut properties = vec![
        ("game".to_string(), shown.game.to_string()),
        (
            "program".to_string(),
            program.command.clone().unwrap_or_default(),
        ),
        ("seed".to_string(), shown.seed.to_string()),
        ("cases".to_string(), program.cases.to_string()),
        (
            "form".to_string(),
            program.form.form.map_or("none", |f| f.as_str()).to_string(),
        ),
        (
            "constraints".to_string(),
            shown.constraints.as_str().to_string(),
        ),
        ("time-limit".to_string(), report.time_limit.describe()),
    ];
    if let Some(rules) = shown.rules {
        properties.push(("rules".to_string(), rules.to_string()));
    }
    if let Some(shard) = shown.shard {
        properties.push(("shard".to_string(), shard.to_string()));
    }
    properties
}

/// Says each finding of one program's audit; its exit code.
fn findings_said(shown: &Shown, program: &ProgramAudit) -> u8 {
    let out = shown.out.display();
    if program.found.per_kind.is_empty() && program.lines.is_empty() {
        eprintln!("no finding");
        return 0;
    }
    let counts: Vec<String> = Kind::ALL
        .iter()
        .filter_map(|k| program.found.per_kind.get(k).map(|n| format!("{k} {n}")))
        .collect();
    if !counts.is_empty() {
        eprintln!("failing cases: {}", counts.join(", "));
    }
    let rules = shown
        .rules
        .map_or(String::new(), |r| format!(" --rules {r}"));
    let command = program.command.as_deref().unwrap_or("");
    for f in &program.lines {
        if f.kind == Kind::EngineDisputed {
            eprintln!(
                "ENGINE DISPUTED (finding {}): the reference does not side with referee's engine \
                 on {}: {}",
                f.number,
                f.input.display(),
                f.confirmed
            );
        }
        eprintln!(
            "finding {} ({}, {} case{}): {}",
            f.number,
            f.kind,
            f.count,
            if f.count == 1 { "" } else { "s" },
            f.signature
        );
        eprintln!("  from:      {}", f.source.describe());
        eprintln!("  confirmed: {}", f.confirmed);
        if let Some(outside) = &f.outside {
            eprintln!("  outside the contest's limits: {outside}");
        }
        eprintln!("  reproduce: {command} < {}", f.input.display());
        eprintln!(
            "  expected:  referee judge {} {}{rules}",
            shown.game,
            f.input.display()
        );
    }
    eprintln!("reports: {out}/findings.csv, {out}/{MANIFEST}");
    let failing = program.standing.proved_wrong()
        || (shown.strict && program.lines.iter().any(|f| f.kind == Kind::Flaky));
    if !failing {
        eprintln!("only flaky findings (failures that did not come back): exit 0 without --strict");
        return 0;
    }
    1
}

/// The summary of an audit of several programs; its exit code (1 when the package's verdict
/// lists anything).
pub(super) fn contest(shown: &Shown, report: &AuditReport) -> Result<u8, RunError> {
    let outcome = report.contest.as_ref().expect("a contest's outcome");
    summarize(shown, report, outcome);
    let s = &outcome.strengthening.scores;
    let mut properties = vec![
        ("game".to_string(), shown.game.to_string()),
        ("programs".to_string(), report.programs.len().to_string()),
        ("seed".to_string(), shown.seed.to_string()),
        ("tpr-existing".to_string(), s.tpr_existing.text()),
        ("tnr-existing".to_string(), s.tnr_existing.text()),
        ("tpr-strengthened".to_string(), s.tpr_strengthened.text()),
        ("tnr-strengthened".to_string(), s.tnr_strengthened.text()),
        (
            "strengthening-cases".to_string(),
            outcome.tests.len().to_string(),
        ),
    ];
    if let Some(rules) = shown.rules {
        properties.push(("rules".to_string(), rules.to_string()));
    }
    let rows: Vec<Vec<String>> = outcome
        .lines
        .iter()
        .map(crate::audit::contest_report::row)
        .collect();
    let suite = crate::report::ci::programs_suite(
        shown.game,
        &properties,
        &crate::audit::contest_report::PROGRAMS_HEADER,
        &rows,
    );
    let title = format!("referee audit {}", shown.game);
    let suites = [suite];
    publish(&title, &suites, &shown.ci.output(shown.out, false))?;
    shown.html.write(
        || crate::audit::page::contest_page(&title, shown.out, report, outcome, &properties),
        &suites,
    )?;
    Ok(u8::from(outcome.failing()))
}

fn summarize(shown: &Shown, report: &AuditReport, outcome: &ContestOutcome) {
    let out = shown.out.display();
    for note in &report.notes {
        eprintln!("note: {note}");
    }
    eprintln!(
        "audit {}: {} programs; the problem's form: {} ({}); time limit {}",
        shown.game,
        report.programs.len(),
        report.problem.form.map_or("none", |f| f.as_str()),
        report.problem.why,
        report.time_limit.describe()
    );
    let cases: u64 = report.programs.iter().map(|p| p.cases).sum();
    let runs: u64 = report.programs.iter().map(|p| p.runs).sum();
    let phases: Vec<String> = report
        .phases
        .iter()
        .map(|(name, d)| format!("{name} {:.1} s", d.as_secs_f64()))
        .collect();
    eprintln!(
        "{} cases generated and judged once, {cases} cases run in all, {runs} runs ({:.0} runs/s); \
         {:.1} s: {}",
        report.cases_judged,
        runs as f64 / report.elapsed.as_secs_f64().max(1e-9),
        report.elapsed.as_secs_f64(),
        phases.join(", ")
    );
    for line in &outcome.lines {
        eprintln!(
            "{}{}: {}; existing data: {}; referee's cases: {}",
            line.name,
            line.expected
                .map_or(String::new(), |c| format!(" (expected {c})")),
            line.does
                .map_or("not classified".to_string(), |c| format!("does {c}")),
            line.existing_data.as_deref().unwrap_or("no result"),
            line.referee_cases
        );
    }
    strengthening_said(shown, outcome);
    let listed: Vec<String> = outcome
        .package
        .iter()
        .map(|p| format!("  the data: {p}"))
        .chain(
            outcome
                .lines
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
    eprintln!("reports: {out}/programs.csv, {out}/{MANIFEST}, {out}/programs/NAME/findings.csv");
}

/// The scores and the strengthening cases.
fn strengthening_said(shown: &Shown, outcome: &ContestOutcome) {
    let s = &outcome.strengthening;
    let scores = &s.scores;
    eprintln!(
        "existing data: rejects {} of the programs proved wrong (TPR), accepts {} of those \
         audited with no finding (TNR)",
        scores.tpr_existing.text(),
        scores.tnr_existing.text()
    );
    if outcome.tests.is_empty() {
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
            outcome.tests.len(),
            if outcome.tests.len() == 1 { "" } else { "s" }
        );
        for t in &outcome.tests {
            eprintln!(
                "  {}/{}{} ({} bytes) fails {}; from {}",
                shown.out.display(),
                t.file,
                t.added_as
                    .as_ref()
                    .map_or(String::new(), |a| format!(", added as data/secret/{a}")),
                t.bytes,
                t.fails.join(", "),
                t.from
            );
        }
    }
    for (c, why) in &s.dropped {
        eprintln!(
            "not a strengthening case: {} ({why})",
            s.candidates[*c].from
        );
    }
    for n in &s.not_candidates {
        eprintln!("not a strengthening case: {n}");
    }
    for line in outcome
        .lines
        .iter()
        .enumerate()
        .filter_map(|(p, l)| s.uncovered.contains(&p).then_some(&l.name))
    {
        eprintln!("not covered: {line}: no usable case fails it (see its findings)");
    }
}
