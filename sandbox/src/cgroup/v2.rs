//! The kernel's accounting by cgroup v2, as every current distribution mounts it: a subtree of
//! the sandbox's own, `BASE/referee-PID-N`, with the `memory` and `pids` controllers (and
//! `cpu`, where offered) enabled, and in it a group per run, `run-K`, into which the run's init
//! is born (`clone3` with `CLONE_INTO_CGROUP`: no run waits to join a group):
//!
//! - `cpu.stat`'s `usage_usec`: the CPU time of every thread of every process that was ever in
//!   the group, whoever reaped it;
//! - `memory.current`, and `memory.peak` (Linux 5.19) its high-water mark, both of all the
//!   memory charged to the group (its processes' pages, shared memory, memfds, tmpfs files,
//!   page tables, socket buffers, kernel objects); `memory.max` the limit and
//!   `memory.swap.max` 0, past which the kernel first reclaims what it can and then ends the
//!   run (`memory.oom.group`: all of it), counted in `memory.events`' `oom_kill`;
//! - `pids.max`: the most processes and threads at once;
//! - `cgroup.kill` (Linux 5.14): the run ended at once, every process of it.
//!
//! `BASE` is this process's own group, or the directory given (`--cgroup`, a delegated
//! subtree). cgroup v2 lets a group's children have controllers only when the group holds no
//! process (the root of the hierarchy aside), so the auditing process moves itself into a
//! leaf of its subtree, `self`, first. A process is in one group: the sandboxes of one process
//! share its subtree. When the last is dropped the process moves back where it can, and
//! removes the subtree; a subtree whose `self` holds no process was left by an audit that was
//! killed, and the next audit ends what is left in it and removes it.

use std::fs;
use std::io::{self, Write};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use super::v1::remove_group;
use crate::host::{v2_group, V2_CONTROLLERS};

/// The sandbox's subtree: the process's, shared by its sandboxes.
#[derive(Debug, Clone)]
pub(crate) struct Cgroups(Arc<Subtree>);

/// The subtrees of this process's live sandboxes, by base.
static SUBTREES: Mutex<Vec<(PathBuf, Weak<Subtree>)>> = Mutex::new(Vec::new());

/// A subtree of a process's own.
#[derive(Debug)]
pub(crate) struct Subtree {
    /// `BASE`.
    base: PathBuf,
    /// `BASE/referee-PID-N`.
    subtree: PathBuf,
    /// Whether `BASE` is the root of the hierarchy (which may hold processes and controllers
    /// for its children at once).
    base_is_root: bool,
    /// The controllers this sandbox enabled in `BASE`'s `cgroup.subtree_control`.
    enabled_in_base: Vec<String>,
    /// Groups made so far.
    made: AtomicU64,
    /// Whether the kernel has `memory.peak` and `cgroup.kill`.
    has_peak: bool,
    has_kill: bool,
}

/// How long after its making a subtree is never taken for abandoned: the audit that made it
/// moves into it within microseconds (cgroup v2 renames no group, so it cannot be made under
/// another name first).
const YOUNG: Duration = Duration::from_secs(2);

impl Cgroups {
    /// The process's subtree under `base` (a group of the hierarchy mounted at `mount`): the
    /// one its other sandboxes have, or a new one, this process moved into its `self` leaf;
    /// why not, when it cannot be made.
    pub(crate) fn make(mount: &Path, base: &Path) -> Result<Cgroups, String> {
        let mut subtrees = SUBTREES.lock().unwrap_or_else(|e| e.into_inner());
        subtrees.retain(|(_, weak)| weak.strong_count() > 0);
        if let Some(live) = subtrees
            .iter()
            .filter(|(b, _)| b == base)
            .find_map(|(_, weak)| weak.upgrade())
        {
            return Ok(Cgroups(live));
        }
        let subtree = Arc::new(Subtree::make(mount, base)?);
        subtrees.push((base.to_path_buf(), Arc::downgrade(&subtree)));
        Ok(Cgroups(subtree))
    }

    /// The subtree.
    pub(crate) fn subtree(&self) -> &Path {
        &self.0.subtree
    }

    /// A new run's group, within `memory` bytes (no swap) and `processes` processes and
    /// threads.
    pub(crate) fn for_run(&self, memory: u64, processes: u64) -> io::Result<RunGroups> {
        self.0.for_run(memory, processes)
    }
}

impl Subtree {
    /// A subtree under `base`, this process moved into its `self` leaf.
    fn make(mount: &Path, base: &Path) -> Result<Subtree, String> {
        let offered = read(&base.join("cgroup.controllers"));
        let offered: Vec<&str> = offered.split_whitespace().collect();
        let missing: Vec<&str> = V2_CONTROLLERS
            .iter()
            .copied()
            .filter(|c| !offered.contains(c))
            .collect();
        if !missing.is_empty() {
            return Err(format!(
                "{} offers no {} controller (cgroup.controllers)",
                base.display(),
                missing.join(" or ")
            ));
        }
        let own = fs::read_to_string("/proc/self/cgroup")
            .ok()
            .and_then(|membership| v2_group(mount, &membership));
        if !own.as_deref().is_some_and(|own| own.starts_with(base)) {
            return Err(format!(
                "this process is in the group {}, outside {}: cgroup v2 moves a process only \
                 between groups under one its user may write; start it inside {} (e.g. \
                 systemd-run --user --scope -p Delegate=yes, or its PID written into a leaf's \
                 cgroup.procs)",
                own.map_or("?".to_string(), |o| o.display().to_string()),
                base.display(),
                base.display()
            ));
        }
        remove_abandoned(base);
        let subtree = base.join(format!(
            "referee-{}-{}",
            std::process::id(),
            super::unique_number() % 1_000_000
        ));
        fs::create_dir(&subtree)
            .and_then(|()| fs::create_dir(subtree.join("self")))
            .and_then(|()| {
                write(
                    &subtree.join("self/cgroup.procs"),
                    &std::process::id().to_string(),
                )
            })
            .map_err(|e| {
                remove_group(&subtree);
                format!(
                    "moving this process into {}: {e}",
                    subtree.join("self").display()
                )
            })?;
        let leaf = subtree.join("self");
        let undo = |message: String, moved: bool| {
            if moved {
                let _ = write(&base.join("cgroup.procs"), &std::process::id().to_string());
            }
            remove_group(&subtree);
            message
        };
        let base_is_root = base == mount;
        let enabled_in_base =
            enable(base, &subtree, &offered).map_err(|(message, moved)| undo(message, moved))?;
        let probe = leaf.join("memory.peak");
        Ok(Subtree {
            base: base.to_path_buf(),
            has_peak: probe.exists(),
            has_kill: leaf.join("cgroup.kill").exists(),
            subtree,
            base_is_root,
            enabled_in_base,
            made: AtomicU64::new(0),
        })
    }

    fn for_run(&self, memory: u64, processes: u64) -> io::Result<RunGroups> {
        let n = self.made.fetch_add(1, Ordering::Relaxed);
        let dir = self.subtree.join(format!("run-{n}"));
        fs::create_dir(&dir)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", dir.display())))?;
        let mut groups = RunGroups {
            fd: None,
            has_peak: self.has_peak,
            has_kill: self.has_kill,
            seen: AtomicU64::new(0),
            dir,
        };
        write(&groups.dir.join("memory.max"), &memory.to_string())?;
        let swap = groups.dir.join("memory.swap.max");
        if swap.exists() {
            write(&swap, "0")?;
        }
        write(&groups.dir.join("memory.oom.group"), "1")?;
        write(&groups.dir.join("pids.max"), &processes.to_string())?;
        let fd = rustix::fs::open(
            &groups.dir,
            rustix::fs::OFlags::DIRECTORY
                | rustix::fs::OFlags::RDONLY
                | rustix::fs::OFlags::CLOEXEC,
            rustix::fs::Mode::empty(),
        )?;
        groups.fd = Some(fd);
        Ok(groups)
    }
}

impl Drop for Subtree {
    fn drop(&mut self) {
        // Made and dropped one at a time: a subtree made meanwhile has this process already.
        let subtrees = SUBTREES.lock().unwrap_or_else(|e| e.into_inner());
        if subtrees
            .iter()
            .any(|(base, weak)| *base == self.base && weak.strong_count() > 0)
        {
            remove_group(&self.subtree);
            return;
        }
        let own = std::process::id().to_string();
        // Back into the base where the kernel allows it: at once into the root, or once the
        // controllers this sandbox enabled there are off again.
        let mut out = self.base_is_root && write(&self.base.join("cgroup.procs"), &own).is_ok();
        if !out && !self.enabled_in_base.is_empty() {
            let off: Vec<String> = self
                .enabled_in_base
                .iter()
                .map(|c| format!("-{c}"))
                .collect();
            let _ = write(&self.subtree.join("cgroup.subtree_control"), &off.join(" "));
            out = write(&self.base.join("cgroup.subtree_control"), &off.join(" ")).is_ok()
                && write(&self.base.join("cgroup.procs"), &own).is_ok();
        }
        if out {
            remove_group(&self.subtree);
        } else if let Ok(entries) = fs::read_dir(&self.subtree) {
            // Still in `self`: the runs' groups go, the subtree is the next audit's to remove.
            for entry in entries.flatten() {
                if entry.file_name() != "self" && entry.file_type().is_ok_and(|t| t.is_dir()) {
                    remove_group(&entry.path());
                }
            }
        }
    }
}

/// Enables the run groups' controllers (and `cpu`, when `offered`) in `base` (those it lacks:
/// what this enabled there) and in `subtree`: why not, and whether this process had moved.
fn enable(base: &Path, subtree: &Path, offered: &[&str]) -> Result<Vec<String>, (String, bool)> {
    let wanted: Vec<&str> = V2_CONTROLLERS
        .iter()
        .copied()
        .chain(offered.contains(&"cpu").then_some("cpu"))
        .collect();
    let before = read(&base.join("cgroup.subtree_control"));
    let enabled_in_base: Vec<String> = wanted
        .iter()
        .filter(|c| !before.split_whitespace().any(|b| b == **c))
        .map(|c| c.to_string())
        .collect();
    let plus = |controllers: &[&str]| -> String {
        let line: Vec<String> = controllers.iter().map(|c| format!("+{c}")).collect();
        line.join(" ")
    };
    if !enabled_in_base.is_empty() {
        let names: Vec<&str> = enabled_in_base.iter().map(String::as_str).collect();
        write(&base.join("cgroup.subtree_control"), &plus(&names)).map_err(|e| {
            let busy = if e.raw_os_error() == Some(libc::EBUSY) {
                " (the group holds other processes: run this process in a group of its own, e.g. \
                 systemd-run --scope -p Delegate=yes)"
            } else {
                ""
            };
            (
                format!(
                    "enabling {} in {}: {e}{busy}",
                    names.join(" "),
                    base.display()
                ),
                true,
            )
        })?;
    }
    write(&subtree.join("cgroup.subtree_control"), &plus(&wanted))
        .map_err(|e| (format!("{}: {e}", subtree.display()), true))?;
    Ok(enabled_in_base)
}

/// Removes the `referee-...` subtrees under `base` whose `self` holds no process (an audit that
/// was killed, or could not move out) and that are not [`YOUNG`] with their maker alive, ending
/// what is left in them.
fn remove_abandoned(base: &Path) {
    let Ok(entries) = fs::read_dir(base) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        let dir = entry.path();
        let Some(maker) = name
            .strip_prefix("referee-")
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<i32>().ok())
        else {
            continue;
        };
        // A subtree's time changes with every group made in it, so it protects only a subtree
        // whose maker still lives (it may not have moved into `self` yet).
        let young = !entry
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|t| t.elapsed().unwrap_or_default() > YOUNG);
        if (young && alive(maker)) || populated(&dir.join("self")) {
            continue;
        }
        kill(&dir);
        wait_empty(&dir);
        remove_group(&dir);
    }
}

/// Whether a process numbered `pid` lives (in this PID namespace; one that may not be
/// signalled lives too).
fn alive(pid: i32) -> bool {
    // SAFETY: signal 0 checks only whether the process exists.
    let signalled = unsafe { libc::kill(pid, 0) } == 0;
    signalled || io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}

/// Whether group `dir` or a group below it holds a process (`cgroup.events`' `populated`).
fn populated(dir: &Path) -> bool {
    super::field(&dir.join("cgroup.events"), "populated") != 0
}

/// Ends every process in group `dir` and below: at once with `cgroup.kill`, else one by one.
fn kill(dir: &Path) {
    if write(&dir.join("cgroup.kill"), "1").is_ok() {
        return;
    }
    if let Ok(entries) = fs::read_dir(dir) {
        for entry in entries.flatten() {
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                kill(&entry.path());
            }
        }
    }
    for pid in read(&dir.join("cgroup.procs"))
        .lines()
        .filter_map(|l| l.trim().parse::<i32>().ok())
    {
        // SAFETY: a plain system call.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
}

/// Waits (a second at most) until group `dir` holds no process.
fn wait_empty(dir: &Path) {
    for _ in 0..200 {
        if !populated(dir) {
            return;
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// One run's group, removed when dropped.
#[derive(Debug)]
pub(crate) struct RunGroups {
    dir: PathBuf,
    /// Its directory, open: what `clone3` takes.
    fd: Option<OwnedFd>,
    has_peak: bool,
    has_kill: bool,
    /// The most memory read so far (where the kernel has no `memory.peak`).
    seen: AtomicU64,
}

impl RunGroups {
    /// The group's directory, open.
    pub(crate) fn fd(&self) -> BorrowedFd<'_> {
        self.fd.as_ref().expect("an open group").as_fd()
    }

    /// What the group is charged now: CPU time, memory.
    pub(crate) fn charged(&self) -> (Duration, u64) {
        let cpu = Duration::from_micros(super::field(&self.dir.join("cpu.stat"), "usage_usec"));
        let memory = read(&self.dir.join("memory.current"))
            .trim()
            .parse()
            .unwrap_or(0);
        self.seen.fetch_max(memory, Ordering::Relaxed);
        (cpu, memory)
    }

    /// The most memory the group was charged at once.
    pub(crate) fn peak_memory(&self) -> u64 {
        let peak = if self.has_peak {
            read(&self.dir.join("memory.peak"))
                .trim()
                .parse()
                .unwrap_or(0)
        } else {
            0
        };
        peak.max(self.seen.load(Ordering::Relaxed))
    }

    /// Whether the kernel ended the run at its memory limit.
    pub(crate) fn out_of_memory(&self) -> bool {
        super::field(&self.dir.join("memory.events"), "oom_kill") > 0
    }

    /// The processes in the group now.
    pub(crate) fn processes(&self) -> Vec<i32> {
        read(&self.dir.join("cgroup.procs"))
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect()
    }

    /// Ends every process of the run at once.
    pub(crate) fn kill(&self) {
        if self.has_kill {
            let _ = write(&self.dir.join("cgroup.kill"), "1");
        } else {
            kill(&self.dir);
        }
    }
}

impl Drop for RunGroups {
    fn drop(&mut self) {
        self.fd = None;
        if populated(&self.dir) {
            self.kill();
            wait_empty(&self.dir);
        }
        remove_group(&self.dir);
    }
}

fn read(path: &Path) -> String {
    fs::read_to_string(path).unwrap_or_default()
}

fn write(path: &Path, value: &str) -> io::Result<()> {
    fs::OpenOptions::new()
        .write(true)
        .open(path)
        .and_then(|mut f| f.write_all(value.as_bytes()))
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))
}
