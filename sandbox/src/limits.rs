//! What bounds a run and how it ended: the vocabulary the run, its watch and the sandbox share.

use std::time::Duration;

use crate::seccomp::Refusal;

/// How a run is bounded: the sandbox's whole policy for one run. [`Limits::default`] is a
/// judge system's usual submission (1 s, 256 MiB, 64 MiB of output, 128 processes, 256 open
/// files, a wall-clock cap of 3 times the CPU time); set what differs:
///
/// ```
/// use std::time::Duration;
/// use referee_sandbox::Limits;
///
/// let limits = Limits { cpu: Duration::from_secs(2), memory: 512 << 20, ..Limits::default() };
/// assert_eq!(limits.wall_cap(), Duration::from_secs(6));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The CPU time the run may take (every thread of every process of it): the time limit.
    /// Its wall-clock time is capped at [`wall_cap`](Self::wall_cap).
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
    /// How many times [`cpu`](Self::cpu) the run's wall-clock time may reach, not counting the
    /// time its processes waited for a CPU, before it is stopped ([`Ending::WallCap`]): the
    /// cap for programs that sleep or block (as DMOJ's `wall_time_factor`, 3 by default).
    pub wall_factor: u32,
    /// The most tasks (processes and threads) the run may have at once, where the kernel
    /// accounts it; where it does not, a run is one process.
    pub processes: u64,
    /// The most files each of its processes may hold open at once (`RLIMIT_NOFILE`).
    pub open_files: u64,
}

impl Limits {
    /// The wall-clock cap of the run: [`wall_factor`](Self::wall_factor) times its CPU time.
    pub fn wall_cap(&self) -> Duration {
        self.cpu * self.wall_factor
    }
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            cpu: Duration::from_secs(1),
            memory: 256 << 20,
            max_output: 64 << 20,
            stderr_tail: 4096,
            padding: 0,
            per_answer: None,
            wall_factor: 3,
            processes: 128,
            open_files: 256,
        }
    }
}

/// The environment variable that carries a run's [`Limits::padding`].
pub const PADDING_VARIABLE: &str = "SANDBOX_PADDING";

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
