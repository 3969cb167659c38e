//! The cases stage: every program that takes cases (a *lane*) runs the plan's units in order,
//! `--jobs` runs at once across all of them, each unit prepared once (generated, judged by the
//! engine, written in the form) for every program that runs it.
//!
//! A worker takes, in this order: a failure ready to be examined (the program's earliest
//! failing unit, once no unit before it is still running), else a unit of the program with
//! the fewest cases run, the programs the existing data accepts first until each has run the
//! first `target` cases, then the others, then every program alike. A program runs at most
//! its share of the runs at once (so a program whose runs all hang holds no more). A program
//! whose unit fails takes no unit until the failure is examined; it stops there when the
//! failure proves it wrong (unless `--keep-going`), and goes on after it otherwise. Units
//! after a failing one that ran meanwhile are run again after it: each program's failures
//! are examined in unit order, whatever `--jobs`.
//!
//! Prepared units are kept until every program still running is past them (at most
//! [`CACHE_UNITS`]; a program far behind prepares a unit again, to the same content), and
//! preparer threads prepare the next units ahead of the leading program.

use crate::audit::terms::Auditable;
use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::Instant;

use crate::audit::cases::plan::{Plan, Prepared};
use crate::audit::findings::failure::{Failure, Seen};
use crate::audit::findings::finding::ProgramFindings;
use crate::audit::findings::settle::{examine, Examined};
use crate::audit::reports::audited::{Finish, Tally};
use crate::audit::running::deadlines::Deadlines;
use crate::audit::running::runner::Runner;
use crate::audit::settings::Settings;

/// The most prepared units kept at once.
pub const CACHE_UNITS: usize = 512;

/// One program taking cases.
pub struct Lane<'r, 'a, G: Auditable> {
    /// Its runner (cut at the findings' deadline).
    pub runner: &'r Runner<'a, G>,
    /// Whether it goes first (the existing data accepts it, or there is no data).
    pub first: bool,
    /// Its findings.
    pub found: Mutex<ProgramFindings>,
}

/// A program's progress through the units.
struct Progress<C> {
    /// The next unit to take.
    next: u64,
    /// The units running, each with the epoch it was taken in.
    running: BTreeSet<(u64, u64)>,
    /// Bumped when the program goes on after a failure: the units still running from before
    /// are run again, and their results ignored.
    epoch: u64,
    /// Units at or after `next` that passed while an earlier one was running.
    passed_ahead: BTreeSet<u64>,
    /// The earliest failing unit not yet examined.
    failed: Option<Failure<Seen<C>>>,
    /// The failing unit being examined.
    examining: Option<u64>,
    cases: u64,
    examined_for: std::time::Duration,
    finish: Option<Finish>,
}

impl<C> Progress<C> {
    /// The earliest failing unit, waiting or being examined: later units say nothing now.
    fn failed_at(&self) -> Option<u64> {
        self.failed
            .as_ref()
            .map(|f| f.stage.prepared.index)
            .or(self.examining)
    }

    /// The lowest unit it may still need.
    fn low(&self) -> u64 {
        let mut low = self.next;
        if let Some(&(first, _)) = self.running.first() {
            low = low.min(first);
        }
        if let Some(at) = self.failed_at() {
            low = low.min(at + 1);
        }
        low
    }
}

/// What a worker does next.
enum Job<C> {
    Run {
        lane: usize,
        unit: u64,
        epoch: u64,
    },
    Examine {
        lane: usize,
        failed: Failure<Seen<C>>,
    },
    Wait,
    Stop,
}

struct State<C> {
    lanes: Vec<Progress<C>>,
    /// The next unit a preparer prepares.
    ahead: u64,
}

type Cell<C> = Arc<OnceLock<Option<Arc<Prepared<C>>>>>;

/// What the lanes and the preparers of one cases stage share: the plan, the lanes, the units
/// prepared and where each lane is.
struct SharedRun<'s, 'r, 'a, G: Auditable> {
    plan: &'s Plan<G>,
    lanes: &'s [Lane<'r, 'a, G>],
    settings: &'s Settings<G::Options>,
    deadlines: &'s Deadlines,
    target: u64,
    state: Mutex<State<G::Case>>,
    changed: Condvar,
    cache: Mutex<BTreeMap<u64, Cell<G::Case>>>,
    dropped: AtomicU64,
    bar: &'s indicatif::ProgressBar,
}

/// Runs the units of `plan` on every lane until the plan ends, each program's finish, or
/// the cases' deadline ([`Deadlines::cases`]; failures found are still examined until the
/// findings' end). `target`: the cases each program runs before the programs that do not go
/// first get theirs. Each program's tally, and the random cases dropped for lying outside
/// the contest's limits.
pub fn run_cases<G: Auditable>(
    plan: &Plan<G>,
    lanes: &[Lane<'_, '_, G>],
    settings: &Settings<G::Options>,
    deadlines: &Deadlines,
    target: u64,
    bar: &indicatif::ProgressBar,
) -> (Vec<Tally>, u64) {
    let shared = SharedRun {
        plan,
        lanes,
        settings,
        deadlines,
        target,
        state: Mutex::new(State {
            lanes: lanes
                .iter()
                .map(|_| Progress {
                    next: 0,
                    running: BTreeSet::new(),
                    epoch: 0,
                    passed_ahead: BTreeSet::new(),
                    failed: None,
                    examining: None,
                    cases: 0,
                    examined_for: std::time::Duration::ZERO,
                    finish: None,
                })
                .collect(),
            ahead: 0,
        }),
        changed: Condvar::new(),
        cache: Mutex::new(BTreeMap::new()),
        dropped: AtomicU64::new(0),
        bar,
    };
    let jobs = settings.jobs.max(1);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let preparers = cores.saturating_sub(jobs).clamp(1, jobs + 1);
    std::thread::scope(|scope| {
        for _ in 0..preparers {
            scope.spawn(|| shared.prepare_ahead());
        }
        for _ in 0..jobs {
            scope.spawn(|| shared.work());
        }
    });
    let state = shared.state.into_inner().unwrap_or_else(|e| e.into_inner());
    let tallies = state
        .lanes
        .iter()
        .map(|p| Tally {
            cases: p.cases,
            examining: p.examined_for,
            finish: p.finish.unwrap_or(Finish::Stopped),
        })
        .collect();
    (tallies, shared.dropped.into_inner())
}

impl<G: Auditable> SharedRun<'_, '_, '_, G> {
    fn lock(&self) -> std::sync::MutexGuard<'_, State<G::Case>> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// No unit is taken any more.
    fn over(&self) -> bool {
        self.deadlines.past(self.deadlines.cases())
    }

    /// A worker: takes jobs until none is left.
    fn work(&self) {
        loop {
            let job = {
                let mut state = self.lock();
                loop {
                    match self.next_job(&mut state) {
                        Job::Wait => {
                            state = self
                                .changed
                                .wait_timeout(state, std::time::Duration::from_millis(50))
                                .unwrap_or_else(|e| e.into_inner())
                                .0;
                        }
                        job => break job,
                    }
                }
            };
            match job {
                Job::Run { lane, unit, epoch } => self.run(lane, unit, epoch),
                Job::Examine { lane, failed } => self.examine(lane, failed),
                Job::Wait => unreachable!("waited above"),
                Job::Stop => {
                    self.changed.notify_all();
                    return;
                }
            }
        }
    }

    /// The next job of a worker, taken under the lock.
    fn next_job(&self, state: &mut State<G::Case>) -> Job<G::Case> {
        let over = self.over();
        for (lane, p) in state.lanes.iter_mut().enumerate() {
            let earliest = p
                .running
                .iter()
                .find(|(_, e)| *e == p.epoch)
                .map(|&(u, _)| u);
            let ready = p.examining.is_none()
                && p.failed
                    .as_ref()
                    .is_some_and(|f| earliest.is_none_or(|r| r > f.stage.prepared.index));
            if ready {
                let failed = p.failed.take().expect("ready");
                p.examining = Some(failed.stage.prepared.index);
                return Job::Examine { lane, failed };
            }
        }
        if !over {
            if let Some(lane) = self.pick(state) {
                let p = &mut state.lanes[lane];
                let mut unit = p.next;
                while p.passed_ahead.remove(&unit) {
                    unit += 1;
                }
                p.next = unit + 1;
                p.running.insert((unit, p.epoch));
                return Job::Run {
                    lane,
                    unit,
                    epoch: p.epoch,
                };
            }
        }
        // Nothing to take now: wait while a run or an examination may change that.
        if state
            .lanes
            .iter()
            .any(|p| !p.running.is_empty() || p.examining.is_some())
        {
            Job::Wait
        } else {
            Job::Stop
        }
    }

    /// The program that takes the next unit: the fewest cases run, those that go first
    /// first until `target` cases.
    fn pick(&self, state: &State<G::Case>) -> Option<usize> {
        let active = state.lanes.iter().filter(|p| p.finish.is_none()).count();
        let share = (self.settings.jobs / active.max(1)).max(1);
        state
            .lanes
            .iter()
            .enumerate()
            .filter(|(_, p)| {
                p.finish.is_none() && p.failed_at().is_none() && p.running.len() < share
            })
            .min_by_key(|(lane, p)| {
                let tier = match (p.cases < self.target, self.lanes[*lane].first) {
                    (true, true) => 0,
                    (true, false) => 1,
                    (false, _) => 2,
                };
                (tier, p.cases, *lane)
            })
            .map(|(lane, _)| lane)
    }

    /// Unit `unit`, prepared once for every program.
    fn unit(&self, unit: u64) -> Option<Arc<Prepared<G::Case>>> {
        let cell = {
            let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
            Arc::clone(cache.entry(unit).or_default())
        };
        cell.get_or_init(|| {
            let prepared = self.plan.prepare(unit)?;
            self.dropped.fetch_add(prepared.dropped, Ordering::Relaxed);
            Some(Arc::new(prepared))
        })
        .clone()
    }

    /// Runs `unit` for `lane` (taken in `epoch`) and records how it went.
    fn run(&self, lane: usize, unit: u64, epoch: u64) {
        let runner = self.lanes[lane].runner;
        let prepared = self.unit(unit);
        let tried = prepared
            .as_ref()
            .filter(|p| !p.cases.is_empty())
            .and_then(|p| {
                if let Some(dir) = &self.settings.save_runs {
                    save_run(dir, p);
                }
                let sizes: Vec<usize> = p.cases.iter().map(|c| c.input.len()).collect();
                runner.run_batch(&p.input, &p.expected, &sizes, self.deadlines.cases())
            });
        let mut state = self.lock();
        let p = &mut state.lanes[lane];
        p.running.remove(&(unit, epoch));
        let earlier_running = p.running.iter().any(|&(r, e)| e == p.epoch && r < unit);
        match (prepared, tried) {
            // Taken before the program went on after a failure: it runs again.
            _ if epoch != p.epoch => {}
            // Beyond the last unit.
            (None, _) => {
                p.finish.get_or_insert(Finish::Exhausted);
            }
            // Every case dropped: nothing to run.
            (Some(prep), None) if prep.cases.is_empty() => {
                if earlier_running {
                    p.passed_ahead.insert(unit);
                }
            }
            // The program cannot start.
            (Some(_), None) => p.finish = Some(Finish::Stopped),
            // Cut by the deadline, or after an earlier failure: says nothing here.
            (Some(_), Some(t)) if t.cut() || p.failed_at().is_some_and(|at| at < unit) => {}
            (Some(prep), Some(t)) if t.kind.is_some() => p.failed = Failure::seen(prep, t),
            (Some(prep), Some(_)) => {
                let count = prep.cases.len() as u64;
                p.cases += count;
                self.bar.inc(count);
                if earlier_running {
                    p.passed_ahead.insert(unit);
                }
            }
        }
        self.evict(&state);
        drop(state);
        self.changed.notify_all();
    }

    /// Examines `failed`, a failure of `lane`'s program, then lets it go on or stops it.
    fn examine(&self, lane: usize, failed: Failure<Seen<G::Case>>) {
        let at = failed.stage.prepared.index;
        let count = failed.stage.prepared.cases.len() as u64;
        let started = Instant::now();
        let examined = {
            let mut found = self.lanes[lane]
                .found
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            examine(self.lanes[lane].runner, self.settings, failed, &mut found)
        };
        let mut state = self.lock();
        let p = &mut state.lanes[lane];
        p.examining = None;
        p.examined_for += started.elapsed();
        let proved = match examined {
            Examined::Passed => {
                p.cases += count;
                self.bar.inc(count);
                false
            }
            Examined::Failed { proved } => proved,
        };
        if proved && !self.settings.keep_going {
            p.finish = Some(Finish::ProvedWrong);
        } else {
            // Units after the failure run again, in order (the plan's end is met again).
            if p.finish == Some(Finish::Exhausted) {
                p.finish = None;
            }
            p.next = at + 1;
            p.epoch += 1;
            p.passed_ahead.retain(|&u| u > at);
        }
        drop(state);
        self.changed.notify_all();
    }

    /// Forgets the prepared units every program still running is past; at most
    /// [`CACHE_UNITS`] are kept.
    fn evict(&self, state: &State<G::Case>) {
        let low = state
            .lanes
            .iter()
            .filter(|p| p.finish.is_none())
            .map(Progress::low)
            .min()
            .unwrap_or(u64::MAX);
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        while cache
            .first_key_value()
            .is_some_and(|(&u, _)| u < low || cache.len() > CACHE_UNITS)
        {
            cache.pop_first();
        }
    }

    /// A preparer: prepares the units ahead of the leading program.
    fn prepare_ahead(&self) {
        let lookahead = 2 * self.settings.jobs as u64 + 2;
        loop {
            let unit = {
                let mut state = self.lock();
                loop {
                    if self.over() || state.lanes.iter().all(|p| p.finish.is_some()) {
                        return;
                    }
                    let low = state.lanes.iter().map(Progress::low).min().unwrap_or(0);
                    let lead = state.lanes.iter().map(|p| p.next).max().unwrap_or(0);
                    state.ahead = state.ahead.max(low);
                    if state.ahead < lead + lookahead {
                        state.ahead += 1;
                        break state.ahead - 1;
                    }
                    state = self
                        .changed
                        .wait_timeout(state, std::time::Duration::from_millis(50))
                        .unwrap_or_else(|e| e.into_inner())
                        .0;
                }
            };
            if self.unit(unit).is_none() {
                return;
            }
        }
    }
}

/// Writes the input of `prepared` as `run-NNNNNN.in` in `dir`, once.
fn save_run<C>(dir: &Path, prepared: &Prepared<C>) {
    let file = dir.join(format!("run-{:06}.in", prepared.index));
    if !file.exists() {
        if let Err(e) = fs::write(&file, &prepared.input) {
            eprintln!("warning: {}: {e}", file.display());
        }
    }
}
