//! The report files of a run: `findings.csv` and the manifest.

use super::*;

/// The findings report's file name.
pub const FINDINGS: &str = "findings.csv";
/// The manifest of a stress report directory.
pub const MANIFEST: &str = "stress.json";
/// The names a stress run's reports take in its report directory (besides each finding's
/// files).
pub const REPORTS: [&str; 2] = [FINDINGS, MANIFEST];
/// The columns of `findings.csv`: one row per signature kept, first found first (the fields
/// of [`FindingRow`]).
pub const FINDINGS_HEADER: [&str; 10] = [
    "finding",
    "game",
    "rules",
    "case",
    "signature",
    "count",
    "input",
    "regression",
    "engine",
    "reference",
];

/// One row of `findings.csv`, as written and as `referee merge` reads it back.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FindingRow {
    /// Its number, from 1.
    pub finding: usize,
    /// The game.
    pub game: String,
    /// The case's rule set (empty for the default).
    pub rules: String,
    /// The number of the case that diverged first.
    pub case: u64,
    /// Its signature.
    pub signature: String,
    /// How many divergent cases share it.
    pub count: u64,
    /// The shrunk input's file name.
    pub input: String,
    /// The regression vector's file name.
    pub regression: String,
    /// What the engine said.
    pub engine: String,
    /// What the reference said.
    pub reference: String,
}

impl FindingRow {
    /// Its cells, in the order of [`FINDINGS_HEADER`].
    pub fn cells(&self) -> Vec<String> {
        vec![
            self.finding.to_string(),
            self.game.clone(),
            self.rules.clone(),
            self.case.to_string(),
            self.signature.clone(),
            self.count.to_string(),
            self.input.clone(),
            self.regression.clone(),
            self.engine.clone(),
            self.reference.clone(),
        ]
    }

    /// The finding as CI outputs and the HTML report show it, its files in `dir`.
    pub fn shown(&self, dir: &Path) -> crate::formats::ci::ShownFinding {
        crate::formats::ci::ShownFinding {
            number: self.finding,
            game: self.game.clone(),
            rules: self.rules.clone(),
            status: "divergence".into(),
            signature: self.signature.clone(),
            count: self.count,
            input: dir.join(&self.input),
            data_file: None,
            sides: vec![
                ("engine".into(), self.engine.clone()),
                ("reference".into(), self.reference.clone()),
            ],
            facts: Vec::new(),
            columns: FINDINGS_HEADER
                .iter()
                .map(|h| h.to_string())
                .zip(self.cells())
                .collect(),
        }
    }
}

/// The options of a stress run that change its findings, as its manifest writes them (each
/// by its flag's name, as text); read back from older manifests, a missing one is its default.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default, rename_all = "kebab-case")]
pub struct StressOptions {
    /// The game.
    pub game: String,
    /// The rule set's name, or empty: every rule set in turn.
    pub rules: String,
    /// `--seed`.
    #[serde(with = "as_text::text")]
    pub seed: u64,
    /// `--cases`.
    #[serde(with = "as_text::optional")]
    pub cases: Option<u64>,
    /// `--time`, in seconds.
    #[serde(with = "as_text::optional")]
    pub time: Option<f64>,
    /// `--keep-going`.
    #[serde(with = "as_text::text")]
    pub keep_going: bool,
    /// `--max-findings`.
    #[serde(with = "as_text::text")]
    pub max_findings: usize,
}

impl StressOptions {
    /// The options of a run of `G` within `limits`, under `rules` (every rule set when none).
    fn of<G: Game>(limits: &Limits, rules: Option<G::Options>) -> StressOptions {
        StressOptions {
            game: G::NAME.to_string(),
            rules: rules.map_or(String::new(), |r| r.name().to_string()),
            seed: limits.seed,
            cases: limits.cases,
            time: limits.time.map(|t| t.as_secs_f64()),
            keep_going: limits.keep_going,
            max_findings: limits.max_findings,
        }
    }
}

/// A file's name within the report directory.
fn name_in_dir(path: &Path) -> String {
    path.file_name()
        .map_or(String::new(), |n| n.to_string_lossy().to_string())
}

/// The rows of `findings.csv` for the findings of `report`, a run of `game`.
pub fn finding_rows(game: &str, report: &Report) -> Vec<FindingRow> {
    report
        .findings
        .iter()
        .enumerate()
        .map(|(i, f)| FindingRow {
            finding: i + 1,
            game: game.to_string(),
            rules: f.rules.clone(),
            case: f.case,
            signature: f.signature.clone(),
            count: f.count,
            input: name_in_dir(&f.file),
            regression: name_in_dir(&f.regression),
            engine: f.divergence.engine.clone(),
            reference: f.divergence.reference.clone(),
        })
        .collect()
}

/// Writes `findings.csv` and the manifest, and puts them in place beside the findings' files.
pub(super) fn write_reports<G: Game>(
    mut staging: Staging,
    limits: &Limits,
    rules: Option<G::Options>,
    report: &Report,
) -> std::io::Result<()> {
    let rows = finding_rows(G::NAME, report);
    let digest = staging.csv(
        FINDINGS,
        &FINDINGS_HEADER,
        rows.iter().map(FindingRow::cells),
    )?;
    let mut manifest = Manifest::new(
        "stress",
        as_text::to_map(&StressOptions::of::<G>(limits, rules)),
        &[],
        limits.shard.map(|s| (s, &[][..])),
    );
    manifest.reports.insert(FINDINGS.into(), digest);
    // The findings' files, written as they were found, belong to this run.
    for f in &report.findings {
        for path in [&f.file, &f.regression] {
            let digest = crate::formats::write::Digest::of_file(path, 1)?;
            manifest.reports.insert(name_in_dir(path), digest);
        }
    }
    staging.json(MANIFEST, &manifest)?;
    staging.commit()
}
