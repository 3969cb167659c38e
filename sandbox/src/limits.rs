//! What bounds a run and how it ended: the vocabulary the run, its watch and the sandbox share.

use std::time::Duration;

use crate::seccomp::Refusal;

/// How many times the CPU time limit a run's wall-clock time may reach, not counting the time
/// its processes waited for a CPU, before the run is stopped: the cap for programs that sleep
/// or block (as DMOJ's `wall_time_factor`, 3 by default).
pub const WALL_FACTOR: u32 = 3;

/// The wall-clock cap of a run held to `cpu_limit` of CPU time.
pub fn wall_cap(cpu_limit: Duration) -> Duration {
    cpu_limit * WALL_FACTOR
}

/// How a run is bounded.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The CPU time the run may take (every thread of every process of it): the time limit.
    /// Its wall-clock time is capped at [`wall_cap`] of it.
    pub cpu: Duration,
    /// The bytes of memory the run may hold; more ends the run ([`Ending::MemoryLimit`]). The
    /// stack may grow as large.
    pub memory: u64,
    /// The most bytes of standard output kept; more ends the run. Confined, also the size of
    /// its scratch and of the largest file it writes.
    pub max_output: usize,
    /// How many of the last bytes of standard error are kept.
    pub stderr_tail: usize,
    /// Bytes of environment the run gets beyond its own (variable [`PADDING_VARIABLE`]): a case
    /// that crashes past a buffer's end on the stack must crash with more environment above
    /// the stack too.
    pub padding: usize,
    /// For a run of several cases answered a line each: the CPU time each answer may take.
    /// Whenever its usage is read, the run's CPU time must stay within this times one more
    /// than the lines of standard output it has written, else it ends
    /// ([`Ending::AnswerLate`]): a case that overruns its own limit stops the run soon after,
    /// not at the sum of every case's. A program that holds its answers until its end may be
    /// stopped so while every case is within its limit: the caller then runs the cases alone.
    pub per_answer: Option<Duration>,
}

/// The environment variable that carries a run's [`Limits::padding`].
pub const PADDING_VARIABLE: &str = "REFEREE_PADDING";

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The program exited with this code.
    Exited(i32),
    /// A signal ended it.
    Signalled(i32),
    /// Its CPU time passed the limit.
    TimedOut,
    /// Its CPU time passed what its answers so far allow ([`Limits::per_answer`]) before the
    /// limit: a case of it overran its own, or it holds its answers.
    AnswerLate,
    /// Its wall-clock time passed the cap, not counting its waits for a CPU, before its CPU
    /// time reached the limit: it sleeps or blocks.
    WallCap,
    /// It held more memory than the limit.
    MemoryLimit,
    /// It wrote more than the output cap.
    OutputLimit,
    /// It made a call the sandbox forbids, and was ended on it.
    Forbidden(Refusal),
    /// The caller cut it short (its deadline passed, or it was interrupted): the run says
    /// nothing about the program.
    Cut,
}
