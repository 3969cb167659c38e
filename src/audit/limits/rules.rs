//! The arithmetic of limits: the package format's rule for the time limit, the memory
//! limit's steps and floors, and how limits are written.

use super::TimeRules;

/// Runs of each program on each data file, unless `--repeat` says otherwise.
pub const DEFAULT_REPEAT: usize = 5;

/// The advised memory limit is at least this many times the most an accepted run held.
pub const MEMORY_FACTOR: u64 = 2;

/// The steps a memory limit is rounded up to, in MiB (then whole GiB).
pub const MEMORY_STEPS_MIB: [u64; 6] = [64, 128, 256, 512, 1024, 2048];

/// The address space PyPy needs to start, in MiB: problemtools and BAPCtools run Python 3
/// under PyPy and bound memory by `RLIMIT_AS`, and PyPy 7.3 reserves its nursery at start
/// ("cannot allocate nursery", then `SIGABRT`) under 320 MiB (`ulimit -v 307200; pypy3 -c 1`
/// aborts, `ulimit -v 327680` runs).
pub const RUNTIME_FLOOR_PYPY_MIB: u64 = 320;

/// The memory limit a language's runtime on the judge systems needs before the program holds
/// anything, in MiB, when it is more than the program's own: the address space PyPy reserves
/// for Python 3. No other runtime needs one (the systems set no address-space limit for the
/// JVM).
pub fn runtime_floor_mib(language: &str) -> Option<u64> {
    (language == "Python 3").then_some(RUNTIME_FLOOR_PYPY_MIB)
}

/// `secs` rounded up to a multiple of `resolution` (one at least).
pub fn round_up(secs: f64, resolution: f64) -> f64 {
    let steps = (secs / resolution - 1e-9).ceil().max(1.0);
    // Printed at the resolution's precision, so 0.30000000000000004 is 0.3.
    let digits = resolution_digits(resolution);
    let scale = 10f64.powi(digits as i32);
    (steps * resolution * scale).round() / scale
}

/// The decimals a multiple of `resolution` needs.
pub(super) fn resolution_digits(resolution: f64) -> usize {
    (0..6)
        .find(|&d| {
            let scaled = resolution * 10f64.powi(d);
            (scaled - scaled.round()).abs() < 1e-9
        })
        .unwrap_or(6) as usize
}

/// The time limit the rule gives for a slowest accepted time of `slowest` seconds.
pub fn time_limit(slowest: f64, rules: &TimeRules) -> f64 {
    round_up(slowest * rules.ac_to_time_limit, rules.time_resolution)
}

/// The memory limit for a most memory held of `bytes`: the least step at or above
/// [`MEMORY_FACTOR`] times it, in MiB.
pub fn memory_limit_mib(bytes: u64) -> u64 {
    memory_step((bytes * MEMORY_FACTOR).div_ceil(1 << 20))
}

/// The least memory step at or above `need` MiB.
pub(super) fn memory_step(need: u64) -> u64 {
    MEMORY_STEPS_MIB
        .into_iter()
        .find(|&step| step >= need)
        .unwrap_or_else(|| need.div_ceil(1024) * 1024)
}

/// Seconds as written in advice: at least the resolution's precision, up to milliseconds,
/// no trailing zeros past the first decimal (`0.3 s`, `0.45 s`, `1.0 s`).
pub fn seconds(secs: f64, rules: &TimeRules) -> String {
    let digits = resolution_digits(rules.time_resolution).max(3);
    let text = format!("{secs:.digits$}");
    let trimmed = text.trim_end_matches('0');
    let text = if trimmed.ends_with('.') {
        format!("{trimmed}0")
    } else {
        trimmed.to_string()
    };
    format!("{text} s")
}
