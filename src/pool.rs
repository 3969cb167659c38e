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

/// A thread pool of `jobs` threads (all cores when `None`).
pub fn pool(jobs: Option<usize>) -> Result<rayon::ThreadPool, rayon::ThreadPoolBuildError> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(jobs.unwrap_or(0))
        .build()
}
