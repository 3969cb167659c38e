//! Ending every run at once: an interruption (a signal to the auditing process) kills every
//! run in progress and refuses new ones ([`interrupt`]), and what an unconfined program left
//! behind is ended when its caller is done ([`Reaper`]).
//!
//! Every run in progress registers what ends it: a confined run its init (whose death ends
//! every process of the run's PID namespace), by a process descriptor; an unconfined run its
//! program's process group.

use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use rustix::process::{Pid, Signal};

/// What ends a run.
enum Target {
    /// A process group.
    Group(i32),
    /// A process, by its descriptor.
    Process(OwnedFd),
}

impl Target {
    fn kill(&self) {
        match self {
            Target::Group(group) => kill_group(*group),
            Target::Process(pidfd) => {
                let _ = rustix::process::pidfd_send_signal(pidfd, Signal::KILL);
            }
        }
    }
}

/// What ends each run in progress, by registration.
static RUNS: Mutex<BTreeMap<u64, Target>> = Mutex::new(BTreeMap::new());

/// Registrations made so far.
static REGISTERED: AtomicU64 = AtomicU64::new(0);

/// Set once interrupted: no run starts after, and the runs in progress are cut.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The signal that interrupted (0: none).
static SIGNALLED: AtomicI32 = AtomicI32::new(0);

/// Whether the runs were interrupted ([`interrupt`]).
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Whether no more runs are taken: interrupted, or `deadline` has passed.
pub fn past(deadline: Option<Instant>) -> bool {
    interrupted() || deadline.is_some_and(|d| Instant::now() >= d)
}

/// Ends every run in progress and refuses new ones.
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::SeqCst);
    let runs = RUNS.lock().unwrap_or_else(|e| e.into_inner());
    for target in runs.values() {
        target.kill();
    }
}

/// Kills process group `group`.
pub(crate) fn kill_group(group: i32) {
    if let Some(pid) = Pid::from_raw(group) {
        let _ = rustix::process::kill_process_group(pid, Signal::KILL);
    }
}

/// What ends a run, registered while it lives.
pub(crate) struct Registered(u64);

impl Registered {
    /// Registers process group `group`.
    pub(crate) fn group(group: i32) -> Registered {
        Registered::new(Target::Group(group))
    }

    /// Registers the process of descriptor `pidfd` (a copy of it).
    pub(crate) fn process(pidfd: &impl AsFd) -> io::Result<Registered> {
        Ok(Registered::new(Target::Process(
            pidfd.as_fd().try_clone_to_owned()?,
        )))
    }

    /// Registers `target`; an interruption that came before it was registered did not see it,
    /// so it is killed at once then.
    fn new(target: Target) -> Registered {
        let id = REGISTERED.fetch_add(1, Ordering::Relaxed);
        let mut runs = RUNS.lock().unwrap_or_else(|e| e.into_inner());
        if interrupted() {
            target.kill();
        }
        runs.insert(id, target);
        Registered(id)
    }
}

impl Drop for Registered {
    fn drop(&mut self) {
        RUNS.lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&self.0);
    }
}

/// The signal that interrupted the runs, if one did.
pub fn interrupted_by() -> Option<i32> {
    Some(SIGNALLED.load(Ordering::SeqCst)).filter(|&s| s != 0)
}

/// Listens for SIGINT, SIGTERM and SIGHUP while the returned handle lives: the first one
/// [`interrupt`]s (every run killed, no run started after; the caller then writes what it
/// found and returns); a second one ends the process at once.
pub fn interrupt_on_signals() -> io::Result<signal_hook::iterator::Handle> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    let handle = signals.handle();
    std::thread::spawn(move || {
        for signal in signals.forever() {
            if SIGNALLED.swap(signal, Ordering::SeqCst) != 0 {
                interrupt();
                std::process::exit(128 + signal);
            }
            interrupt();
        }
    });
    Ok(handle)
}

/// While it lives, this process is the subreaper of its descendants (Linux): an unconfined
/// program's descendant that leaves its process group and outlives it becomes a child of the
/// caller. When it is dropped, however the caller ends (its work done, an error, an
/// interruption), every such descendant is ended. A confined run needs none of this: nothing of
/// it outlives its PID namespace. The caller's own children are not the programs': those alive
/// when it was made, and any in the caller's process group, are left alone.
#[derive(Debug)]
pub struct Reaper {
    /// The children this process had when it was made.
    before: BTreeSet<i32>,
}

impl Reaper {
    /// Adopts the orphans of the programs run from now on.
    pub fn adopt() -> Reaper {
        let _ = rustix::process::set_child_subreaper(Some(rustix::process::getpid()));
        Reaper {
            before: children().into_iter().map(|c| c.pid).collect(),
        }
    }

    /// Kills and reaps every child that is an orphan of the programs: not one the caller had
    /// before, not in the caller's process group. Each death may hand the caller more orphans
    /// (a double fork), so it scans again until a scan finds none (at most 100 scans).
    fn sweep(&self) {
        // Read from /proc: in a PID namespace whose process group leader lies outside it, the
        // group shows as 0 (which `getpgrp` does not expect).
        let own_group = crate::proc::parse_stat(
            &std::fs::read_to_string(Path::new("/proc/self/stat")).unwrap_or_default(),
        )
        .map_or(0, |s| s.group);
        for _ in 0..100 {
            let orphans: Vec<i32> = children()
                .into_iter()
                .filter(|c| c.group != own_group && !self.before.contains(&c.pid))
                .map(|c| c.pid)
                .collect();
            if orphans.is_empty() {
                return;
            }
            for pid in orphans.into_iter().filter_map(Pid::from_raw) {
                let _ = rustix::process::kill_process(pid, Signal::KILL);
                let _ = rustix::process::waitpid(Some(pid), rustix::process::WaitOptions::empty());
            }
        }
    }
}

impl Drop for Reaper {
    fn drop(&mut self) {
        self.sweep();
    }
}

/// The children of this process, read from `/proc`.
fn children() -> Vec<crate::proc::Stat> {
    let me = rustix::process::getpid().as_raw_nonzero().get();
    crate::proc::every_process()
        .into_iter()
        .filter(|p| p.parent == me)
        .collect()
}
