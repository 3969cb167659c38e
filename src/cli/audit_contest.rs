//! `referee audit` of several programs at once (`--cmd` repeated or named, `--programs`,
//! `--package`): the summary of [`crate::audit::contest`] on standard error.

use std::path::PathBuf;
use std::process::ExitCode;

use super::audit::{AuditArgs, Common};
use crate::audit::contest::{audit_contest as run, ContestReport, ContestSettings};
use crate::audit::entrants::{self, Entrant};
use crate::audit::program;
use crate::error::RunError;
use crate::game::Game;
use crate::games::Visitor;

/// Audits every program of `args`; the exit code as `--help` says.
pub(super) fn audit_contest(args: AuditArgs) -> Result<ExitCode, RunError> {
    if args.html.html.is_some() {
        return Err(RunError::Usage(
            "--html reports one program's findings; with several programs the reports are \
             programs.csv, audit.json (and --junit), and each program's findings under \
             programs/NAME/"
                .into(),
        ));
    }
    args.ci.check(&args.out)?;
    if args.save_runs.is_some() || args.sharding.slice()?.is_some() {
        return Err(RunError::Usage(
            "--save-runs and --shard audit one program; with several, every program runs the \
             same cases in one run"
                .into(),
        ));
    }
    if let Some(dir) = &args.add_to {
        if !dir.join("data").is_dir() {
            return Err(RunError::Usage(format!(
                "--add-to {}: not a problem package (no data/ directory)",
                dir.display()
            )));
        }
    }
    let common = Common::of(&args)?;
    let mut skipped = Vec::new();
    let mut entrants: Vec<Entrant> = entrants::from_commands(&args.cmd)?;
    if let Some(table) = &args.programs {
        entrants.extend(entrants::from_table(table)?);
    }
    let mut inputs = args.inputs.clone();
    if let Some(package) = &args.package {
        if !package.join("submissions").is_dir() {
            return Err(RunError::Usage(format!(
                "--package {}: no submissions/ directory",
                package.display()
            )));
        }
        if inputs.is_empty() {
            inputs.extend(
                ["data/sample", "data/secret"]
                    .iter()
                    .map(|d| package.join(d))
                    .filter(|d| d.is_dir()),
            );
        }
        let dir = args.out.join("build");
        std::fs::create_dir_all(&dir).map_err(|e| RunError::io(&dir, e))?;
        eprintln!(
            "building the submissions of {} into {}",
            package.display(),
            dir.display()
        );
        entrants.extend(entrants::from_package(package, &dir, &mut skipped)?);
    }
    let entrants = entrants::unique(entrants)?;
    struct Contest<'a> {
        args: &'a AuditArgs,
        common: Common,
        entrants: Vec<Entrant>,
        inputs: Vec<PathBuf>,
        skipped: Vec<String>,
    }
    impl Visitor for Contest<'_> {
        type Output = Result<ContestReport, RunError>;
        fn visit<G: Game>(self) -> Self::Output {
            let placeholder = program::Program::from_argv(vec!["true".into()]);
            let mut base = self.args.settings::<G>(&self.common, placeholder)?;
            base.inputs = self.inputs;
            run::<G>(&ContestSettings {
                base,
                entrants: self.entrants,
                add_to: self.args.add_to.clone(),
                skipped: self.skipped,
            })
        }
    }
    let listening = program::interrupt_on_signals()
        .map_err(|e| RunError::Usage(format!("cannot listen for interruptions: {e}")))?;
    let count = entrants.len();
    let report = args.game.visit(Contest {
        args: &args,
        common,
        entrants,
        inputs,
        skipped,
    });
    listening.close();
    let report = report?;
    summarize(&args, count, &report);
    let game = args.game.as_str();
    let mut properties = vec![
        ("game".to_string(), game.to_string()),
        ("programs".to_string(), count.to_string()),
        ("seed".to_string(), args.seed.to_string()),
        (
            "tpr-existing".to_string(),
            report.scores.tpr_existing.text(),
        ),
        (
            "tnr-existing".to_string(),
            report.scores.tnr_existing.text(),
        ),
        (
            "tpr-strengthened".to_string(),
            report.scores.tpr_strengthened.text(),
        ),
        (
            "tnr-strengthened".to_string(),
            report.scores.tnr_strengthened.text(),
        ),
        (
            "strengthening-cases".to_string(),
            report.tests.len().to_string(),
        ),
    ];
    if let Some(rules) = &args.rules {
        properties.push(("rules".to_string(), rules.clone()));
    }
    let suite = crate::report::ci::programs_suite(
        game,
        &properties,
        &crate::audit::contest::PROGRAMS_HEADER,
        &report
            .programs
            .iter()
            .map(crate::audit::contest::row)
            .collect::<Vec<_>>(),
    );
    super::publish(
        &format!("referee audit {game}"),
        &[suite],
        &args.ci.output(&args.out, false),
    )?;
    Ok(super::audit::exit_code(&args.out, u8::from(report.failing)))
}

fn summarize(args: &AuditArgs, count: usize, report: &ContestReport) {
    let game = args.game.as_str();
    let out = args.out.display();
    for skipped in &report.skipped {
        eprintln!("note: {skipped}");
    }
    eprintln!(
        "audit {game}: {count} programs; {} cases generated and judged once, {} cases run in \
         all, {} runs; {:.1} s",
        report.cases_judged,
        report.cases_run,
        report.runs,
        report.elapsed.as_secs_f64()
    );
    for p in &report.programs {
        eprintln!(
            "{}{}: {}; existing data: {}; referee's cases: {}",
            p.name,
            p.expected
                .map_or(String::new(), |c| format!(" (expected {c})")),
            p.does
                .map_or("not run".to_string(), |c| format!("does {c}")),
            p.existing_data.as_ref().map_or("not run".to_string(), |j| {
                match &j.file {
                    None => j.class.to_string(),
                    Some(f) => format!("{} on {f}", j.class),
                }
            }),
            p.referee_cases
        );
    }
    let s = &report.scores;
    eprintln!(
        "existing data: rejects {} of the programs proved wrong (TPR), accepts {} of the others \
         (TNR)",
        s.tpr_existing.text(),
        s.tnr_existing.text()
    );
    if report.tests.is_empty() {
        eprintln!("strengthening: no case needed");
    } else {
        eprintln!(
            "strengthened data: rejects {} (TPR), accepts {} (TNR)",
            s.tpr_strengthened.text(),
            s.tnr_strengthened.text()
        );
        eprintln!(
            "strengthening: {} case{} (greedy set cover of the programs proved wrong that the \
             existing data accepts)",
            report.tests.len(),
            if report.tests.len() == 1 { "" } else { "s" }
        );
        for t in &report.tests {
            eprintln!(
                "  {out}/{}{} ({} bytes) fails {}; from {}",
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
    for u in &report.uncovered {
        eprintln!("not covered: {u}");
    }
    for n in &report.not_candidates {
        eprintln!("not a strengthening case: {n}");
    }
    let listed: Vec<String> = report
        .programs
        .iter()
        .flat_map(|p| p.verdict.iter().map(move |v| format!("  {}: {v}", p.name)))
        .collect();
    if listed.is_empty() {
        eprintln!("package verdict: every program does what it should");
    } else {
        eprintln!("package verdict:");
        for line in listed {
            eprintln!("{line}");
        }
    }
    eprintln!("reports: {out}/programs.csv, {out}/audit.json, {out}/programs/NAME/findings.csv");
}
