//! The hunt for divergences: cases drawn, cross-examined, saved at once and shrunk.

use super::*;

/// The name of a saved case: game, seed, case number, and the rule set's file-name suffix.
fn stem<G: Game>(seed: u64, case: u64, rules: Option<G::Options>) -> String {
    let suffix = rules.map_or(String::new(), file_suffix);
    format!("{}-seed{seed}-case{case}{suffix}", G::NAME)
}

/// Runs random cases of `G` (under `rules`, or a random rule set per case) until the limits,
/// or until engine and reference diverge.
pub fn run<G: Game + Generated + Referenced>(
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
    let watchdog = hang_watchdog::<G>(&limits, rules, out);
    let quiet = QuietPanics::install();
    let mut hunt = Hunt::<G> {
        limits,
        rules,
        out,
        started,
        watchdog: &watchdog,
        cases: 0,
        findings: Findings::new(limits.max_findings),
        gists: BTreeMap::new(),
        stats: Stats::new(G::FEATURES),
    };
    let mut next = 0u64;
    loop {
        let index = limits.shard.map_or(next, |s| s.nth(next));
        let done = max_cases.is_some_and(|m| index >= m)
            || limits.time.is_some_and(|t| started.elapsed() >= t)
            || (!limits.keep_going && !hunt.findings.is_empty());
        if done {
            break;
        }
        next += 1;
        hunt.case(index)?;
    }
    drop(quiet);
    let report = hunt.report();
    write_reports::<G>(staging, &limits, rules, &report).map_err(|e| RunError::io(out, e))?;
    Ok(report)
}

/// A watchdog that saves a case no implementation finishes within `--case-time` (as
/// `...-hang.in` in `out`) and ends the process with exit 1.
fn hang_watchdog<G: Game>(limits: &Limits, rules: Option<G::Options>, out: &Path) -> Watchdog {
    let hang_out = out.to_path_buf();
    let (seed, case_time) = (limits.seed, limits.case_time);
    Watchdog::spawn(case_time, move |case, input| {
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
    })
}

/// A stress run in progress.
struct Hunt<'a, G: Game> {
    limits: Limits,
    rules: Option<G::Options>,
    out: &'a Path,
    started: Instant,
    watchdog: &'a Watchdog,
    cases: u64,
    findings: Findings<Finding>,
    /// The signature each divergence's gist was kept under (only the first is shrunk).
    gists: BTreeMap<String, String>,
    stats: Stats,
}

impl<G: Game + Generated + Referenced> Hunt<'_, G> {
    /// Cross-examines case `case`'s `input` under the watchdog; a panic is a divergence too.
    fn judged(&self, case: u64, input: &[u8], rules: G::Options) -> Result<(), Divergence> {
        self.watchdog.judging(case, input);
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
        self.watchdog.idle();
        result
    }

    /// Draws and cross-examines random case `index`; a divergence of a new signature is saved,
    /// shrunk and kept.
    fn case(&mut self, index: u64) -> Result<(), RunError> {
        let mut rng = Rng::for_item(self.limits.seed, index);
        let case = G::Case::generate(&mut rng, self.rules, &<G::Case as Case>::Shape::default());
        let malformed = rng.chance(MALFORMED);
        let input = if malformed {
            case.corrupt(&mut rng)
        } else {
            case.input()
        };
        self.cases += 1;
        if self.limits.stats {
            self.stats.count::<G>(&input, case.options(), malformed);
        }
        let Err(first) = self.judged(index, &input, case.options()) else {
            return Ok(());
        };
        if let Some(signature) = self.gists.get(&first.gist) {
            self.findings.add(signature.clone(), || {
                unreachable!("known signatures are counted")
            });
            return Ok(());
        }
        if self.findings.len() >= self.limits.max_findings {
            self.findings.dropped += 1;
            return Ok(());
        }
        self.diverged(index, &case, input, malformed, first)
    }

    /// Saves the divergence `first` of case `index` at once, shrinks it, saves the shrunk case
    /// in its place, and keeps it.
    fn diverged(
        &mut self,
        index: u64,
        case: &G::Case,
        input: Vec<u8>,
        malformed: bool,
        first: Divergence,
    ) -> Result<(), RunError> {
        let options = case.options();
        let stem = stem::<G>(self.limits.seed, index, Some(options));
        let saved = Saved::<G> {
            file: self.out.join(format!("{stem}.in")),
            regression: self.out.join(format!("{stem}.regression.txt")),
            rules: if options == G::Options::default() {
                String::new()
            } else {
                options.name().to_string()
            },
            seed: self.limits.seed,
            index,
            game: std::marker::PhantomData,
        };
        // Written at once, before shrinking: whatever happens next, the divergence is kept.
        saved.save(&input, &signature("divergence", &[&first.gist]), &first)?;
        // Shrinking stops at the shrink time and at the end of --time.
        let until = [
            Some(Instant::now() + self.limits.shrink_time),
            self.limits.time.map(|t| self.started + t),
        ]
        .into_iter()
        .flatten()
        .min();
        // A generated case shrinks by the game's shrinker, a malformed input byte by byte.
        let (small, label): (Vec<u8>, String) = if malformed {
            let small = shrink_bytes(input, |b| self.judged(index, b, options).is_err(), until);
            (small, "malformed".to_string())
        } else {
            let fails = |c: &G::Case| self.judged(index, &c.input(), c.options()).is_err();
            let small = shrink(case.clone(), fails, until);
            (small.input(), small.shape_label())
        };
        let divergence = self
            .judged(index, &small, options)
            .expect_err("the shrunk case still diverges");
        let signature = signature("divergence", &[&divergence.gist, &label]);
        self.gists.insert(first.gist, signature.clone());
        saved.save(&small, &signature, &divergence)?;
        self.findings.add(signature.clone(), || Finding {
            case: index,
            file: saved.file.clone(),
            regression: saved.regression.clone(),
            divergence,
            rules: saved.rules.clone(),
            signature,
            count: 1,
        });
        Ok(())
    }

    /// What the run did.
    fn report(self) -> Report {
        Report {
            cases: self.cases,
            elapsed: self.started.elapsed(),
            findings: self
                .findings
                .iter()
                .map(|(_, f, count)| Finding {
                    count: *count,
                    ..f.clone()
                })
                .collect(),
            dropped: self.findings.dropped,
            stats: self.stats,
        }
    }
}

/// Where a divergence is saved: its input and its regression vector.
struct Saved<G: Game> {
    file: PathBuf,
    regression: PathBuf,
    rules: String,
    seed: u64,
    index: u64,
    game: std::marker::PhantomData<G>,
}

impl<G: Game> Saved<G> {
    /// Writes `input` and its regression vector (of `signature` and `divergence`).
    fn save(&self, input: &[u8], signature: &str, divergence: &Divergence) -> Result<(), RunError> {
        let vector = Regression {
            game: G::NAME.to_string(),
            rules: self.rules.clone(),
            expect: Expectation::Agree,
            why: format!(
                "found by referee stress {} --seed {} (case {}), signature {signature}: {}",
                G::NAME,
                self.seed,
                self.index,
                divergence.to_string().replace('\n', "; ")
            ),
            input: input.to_vec(),
        };
        let dir = self.file.parent().unwrap_or(Path::new("."));
        fs::create_dir_all(dir)
            .and_then(|()| fs::write(&self.file, input))
            .and_then(|()| fs::write(&self.regression, vector.to_bytes()))
            .map_err(|e| RunError::io(&self.file, e))
    }
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
        let (lines, ends) = crate::game::corrupt::lines(&best);
        let mut chunk = lines.len() / 2;
        while chunk >= 1 {
            for start in (0..lines.len()).step_by(chunk) {
                let mut kept = lines.clone();
                kept.drain(start..(start + chunk).min(lines.len()));
                let candidate = crate::game::corrupt::join(&kept, ends);
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
    /// Each feature of [`Generated::FEATURES`], with the cases that showed it, in order.
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

    fn count<G: Game + Generated>(&mut self, input: &[u8], options: G::Options, malformed: bool) {
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
