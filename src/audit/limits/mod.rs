//! Limits an organiser can trust: the time and memory limits a problem should have, advised from
//! repeated runs of its submissions on its data ([`Measured`]), with the noise of those runs.
//!
//! The time limit follows the package format's rule ([`TimeRules`]): `ac_to_time_limit` times
//! the slowest accepted time, rounded up to a multiple of `time_resolution`. Each program's time
//! on a file is the range of its runs' CPU times: the *upper* end of an accepted program's runs
//! decides the limit (every run of it must pass), the *lower* end of a program expected to time
//! out is what must exceed `time_limit_to_tle` times the limit (every run of it must fail). The
//! memory limit is the least step of [`MEMORY_STEPS_MIB`] (then whole GiB) at or above
//! [`MEMORY_FACTOR`] times the most memory an accepted run held.
//!
//! Everything here is arithmetic over measurements: the runs themselves are the pipeline's.

mod advice;
mod advise;
mod measured;
pub mod page;
pub mod repeat;
mod rules;
#[cfg(test)]
mod tests;

pub use crate::audit::settings::Advising;
pub use crate::judge_system::problem_yaml::TimeRules;
pub use advice::{merge, Advice, Concern, Warning};
pub use advise::advise;
pub use measured::{FileRuns, LanguageTime, Measured, Spot};
pub use rules::{
    memory_limit_mib, round_up, runtime_floor_mib, seconds, time_limit, DEFAULT_REPEAT,
    MEMORY_FACTOR, MEMORY_STEPS_MIB, RUNTIME_FLOOR_PYPY_MIB,
};
