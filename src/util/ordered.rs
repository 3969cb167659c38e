//! Work on a stream of items in parallel, its results delivered in the stream's order: the
//! reports of `verify` and `grade` are written as they go, in the same order whatever the
//! number of threads, and memory holds a bounded window of items, never the whole stream.
//!
//! Workers take items in order, at most `window` ahead of the next item whose results are
//! delivered. An item's results wait in memory until every item before it has delivered its
//! own; an item with many results (a file of a million cases) waits, after the first
//! [`SPILL`], for its turn, then delivers the rest as they come.

use std::collections::BTreeMap;
use std::io;
use std::sync::{Condvar, Mutex, MutexGuard};

/// The results an item holds before it waits for its turn to deliver them.
pub const SPILL: usize = 4096;

struct State<I, R, D> {
    items: I,
    /// The number the next item taken gets.
    taken: u64,
    /// The next item to deliver.
    head: u64,
    parked: BTreeMap<u64, Vec<R>>,
    deliver: D,
    /// The first error delivering gave: every worker stops.
    failed: Option<io::Error>,
}

struct Shared<I, R, D> {
    state: Mutex<State<I, R, D>>,
    turn: Condvar,
}

impl<I, R, D> Shared<I, R, D>
where
    D: FnMut(R) -> io::Result<()>,
{
    fn lock(&self) -> MutexGuard<'_, State<I, R, D>> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Delivers `results` in order, recording the first error.
    fn deliver(state: &mut State<I, R, D>, results: impl IntoIterator<Item = R>) {
        for r in results {
            if state.failed.is_some() {
                return;
            }
            if let Err(e) = (state.deliver)(r) {
                state.failed = Some(e);
            }
        }
    }

    /// Item `at` is done: its parked results, and those of the items after it that are done,
    /// are delivered.
    fn advance(&self, mut state: MutexGuard<'_, State<I, R, D>>) {
        loop {
            let head = state.head;
            let Some(results) = state.parked.remove(&head) else {
                break;
            };
            Shared::deliver(&mut state, results);
            state.head += 1;
        }
        drop(state);
        self.turn.notify_all();
    }
}

/// Runs `work` on every item of `items` on `jobs` threads, at most `window` items ahead of the
/// next to deliver; `work` hands each result of its item to the function it is given, and
/// `deliver` gets every result of every item, items in the stream's order, each item's results
/// in the order they came. The first error of `deliver` stops the run and is returned.
pub fn for_each_ordered<I, T, R, W, D>(
    items: I,
    jobs: usize,
    window: usize,
    work: W,
    deliver: D,
) -> io::Result<()>
where
    I: Iterator<Item = T> + Send,
    T: Send,
    R: Send,
    W: Fn(T, &mut (dyn FnMut(R) + Send)) + Sync,
    D: FnMut(R) -> io::Result<()> + Send,
{
    let shared = Shared {
        state: Mutex::new(State {
            items,
            taken: 0,
            head: 0,
            parked: BTreeMap::new(),
            deliver,
            failed: None,
        }),
        turn: Condvar::new(),
    };
    let window = window.max(1) as u64;
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1) {
            scope.spawn(|| worker(&shared, window, &work));
        }
    });
    let state = shared.state.into_inner().unwrap_or_else(|e| e.into_inner());
    match state.failed {
        Some(e) => Err(e),
        None => Ok(()),
    }
}

fn worker<I, T, R, W, D>(shared: &Shared<I, R, D>, window: u64, work: &W)
where
    R: Send,
    I: Iterator<Item = T> + Send,
    W: Fn(T, &mut (dyn FnMut(R) + Send)),
    D: FnMut(R) -> io::Result<()> + Send,
{
    loop {
        let (at, item) = {
            let mut state = shared.lock();
            while state.failed.is_none() && state.taken >= state.head + window {
                state = shared.turn.wait(state).unwrap_or_else(|e| e.into_inner());
            }
            if state.failed.is_some() {
                return;
            }
            let Some(item) = state.items.next() else {
                return;
            };
            state.taken += 1;
            (state.taken - 1, item)
        };
        let mut parked: Vec<R> = Vec::new();
        let mut direct = false;
        work(item, &mut |result| {
            if direct {
                Shared::deliver(&mut shared.lock(), [result]);
                return;
            }
            parked.push(result);
            if parked.len() >= SPILL {
                let mut state = shared.lock();
                while state.head != at && state.failed.is_none() {
                    state = shared.turn.wait(state).unwrap_or_else(|e| e.into_inner());
                }
                Shared::deliver(&mut state, parked.drain(..));
                direct = true;
            }
        });
        let mut state = shared.lock();
        if direct {
            state.head = at + 1;
        } else {
            state.parked.insert(at, parked);
        }
        shared.advance(state);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_in_order_whatever_the_threads_and_sizes() {
        // Item i yields i results (some past SPILL), slower ones first.
        let sizes: Vec<usize> = vec![3, SPILL * 2 + 5, 0, 7, SPILL + 1, 1, 2];
        for jobs in [1, 2, 4] {
            let mut got: Vec<(usize, usize)> = Vec::new();
            for_each_ordered(
                sizes.iter().copied().enumerate(),
                jobs,
                3,
                |(i, n): (usize, usize), emit: &mut (dyn FnMut((usize, usize)) + Send)| {
                    std::thread::sleep(std::time::Duration::from_millis((7 - i as u64) * 2));
                    for k in 0..n {
                        emit((i, k));
                    }
                },
                |r| {
                    got.push(r);
                    Ok(())
                },
            )
            .unwrap();
            let want: Vec<(usize, usize)> = sizes
                .iter()
                .enumerate()
                .flat_map(|(i, &n)| (0..n).map(move |k| (i, k)))
                .collect();
            assert_eq!(got, want, "{jobs} jobs");
        }
    }

    #[test]
    fn the_first_delivery_error_stops_the_run() {
        let mut delivered = 0;
        let run = for_each_ordered(
            0..1000u32,
            2,
            8,
            |i, emit: &mut (dyn FnMut(u32) + Send)| emit(i),
            |i| {
                delivered += 1;
                if i == 10 {
                    Err(io::Error::other("disk full"))
                } else {
                    Ok(())
                }
            },
        );
        assert_eq!(run.unwrap_err().to_string(), "disk full");
        assert_eq!(delivered, 11);
    }
}
