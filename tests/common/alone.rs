//! Running a test alone in a process of its own, for the tests that measure the whole process
//! (its heap, counted by [`peak_of`]), which the other tests of this binary, running on other
//! threads, would disturb; and for a test that needs its own environment.

use std::alloc::{GlobalAlloc, Layout, System};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// Set in the process a test runs alone in: the test's name.
const ALONE: &str = "REFEREE_TEST_ALONE";

/// Whether the test `function` of `module` (its `module_path!()`) is running alone in a process
/// of its own: then the test does its work. Otherwise this runs it so (this binary again, that
/// one test selected, on one thread, with `envs` set), requires it to pass, and returns false.
pub fn alone(module: &str, function: &str, envs: &[(&str, &Path)]) -> bool {
    // The test's name as the test harness knows it: its path without the crate's name.
    let name = match module.split_once("::") {
        Some((_, path)) => format!("{path}::{function}"),
        None => function.to_string(),
    };
    if std::env::var_os(ALONE).is_some_and(|running| running == name.as_str()) {
        return true;
    }
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([&name, "--exact", "--include-ignored", "--test-threads", "1"])
        .args(["--nocapture"])
        .env(ALONE, &name)
        .envs(envs.iter().map(|(k, v)| (k, v)))
        .output()
        .unwrap();
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr),
    );
    assert!(
        out.status.success() && stdout.contains("1 passed"),
        "{name}, alone in a process of its own: {}\n{stdout}\n{stderr}",
        out.status
    );
    eprint!("{stderr}");
    false
}

/// The system allocator, counting the bytes in use and their peak while [`peak_of`] measures.
struct Counting;

static COUNTING: AtomicBool = AtomicBool::new(false);
static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

impl Counting {
    fn grew(by: usize) {
        if COUNTING.load(Ordering::Relaxed) {
            let now = IN_USE.fetch_add(by, Ordering::Relaxed) + by;
            PEAK.fetch_max(now, Ordering::Relaxed);
        }
    }

    fn shrank(by: usize) {
        if COUNTING.load(Ordering::Relaxed) {
            IN_USE.fetch_sub(by, Ordering::Relaxed);
        }
    }
}

// Counts nothing but while a test running alone measures, so that the other tests pay one
// load per allocation.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            Counting::grew(layout.size());
        }
        p
    }
    unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
        unsafe { System.dealloc(p, layout) };
        Counting::shrank(layout.size());
    }
    unsafe fn realloc(&self, p: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let q = unsafe { System.realloc(p, layout, new_size) };
        if !q.is_null() {
            if new_size > layout.size() {
                Counting::grew(new_size - layout.size());
            } else {
                Counting::shrank(layout.size() - new_size);
            }
        }
        q
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// The heap `work` needs at its peak, above what was in use when it started: counted from the
/// allocations and frees made while it runs (a block freed then but allocated before counts
/// as negative, which only lowers the peak). Only in a test running [`alone`].
pub fn peak_of<T>(work: impl FnOnce() -> T) -> (usize, T) {
    assert!(
        std::env::var_os(ALONE).is_some(),
        "peak_of measures the whole process: the test must run alone"
    );
    IN_USE.store(1 << 40, Ordering::Relaxed);
    PEAK.store(1 << 40, Ordering::Relaxed);
    COUNTING.store(true, Ordering::SeqCst);
    let result = work();
    COUNTING.store(false, Ordering::SeqCst);
    (PEAK.load(Ordering::Relaxed) - (1 << 40), result)
}

#[test]
fn no_test_changes_the_state_of_the_process_they_share() {
    // Spelt in pieces, so that this file does not name them.
    let calls = [
        ["set", "_var("].concat(),
        ["remove", "_var("].concat(),
        ["set_current", "_dir("].concat(),
    ];
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
    let mut found = Vec::new();
    for entry in walkdir::WalkDir::new(&tests) {
        let entry = entry.unwrap();
        if entry.path().extension().is_none_or(|x| x != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(entry.path()).unwrap();
        for (n, line) in text.lines().enumerate() {
            if calls.iter().any(|call| line.contains(call.as_str())) {
                found.push(format!("{}:{}: {line}", entry.path().display(), n + 1));
            }
        }
    }
    assert!(
        found.is_empty(),
        "the tests share one process: run such a test alone (common::alone) with its \
         variables instead:\n{}",
        found.join("\n")
    );
}
