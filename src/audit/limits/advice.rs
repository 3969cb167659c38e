//! The advice itself: the limits, the warnings and what they are about, merged over shards.

use serde::{Deserialize, Serialize};

use super::rules::resolution_digits;
use super::*;
use crate::audit::terms::Class;

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
    pub(super) fn ran_short(&self, runs: &FileRuns) -> bool {
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
    pub(super) fn memory_fact(&self) -> Option<String> {
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

pub(super) fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

impl Advice {
    /// The limits to write into a package: the advised ones, the time limit at the rule's
    /// resolution.
    pub fn to_write(&self) -> crate::package::limits::Limits {
        crate::package::limits::Limits {
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
