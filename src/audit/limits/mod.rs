//! Limits an organiser can trust: the time and memory limits a problem should have, advised from
//! repeated runs of its submissions on its data ([`Measured`]), with the noise of those runs.
//!
//! The time limit follows the package format's rule ([`TimeRules`]): `ac_to_time_limit` times
//! the slowest accepted time, rounded up to a multiple of `time_resolution`. Each program's time
//! on a file is the range of its runs' CPU times: the *upper* end of an accepted program's runs
//! decides the limit (every run of it must pass), the *lower* end of a program expected to time
//! out is what must exceed `time_limit_to_tle` times the limit (every run of it must fail). The
//! memory limit is the least step of [`MEMORY_STEPS_MIB`] (then whole GiB) at or above
//! [`MEMORY_FACTOR`] times the most memory an accepted run held.
//!
//! Everything here is arithmetic over measurements: the runs themselves are the pipeline's.

pub mod page;
pub mod repeat;

use serde::{Deserialize, Serialize};

use crate::audit::contest::entrants::Class;
use crate::audit::Kind;
pub use crate::judge_system::problem_yaml::TimeRules;

/// Runs of each program on each data file, unless `--repeat` says otherwise.
pub const DEFAULT_REPEAT: usize = 5;

/// The advised memory limit is at least this many times the most an accepted run held.
pub const MEMORY_FACTOR: u64 = 2;

/// The steps a memory limit is rounded up to, in MiB (then whole GiB).
pub const MEMORY_STEPS_MIB: [u64; 6] = [64, 128, 256, 512, 1024, 2048];

/// The address space PyPy needs to start, in MiB: problemtools and BAPCtools run Python 3
/// under PyPy and bound memory by `RLIMIT_AS`, and PyPy 7.3 reserves its nursery at start
/// ("cannot allocate nursery", then `SIGABRT`) under 320 MiB (`ulimit -v 307200; pypy3 -c 1`
/// aborts, `ulimit -v 327680` runs).
pub const RUNTIME_FLOOR_PYPY_MIB: u64 = 320;

/// The memory limit a language's runtime on the judge systems needs before the program holds
/// anything, in MiB, when it is more than the program's own: the address space PyPy reserves
/// for Python 3. No other runtime needs one (the systems set no address-space limit for the
/// JVM).
pub fn runtime_floor_mib(language: &str) -> Option<u64> {
    (language == "Python 3").then_some(RUNTIME_FLOOR_PYPY_MIB)
}

/// What the advice needs besides the runs: how many, and the package's rules and memory limit.
#[derive(Debug, Clone, PartialEq)]
pub struct Advising {
    /// Runs of each program on each data file; 0 gives no advice.
    pub repeat: usize,
    /// The package's time rules (or the format's defaults).
    pub rules: TimeRules,
    /// The memory limit the package sets, in MiB.
    pub set_memory_mib: Option<u64>,
}

/// One program's runs on one data file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FileRuns {
    /// The data file.
    pub file: String,
    /// Each run's CPU time, in seconds, in the order run.
    pub cpu: Vec<f64>,
    /// Each run's peak memory, in bytes.
    pub memory: Vec<u64>,
    /// How its last run failed, when it did: no run follows a failure, and a timeout's time
    /// is the cap it was stopped at (its time is at least that).
    pub failed: Option<Kind>,
}

impl FileRuns {
    /// The fastest run's CPU time.
    pub fn low(&self) -> f64 {
        self.cpu.iter().copied().fold(f64::INFINITY, f64::min)
    }

    /// The slowest run's CPU time.
    pub fn high(&self) -> f64 {
        self.cpu.iter().copied().fold(0.0, f64::max)
    }

    /// The spread of its runs: slowest minus fastest.
    pub fn noise(&self) -> f64 {
        if self.cpu.is_empty() {
            0.0
        } else {
            self.high() - self.low()
        }
    }

    /// The most memory a run held.
    pub fn peak(&self) -> u64 {
        self.memory.iter().copied().max().unwrap_or(0)
    }

    /// Whether a run was stopped at the cap: its time is at least the cap.
    pub fn timed_out(&self) -> bool {
        self.failed == Some(Kind::Timeout)
    }
}

/// One program's repeated runs on the data.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Measured {
    /// The program.
    pub program: String,
    /// Its class: accepted, or expected to time out or to run out of memory.
    pub class: Class,
    /// The language it is written in, when known.
    pub language: Option<String>,
    /// Its runs on each data file, in the data's order.
    pub files: Vec<FileRuns>,
}

impl Measured {
    /// Its file of the slowest run (the upper end), when it ran any.
    fn slowest_high(&self) -> Option<&FileRuns> {
        self.ran().max_by(|a, b| a.high().total_cmp(&b.high()))
    }

    /// Its file whose fastest run is the slowest (the lower end): the file that times it out
    /// most surely.
    fn slowest_low(&self) -> Option<&FileRuns> {
        self.ran().max_by(|a, b| a.low().total_cmp(&b.low()))
    }

    fn ran(&self) -> impl Iterator<Item = &FileRuns> {
        self.files.iter().filter(|f| !f.cpu.is_empty())
    }

    /// Whether each of its files ran to its end without failing.
    fn passed(&self) -> bool {
        self.files.iter().all(|f| f.failed.is_none())
    }
}

/// A program's time on a data file: the range of its runs.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Spot {
    /// The program.
    pub program: String,
    /// The data file.
    pub file: String,
    /// Its fastest run, in seconds.
    pub low: f64,
    /// Its slowest run, in seconds.
    pub high: f64,
    /// Whether a run was stopped at the cap (`high` is a lower bound).
    pub capped: bool,
}

impl Spot {
    fn of(program: &str, runs: &FileRuns) -> Spot {
        Spot {
            program: program.to_string(),
            file: runs.file.clone(),
            low: runs.low(),
            high: runs.high(),
            capped: runs.timed_out(),
        }
    }

    /// `0.120-0.131 s` (`over 0.56 s` when stopped at the cap).
    pub fn range(&self) -> String {
        if self.capped {
            format!("over {:.3} s", self.low)
        } else if self.high - self.low < 0.0005 {
            format!("{:.3} s", self.high)
        } else {
            format!("{:.3}-{:.3} s", self.low, self.high)
        }
    }
}

/// The time limit one language's accepted programs need on their own.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LanguageTime {
    /// The language.
    pub language: String,
    /// Its slowest accepted program's slowest file.
    pub slowest: Spot,
    /// The limit the rule gives it alone, in seconds.
    pub time_limit: f64,
}

/// What a warning is about, for tests and machines; its text says what to do.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Concern {
    /// An accepted program's runs come within their noise of the limit.
    AcceptedNearLimit,
    /// An accepted program fails a data file on its own (its runs cannot set a limit).
    AcceptedFails,
    /// A program expected to time out passes every data file within the limit.
    TleNotTimedOut,
    /// A program expected to time out does, but under the margin's `time_limit_to_tle`.
    TleWithinMargin,
    /// A program expected to run out of memory holds less than the memory limit.
    MleNotExceeded,
    /// `problem.yaml`'s limit contradicts the measurements.
    SetLimitContradicted,
    /// One limit does not fit every language.
    PerLanguage,
}

/// A warning: what it is about, and in words, what to do.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Warning {
    /// What it is about.
    pub concern: Concern,
    /// The program it is about, if one.
    pub program: Option<String>,
    /// What was measured and what to do.
    pub text: String,
}

/// The advice on a problem's limits, with what it comes from.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Advice {
    /// Runs of each program on each file asked for (`--repeat`).
    pub repeat: usize,
    /// The package's rules (or the format's defaults).
    pub rules: TimeRules,
    /// The memory limit `problem.yaml` sets, in MiB.
    pub set_memory_mib: Option<u64>,
    /// Every program's runs.
    pub measured: Vec<Measured>,
    /// The advised time limit, in seconds: none without an accepted program that ran the data.
    pub time_limit: Option<f64>,
    /// The slowest accepted program's slowest file: the run that decides the time limit.
    pub deciding: Option<Spot>,
    /// The files on which some accepted program comes within its noise of its own slowest time
    /// (the data's time tests, from the accepted side).
    pub time_tests: Vec<String>,
    /// The limit against the slowest accepted run (2.0 means twice as long).
    pub accepted_margin: Option<f64>,
    /// The program expected to time out that comes closest to passing, on the file that
    /// times it out most surely.
    pub closest_tle: Option<Spot>,
    /// Its fastest run against the limit times `time_limit_to_tle` (over 1.0 means it fails
    /// with the margin to spare).
    pub tle_margin: Option<f64>,
    /// The files that time out a program expected to time out, beyond the margin.
    pub tle_tests: Vec<String>,
    /// The most memory an accepted run held, and where.
    pub peak_memory: Option<(String, String, u64)>,
    /// The advised memory limit, in MiB.
    pub memory_mib: Option<u64>,
    /// The language of an accepted program whose runtime needs more memory than the runs held
    /// ([`runtime_floor_mib`]), and how much, when that raises the limit.
    #[serde(default)]
    pub memory_floor: Option<(String, u64)>,
    /// Each language's own limit, when the accepted programs are of several.
    pub languages: Vec<LanguageTime>,
    /// Whether one limit is too loose for some language ([`Concern::PerLanguage`]).
    pub per_language: bool,
    /// What to look at, and what to do.
    pub warnings: Vec<Warning>,
    /// What `--add-to` changed in the package's files, a line each.
    #[serde(default)]
    pub written: Vec<String>,
}

impl Advice {
    /// The files whose runs the budget cut short (fewer than `repeat`, none failed).
    pub fn cut_short(&self) -> usize {
        self.measured
            .iter()
            .flat_map(|m| &m.files)
            .filter(|f| self.ran_short(f))
            .count()
    }

    /// Whether the budget cut `runs` short: fewer than `repeat`, none failed.
    fn ran_short(&self, runs: &FileRuns) -> bool {
        runs.cpu.len() < self.repeat && runs.failed.is_none()
    }

    /// What the runs lack for the limits to be written into a package, in words: the
    /// accepted programs' data files (of `data_files`) with fewer than `repeat` runs, none
    /// failed; `None` when every accepted program ran its repeats on every file.
    pub fn missing(&self, data_files: usize) -> Option<String> {
        let accepted = self.measured.iter().filter(|m| m.class == Class::Accepted);
        let short: usize = accepted
            .map(|m| {
                let cut = m.files.iter().filter(|f| self.ran_short(f)).count();
                cut + data_files.saturating_sub(m.files.len())
            })
            .sum();
        (short > 0).then(|| {
            format!(
                "{short} accepted program-file pair{} ran fewer than {} time{} (the budget, \
                 --time, ended them): limits are written from complete measurements only",
                plural(short),
                self.repeat,
                plural(self.repeat)
            )
        })
    }

    /// The rule the advice follows, and how it was measured, in a sentence.
    pub fn rule_text(&self) -> String {
        let r = &self.rules;
        let files = self
            .measured
            .iter()
            .map(|m| m.files.len())
            .max()
            .unwrap_or(0);
        let cut = match self.cut_short() {
            0 => String::new(),
            n => format!(
                " ({n} program-file pair{} with fewer runs: the budget, --time, ended them)",
                plural(n)
            ),
        };
        format!(
            "{} run{} of each program on each of {} data file{}{cut} (CPU time; the spread of \
             a file's runs is its noise); the rule ({}{}): {} x the slowest accepted run, \
             rounded up to {}; an expected time-out must take over {} x the limit",
            self.repeat,
            plural(self.repeat),
            files,
            plural(files),
            if r.from_package {
                "problem.yaml's, format "
            } else {
                "the defaults of format "
            },
            r.format,
            r.ac_to_time_limit,
            seconds(r.time_resolution, r),
            r.time_limit_to_tle
        )
    }

    /// The advised memory limit and what it comes from.
    fn memory_fact(&self) -> Option<String> {
        let (mib, (program, file, bytes)) = (self.memory_mib?, self.peak_memory.as_ref()?);
        let held = bytes.div_ceil(1 << 20);
        let from = match &self.memory_floor {
            Some((language, floor)) => format!(
                "the step at or above the {floor} MiB of address space PyPy needs to start, \
                 which runs {language} on problemtools and BAPCtools; {program} held {held} MiB \
                 on {file}"
            ),
            None => {
                format!("{MEMORY_FACTOR} x the {held} MiB {program} held on {file}, rounded up to a step")
            }
        };
        let set = self.set_memory_mib.map_or(String::new(), |set| {
            format!("; problem.yaml sets {set} MiB")
        });
        Some(format!("{mib} MiB ({from}){set}"))
    }

    /// The advice as (what, in words) pairs: the limits and what they come from, the margins,
    /// the time tests, each warning (`warning`) and each change `--add-to` made (`written`).
    pub fn facts(&self) -> Vec<(&'static str, String)> {
        let r = &self.rules;
        let mut facts = Vec::new();
        facts.push((
            "time limit",
            match (&self.time_limit, &self.deciding) {
                (Some(limit), Some(d)) => format!(
                    "{}, from {} on {} ({}; the limit is {:.1} x its slowest run){}",
                    seconds(*limit, r),
                    d.program,
                    d.file,
                    d.range(),
                    self.accepted_margin.unwrap_or(0.0),
                    r.time_limit.map_or(String::new(), |set| format!(
                        "; problem.yaml sets {}",
                        seconds(set, r)
                    ))
                ),
                _ => "none advised (no accepted program ran every data file)".into(),
            },
        ));
        if let (Some(c), Some(margin)) = (&self.closest_tle, self.tle_margin) {
            facts.push((
                "closest expected time-out",
                format!(
                    "{} on {}, {} (its fastest run is {:.2} x the limit x {})",
                    c.program,
                    c.file,
                    c.range(),
                    margin,
                    r.time_limit_to_tle
                ),
            ));
        }
        if let Some(memory) = self.memory_fact() {
            facts.push(("memory limit", memory));
        }
        if !self.languages.is_empty() {
            facts.push((
                "per language",
                format!(
                    "{}: {}",
                    self.languages
                        .iter()
                        .map(|l| format!("{} {}", l.language, seconds(l.time_limit, r)))
                        .collect::<Vec<_>>()
                        .join(", "),
                    if self.per_language {
                        "per-language limits needed"
                    } else {
                        "one limit fits"
                    }
                ),
            ));
        }
        if !self.time_tests.is_empty() {
            facts.push(("decided by", self.time_tests.join(", ")));
        }
        if !self.tle_tests.is_empty() {
            facts.push((
                "time tests (an expected time-out fails them beyond the margin)",
                self.tle_tests.join(", "),
            ));
        }
        facts.extend(self.warnings.iter().map(|w| ("warning", w.text.clone())));
        facts.extend(self.written.iter().map(|c| ("written", c.clone())));
        facts
    }

    /// The advice in words, a line each: the rule, then each fact indented.
    pub fn lines(&self) -> Vec<String> {
        let mut lines = vec![format!("limits: {}", self.rule_text())];
        lines.extend(
            self.facts()
                .into_iter()
                .map(|(what, text)| format!("  {what}: {text}")),
        );
        lines
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

impl Advice {
    /// The limits to write into a package: the advised ones, the time limit at the rule's
    /// resolution.
    pub fn to_write(&self) -> crate::judge_system::package::limits::Limits {
        crate::judge_system::package::limits::Limits {
            time: self.time_limit.map(|t| {
                format!(
                    "{:.*}",
                    resolution_digits(self.rules.time_resolution).max(1),
                    t
                )
            }),
            memory_mib: self.memory_mib,
            per_language: if self.per_language {
                self.languages
                    .iter()
                    .map(|l| {
                        let digits = resolution_digits(self.rules.time_resolution).max(1);
                        (l.language.clone(), format!("{:.*}", digits, l.time_limit))
                    })
                    .collect()
            } else {
                Vec::new()
            },
        }
    }
}

/// `secs` rounded up to a multiple of `resolution` (one at least).
pub fn round_up(secs: f64, resolution: f64) -> f64 {
    let steps = (secs / resolution - 1e-9).ceil().max(1.0);
    // Printed at the resolution's precision, so 0.30000000000000004 is 0.3.
    let digits = resolution_digits(resolution);
    let scale = 10f64.powi(digits as i32);
    (steps * resolution * scale).round() / scale
}

/// The decimals a multiple of `resolution` needs.
fn resolution_digits(resolution: f64) -> usize {
    (0..6)
        .find(|&d| {
            let scaled = resolution * 10f64.powi(d);
            (scaled - scaled.round()).abs() < 1e-9
        })
        .unwrap_or(6) as usize
}

/// The time limit the rule gives for a slowest accepted time of `slowest` seconds.
pub fn time_limit(slowest: f64, rules: &TimeRules) -> f64 {
    round_up(slowest * rules.ac_to_time_limit, rules.time_resolution)
}

/// The memory limit for a most memory held of `bytes`: the least step at or above
/// [`MEMORY_FACTOR`] times it, in MiB.
pub fn memory_limit_mib(bytes: u64) -> u64 {
    memory_step((bytes * MEMORY_FACTOR).div_ceil(1 << 20))
}

/// The least memory step at or above `need` MiB.
fn memory_step(need: u64) -> u64 {
    MEMORY_STEPS_MIB
        .into_iter()
        .find(|&step| step >= need)
        .unwrap_or_else(|| need.div_ceil(1024) * 1024)
}

/// Seconds as written in advice: at least the resolution's precision, up to milliseconds,
/// no trailing zeros past the first decimal (`0.3 s`, `0.45 s`, `1.0 s`).
pub fn seconds(secs: f64, rules: &TimeRules) -> String {
    let digits = resolution_digits(rules.time_resolution).max(3);
    let text = format!("{secs:.digits$}");
    let trimmed = text.trim_end_matches('0');
    let text = if trimmed.ends_with('.') {
        format!("{trimmed}0")
    } else {
        trimmed.to_string()
    };
    format!("{text} s")
}

/// The advice from `measured` under `rules`, with `set_memory_mib` the memory limit
/// `problem.yaml` sets.
pub fn advise(
    measured: Vec<Measured>,
    rules: TimeRules,
    set_memory_mib: Option<u64>,
    repeat: usize,
) -> Advice {
    let accepted: Vec<&Measured> = measured
        .iter()
        .filter(|m| m.class == Class::Accepted && m.passed() && m.ran().next().is_some())
        .collect();
    let deciding = accepted
        .iter()
        .filter_map(|m| m.slowest_high().map(|f| Spot::of(&m.program, f)))
        .max_by(|a, b| a.high.total_cmp(&b.high));
    let advised = deciding.as_ref().map(|d| time_limit(d.high, &rules));
    let in_effect = rules.time_limit.or(advised);
    let mut warnings = Vec::new();
    let time_tests = time_tests(&accepted);
    accepted_failing(&measured, &mut warnings);
    if let Some(limit) = in_effect {
        accepted_near(&accepted, limit, &rules, &mut warnings);
    }
    let (closest_tle, tle_margin, tle_tests) = match in_effect {
        Some(limit) => tle_checks(&measured, limit, &rules, &mut warnings),
        None => (None, None, Vec::new()),
    };
    let peak_memory = accepted
        .iter()
        .flat_map(|m| m.ran().map(move |f| (m, f)))
        .max_by_key(|(_, f)| f.peak())
        .map(|(m, f)| (m.program.clone(), f.file.clone(), f.peak()));
    let held_mib = peak_memory.as_ref().map(|p| memory_limit_mib(p.2));
    let memory_floor = accepted
        .iter()
        .filter_map(|m| {
            let language = m.language.as_deref()?;
            Some((language.to_string(), runtime_floor_mib(language)?))
        })
        .max_by_key(|floor| floor.1)
        .filter(|floor| held_mib.is_some_and(|held| memory_step(floor.1) > held));
    let memory_mib = match &memory_floor {
        Some(floor) => Some(memory_step(floor.1)),
        None => held_mib,
    };
    if let Some(memory) = set_memory_mib.or(memory_mib) {
        memory_checks(
            &measured,
            memory,
            set_memory_mib,
            &peak_memory,
            &mut warnings,
        );
    }
    if let Some(d) = &deciding {
        set_limit_contradicted(d, advised, &rules, &mut warnings);
    }
    let (languages, per_language) = languages(&accepted, advised, &rules, &mut warnings);
    Advice {
        repeat,
        accepted_margin: advised
            .zip(deciding.as_ref())
            .map(|(l, d)| l / d.high.max(1e-6)),
        deciding,
        time_tests,
        time_limit: advised,
        closest_tle,
        tle_margin,
        tle_tests,
        peak_memory,
        memory_mib,
        memory_floor,
        languages,
        per_language,
        warnings,
        written: Vec::new(),
        rules,
        set_memory_mib,
        measured,
    }
}

/// The data files on which an accepted program's slowest run, within its noise, is: the files
/// that decide the time limit.
fn time_tests(accepted: &[&Measured]) -> Vec<String> {
    let mut time_tests = Vec::new();
    for m in accepted {
        let Some(slowest) = m.slowest_high() else {
            continue;
        };
        for f in m.ran() {
            if f.high() + slowest.noise() >= slowest.high() && !time_tests.contains(&f.file) {
                time_tests.push(f.file.clone());
            }
        }
    }
    time_tests
}

/// Warns of each program expected accepted that fails a data file.
fn accepted_failing(measured: &[Measured], out: &mut Vec<Warning>) {
    for m in measured.iter().filter(|m| m.class == Class::Accepted) {
        if let Some(f) = m.files.iter().find(|f| f.failed.is_some()) {
            out.push(Warning {
                concern: Concern::AcceptedFails,
                program: Some(m.program.clone()),
                text: format!(
                    "{}: expected accepted, but {} on {} (of its runs there, {} ended): its \
                     times set no limit; fix it or move it out of accepted/",
                    m.program,
                    f.failed.map_or("fails", Kind::as_str),
                    f.file,
                    f.cpu.len()
                ),
            });
        }
    }
}

/// Warns when `problem.yaml`'s time limit is under the deciding run `d`.
fn set_limit_contradicted(
    d: &Spot,
    advised: Option<f64>,
    rules: &TimeRules,
    out: &mut Vec<Warning>,
) {
    let Some(set) = rules.time_limit else { return };
    if d.high > set {
        out.push(Warning {
            concern: Concern::SetLimitContradicted,
            program: Some(d.program.clone()),
            text: format!(
                "problem.yaml's time_limit {} is under {}'s {} on {}: it would time out; \
                 the rule gives {}",
                seconds(set, rules),
                d.program,
                d.range(),
                d.file,
                seconds(advised.unwrap_or(set), rules)
            ),
        });
    }
}

/// Warns of each accepted program whose slowest run, plus its noise, reaches `limit`.
fn accepted_near(accepted: &[&Measured], limit: f64, rules: &TimeRules, out: &mut Vec<Warning>) {
    for m in accepted {
        let Some(f) = m.slowest_high() else { continue };
        if f.high() + f.noise() >= limit {
            out.push(Warning {
                concern: Concern::AcceptedNearLimit,
                program: Some(m.program.clone()),
                text: format!(
                    "{}: {} on {} against the {} limit: within its own noise ({:.3} s) of it; \
                     raise the limit or make it faster",
                    m.program,
                    Spot::of(&m.program, f).range(),
                    f.file,
                    seconds(limit, rules),
                    f.noise()
                ),
            });
        }
    }
}

/// The checks of the programs expected to time out against `limit`: the one closest to
/// passing and its margin, the files that time any out beyond the margin; a warning for each
/// that passes, or fails only within the margin.
fn tle_checks(
    measured: &[Measured],
    limit: f64,
    rules: &TimeRules,
    out: &mut Vec<Warning>,
) -> (Option<Spot>, Option<f64>, Vec<String>) {
    let beyond = limit * rules.time_limit_to_tle;
    let mut closest: Option<Spot> = None;
    let mut tests = Vec::new();
    for m in measured
        .iter()
        .filter(|m| m.class == Class::TimeLimitExceeded)
    {
        let Some(f) = m.slowest_low() else { continue };
        let spot = Spot::of(&m.program, f);
        for g in m.ran().filter(|g| g.low() > beyond) {
            if !tests.contains(&g.file) {
                tests.push(g.file.clone());
            }
        }
        if spot.low <= limit {
            out.push(Warning {
                concern: Concern::TleNotTimedOut,
                program: Some(m.program.clone()),
                text: format!(
                    "{}: expected to time out, but no data file takes it over the {} limit; the \
                     closest is {} ({}): add a test that makes it slow, or lower the limit",
                    m.program,
                    seconds(limit, rules),
                    f.file,
                    spot.range()
                ),
            });
        } else if spot.low <= beyond {
            out.push(Warning {
                concern: Concern::TleWithinMargin,
                program: Some(m.program.clone()),
                text: format!(
                    "{}: times out, but only within the margin: {} on {}, under {} x the limit \
                     ({}); a faster judge machine accepts it: make that test harder, or lower \
                     the limit",
                    m.program,
                    spot.range(),
                    f.file,
                    rules.time_limit_to_tle,
                    seconds(beyond, rules)
                ),
            });
        }
        if closest.as_ref().is_none_or(|c| spot.low < c.low) {
            closest = Some(spot);
        }
    }
    let margin = closest.as_ref().map(|c| c.low / beyond);
    (closest, margin, tests)
}

/// The checks of memory against `memory` MiB (the set limit, else the advised one).
fn memory_checks(
    measured: &[Measured],
    memory: u64,
    set: Option<u64>,
    peak: &Option<(String, String, u64)>,
    out: &mut Vec<Warning>,
) {
    let bytes = memory << 20;
    if let (Some(set), Some((program, file, held))) = (set, peak) {
        if *held > bytes {
            out.push(Warning {
                concern: Concern::SetLimitContradicted,
                program: Some(program.clone()),
                text: format!(
                    "problem.yaml's memory {set} MiB is under what {program} holds on {file} \
                     ({} MiB): it would run out of memory",
                    held.div_ceil(1 << 20)
                ),
            });
        }
    }
    for m in measured
        .iter()
        .filter(|m| m.class == Class::MemoryLimitExceeded)
    {
        let over = m
            .files
            .iter()
            .any(|f| f.failed == Some(Kind::MemoryLimit) || f.peak() > bytes);
        if !over {
            let most = m.files.iter().max_by_key(|f| f.peak());
            out.push(Warning {
                concern: Concern::MleNotExceeded,
                program: Some(m.program.clone()),
                text: format!(
                    "{}: expected to run out of memory, but holds at most {} MiB{} under the \
                     {memory} MiB limit: add a test that makes it grow, or lower the limit",
                    m.program,
                    most.map_or(0, |f| f.peak().div_ceil(1 << 20)),
                    most.map_or(String::new(), |f| format!(" (on {})", f.file))
                ),
            });
        }
    }
}

/// Each language's own limit, when the accepted programs are of several, and whether one
/// limit is too loose for some: a program of that language `time_limit_to_tle` times slower
/// than its own limit would still pass the one limit.
fn languages(
    accepted: &[&Measured],
    advised: Option<f64>,
    rules: &TimeRules,
    out: &mut Vec<Warning>,
) -> (Vec<LanguageTime>, bool) {
    let mut names: Vec<&str> = accepted
        .iter()
        .filter_map(|m| m.language.as_deref())
        .collect();
    names.sort_unstable();
    names.dedup();
    if names.len() < 2 {
        return (Vec::new(), false);
    }
    let languages: Vec<LanguageTime> = names
        .iter()
        .filter_map(|&language| {
            let slowest = accepted
                .iter()
                .filter(|m| m.language.as_deref() == Some(language))
                .filter_map(|m| m.slowest_high().map(|f| Spot::of(&m.program, f)))
                .max_by(|a, b| a.high.total_cmp(&b.high))?;
            Some(LanguageTime {
                language: language.to_string(),
                time_limit: time_limit(slowest.high, rules),
                slowest,
            })
        })
        .collect();
    let Some(one) = advised else {
        return (languages, false);
    };
    let loose: Vec<&LanguageTime> = languages
        .iter()
        .filter(|l| l.time_limit * rules.time_limit_to_tle < one)
        .collect();
    if !loose.is_empty() {
        out.push(Warning {
            concern: Concern::PerLanguage,
            program: None,
            text: format!(
                "one limit of {} does not fit every language: {}; a submission {} x too slow \
                 in {} still passes it: set per-language limits (DMOJ's language-specific resource limits)",
                seconds(one, rules),
                languages
                    .iter()
                    .map(|l| format!("{} needs {}", l.language, seconds(l.time_limit, rules)))
                    .collect::<Vec<_>>()
                    .join(", "),
                rules.time_limit_to_tle,
                loose
                    .iter()
                    .map(|l| l.language.as_str())
                    .collect::<Vec<_>>()
                    .join(" or ")
            ),
        });
    }
    let per_language = !loose.is_empty();
    (languages, per_language)
}

/// The advice of several shards of one audit: each program's runs on every shard's files.
pub fn merge(advices: &[&Advice]) -> Option<Advice> {
    let first = advices.first()?;
    let mut measured: Vec<Measured> = Vec::new();
    for advice in advices {
        for m in &advice.measured {
            match measured.iter_mut().find(|n| n.program == m.program) {
                Some(n) => n.files.extend(m.files.iter().cloned()),
                None => measured.push(m.clone()),
            }
        }
    }
    Some(advise(
        measured,
        first.rules.clone(),
        first.set_memory_mib,
        first.repeat,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn runs(file: &str, cpu: &[f64], memory_mib: u64) -> FileRuns {
        FileRuns {
            file: file.to_string(),
            cpu: cpu.to_vec(),
            memory: cpu.iter().map(|_| memory_mib << 20).collect(),
            failed: None,
        }
    }

    fn program(name: &str, class: Class, language: &str, files: Vec<FileRuns>) -> Measured {
        Measured {
            program: name.to_string(),
            class,
            language: Some(language.to_string()),
            files,
        }
    }

    fn rules(resolution: f64) -> TimeRules {
        TimeRules {
            time_resolution: resolution,
            ..TimeRules::defaults("2025-09")
        }
    }

    fn concerns(advice: &Advice) -> Vec<(Concern, Option<String>)> {
        advice
            .warnings
            .iter()
            .map(|w| (w.concern, w.program.clone()))
            .collect()
    }

    #[test]
    fn rounding_is_up_to_the_resolution_and_printed_at_its_precision() {
        assert_eq!(round_up(0.24, 0.1), 0.3);
        assert_eq!(round_up(0.3, 0.1), 0.3);
        assert_eq!(round_up(0.0001, 1.0), 1.0);
        assert_eq!(round_up(2.01, 1.0), 3.0);
        assert_eq!(round_up(0.26, 0.25), 0.5);
        assert_eq!(seconds(0.3, &rules(0.1)), "0.3 s");
        assert_eq!(seconds(3.0, &rules(1.0)), "3.0 s");
        assert_eq!(seconds(0.25, &rules(0.05)), "0.25 s");
        assert_eq!(seconds(0.3 * 1.5, &rules(0.1)), "0.45 s");
    }

    #[test]
    fn the_memory_limit_is_the_step_over_twice_the_peak() {
        assert_eq!(memory_limit_mib(10 << 20), 64);
        assert_eq!(memory_limit_mib(100 << 20), 256);
        assert_eq!(memory_limit_mib(128 << 20), 256);
        assert_eq!(memory_limit_mib((128 << 20) + 1), 512);
        assert_eq!(memory_limit_mib(1500 << 20), 3072);
    }

    #[test]
    fn limits_are_written_from_complete_measurements_only() {
        let measured = |second: &[f64]| {
            vec![
                program(
                    "accepted/a.c",
                    Class::Accepted,
                    "C",
                    vec![runs("1.in", &[0.05, 0.06], 10), runs("2.in", second, 20)],
                ),
                program(
                    "time_limit_exceeded/t.c",
                    Class::TimeLimitExceeded,
                    "C",
                    vec![runs("1.in", &[0.5], 10)],
                ),
            ]
        };
        let complete = advise(measured(&[0.1, 0.1]), rules(0.1), None, 2);
        assert_eq!(
            complete.missing(2),
            None,
            "an expected time-out may run less"
        );
        // The budget cut the second file's runs short: nothing is written, and it says why.
        let cut = advise(measured(&[0.1]), rules(0.1), None, 2);
        let said = cut.missing(2).unwrap();
        assert!(
            said.starts_with("1 accepted program-file pair ran fewer than 2 times"),
            "{said}"
        );
        // A data file it never ran.
        assert!(complete.missing(3).unwrap().starts_with("1 accepted"));
    }

    #[test]
    fn the_limit_is_the_rule_over_the_slowest_accepted_runs_upper_end() {
        let measured = vec![
            program(
                "accepted/a.c",
                Class::Accepted,
                "C",
                vec![
                    runs("1.in", &[0.05, 0.06], 10),
                    runs("2.in", &[0.10, 0.12], 20),
                ],
            ),
            program(
                "accepted/b.c",
                Class::Accepted,
                "C",
                vec![runs("1.in", &[0.02, 0.03], 100), runs("2.in", &[0.04], 5)],
            ),
        ];
        let advice = advise(measured, rules(0.1), None, 2);
        assert_eq!(advice.time_limit, Some(0.3), "2 x 0.12 rounded up to 0.1");
        let deciding = advice.deciding.as_ref().unwrap();
        assert_eq!(
            (deciding.program.as_str(), deciding.file.as_str()),
            ("accepted/a.c", "2.in")
        );
        assert!(
            (deciding.high - deciding.low - 0.02).abs() < 1e-9,
            "the noise is the spread"
        );
        assert_eq!(advice.time_tests, vec!["2.in".to_string()]);
        assert_eq!(advice.memory_mib, Some(256), "2 x 100 MiB");
        assert_eq!(advice.peak_memory.as_ref().unwrap().0, "accepted/b.c");
        assert!(advice.warnings.is_empty(), "{:?}", advice.warnings);
        assert!(!advice.per_language && advice.languages.is_empty());
    }

    #[test]
    fn the_memory_limit_leaves_pypy_room_to_start_when_python_is_accepted() {
        // 20 MiB held: 64 MiB for C, but PyPy, which runs Python 3 on problemtools and
        // BAPCtools under an address-space limit, needs 320 MiB to start.
        let c = program(
            "accepted/a.c",
            Class::Accepted,
            "C",
            vec![runs("1.in", &[0.1], 20)],
        );
        let advice = advise(vec![c.clone()], rules(0.1), None, 1);
        assert_eq!(advice.memory_mib, Some(64));
        assert_eq!(advice.memory_floor, None);
        let python = program(
            "accepted/a.py",
            Class::Accepted,
            "Python 3",
            vec![runs("1.in", &[0.1], 20)],
        );
        let advice = advise(vec![c, python], rules(0.1), None, 1);
        assert_eq!(advice.memory_mib, Some(512));
        assert_eq!(
            advice.memory_floor,
            Some(("Python 3".to_string(), RUNTIME_FLOOR_PYPY_MIB))
        );
        let said = advice.facts().into_iter().find(|f| f.0 == "memory limit");
        assert!(said.unwrap().1.contains("PyPy"), "{:?}", advice.facts());
    }

    /// An accepted program whose runs on its one file took 0.10 and 0.12 s.
    fn accepted_a() -> Measured {
        program(
            "accepted/a.c",
            Class::Accepted,
            "C",
            vec![runs("1.in", &[0.1, 0.12], 1)],
        )
    }

    #[test]
    fn the_tle_warnings_fire_when_they_should_and_not_otherwise() {
        let accepted = accepted_a();
        let tle = |name: &str, secs: &[f64]| {
            program(
                name,
                Class::TimeLimitExceeded,
                "C",
                vec![runs("1.in", secs, 1), runs("2.in", &[0.01], 1)],
            )
        };
        let mut capped = tle("time_limit_exceeded/slow.c", &[0.56]);
        capped.files[0].failed = Some(Kind::Timeout);
        let measured = vec![
            accepted.clone(),
            capped,
            tle("time_limit_exceeded/passes.c", &[0.2, 0.25]),
            tle("time_limit_exceeded/margin.c", &[0.35, 0.4]),
        ];
        // The limit is 0.3 s: 0.2-0.25 passes, 0.35-0.40 is under 1.5 x 0.3 = 0.45.
        let advice = advise(measured, rules(0.1), None, 2);
        assert_eq!(advice.time_limit, Some(0.3));
        assert_eq!(
            concerns(&advice),
            vec![
                (
                    Concern::TleNotTimedOut,
                    Some("time_limit_exceeded/passes.c".into())
                ),
                (
                    Concern::TleWithinMargin,
                    Some("time_limit_exceeded/margin.c".into())
                ),
            ]
        );
        assert!(advice.warnings[0]
            .text
            .contains("the closest is 1.in (0.200-0.250 s)"));
        assert_eq!(
            advice.closest_tle.as_ref().unwrap().program,
            "time_limit_exceeded/passes.c"
        );
        assert_eq!(advice.tle_tests, vec!["1.in".to_string()]);
    }

    #[test]
    fn the_accepted_warnings_fire_when_they_should_and_not_otherwise() {
        let accepted = accepted_a();
        // problem.yaml's 0.11 s is within the accepted 0.10-0.12 s, and under its slowest run.
        let set = TimeRules {
            time_limit: Some(0.11),
            ..rules(0.1)
        };
        let advice = advise(vec![accepted.clone()], set, Some(1), 2);
        assert_eq!(
            concerns(&advice),
            vec![
                (Concern::AcceptedNearLimit, Some("accepted/a.c".into())),
                (Concern::SetLimitContradicted, Some("accepted/a.c".into())),
            ]
        );
        let advice = advise(vec![accepted.clone()], rules(0.1), Some(1000), 2);
        assert!(advice.warnings.is_empty());
    }

    #[test]
    fn the_memory_warnings_fire_when_they_should_and_not_otherwise() {
        // Memory: an expected-MLE program under the limit; a set limit under the accepted peak.
        let mle = program(
            "memory_limit_exceeded/m.c",
            Class::MemoryLimitExceeded,
            "C",
            vec![runs("1.in", &[0.1], 30)],
        );
        let big = program(
            "accepted/big.c",
            Class::Accepted,
            "C",
            vec![runs("1.in", &[0.1], 100)],
        );
        let advice = advise(vec![big.clone(), mle.clone()], rules(0.1), None, 1);
        assert_eq!(
            concerns(&advice),
            vec![(
                Concern::MleNotExceeded,
                Some("memory_limit_exceeded/m.c".into())
            )]
        );
        let advice = advise(vec![big, mle], rules(0.1), Some(64), 1);
        assert_eq!(
            concerns(&advice),
            vec![
                (Concern::SetLimitContradicted, Some("accepted/big.c".into())),
                (
                    Concern::MleNotExceeded,
                    Some("memory_limit_exceeded/m.c".into())
                ),
            ]
        );
    }

    #[test]
    fn runs_the_budget_cut_short_are_said() {
        let whole = program(
            "accepted/a.c",
            Class::Accepted,
            "C",
            vec![runs("1.in", &[0.1, 0.1], 1)],
        );
        let advice = advise(vec![whole.clone()], rules(0.1), None, 2);
        assert_eq!(advice.cut_short(), 0);
        assert!(!advice.rule_text().contains("fewer runs"));
        let cut = program(
            "accepted/b.c",
            Class::Accepted,
            "C",
            vec![runs("1.in", &[0.1], 1)],
        );
        let advice = advise(vec![whole, cut], rules(0.1), None, 2);
        assert_eq!(advice.cut_short(), 1);
        assert!(advice
            .rule_text()
            .contains("(1 program-file pair with fewer runs: the budget"));
    }

    #[test]
    fn an_accepted_program_that_fails_sets_no_limit_and_is_named() {
        let mut failing = program(
            "accepted/a.c",
            Class::Accepted,
            "C",
            vec![runs("1.in", &[3.0], 1)],
        );
        failing.files[0].failed = Some(Kind::WrongAnswer);
        let advice = advise(vec![failing], rules(1.0), None, 5);
        assert_eq!(advice.time_limit, None);
        assert_eq!(
            concerns(&advice),
            vec![(Concern::AcceptedFails, Some("accepted/a.c".into()))]
        );
    }

    #[test]
    fn several_languages_get_their_own_limits_when_one_is_too_loose() {
        let c = program(
            "accepted/a.c",
            Class::Accepted,
            "C",
            vec![runs("1.in", &[0.1], 1)],
        );
        let py = program(
            "accepted/a.py",
            Class::Accepted,
            "Python 3",
            vec![runs("1.in", &[1.1], 1)],
        );
        let advice = advise(vec![c.clone(), py], rules(0.1), None, 1);
        assert_eq!(advice.time_limit, Some(2.2));
        let own: Vec<(&str, f64)> = advice
            .languages
            .iter()
            .map(|l| (l.language.as_str(), l.time_limit))
            .collect();
        assert_eq!(own, vec![("C", 0.2), ("Python 3", 2.2)]);
        assert!(advice.per_language);
        assert_eq!(concerns(&advice), vec![(Concern::PerLanguage, None)]);
        assert!(advice.warnings[0].text.contains("in C still passes"));
        // Close enough: one limit fits both.
        let java = program(
            "accepted/A.java",
            Class::Accepted,
            "Java",
            vec![runs("1.in", &[0.12], 1)],
        );
        let advice = advise(vec![c, java], rules(0.1), None, 1);
        assert!(!advice.per_language && advice.warnings.is_empty());
    }

    #[test]
    fn shards_merge_into_the_advice_of_the_whole_data() {
        let part = |file: &str, secs: f64| {
            advise(
                vec![program(
                    "accepted/a.c",
                    Class::Accepted,
                    "C",
                    vec![runs(file, &[secs], 1)],
                )],
                rules(0.1),
                None,
                1,
            )
        };
        let (one, two) = (part("1.in", 0.1), part("2.in", 0.4));
        let merged = merge(&[&one, &two]).unwrap();
        assert_eq!(merged.time_limit, Some(0.8));
        assert_eq!(merged.measured[0].files.len(), 2);
    }
}
