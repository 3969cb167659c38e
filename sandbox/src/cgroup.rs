//! The kernel's accounting of a run, where the machine gives it: a control group of cgroup v1's
//! `cpuacct`, `memory` and `pids` controllers for each run (as isolate and DOMjudge's runguard
//! make one), under the audit's own group of each hierarchy (`referee-PID-N`).
//!
//! - `cpuacct.usage`: the CPU time of every thread of every process that was ever in the group,
//!   in nanoseconds (the time limit's count while the run goes);
//! - `memory.usage_in_bytes` and `memory.max_usage_in_bytes`: all the memory charged to the
//!   group (its processes' pages, shared memory, memfds, tmpfs files, page tables), and its
//!   high-water mark, which the kernel keeps between two readings; `memory.limit_in_bytes` the
//!   limit, past which the kernel first reclaims the pages it can (the file pages the run
//!   read) and then ends the run's largest process (`oom_kill` in `memory.oom_control`): the
//!   run is over its memory limit;
//! - `pids.max`: the most processes and threads at once.
//!
//! The run's first process joins its groups by writing `0` to each group's `cgroup.procs`
//! (opened by the audit) before it takes any other step; everything it starts is in them.
//!
//! While an audit lives it holds a lock on a file named after its groups
//! (`/run/referee-cgroups/NAME`): groups whose lock nobody holds were left by an audit that was
//! killed, and the next audit removes them. A process id could not say so: audits run in PID
//! namespaces of their own see one another's ids as other processes' or none.

use std::fs;
use std::io::{self, Write};
use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// The controllers a run's groups belong to, in the order of [`RunGroups::dirs`].
const CONTROLLERS: [&str; 3] = ["cpuacct", "memory", "pids"];

/// The audit's own group in each controller's hierarchy, under which each run gets one.
#[derive(Debug)]
pub(crate) struct Cgroups {
    /// `referee-PID-N` in the `cpuacct`, `memory` and `pids` hierarchies.
    dirs: [PathBuf; 3],
    /// Groups made so far.
    made: AtomicU64,
    /// The lock that says the groups are in use, and its file.
    _lock: std::fs::File,
    lock_path: PathBuf,
}

/// Where the audits' locks are.
const LOCKS: &str = "/run/referee-cgroups";

/// The lock file of the groups named `name` (made when `create`), locked exclusively for as
/// long as the file is open; `None` when someone else holds it, or it is not there.
fn lock(name: &str, create: bool) -> Option<std::fs::File> {
    use std::os::fd::AsRawFd;
    let path = Path::new(LOCKS).join(name);
    let file = fs::OpenOptions::new()
        .write(true)
        .create(create)
        .truncate(false)
        .open(&path)
        .ok()?;
    // SAFETY: a plain system call on an open descriptor.
    let locked = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0;
    locked.then_some(file)
}

/// The directory of `controller`'s cgroup v1 hierarchy that this process belongs to, if the
/// machine mounts one.
fn own_group(controller: &str, mountinfo: &str, membership: &str) -> Option<PathBuf> {
    // mountinfo: ID PARENT MAJ:MIN ROOT MOUNT-POINT OPTIONS [OPTIONAL...] - TYPE SOURCE SUPER
    let mount = mountinfo.lines().find_map(|line| {
        let (before, after) = line.split_once(" - ")?;
        let mut after = after.split(' ');
        if after.next()? != "cgroup" {
            return None;
        }
        let options = after.nth(1)?;
        options
            .split(',')
            .any(|o| o == controller)
            .then(|| before.split(' ').nth(4).map(PathBuf::from))?
    })?;
    // /proc/self/cgroup: ID:CONTROLLERS:PATH
    let path = membership.lines().find_map(|line| {
        let mut fields = line.splitn(3, ':');
        let _ = fields.next()?;
        let controllers = fields.next()?;
        let path = fields.next()?;
        controllers
            .split(',')
            .any(|c| c == controller)
            .then_some(path)
    })?;
    Some(mount.join(path.trim_start_matches('/')))
}

impl Cgroups {
    /// The audit's groups, made in this process's own group of each controller's hierarchy:
    /// `None` when a hierarchy is missing or cannot be written (a normal user, a container
    /// without them). Groups a killed audit left behind are removed first.
    pub(crate) fn make() -> Option<Cgroups> {
        let mountinfo = fs::read_to_string("/proc/self/mountinfo").ok()?;
        let membership = fs::read_to_string("/proc/self/cgroup").ok()?;
        let name = format!(
            "referee-{}-{}",
            std::process::id(),
            unique_number() % 1_000_000
        );
        fs::create_dir_all(LOCKS).ok()?;
        let lock = lock(&name, true)?;
        let owns = CONTROLLERS
            .iter()
            .map(|c| own_group(c, &mountinfo, &membership))
            .collect::<Option<Vec<PathBuf>>>()?;
        remove_abandoned(&owns);
        let mut dirs = Vec::new();
        for own in owns {
            let dir = own.join(&name);
            if fs::create_dir(&dir).is_err() {
                for made in &dirs {
                    let _ = fs::remove_dir(made);
                }
                return None;
            }
            dirs.push(dir);
        }
        let dirs: [PathBuf; 3] = dirs.try_into().ok()?;
        Some(Cgroups {
            dirs,
            made: AtomicU64::new(0),
            _lock: lock,
            lock_path: Path::new(LOCKS).join(name),
        })
    }

    /// The groups of a new run, within `memory` bytes and `processes` processes and threads.
    pub(crate) fn for_run(&self, memory: u64, processes: u64) -> io::Result<RunGroups> {
        let n = self.made.fetch_add(1, Ordering::Relaxed);
        let mut made = Vec::new();
        for base in &self.dirs {
            let dir = base.join(format!("run-{n}"));
            fs::create_dir(&dir)?;
            made.push(dir);
        }
        let mut groups = RunGroups {
            dirs: made.try_into().expect("three controllers"),
            joins: Vec::new(),
        };
        groups.limit(memory, processes)?;
        let joins = groups
            .dirs
            .iter()
            .map(|d| {
                fs::OpenOptions::new()
                    .write(true)
                    .open(d.join("cgroup.procs"))
                    .map(OwnedFd::from)
            })
            .collect::<io::Result<Vec<_>>>()?;
        groups.joins = joins;
        Ok(groups)
    }
}

impl Drop for Cgroups {
    fn drop(&mut self) {
        for dir in &self.dirs {
            remove_group(dir);
        }
        let _ = fs::remove_file(&self.lock_path);
    }
}

/// A number that differs from one call to the next (the time and a counter).
fn unique_number() -> u64 {
    static COUNT: AtomicU64 = AtomicU64::new(0);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos() as u64);
    now.wrapping_add(COUNT.fetch_add(1, Ordering::Relaxed))
}

/// Removes the `referee-...` groups under each of `owns` whose lock nobody holds (an audit
/// killed before it could remove them), with their runs' groups, then their locks.
fn remove_abandoned(owns: &[PathBuf]) {
    let Ok(entries) = fs::read_dir(LOCKS) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name().to_string_lossy().to_string();
        if !name.starts_with("referee-") {
            continue;
        }
        if let Some(_lock) = lock(&name, false) {
            for own in owns {
                remove_group(&own.join(&name));
            }
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Removes group `dir` and the groups under it (each empty of processes), retrying a moment
/// while the kernel finishes with a group whose last process just ended.
fn remove_group(dir: &Path) {
    if let Ok(entries) = fs::read_dir(dir) {
        for entry in entries.flatten() {
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                remove_group(&entry.path());
            }
        }
    }
    for _ in 0..200 {
        match fs::remove_dir(dir) {
            Err(e) if e.raw_os_error() == Some(libc::EBUSY) => {
                std::thread::sleep(Duration::from_millis(5));
            }
            _ => return,
        }
    }
}

/// One run's groups: removed when dropped (the run's processes all ended).
#[derive(Debug)]
pub(crate) struct RunGroups {
    /// Its `cpuacct`, `memory` and `pids` groups.
    dirs: [PathBuf; 3],
    /// Each group's `cgroup.procs`, open for writing: the run's first process writes `0` to
    /// each to join them.
    joins: Vec<OwnedFd>,
}

/// What a run's groups say.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Charged {
    /// The CPU time of every thread that was in the group.
    pub(crate) cpu: Duration,
    /// The memory charged now.
    pub(crate) memory: u64,
}

impl RunGroups {
    fn cpu(&self) -> &Path {
        &self.dirs[0]
    }

    fn memory(&self) -> &Path {
        &self.dirs[1]
    }

    /// Sets the memory limit (memory and swap together, where the kernel counts swap) and the
    /// process limit.
    fn limit(&self, memory: u64, processes: u64) -> io::Result<()> {
        let memory = memory.to_string();
        write(&self.memory().join("memory.limit_in_bytes"), &memory)?;
        let swap = self.memory().join("memory.memsw.limit_in_bytes");
        if swap.exists() {
            write(&swap, &memory)?;
        }
        write(&self.dirs[2].join("pids.max"), &processes.to_string())
    }

    /// The descriptors the run's first process writes `0` to.
    pub(crate) fn joins(&self) -> Vec<std::os::fd::RawFd> {
        use std::os::fd::AsRawFd;
        self.joins.iter().map(AsRawFd::as_raw_fd).collect()
    }

    /// What the groups are charged now.
    pub(crate) fn charged(&self) -> Charged {
        Charged {
            cpu: Duration::from_nanos(number(&self.cpu().join("cpuacct.usage"))),
            memory: number(&self.memory().join("memory.usage_in_bytes")),
        }
    }

    /// The most memory the group was charged at once.
    pub(crate) fn peak_memory(&self) -> u64 {
        number(&self.memory().join("memory.max_usage_in_bytes"))
    }

    /// Whether the kernel ended a process of the run at the memory ceiling.
    pub(crate) fn out_of_memory(&self) -> bool {
        fs::read_to_string(self.memory().join("memory.oom_control"))
            .ok()
            .and_then(|text| {
                text.lines()
                    .find_map(|l| l.strip_prefix("oom_kill "))
                    .and_then(|n| n.trim().parse::<u64>().ok())
            })
            .is_some_and(|kills| kills > 0)
    }

    /// The processes in the run now.
    pub(crate) fn processes(&self) -> Vec<i32> {
        fs::read_to_string(self.cpu().join("cgroup.procs"))
            .map(|text| text.lines().filter_map(|l| l.trim().parse().ok()).collect())
            .unwrap_or_default()
    }
}

impl Drop for RunGroups {
    fn drop(&mut self) {
        self.joins.clear();
        for dir in &self.dirs {
            remove_group(dir);
        }
    }
}

fn write(path: &Path, value: &str) -> io::Result<()> {
    fs::OpenOptions::new()
        .write(true)
        .open(path)
        .and_then(|mut f| f.write_all(value.as_bytes()))
        .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))
}

fn number(path: &Path) -> u64 {
    fs::read_to_string(path)
        .ok()
        .and_then(|t| t.trim().parse().ok())
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_controllers_group_is_found_from_mountinfo_and_membership() {
        let mountinfo = "\
35 24 0:31 / /sys/fs/cgroup/cpu rw,relatime shared:9 - cgroup cgroup rw,cpu
36 24 0:32 / /sys/fs/cgroup/cpuacct rw,relatime shared:10 - cgroup cgroup rw,cpuacct
37 24 0:33 / /sys/fs/cgroup/memory rw,relatime shared:11 - cgroup cgroup rw,memory
38 24 0:34 / /sys/fs/cgroup/unified rw,relatime shared:12 - cgroup2 cgroup2 rw
39 24 0:35 / /sys/fs/cgroup/cpu,cpuacct rw - cgroup cgroup rw,cpu,cpuacct
";
        let membership = "4:memory:/process_api/abc\n2:cpuacct:/\n0::/\n";
        assert_eq!(
            own_group("memory", mountinfo, membership),
            Some(PathBuf::from("/sys/fs/cgroup/memory/process_api/abc"))
        );
        assert_eq!(
            own_group("cpuacct", mountinfo, membership),
            Some(PathBuf::from("/sys/fs/cgroup/cpuacct"))
        );
        assert_eq!(own_group("pids", mountinfo, membership), None);
    }
}
