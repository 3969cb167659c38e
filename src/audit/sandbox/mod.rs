//! The sandbox of every program an audit runs for someone else (a judge under audit, a
//! contest's submissions, and their builds), as a judge system's sandbox confines a
//! submission, with the kernel's unprivileged mechanisms only (no setuid helper):
//!
//! - **Files** (Landlock): the system's directories ([`SYSTEM`]: toolchains, runtimes,
//!   libraries) and the program's own files read-only, a few devices; writes only in its
//!   scratch, a tmpfs of the output limit's size that goes with the run, mounted in the run's
//!   own mount namespace on an empty directory made for it (its working directory, `HOME` and
//!   `TMPDIR`; a build's scratch is its build directory). Nothing else: not the package's data or answers, not the
//!   other submissions, not the reports, not the user's home. `--allow-read` adds paths.
//! - **Network** (seccomp, and Landlock's TCP rules): the calls that reach it end the run
//!   (`forbidden: connect`); see [`seccomp`].
//! - **Other processes** (Landlock's scopes, seccomp): no signal to a process outside the run,
//!   no abstract UNIX socket, no `ptrace`; no new privileges (`no_new_privs`).
//! - **Identity**: as root, uid and gid [`NOBODY`] with no supplementary groups; a user
//!   namespace of its own in every case, in which it has no capability.
//! - **Environment**: [`environment`], never the auditor's.
//! - **Resources**: at most [`PROCESSES`] processes and threads, [`OPEN_FILES`] open files,
//!   files no larger than the output limit, no core dumps, the stack as large as the memory
//!   limit; memory itself is measured by the run's watch ([`super::program`]).
//!
//! [`Sandbox::probe`] checks, before an audit starts, that the kernel has every mechanism (a
//! confined run of `/bin/true`, one step at a time); [`Jail::prepare`] sets up one run.
//! docs/security.md holds the threat model and how each part is tested.

mod child;
pub mod seccomp;

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use landlock::{
    path_beneath_rules, Access, AccessFs, AccessNet, CompatLevel, Compatible, Ruleset, RulesetAttr,
    RulesetCreatedAttr, Scope, ABI,
};

use child::{Scratch, Step, Steps};
pub use seccomp::Refusal;

/// The uid and gid programs run as when the audit runs as root (`nobody` and `nogroup`).
pub const NOBODY: u32 = 65534;

/// The most processes and threads a run may have at once.
pub const PROCESSES: u64 = 128;

/// The most files a process of a run may hold open.
pub const OPEN_FILES: u64 = 256;

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

/// The confinement of an audit: the mechanisms found, and what every program reads.
#[derive(Debug)]
pub struct Sandbox {
    /// Programs run as [`NOBODY`] (the audit runs as root).
    as_nobody: bool,
    /// The Landlock ABI of the kernel.
    abi: i32,
    /// The uid and gid programs run as.
    uid: u32,
    gid: u32,
    /// What every program reads: the system's directories and files, and `--allow-read`.
    reads: Vec<PathBuf>,
    /// The directory of the runs' empty mount points (searchable by all), removed with the
    /// sandbox.
    runs: tempfile::TempDir,
    /// Runs prepared so far (each gets a mount point of its own).
    prepared: AtomicU64,
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
    },
    /// `--unconfined`: with the auditor's rights.
    Unconfined,
}

impl Confinement {
    /// In words, for the summary.
    pub fn text(&self) -> String {
        match self {
            Confinement::Confined { user, mechanisms } => {
                format!("confined as {user}: {mechanisms}")
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
        for path in allow_read {
            let absolute = std::path::absolute(path).map_err(|source| SandboxError::AllowRead {
                path: path.clone(),
                source,
            })?;
            if !absolute.exists() {
                return Err(SandboxError::NoSuchFile { path: path.clone() });
            }
            reads.push(absolute);
        }
        let runs = tempfile::Builder::new()
            .prefix("referee-runs-")
            .tempdir()
            .map_err(SandboxError::RunsDirectory)?;
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(runs.path(), std::fs::Permissions::from_mode(0o711)).map_err(
                |source| SandboxError::Io {
                    path: runs.path().to_path_buf(),
                    source,
                },
            )?;
        }
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
            runs,
            prepared: AtomicU64::new(0),
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
        let jail = Jail::new(self, Vec::new(), Workspace::Tmpfs);
        let steps = [
            (Step::Limits, "resource limits (setrlimit)"),
            (
                Step::Identity,
                "uid and gid 65534 (setresuid, setresgid, setgroups)",
            ),
            (
                Step::Namespaces,
                "a user namespace with mount and IPC namespaces (unshare: \
                 kernel.unprivileged_userns_clone, user.max_user_namespaces, or an AppArmor \
                 restriction on unprivileged user namespaces)",
            ),
            (Step::Scratch, "a tmpfs mounted in the run's own namespace"),
            (Step::Landlock, "Landlock (landlock_restrict_self)"),
            (
                Step::Seccomp,
                "seccomp filters with a listener (Linux 5.0 or later)",
            ),
        ];
        for (step, what) in steps {
            let limits = Limits {
                memory: 256 << 20,
                output: 1 << 20,
            };
            let mut command = Command::new("/bin/true");
            command
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null());
            let ran = jail
                .prepare_up_to(&mut command, &limits, step)
                .and_then(|mut cell| {
                    let status = command.spawn()?.wait()?;
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
                "a user namespace each, Landlock ABI {} (files, TCP, signals, abstract sockets), \
                 seccomp (network, ptrace, namespaces), at most {PROCESSES} processes and \
                 {OPEN_FILES} open files, a minimal environment",
                self.abi
            ),
        }
    }

    /// Whether programs run as [`NOBODY`].
    pub fn as_nobody(&self) -> bool {
        self.as_nobody
    }

    /// Whether [`NOBODY`] can reach directory `dir` (every directory down to it searchable by
    /// all, or nobody's own): why not.
    pub fn reachable(&self, dir: &Path) -> Result<(), SandboxError> {
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
    /// A directory nobody cannot reach (programs run as nobody when referee runs as root).
    #[error(
        "{}: as root, audit runs programs and builds as nobody (uid {NOBODY}), which cannot enter \
         {} (mode {mode:o}): give --out a directory every user can reach (o+x on each directory \
         above it), or run referee as a normal user",
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

/// Where a confined program writes.
#[derive(Debug, Clone)]
pub enum Workspace {
    /// A tmpfs of its own on `/tmp`, the size of the output limit, gone with the run.
    Tmpfs,
    /// This directory (a build's), kept.
    Directory(PathBuf),
}

/// What one run is held to besides its CPU time.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The memory limit, in bytes (the stack's limit too).
    pub memory: u64,
    /// The output limit, in bytes: the scratch's size and the largest file.
    pub output: u64,
}

/// One program's confinement: the sandbox, the files of its own it reads, where it writes.
#[derive(Debug)]
pub struct Jail {
    sandbox: Arc<Sandbox>,
    reads: Vec<PathBuf>,
    scratch: Workspace,
}

/// One run's part of the confinement, alive until the run has ended: the Landlock ruleset and
/// the socket its forbidden calls' listener comes back on (needed until it has started), and
/// the empty directory its scratch is mounted on (removed when the cell is dropped).
pub struct Cell {
    _ruleset: OwnedFd,
    ours: OwnedFd,
    _theirs: OwnedFd,
    mount_point: Option<PathBuf>,
}

impl Cell {
    /// The listener of the run's forbidden calls, once the program has started.
    pub fn listener(&mut self) -> io::Result<Option<OwnedFd>> {
        child::receive_descriptor(self.ours.as_raw_fd())
    }
}

impl Drop for Cell {
    fn drop(&mut self) {
        if let Some(dir) = &self.mount_point {
            // Empty here: the scratch was mounted on it in the run's own namespace.
            let _ = std::fs::remove_dir(dir);
        }
    }
}

impl Jail {
    /// The confinement of a program that reads `reads` (its own files) and writes in
    /// `scratch`.
    pub fn new(sandbox: &Arc<Sandbox>, reads: Vec<PathBuf>, scratch: Workspace) -> Jail {
        Jail {
            sandbox: Arc::clone(sandbox),
            reads,
            scratch,
        }
    }

    /// The sandbox it belongs to.
    pub fn sandbox(&self) -> &Sandbox {
        &self.sandbox
    }

    /// Sets `command` up to run confined within `limits`: its environment, its working
    /// directory, and what its child does before `exec`. The returned cell must live until
    /// the command has been spawned; its [`Cell::listener`] then gives the forbidden calls'
    /// listener.
    pub fn prepare(&self, command: &mut Command, limits: &Limits) -> io::Result<Cell> {
        self.prepare_up_to(command, limits, Step::Seccomp)
    }

    fn prepare_up_to(
        &self,
        command: &mut Command,
        limits: &Limits,
        last: Step,
    ) -> io::Result<Cell> {
        let ruleset = self.ruleset()?;
        let (ours, theirs) = std::os::unix::net::UnixDatagram::pair()
            .map(|(a, b)| (OwnedFd::from(a), OwnedFd::from(b)))?;
        let (scratch, directory, mount_point) = match &self.scratch {
            Workspace::Tmpfs => {
                let n = self.sandbox.prepared.fetch_add(1, Ordering::Relaxed);
                let dir = self.sandbox.runs.path().join(format!("run-{n}"));
                std::fs::create_dir(&dir)?;
                let options = format!("size={},mode=0700", limits.output.max(4096));
                (
                    Scratch::Tmpfs(cstring(&dir.display().to_string())?, cstring(&options)?),
                    dir.clone(),
                    Some(dir),
                )
            }
            Workspace::Directory(dir) => (
                Scratch::Directory(cstring(&dir.display().to_string())?),
                dir.clone(),
                None,
            ),
        };
        // A run's files fit its scratch; a build's program may be larger than any output.
        let file_size = match self.scratch {
            Workspace::Tmpfs => limits.output.max(4096),
            Workspace::Directory(_) => BUILD_FILE_SIZE,
        };
        let steps = Steps {
            limits: vec![
                (libc::RLIMIT_CORE, 0),
                (libc::RLIMIT_STACK, limits.memory),
                (libc::RLIMIT_NOFILE, OPEN_FILES),
                (libc::RLIMIT_FSIZE, file_size),
            ],
            as_nobody: self.sandbox.as_nobody,
            processes: PROCESSES,
            uid_map: cstring(&format!("{uid} {uid} 1", uid = self.sandbox.uid))?,
            gid_map: cstring(&format!("{gid} {gid} 1", gid = self.sandbox.gid))?,
            scratch,
            ruleset: ruleset.as_raw_fd(),
            scratch_rights: AccessFs::from_all(LANDLOCK_ABI).bits(),
            filters: seccomp::filters()?,
            channel: theirs.as_raw_fd(),
            last,
        };
        command
            .env_clear()
            .envs(environment(&directory.display().to_string()));
        // std changes to this directory before the steps; the steps change to it again, once
        // the tmpfs is mounted on it.
        command.current_dir(Path::new("/"));
        // SAFETY: the steps make system calls only, on data prepared here and descriptors the
        // cell keeps open until the spawn is done.
        unsafe {
            command.pre_exec(move || steps.take());
        }
        Ok(Cell {
            _ruleset: ruleset,
            ours,
            _theirs: theirs,
            mount_point,
        })
    }

    /// The run's Landlock ruleset: every access handled, reads of the system, of the
    /// program's own files and of `--allow-read`, the devices; the scratch's rule is the
    /// child's to add.
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
}

/// The largest file a build writes.
const BUILD_FILE_SIZE: u64 = 1 << 30;

fn cstring(text: &str) -> io::Result<CString> {
    CString::new(text).map_err(|_| io::Error::other(format!("a NUL byte in {text:?}")))
}

/// Sets `command`'s limits for a run outside the sandbox (`--unconfined`): no core dumps, the
/// stack as large as the memory limit.
pub fn limit_unconfined(command: &mut Command, limits: &Limits) {
    let memory = limits.memory;
    // SAFETY: the closure makes system calls only.
    unsafe {
        command.pre_exec(move || {
            child::limit(libc::RLIMIT_CORE, 0)?;
            child::limit(libc::RLIMIT_STACK, memory)
        });
    }
}

impl crate::error::RunRefusal for SandboxError {}

/// No sandbox on this machine for the programs `audit` runs: why, and what to do.
#[derive(Debug, thiserror::Error)]
#[error(
    "{0}. audit runs other people's programs in a sandbox; --unconfined runs them with your \
     rights instead (docs/security.md)"
)]
pub struct NoSandbox(pub SandboxError);

impl crate::error::RunRefusal for NoSandbox {}
