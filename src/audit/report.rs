//! One program's reports: each finding's `.in` (in the form the program was run in), `.ans`,
//! `.out` and `.err`, `findings.csv` and the manifest `audit.json`, replaced together.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde::Serialize;

use super::finding::{Found, Kept};
use super::outcome::exit_text;
use super::settings::Settings;
use super::{Kind, Source};
use crate::answer::escape;
use crate::game::{Game, RuleSet};
use crate::report::manifest::Manifest;
use crate::report::write::{Digest, Staging};
use crate::walk::CaseFile;

/// The findings report's file name.
pub const FINDINGS: &str = "findings.csv";
/// The manifest of an audit's report directory.
pub const MANIFEST: &str = "audit.json";

/// The columns of `findings.csv`: one row per signature kept, first found first.
pub const FINDINGS_HEADER: [&str; 18] = [
    "finding",
    "kind",
    "game",
    "rules",
    "input",
    "expected",
    "got",
    "exit",
    "millis",
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

/// One finding, as reported.
#[derive(Debug, Clone)]
pub struct FindingLine {
    /// Its number, from 1.
    pub number: usize,
    /// Its kind.
    pub kind: Kind,
    /// Its signature.
    pub signature: String,
    /// How many failing cases share it.
    pub count: u64,
    /// The input file written for it.
    pub input: PathBuf,
    /// Whether the reference confirmed the expected output, or how it was reproduced.
    pub confirmed: String,
    /// Where its case lies outside the contest's limits, in words.
    pub outside: Option<String>,
    /// Where its case comes from.
    pub source: Source,
    /// Its input's size in bytes.
    pub bytes: usize,
    /// The case's size as the game counts it.
    pub size: Option<String>,
}

/// What the manifest says of the program beside its findings.
#[derive(Debug, Clone, Serialize)]
pub struct ProgramSummary {
    /// The command run.
    pub program: String,
    /// What the audit says of it.
    pub verdict: String,
    /// Cases it ran to their end.
    pub cases: u64,
    /// Its runs, probe and examinations included.
    pub runs: u64,
    /// Its time limit.
    pub time_limit: String,
    /// Its result on the existing data.
    pub existing_data: Option<String>,
    /// Whether the audit was interrupted.
    pub interrupted: bool,
}

/// The form a program's runs used, and why.
#[derive(Debug, Clone)]
pub struct FormUsed {
    /// The form (`None`: its output fits none).
    pub form: Option<crate::game::Form>,
    /// Why.
    pub why: String,
}

/// The detail column of a finding.
fn detail(kept: &Kept, timeout: f64) -> String {
    let mut detail = kept.source.describe();
    if kept.shrink_steps > 0 {
        detail.push_str(&format!(", shrunk in {} steps", kept.shrink_steps));
    }
    if kept.batch_only {
        detail.push_str(", fails only with the other cases of its run");
    }
    if kept.seen == Kind::Timeout {
        detail.push_str(&format!(", killed after {timeout:.2} s"));
    }
    if kept.kind == Kind::Flaky {
        detail.push_str(&format!(", first seen as {}", kept.seen));
    }
    for note in &kept.notes {
        detail.push_str(&format!(", {note}"));
    }
    if let Some((allowed, has)) = &kept.outside {
        detail.push_str(&format!(
            "; outside the contest's limits: they allow {allowed}, the case has {has}"
        ));
    }
    let tail = escape(&kept.tried.run.stderr_tail, 200);
    if !tail.is_empty() {
        detail.push_str(&format!("; standard error ends: {tail}"));
    }
    detail
}

/// The stem of a finding's files, for `source` under `rules`.
fn stem<G: Game>(source: &Source, rules: G::Options) -> String {
    source.stem(G::NAME, &crate::detect::file_suffix(rules))
}

/// Writes the files of every finding of `found`, `findings.csv` and the manifest through
/// `staging` (its directory replaced as a whole): the finding lines and the rows of
/// `findings.csv`.
pub fn write_program_in<G: Game>(
    mut staging: Staging,
    settings: &Settings<G::Options>,
    program: &str,
    form: &FormUsed,
    found: &Found,
    summary: &ProgramSummary,
    inputs: &[CaseFile],
) -> std::io::Result<(Vec<FindingLine>, Vec<Vec<String>>)> {
    let at = staging.dir().to_path_buf();
    let rules = settings.rules;
    let form_text = form.form.map_or("none", |f| f.as_str());
    let mut rows = Vec::new();
    let mut lines = Vec::new();
    let mut written = BTreeMap::new();
    for (i, (sig, kept, count)) in found.findings.iter().enumerate() {
        let number = i + 1;
        let stem = stem::<G>(&kept.source, rules);
        for (ext, bytes) in [
            ("in", &kept.input[..]),
            ("ans", kept.tried.expected.as_bytes()),
            ("out", &kept.tried.run.stdout[..]),
            ("err", &kept.tried.run.stderr_tail[..]),
        ] {
            let name = format!("{stem}.{ext}");
            staging.file(&name, bytes)?;
            written.insert(name, Digest::of(bytes, 1));
        }
        let input = format!("{stem}.in");
        rows.push(vec![
            number.to_string(),
            kept.kind.as_str().to_string(),
            G::NAME.to_string(),
            rules.name().to_string(),
            input.clone(),
            escape(kept.tried.expected.as_bytes(), 200),
            escape(&kept.tried.run.stdout, 200),
            exit_text(kept.tried.run.ending),
            kept.tried.run.elapsed.as_millis().to_string(),
            sig.clone(),
            count.to_string(),
            kept.confirmed.clone(),
            detail(kept, settings.limits.timeout.as_secs_f64()),
            kept.source.column(),
            form_text.to_string(),
            if kept.outside.is_some() {
                "outside-contest"
            } else {
                "contest"
            }
            .to_string(),
            format!("{program} < {input}"),
            escape(&kept.tried.run.stderr_tail, 1000),
        ]);
        lines.push(FindingLine {
            number,
            kind: kept.kind,
            signature: sig.clone(),
            count: *count,
            input: at.join(&input),
            confirmed: kept.confirmed.clone(),
            outside: kept
                .outside
                .as_ref()
                .map(|(allowed, has)| format!("they allow {allowed}, the case has {has}")),
            source: kept.source.clone(),
            bytes: kept.input.len(),
            size: kept.size.clone(),
        });
    }
    let digest = staging.csv(FINDINGS, &FINDINGS_HEADER, &rows)?;
    let mut options = options(settings);
    options.insert("cmd".to_string(), program.to_string());
    options.insert("form-used".to_string(), form_text.to_string());
    options.insert("form-why".to_string(), form.why.clone());
    let judged: Vec<CaseFile> = inputs
        .iter()
        .filter(|f| settings.shard.is_none_or(|s| s.contains(&f.name)))
        .cloned()
        .collect();
    let mut manifest = Manifest::new(
        "audit",
        options,
        inputs,
        settings.shard.map(|s| (s, &judged[..])),
    );
    manifest.reports.insert(FINDINGS.into(), digest);
    manifest.reports.extend(written);
    staging.json(
        MANIFEST,
        &ProgramManifest {
            manifest,
            audit: summary,
        },
    )?;
    staging.commit()?;
    Ok((lines, rows))
}

/// `audit.json` of one program.
#[derive(Serialize)]
struct ProgramManifest<'a> {
    #[serde(flatten)]
    manifest: Manifest,
    audit: &'a ProgramSummary,
}

/// The options that change an audit's reports, by flag name.
pub fn options<O: RuleSet>(settings: &Settings<O>) -> BTreeMap<String, String> {
    let mut options = BTreeMap::new();
    let mut put = |k: &str, v: String| {
        options.insert(k.to_string(), v);
    };
    put("rules", settings.rules.name().to_string());
    put("seed", settings.seed.to_string());
    put("batch", settings.batch.to_string());
    put(
        "cases",
        settings.cases.map_or(String::new(), |c| c.to_string()),
    );
    put(
        "time",
        settings
            .time
            .map_or(String::new(), |t| t.as_secs_f64().to_string()),
    );
    put("timeout", settings.limits.timeout.as_secs_f64().to_string());
    put("keep-going", settings.keep_going.to_string());
    put("max-findings", settings.max_findings.to_string());
    put(
        "form",
        match settings.form {
            super::settings::FormRule::Asked(f) => f.as_str(),
            _ => "auto",
        }
        .to_string(),
    );
    put("constraints", settings.constraints.as_str().to_string());
    options
}
