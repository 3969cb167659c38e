//! `referee stress`: seeded random differential testing on stable Rust. Generates cases, judges
//! each with both implementations, and on the first divergence shrinks the case to a minimal
//! one that still diverges, writes it with both verdicts, and says how to reproduce it. A case
//! that takes longer than the per-case limit (an implementation that loops forever) is saved
//! too, and ends the process: a computation cannot be stopped from inside it.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::game::Game;
use crate::generate::Rng;
use crate::harness::{compare, shrink, Case, Divergence};

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
    /// hang.
    pub case_time: Duration,
}

/// The case being judged, as the watchdog sees it.
struct Judging {
    case: u64,
    since: Instant,
    input: Vec<u8>,
}

/// A thread that calls `on_hang` (once) when the case being judged has taken longer than its
/// limit; [`Watchdog::judging`] and [`Watchdog::idle`] tell it what is being judged.
pub struct Watchdog {
    current: Arc<Mutex<Option<Judging>>>,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Watchdog {
    /// Starts watching; `on_hang` gets the case number and input of a case that overran.
    pub fn spawn(limit: Duration, on_hang: impl FnOnce(u64, &[u8]) + Send + 'static) -> Watchdog {
        let current: Arc<Mutex<Option<Judging>>> = Arc::default();
        let stop = Arc::new(AtomicBool::new(false));
        let (watched, stopped) = (Arc::clone(&current), Arc::clone(&stop));
        let tick = (limit / 10).clamp(Duration::from_millis(1), Duration::from_millis(200));
        let thread = std::thread::spawn(move || {
            while !stopped.load(Ordering::Relaxed) {
                std::thread::sleep(tick);
                let guard = watched.lock().unwrap_or_else(|e| e.into_inner());
                if let Some(j) = guard.as_ref().filter(|j| j.since.elapsed() > limit) {
                    on_hang(j.case, &j.input);
                    return;
                }
            }
        });
        Watchdog {
            current,
            stop,
            thread: Some(thread),
        }
    }

    /// Case `case`, whose input is `input`, is being judged from now on.
    pub fn judging(&self, case: u64, input: &[u8]) {
        let mut guard = self.current.lock().unwrap_or_else(|e| e.into_inner());
        *guard = Some(Judging {
            case,
            since: Instant::now(),
            input: input.to_vec(),
        });
    }

    /// Nothing is being judged.
    pub fn idle(&self) {
        *self.current.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// A divergence found, shrunk and saved.
#[derive(Debug)]
pub struct Finding {
    /// The 0-based number of the case that diverged first.
    pub case: u64,
    /// The shrunk input file.
    pub file: PathBuf,
    /// How the implementations disagree on the shrunk case.
    pub divergence: Divergence,
}

/// What a stress run did.
#[derive(Debug)]
pub struct Report {
    /// Cases judged.
    pub cases: u64,
    /// Time taken.
    pub elapsed: Duration,
    /// The first divergence, if any.
    pub finding: Option<Finding>,
}

/// Runs random cases of `C` until the limits, or until engine and reference diverge.
pub fn run<C: Case>(
    limits: Limits,
    options: Option<<C::G as Game>::Options>,
    out: &Path,
    file_suffix: &str,
) -> Result<Report, String> {
    let mut rng = Rng::new(limits.seed);
    let started = Instant::now();
    let max_cases = match (limits.cases, limits.time) {
        (None, None) => Some(10_000),
        (c, _) => c,
    };
    let mut cases = 0;
    let hang_out = out.to_path_buf();
    let (name, seed, suffix) = (C::G::NAME, limits.seed, file_suffix.to_string());
    let case_time = limits.case_time;
    let watchdog = Watchdog::spawn(case_time, move |case, input| {
        let stem = format!("{name}-seed{seed}-case{case}{suffix}-hang");
        let file = hang_out.join(format!("{stem}.in"));
        let saved = fs::create_dir_all(&hang_out).and_then(|()| fs::write(&file, input));
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
    // Judges a case under the watchdog.
    let judged = |case: u64, input: &[u8], options| {
        watchdog.judging(case, input);
        let result = compare::<C::G>(input, options);
        watchdog.idle();
        result
    };
    loop {
        if max_cases.is_some_and(|m| cases >= m)
            || limits.time.is_some_and(|t| started.elapsed() >= t)
        {
            return Ok(Report {
                cases,
                elapsed: started.elapsed(),
                finding: None,
            });
        }
        let case = C::random(&mut rng, options);
        cases += 1;
        if judged(cases - 1, &case.input(), case.options()).is_ok() {
            continue;
        }
        let small = shrink(case, |c| {
            judged(cases - 1, &c.input(), c.options()).is_err()
        });
        let divergence = judged(cases - 1, &small.input(), small.options())
            .expect_err("the shrunk case still diverges");
        fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
        let stem = format!(
            "{}-seed{}-case{}{file_suffix}",
            C::G::NAME,
            limits.seed,
            cases - 1
        );
        let file = out.join(format!("{stem}.in"));
        let verdicts = out.join(format!("{stem}.verdicts.txt"));
        fs::write(&file, small.input())
            .and_then(|()| fs::write(&verdicts, format!("{divergence}\n")))
            .map_err(|e| format!("{}: {e}", file.display()))?;
        return Ok(Report {
            cases,
            elapsed: started.elapsed(),
            finding: Some(Finding {
                case: cases - 1,
                file,
                divergence,
            }),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    #[test]
    fn the_watchdog_reports_a_case_that_overruns_and_only_that() {
        let (tx, rx) = mpsc::channel();
        let watchdog = Watchdog::spawn(Duration::from_millis(50), move |case, input| {
            tx.send((case, input.to_vec())).unwrap();
        });
        // Quick cases, then one that takes far longer than the limit.
        for case in 0..20 {
            watchdog.judging(case, b"quick");
            watchdog.idle();
        }
        watchdog.judging(20, b"slow");
        let (case, input) = rx.recv_timeout(Duration::from_secs(10)).expect("a report");
        assert_eq!((case, input.as_slice()), (20, &b"slow"[..]));
        drop(watchdog);
        assert!(rx.try_recv().is_err());
    }

    #[test]
    fn an_idle_watchdog_reports_nothing() {
        let (tx, rx) = mpsc::channel();
        let watchdog = Watchdog::spawn(Duration::from_millis(10), move |case, _: &[u8]| {
            tx.send(case).unwrap();
        });
        watchdog.judging(1, b"done in time");
        watchdog.idle();
        std::thread::sleep(Duration::from_millis(100));
        drop(watchdog);
        assert!(rx.try_recv().is_err());
    }
}
