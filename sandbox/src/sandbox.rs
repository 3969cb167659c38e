//! The sandbox of a machine ([`Sandbox`]: its mechanisms checked once, what every program
//! reads, where runs are kept, how runs are accounted) and of one program ([`Jail`]: its own
//! files, where it writes), and what one run holds while it goes ([`Cell`]).

use std::collections::BTreeMap;
use std::ffi::{CString, OsStr};
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use landlock::{
    path_beneath_rules, Access, AccessFs, AccessNet, CompatLevel, Compatible, Ruleset, RulesetAttr,
    RulesetCreatedAttr, Scope, ABI,
};

use crate::cgroup::{Cgroups, RunGroups};
use crate::child::{self, Record, Step, Steps};
use crate::keeper;
use crate::seccomp::{self, SharedMemory, Watching};

/// The uid and gid programs run as when the sandbox runs as root (`nobody` and `nogroup`).
pub const NOBODY: u32 = 65534;

/// The most processes and threads a run may have at once.
pub const PROCESSES: u64 = 128;

/// The most files a process of a run may hold open.
pub const OPEN_FILES: u64 = 256;

/// The most bytes a build may write, all its files together (the size of its tmpfs), and so
/// the largest program it makes: 256 MiB, as a judge system bounds an executable.
pub const BUILD_WRITES: u64 = 256 << 20;

/// The most bytes [`Sandbox::stage`] copies into the sandbox for one path.
pub const STAGED_BYTES: u64 = 1 << 30;

/// The Landlock ABI the sandbox needs: 6 (Linux 6.12), whose scopes keep signals and abstract
/// UNIX sockets inside the run.
const LANDLOCK_ABI: ABI = ABI::V6;

/// The directories every confined program reads: the system's programs, libraries and
/// configuration (those that exist).
pub const SYSTEM: [&str; 10] = [
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

/// Files every confined program reads besides: what runtimes read of the machine.
const SYSTEM_FILES: [&str; 2] = ["/proc/cpuinfo", "/proc/meminfo"];

/// Devices every confined program reads and writes.
const DEVICES: [&str; 5] = [
    "/dev/null",
    "/dev/zero",
    "/dev/full",
    "/dev/random",
    "/dev/urandom",
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
    /// By the kernel: control groups (cgroup v1 `cpuacct`, `memory`, `pids`) that hold one run
    /// at a time, its counters reset, as root.
    Cgroups,
    /// From `/proc`, every thread of every process in the run's PID namespace; the calls that
    /// make memory no resident set shows (`memfd_create`, `shmget`) are forbidden.
    Processes,
}

impl Accounting {
    /// In words, for the summary.
    pub fn describe(self) -> &'static str {
        match self {
            Accounting::Cgroups => {
                "the kernel's: control groups that hold one run at a time (cgroup v1 cpuacct, \
                 memory, pids) count the CPU time of every thread and all the memory it is \
                 charged, shared memory and memfds included"
            }
            Accounting::Processes => {
                "from /proc: the CPU time of every thread of every process in the run's PID \
                 namespace and their resident memory; memfd_create and System V shared memory \
                 forbidden (no control group can be made here)"
            }
        }
    }
}

/// The confinement of a sandbox's programs: the mechanisms found, what every program reads,
/// where the runs are kept, and how they are accounted.
#[derive(Debug)]
pub struct Sandbox {
    /// Programs run as [`NOBODY`] (the sandbox runs as root).
    as_nobody: bool,
    /// The Landlock ABI of the kernel.
    abi: i32,
    /// The uid and gid programs run as.
    uid: u32,
    gid: u32,
    /// What every program reads: the system's directories and files, and `allowed`.
    reads: Vec<PathBuf>,
    /// The paths the caller lets every program read besides (`--allow-read`), absolute.
    allowed: Vec<PathBuf>,
    /// The runs' directory (searchable by all, removed with the sandbox): `scratch/`, the
    /// mount point of every run's scratch (each run mounts its own, in its own mount
    /// namespace), and the files copied in for the programs ([`Sandbox::stage`],
    /// [`Sandbox::keep`]).
    runs: tempfile::TempDir,
    /// The runs' control groups, when the kernel's accounting is there.
    cgroups: Option<Cgroups>,
    /// Directories made in `runs` so far.
    made: AtomicU64,
    /// The keeper program, when it is beside the auditing program ([`crate::keeper`]); else
    /// each run's keeper is a fork of the auditing process.
    keeper: Option<PathBuf>,
    /// The paths staged so far, and their copies.
    staged: Mutex<BTreeMap<PathBuf, PathBuf>>,
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
                "unconfined (--unconfined): programs run with the auditor's rights".to_string()
            }
        }
    }
}

impl Sandbox {
    /// The sandbox of this machine, checked by confining `/bin/true` one step at a time; an
    /// error says which mechanism is missing. `allow_read`: more paths every program reads.
    pub fn probe(allow_read: &[PathBuf]) -> Result<Arc<Sandbox>, SandboxError> {
        // SAFETY: a plain system call.
        let as_nobody = unsafe { libc::geteuid() } == 0;
        let abi = landlock_abi();
        if abi < 6 {
            return Err(SandboxError::Landlock { abi });
        }
        let mut reads: Vec<PathBuf> = SYSTEM
            .iter()
            .chain(SYSTEM_FILES.iter())
            .map(PathBuf::from)
            .filter(|p| p.exists())
            .collect();
        let mut allowed = Vec::new();
        for path in allow_read {
            let absolute = std::path::absolute(path).map_err(|source| SandboxError::AllowRead {
                path: path.clone(),
                source,
            })?;
            if !absolute.exists() {
                return Err(SandboxError::NoSuchFile { path: path.clone() });
            }
            reads.push(absolute.clone());
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
        set_mode(runs.path(), 0o711).map_err(io(runs.path()))?;
        let scratch = runs.path().join("scratch");
        std::fs::create_dir(&scratch).map_err(io(&scratch))?;
        set_mode(&scratch, 0o755).map_err(io(&scratch))?;
        // SAFETY: plain system calls.
        let (uid, gid) = if as_nobody {
            (NOBODY, NOBODY)
        } else {
            unsafe { (libc::geteuid(), libc::getegid()) }
        };
        let sandbox = Arc::new(Sandbox {
            as_nobody,
            abi,
            uid,
            gid,
            reads,
            allowed,
            runs,
            cgroups: if as_nobody { Cgroups::make() } else { None },
            made: AtomicU64::new(0),
            keeper: keeper::beside_this_program(),
            staged: Mutex::new(BTreeMap::new()),
        });
        if as_nobody {
            sandbox.reachable(sandbox.runs.path())?;
        }
        sandbox.check()?;
        Ok(sandbox)
    }

    /// Runs `/bin/true` confined up to each step in turn: the first that fails names what is
    /// missing.
    fn check(self: &Arc<Sandbox>) -> Result<(), SandboxError> {
        let jail = Jail::new(self, Vec::new(), Workspace::Scratch);
        let steps = [
            (Step::Limits, "resource limits (setrlimit)"),
            (
                Step::Identity,
                "the run's control groups, and uid and gid 65534 (setresuid, setresgid, \
                 setgroups)",
            ),
            (
                Step::Namespaces,
                "a user namespace with mount, IPC and PID namespaces (unshare: \
                 kernel.unprivileged_userns_clone, user.max_user_namespaces, or an AppArmor \
                 restriction on unprivileged user namespaces)",
            ),
            (
                Step::Processes,
                "a tmpfs mounted in the run's own namespace, and its first processes",
            ),
            (Step::Landlock, "Landlock (landlock_restrict_self)"),
            (
                Step::Seccomp,
                "a seccomp filter with a listener (Linux 5.0 or later)",
            ),
        ];
        for (step, what) in steps {
            let limits = Limits {
                memory: 256 << 20,
                output: 1 << 20,
            };
            let ran = jail
                .prepare_up_to(&["/bin/true"], &limits, Watching::Forbidden, step)
                .and_then(|(mut command, mut cell)| {
                    command
                        .stdin(Stdio::null())
                        .stdout(Stdio::null())
                        .stderr(Stdio::null());
                    let status = cell.spawn(command)?.wait()?;
                    if let Some(failure) = cell.failure() {
                        return Err(failure);
                    }
                    if step == Step::Seccomp && cell.listener()?.is_none() {
                        return Err(io::Error::other("no listener came back"));
                    }
                    Ok(status)
                });
            match ran {
                Ok(status) if status.success() => {}
                Ok(status) => return Err(SandboxError::StepEnded { what, status }),
                Err(source) => return Err(SandboxError::StepFailed { what, source }),
            }
        }
        Ok(())
    }

    /// How the programs run, for the reports.
    pub fn confinement(&self) -> Confinement {
        let user = if self.as_nobody {
            format!("nobody (uid {NOBODY}, gid {NOBODY}, no other group)")
        } else {
            format!("the auditor (uid {})", self.uid)
        };
        Confinement::Confined {
            user,
            mechanisms: format!(
                "a user, PID, mount and IPC namespace each, Landlock ABI {} (files, TCP, \
                 signals, abstract sockets), seccomp (network, UNIX sockets, ptrace, \
                 namespaces, scheduling), at most {PROCESSES} processes and {OPEN_FILES} open \
                 files, no descriptor but standard input, output and error, a minimal \
                 environment; each run started {}",
                self.abi,
                match &self.keeper {
                    Some(_) => format!("by {} (its own small image)", keeper::KEEPER),
                    None => format!(
                        "by a fork of the auditing process (no {} beside it)",
                        keeper::KEEPER
                    ),
                }
            ),
            accounting: self.accounting(),
            allowed: self.allowed.clone(),
        }
    }

    /// How runs are accounted.
    pub fn accounting(&self) -> Accounting {
        if self.cgroups.is_some() {
            Accounting::Cgroups
        } else {
            Accounting::Processes
        }
    }

    /// Whether programs run as [`NOBODY`].
    pub fn as_nobody(&self) -> bool {
        self.as_nobody
    }

    /// The mount point of every run's scratch: a run's working directory, `HOME` and `TMPDIR`
    /// (each run mounts a tmpfs of its own there, in its own mount namespace).
    pub fn scratch(&self) -> PathBuf {
        self.runs.path().join("scratch")
    }

    /// Whether the programs' user can reach directory `dir` (every directory down to it
    /// searchable by all, or that user's own): why not.
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
            if meta.mode() & 0o001 == 0 && meta.uid() != NOBODY {
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
    /// sandbox's runs directory (a file, or a directory's tree of at most [`STAGED_BYTES`]),
    /// made once per path, readable by all. As root, a program in a directory only root may
    /// enter (`mktemp -d`'s) runs from its copy, as a judge system copies a submission into its
    /// box.
    pub fn stage(&self, path: &Path) -> io::Result<PathBuf> {
        if self.readable(path) {
            return Ok(path.to_path_buf());
        }
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
    /// A kernel without Landlock's signal scopes.
    #[error(
        "the sandbox needs Landlock ABI 6 or later (Linux 6.12: its scopes keep signals inside a \
         run); this kernel has {}",
        if *abi <= 0 {
            "no Landlock (not built in, or not enabled at boot: lsm=...,landlock)".to_string()
        } else {
            format!("Landlock ABI {abi}")
        }
    )]
    Landlock {
        /// The kernel's Landlock ABI (0 or less: none).
        abi: i32,
    },
    /// An `--allow-read` path that cannot be made absolute.
    #[error("--allow-read {}: {source}", path.display())]
    AllowRead {
        /// The path.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// An `--allow-read` path that does not exist.
    #[error("--allow-read {}: no such file", path.display())]
    NoSuchFile {
        /// The path.
        path: PathBuf,
    },
    /// The runs' directory cannot be made.
    #[error("the runs' directory: {0}")]
    RunsDirectory(io::Error),
    /// A file or directory that cannot be read or changed.
    #[error("{}: {source}", path.display())]
    Io {
        /// The path.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// `/bin/true`, confined up to a step, did not succeed.
    #[error(
        "the sandbox cannot be set up here: /bin/true confined up to {what} ended with {status}"
    )]
    StepEnded {
        /// The step, in words.
        what: &'static str,
        /// How it ended.
        status: std::process::ExitStatus,
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

/// The Landlock ABI of the running kernel (0 or less: none).
fn landlock_abi() -> i32 {
    const CREATE_RULESET_VERSION: libc::c_uint = 1;
    // SAFETY: the version query takes no attribute.
    unsafe {
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            std::ptr::null::<u8>(),
            0usize,
            CREATE_RULESET_VERSION,
        ) as i32
    }
}

/// Where a confined program writes: its scratch, a tmpfs mounted at [`Sandbox::scratch`] in
/// the run's own mount namespace.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Workspace {
    /// The output limit's size, gone with the run.
    Scratch,
    /// [`BUILD_WRITES`] bytes, whose files the run keeps ([`crate::Run::kept`]) to be copied
    /// out: a build's.
    Build,
}

/// What one run is held to besides its CPU time.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    /// The memory limit, in bytes (the stack's limit too).
    pub(crate) memory: u64,
    /// The output limit, in bytes: the scratch's size and the largest file.
    pub(crate) output: u64,
}

/// One program's confinement: the sandbox, the files of its own it reads, where it writes.
#[derive(Debug)]
pub struct Jail {
    sandbox: Arc<Sandbox>,
    reads: Vec<PathBuf>,
    workspace: Workspace,
}

/// One run's part of the confinement, alive until the run has ended: the Landlock ruleset and
/// the ends of the channel and of the report pipe the run's processes write (needed until it
/// has started), the run's end of the report pipe, and its control groups (removed when the
/// cell is dropped, once the run's processes have all ended).
pub(crate) struct Cell {
    ruleset: OwnedFd,
    channel: OwnedFd,
    their_channel: Option<OwnedFd>,
    /// The read end of the report pipe.
    pub(crate) report: OwnedFd,
    their_report: Option<OwnedFd>,
    /// The run's control groups.
    pub(crate) groups: Option<RunGroups>,
    /// Whether the scratch's descriptor comes back.
    kept: bool,
    /// The hand-off to a keeper program ([`crate::keeper`]): its steps, encoded. `None` when
    /// the keeper is a fork of the auditing process, whose steps are its `pre_exec`.
    hand_off: Option<Vec<u8>>,
}

impl Cell {
    /// Spawns the run's `command`: from its slot's thread when the run has control groups
    /// (its first process is born in them), else from this thread. To a keeper program, the
    /// hand-off goes first, with the program's standard input, whose writing end is the
    /// child's.
    pub(crate) fn spawn(&self, mut command: Command) -> io::Result<std::process::Child> {
        let stdin = match (&self.hand_off, &self.their_channel, &self.their_report) {
            (Some(bytes), Some(their_channel), Some(their_report)) => {
                let (read, write) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?;
                let carried = [
                    read.as_raw_fd(),
                    self.ruleset.as_raw_fd(),
                    their_report.as_raw_fd(),
                ];
                keeper::send(self.channel.as_raw_fd(), bytes, carried)?;
                command.stdin(Stdio::from(their_channel.try_clone()?));
                Some(write)
            }
            (Some(_), _, _) => return Err(io::Error::other("a run's cell spawned twice")),
            (None, _, _) => None,
        };
        let mut child = match &self.groups {
            Some(groups) => groups.spawn(command),
            None => command.spawn(),
        }?;
        if let Some(write) = stdin {
            child.stdin = Some(std::process::ChildStdin::from(write));
        }
        Ok(child)
    }

    /// What a keeper program reported failing (a step, or the program's `exec`), if it did:
    /// reads the report pipe's records.
    pub(crate) fn failure(&self) -> Option<io::Error> {
        crate::watch::read_records(&self.report)
            .0
            .into_iter()
            .find(|r| r.tag == Record::FAILED)
            .map(|r| io::Error::from_raw_os_error(r.value))
    }

    /// Drops the ends the run's processes write to, once they have them.
    pub(crate) fn started(&mut self) {
        self.their_channel = None;
        self.their_report = None;
    }

    /// The descriptors the run's processes sent back, once the program has started: its
    /// kept scratch (a build's) and the listener of its notifications. From a keeper program
    /// (spawned as `keeper`, its process id), they come after the spawn: this waits for them,
    /// or for the keeper's end, which is an error (the failure it reported, when it did).
    pub(crate) fn descriptors(
        &mut self,
        keeper: i32,
    ) -> io::Result<(Option<OwnedFd>, Option<OwnedFd>)> {
        let ended = match self.hand_off {
            Some(_) => Some(
                rustix::process::Pid::from_raw(keeper)
                    .ok_or_else(|| io::Error::other("no keeper"))
                    .and_then(|pid| {
                        Ok(rustix::process::pidfd_open(
                            pid,
                            rustix::process::PidfdFlags::empty(),
                        )?)
                    })?,
            ),
            None => None,
        };
        let kept = if self.kept {
            self.next_descriptor(ended.as_ref())?
        } else {
            None
        };
        Ok((kept, self.next_descriptor(ended.as_ref())?))
    }

    /// The next descriptor on the channel; with `ended` (a keeper program's process
    /// descriptor), waiting for it.
    fn next_descriptor(&self, ended: Option<&OwnedFd>) -> io::Result<Option<OwnedFd>> {
        use rustix::event::{poll, PollFd, PollFlags};
        loop {
            if let Some(fd) = child::receive_descriptor(self.channel.as_raw_fd())? {
                return Ok(Some(fd));
            }
            let Some(ended) = ended else {
                return Ok(None);
            };
            let mut fds = [
                PollFd::new(&self.channel, PollFlags::IN),
                PollFd::new(ended, PollFlags::IN),
            ];
            match poll(&mut fds, None) {
                Ok(_) | Err(rustix::io::Errno::INTR) => {}
                Err(e) => return Err(e.into()),
            }
            if fds[0].revents().is_empty() && !fds[1].revents().is_empty() {
                return match child::receive_descriptor(self.channel.as_raw_fd())? {
                    Some(fd) => Ok(Some(fd)),
                    None => Err(self.failure().unwrap_or_else(|| {
                        io::Error::other("the run's keeper ended before the program started")
                    })),
                };
            }
        }
    }

    fn listener(&mut self) -> io::Result<Option<OwnedFd>> {
        child::receive_descriptor(self.channel.as_raw_fd())
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

    /// The command that runs `argv` confined within `limits`, its opens watched or not (its
    /// environment, its working directory, its keeper), for the caller to set its standard
    /// input, output and error and spawn with [`Cell::spawn`]. The returned cell must live
    /// until the run has ended.
    pub(crate) fn prepare(
        &self,
        argv: &[impl AsRef<OsStr>],
        limits: &Limits,
        watching: Watching,
    ) -> io::Result<(Command, Cell)> {
        self.prepare_up_to(argv, limits, watching, Step::Seccomp)
    }

    fn prepare_up_to(
        &self,
        argv: &[impl AsRef<OsStr>],
        limits: &Limits,
        watching: Watching,
        last: Step,
    ) -> io::Result<(Command, Cell)> {
        let [program, args @ ..] = argv else {
            return Err(io::Error::other("a program has a name"));
        };
        let ruleset = self.ruleset()?;
        let (channel, their_channel) = std::os::unix::net::UnixDatagram::pair()
            .map(|(a, b)| (OwnedFd::from(a), OwnedFd::from(b)))?;
        let (report, their_report) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?;
        rustix::io::ioctl_fionbio(&report, true)?;
        let scratch = self.sandbox.scratch();
        let size = match self.workspace {
            Workspace::Scratch => limits.output.max(4096),
            Workspace::Build => BUILD_WRITES,
        };
        let groups = match &self.sandbox.cgroups {
            Some(cgroups) => Some(cgroups.for_run(limits.memory, PROCESSES + 2)?),
            None => None,
        };
        let shared = match groups {
            Some(_) => SharedMemory::Counted,
            None => SharedMemory::Forbidden,
        };
        let steps = Steps {
            limits: vec![
                (libc::RLIMIT_CORE, 0),
                (libc::RLIMIT_STACK, limits.memory),
                (libc::RLIMIT_NOFILE, OPEN_FILES),
                // No file larger than the scratch, even a sparse one, whose holes take no room.
                (libc::RLIMIT_FSIZE, size),
                (libc::RLIMIT_MSGQUEUE, 0),
            ],
            // SAFETY: a plain system call.
            auditor: unsafe { libc::getpid() },
            as_nobody: self.sandbox.as_nobody,
            processes: PROCESSES,
            uid_map: cstring(&format!("{uid} {uid} 1", uid = self.sandbox.uid))?,
            gid_map: cstring(&format!("{gid} {gid} 1", gid = self.sandbox.gid))?,
            scratch: cstring(&scratch.display().to_string())?,
            scratch_options: cstring(&format!("size={size},mode=0700"))?,
            send_scratch: self.workspace == Workspace::Build,
            ruleset: ruleset.as_raw_fd(),
            scratch_rights: AccessFs::from_all(LANDLOCK_ABI).bits(),
            filter: &seccomp::filters(shared, watching)?.whole,
            channel: their_channel.as_raw_fd(),
            report: their_report.as_raw_fd(),
            last,
        };
        let (mut command, hand_off) = self.keeper_command(program.as_ref(), args, steps);
        command
            .env_clear()
            .envs(environment(&scratch.display().to_string()));
        // The keeper starts in this directory; the program's process changes to its scratch
        // once it is mounted.
        command.current_dir(Path::new("/"));
        let cell = Cell {
            ruleset,
            channel,
            their_channel: Some(their_channel),
            report,
            their_report: Some(their_report),
            groups,
            kept: self.workspace == Workspace::Build,
            hand_off,
        };
        Ok((command, cell))
    }

    /// The command that starts a run of `program` with `args` taking `steps`: the keeper
    /// program with the steps' hand-off, where the sandbox has one; else the program, its
    /// steps taken by the fork of the auditing process that `exec`s it.
    fn keeper_command(
        &self,
        program: &OsStr,
        args: &[impl AsRef<OsStr>],
        steps: Steps,
    ) -> (Command, Option<Vec<u8>>) {
        match &self.sandbox.keeper {
            Some(keeper) => {
                let mut command = Command::new(keeper);
                command.arg("--").arg(program).args(args);
                (command, Some(keeper::encode(&steps)))
            }
            None => {
                let mut command = Command::new(program);
                command.args(args);
                // SAFETY: the steps make system calls only, on data prepared before the fork
                // and descriptors the cell keeps open until the spawn is done.
                unsafe {
                    command.pre_exec(move || steps.take());
                }
                (command, None)
            }
        }
    }

    /// The run's Landlock ruleset: every access handled, reads of the system, of the
    /// program's own files and of `--allow-read`, the devices; the scratch's rule is the
    /// program's process's to add.
    fn ruleset(&self) -> io::Result<OwnedFd> {
        let abi = LANDLOCK_ABI;
        let landlock = |e: landlock::RulesetError| io::Error::other(format!("Landlock: {e}"));
        let reads: Vec<&PathBuf> = self
            .sandbox
            .reads
            .iter()
            .chain(&self.reads)
            .filter(|p| p.exists())
            .collect();
        let devices: Vec<&str> = DEVICES
            .iter()
            .copied()
            .filter(|d| Path::new(d).exists())
            .collect();
        let created = Ruleset::default()
            .set_compatibility(CompatLevel::HardRequirement)
            .handle_access(AccessFs::from_all(abi))
            .and_then(|r| r.handle_access(AccessNet::from_all(abi)))
            .and_then(|r| r.scope(Scope::from_all(abi)))
            .and_then(|r| r.create())
            .and_then(|r| r.add_rules(path_beneath_rules(reads, AccessFs::from_read(abi))))
            .and_then(|r| {
                r.add_rules(path_beneath_rules(
                    devices,
                    AccessFs::ReadFile | AccessFs::WriteFile | AccessFs::Truncate,
                ))
            })
            .map_err(landlock)?;
        let fd: Option<OwnedFd> = created.into();
        fd.ok_or_else(|| io::Error::other("Landlock: no ruleset"))
    }

    /// Whether a path the program asked for lies within what it may read.
    pub(crate) fn may_read(&self, path: &Path) -> bool {
        let own = self
            .sandbox
            .reads
            .iter()
            .chain(&self.reads)
            .map(PathBuf::as_path);
        let devices = DEVICES.iter().map(Path::new);
        own.chain(devices).any(|allowed| path.starts_with(allowed))
            || path.starts_with(self.sandbox.scratch())
    }
}

fn cstring(text: &str) -> io::Result<CString> {
    CString::new(text).map_err(|_| io::Error::other(format!("a NUL byte in {text:?}")))
}

/// Sets `command`'s limits for a run outside the sandbox: no core dumps, the stack as large as
/// the memory limit.
pub(crate) fn limit_unconfined(command: &mut Command, memory: u64) {
    // SAFETY: the closure makes system calls only.
    unsafe {
        command.pre_exec(move || {
            child::limit(libc::RLIMIT_CORE, 0)?;
            child::limit(libc::RLIMIT_STACK, memory)
        });
    }
}
