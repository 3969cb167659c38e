//! How `--time` is shared between the audit's stages.
//!
//! Each stage ends at its share of `--time` at the latest: the existing data's runs at
//! [`DATA_SHARE`] (a judge system's verdicts, which the strengthening needs: a slow machine
//! may take longer than an idle one), the repeated runs of the limits' advice
//! [`REPEATS_SHARE`] after the data's end, the cases at [`CASES_SHARE`], the examination of the
//! failures they find at [`FINDINGS_SHARE`]; the strengthening takes the rest.
//!
//! The strengthening's screening runs every candidate (at most one per finding) on every
//! program that must pass it or that it may reject, so what it needs grows with the findings
//! and with the machine's load. The findings (and the cases) therefore end earlier when the
//! *reserve* needs it, so that a busy machine yields fewer findings, never candidates left
//! unscreened:
//!
//! ```text
//! reserve = RESERVE_FACTOR x findings kept x (sum over the screening programs of the mean
//!           wall-clock time of their runs so far) / --jobs
//! findings end = min(FINDINGS_SHARE of --time, --time's end - reserve)
//! cases end    = min(CASES_SHARE of --time, findings end)
//! ```
//!
//! The means are measured on the programs' own runs in this audit (their wall-clock time, so
//! a loaded machine's slower runs enlarge the reserve); a run on a data file or a unit of many
//! cases costs more than a candidate's one case, so the measure errs on the side of the
//! screening.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use referee_sandbox::Interrupt;
use serde::{Deserialize, Serialize};

/// The share of `--time` by which the existing data's runs end, at the latest.
const DATA_SHARE: f64 = 0.5;
/// The share of `--time` the repeated runs of the limits' advice may take after the data's.
const REPEATS_SHARE: f64 = 0.1;
/// By which the cases end, at the latest.
pub const CASES_SHARE: f64 = 0.75;
/// By which the examination of failures ends, at the latest.
const FINDINGS_SHARE: f64 = 0.9;
/// How many times the screening's estimated cost the reserve holds: a candidate that a program
/// fails is run twice more, and the estimate is of a noisy machine.
pub const RESERVE_FACTOR: u32 = 2;

/// The wall-clock time of one program's runs, shared by its runners.
#[derive(Debug, Clone, Default)]
pub struct Meter {
    runs: Arc<AtomicU64>,
    wall_nanos: Arc<AtomicU64>,
}

impl Meter {
    /// One run took `wall`.
    pub fn record(&self, wall: Duration) {
        let nanos = u64::try_from(wall.as_nanos()).unwrap_or(u64::MAX);
        self.wall_nanos.fetch_add(nanos, Ordering::Relaxed);
        self.runs.fetch_add(1, Ordering::Relaxed);
    }

    /// The mean wall-clock time of its runs (none before the first).
    pub fn mean(&self) -> Option<Duration> {
        let runs = self.runs.load(Ordering::Relaxed);
        (runs > 0).then(|| Duration::from_nanos(self.wall_nanos.load(Ordering::Relaxed) / runs))
    }
}

/// When each stage must end (every one `None` without `--time`).
#[derive(Debug)]
pub struct Deadlines {
    /// When the run started.
    pub started: Instant,
    /// `--time`.
    pub time: Option<Duration>,
    /// The existing data's runs.
    pub data: Option<Instant>,
    /// The cases' latest end.
    cases: Option<Instant>,
    /// The findings' latest end.
    findings: Option<Instant>,
    /// The whole run.
    pub end: Option<Instant>,
    /// Runs at once.
    jobs: u32,
    /// The programs that screen every candidate.
    screening: Mutex<Vec<Meter>>,
    /// Findings kept so far: each may be a candidate.
    findings_kept: AtomicU64,
    /// What ends the audit's runs at once, and stops it taking more.
    interrupt: Interrupt,
}

impl Deadlines {
    /// The deadlines of a run of `time` started now, `jobs` runs at once.
    pub fn new(time: Option<Duration>, jobs: usize, interrupt: Interrupt) -> Deadlines {
        let started = Instant::now();
        let at = |share: f64| time.map(|t| started + t.mul_f64(share));
        Deadlines {
            started,
            time,
            data: at(DATA_SHARE),
            cases: at(CASES_SHARE),
            findings: at(FINDINGS_SHARE),
            end: at(1.0),
            jobs: u32::try_from(jobs.max(1)).unwrap_or(u32::MAX),
            screening: Mutex::new(Vec::new()),
            findings_kept: AtomicU64::new(0),
            interrupt,
        }
    }

    /// Whether no more work is taken: the audit was interrupted, or `deadline` has passed.
    pub fn past(&self, deadline: Option<Instant>) -> bool {
        self.interrupt.past(deadline)
    }

    /// When the repeated runs of the limits' advice, starting now, end: their share later, or
    /// the cases' end when that comes first.
    pub fn repeats(&self) -> Option<Instant> {
        let share = Instant::now() + self.time?.mul_f64(REPEATS_SHARE);
        Some(share.min(self.cases?))
    }

    /// The programs whose runs measure the screening's cost: those that will run every
    /// candidate.
    pub fn screened_by(&self, meters: Vec<Meter>) {
        *self.screening.lock().unwrap_or_else(|e| e.into_inner()) = meters;
    }

    /// One more finding kept.
    pub fn finding_kept(&self) {
        self.findings_kept.fetch_add(1, Ordering::Relaxed);
    }

    /// What the screening of the findings kept so far is estimated to need.
    pub fn reserve(&self) -> Reserve {
        let meters = self.screening.lock().unwrap_or_else(|e| e.into_inner());
        let means: Vec<Duration> = meters.iter().filter_map(Meter::mean).collect();
        // A program with no run yet costs what the others do on average.
        let per_candidate = match means.len() {
            0 => Duration::ZERO,
            n => means.iter().sum::<Duration>() * meters.len() as u32 / n as u32,
        };
        let findings = self.findings_kept.load(Ordering::Relaxed);
        let time = per_candidate
            .saturating_mul(RESERVE_FACTOR)
            .saturating_mul(u32::try_from(findings).unwrap_or(u32::MAX))
            / self.jobs;
        Reserve {
            time,
            findings,
            programs: meters.len(),
            run: match meters.len() {
                0 => Duration::ZERO,
                n => per_candidate / n as u32,
            },
            jobs: self.jobs,
        }
    }

    /// When the examination of failures ends: the latest of its share, or earlier by the
    /// screening's reserve.
    pub fn findings(&self) -> Option<Instant> {
        let (end, latest) = (self.end?, self.findings?);
        let reserved = end
            .checked_sub(self.reserve().time)
            .unwrap_or(self.started)
            .max(self.started);
        Some(latest.min(reserved))
    }

    /// When the cases end: their share, or the findings' end when that comes first.
    pub fn cases(&self) -> Option<Instant> {
        Some(self.cases?.min(self.findings()?))
    }

    /// How the budget stood when the findings ended (now): `None` without `--time`.
    pub fn spent(&self) -> Option<BudgetSpent> {
        let (time, findings_end) = (self.time?, self.findings()?);
        Some(BudgetSpent {
            time,
            reserve: self.reserve(),
            findings_end: findings_end.saturating_duration_since(self.started),
            by_reserve: findings_end < self.findings?,
        })
    }
}

/// The screening's estimated need.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reserve {
    /// The time reserved.
    #[serde(with = "crate::audit::terms::seconds")]
    pub time: Duration,
    /// The findings kept (each a candidate at most).
    pub findings: u64,
    /// The programs that screen each candidate.
    pub programs: usize,
    /// Their mean wall-clock time per run.
    #[serde(with = "crate::audit::terms::seconds")]
    pub run: Duration,
    /// Runs at once.
    pub jobs: u32,
}

/// How `--time` was shared, when the findings ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BudgetSpent {
    /// `--time`.
    #[serde(with = "crate::audit::terms::seconds")]
    pub time: Duration,
    /// The strengthening's reserve then.
    pub reserve: Reserve,
    /// When the findings' deadline fell, from the run's start.
    #[serde(with = "crate::audit::terms::seconds")]
    pub findings_end: Duration,
    /// Whether the reserve moved it before its share of `--time`.
    pub by_reserve: bool,
}

impl BudgetSpent {
    /// In words, with `strengthening` the time the strengthening then took.
    pub fn text(&self, strengthening: Duration) -> String {
        let r = &self.reserve;
        let share = if self.by_reserve {
            "brought forward from its share of --time by the reserve"
        } else {
            "its share of --time"
        };
        format!(
            "--time {:.1} s: the findings' deadline {:.1} s ({share}); the strengthening's \
             screening reserve {:.1} s ({} finding{} x {} program{} x {:.3} s a run x {} / {} \
             job{}); the strengthening took {:.1} s",
            self.time.as_secs_f64(),
            self.findings_end.as_secs_f64(),
            r.time.as_secs_f64(),
            r.findings,
            plural(r.findings as usize),
            r.programs,
            plural(r.programs),
            r.run.as_secs_f64(),
            RESERVE_FACTOR,
            r.jobs,
            plural(r.jobs as usize),
            strengthening.as_secs_f64()
        )
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn metered(runs: &[u64]) -> Meter {
        let meter = Meter::default();
        for &ms in runs {
            meter.record(Duration::from_millis(ms));
        }
        meter
    }

    #[test]
    fn without_time_nothing_ends() {
        let d = Deadlines::new(None, 2, Interrupt::new());
        d.finding_kept();
        assert_eq!((d.cases(), d.findings(), d.end), (None, None, None));
        assert_eq!((d.data, d.repeats()), (None, None));
        assert!(d.spent().is_none());
    }

    #[test]
    fn the_findings_end_earlier_as_the_screenings_measured_cost_grows() {
        let d = Deadlines::new(Some(Duration::from_secs(100)), 2, Interrupt::new());
        let at = |t: Option<Instant>| t.unwrap().duration_since(d.started).as_secs_f64();
        // No finding: each stage at its share; the repeats a tenth after they start.
        assert_eq!(at(d.data), 50.0);
        assert!((at(d.repeats()) - 10.0).abs() < 0.5);
        d.screened_by(vec![metered(&[100, 300]), metered(&[50]), Meter::default()]);
        assert_eq!((at(d.cases()), at(d.findings())), (75.0, 90.0));
        // Three programs at 0.2, 0.05 and (no run yet) their mean 0.125 s: 0.375 s a
        // candidate, twice over, over 2 jobs: 0.375 s a finding.
        let r = d.reserve();
        assert_eq!((r.findings, r.programs, r.jobs), (0, 3, 2));
        assert_eq!(r.run, Duration::from_millis(125));
        for _ in 0..20 {
            d.finding_kept();
        }
        assert_eq!(d.reserve().time, Duration::from_millis(7500));
        assert_eq!((at(d.cases()), at(d.findings())), (75.0, 90.0));
        // 40 findings: 15 s, the findings end at 85 s.
        for _ in 0..20 {
            d.finding_kept();
        }
        assert!((at(d.findings()) - 85.0).abs() < 1e-6);
        // 400: 150 s, more than all: everything ends now, the screening takes what is left.
        for _ in 0..360 {
            d.finding_kept();
        }
        assert!(at(d.findings()) < 1e-6 && at(d.cases()) < 1e-6);
        let spent = d.spent().unwrap();
        assert!(spent.by_reserve);
        assert_eq!(spent.reserve.findings, 400);
        let text = spent.text(Duration::from_secs(3));
        assert!(
            text.contains("screening reserve 150.0 s (400 findings x 3 programs x 0.125 s a run x 2 / 2 jobs)"),
            "{text}"
        );
    }

    #[test]
    fn a_slower_machine_reserves_more() {
        let idle = Deadlines::new(Some(Duration::from_secs(100)), 1, Interrupt::new());
        let busy = Deadlines::new(Some(Duration::from_secs(100)), 1, Interrupt::new());
        idle.screened_by(vec![metered(&[10, 10])]);
        busy.screened_by(vec![metered(&[20, 20])]);
        for d in [&idle, &busy] {
            d.finding_kept();
        }
        assert_eq!(busy.reserve().time, 2 * idle.reserve().time);
    }
}
