//! `referee stress`: seeded random differential testing on stable Rust. Generates cases with the
//! game's generator, cross-examines each, and on the first divergence (or, with `keep_going`, the
//! first of each signature) writes it at once (the input, and a regression vector ready to
//! keep), then shrinks it to a minimal one that still diverges, within the shrink time and the
//! run's `--time`, and writes the shrunk case in its place; and says how to reproduce it. At the
//! end the report directory gets `findings.csv` and the manifest `stress.json`. A case that
//! takes longer than the per-case limit (an implementation that loops forever) is saved too,
//! and ends the process.
//!
//! Case `i` of a run is drawn from its own random stream ([`Rng::for_item`]) of the seed, so a
//! shard (`--shard K/N`) runs the case indices congruent to K - 1 modulo N and N shards search
//! disjoint parts of one run.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::detect::file_suffix;
use crate::error::RunError;
use crate::game::Case;
use crate::game::{Game, RuleSet};
use crate::harness::findings::{signature, Findings};
use crate::harness::regression::{Expectation, Regression};
use crate::harness::{cross_examine, shrink, Divergence};
use crate::random::{Entropy, Rng};
use crate::report::manifest::Manifest;
use crate::report::write::Staging;
use crate::shard::Shard;
use crate::watchdog::Watchdog;

/// When to stop.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The run's seed.
    pub seed: u64,
    /// Stop after this many cases.
    pub cases: Option<u64>,
    /// Stop after this long.
    pub time: Option<Duration>,
    /// The longest one case may take to judge (both implementations) before it counts as a
    /// hang; every judgement while shrinking too.
    pub case_time: Duration,
    /// The most time spent shrinking one divergence (and never past `time`).
    pub shrink_time: Duration,
    /// Run the whole budget, keeping one divergence per signature, instead of stopping at the
    /// first.
    pub keep_going: bool,
    /// The most divergences kept with `keep_going`.
    pub max_findings: usize,
    /// Count the structural features of the cases ([`Game::features`]).
    pub stats: bool,
    /// Run only this slice of the case indices.
    pub shard: Option<Shard>,
}

/// A divergence found, shrunk and saved.
#[derive(Debug, Clone)]
pub struct Finding {
    /// The 0-based number of the case that diverged first.
    pub case: u64,
    /// The shrunk input file.
    pub file: PathBuf,
    /// The shrunk case as a regression vector.
    pub regression: PathBuf,
    /// How the implementations disagree on the shrunk case.
    pub divergence: Divergence,
    /// The shrunk case's rule set (empty for the default).
    pub rules: String,
    /// What tells it apart from other divergences: the two sides' verdicts and the case's shape.
    pub signature: String,
    /// How many divergent cases share its signature.
    pub count: u64,
}

/// What a stress run did.
#[derive(Debug)]
pub struct Report {
    /// Cases judged.
    pub cases: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// The divergences kept: the first one, or with `keep_going` one per signature.
    pub findings: Vec<Finding>,
    /// Divergences of new signatures beyond the most kept.
    pub dropped: u64,
    /// The structural features the cases showed (counted with `stats` only).
    pub stats: Stats,
}

/// The name of a saved case: game, seed, case number, and the rule set's file-name suffix.
fn stem<G: Game>(seed: u64, case: u64, rules: Option<G::Options>) -> String {
    let suffix = rules.map_or(String::new(), file_suffix);
    format!("{}-seed{seed}-case{case}{suffix}", G::NAME)
}

/// Runs random cases of `G` (under `rules`, or a random rule set per case) until the limits,
/// or until engine and reference diverge.
pub fn run<G: Game>(
    limits: Limits,
    rules: Option<G::Options>,
    out: &Path,
) -> Result<Report, RunError> {
    // The report directory is checked (and its staging directory made) before any work.
    let staging = Staging::new(out).map_err(|e| RunError::io(out, e))?;
    let started = Instant::now();
    let max_cases = match (limits.cases, limits.time) {
        (None, None) => Some(10_000),
        (c, _) => c,
    };
    let mut cases = 0;
    let mut next = 0u64;
    let hang_out = out.to_path_buf();
    let (seed, case_time) = (limits.seed, limits.case_time);
    let watchdog = Watchdog::spawn(case_time, move |case, input| {
        let file = hang_out.join(format!("{}-hang.in", stem::<G>(seed, case, rules)));
        let saved = fs::create_dir_all(&hang_out).and_then(|()| fs::write(&file, input));
        let name = G::NAME;
        match saved {
            Ok(()) => eprintln!(
                "error: stress {name}: case {case} (seed {seed}) not judged within {:.1} s: \
                 an implementation does not finish; saved to {}",
                case_time.as_secs_f64(),
                file.display()
            ),
            Err(e) => eprintln!(
                "error: stress {name}: case {case} (seed {seed}) not judged within {:.1} s, \
                 and it could not be saved: {}: {e}",
                case_time.as_secs_f64(),
                file.display()
            ),
        }
        std::process::exit(1);
    });
    // Cross-examines a case under the watchdog; a panic is a divergence too.
    let judged = |case: u64, input: &[u8], rules: G::Options| -> Result<(), Divergence> {
        watchdog.judging(case, input);
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            cross_examine::<G>(input, rules)
        }))
        .unwrap_or_else(|panic| {
            let message = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            Err(Divergence {
                engine: format!("panicked: {message}"),
                reference: String::new(),
                gist: "panic".to_string(),
            })
        });
        watchdog.idle();
        result
    };
    let quiet = QuietPanics::install();
    let shape = <G::Case as Case>::Shape::default();
    let mut findings: Findings<Finding> = Findings::new(limits.max_findings);
    // The signature each divergence's gist was kept under (only the first is shrunk).
    let mut gists: BTreeMap<String, String> = BTreeMap::new();
    let mut stats = Stats::new(G::FEATURES);
    loop {
        let index = limits.shard.map_or(next, |s| s.nth(next));
        let done = max_cases.is_some_and(|m| index >= m)
            || limits.time.is_some_and(|t| started.elapsed() >= t)
            || (!limits.keep_going && !findings.is_empty());
        if done {
            drop(quiet);
            let report = Report {
                cases,
                elapsed: started.elapsed(),
                findings: findings
                    .iter()
                    .map(|(_, f, count)| Finding {
                        count: *count,
                        ..f.clone()
                    })
                    .collect(),
                dropped: findings.dropped,
                stats,
            };
            write_reports::<G>(staging, &limits, rules, &report)
                .map_err(|e| RunError::io(out, e))?;
            return Ok(report);
        }
        next += 1;
        let mut rng = Rng::for_item(limits.seed, index);
        let case = G::Case::generate(&mut rng, rules, &shape);
        let malformed = rng.chance(MALFORMED);
        let input = if malformed {
            case.corrupt(&mut rng)
        } else {
            case.input()
        };
        cases += 1;
        if limits.stats {
            stats.count::<G>(&input, case.options(), malformed);
        }
        let Err(first) = judged(index, &input, case.options()) else {
            continue;
        };
        if let Some(signature) = gists.get(&first.gist) {
            findings.add(signature.clone(), || {
                unreachable!("known signatures are counted")
            });
            continue;
        }
        if findings.len() >= limits.max_findings {
            findings.dropped += 1;
            continue;
        }
        let options = case.options();
        let stem = stem::<G>(limits.seed, index, Some(options));
        let file = out.join(format!("{stem}.in"));
        let regression = out.join(format!("{stem}.regression.txt"));
        let rules_name = if options == G::Options::default() {
            String::new()
        } else {
            options.name().to_string()
        };
        let save = |input: &[u8], signature: &str, divergence: &Divergence| {
            let vector = Regression {
                game: G::NAME.to_string(),
                rules: rules_name.clone(),
                expect: Expectation::Agree,
                why: format!(
                    "found by referee stress {} --seed {} (case {}), signature {signature}: {}",
                    G::NAME,
                    limits.seed,
                    index,
                    divergence.to_string().replace('\n', "; ")
                ),
                input: input.to_vec(),
            };
            fs::create_dir_all(out)
                .and_then(|()| fs::write(&file, input))
                .and_then(|()| fs::write(&regression, vector.to_bytes()))
                .map_err(|e| RunError::io(&file, e))
        };
        // Written at once, before shrinking: whatever happens next, the divergence is kept.
        save(&input, &signature("divergence", &[&first.gist]), &first)?;
        // Shrinking stops at the shrink time and at the end of --time.
        let until = [
            Some(Instant::now() + limits.shrink_time),
            limits.time.map(|t| started + t),
        ]
        .into_iter()
        .flatten()
        .min();
        // A generated case shrinks by the game's shrinker, a malformed input byte by byte.
        let (small, label): (Vec<u8>, String) = if malformed {
            let small = shrink_bytes(input, |bytes| judged(index, bytes, options).is_err(), until);
            (small, "malformed".to_string())
        } else {
            let small = shrink(
                case.clone(),
                |c| judged(index, &c.input(), c.options()).is_err(),
                until,
            );
            (small.input(), small.shape_label())
        };
        let divergence =
            judged(index, &small, options).expect_err("the shrunk case still diverges");
        let signature = signature("divergence", &[&divergence.gist, &label]);
        gists.insert(first.gist, signature.clone());
        save(&small, &signature, &divergence)?;
        findings.add(signature.clone(), || Finding {
            case: index,
            file,
            regression,
            divergence,
            rules: rules_name,
            signature,
            count: 1,
        });
    }
}

/// The findings report's file name.
pub const FINDINGS: &str = "findings.csv";
/// The manifest of a stress report directory.
pub const MANIFEST: &str = "stress.json";
/// The columns of `findings.csv`: one row per signature kept, first found first.
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

/// The options of a run that change its findings, by flag name, for the manifest.
fn options<G: Game>(limits: &Limits, rules: Option<G::Options>) -> BTreeMap<String, String> {
    let text = |v: Option<String>| v.unwrap_or_default();
    [
        ("game", G::NAME.to_string()),
        ("rules", text(rules.map(|r| r.name().to_string()))),
        ("seed", limits.seed.to_string()),
        ("cases", text(limits.cases.map(|c| c.to_string()))),
        (
            "time",
            text(limits.time.map(|t| t.as_secs_f64().to_string())),
        ),
        ("keep-going", limits.keep_going.to_string()),
        ("max-findings", limits.max_findings.to_string()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// A file's name within the report directory.
fn name_in_dir(path: &Path) -> String {
    path.file_name()
        .map_or(String::new(), |n| n.to_string_lossy().to_string())
}

/// The rows of `findings.csv` (columns [`FINDINGS_HEADER`]) for the findings of `report`, a
/// run of `game`.
pub fn finding_rows(game: &str, report: &Report) -> Vec<Vec<String>> {
    report
        .findings
        .iter()
        .enumerate()
        .map(|(i, f)| {
            vec![
                (i + 1).to_string(),
                game.to_string(),
                f.rules.clone(),
                f.case.to_string(),
                f.signature.clone(),
                f.count.to_string(),
                name_in_dir(&f.file),
                name_in_dir(&f.regression),
                f.divergence.engine.clone(),
                f.divergence.reference.clone(),
            ]
        })
        .collect()
}

/// Writes `findings.csv` and the manifest, and puts them in place beside the findings' files.
fn write_reports<G: Game>(
    mut staging: Staging,
    limits: &Limits,
    rules: Option<G::Options>,
    report: &Report,
) -> std::io::Result<()> {
    let rows = finding_rows(G::NAME, report);
    let digest = staging.csv(FINDINGS, &FINDINGS_HEADER, rows)?;
    let mut manifest = Manifest::new(
        "stress",
        options::<G>(limits, rules),
        &[],
        limits.shard.map(|s| (s, &[][..])),
    );
    manifest.reports.insert(FINDINGS.into(), digest);
    // The findings' files, written as they were found, belong to this run.
    for f in &report.findings {
        for path in [&f.file, &f.regression] {
            let digest = crate::report::write::Digest::of_file(path, 1)?;
            manifest.reports.insert(name_in_dir(path), digest);
        }
    }
    staging.json(MANIFEST, &manifest)?;
    staging.commit()
}

/// The share of cases whose input is made malformed ([`Case::corrupt`]).
pub const MALFORMED: f64 = 0.15;

/// Shrinks a failing input byte by byte: drops lines (many at once first), then single bytes
/// (for inputs of at most 4 KiB), while it still fails and `until` has not passed.
fn shrink_bytes(input: Vec<u8>, fails: impl Fn(&[u8]) -> bool, until: Option<Instant>) -> Vec<u8> {
    let mut best = input;
    let over = || until.is_some_and(|u| Instant::now() >= u);
    'outer: loop {
        if over() {
            return best;
        }
        let (lines, ends) = crate::harness::corrupt::lines(&best);
        let mut chunk = lines.len() / 2;
        while chunk >= 1 {
            for start in (0..lines.len()).step_by(chunk) {
                let mut kept = lines.clone();
                kept.drain(start..(start + chunk).min(lines.len()));
                let candidate = crate::harness::corrupt::join(&kept, ends);
                if over() {
                    return best;
                }
                if candidate.len() < best.len() && fails(&candidate) {
                    best = candidate;
                    continue 'outer;
                }
            }
            chunk /= 2;
        }
        if best.len() <= 4096 {
            for i in 0..best.len() {
                let mut candidate = best.clone();
                candidate.remove(i);
                if over() {
                    return best;
                }
                if fails(&candidate) {
                    best = candidate;
                    continue 'outer;
                }
            }
        }
        return best;
    }
}

/// How often each structural feature of the game turned up in a run (`--stats`).
#[derive(Debug, Clone)]
pub struct Stats {
    /// Each feature of [`Game::FEATURES`], with the cases that showed it, in order.
    pub features: Vec<(&'static str, u64)>,
    /// Malformed inputs.
    pub malformed: u64,
    /// Cases counted.
    pub cases: u64,
}

impl Stats {
    fn new(features: &'static [&'static str]) -> Stats {
        Stats {
            features: features.iter().map(|&f| (f, 0)).collect(),
            malformed: 0,
            cases: 0,
        }
    }

    fn count<G: Game>(&mut self, input: &[u8], options: G::Options, malformed: bool) {
        self.cases += 1;
        if malformed {
            self.malformed += 1;
        }
        let judged = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            G::judge(crate::game::Engine::Fast, &mut &input[..], options)
        }));
        let Ok(judgements) = judged else {
            return;
        };
        let Ok(judgements) = judgements else {
            return;
        };
        for feature in G::features(input, options, &judgements) {
            if let Some(slot) = self.features.iter_mut().find(|f| f.0 == feature) {
                slot.1 += 1;
            }
        }
    }

    /// The features that no case showed.
    pub fn missing(&self) -> Vec<&'static str> {
        let mut missing: Vec<&'static str> = self
            .features
            .iter()
            .filter(|f| f.1 == 0)
            .map(|f| f.0)
            .collect();
        if self.malformed == 0 {
            missing.push("malformed input");
        }
        missing
    }
}

/// Keeps panics quiet while stress catches them (they are reported as divergences); the
/// previous hook comes back when dropped.
struct QuietPanics;

impl QuietPanics {
    fn install() -> QuietPanics {
        std::panic::set_hook(Box::new(|_| {}));
        QuietPanics
    }
}

impl Drop for QuietPanics {
    fn drop(&mut self) {
        let _ = std::panic::take_hook();
    }
}
