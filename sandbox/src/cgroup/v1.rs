//! The kernel's accounting by cgroup v1, where the machine mounts its hierarchies: a control
//! group of the `cpuacct`, `memory` and `pids` controllers for each run (as isolate 1.x and
//! DOMjudge's runguard made one), under the audit's own group of each hierarchy
//! (`referee-PID-N`).
//!
//! - `cpuacct.usage`: the CPU time of every thread of every process that was ever in the group,
//!   in nanoseconds;
//! - `memory.usage_in_bytes` and `memory.max_usage_in_bytes`: all the memory charged to the
//!   group (its processes' pages, shared memory, memfds, tmpfs files, page tables, kernel
//!   objects), and its high-water mark, which the kernel keeps between two readings;
//!   `memory.limit_in_bytes` the limit, past which the kernel first reclaims the pages it can
//!   (the file pages the run read) and then ends the run's largest process (`oom_kill` in
//!   `memory.oom_control`): the run is over its memory limit;
//! - `pids.max`: the most processes and threads at once.
//!
//! A run's groups are a **slot**'s, reused run after run: joining a group of cgroup v1 waits for
//! an RCU grace period of the kernel (some 15 ms on a machine at rest, longer than most runs), so
//! no run joins one. Each slot has a thread of its own that joined the slot's groups once (its
//! thread id written to each `tasks`) and starts the runs' inits, which are born in the groups:
//! through the slot's own keeper program, which the thread started (so that it was born there
//! too), or itself. Slots are taken by one run at a time, and only once the previous run's
//! processes have all ended (the slot's `tasks` holds its thread and its keeper alone, else the
//! slot is set aside and a new one made); before each run the slot's counters are reset
//! (`cpuacct.usage`, `memory.max_usage_in_bytes`), the memory it still holds from earlier runs
//! (slab, file pages) reclaimed (`memory.force_empty`) when it is more than
//! [`RECLAIMED_ABOVE`], what remains taken as the run's baseline (added to its limit,
//! subtracted from its readings), and the out-of-memory count noted. The CPU time a run reports
//! is the slot's count less what the starter and the init took for it (each says so).
//!
//! While an audit lives it holds a lock on a file named after its groups
//! (`/run/referee-cgroups/NAME`): groups whose lock nobody holds were left by an audit that was
//! killed, and the next audit ends what is left in them and removes them. A process id could
//! not say so: audits run in PID namespaces of their own see one another's ids as other
//! processes' or none.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use crate::child::Steps;
use crate::keeper::Keeper;
use crate::start::{self, RunEnds, StartError, Started};

/// The most memory earlier runs may leave charged to a slot for the next run to keep as its
/// baseline without a reclaim. Reclaiming (`memory.force_empty`) drains every CPU's charge
/// cache and waits for it, some 0.5 ms a run here, while a small program's runs leave 1 to 2
/// MiB charged (its file pages, each CPU's charge cache, kernel objects of the ended run that
/// the kernel frees a little later). A baseline is added to the run's limit and subtracted from
/// its readings; what of it is freed while the run goes is room the run may hold beyond its
/// limit, so the limit holds within this much.
pub(crate) const RECLAIMED_ABOVE: u64 = 4 << 20;

/// The audit's own group in each controller's hierarchy, under which its slots are.
#[derive(Debug)]
pub(crate) struct Cgroups {
    /// `referee-PID-N` in the `cpuacct`, `memory` and `pids` hierarchies.
    dirs: [PathBuf; 3],
    /// Slots made so far.
    made: AtomicU64,
    /// The slots no run holds now.
    free: Arc<Mutex<Vec<Slot>>>,
    /// The keeper program each slot starts, if there is one.
    keeper: Option<PathBuf>,
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

impl Cgroups {
    /// The audit's groups, made in this process's own group of each hierarchy (`owns`, the
    /// `cpuacct`, `memory` and `pids` ones): why not, when one cannot be written (a normal
    /// user, a container without them). Groups a killed audit left behind are removed first.
    /// Each slot's runs are started by `keeper` when given.
    pub(crate) fn make(owns: &[PathBuf; 3], keeper: Option<PathBuf>) -> Result<Cgroups, String> {
        let name = format!(
            "referee-{}-{}",
            std::process::id(),
            super::unique_number() % 1_000_000
        );
        fs::create_dir_all(LOCKS).map_err(|e| format!("{LOCKS}: {e}"))?;
        let lock = lock(&name, true).ok_or_else(|| format!("{LOCKS}/{name}: cannot be locked"))?;
        remove_abandoned(owns);
        let mut dirs = Vec::new();
        for own in owns {
            let dir = own.join(&name);
            if let Err(e) = fs::create_dir(&dir) {
                for made in &dirs {
                    let _ = fs::remove_dir(made);
                }
                let _ = fs::remove_file(Path::new(LOCKS).join(&name));
                return Err(format!("{}: {e}", dir.display()));
            }
            dirs.push(dir);
        }
        let dirs: [PathBuf; 3] = dirs.try_into().expect("three controllers");
        Ok(Cgroups {
            dirs,
            made: AtomicU64::new(0),
            free: Arc::new(Mutex::new(Vec::new())),
            keeper,
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
                    break Slot::new(&self.dirs, n, self.keeper.as_deref())?;
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

/// Removes the `referee-...` groups under each of `owns` whose lock nobody holds (an audit
/// killed before it could remove them), with their runs' groups, ending what is left in them,
/// then their locks.
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
                kill_within(&own.join(&name));
                remove_group(&own.join(&name));
            }
            let _ = fs::remove_file(entry.path());
        }
    }
}

/// Kills every process in group `dir` and the groups under it.
fn kill_within(dir: &Path) {
    if let Ok(entries) = fs::read_dir(dir) {
        for entry in entries.flatten() {
            if entry.file_type().is_ok_and(|t| t.is_dir()) {
                kill_within(&entry.path());
            }
        }
    }
    for pid in pids(&dir.join("cgroup.procs")) {
        // SAFETY: a plain system call.
        unsafe { libc::kill(pid, libc::SIGKILL) };
    }
}

/// The process ids listed in `file` (a `cgroup.procs` or `tasks`).
fn pids(file: &Path) -> Vec<i32> {
    fs::read_to_string(file)
        .map(|text| text.lines().filter_map(|l| l.trim().parse().ok()).collect())
        .unwrap_or_default()
}

/// Removes group `dir` and the groups under it (each empty of processes), retrying a moment
/// while the kernel finishes with a group whose last process just ended.
pub(crate) fn remove_group(dir: &Path) {
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

/// A piece of work for a slot's thread.
type Job = Box<dyn FnOnce() + Send>;

/// Groups reused run after run, the thread in them that starts each run (or starts the
/// slot's keeper program, which does).
#[derive(Debug)]
struct Slot {
    /// Its `cpuacct`, `memory` and `pids` groups.
    dirs: [PathBuf; 3],
    /// Where its thread takes work (`None` once it is told to end).
    jobs: Option<mpsc::Sender<Job>>,
    /// Its thread, and that thread's id.
    thread: Option<JoinHandle<()>>,
    tid: i32,
    /// The slot's keeper program, started by its thread.
    keeper: Option<Keeper>,
    /// The read end of a pipe whose write end the slot holds: the inits its thread starts see
    /// its end.
    alive: (std::os::fd::OwnedFd, std::os::fd::OwnedFd),
}

impl Slot {
    /// Slot `n`'s groups under each of `bases`, its thread, which has joined them, and its
    /// keeper program (from `keeper`, when given), which the thread started.
    fn new(bases: &[PathBuf; 3], n: u64, keeper: Option<&Path>) -> io::Result<Slot> {
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
        let (jobs, taken) = mpsc::channel::<Job>();
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
                    for job in taken {
                        job();
                    }
                }
            });
        let alive = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?;
        let mut slot = Slot {
            dirs,
            jobs: Some(jobs),
            thread: None,
            tid: 0,
            keeper: None,
            alive,
        };
        slot.thread = Some(thread?);
        slot.tid = has_joined
            .recv()
            .map_err(|_| io::Error::other("a run slot's thread ended at once"))??;
        if let Some(path) = keeper {
            let path = path.to_path_buf();
            slot.keeper = Some(slot.on_thread(move || Keeper::spawn(&path))??);
            // The keeper starts the runs in the slot's groups; the thread leaves the memory
            // group, whose OOM killer would otherwise weigh this whole process (a thread that
            // starts the runs itself stays, and the runs' processes are the killer's first
            // choice: `start::map_identity`).
            write(&bases[1].join("tasks"), &slot.tid.to_string())?;
        }
        Ok(slot)
    }

    /// Runs `work` on the slot's thread, its result back.
    fn on_thread<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> io::Result<T> {
        let (reply, done) = mpsc::channel();
        let gone = || io::Error::other("a run slot's thread has ended");
        self.jobs
            .as_ref()
            .ok_or_else(gone)?
            .send(Box::new(move || {
                let _ = reply.send(work());
            }))
            .map_err(|_| gone())?;
        done.recv().map_err(|_| gone())
    }

    fn cpu(&self) -> &Path {
        &self.dirs[0]
    }

    fn memory(&self) -> &Path {
        &self.dirs[1]
    }

    /// Whether its groups hold its thread and its keeper alone (every process of its last run
    /// has ended).
    fn is_clear(&self) -> bool {
        let mut expected = vec![self.tid];
        expected.extend(self.keeper.as_ref().map(|k| k.pid() as i32));
        expected.sort_unstable();
        let mut tasks = pids(&self.cpu().join("tasks"));
        tasks.sort_unstable();
        tasks == expected
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        // The keeper first: its thread must outlive it.
        self.keeper = None;
        self.jobs = None;
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
        // Its thread and its keeper are among the group's tasks.
        write(
            &self.slot().dirs[2].join("pids.max"),
            &(processes + 2).to_string(),
        )
    }

    /// Starts a run taking `steps` with `ends` in the slot: by its keeper program, or from its
    /// thread. `channel` is this process's end of the run's channel.
    pub(crate) fn start(
        &self,
        steps: Steps,
        ends: RunEnds,
        channel: &std::os::fd::OwnedFd,
    ) -> Result<Started, StartError> {
        let slot = self.slot();
        if let Some(keeper) = &slot.keeper {
            return keeper.start(&steps, ends, None, channel);
        }
        let alive = slot.alive.0.try_clone().map_err(|source| StartError {
            step: crate::child::Step::Namespaces,
            source,
        })?;
        slot.on_thread(move || {
            use std::os::fd::AsFd;
            start::start_here(&steps, ends, None, alive.as_fd())
        })
        .map_err(|source| StartError {
            step: crate::child::Step::Namespaces,
            source,
        })?
    }

    /// What the groups are charged now: CPU time, memory.
    pub(crate) fn charged(&self) -> (Duration, u64) {
        (
            Duration::from_nanos(number(&self.slot().cpu().join("cpuacct.usage"))),
            number(&self.slot().memory().join("memory.usage_in_bytes"))
                .saturating_sub(self.memory_base),
        )
    }

    /// The most memory the group was charged at once.
    pub(crate) fn peak_memory(&self) -> u64 {
        number(&self.slot().memory().join("memory.max_usage_in_bytes"))
            .saturating_sub(self.memory_base)
    }

    /// The kernel's count of processes ended at the memory ceiling.
    fn kills(&self) -> u64 {
        super::field(&self.slot().memory().join("memory.oom_control"), "oom_kill")
    }

    /// Whether the kernel ended a process of the run at the memory ceiling.
    pub(crate) fn out_of_memory(&self) -> bool {
        self.kills() > self.kills_base
    }

    /// The processes in the run now (the auditing process and the slot's keeper aside).
    pub(crate) fn processes(&self) -> Vec<i32> {
        let own = std::process::id() as i32;
        let keeper = self.slot().keeper.as_ref().map(|k| k.pid() as i32);
        pids(&self.slot().cpu().join("cgroup.procs"))
            .into_iter()
            .filter(|&p| p != own && Some(p) != keeper)
            .collect()
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
