//! What the processes of a confined run do before the program's `exec`, with nothing but system
//! calls on data prepared before they were created (they may be copies of a process with other
//! threads, which may not allocate nor take a lock), and how they report back.
//!
//! A run is two processes and whatever the program starts:
//!
//! ```text
//!  starter ──clone3(new user, mount, PID, IPC, network, UTS namespaces)── init (PID 1) ── program (PID 2) ── ...
//! ```
//!
//! - The **starter** ([`crate::start`]) is the keeper program, `referee-keeper`, or else the
//!   auditing process itself. It creates the init with `clone3`, in new namespaces and, where
//!   the accounting is cgroup v2's, born in the run's control group (`CLONE_INTO_CGROUP`);
//!   writes the init's uid and gid maps; then lets it go.
//! - The **init** is the first process of the run's PID namespace. It asks to be killed when
//!   the starter ends (so nothing of a run outlives the audit, even one killed at once), sets
//!   the run's limits, and builds the run's root: a tmpfs with read-only bind mounts of the
//!   system's directories and the program's own files, the devices a program uses, a procfs
//!   of the run's own PID namespace and the run's scratch (a tmpfs), into which it
//!   `pivot_root`s, the machine's mounts detached. As root it then becomes nobody (uid and gid
//!   65534, no other group; and asks for the parent-death signal again, which the change of
//!   identity clears), makes itself undumpable (the program, the same user, may not read its
//!   memory or descriptors), writes the ready record (its own CPU time so far), forks the
//!   program, closes every descriptor but the report pipe, and reaps: every process of the
//!   namespace becomes its child when its parent ends. When the program ends it kills every
//!   other process of the namespace (`kill(-1)`, which in a PID namespace reaches only its
//!   own), reaps them all, and writes the end record: the program's wait status, the CPU time
//!   of everything it reaped, the largest resident set among them and its own CPU time.
//! - The **program**, PID 2, calls `setsid` (a process group of its own, no terminal), moves
//!   to its scratch, marks every descriptor but its standard input, output and error to close
//!   on `exec`, enforces Landlock's rules where the kernel has Landlock (a second wall behind
//!   the root), installs the seccomp filter, whose listener it sends back over the descriptor
//!   channel, and `exec`s the program.
//!
//! A step that fails writes a failure record (the step and the error's number) on the report
//! pipe, and its process exits with 127.

use std::borrow::Cow;
use std::ffi::{c_char, CString};
use std::os::fd::RawFd;

/// The steps a run's processes take, in order: a failure names one.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Step {
    /// The namespaces made and the init's identity mapped in them (the starter's).
    Namespaces,
    /// The resource limits.
    Limits,
    /// The run's root: its tmpfs, the bind mounts, `pivot_root`.
    Root,
    /// The scratch mounted.
    Scratch,
    /// As root: uid and gid 65534, no other group.
    Identity,
    /// The program's process forked.
    Processes,
    /// Landlock's rules enforced.
    Landlock,
    /// The seccomp filter installed and its listener sent back.
    Seccomp,
    /// The program's `exec`.
    Exec,
}

impl Step {
    const ALL: [Step; 9] = [
        Step::Namespaces,
        Step::Limits,
        Step::Root,
        Step::Scratch,
        Step::Identity,
        Step::Processes,
        Step::Landlock,
        Step::Seccomp,
        Step::Exec,
    ];

    /// The step of index `index` (its place in the order, from 0).
    pub(crate) fn from_index(index: u64) -> Option<Step> {
        Step::ALL.get(usize::try_from(index).ok()?).copied()
    }

    /// What the step needs of the kernel, in words, for an error.
    pub(crate) fn needs(self) -> &'static str {
        match self {
            Step::Namespaces => {
                "user, mount, PID, IPC, network and UTS namespaces made by clone3 (Linux 5.3; \
                 unprivileged user namespaces: kernel.unprivileged_userns_clone, \
                 user.max_user_namespaces, or Ubuntu's \
                 kernel.apparmor_restrict_unprivileged_userns), and the identity mapped in them"
            }
            Step::Limits => "resource limits (setrlimit)",
            Step::Root => {
                "the run's root: a tmpfs, read-only bind mounts (mount_setattr, Linux 5.12) and \
                 pivot_root in its own mount namespace"
            }
            Step::Scratch => "the run's scratch, a tmpfs",
            Step::Identity => "uid and gid 65534 in the run's user namespace",
            Step::Processes => "the program's process (fork)",
            Step::Landlock => "Landlock (landlock_restrict_self)",
            Step::Seccomp => "a seccomp filter with a listener (Linux 5.0 or later)",
            Step::Exec => "the program's exec",
        }
    }
}

/// One operation of building the run's root: paths on the machine's side are as they are;
/// paths in the root are prefixed with the root's mount point.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Op {
    /// A directory in the root.
    Dir(CString),
    /// An empty file in the root (a file's mount point).
    File(CString),
    /// A symbolic link in the root: its target, its path.
    Link(CString, CString),
    /// A bind mount of the machine's `source` (and what is mounted below it) at `target`:
    /// read-only, no set-uid, no devices; a device: writable, no set-uid, no `exec`.
    Bind {
        source: CString,
        target: CString,
        device: bool,
    },
    /// A procfs of the run's PID namespace at this path (where the kernel allows one: not in a
    /// container whose `/proc` is partly hidden).
    Proc(CString),
}

/// Landlock's rules of a run, where the kernel has Landlock: what is handled, each path's
/// rights (in the run's root), and the rights on the scratch, the run's `/proc` and its root
/// (its directories listed: the root holds nothing but what the run is given).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Rules {
    pub(crate) handled_fs: u64,
    pub(crate) handled_net: u64,
    pub(crate) scoped: u64,
    pub(crate) paths: Vec<(CString, u64)>,
    pub(crate) scratch: u64,
    pub(crate) proc: u64,
    pub(crate) root: u64,
}

/// Everything a run's processes need, prepared before they exist.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Steps {
    /// The sandbox runs as root: the init becomes [`crate::NOBODY`] once the root is built.
    pub(crate) as_root: bool,
    /// The resource limits: `(resource, value)`.
    pub(crate) limits: Vec<(u32, u64)>,
    /// `RLIMIT_NPROC`, set once the init has its final identity.
    pub(crate) processes: u64,
    /// The machine's directory the run's root is mounted on, and the root tmpfs's options.
    pub(crate) root: CString,
    pub(crate) root_options: CString,
    /// How the root is built.
    pub(crate) ops: Vec<Op>,
    /// The scratch: its path in the run, its mount point (in the root), its tmpfs's options.
    pub(crate) scratch: CString,
    pub(crate) scratch_at: CString,
    pub(crate) scratch_options: CString,
    /// Whether a descriptor of the scratch goes back over the channel (a build's, whose files
    /// are copied out once it has ended).
    pub(crate) send_scratch: bool,
    /// Landlock's rules, where the kernel has Landlock.
    pub(crate) rules: Option<Rules>,
    /// The seccomp filter's program.
    pub(crate) filter: Cow<'static, [libc::sock_filter]>,
    /// The program's file (a path in the run), its arguments and its environment.
    pub(crate) program: CString,
    pub(crate) argv: Vec<CString>,
    pub(crate) env: Vec<CString>,
}

/// The argument and environment vectors of `execve`, pointing into a [`Steps`]: made by the
/// starter before the init exists (the init may not allocate).
pub(crate) struct Exec {
    argv: Vec<*const c_char>,
    env: Vec<*const c_char>,
}

impl Exec {
    /// The vectors of `steps`, which must outlive them.
    pub(crate) fn of(steps: &Steps) -> Exec {
        let pointers = |words: &[CString]| -> Vec<*const c_char> {
            words
                .iter()
                .map(|w| w.as_ptr())
                .chain([std::ptr::null()])
                .collect()
        };
        Exec {
            argv: pointers(&steps.argv),
            env: pointers(&steps.env),
        }
    }
}

/// The init's descriptors, once arranged: the program's standard input, output and error, the
/// report pipe's write end, the channel, the go pipe's read end and the alive pipe's read end.
pub(crate) const REPORT: RawFd = 3;
pub(crate) const CHANNEL: RawFd = 4;
const GO: RawFd = 5;
const ALIVE: RawFd = 6;
/// How many descriptors the init keeps.
pub(crate) const KEPT: usize = 7;

/// A record on the report pipe: 32 bytes, written at once (less than `PIPE_BUF`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[repr(C)]
pub(crate) struct Record {
    /// [`Record::READY`], [`Record::END`] or [`Record::FAILED`].
    pub(crate) tag: u32,
    /// Ready: [`Record::PROC`] when the run has a procfs of its own. End: the program's wait
    /// status. Failed: the error's number.
    pub(crate) value: i32,
    /// End: the CPU time of everything the init reaped, in microseconds.
    pub(crate) cpu_micros: u64,
    /// End: the largest high-water mark of a resident set among them, in KiB.
    pub(crate) peak_kib: u64,
    /// Ready and end: the init's own CPU time, in microseconds. Failed: the step's index.
    pub(crate) extra: u64,
}

impl Record {
    /// The root is built and the program is about to be forked.
    pub(crate) const READY: u32 = 0x4ead;
    /// The program ended, and every process of the run with it.
    pub(crate) const END: u32 = 0x1e4d;
    /// A step failed.
    pub(crate) const FAILED: u32 = 0xfa11;
    /// Ready's flag: the run has a procfs of its own PID namespace.
    pub(crate) const PROC: i32 = 1;
    /// The size of a record.
    pub(crate) const SIZE: usize = std::mem::size_of::<Record>();

    /// The record in `bytes` (exactly [`Record::SIZE`] of them).
    pub(crate) fn read(bytes: &[u8; Record::SIZE]) -> Record {
        // SAFETY: `Record` is plain data of this size, read unaligned.
        unsafe { std::ptr::read_unaligned(bytes.as_ptr().cast::<Record>()) }
    }

    /// The step a failure record names.
    pub(crate) fn step(&self) -> Option<Step> {
        (self.tag == Record::FAILED)
            .then(|| Step::from_index(self.extra))
            .flatten()
    }
}

/// A step's failure: the step and the error's number.
type Failure = (Step, i32);

fn errno() -> i32 {
    std::io::Error::last_os_error()
        .raw_os_error()
        .unwrap_or(libc::EIO)
}

/// `Err((step, errno))` when a system call's `result` is negative.
fn check(step: Step, result: libc::c_long) -> Result<libc::c_long, Failure> {
    if result < 0 {
        Err((step, errno()))
    } else {
        Ok(result)
    }
}

/// Sets `resource` to `value` (soft and hard); where the hard limit is lower and cannot be
/// raised, both to the hard limit.
pub(crate) fn limit(resource: u32, value: u64) -> std::io::Result<()> {
    let wanted = libc::rlimit {
        rlim_cur: value,
        rlim_max: value,
    };
    // SAFETY: a plain system call on a stack value.
    if unsafe { libc::setrlimit(resource as _, &wanted) } == 0 {
        return Ok(());
    }
    let mut current = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: as above.
    if unsafe { libc::getrlimit(resource as _, &mut current) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    let lowered = libc::rlimit {
        rlim_cur: value.min(current.rlim_max),
        rlim_max: value.min(current.rlim_max),
    };
    // SAFETY: as above.
    if unsafe { libc::setrlimit(resource as _, &lowered) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
}

/// The init: arranges `fds` ([`KEPT`] descriptors, in the order of the constants above), waits
/// for its starter's go, takes every step and reaps the run. Never returns.
///
/// # Safety
/// In a new process made by the starter's `clone3`, which may be a copy of a process with
/// other threads: system calls only, on `steps` and `exec`, which it has copies of.
pub(crate) unsafe fn init(steps: &Steps, exec: &Exec, fds: [RawFd; KEPT]) -> ! {
    if arrange(fds).is_err() {
        libc::_exit(127);
    }
    default_signals();
    libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
    // The starter lets the init go once its identity is mapped; a starter that died first
    // closed its end.
    let mut go = 0u8;
    if libc::read(GO, (&mut go as *mut u8).cast(), 1) != 1 || starter_gone() {
        libc::_exit(1);
    }
    libc::close(GO);
    let proc = match prepare(steps) {
        Ok(proc) => proc,
        Err((step, errno)) => failed(step, errno),
    };
    let ready = Record {
        tag: Record::READY,
        value: if proc { Record::PROC } else { 0 },
        extra: own_micros(),
        ..Record::default()
    };
    write_record(REPORT, &ready);
    // A bare clone, not the C library's fork(): this process may be a copy of one with other
    // threads, whose allocator locks fork()'s handlers would wait for for ever.
    let program = libc::syscall(
        libc::SYS_clone,
        libc::SIGCHLD as libc::c_ulong,
        0usize,
        0usize,
        0usize,
        0usize,
    ) as libc::pid_t;
    if program < 0 {
        failed(Step::Processes, errno());
    }
    if program == 0 {
        match become_program(steps, proc) {
            Ok(()) => {
                libc::execve(
                    steps.program.as_ptr(),
                    exec.argv.as_ptr(),
                    exec.env.as_ptr(),
                );
                failed(Step::Exec, errno())
            }
            Err((step, errno)) => failed(step, errno),
        }
    }
    close_all_but(REPORT);
    let (status, cpu_micros, peak_kib) = reap(program);
    let end = Record {
        tag: Record::END,
        value: status,
        cpu_micros,
        peak_kib,
        extra: own_micros(),
    };
    write_record(REPORT, &end);
    libc::_exit(exit_code(status))
}

/// Moves `fds` to descriptors 0 to [`KEPT`] - 1, in order, and closes every other.
///
/// # Safety
/// System calls only.
unsafe fn arrange(fds: [RawFd; KEPT]) -> Result<(), ()> {
    // Each first to a number above all of them, so that no move overwrites one not yet moved.
    let above = fds.iter().copied().max().unwrap_or(0).max(KEPT as RawFd) + 1;
    let mut moved = [0 as RawFd; KEPT];
    for (to, &fd) in moved.iter_mut().zip(&fds) {
        *to = libc::fcntl(fd, libc::F_DUPFD, above);
        if *to < 0 {
            return Err(());
        }
    }
    for (target, &fd) in moved.iter().enumerate() {
        if libc::dup2(fd, target as RawFd) < 0 {
            return Err(());
        }
    }
    libc::syscall(libc::SYS_close_range, KEPT as u32, u32::MAX, 0u32);
    Ok(())
}

/// Whether the starter has ended: the alive pipe, whose write end only it holds, is at its
/// end.
///
/// # Safety
/// System calls only.
unsafe fn starter_gone() -> bool {
    let mut alive = libc::pollfd {
        fd: ALIVE,
        events: libc::POLLIN,
        revents: 0,
    };
    libc::poll(&mut alive, 1, 0) != 0
}

/// The init's own CPU time, in microseconds.
///
/// # Safety
/// System calls only.
unsafe fn own_micros() -> u64 {
    let mut usage: libc::rusage = std::mem::zeroed();
    libc::getrusage(libc::RUSAGE_SELF, &mut usage);
    micros(usage.ru_utime) + micros(usage.ru_stime)
}

fn micros(t: libc::timeval) -> u64 {
    t.tv_sec.max(0) as u64 * 1_000_000 + t.tv_usec.max(0) as u64
}

/// The init's steps up to the program's fork: whether the run has a procfs of its own.
///
/// # Safety
/// In the init, as [`init`].
unsafe fn prepare(steps: &Steps) -> Result<bool, Failure> {
    for &(resource, value) in &steps.limits {
        limit(resource, value).map_err(|e| (Step::Limits, e.raw_os_error().unwrap_or(0)))?;
    }
    let proc = build_root(steps)?;
    if steps.as_root {
        // Bare system calls: the C library's setgroups() and setres[ug]id() change every
        // thread it knows of, and wait for ever on the threads of the process this one may be a
        // copy of.
        let nobody = crate::NOBODY as libc::c_long;
        check(
            Step::Identity,
            libc::syscall(
                libc::SYS_setgroups,
                0 as libc::c_long,
                std::ptr::null::<u32>(),
            ),
        )?;
        check(
            Step::Identity,
            libc::syscall(libc::SYS_setresgid, nobody, nobody, nobody),
        )?;
        check(
            Step::Identity,
            libc::syscall(libc::SYS_setresuid, nobody, nobody, nobody),
        )?;
        // A change of identity clears the parent-death signal.
        check(
            Step::Identity,
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0).into(),
        )?;
        if starter_gone() {
            libc::_exit(1);
        }
    }
    // The program, the same user, may not read the init's memory nor open its descriptors.
    check(
        Step::Identity,
        libc::prctl(libc::PR_SET_DUMPABLE, 0, 0, 0, 0).into(),
    )?;
    limit(libc::RLIMIT_NPROC, steps.processes)
        .map_err(|e| (Step::Limits, e.raw_os_error().unwrap_or(0)))?;
    Ok(proc)
}

/// `mount_setattr`'s attributes.
#[repr(C)]
struct MountAttr {
    attr_set: u64,
    attr_clr: u64,
    propagation: u64,
    userns_fd: u64,
}

const MOUNT_ATTR_RDONLY: u64 = 0x1;
const MOUNT_ATTR_NOSUID: u64 = 0x2;
const MOUNT_ATTR_NODEV: u64 = 0x4;
const MOUNT_ATTR_NOEXEC: u64 = 0x8;
const AT_RECURSIVE: libc::c_uint = 0x8000;

/// `mount(2)` of `source` at `target` as step `step`.
///
/// # Safety
/// System calls only.
unsafe fn mount(
    step: Step,
    source: *const c_char,
    target: *const c_char,
    kind: *const c_char,
    flags: libc::c_ulong,
    data: *const c_char,
) -> Result<(), Failure> {
    check(
        step,
        libc::mount(source, target, kind, flags, data.cast()).into(),
    )
    .map(drop)
}

/// Builds the run's root and `pivot_root`s into it: whether it has a procfs of its own.
///
/// # Safety
/// In the init, as [`init`].
unsafe fn build_root(steps: &Steps) -> Result<bool, Failure> {
    let none = std::ptr::null();
    let tmpfs = c"tmpfs".as_ptr();
    // Nothing mounted from here on reaches the machine's mounts.
    mount(
        Step::Root,
        none,
        c"/".as_ptr(),
        none,
        libc::MS_REC | libc::MS_PRIVATE,
        none,
    )?;
    mount(
        Step::Root,
        tmpfs,
        steps.root.as_ptr(),
        tmpfs,
        libc::MS_NOSUID | libc::MS_NODEV,
        steps.root_options.as_ptr(),
    )?;
    let mut proc = false;
    for op in &steps.ops {
        proc |= take(op)?;
    }
    mount(
        Step::Scratch,
        tmpfs,
        steps.scratch_at.as_ptr(),
        tmpfs,
        libc::MS_NOSUID | libc::MS_NODEV,
        steps.scratch_options.as_ptr(),
    )?;
    if steps.send_scratch {
        let fd = check(
            Step::Scratch,
            libc::open(
                steps.scratch_at.as_ptr(),
                libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC,
            )
            .into(),
        )? as RawFd;
        let sent = send_descriptor(CHANNEL, fd);
        libc::close(fd);
        sent.map_err(|errno| (Step::Scratch, errno))?;
    }
    enter(&steps.root)?;
    Ok(proc)
}

/// Takes operation `op` of building the root: whether it mounted the run's procfs.
///
/// # Safety
/// In the init, as [`init`].
unsafe fn take(op: &Op) -> Result<bool, Failure> {
    let none = std::ptr::null();
    let tolerate_existing = |result: libc::c_int| {
        if result != 0 && errno() != libc::EEXIST {
            Err((Step::Root, errno()))
        } else {
            Ok(false)
        }
    };
    match op {
        Op::Dir(path) => tolerate_existing(libc::mkdir(path.as_ptr(), 0o755)),
        Op::File(path) => {
            let fd = check(
                Step::Root,
                libc::open(
                    path.as_ptr(),
                    libc::O_CREAT | libc::O_WRONLY | libc::O_CLOEXEC,
                    0o644,
                )
                .into(),
            )?;
            libc::close(fd as RawFd);
            Ok(false)
        }
        Op::Link(target, path) => tolerate_existing(libc::symlink(target.as_ptr(), path.as_ptr())),
        Op::Bind {
            source,
            target,
            device,
        } => {
            let flags = libc::MS_BIND | libc::MS_REC;
            mount(
                Step::Root,
                source.as_ptr(),
                target.as_ptr(),
                none,
                flags,
                none,
            )?;
            let attr = MountAttr {
                attr_set: if *device {
                    MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC
                } else {
                    MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV
                },
                attr_clr: 0,
                propagation: 0,
                userns_fd: 0,
            };
            check(
                Step::Root,
                libc::syscall(
                    libc::SYS_mount_setattr,
                    libc::AT_FDCWD,
                    target.as_ptr(),
                    AT_RECURSIVE,
                    &attr as *const MountAttr,
                    std::mem::size_of::<MountAttr>(),
                ),
            )?;
            Ok(false)
        }
        // Where the kernel refuses a procfs (a container whose /proc is partly hidden), the run
        // has none: it sees no process at all.
        // Read-only: nothing of a process's settings (`oom_score_adj` among them) is the run's
        // to write there.
        Op::Proc(path) => Ok(libc::mount(
            c"proc".as_ptr(),
            path.as_ptr(),
            c"proc".as_ptr(),
            libc::MS_NOSUID | libc::MS_NODEV | libc::MS_NOEXEC | libc::MS_RDONLY,
            std::ptr::null(),
        ) == 0),
    }
}

/// Makes the root at `root` read-only (the scratch and the devices are its writable mounts) and
/// `pivot_root`s into it, the machine's mounts detached: nothing of them is reachable.
///
/// # Safety
/// In the init, as [`init`].
unsafe fn enter(root: &CString) -> Result<(), Failure> {
    let none = std::ptr::null();
    mount(
        Step::Root,
        none,
        root.as_ptr(),
        none,
        libc::MS_REMOUNT | libc::MS_BIND | libc::MS_RDONLY | libc::MS_NOSUID | libc::MS_NODEV,
        none,
    )?;
    check(Step::Root, libc::chdir(root.as_ptr()).into())?;
    let here = c".".as_ptr();
    check(Step::Root, libc::syscall(libc::SYS_pivot_root, here, here))?;
    // The machine's root, now stacked on the run's.
    check(Step::Root, libc::umount2(here, libc::MNT_DETACH).into())?;
    check(Step::Root, libc::chdir(c"/".as_ptr()).into()).map(drop)
}

/// The program's steps in its process, up to its `exec`.
///
/// # Safety
/// In the program's process, forked by the init: system calls only.
unsafe fn become_program(steps: &Steps, proc: bool) -> Result<(), Failure> {
    check(Step::Processes, libc::setsid().into())?;
    check(Step::Processes, libc::chdir(steps.scratch.as_ptr()).into())?;
    check(
        Step::Processes,
        libc::syscall(
            libc::SYS_close_range,
            3u32,
            u32::MAX,
            libc::CLOSE_RANGE_CLOEXEC,
        ),
    )?;
    check(
        Step::Landlock,
        libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0).into(),
    )?;
    if let Some(rules) = &steps.rules {
        landlock(rules, &steps.scratch, proc)?;
    }
    let listener = check(
        Step::Seccomp,
        install(&steps.filter, libc::SECCOMP_FILTER_FLAG_NEW_LISTENER),
    )? as RawFd;
    let sent = send_descriptor(CHANNEL, listener);
    libc::close(listener);
    sent.map_err(|errno| (Step::Seccomp, errno))
}

/// `struct landlock_ruleset_attr`.
#[repr(C)]
struct RulesetAttr {
    handled_access_fs: u64,
    handled_access_net: u64,
    scoped: u64,
}

/// `struct landlock_path_beneath_attr`.
#[repr(C, packed)]
struct PathBeneath {
    allowed_access: u64,
    parent_fd: i32,
}

/// `LANDLOCK_RULE_PATH_BENEATH`.
const RULE_PATH_BENEATH: libc::c_long = 1;

/// Enforces Landlock's `rules`, with the scratch's and (when the run has one) its `/proc`'s.
///
/// # Safety
/// In the program's process: system calls only.
unsafe fn landlock(rules: &Rules, scratch: &CString, proc: bool) -> Result<(), Failure> {
    // Only the fields the kernel's ABI knows: an older kernel refuses a larger struct.
    let attr = RulesetAttr {
        handled_access_fs: rules.handled_fs,
        handled_access_net: rules.handled_net,
        scoped: rules.scoped,
    };
    let size = if rules.scoped != 0 {
        24
    } else if rules.handled_net != 0 {
        16
    } else {
        8
    };
    let ruleset = check(
        Step::Landlock,
        libc::syscall(
            libc::SYS_landlock_create_ruleset,
            &attr as *const RulesetAttr,
            size as libc::size_t,
            0u32,
        ),
    )? as RawFd;
    let add = |path: *const c_char, rights: u64| -> Result<(), Failure> {
        let fd = libc::open(path, libc::O_PATH | libc::O_CLOEXEC);
        if fd < 0 {
            // A path the root lacks (it went away since) gives nothing.
            return Ok(());
        }
        let rule = PathBeneath {
            allowed_access: rights,
            parent_fd: fd,
        };
        let added = libc::syscall(
            libc::SYS_landlock_add_rule,
            ruleset,
            RULE_PATH_BENEATH,
            &rule as *const PathBeneath,
            0u32,
        );
        libc::close(fd);
        check(Step::Landlock, added).map(drop)
    };
    for (path, rights) in &rules.paths {
        add(path.as_ptr(), *rights)?;
    }
    add(scratch.as_ptr(), rules.scratch)?;
    add(c"/".as_ptr(), rules.root)?;
    if proc {
        add(c"/proc".as_ptr(), rules.proc)?;
    }
    let enforced = libc::syscall(libc::SYS_landlock_restrict_self, ruleset, 0u32);
    libc::close(ruleset);
    check(Step::Landlock, enforced).map(drop)
}

/// Writes a failure record for `step` and `errno` and exits with 127.
///
/// # Safety
/// System calls only.
unsafe fn failed(step: Step, errno: i32) -> ! {
    let record = Record {
        tag: Record::FAILED,
        value: errno,
        extra: step as u64,
        ..Record::default()
    };
    write_record(REPORT, &record);
    libc::_exit(127)
}

/// Every signal's action back to its default and none blocked, so that the init, the first
/// process of its namespace, ignores every signal its own namespace sends it (the kernel
/// delivers only those it has a handler for), and the program starts as a program does.
///
/// # Safety
/// System calls only.
unsafe fn default_signals() {
    let mut action: libc::sigaction = std::mem::zeroed();
    action.sa_sigaction = libc::SIG_DFL;
    for signal in 1..=64 {
        if signal != libc::SIGKILL && signal != libc::SIGSTOP {
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
    let mut none: libc::sigset_t = std::mem::zeroed();
    libc::sigemptyset(&mut none);
    libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
}

/// Closes every descriptor but `keep`.
///
/// # Safety
/// System calls only.
unsafe fn close_all_but(keep: RawFd) {
    let keep = keep as u32;
    if keep > 0 {
        libc::syscall(libc::SYS_close_range, 0u32, keep - 1, 0u32);
    }
    libc::syscall(libc::SYS_close_range, keep + 1, u32::MAX, 0u32);
}

/// The exit code a shell gives for wait status `status`.
fn exit_code(status: i32) -> i32 {
    if libc::WIFEXITED(status) {
        libc::WEXITSTATUS(status)
    } else {
        128 + libc::WTERMSIG(status)
    }
}

/// The init's work: reaps every process of the namespace until none is left, killing the rest
/// once `program` has ended. The program's wait status, the CPU time of everything reaped in
/// microseconds, and the largest resident high-water mark among them in KiB.
///
/// # Safety
/// System calls only.
unsafe fn reap(program: libc::pid_t) -> (i32, u64, u64) {
    let mut program_status = 0;
    let mut total = 0u64;
    let mut peak = 0u64;
    loop {
        let mut status = 0;
        let mut usage: libc::rusage = std::mem::zeroed();
        let reaped = libc::wait4(-1, &mut status, libc::__WALL, &mut usage);
        if reaped < 0 {
            if errno() == libc::EINTR {
                continue;
            }
            // No child left.
            break;
        }
        total += micros(usage.ru_utime) + micros(usage.ru_stime);
        peak = peak.max(usage.ru_maxrss.max(0) as u64);
        if reaped == program {
            program_status = status;
            libc::kill(-1, libc::SIGKILL);
        }
    }
    (program_status, total, peak)
}

/// Writes `record` to `fd` in one write (a failure means the auditing process is gone).
///
/// # Safety
/// A system call on a value on the stack.
unsafe fn write_record(fd: RawFd, record: &Record) {
    libc::write(fd, (record as *const Record).cast(), Record::SIZE);
}

/// Installs a filter: its listener's descriptor with `SECCOMP_FILTER_FLAG_NEW_LISTENER`.
///
/// # Safety
/// A system call on `program`, which lives as long as the call.
unsafe fn install(program: &[libc::sock_filter], flags: libc::c_ulong) -> libc::c_long {
    let fprog = libc::sock_fprog {
        len: program.len() as libc::c_ushort,
        filter: program.as_ptr().cast_mut(),
    };
    libc::syscall(
        libc::SYS_seccomp,
        libc::SECCOMP_SET_MODE_FILTER,
        flags,
        &fprog as *const libc::sock_fprog,
    )
}

/// Room for one descriptor's control message, aligned as `cmsghdr` wants.
#[repr(C, align(8))]
struct Control([u8; 32]);

/// Sends descriptor `fd` over the UNIX socket `socket` (one byte of data with it): the error's
/// number when it cannot.
///
/// # Safety
/// System calls on descriptors the caller owns, with buffers on the stack.
pub(crate) unsafe fn send_descriptor(socket: RawFd, fd: RawFd) -> Result<(), i32> {
    let mut control = Control([0; 32]);
    let mut byte = [0u8; 1];
    let mut iov = libc::iovec {
        iov_base: byte.as_mut_ptr().cast(),
        iov_len: 1,
    };
    let mut message: libc::msghdr = std::mem::zeroed();
    message.msg_iov = &mut iov;
    message.msg_iovlen = 1;
    message.msg_control = control.0.as_mut_ptr().cast();
    message.msg_controllen = libc::CMSG_SPACE(std::mem::size_of::<RawFd>() as u32) as _;
    let header = libc::CMSG_FIRSTHDR(&message);
    (*header).cmsg_level = libc::SOL_SOCKET;
    (*header).cmsg_type = libc::SCM_RIGHTS;
    (*header).cmsg_len = libc::CMSG_LEN(std::mem::size_of::<RawFd>() as u32) as _;
    std::ptr::write_unaligned(libc::CMSG_DATA(header).cast::<RawFd>(), fd);
    if libc::sendmsg(socket, &message, 0) < 0 {
        return Err(errno());
    }
    Ok(())
}
