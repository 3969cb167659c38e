//! Runs someone else's program on one input as a judge system's sandbox runs a submission
//! (isolate, DOMjudge's runguard, DMOJ's judge), with the kernel's unprivileged mechanisms and,
//! as root, its control groups: no setuid helper, nothing to install.
//!
//! A **run** ([`Program::run`]) is one program on one input, held to a CPU-time limit, a
//! memory limit and an output limit, with a wall-clock cap for a program that sleeps. Confined
//! ([`Program::confined`], [`Jail`]), the run is the unit the kernel sees:
//!
//! - **its own processes**: a PID namespace of its own, whose first process (the run's init)
//!   reaps everything and ends with the program, so that every process of the run ends with it
//!   and none can see, signal, re-limit, renice or join the group of a process outside it (the
//!   caller, or another run); nothing of a run outlives its caller, even one killed at once;
//! - **accounted as the kernel counts it**: the CPU time of every thread of every process of
//!   it, and all the memory it holds: by a control group of its own where the machine gives one
//!   (cgroup v2 under the caller's subtree, or cgroup v1 `cpuacct`, `memory`, `pids`), else one
//!   process a run, counted from `/proc`, its address space bounded and the calls that make
//!   memory no resident set shows forbidden ([`Accounting`]);
//! - **isolated**: files (a root of its own made of read-only bind mounts of the system's
//!   directories and the program's own files, a procfs of its PID namespace and its scratch
//!   tmpfs, `pivot_root` into it; Landlock behind it where the kernel has it), network, IPC and
//!   UTS namespaces of its own, other processes' memory, new namespaces, scheduling (seccomp),
//!   privileges (a user namespace, `no_new_privs`, nobody as root), its environment replaced,
//!   and no descriptor but standard input, output and error.
//!
//! [`Sandbox::probe`] checks, before anything runs, that the kernel has every mechanism (a
//! confined run of `/bin/true`, one step at a time); the crate's README holds the threat model
//! and how each promise is tested.

#![deny(missing_docs)]

/// The README's example, compiled with the doctests (`cargo test -p referee-sandbox --doc`).
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
pub struct ReadmeExample;

mod cgroup;
pub mod check;
mod child;
mod host;
mod interrupt;
pub mod keeper;
mod limits;
mod opens;
mod proc;
mod run;
mod sandbox;
mod seccomp;
mod start;
mod watch;

pub use check::{check, Bearing, Check, Fact};
pub use interrupt::{Interrupt, Reaper};
pub use limits::{Ending, Limits, PADDING_VARIABLE};
pub use run::{CommandError, Kept, Program, Run, RunError};
pub use sandbox::{
    Accounting, Confinement, Jail, Options, Sandbox, SandboxError, Workspace, BUILD_WRITES, NOBODY,
    PATH,
};
pub use seccomp::Refusal;
