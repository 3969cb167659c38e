//! The reports of an audit of several programs: `programs.csv` (one line per program: what it
//! is expected to do, what it does, its result on the existing data and on referee's cases,
//! its first failing case, whether the strengthened data rejects it, the package's verdict),
//! `tests/NNN.in` and `.ans` (the strengthening cases, in the problem's form), `audit.json`,
//! and the cases added to a package with `--add-to`.

use std::collections::BTreeMap;
use std::fs;

use serde::Serialize;

use super::audited::{AuditReport, ContestOutcome, ProgramAudit, ProgramLine, TestLine};
use super::entrants::{dir_name, Class};
use super::report::{options, MANIFEST};
use super::settings::Settings;
use super::strengthen::Strengthening;
use super::verdict::{does, verdict, Facts, Scores, Standing};
use crate::error::RunError;
use crate::game::Game;
use crate::report::manifest::Manifest;
use crate::report::write::{Digest, Staging};

/// The programs table's file name.
pub const PROGRAMS: &str = "programs.csv";

/// The columns of `programs.csv`, one row per program in the order given.
pub const PROGRAMS_HEADER: [&str; 12] = [
    "program",
    "expected",
    "does",
    "existing-data",
    "referee-cases",
    "cases",
    "findings",
    "first-case",
    "first-case-size",
    "after-strengthening",
    "form",
    "verdict",
];

/// What the audit says of a program on referee's cases, in words: its first finding and its
/// case's size, how many cases it passed, or why it was not audited.
pub fn standing_text(program: &ProgramAudit) -> String {
    match &program.standing {
        Standing::CannotRun(why) => format!("not run: {why}"),
        Standing::NotAudited(why) => format!("not audited: {why}"),
        Standing::TimesOutOnData => {
            "not run on referee's cases: it times out on the existing data".into()
        }
        Standing::ProvedWrong => match program.first_proof() {
            Some(f) => format!(
                "{} on {} ({})",
                f.kind,
                f.source.describe(),
                size_text(f.bytes, f.size.as_deref())
            ),
            None => "proved wrong".into(),
        },
        Standing::NoFinding if program.found.findings.is_empty() => {
            format!("no finding in {} cases", program.cases)
        }
        Standing::NoFinding => format!(
            "no reproduced finding in {} cases (only flaky or engine-disputed ones)",
            program.cases
        ),
    }
}

/// `38 bytes, 5 moves`.
fn size_text(bytes: usize, size: Option<&str>) -> String {
    match size {
        Some(size) => format!("{bytes} bytes, {size}"),
        None => format!("{bytes} bytes"),
    }
}

/// Each program's line, and the package's own verdict lines.
pub fn lines(
    report: &AuditReport,
    strengthening: &Strengthening,
) -> (Vec<ProgramLine>, Vec<String>) {
    let mut lines = Vec::new();
    for (p, program) in report.programs.iter().enumerate() {
        let first = program.first_proof();
        let first_case = first.map(|f| {
            let file = f
                .input
                .file_name()
                .map_or(String::new(), |n| n.to_string_lossy().to_string());
            format!("programs/{}/{file}", dir_name(&program.name))
        });
        let on_data = program.on_data.as_ref().map(|r| r.class);
        let does = does(on_data, &program.standing, first.map(|f| f.kind));
        let rejected_existing = on_data.is_some_and(|c| c != Class::Accepted);
        let facts = Facts {
            expected: program.expected,
            does,
            standing: &program.standing,
            rejected_existing,
            data_result: program.on_data.is_some() || report.inputs.is_empty(),
            first_case: first_case.as_deref(),
        };
        let verdict = verdict(&facts);
        let mut findings = BTreeMap::new();
        for f in &program.lines {
            *findings.entry(f.kind.to_string()).or_default() += f.count;
        }
        lines.push(ProgramLine {
            name: program.name.clone(),
            expected: program.expected,
            does,
            existing_data: program.on_data.as_ref().map(|r| r.text()),
            referee_cases: standing_text(program),
            cases: program.cases,
            findings,
            first_case_size: first.map(|f| size_text(f.bytes, f.size.as_deref())),
            first_case,
            rejected_after: (program.on_data.is_some() || report.inputs.is_empty())
                .then(|| strengthening.rejected_after[p]),
            form: program.form.form.map(|f| f.as_str().to_string()),
            proved_wrong: program.standing.proved_wrong(),
            verdict,
        });
    }
    let s = &strengthening.scores;
    let mut package = Vec::new();
    if s.tnr_strengthened.hits * s.tnr_existing.of.max(1)
        < s.tnr_existing.hits * s.tnr_strengthened.of.max(1)
    {
        package.push(format!(
            "the strengthened data accepts fewer programs with no finding ({}) than the existing \
             data ({})",
            s.tnr_strengthened.text(),
            s.tnr_existing.text()
        ));
    }
    (lines, package)
}

/// The row of `programs.csv` (columns [`PROGRAMS_HEADER`]) of a program's line.
pub fn row(line: &ProgramLine) -> Vec<String> {
    let findings: Vec<String> = line
        .findings
        .iter()
        .map(|(k, n)| format!("{k} {n}"))
        .collect();
    let text = |c: Option<Class>| c.map_or(String::new(), |c| c.to_string());
    vec![
        line.name.clone(),
        text(line.expected),
        text(line.does),
        line.existing_data.clone().unwrap_or_default(),
        line.referee_cases.clone(),
        line.cases.to_string(),
        findings.join(", "),
        line.first_case.clone().unwrap_or_default(),
        line.first_case_size.clone().unwrap_or_default(),
        match line.rejected_after {
            Some(true) => "rejected".into(),
            Some(false) => "accepted".into(),
            None => String::new(),
        },
        line.form.clone().unwrap_or_default(),
        if line.verdict.is_empty() {
            "as expected".into()
        } else {
            line.verdict.join("; ")
        },
    ]
}

/// Writes the contest's reports through `staging` (each program's are already in it): the
/// strengthening cases (and adds them to `--add-to`'s package), `programs.csv`, `audit.json`;
/// then puts them in place. The outcome, for the summary.
pub fn write<G: Game>(
    settings: &Settings<G::Options>,
    mut staging: Staging,
    report: &AuditReport,
    strengthening: Strengthening,
) -> Result<ContestOutcome, RunError> {
    let io = |e: std::io::Error| RunError::io(&settings.out, e);
    let mut listed: BTreeMap<String, Digest> = BTreeMap::new();
    let mut tests = Vec::new();
    let tests_dir = staging.staged().join("tests");
    if !strengthening.chosen.is_empty() {
        fs::create_dir_all(&tests_dir).map_err(io)?;
    }
    for (k, &c) in strengthening.chosen.iter().enumerate() {
        let candidate = &strengthening.candidates[c];
        let stem = format!("{:03}", k + 1);
        for (ext, bytes) in [
            ("in", &candidate.input[..]),
            ("ans", candidate.expected.as_bytes()),
        ] {
            let path = tests_dir.join(format!("{stem}.{ext}"));
            fs::write(&path, bytes).map_err(|e| RunError::io(&path, e))?;
            listed.insert(format!("tests/{stem}.{ext}"), Digest::of(bytes, 1));
        }
        tests.push(TestLine {
            file: format!("tests/{stem}.in"),
            added_as: None,
            fails: (0..report.programs.len())
                .filter(|&p| strengthening.fails[c][p] == super::strengthen::OnCase::Rejected)
                .map(|p| report.programs[p].name.clone())
                .collect(),
            from: candidate.from.clone(),
            bytes: candidate.input.len(),
            size: candidate.size.clone(),
        });
    }
    if let Some(package) = &settings.add_to {
        let chosen = &strengthening.chosen;
        let inputs: Vec<&[u8]> = chosen
            .iter()
            .map(|&c| &strengthening.candidates[c].input[..])
            .collect();
        let answers: Vec<&str> = chosen
            .iter()
            .map(|&c| strengthening.candidates[c].expected.as_str())
            .collect();
        let added = crate::judge_system::package::add::add_to_package(package, &inputs, &answers)?;
        for (test, name) in tests.iter_mut().zip(added) {
            test.added_as = Some(name);
        }
    }
    let (lines, package) = lines(report, &strengthening);
    let rows: Vec<Vec<String>> = lines.iter().map(row).collect();
    let digest = staging.csv(PROGRAMS, &PROGRAMS_HEADER, &rows).map_err(io)?;
    listed.insert(PROGRAMS.to_string(), digest);
    let mut manifest = Manifest::new("audit", options(settings), &report.inputs, None);
    manifest.reports = listed;
    let outcome = ContestOutcome {
        lines,
        tests,
        strengthening,
        package,
    };
    staging
        .json(MANIFEST, &ContestManifest::of(manifest, report, &outcome))
        .map_err(io)?;
    staging.commit().map_err(io)?;
    Ok(outcome)
}

/// `audit.json` of a contest audit.
#[derive(Serialize)]
struct ContestManifest<'a> {
    #[serde(flatten)]
    manifest: Manifest,
    problem_form: Option<&'static str>,
    problem_form_why: &'a str,
    time_limit: String,
    programs: &'a [ProgramLine],
    scores: Scores,
    scores_explained: &'static str,
    strengthening: &'a [TestLine],
    dropped: Vec<String>,
    uncovered: Vec<String>,
    not_candidates: &'a [String],
    package: &'a [String],
    cases_judged: u64,
    /// Seconds per stage, in order.
    phases: Vec<(&'static str, f64)>,
    runs: u64,
    seconds: f64,
    interrupted: bool,
}

/// How the scores are counted, for readers of `audit.json`.
pub const SCORES_EXPLAINED: &str = "TPR: of the programs proved wrong (a reproduced finding the \
    reference does not dispute, or a timeout on a file of the existing data), those the data \
    rejects. TNR: of the programs audited with no \
    such finding, those the data accepts. Both count the same programs before and after \
    strengthening: those with a result on the existing data.";

impl<'a> ContestManifest<'a> {
    fn of(manifest: Manifest, report: &'a AuditReport, outcome: &'a ContestOutcome) -> Self {
        let s = &outcome.strengthening;
        let name = |p: usize| report.programs[p].name.clone();
        ContestManifest {
            manifest,
            problem_form: report.problem.form.map(|f| f.as_str()),
            problem_form_why: &report.problem.why,
            time_limit: report.time_limit.describe(),
            programs: &outcome.lines,
            scores: s.scores,
            scores_explained: SCORES_EXPLAINED,
            strengthening: &outcome.tests,
            dropped: s
                .dropped
                .iter()
                .map(|(c, why)| format!("{}: {why}", s.candidates[*c].from))
                .collect(),
            uncovered: s.uncovered.iter().map(|&p| name(p)).collect(),
            not_candidates: &s.not_candidates,
            package: &outcome.package,
            cases_judged: report.cases_judged,
            phases: report
                .phases
                .iter()
                .map(|(name, d)| (*name, d.as_secs_f64()))
                .collect(),
            runs: report.programs.iter().map(|p| p.runs).sum(),
            seconds: report.phases.iter().map(|(_, d)| d.as_secs_f64()).sum(),
            interrupted: report.interrupted,
        }
    }
}
