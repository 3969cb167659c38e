//! A watchdog thread for work that may never finish: an implementation that loops forever on
//! some case. A computation cannot be stopped from inside the process, so the watchdog reports
//! the case that overran and lets its caller end the process.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

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
