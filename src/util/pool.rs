//! The worker pool and the progress bar every batch driver uses.

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressStyle};

/// A progress bar on standard error when it is a terminal, hidden otherwise (so logs and CI
/// output stay clean).
pub fn progress(len: usize, what: &str, unit: &str) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new(len as u64);
    let style = ProgressStyle::with_template(&format!(
        "{what} {{bar:40}} {{pos}}/{{len}} {unit}, {{elapsed}} (eta {{eta}})"
    ))
    .expect("valid template");
    bar.set_style(style);
    bar
}

/// The most worker threads a run starts: four per core. More only adds threads that wait.
pub fn most_jobs() -> usize {
    4 * std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The worker threads of a run asking for `jobs` (all cores when `None`): at most
/// [`most_jobs`]; a larger request is capped, and said on standard error.
pub fn threads(jobs: Option<usize>) -> usize {
    let most = most_jobs();
    match jobs {
        Some(n) if n > most => {
            eprintln!("note: --jobs {n} capped at {most} (four threads per core)");
            most
        }
        Some(n) => n.max(1),
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    }
}

/// A thread pool of [`threads`]`(jobs)` threads.
pub fn pool(jobs: Option<usize>) -> Result<rayon::ThreadPool, rayon::ThreadPoolBuildError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(threads(jobs))
        .build()
}

/// `work(i)` for every `i` below `count`, on `jobs` threads (each takes the next `i` as it
/// finishes one), in the order of `i`.
pub fn each_of<T: Send>(count: usize, jobs: usize, work: impl Fn(usize) -> T + Sync) -> Vec<T> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Mutex;
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<T>>> = Mutex::new((0..count).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, count.max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= count {
                    return;
                }
                let done = work(i);
                results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(done);
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.expect("every item done"))
        .collect()
}
