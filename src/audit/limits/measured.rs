//! What the advice is made from: each program's repeated runs on each data file.

use serde::{Deserialize, Serialize};

use crate::audit::terms::Class;
use crate::audit::terms::Kind;

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
    pub(super) fn slowest_high(&self) -> Option<&FileRuns> {
        self.ran().max_by(|a, b| a.high().total_cmp(&b.high()))
    }

    /// Its file whose fastest run is the slowest (the lower end): the file that times it out
    /// most surely.
    pub(super) fn slowest_low(&self) -> Option<&FileRuns> {
        self.ran().max_by(|a, b| a.low().total_cmp(&b.low()))
    }

    pub(super) fn ran(&self) -> impl Iterator<Item = &FileRuns> {
        self.files.iter().filter(|f| !f.cpu.is_empty())
    }

    /// Whether each of its files ran to its end without failing.
    pub(super) fn passed(&self) -> bool {
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
    pub(super) fn of(program: &str, runs: &FileRuns) -> Spot {
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
