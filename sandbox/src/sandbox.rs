//! The sandbox of a machine ([`Sandbox`]: its mechanisms checked once, what every program
//! reads, where runs are kept, how runs are started and accounted) and of one program
//! ([`Jail`]: its own files, where it writes, its run's root), and the steps of one run.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::io;
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{mpsc, Arc, Mutex, OnceLock};
use std::time::Duration;

use landlock::{Access, AccessFs, AccessNet, BitFlags, Scope, ABI};

use crate::cgroup::{v1, v2, Cgroups, RunGroups};
use crate::child::{Op, Rules, Steps};
use crate::host::Host;
use crate::interrupt::Interrupt;
use crate::keeper::{self, Keeper};
use crate::seccomp::{self, Memory, Policy, Processes, Watching};
use crate::start::{self, cstring, Failure, RunEnds, StartError, Started};

/// The uid and gid programs run as when the sandbox runs as root (`nobody` and `nogroup`).
pub const NOBODY: u32 = 65534;

/// The most bytes a build may write, all its files together (the size of its tmpfs), and so
/// the largest program it makes: 256 MiB, as a judge system bounds an executable.
pub const BUILD_WRITES: u64 = 256 << 20;

/// The most files and directories a run's scratch holds (its tmpfs's inodes, each some kernel
/// memory).
pub(crate) const SCRATCH_FILES: u64 = 4096;

/// The most files and directories a build's scratch holds.
pub(crate) const BUILD_FILES: u64 = 65536;

/// Where a run's memory is counted from its processes (no control group), the address space
/// each process may reserve beyond the memory limit (`RLIMIT_AS`): what runtimes reserve and
/// never touch (Java's compressed class space and code cache need some 4 GiB with its
/// defaults). It bounds the memory of page tables, which no resident set shows, to a few MiB.
pub(crate) const ADDRESS_GRACE: u64 = 4 << 30;

/// The most bytes [`Sandbox::stage`] copies into the sandbox for one path.
pub(crate) const STAGED_BYTES: u64 = 1 << 30;

/// The directories every confined program reads: the system's programs, libraries and
/// configuration (those that exist).
pub(crate) const SYSTEM: [&str; 10] = [
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/etc",
    "/opt",
    "/sys/devices/system/cpu",
];

/// Devices every confined program reads and writes.
const DEVICES: [&str; 5] = [
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
];

/// The links of a run's `/dev`, to its own `/proc`.
const DEVICE_LINKS: [(&str, &str); 4] = [
    ("/dev/fd", "/proc/self/fd"),
    ("/dev/stdin", "/proc/self/fd/0"),
    ("/dev/stdout", "/proc/self/fd/1"),
    ("/dev/stderr", "/proc/self/fd/2"),
];

/// The `PATH` of a confined program.
pub const PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// The environment of a confined program: `PATH` ([`PATH`]), `HOME` and `TMPDIR` its scratch,
/// the C locale.
pub fn environment(scratch: &str) -> [(&'static str, String); 5] {
    [
        ("PATH", PATH.to_string()),
        ("HOME", scratch.to_string()),
        ("TMPDIR", scratch.to_string()),
        ("LANG", "C".to_string()),
        ("LC_ALL", "C".to_string()),
    ]
}

/// How a run's CPU time and memory are counted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Accounting {
    /// By the kernel: a control group of cgroup v1's `cpuacct`, `memory` and `pids` that holds
    /// one run at a time, its counters reset (as root, where the machine mounts them).
    #[serde(rename = "cgroup-v1", alias = "cgroups")]
    CgroupV1,
    /// By the kernel: a cgroup v2 group per run, in a subtree of the sandbox's own (as root,
    /// or in a subtree delegated to the user).
    #[serde(rename = "cgroup-v2")]
    CgroupV2,
    /// From `/proc`: one process a run (its threads allowed), its CPU time and its resident
    /// memory, swap and page tables; its address space bounded (`RLIMIT_AS`); the calls that
    /// make memory no count shows forbidden. A build may start processes, held to its own wall
    /// cap, processes and scratch.
    Processes,
}

impl Accounting {
    /// In words, for the summary.
    pub fn describe(self) -> &'static str {
        match self {
            Accounting::CgroupV1 => {
                "the kernel's: control groups that hold one run at a time (cgroup v1 cpuacct, \
                 memory, pids) count the CPU time of every thread and all the memory it is \
                 charged, shared memory, kernel objects and memfds included"
            }
            Accounting::CgroupV2 => {
                "the kernel's: a cgroup v2 group per run (cpu.stat, memory.peak, memory.max, \
                 pids.max) counts the CPU time of every thread of every process, whoever reaped \
                 it, and all the memory it is charged, socket buffers, kernel objects, shared \
                 memory and memfds included"
            }
            Accounting::Processes => {
                "processes: one process a run; for more, give the caller a cgroup (root, or a \
                 delegated cgroup v2 subtree). Its CPU time (every thread) and its resident memory, swap \
                 and page tables from /proc, its address space bounded, the calls that make \
                 memory no count shows forbidden (memfd_create, System V shared memory and \
                 message queues, vmsplice, huge pages, socket pairs)"
            }
        }
    }

    /// Whether the kernel counts the runs (a control group).
    pub fn by_kernel(self) -> bool {
        self != Accounting::Processes
    }
}

/// How the runs are started.
#[derive(Debug)]
enum Starter {
    /// By the keeper program, whose thread (its parent-death signal's) lives as long as it.
    Keeper {
        keeper: Option<Keeper>,
        thread: Option<std::thread::JoinHandle<()>>,
        stop: Option<mpsc::Sender<()>>,
    },
    /// By this process: a pipe whose write end it holds, for the inits to see its end.
    Here { alive: (OwnedFd, OwnedFd) },
}

impl Starter {
    /// The keeper program at `path`, started from a thread of its own; this process where it
    /// cannot be.
    fn new(path: Option<&Path>) -> io::Result<Starter> {
        if let Some(path) = path {
            let (started, keeper) = mpsc::channel();
            let (stop, stopped) = mpsc::channel::<()>();
            let path = path.to_path_buf();
            let thread = std::thread::Builder::new()
                .name("keeper".into())
                .spawn(move || {
                    let _ = started.send(Keeper::spawn(&path));
                    let _ = stopped.recv();
                })?;
            let keeper = keeper
                .recv()
                .map_err(|_| io::Error::other("the keeper's thread ended at once"))??;
            return Ok(Starter::Keeper {
                keeper: Some(keeper),
                thread: Some(thread),
                stop: Some(stop),
            });
        }
        Ok(Starter::Here {
            alive: rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?,
        })
    }

    fn start(
        &self,
        steps: &Steps,
        ends: RunEnds,
        cgroup: Option<BorrowedFd>,
        channel: &OwnedFd,
    ) -> Result<Started, StartError> {
        match self {
            Starter::Keeper { keeper, .. } => keeper
                .as_ref()
                .expect("a keeper until the sandbox is dropped")
                .start(steps, ends, cgroup, channel),
            Starter::Here { alive } => start::start_here(steps, ends, cgroup, alive.0.as_fd()),
        }
    }
}

impl Drop for Starter {
    fn drop(&mut self) {
        if let Starter::Keeper {
            keeper,
            thread,
            stop,
        } = self
        {
            // The keeper first: its thread must outlive it.
            *keeper = None;
            *stop = None;
            if let Some(thread) = thread.take() {
                let _ = thread.join();
            }
        }
    }
}

/// How a sandbox is made.
#[derive(Debug, Clone, Default)]
pub struct Options {
    /// Paths every program reads besides its own.
    pub allow_read: Vec<PathBuf>,
    /// A cgroup v2 directory this user may manage (a delegated subtree), under which the runs'
    /// groups are made; by default, this process's own group.
    pub cgroup: Option<PathBuf>,
    /// What ends every run of the sandbox's programs at once (a new one by default).
    pub interrupt: Interrupt,
}

/// The confinement of a sandbox's programs: the mechanisms found, what every program reads,
/// where the runs are kept, how they are started and accounted.
#[derive(Debug)]
pub struct Sandbox {
    /// What the machine offers.
    host: Host,
    /// Programs run as [`NOBODY`] (the sandbox runs as root).
    as_nobody: bool,
    /// The uid programs run as.
    uid: u32,
    /// The system's directories every program reads (those that exist).
    system: Vec<PathBuf>,
    /// The paths the caller lets every program read besides (`--allow-read`), absolute.
    allowed: Vec<PathBuf>,
    /// The runs' directory (searchable by all, removed with the sandbox): `root/`, the mount
    /// point of every run's root, `scratch/`, every run's scratch's path, and the files copied
    /// in for the programs ([`Sandbox::stage`], [`Sandbox::keep`]).
    runs: tempfile::TempDir,
    /// The runs' control groups, when the kernel's accounting is there, or why not.
    cgroups: Option<Cgroups>,
    no_cgroup: Option<String>,
    /// Landlock's ABI, the second wall (0: the kernel has none).
    landlock: i32,
    /// What ends every run of its programs at once.
    interrupt: Interrupt,
    /// Whether the runs have a procfs of their own (the probe's run says).
    procfs: AtomicBool,
    /// Directories made in `runs` so far.
    made: AtomicU64,
    /// The paths staged so far, and their copies.
    staged: Mutex<BTreeMap<PathBuf, PathBuf>>,
    /// Whether runs are started by the keeper program ([`crate::keeper`]), else by this
    /// process.
    by_keeper: bool,
    /// How runs are started. Dropped last: the cgroup v1 slots' keepers before it.
    starter: Starter,
}

/// How the programs of an audit are confined, for the reports.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "mode", rename_all = "kebab-case")]
pub enum Confinement {
    /// In the sandbox.
    Confined {
        /// Who they run as (`nobody (uid 65534)`).
        user: String,
        /// The mechanisms, in words.
        mechanisms: String,
        /// How the runs' CPU time and memory are counted.
        #[serde(default = "unknown_accounting")]
        accounting: Accounting,
        /// The walls each run has ([`Sandbox::walls`]).
        #[serde(default)]
        walls: Vec<String>,
        /// The paths every program may read besides its own (`--allow-read`).
        #[serde(default)]
        allowed: Vec<PathBuf>,
    },
    /// Unconfined: with the auditor's rights.
    Unconfined,
}

/// The accounting of reports written before it was said.
fn unknown_accounting() -> Accounting {
    Accounting::Processes
}

impl Confinement {
    /// In words, for the summary.
    pub fn text(&self) -> String {
        match self {
            Confinement::Confined {
                user,
                mechanisms,
                accounting,
                ..
            } => {
                format!(
                    "confined as {user}: {mechanisms}; accounting {}",
                    accounting.describe()
                )
            }
            Confinement::Unconfined => {
                "unconfined: programs run with the caller's rights".to_string()
            }
        }
    }
}

impl Sandbox {
    /// The sandbox of this machine, checked by a confined run of `/bin/true`; an error says
    /// which mechanism is missing. `allow_read`: more paths every program reads.
    pub fn probe(allow_read: &[PathBuf]) -> Result<Arc<Sandbox>, SandboxError> {
        Sandbox::new(&Options {
            allow_read: allow_read.to_vec(),
            ..Options::default()
        })
    }

    /// The sandbox of this machine made as `options` ask, checked by a confined run of
    /// `/bin/true`; an error says which mechanism is missing.
    pub fn new(options: &Options) -> Result<Arc<Sandbox>, SandboxError> {
        let host = Host::read();
        let as_nobody = host.is_root();
        let system: Vec<PathBuf> = SYSTEM
            .iter()
            .map(PathBuf::from)
            .filter(|p| p.symlink_metadata().is_ok())
            .collect();
        let mut allowed = Vec::new();
        for path in &options.allow_read {
            let absolute = std::path::absolute(path).map_err(|source| SandboxError::AllowRead {
                path: path.clone(),
                source,
            })?;
            if !absolute.exists() {
                return Err(SandboxError::NoSuchFile { path: path.clone() });
            }
            allowed.push(absolute);
        }
        let runs = tempfile::Builder::new()
            .prefix("referee-runs-")
            .tempdir()
            .map_err(SandboxError::RunsDirectory)?;
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| SandboxError::Io { path, source }
        };
        // The runs' directory is referee's and the programs' user's alone: as root, root's with
        // the group of nobody, which the programs run as (0710: they enter it, never list it);
        // else the user's, as the programs are (0700). What it holds (copies of programs and
        // builds) is no other local user's to read.
        if as_nobody {
            std::os::unix::fs::chown(runs.path(), Some(0), Some(NOBODY))
                .map_err(io(runs.path()))?;
        }
        set_mode(runs.path(), if as_nobody { 0o710 } else { 0o700 }).map_err(io(runs.path()))?;
        for dir in ["root", "scratch"] {
            let dir = runs.path().join(dir);
            std::fs::create_dir(&dir).map_err(io(&dir))?;
            set_mode(&dir, 0o755).map_err(io(&dir))?;
        }
        let uid = if as_nobody { NOBODY } else { host.uid };
        let keeper = keeper::beside_this_program();
        let (cgroups, no_cgroup) = match control_groups(&host, options, keeper.clone()) {
            Ok(cgroups) => (Some(cgroups), None),
            Err(Refused::Asked(reason)) => {
                return Err(SandboxError::Cgroup {
                    dir: options.cgroup.clone().unwrap_or_default(),
                    reason,
                })
            }
            Err(Refused::Not(reason)) => (None, Some(reason)),
        };
        // A cgroup v1 slot has its own keeper; the sandbox's starts the other runs.
        let starter =
            Starter::new(keeper.as_deref()).map_err(|source| SandboxError::Keeper { source })?;
        let sandbox = Arc::new(Sandbox {
            landlock: host.landlock_abi,
            host,
            as_nobody,
            uid,
            system,
            allowed,
            runs,
            cgroups,
            no_cgroup,
            procfs: AtomicBool::new(false),
            made: AtomicU64::new(0),
            staged: Mutex::new(BTreeMap::new()),
            by_keeper: keeper.is_some(),
            starter,
            interrupt: options.interrupt.clone(),
        });
        if as_nobody {
            sandbox.reachable(sandbox.runs.path())?;
        }
        sandbox.check()?;
        Ok(sandbox)
    }

    /// Runs `/bin/true` confined: a step that fails names what is missing.
    fn check(self: &Arc<Sandbox>) -> Result<(), SandboxError> {
        let limits = crate::Limits {
            cpu: Duration::from_secs(10),
            max_output: 1 << 20,
            ..crate::Limits::default()
        };
        let program = crate::Program::in_jail(
            vec!["/bin/true".into()],
            vec!["/bin/true".into()],
            self,
            Vec::new(),
            Workspace::Scratch,
        );
        let run = program.run_probing(&limits).map_err(|e| match e {
            crate::start::Failure::Step(e) => SandboxError::StepFailed {
                what: e.step.needs(),
                source: e.source,
            },
            crate::start::Failure::Io(source) | crate::start::Failure::Program(source) => {
                SandboxError::StepFailed {
                    what: "a confined run of /bin/true",
                    source,
                }
            }
        })?;
        match run.ending {
            crate::Ending::Exited(0) => Ok(()),
            other => Err(SandboxError::StepEnded {
                what: "a confined run of /bin/true",
                ending: format!("{other:?}"),
            }),
        }
    }

    /// Notes, from a run's ready record, whether the runs have a procfs of their own.
    pub(crate) fn saw_procfs(&self, procfs: bool) {
        self.procfs.store(procfs, Ordering::Relaxed);
    }

    /// The walls of each run, as the reports list them.
    pub fn walls(&self) -> Vec<String> {
        let mut walls = vec![
            "user-namespace".to_string(),
            "mount-namespace: a root of read-only bind mounts".to_string(),
            "pid-namespace".to_string(),
        ];
        if self.procfs.load(Ordering::Relaxed) {
            walls.push("procfs of the run's own".to_string());
        }
        walls.extend(["network-namespace", "ipc-namespace", "uts-namespace"].map(String::from));
        if self.landlock > 0 {
            walls.push(format!("landlock ABI {}", self.landlock));
        }
        walls.push("seccomp".to_string());
        match self.accounting() {
            Accounting::CgroupV1 => walls.push("cgroup v1".to_string()),
            Accounting::CgroupV2 => walls.push("cgroup v2".to_string()),
            Accounting::Processes => walls.push("one process a run".to_string()),
        }
        walls
    }

    /// How the programs run with `limits`, for the reports.
    pub fn confinement(&self, limits: &crate::Limits) -> Confinement {
        let user = if self.as_nobody {
            format!("nobody (uid {NOBODY}, gid {NOBODY}, no other group)")
        } else {
            format!("the auditor (uid {})", self.uid)
        };
        let landlock = if self.landlock > 0 {
            format!("Landlock ABI {} (files{}) behind it", self.landlock, {
                let mut more = String::new();
                if self.landlock >= 4 {
                    more.push_str(", TCP");
                }
                if self.landlock >= 6 {
                    more.push_str(", signals, abstract sockets");
                }
                more
            })
        } else {
            "no Landlock (the kernel has none)".to_string()
        };
        Confinement::Confined {
            user,
            mechanisms: format!(
                "a user, mount, PID, IPC, network and UTS namespace each, the run's root made of \
                 read-only bind mounts of the system's directories and its own files, {}; {}; \
                 seccomp (network, UNIX sockets, ptrace, namespaces, scheduling), at most \
                 {} processes and {} open files, no descriptor but standard input, output and \
                 error, a minimal environment; each run started {}",
                if self.procfs.load(Ordering::Relaxed) {
                    "a procfs of its own PID namespace"
                } else {
                    "no procfs (the kernel refuses one here)"
                },
                landlock,
                limits.processes,
                limits.open_files,
                if self.by_keeper {
                    format!("by {} (its own small image)", keeper::KEEPER)
                } else {
                    format!(
                        "by the auditing process itself (no {} beside it)",
                        keeper::KEEPER
                    )
                }
            ),
            accounting: self.accounting(),
            walls: self.walls(),
            allowed: self.allowed.clone(),
        }
    }

    /// How runs are accounted.
    pub fn accounting(&self) -> Accounting {
        match &self.cgroups {
            Some(Cgroups::V1(_)) => Accounting::CgroupV1,
            Some(Cgroups::V2(_)) => Accounting::CgroupV2,
            None => Accounting::Processes,
        }
    }

    /// Why the runs are not accounted by a control group, when they are not.
    pub fn no_cgroup(&self) -> Option<&str> {
        self.no_cgroup.as_deref()
    }

    /// What the machine offers.
    pub fn host(&self) -> &Host {
        &self.host
    }

    /// The cgroup v2 subtree of the runs' groups, when they are cgroup v2's.
    pub fn cgroup_subtree(&self) -> Option<&Path> {
        match &self.cgroups {
            Some(Cgroups::V2(c)) => Some(c.subtree()),
            _ => None,
        }
    }

    /// What ends every run of its programs at once ([`Options::interrupt`]).
    pub fn interrupt(&self) -> &Interrupt {
        &self.interrupt
    }

    /// Whether programs run as [`NOBODY`].
    pub fn as_nobody(&self) -> bool {
        self.as_nobody
    }

    /// The path of every run's scratch: a run's working directory, `HOME` and `TMPDIR` (each
    /// run mounts a tmpfs of its own there, in its own root).
    pub fn scratch(&self) -> PathBuf {
        self.runs.path().join("scratch")
    }

    /// The mount point of every run's root.
    fn root(&self) -> PathBuf {
        self.runs.path().join("root")
    }

    /// The groups of a new run within `memory` bytes and `processes` tasks (its init aside),
    /// when the kernel accounts runs.
    pub(crate) fn groups(&self, memory: u64, processes: u64) -> io::Result<Option<RunGroups>> {
        self.cgroups
            .as_ref()
            .map(|c| c.for_run(memory, processes.saturating_add(1)))
            .transpose()
    }

    /// Starts a run taking `steps` with `ends`, in `groups`; `channel` is this process's end
    /// of the run's channel.
    pub(crate) fn start(
        &self,
        steps: Steps,
        ends: RunEnds,
        groups: Option<&RunGroups>,
        channel: &OwnedFd,
    ) -> Result<Started, StartError> {
        match groups {
            Some(RunGroups::V1(groups)) => groups.start(steps, ends, channel),
            Some(RunGroups::V2(groups)) => {
                self.starter.start(&steps, ends, Some(groups.fd()), channel)
            }
            None => self.starter.start(&steps, ends, None, channel),
        }
    }

    /// Whether the programs' user can reach directory `dir` (every directory down to it
    /// searchable by all, by nobody's group, or that user's own): why not.
    pub fn reachable(&self, dir: &Path) -> Result<(), SandboxError> {
        if !self.as_nobody {
            return Ok(());
        }
        use std::os::unix::fs::MetadataExt;
        let io = |path: &Path| {
            let path = path.to_path_buf();
            move |source| SandboxError::Io { path, source }
        };
        let absolute = std::fs::canonicalize(dir).map_err(io(dir))?;
        for ancestor in absolute.ancestors() {
            let meta = std::fs::metadata(ancestor).map_err(io(ancestor))?;
            let searchable = meta.mode() & 0o001 != 0
                || meta.uid() == NOBODY
                || (meta.gid() == NOBODY && meta.mode() & 0o010 != 0);
            if !searchable {
                return Err(SandboxError::Unreachable {
                    dir: dir.to_path_buf(),
                    ancestor: ancestor.to_path_buf(),
                    mode: meta.mode() & 0o7777,
                });
            }
        }
        Ok(())
    }

    /// Whether the programs' user can read `path` where it is: as a normal user always (the
    /// programs run as that user); as root, when every directory above it is searchable by all
    /// and it is readable by all.
    fn readable(&self, path: &Path) -> bool {
        use std::os::unix::fs::MetadataExt;
        if !self.as_nobody {
            return true;
        }
        let Ok(meta) = std::fs::metadata(path) else {
            return false;
        };
        let parent = path.parent().unwrap_or(Path::new("/"));
        meta.mode() & 0o004 != 0 && self.reachable(parent).is_ok()
    }

    /// `path` where the programs can read it: itself when they can, else a copy in the
    /// sandbox's runs directory (a file, or a directory's tree of at most 1 GiB),
    /// made once per path, readable by all. As root, a program in a directory only root may
    /// enter (`mktemp -d`'s) runs from its copy, as a judge system copies a submission into its
    /// box.
    pub fn stage(&self, path: &Path) -> io::Result<PathBuf> {
        if self.readable(path) {
            return Ok(path.to_path_buf());
        }
        self.copy(path)
    }

    /// The copy of `path` in the sandbox's runs directory that [`stage`](Self::stage) makes,
    /// made whether or not the programs' user could read it where it is (a directory readable
    /// by all that holds a file only its owner may read).
    pub(crate) fn copy(&self, path: &Path) -> io::Result<PathBuf> {
        let mut staged = self.staged.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(copy) = staged.get(path) {
            return Ok(copy.clone());
        }
        let dir = self.new_directory("staged")?;
        let copy = dir.join(path.file_name().unwrap_or("file".as_ref()));
        copy_tree(path, &copy, &mut STAGED_BYTES.clone(), true)?;
        staged.insert(path.to_path_buf(), copy.clone());
        Ok(copy)
    }

    /// A new empty directory in the runs directory, readable by all: for a build's files,
    /// which its runs read.
    pub fn keep(&self, name: &str) -> io::Result<PathBuf> {
        self.new_directory(name)
    }

    fn new_directory(&self, name: &str) -> io::Result<PathBuf> {
        let n = self.made.fetch_add(1, Ordering::Relaxed);
        let dir = self.runs.path().join(format!("{name}-{n}"));
        std::fs::create_dir(&dir)?;
        set_mode(&dir, 0o755)?;
        Ok(dir)
    }
}

/// Why the sandbox has no control group.
enum Refused {
    /// The one asked for (`--cgroup`) cannot be used.
    Asked(String),
    /// None can be made here.
    Not(String),
}

/// The runs' control groups: cgroup v2 under `options.cgroup` when given; else as root cgroup
/// v1 where the machine mounts its hierarchies; else cgroup v2 under this process's own group
/// where this user may manage it (root, or a delegated subtree). Each cgroup v1 slot's runs are
/// started by `keeper`.
fn control_groups(
    host: &Host,
    options: &Options,
    keeper: Option<PathBuf>,
) -> Result<Cgroups, Refused> {
    if let Some(dir) = &options.cgroup {
        let v2 = host.cgroup_v2.as_ref().ok_or_else(|| {
            Refused::Asked("the machine mounts no cgroup v2 hierarchy".to_string())
        })?;
        let dir = std::path::absolute(dir).map_err(|e| Refused::Asked(e.to_string()))?;
        if !dir.starts_with(&v2.mount) {
            return Err(Refused::Asked(format!(
                "not a directory of the cgroup v2 hierarchy ({})",
                v2.mount.display()
            )));
        }
        return v2::Cgroups::make(&v2.mount, &dir)
            .map(Cgroups::V2)
            .map_err(Refused::Asked);
    }
    let mut why = Vec::new();
    if let Some(owns) = &host.cgroup_v1 {
        if host.is_root() {
            match v1::Cgroups::make(owns, keeper) {
                Ok(cgroups) => return Ok(Cgroups::V1(cgroups)),
                Err(e) => why.push(format!("cgroup v1: {e}")),
            }
        } else {
            why.push("cgroup v1: its hierarchies are root's".to_string());
        }
    }
    match &host.cgroup_v2 {
        Some(v2) => match v2::Cgroups::make(&v2.mount, &v2.own) {
            Ok(cgroups) => return Ok(Cgroups::V2(cgroups)),
            Err(e) => why.push(format!("cgroup v2: {e}")),
        },
        None => why.push("no cgroup v2 hierarchy is mounted".to_string()),
    }
    Err(Refused::Not(why.join("; ")))
}

/// Copies file or directory `from` to `to` (files readable by all, directories searchable),
/// with at most `budget` bytes of files: past it, an error.
/// Symbolic links are followed when `follow` (the caller's own files), else left out (a build's
/// files, which may point anywhere).
pub(crate) fn copy_tree(from: &Path, to: &Path, budget: &mut u64, follow: bool) -> io::Result<()> {
    let meta = std::fs::symlink_metadata(from)?;
    if meta.is_dir() {
        std::fs::create_dir(to)?;
        set_mode(to, 0o755)?;
        let mut entries: Vec<PathBuf> = std::fs::read_dir(from)?
            .map(|e| e.map(|e| e.path()))
            .collect::<io::Result<_>>()?;
        entries.sort();
        for entry in entries {
            let name = entry.file_name().unwrap_or_default();
            copy_tree(&entry, &to.join(name), budget, follow)?;
        }
        return Ok(());
    }
    if meta.file_type().is_symlink() {
        if !follow {
            return Ok(());
        }
        // What it points to, copied as a file or directory of its own.
        return copy_tree(&std::fs::canonicalize(from)?, to, budget, follow);
    }
    if !meta.is_file() {
        return Ok(());
    }
    *budget = budget.checked_sub(meta.len()).ok_or_else(|| {
        io::Error::other(format!(
            "{}: more than {} MiB to copy into the sandbox",
            from.display(),
            STAGED_BYTES >> 20
        ))
    })?;
    std::fs::copy(from, to)?;
    use std::os::unix::fs::PermissionsExt;
    let executable = meta.permissions().mode() & 0o111 != 0;
    set_mode(to, if executable { 0o755 } else { 0o644 })
}

fn set_mode(path: &Path, mode: u32) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode))
}

/// Why the sandbox cannot confine programs here, or cannot reach a directory.
#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    /// A path every program reads ([`Options::allow_read`]) that cannot be made absolute.
    #[error("a path every program reads, {}: {source}", path.display())]
    AllowRead {
        /// The path.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// A path every program reads ([`Options::allow_read`]) that does not exist.
    #[error("a path every program reads, {}: no such file", path.display())]
    NoSuchFile {
        /// The path.
        path: PathBuf,
    },
    /// The control group asked for cannot hold the runs.
    #[error("the cgroup {}: {reason}", dir.display())]
    Cgroup {
        /// The directory.
        dir: PathBuf,
        /// Why.
        reason: String,
    },
    /// The runs' directory cannot be made.
    #[error("the runs' directory: {0}")]
    RunsDirectory(io::Error),
    /// The keeper program cannot be started.
    #[error("the keeper program ({keeper}): {source}", keeper = keeper::KEEPER)]
    Keeper {
        /// Why.
        source: io::Error,
    },
    /// A file or directory that cannot be read or changed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The confined run of `/bin/true` did not succeed.
    #[error("the sandbox cannot be set up here: {what} ended as {ending}")]
    StepEnded {
        /// The run, in words.
        what: &'static str,
        /// How it ended.
        ending: String,
    },
    /// A step of the confinement failed.
    #[error("the sandbox cannot be set up here: {what} failed: {source}")]
    StepFailed {
        /// The step, in words.
        what: &'static str,
        /// Why.
        source: io::Error,
    },
    /// A directory nobody cannot reach (programs run as nobody when the sandbox runs as root).
    #[error(
        "{}: as root, programs run as nobody (uid {NOBODY}), which cannot enter {} (mode {mode:o}): \
         give TMPDIR a directory every user can reach (o+x on each directory above it)",
        dir.display(),
        ancestor.display()
    )]
    Unreachable {
        /// The directory.
        dir: PathBuf,
        /// The directory above it that nobody cannot enter.
        ancestor: PathBuf,
        /// That directory's mode.
        mode: u32,
    },
}

/// Where a confined program writes: its scratch, a tmpfs mounted at [`Sandbox::scratch`] in
/// the run's own root.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Workspace {
    /// The output limit's size and 4,096 files, gone with the run.
    Scratch,
    /// [`BUILD_WRITES`] bytes and 65,536 files, whose files the run keeps
    /// ([`crate::Run::kept`]) to be copied out: a build's.
    Build,
}

/// What one run is held to besides its CPU time.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Bounds {
    /// The memory limit, in bytes (the stack's limit too).
    pub(crate) memory: u64,
    /// The output limit, in bytes: the scratch's size and the largest file.
    pub(crate) output: u64,
    /// The most tasks the run may have at once (`RLIMIT_NPROC` in its user namespace).
    pub(crate) processes: u64,
    /// The most files a process of it may hold open.
    pub(crate) open_files: u64,
}

/// A program's run's root, planned once: how it is built, and Landlock's rules.
#[derive(Debug)]
struct Plan {
    ops: Vec<Op>,
    rules: Option<Rules>,
    /// The paths the run sees, as the machine has them (for [`Jail::may_read`]).
    seen: Vec<PathBuf>,
}

/// One program's confinement: the sandbox, the files of its own it reads, where it writes.
#[derive(Debug)]
pub struct Jail {
    sandbox: Arc<Sandbox>,
    reads: Vec<PathBuf>,
    workspace: Workspace,
    plan: OnceLock<Result<Plan, String>>,
}

/// `path` (absolute) within the root mounted at `root`.
fn in_root(root: &Path, path: &Path) -> PathBuf {
    root.join(path.strip_prefix("/").unwrap_or(path))
}

/// The operations that build a root at `root`, and the directories they made.
#[derive(Default)]
struct Builder {
    root: PathBuf,
    ops: Vec<Op>,
    dirs: std::collections::BTreeSet<PathBuf>,
}

impl Builder {
    fn c(path: &Path) -> io::Result<std::ffi::CString> {
        cstring(path.as_os_str().as_bytes())
    }

    /// The directory `path` of the run (and those above it).
    fn dir(&mut self, path: &Path) -> io::Result<()> {
        for ancestor in path.ancestors().collect::<Vec<_>>().into_iter().rev() {
            if ancestor == Path::new("/") || !self.dirs.insert(ancestor.to_path_buf()) {
                continue;
            }
            let at = in_root(&self.root, ancestor);
            self.ops.push(Op::Dir(Builder::c(&at)?));
        }
        Ok(())
    }

    /// The machine's `path` bound at the same path of the run.
    fn bind(&mut self, path: &Path, device: bool) -> io::Result<()> {
        let is_dir = std::fs::metadata(path)?.is_dir();
        if is_dir {
            self.dir(path)?;
        } else {
            self.dir(path.parent().unwrap_or(Path::new("/")))?;
            self.ops
                .push(Op::File(Builder::c(&in_root(&self.root, path))?));
        }
        self.ops.push(Op::Bind {
            source: Builder::c(path)?,
            target: Builder::c(&in_root(&self.root, path))?,
            device,
        });
        Ok(())
    }

    /// The link `path` of the run, to `target`.
    fn link(&mut self, target: &Path, path: &Path) -> io::Result<()> {
        self.dir(path.parent().unwrap_or(Path::new("/")))?;
        self.ops.push(Op::Link(
            Builder::c(target)?,
            Builder::c(&in_root(&self.root, path))?,
        ));
        Ok(())
    }
}

impl Jail {
    /// The confinement of a program that reads `reads` (its own files) and writes in
    /// `workspace`.
    pub fn new(sandbox: &Arc<Sandbox>, reads: Vec<PathBuf>, workspace: Workspace) -> Jail {
        Jail {
            sandbox: Arc::clone(sandbox),
            reads,
            workspace,
            plan: OnceLock::new(),
        }
    }

    /// The sandbox it belongs to.
    pub fn sandbox(&self) -> &Arc<Sandbox> {
        &self.sandbox
    }

    /// Where it writes.
    pub fn workspace(&self) -> Workspace {
        self.workspace
    }

    /// The files of its own it reads.
    pub fn reads(&self) -> &[PathBuf] {
        &self.reads
    }

    /// The run's root, planned once.
    fn plan(&self) -> io::Result<&Plan> {
        self.plan
            .get_or_init(|| self.make_plan().map_err(|e| e.to_string()))
            .as_ref()
            .map_err(|e| io::Error::other(format!("the run's root: {e}")))
    }

    /// The run's root: the system's directories (links as links), the devices, the run's
    /// `/proc`, its own files and `--allow-read`'s (each bound where it is, unless a path
    /// bound already holds it), the scratch's mount point; Landlock's rules for the same.
    fn make_plan(&self) -> io::Result<Plan> {
        let sandbox = &self.sandbox;
        let mut b = Builder {
            root: sandbox.root(),
            ..Builder::default()
        };
        let mut seen: Vec<PathBuf> = Vec::new();
        let mut reads: Vec<(PathBuf, bool)> = Vec::new();
        for path in &sandbox.system {
            let meta = path.symlink_metadata()?;
            if meta.file_type().is_symlink() {
                b.link(&std::fs::read_link(path)?, path)?;
            } else {
                b.bind(path, false)?;
            }
            seen.push(path.clone());
            reads.push((
                path.clone(),
                std::fs::metadata(path).is_ok_and(|m| m.is_dir()),
            ));
        }
        let mut devices = Vec::new();
        for device in DEVICES.map(Path::new) {
            if device.exists() {
                b.bind(device, true)?;
                seen.push(device.to_path_buf());
                devices.push(device.to_path_buf());
            }
        }
        for (path, target) in DEVICE_LINKS {
            b.link(Path::new(target), Path::new(path))?;
        }
        b.dir(Path::new("/proc"))?;
        b.ops
            .push(Op::Proc(Builder::c(&in_root(&b.root, Path::new("/proc")))?));
        let mut own: Vec<PathBuf> = self.reads.iter().chain(&sandbox.allowed).cloned().collect();
        own.sort();
        own.dedup();
        for path in own {
            if seen.iter().any(|s| path.starts_with(s)) {
                continue;
            }
            let Ok(meta) = std::fs::metadata(&path) else {
                continue;
            };
            b.bind(&path, false)?;
            reads.push((path.clone(), meta.is_dir()));
            seen.push(path);
        }
        b.dir(&sandbox.scratch())?;
        let rules = landlock_rules(sandbox.landlock, &reads, &devices)?;
        Ok(Plan {
            ops: b.ops,
            rules,
            seen,
        })
    }

    /// The steps of a run of `argv` (its first word a path, or a command looked up on the
    /// sandbox's `PATH`) with `env` besides the sandbox's environment, within `bounds`, its
    /// opens watched or not.
    pub(crate) fn steps(
        &self,
        argv: &[impl AsRef<OsStr>],
        env: &[(String, String)],
        bounds: &Bounds,
        watching: Watching,
    ) -> Result<Steps, Failure> {
        let [program, ..] = argv else {
            return Err(Failure::Program(io::Error::other("a program has a name")));
        };
        let sandbox = &self.sandbox;
        let plan = self.plan()?;
        let program = resolve(Path::new(program.as_ref())).map_err(Failure::Program)?;
        let counted = sandbox.accounting().by_kernel();
        let (size, files) = match self.workspace {
            Workspace::Scratch => (bounds.output.max(4096), SCRATCH_FILES),
            Workspace::Build => (BUILD_WRITES, BUILD_FILES),
        };
        let mut limits = vec![
            (libc::RLIMIT_CORE, 0),
            (libc::RLIMIT_STACK, bounds.memory),
            (libc::RLIMIT_NOFILE, bounds.open_files),
            // No file larger than the scratch, even a sparse one, whose holes take no room.
            (libc::RLIMIT_FSIZE, size),
            (libc::RLIMIT_MSGQUEUE, 0),
        ];
        if !counted {
            limits.push((libc::RLIMIT_AS, bounds.memory.saturating_add(ADDRESS_GRACE)));
        }
        let policy = Policy {
            memory: if counted {
                Memory::Counted
            } else {
                Memory::Uncounted
            },
            processes: if counted || self.workspace == Workspace::Build {
                Processes::Many
            } else {
                Processes::One
            },
            watching,
        };
        let scratch = sandbox.scratch();
        let owner = if sandbox.as_nobody {
            format!(",uid={NOBODY},gid={NOBODY}")
        } else {
            String::new()
        };
        let shown = scratch.display().to_string();
        let env: Vec<std::ffi::CString> = environment(&shown)
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .chain(env.iter().cloned())
            .map(|(k, v)| cstring(format!("{k}={v}")))
            .collect::<io::Result<_>>()?;
        let root = sandbox.root();
        Ok(Steps {
            as_root: sandbox.as_nobody,
            limits: limits.into_iter().collect(),
            processes: bounds.processes,
            root: Builder::c(&root)?,
            root_options: cstring("size=1m,nr_inodes=4096,mode=0755")?,
            ops: plan.ops.clone(),
            scratch: Builder::c(&scratch)?,
            scratch_at: Builder::c(&in_root(&root, &scratch))?,
            scratch_options: cstring(format!("size={size},nr_inodes={files},mode=0700{owner}"))?,
            send_scratch: self.workspace == Workspace::Build,
            rules: plan.rules.clone(),
            filter: std::borrow::Cow::Borrowed(&seccomp::filters(policy)?.whole),
            program: Builder::c(&program)?,
            argv: argv
                .iter()
                .map(|w| cstring(w.as_ref().as_bytes()))
                .collect::<io::Result<_>>()?,
            env,
        })
    }

    /// Whether a path the program asked for lies within what its run sees.
    pub(crate) fn may_read(&self, path: &Path) -> bool {
        let seen = self.plan().map(|p| p.seen.as_slice()).unwrap_or_default();
        seen.iter().any(|allowed| path.starts_with(allowed))
            || path.starts_with(self.sandbox.scratch())
            || path.starts_with("/proc")
    }

    /// Whether `path` is a directory on the way to what the program may read (its root holds
    /// it, with only those in it).
    pub(crate) fn leads_to_readable(&self, path: &Path) -> bool {
        let seen = self.plan().map(|p| p.seen.as_slice()).unwrap_or_default();
        seen.iter().any(|allowed| allowed.starts_with(path))
    }
}

/// Landlock's rules of a run where the kernel's ABI is `abi` (none for 0): `reads` (each
/// path and whether it is a directory) to read, `devices` to read and write.
fn landlock_rules(
    abi: i32,
    reads: &[(PathBuf, bool)],
    devices: &[PathBuf],
) -> io::Result<Option<Rules>> {
    if abi <= 0 {
        return Ok(None);
    }
    let abi = ABI::from(abi);
    let read = AccessFs::from_read(abi);
    let file = AccessFs::from_file(abi);
    let device = (AccessFs::ReadFile | AccessFs::WriteFile | AccessFs::Truncate) & file;
    let bits = |rights: BitFlags<AccessFs>| rights.bits();
    let mut paths = Vec::new();
    for (path, is_dir) in reads {
        let rights = if *is_dir { read } else { read & file };
        paths.push((Builder::c(path)?, bits(rights)));
    }
    for path in devices {
        paths.push((Builder::c(path)?, bits(device)));
    }
    Ok(Some(Rules {
        handled_fs: bits(AccessFs::from_all(abi)),
        handled_net: AccessNet::from_all(abi).bits(),
        scoped: Scope::from_all(abi).bits(),
        paths,
        scratch: bits(AccessFs::from_all(abi)),
        proc: bits(read),
        root: bits(AccessFs::ReadDir.into()),
    }))
}

/// The file a run executes for `program`: itself when it has a `/`, else the first executable
/// file of that name in the sandbox's `PATH`.
fn resolve(program: &Path) -> io::Result<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    if program.as_os_str().as_bytes().contains(&b'/') {
        return Ok(program.to_path_buf());
    }
    PATH.split(':')
        .map(|dir| Path::new(dir).join(program))
        .find(|p| {
            std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
        .ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::NotFound,
                format!(
                    "{}: no such program on the sandbox's PATH ({PATH})",
                    program.display()
                ),
            )
        })
}

/// Sets `command`'s limits for a run outside the sandbox: no core dumps, the stack as large as
/// the memory limit.
pub(crate) fn limit_unconfined(command: &mut std::process::Command, memory: u64) {
    use std::os::unix::process::CommandExt;
    // SAFETY: the closure makes system calls only.
    unsafe {
        command.pre_exec(move || {
            crate::child::limit(libc::RLIMIT_CORE, 0)?;
            crate::child::limit(libc::RLIMIT_STACK, memory)
        });
    }
}
