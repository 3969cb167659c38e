//! The audit's reports: each finding's `.in` (in the program's form), `.ans`, `.out` and
//! `.err`, `findings.csv` and the manifest `audit.json`, replaced together.

use std::collections::BTreeMap;
use std::path::PathBuf;

use super::outcome::{exit_text, Tried};
use super::probe::Chosen;
use super::run::{stem, Settings};
use super::{Kind, Source};
use crate::answer::escape;
use crate::game::{Game, RuleSet};
use crate::harness::findings::Findings;
use crate::report::manifest::Manifest;
use crate::report::write::{Digest, Staging};

/// The findings report's file name.
const FINDINGS: &str = "findings.csv";
/// The manifest of an audit report directory.
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

/// A finding ready to report.
#[derive(Debug, Clone)]
pub struct Kept {
    /// Its kind as reported.
    pub kind: Kind,
    /// The kind its failure was first seen as (differs for `flaky` and `engine-disputed`).
    pub seen: Kind,
    /// Where its case comes from.
    pub source: Source,
    /// The shape of its case (none for a failure of a whole run).
    pub shape: Option<String>,
    /// Its case alone, in the game's single-case form.
    pub case: Vec<u8>,
    /// Its input, in the program's form.
    pub input: Vec<u8>,
    /// The run on it.
    pub tried: Tried,
    /// What the reference says (answers), or how it was reproduced (the other kinds).
    pub confirmed: String,
    /// Shrinking steps taken.
    pub shrink_steps: usize,
    /// Whether it fails only with the other cases of its run.
    pub batch_only: bool,
    /// Where its case lies outside the contest's limits.
    pub outside: Option<(String, String)>,
    /// More for the detail column.
    pub notes: Vec<String>,
}

/// One finding, as reported on standard error.
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
    /// Its case alone, in the game's single-case form (for a failure of a whole run, the
    /// run's first case).
    pub case: Vec<u8>,
    /// Whether it fails only with the other cases of its run.
    pub batch_only: bool,
}

/// The detail column of a finding.
fn detail(kept: &Kept, settings_timeout: f64) -> String {
    let mut detail = kept.source.describe();
    if kept.shrink_steps > 0 {
        detail.push_str(&format!(", shrunk in {} steps", kept.shrink_steps));
    }
    if kept.batch_only {
        detail.push_str(", fails only with the other cases of its run");
    }
    if kept.seen == Kind::Timeout {
        detail.push_str(&format!(", killed after {settings_timeout:.1} s"));
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

/// Writes every finding's files, `findings.csv` and the manifest, and puts them in place.
pub fn write_reports<G: Game>(
    mut staging: Staging,
    settings: &Settings<G::Options>,
    chosen: &Chosen,
    findings: &Findings<Kept>,
    inputs: &[crate::walk::CaseFile],
) -> std::io::Result<(Vec<FindingLine>, Vec<Vec<String>>)> {
    let dir = staging.dir().to_path_buf();
    let rules = settings.rules;
    let program = settings.program.display();
    let mut rows = Vec::new();
    let mut lines = Vec::new();
    let mut written = BTreeMap::new();
    for (i, (sig, kept, count)) in findings.iter().enumerate() {
        let number = i + 1;
        let stem = stem::<G>(&kept.source, rules);
        let files = [
            ("in", kept.input.clone()),
            ("ans", kept.tried.expected.clone().into_bytes()),
            ("out", kept.tried.run.stdout.clone()),
            ("err", kept.tried.run.stderr_tail.clone()),
        ];
        for (ext, bytes) in &files {
            let name = format!("{stem}.{ext}");
            staging.file(&name, bytes)?;
            written.insert(name, Digest::of(bytes, 1));
        }
        let input = format!("{stem}.in");
        let limits = if kept.outside.is_some() {
            "outside-contest"
        } else {
            "contest"
        };
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
            chosen.form.as_str().to_string(),
            limits.to_string(),
            format!("{program} < {input}"),
            escape(&kept.tried.run.stderr_tail, 1000),
        ]);
        lines.push(FindingLine {
            number,
            kind: kept.kind,
            signature: sig.clone(),
            count: *count,
            input: dir.join(&input),
            confirmed: kept.confirmed.clone(),
            outside: kept
                .outside
                .as_ref()
                .map(|(allowed, has)| format!("they allow {allowed}, the case has {has}")),
            source: kept.source.clone(),
            case: kept.case.clone(),
            batch_only: kept.batch_only,
        });
    }
    let digest = staging.csv(FINDINGS, &FINDINGS_HEADER, &rows)?;
    let mut options = BTreeMap::new();
    options.insert("cmd".to_string(), program);
    options.insert("rules".to_string(), rules.name().to_string());
    options.insert("seed".to_string(), settings.seed.to_string());
    options.insert("batch".to_string(), settings.batch.to_string());
    options.insert(
        "cases".to_string(),
        settings.cases.map_or(String::new(), |c| c.to_string()),
    );
    options.insert(
        "time".to_string(),
        settings
            .time
            .map_or(String::new(), |t| t.as_secs_f64().to_string()),
    );
    options.insert("keep-going".to_string(), settings.keep_going.to_string());
    options.insert(
        "max-findings".to_string(),
        settings.max_findings.to_string(),
    );
    options.insert(
        "form".to_string(),
        settings.form.map_or("auto", |f| f.as_str()).to_string(),
    );
    options.insert("form-used".to_string(), chosen.form.as_str().to_string());
    options.insert("form-why".to_string(), chosen.why.clone());
    options.insert(
        "constraints".to_string(),
        settings.constraints.as_str().to_string(),
    );
    let judged: Vec<crate::walk::CaseFile> = inputs
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
    staging.json(MANIFEST, &manifest)?;
    staging.commit()?;
    Ok((lines, rows))
}
