//! The reports of an audit, one program or many, printed from the typed report
//! ([`AuditReport`]) and nothing else: `programs.csv` (one line per program: what it is expected
//! to do, what it does, its result on the existing data and on referee's cases, its first
//! failing case, whether the strengthened data rejects it, the package's verdict), each
//! program's `programs/NAME/findings.csv` with its findings' `.in`, `.ans`, `.out` and `.err`,
//! the strengthening cases `tests/NNN.in` and `.ans`, and `audit.json` (the manifest, the
//! typed report that `referee merge` reads back, and the lines), replaced together.

use std::collections::BTreeMap;
use std::fs;

use serde::{Deserialize, Serialize};

use crate::audit::cases::data::DataOutcome;
use crate::audit::findings::verdict::{does, verdict, Facts, Scores, Standing};
use crate::audit::reports::audited::{scores_of, uncovered};
use crate::audit::reports::audited::{AuditReport, FindingRecord, ProgramRecord, Reached};
use crate::audit::settings::{FormRule, Settings};
use crate::audit::terms::layout::Layout;
use crate::audit::terms::Class;
use crate::audit::terms::Kind;
use crate::formats::as_text;
use crate::formats::manifest::Manifest;
use crate::formats::write::{Digest, Staging};
use crate::game::RuleSet;
use referee_sandbox::Confinement;

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

/// The columns of `findings.csv`: one row per signature kept, first found first.
pub const FINDINGS_HEADER: [&str; 20] = [
    "finding",
    "kind",
    "game",
    "rules",
    "input",
    "expected",
    "got",
    "exit",
    "cpu-millis",
    "wall-millis",
    "memory-kib",
    "signature",
    "count",
    "confirmed",
    "detail",
    "case",
    "form",
    "limits",
    "reproduce",
    "stderr",
];

/// A file of the report: its path in the report directory, and its bytes.
#[derive(Debug, Clone)]
pub struct ReportFile {
    /// `/`-separated, relative to the report directory.
    pub path: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// How a program's line ends for CI systems.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LineStatus {
    /// It does what it should: the package's verdict says nothing of it.
    AsExpected,
    /// The package's verdict says something of it.
    Verdict,
    /// It was not run, or not classified.
    NotRun,
}

/// One program's line of the report: what the audit and the package's verdict say of it.
#[derive(Debug, Clone, Serialize)]
pub struct ProgramLine {
    /// Its name.
    pub name: String,
    /// Its expected class.
    pub expected: Option<Class>,
    /// What it does: the data's result when the data rejects it, else the class of its first
    /// finding, else accepted.
    pub does: Option<Class>,
    /// Its result on the existing data, in words.
    pub existing_data: Option<String>,
    /// Its audit on referee's cases, in words.
    pub referee_cases: String,
    /// Cases of referee's it ran.
    pub cases: u64,
    /// Its findings by kind.
    pub findings: BTreeMap<Kind, u64>,
    /// Its first finding's input, relative to the report directory.
    pub first_case: Option<String>,
    /// That input's size: bytes, and the case's size as the game counts it.
    pub first_case_size: Option<String>,
    /// Whether the data with the strengthening cases rejects it (none: the data did not judge
    /// it).
    pub rejected_after: Option<bool>,
    /// The input form its runs used.
    pub form: Option<String>,
    /// Whether the audit proved it wrong.
    pub proved_wrong: bool,
    /// What the package's verdict says of it (empty: as expected).
    pub verdict: Vec<String>,
    /// How it ends for CI systems.
    pub status: LineStatus,
}

/// `38 bytes, 5 moves`.
fn size_text(bytes: usize, size: Option<&str>) -> String {
    match size {
        Some(size) => format!("{bytes} bytes, {size}"),
        None => format!("{bytes} bytes"),
    }
}

/// The input of `finding`, a finding of `program`, relative to the report directory.
pub fn finding_path(program: &ProgramRecord, finding: &FindingRecord) -> String {
    Layout::program_file(&program.name, &finding.file)
}

/// What the audit says of a program on referee's cases, in words: its first finding and its
/// case's size, how many cases it passed, or why it was not audited (with `pace`, what more
/// `--time` would audit it).
pub fn standing_text(program: &ProgramRecord, pace: &str) -> String {
    match program.standing() {
        Standing::CannotRun(why) => format!("not run: {why}"),
        Standing::NotAudited(why) => format!("not audited: {}{pace}", why.text()),
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
        Standing::NoFinding if program.findings.is_empty() => {
            format!("no finding in {} cases", program.cases())
        }
        Standing::NoFinding => format!(
            "no reproduced finding in {} cases (only flaky or engine-disputed ones)",
            program.cases()
        ),
    }
}

/// What the programs not audited would have needed, from the pace of those audited: empty when
/// every program was audited.
pub fn pace(report: &AuditReport) -> String {
    let audited = report.programs.iter().filter(|p| p.cases() > 0).count();
    let left = report
        .programs
        .iter()
        .filter(|p| matches!(p.standing(), Standing::NotAudited(_)))
        .count();
    if audited == 0 || left == 0 {
        return String::new();
    }
    let each = report.effort.cases_time.as_secs_f64() / audited as f64;
    format!(
        " (the {audited} programs audited took {each:.1} s each of the cases' time; about {:.0} \
         s more --time would audit the {left} left; the run took {:.0} s)",
        each * left as f64 / crate::audit::running::deadlines::CASES_SHARE,
        report.effort.elapsed.as_secs_f64()
    )
}

/// Each program's line.
pub fn lines(report: &AuditReport) -> Vec<ProgramLine> {
    let pace = pace(report);
    report
        .programs
        .iter()
        .map(|program| line(report, program, &pace))
        .collect()
}

/// The line of `program`, the `p`-th of `report`.
fn line(report: &AuditReport, program: &ProgramRecord, pace: &str) -> ProgramLine {
    let standing = program.standing();
    let first = program.first_proof();
    let first_case = first.map(|f| finding_path(program, f));
    let on_data = program.on_data().and_then(|d| d.result());
    let does = does(on_data.map(|r| r.class), &standing, first.map(|f| f.kind));
    let flaky = program
        .findings
        .iter()
        .filter(|f| f.kind == Kind::Flaky)
        .count();
    let facts = Facts {
        expected: program.expected,
        does,
        standing: &standing,
        rejected_existing: program.rejected_by_data(),
        data_result: program.judged_by_data(),
        first_case: first_case.as_deref(),
        flaky: if report.strict { flaky } else { 0 },
    };
    let verdict = verdict(&facts);
    let mut findings = BTreeMap::new();
    for f in &program.findings {
        *findings.entry(f.kind).or_default() += f.count;
    }
    let status = if does.is_none() {
        LineStatus::NotRun
    } else if verdict.is_empty() {
        LineStatus::AsExpected
    } else {
        LineStatus::Verdict
    };
    ProgramLine {
        name: program.name.clone(),
        expected: program.expected,
        does,
        existing_data: match program.on_data() {
            Some(DataOutcome::NoData) => Some("no data".to_string()),
            _ => on_data.map(|r| r.text()),
        },
        referee_cases: standing_text(program, pace),
        cases: program.cases(),
        findings,
        first_case_size: first.map(|f| size_text(f.bytes, f.size.as_deref())),
        first_case,
        rejected_after: program
            .judged_by_data()
            .then(|| report.rejected_after(program)),
        form: program
            .examined()
            .map(|e| e.form.form().as_str().to_string()),
        proved_wrong: standing.proved_wrong(),
        verdict,
        status: if matches!(standing, Standing::CannotRun(_)) {
            LineStatus::NotRun
        } else {
            status
        },
    }
}

/// What the package's verdict says of the data itself.
pub fn package_verdict(scores: &Scores) -> Vec<String> {
    let mut said = Vec::new();
    let (before, after) = (scores.tnr_existing, scores.tnr_strengthened);
    if after.hits * before.of.max(1) < before.hits * after.of.max(1) {
        said.push(format!(
            "the strengthened data accepts fewer programs with no finding ({}) than the existing \
             data ({})",
            after.text(),
            before.text()
        ));
    }
    said
}

/// The row of `programs.csv` (columns [`PROGRAMS_HEADER`]) of a program's line.
pub fn program_row(line: &ProgramLine) -> Vec<String> {
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

/// The detail column of a finding: where its case came from, how far it shrank, how it was
/// run again, its notes, the limits it lies outside (standard error has its own column).
pub fn detail(f: &FindingRecord) -> String {
    let mut detail = f.source.describe();
    if f.shrink_steps > 0 {
        detail.push_str(&format!(", shrunk in {} steps", f.shrink_steps));
    }
    if f.batch_only {
        detail.push_str(", fails only with the other cases of its run");
    }
    if matches!(f.seen, Kind::Timeout | Kind::MemoryLimit) && !f.stopped.is_empty() {
        detail.push_str(&format!(", {}", f.stopped));
    }
    if f.kind == Kind::Flaky {
        detail.push_str(&format!(", first seen as {}", f.seen));
    }
    if f.evidence.reference.is_some() {
        detail.push_str(&format!(", {}", f.evidence.reruns.text()));
    }
    for note in &f.notes {
        detail.push_str(&format!(", {note}"));
    }
    if let Some((allowed, has)) = &f.outside {
        detail.push_str(&format!(
            "; outside the contest's limits: they allow {allowed}, the case has {has}"
        ));
    }
    detail
}

/// The row of `findings.csv` (columns [`FINDINGS_HEADER`]) of finding `number` (from 1) of
/// `program` in `report`.
pub fn finding_row(
    report: &AuditReport,
    program: &ProgramRecord,
    number: usize,
    f: &FindingRecord,
) -> Vec<String> {
    vec![
        number.to_string(),
        f.kind.to_string(),
        report.game.clone(),
        report.rules.clone(),
        f.file.clone(),
        f.expected.clone(),
        f.got.clone(),
        f.exit.clone(),
        f.cpu.as_millis().to_string(),
        f.wall.as_millis().to_string(),
        (f.memory >> 10).to_string(),
        f.signature.clone(),
        f.count.to_string(),
        f.evidence.text(),
        detail(f),
        f.source.column(),
        f.form.as_str().to_string(),
        limits(f).to_string(),
        reproduce(report, program, f, &f.file),
        f.stderr.clone(),
    ]
}

/// The limits a finding's case keeps to: `contest`, or `outside-contest`.
fn limits(f: &FindingRecord) -> &'static str {
    if f.outside.is_some() {
        "outside-contest"
    } else {
        "contest"
    }
}

/// The command that reproduces a finding as audit ran it, its input at `input`: `referee run`
/// with the limits of the finding's run and the audit's confinement, then the program's
/// command.
pub fn reproduce(
    report: &AuditReport,
    program: &ProgramRecord,
    f: &FindingRecord,
    input: &str,
) -> String {
    let mut words = vec![
        "referee".to_string(),
        "run".to_string(),
        "--timeout".to_string(),
        format!("{:.3}", f.limit.as_secs_f64()),
        "--memory".to_string(),
        (report.memory_limit >> 20).to_string(),
    ];
    if report.max_output != crate::audit::reports::audited::DEFAULT_MAX_OUTPUT {
        words.extend(["--max-output".to_string(), report.max_output.to_string()]);
    }
    match &report.confinement {
        Confinement::Confined { allowed, .. } => {
            for path in allowed {
                words.extend(["--allow-read".to_string(), path.display().to_string()]);
            }
        }
        Confinement::Unconfined => words.push("--unconfined".to_string()),
    }
    let quoted = shlex::try_join(words.iter().map(String::as_str)).unwrap_or(words.join(" "));
    let input = shlex::try_quote(input).map_or(input.to_string(), |q| q.to_string());
    format!(
        "{quoted} -- {} < {input}",
        program.command.as_deref().unwrap_or("")
    )
}

/// The options of an audit run that change its reports, as its manifest writes them (each
/// by its flag's name, as text); read back from older manifests, a missing one is its default.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "kebab-case")]
pub struct RunOptions {
    /// The game.
    pub game: String,
    /// The rule set's name (empty for a game without rule sets).
    pub rules: String,
    /// `--seed`.
    #[serde(with = "as_text::text")]
    pub seed: u64,
    /// `--batch`.
    #[serde(with = "as_text::text")]
    pub batch: usize,
    /// `--cases`.
    #[serde(with = "as_text::optional")]
    pub cases: Option<u64>,
    /// `--time`, in seconds.
    #[serde(with = "as_text::optional")]
    pub time: Option<f64>,
    /// `--timeout`, in seconds.
    #[serde(with = "as_text::text")]
    pub timeout: f64,
    /// The clock the timeout counts.
    pub timeout_clock: String,
    /// The memory limit.
    #[serde(with = "as_text::text")]
    pub memory_mib: u64,
    /// `confined` or `unconfined`.
    pub confinement: String,
    /// `--keep-going`.
    #[serde(with = "as_text::text")]
    pub keep_going: bool,
    /// `--max-findings`.
    #[serde(with = "as_text::text")]
    pub max_findings: usize,
    /// `--strict`.
    #[serde(with = "as_text::text")]
    pub strict: bool,
    /// `--form`, or `auto`.
    pub form: String,
    /// `--constraints`.
    pub constraints: String,
    /// `--repeat`.
    #[serde(with = "as_text::text")]
    pub repeat: usize,
    /// `--compile-time`, in seconds.
    #[serde(with = "as_text::text")]
    pub compile_time: f64,
    /// `--shrink-time`, in seconds.
    #[serde(with = "as_text::text")]
    pub shrink_time: f64,
    /// `--max-output`, in bytes.
    #[serde(with = "as_text::text")]
    pub max_output: usize,
}

impl RunOptions {
    /// The options of an audit of `game` with `settings`.
    pub fn of<O: RuleSet>(game: &str, settings: &Settings<O>) -> RunOptions {
        RunOptions {
            game: game.to_string(),
            rules: settings.rules.name().to_string(),
            seed: settings.seed,
            batch: settings.batch,
            cases: settings.cases,
            time: settings.time.map(|t| t.as_secs_f64()),
            timeout: settings.limits.cpu.as_secs_f64(),
            timeout_clock: "cpu".to_string(),
            memory_mib: settings.limits.memory >> 20,
            confinement: match settings.confinement {
                Confinement::Unconfined => "unconfined",
                Confinement::Confined { .. } => "confined",
            }
            .to_string(),
            keep_going: settings.keep_going,
            max_findings: settings.max_findings,
            strict: settings.strict,
            form: match settings.form {
                FormRule::Asked(f) => f.as_str(),
                _ => "auto",
            }
            .to_string(),
            constraints: settings.constraints.as_str().to_string(),
            repeat: settings.advising.repeat,
            compile_time: settings.compile_time.as_secs_f64(),
            shrink_time: settings.shrink_time.as_secs_f64(),
            max_output: settings.limits.max_output,
        }
    }
}

/// `audit.json`: the manifest, the typed report, and what is derived from it for readers.
#[derive(Serialize)]
struct Written<'a> {
    #[serde(flatten)]
    manifest: Manifest,
    report: &'a AuditReport,
    summary: Summary,
}

/// `audit.json` read back: the manifest and the typed report.
#[derive(Deserialize)]
pub struct ReadBack {
    /// The typed report.
    pub report: AuditReport,
}

/// What `audit.json` derives from the report, for its readers.
#[derive(Serialize)]
struct Summary {
    programs: Vec<ProgramLine>,
    scores: Scores,
    scores_explained: &'static str,
    uncovered: Vec<String>,
    package: Vec<String>,
    time_limit: String,
    /// The clock the time limit counts.
    timeout_clock: &'static str,
    /// The wall-clock cap, as a multiple of the time limit.
    wall_cap_factor: u32,
    runs: u64,
}

/// How the scores are counted, for readers of `audit.json`.
pub const SCORES_EXPLAINED: &str = "TPR: of the programs proved wrong (a reproduced finding the \
    reference does not dispute, or a timeout on a file of the existing data), those the data \
    rejects. TNR: of the programs audited with no such finding, those the data accepts. Both \
    count the same programs before and after strengthening: those with a result on the existing \
    data.";

/// Writes the reports of `report` (with `files`, its findings' and tests' files) through
/// `staging`, replacing the report directory as a whole, with `manifest` (the run's options,
/// cases and shard) listing every file.
pub fn write_report(
    mut staging: Staging,
    report: &AuditReport,
    mut manifest: Manifest,
    files: &[ReportFile],
) -> std::io::Result<()> {
    let mut reports: BTreeMap<String, Digest> = BTreeMap::new();
    let staged = staging.staged().to_path_buf();
    for dir in [Layout::PROGRAMS_DIR, Layout::TESTS_DIR] {
        fs::create_dir_all(staged.join(dir))?;
    }
    for program in &report.programs {
        fs::create_dir_all(staged.join(Layout::program_dir(&program.name)))?;
    }
    for file in files {
        let path = staged.join(&file.path);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)?;
        }
        fs::write(&path, &file.bytes)?;
        reports.insert(file.path.clone(), Digest::of(&file.bytes, 1));
    }
    for program in &report.programs {
        let rows: Vec<Vec<String>> = program
            .findings
            .iter()
            .enumerate()
            .map(|(i, f)| finding_row(report, program, i + 1, f))
            .collect();
        let name = Layout::findings(&program.name);
        let digest = staging.csv(&name, &FINDINGS_HEADER, &rows)?;
        reports.insert(name, digest);
    }
    let lines = lines(report);
    let rows: Vec<Vec<String>> = lines.iter().map(program_row).collect();
    reports.insert(
        Layout::PROGRAMS.to_string(),
        staging.csv(Layout::PROGRAMS, &PROGRAMS_HEADER, &rows)?,
    );
    manifest.reports = reports;
    let scores = scores_of(report);
    let summary = Summary {
        uncovered: uncovered(report)
            .into_iter()
            .map(|p| p.name.clone())
            .collect(),
        package: package_verdict(&scores),
        programs: lines,
        scores,
        scores_explained: SCORES_EXPLAINED,
        time_limit: report.time_limit.describe(),
        timeout_clock: "cpu",
        wall_cap_factor: crate::audit::running::runner::WALL_FACTOR,
        runs: report.runs(),
    };
    staging.json(
        Layout::MANIFEST,
        &Written {
            manifest,
            report,
            summary,
        },
    )?;
    staging.commit()
}

/// Whether a program of `report` makes the audit fail: the package's verdict lists something
/// of it.
pub fn failing(lines: &[ProgramLine], scores: &Scores) -> bool {
    !package_verdict(scores).is_empty() || lines.iter().any(|l| !l.verdict.is_empty())
}

/// Whether no program of `report` could be run at all: each cannot run. Why, when so.
pub fn none_ran(report: &AuditReport) -> Option<NoneRan> {
    let whys: Vec<String> = report
        .programs
        .iter()
        .map(|p| match &p.outcome {
            Reached::CannotRun { why } => Some(why.clone()),
            _ => None,
        })
        .collect::<Option<Vec<String>>>()?;
    Some(NoneRan(whys))
}

/// No program of an audit could be run: why not, a reason per program.
#[derive(Debug, thiserror::Error)]
#[error("{}", .0.join("; "))]
pub struct NoneRan(pub Vec<String>);

impl crate::util::error::RunRefusal for NoneRan {}

/// The properties of an audit run for CI outputs and the HTML report: the game, the programs,
/// the seed (from `options`, the run's), the scores, the strengthening cases.
pub fn properties(report: &AuditReport, options: &RunOptions) -> Vec<(String, String)> {
    let s = scores_of(report);
    let mut properties = vec![
        ("game".to_string(), report.game.clone()),
        ("programs".to_string(), report.programs.len().to_string()),
        ("seed".to_string(), options.seed.to_string()),
        ("time-limit".to_string(), report.time_limit.describe()),
        ("tpr-existing".to_string(), s.tpr_existing.text()),
        ("tnr-existing".to_string(), s.tnr_existing.text()),
        ("tpr-strengthened".to_string(), s.tpr_strengthened.text()),
        ("tnr-strengthened".to_string(), s.tnr_strengthened.text()),
        (
            "strengthening-cases".to_string(),
            report.tests.len().to_string(),
        ),
    ];
    if !report.rules.is_empty() && !options.rules.is_empty() {
        properties.push(("rules".to_string(), report.rules.clone()));
    }
    properties
}

/// The run as CI results: one suite, one test case per program, failed when the package's
/// verdict says something of it, skipped when it was not run; its findings in the detail.
pub fn suite(
    report: &AuditReport,
    lines: &[ProgramLine],
    properties: &[(String, String)],
) -> crate::formats::ci::Suite {
    use crate::formats::ci::{Case, Ended, Suite};
    let cases = report
        .programs
        .iter()
        .zip(lines)
        .map(|(program, line)| {
            let (outcome, status) = match line.status {
                LineStatus::AsExpected => (Ended::Passed, "as-expected"),
                LineStatus::Verdict => (Ended::Failed, "verdict"),
                LineStatus::NotRun => (Ended::Skipped, "not-run"),
            };
            let mut detail: Vec<String> = PROGRAMS_HEADER
                .iter()
                .zip(program_row(line))
                .filter(|(h, v)| !v.is_empty() && **h != "program")
                .map(|(h, v)| format!("{h}: {v}"))
                .collect();
            for (i, f) in program.findings.iter().enumerate() {
                detail.push(format!(
                    "finding {}: {} ({} cases): {}",
                    i + 1,
                    f.signature,
                    f.count,
                    finding_path(program, f)
                ));
            }
            Case {
                name: program.name.clone(),
                status: status.to_string(),
                outcome,
                message: if outcome == Ended::Passed {
                    String::new()
                } else {
                    line.verdict.join("; ")
                },
                detail: detail.join("\n"),
                location: None,
                time: None,
            }
        })
        .collect();
    Suite {
        name: report.game.clone(),
        properties: properties.to_vec(),
        cases,
    }
}

/// Finding `number` (from 1) of `program` as the HTML report shows it, the report in `out`.
pub fn shown(
    report: &AuditReport,
    program: &ProgramRecord,
    number: usize,
    f: &FindingRecord,
    out: &std::path::Path,
) -> crate::formats::ci::ShownFinding {
    let row = finding_row(report, program, number, f);
    crate::formats::ci::ShownFinding {
        number,
        game: report.game.clone(),
        rules: report.rules.clone(),
        status: f.kind.to_string(),
        signature: f.signature.clone(),
        count: f.count,
        input: out.join(finding_path(program, f)),
        data_file: match &f.source {
            crate::audit::terms::Source::File { name, .. } => Some(name.clone()),
            _ => None,
        },
        sides: vec![
            (
                "the program's output".into(),
                crate::util::answer::as_lines(&f.got),
            ),
            (
                "the engine's verdict".into(),
                crate::util::answer::as_lines(&f.expected),
            ),
        ],
        facts: vec![
            (
                "reproduce".into(),
                reproduce(
                    report,
                    program,
                    f,
                    &out.join(finding_path(program, f)).display().to_string(),
                ),
            ),
            ("input form".into(), f.form.as_str().to_string()),
            ("limits".into(), limits(f).to_string()),
            ("how it was confirmed".into(), f.evidence.text()),
            (
                "the program's standard error".into(),
                crate::util::answer::as_lines(&f.stderr),
            ),
        ],
        columns: FINDINGS_HEADER
            .iter()
            .map(|h| h.to_string())
            .zip(row)
            .collect(),
    }
}
