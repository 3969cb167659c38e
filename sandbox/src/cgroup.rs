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
//! A run's groups are a **slot**'s, reused run after run: joining a group of cgroup v1 waits for
//! an RCU grace period of the kernel (some 15 ms on a machine at rest, longer than most runs), so
//! no run joins one. Each slot has a thread of its own that joined the slot's groups once (its
//! thread id written to each `tasks`) and does nothing but fork the runs' first processes, which
//! are born in the groups. Slots are taken by one run at a time, and only once the previous
//! run's processes have all ended (the slot's `tasks` holds its thread alone, else the slot is
//! set aside and a new one made); before each run the slot's counters are reset
//! (`cpuacct.usage`, `memory.max_usage_in_bytes`), the memory it still holds from earlier runs
//! (slab, file pages) reclaimed (`memory.force_empty`) when it is more than
//! [`RECLAIMED_ABOVE`], what remains taken as the run's baseline (added to its limit,
//! subtracted from its readings), and the out-of-memory count noted. The slot's thread is charged no memory (a process's pages are charged to the
//! group of its leader's, referee's main thread) and no CPU time the run reports (that is the
//! run's init's count of its own processes); `pids.max` leaves it room.
//!
//! While an audit lives it holds a lock on a file named after its groups
//! (`/run/referee-cgroups/NAME`): groups whose lock nobody holds were left by an audit that was
//! killed, and the next audit removes them. A process id could not say so: audits run in PID
//! namespaces of their own see one another's ids as other processes' or none.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// The most memory earlier runs may leave charged to a slot for the next run to keep as its
/// baseline without a reclaim. Reclaiming (`memory.force_empty`) drains every CPU's charge
/// cache and waits for it, some 0.5 ms a run here, while a small program's runs leave 1 to 2
/// MiB charged (its file pages, each CPU's charge cache, kernel objects of the ended run that
/// the kernel frees a little later). A baseline is added to the run's limit and subtracted from
/// its readings; what of it is freed while the run goes is room the run may hold beyond its
/// limit, so the limit holds within this much.
pub(crate) const RECLAIMED_ABOVE: u64 = 4 << 20;

/// The controllers a run's groups belong to, in the order of [`Slot::dirs`].
const CONTROLLERS: [&str; 3] = ["cpuacct", "memory", "pids"];

/// The audit's own group in each controller's hierarchy, under which its slots are.
#[derive(Debug)]
pub(crate) struct Cgroups {
    /// `referee-PID-N` in the `cpuacct`, `memory` and `pids` hierarchies.
    dirs: [PathBuf; 3],
    /// Slots made so far.
    made: AtomicU64,
    /// The slots no run holds now.
    free: Arc<Mutex<Vec<Slot>>>,
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
            free: Arc::new(Mutex::new(Vec::new())),
            _lock: lock,
            lock_path: Path::new(LOCKS).join(name),
        })
    }

    /// The groups of a new run, within `memory` bytes and `processes` processes and threads:
    /// a free slot whose runs have all ended (or a new one), its counters reset.
    pub(crate) fn for_run(&self, memory: u64, processes: u64) -> io::Result<RunGroups> {
        let slot = loop {
            let free = self.free.lock().expect("the slots' lock").pop();
            match free {
                Some(slot) if slot.is_clear() => break slot,
                // Something of an earlier run is still there: the slot is removed.
                Some(slot) => drop(slot),
                None => {
                    let n = self.made.fetch_add(1, Ordering::Relaxed);
                    break Slot::new(&self.dirs, n)?;
                }
            }
        };
        let mut groups = RunGroups {
            slot: Some(slot),
            free: Arc::clone(&self.free),
            memory_base: 0,
            kills_base: 0,
        };
        groups.reset(memory, processes)?;
        Ok(groups)
    }
}

impl Drop for Cgroups {
    fn drop(&mut self) {
        self.free.lock().map(|mut free| free.clear()).ok();
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

/// What a slot's thread is asked: a command to spawn, and where the child goes.
type Request = (Command, mpsc::Sender<io::Result<Child>>);

/// Groups reused run after run, and the thread in them that forks each run's first process.
#[derive(Debug)]
struct Slot {
    /// Its `cpuacct`, `memory` and `pids` groups.
    dirs: [PathBuf; 3],
    /// Where its thread takes requests (`None` once it is told to end).
    requests: Option<mpsc::Sender<Request>>,
    /// Its thread, and that thread's id.
    thread: Option<JoinHandle<()>>,
    tid: i32,
}

impl Slot {
    /// Slot `n`'s groups under each of `bases`, and its thread, which has joined them.
    fn new(bases: &[PathBuf; 3], n: u64) -> io::Result<Slot> {
        let mut dirs = Vec::new();
        for base in bases {
            let dir = base.join(format!("slot-{n}"));
            if let Err(e) = fs::create_dir(&dir) {
                dirs.iter().for_each(|d: &PathBuf| remove_group(d));
                return Err(io::Error::new(e.kind(), format!("{}: {e}", dir.display())));
            }
            dirs.push(dir);
        }
        let dirs: [PathBuf; 3] = dirs.try_into().expect("three controllers");
        let tasks: Vec<PathBuf> = dirs.iter().map(|d| d.join("tasks")).collect();
        let (requests, taken) = mpsc::channel::<Request>();
        let (joined, has_joined) = mpsc::channel::<io::Result<i32>>();
        let thread = std::thread::Builder::new()
            .name(format!("run-slot-{n}"))
            .spawn(move || {
                // SAFETY: a plain system call.
                let tid = unsafe { libc::gettid() };
                let joining = tasks.iter().try_for_each(|t| write(t, &tid.to_string()));
                let ok = joining.is_ok();
                let _ = joined.send(joining.map(|()| tid));
                if ok {
                    for (mut command, reply) in taken {
                        let _ = reply.send(command.spawn());
                    }
                }
            });
        let mut slot = Slot {
            dirs,
            requests: Some(requests),
            thread: None,
            tid: 0,
        };
        slot.thread = Some(thread?);
        slot.tid = has_joined
            .recv()
            .map_err(|_| io::Error::other("a run slot's thread ended at once"))??;
        Ok(slot)
    }

    fn cpu(&self) -> &Path {
        &self.dirs[0]
    }

    fn memory(&self) -> &Path {
        &self.dirs[1]
    }

    /// Whether its groups hold its thread alone (every process of its last run has ended).
    fn is_clear(&self) -> bool {
        fs::read_to_string(self.cpu().join("tasks"))
            .is_ok_and(|text| text.split_whitespace().eq([self.tid.to_string().as_str()]))
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.requests = None;
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
        for dir in &self.dirs {
            remove_group(dir);
        }
    }
}

/// One run's groups: its slot's, given back when dropped (the run's processes all ended).
#[derive(Debug)]
pub(crate) struct RunGroups {
    /// The slot (`None` once given back).
    slot: Option<Slot>,
    /// Where it goes back.
    free: Arc<Mutex<Vec<Slot>>>,
    /// The memory the slot held that could not be reclaimed when the run began.
    memory_base: u64,
    /// The kernel's count of processes it ended at the slot's memory ceiling, when the run
    /// began.
    kills_base: u64,
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
    fn slot(&self) -> &Slot {
        self.slot
            .as_ref()
            .expect("a run's slot until it is dropped")
    }

    /// Resets the slot's counters for a run within `memory` bytes (memory and swap together,
    /// where the kernel counts swap) and `processes` processes and threads.
    fn reset(&mut self, memory: u64, processes: u64) -> io::Result<()> {
        let dir = self.slot().memory().to_path_buf();
        write(&self.slot().cpu().join("cpuacct.usage"), "0")?;
        if number(&dir.join("memory.usage_in_bytes")) > RECLAIMED_ABOVE {
            // What cannot be reclaimed (in use elsewhere too) stays, as the baseline.
            let _ = write(&dir.join("memory.force_empty"), "0");
        }
        self.memory_base = number(&dir.join("memory.usage_in_bytes"));
        let limit = memory.saturating_add(self.memory_base).to_string();
        let swap = dir.join("memory.memsw.limit_in_bytes");
        let has_swap = swap.exists();
        if has_swap {
            // The memory limit may not be above memory and swap's.
            write(&swap, "-1")?;
        }
        write(&dir.join("memory.limit_in_bytes"), &limit)?;
        if has_swap {
            write(&swap, &limit)?;
        }
        write(&dir.join("memory.max_usage_in_bytes"), "0")?;
        self.kills_base = self.kills();
        // Its thread is one of the group's tasks.
        write(
            &self.slot().dirs[2].join("pids.max"),
            &(processes + 1).to_string(),
        )
    }

    /// Spawns `command` from the slot's thread: its first process is born in the groups.
    pub(crate) fn spawn(&self, command: Command) -> io::Result<Child> {
        let (reply, spawned) = mpsc::channel();
        let gone = || io::Error::other("a run slot's thread has ended");
        self.slot()
            .requests
            .as_ref()
            .ok_or_else(gone)?
            .send((command, reply))
            .map_err(|_| gone())?;
        spawned.recv().map_err(|_| gone())?
    }

    /// What the groups are charged now.
    pub(crate) fn charged(&self) -> Charged {
        Charged {
            cpu: Duration::from_nanos(number(&self.slot().cpu().join("cpuacct.usage"))),
            memory: number(&self.slot().memory().join("memory.usage_in_bytes"))
                .saturating_sub(self.memory_base),
        }
    }

    /// The most memory the group was charged at once.
    pub(crate) fn peak_memory(&self) -> u64 {
        number(&self.slot().memory().join("memory.max_usage_in_bytes"))
            .saturating_sub(self.memory_base)
    }

    /// The kernel's count of processes ended at the memory ceiling.
    fn kills(&self) -> u64 {
        fs::read_to_string(self.slot().memory().join("memory.oom_control"))
            .ok()
            .and_then(|text| {
                text.lines()
                    .find_map(|l| l.strip_prefix("oom_kill "))
                    .and_then(|n| n.trim().parse::<u64>().ok())
            })
            .unwrap_or(0)
    }

    /// Whether the kernel ended a process of the run at the memory ceiling.
    pub(crate) fn out_of_memory(&self) -> bool {
        self.kills() > self.kills_base
    }

    /// The processes in the run now (the slot's thread's process, the auditor, aside).
    pub(crate) fn processes(&self) -> Vec<i32> {
        let own = std::process::id() as i32;
        fs::read_to_string(self.slot().cpu().join("cgroup.procs"))
            .map(|text| {
                text.lines()
                    .filter_map(|l| l.trim().parse().ok())
                    .filter(|&p| p != own)
                    .collect()
            })
            .unwrap_or_default()
    }
}

impl Drop for RunGroups {
    fn drop(&mut self) {
        if let Some(slot) = self.slot.take() {
            if let Ok(mut free) = self.free.lock() {
                free.push(slot);
            }
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
