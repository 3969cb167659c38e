//! Ending every run at once: an interruption (a signal to the caller) kills every run in
//! progress and refuses new ones ([`Interrupt`]), and what an unconfined program left behind is
//! ended when its caller is done ([`Reaper`]).
//!
//! Every run in progress registers what ends it: a confined run its init (whose death ends
//! every process of the run's PID namespace), by a process descriptor; an unconfined run its
//! program's process group.

use std::collections::{BTreeMap, BTreeSet};
use std::io;
use std::os::fd::{AsFd, OwnedFd};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use rustix::process::{Pid, Signal};

/// What ends a run.
#[derive(Debug)]
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

/// One caller's way to end its runs at once: every run of a [`crate::Program`] holding it is
/// registered while it lives, [`Interrupt::interrupt`] kills them all and refuses new ones.
/// Clones share one state; a program made without one gets its own, which nothing interrupts
/// but [`Interrupt::interrupt`] on the program's [`crate::Program::interrupt`].
#[derive(Debug, Clone, Default)]
pub struct Interrupt(Arc<Shared>);

#[derive(Debug, Default)]
struct Shared {
    /// What ends each run in progress, by registration.
    runs: Mutex<BTreeMap<u64, Target>>,
    /// Registrations made so far.
    registered: AtomicU64,
    /// Set once interrupted: no run starts after, and the runs in progress are cut.
    interrupted: AtomicBool,
    /// The signal that interrupted (0: none).
    signalled: AtomicI32,
}

impl Interrupt {
    /// A state no run has yet.
    pub fn new() -> Interrupt {
        Interrupt::default()
    }

    /// Whether the runs were interrupted.
    pub fn interrupted(&self) -> bool {
        self.0.interrupted.load(Ordering::SeqCst)
    }

    /// Whether no more runs are taken: interrupted, or `deadline` has passed.
    pub fn past(&self, deadline: Option<Instant>) -> bool {
        self.interrupted() || deadline.is_some_and(|d| Instant::now() >= d)
    }

    /// Ends every run in progress and refuses new ones.
    pub fn interrupt(&self) {
        self.0.interrupted.store(true, Ordering::SeqCst);
        let runs = self.0.runs.lock().unwrap_or_else(|e| e.into_inner());
        for target in runs.values() {
            target.kill();
        }
    }

    /// The signal that interrupted the runs ([`Interrupt::on_signals`]), if one did.
    pub fn signal(&self) -> Option<i32> {
        Some(self.0.signalled.load(Ordering::SeqCst)).filter(|&s| s != 0)
    }

    /// Listens for SIGINT, SIGTERM and SIGHUP while the returned handle lives: the first one
    /// interrupts (every run killed, no run started after; the caller then writes what it found
    /// and returns); a second one ends the process at once.
    pub fn on_signals(&self) -> io::Result<signal_hook::iterator::Handle> {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
        let handle = signals.handle();
        let interrupt = self.clone();
        std::thread::spawn(move || {
            for signal in signals.forever() {
                if interrupt.0.signalled.swap(signal, Ordering::SeqCst) != 0 {
                    interrupt.interrupt();
                    std::process::exit(128 + signal);
                }
                interrupt.interrupt();
            }
        });
        Ok(handle)
    }

    /// Registers process group `group` while the registration lives.
    pub(crate) fn register_group(&self, group: i32) -> Registered {
        self.register(Target::Group(group))
    }

    /// Registers the process of descriptor `pidfd` (a copy of it) while the registration lives.
    pub(crate) fn register_process(&self, pidfd: &impl AsFd) -> io::Result<Registered> {
        Ok(self.register(Target::Process(pidfd.as_fd().try_clone_to_owned()?)))
    }

    /// Registers `target`; an interruption that came before it was registered did not see it,
    /// so it is killed at once then.
    fn register(&self, target: Target) -> Registered {
        let id = self.0.registered.fetch_add(1, Ordering::Relaxed);
        let mut runs = self.0.runs.lock().unwrap_or_else(|e| e.into_inner());
        if self.interrupted() {
            target.kill();
        }
        runs.insert(id, target);
        Registered {
            interrupt: self.clone(),
            id,
        }
    }
}

/// Kills process group `group`.
pub(crate) fn kill_group(group: i32) {
    if let Some(pid) = Pid::from_raw(group) {
        let _ = rustix::process::kill_process_group(pid, Signal::KILL);
    }
}

/// What ends a run, registered with its [`Interrupt`] while it lives.
pub(crate) struct Registered {
    interrupt: Interrupt,
    id: u64,
}

impl Drop for Registered {
    fn drop(&mut self) {
        self.interrupt
            .0
            .runs
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&self.id);
    }
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
