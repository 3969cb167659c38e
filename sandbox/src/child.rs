//! What the processes of a confined run do before the program's `exec`, with nothing but system
//! calls on data prepared before the fork (the auditing process has other threads, so a forked
//! copy of it may not allocate nor take a lock), and how they report back.
//!
//! A run is three processes and whatever the program starts:
//!
//! ```text
//!  auditing process ── keeper ──(new PID namespace)── init (PID 1) ── program (PID 2) ── ...
//! ```
//!
//! - The **keeper** is the child the auditing process spawns (from the thread of the run's
//!   control groups when the accounting is the kernel's: it is born in them): the keeper
//!   program, `referee-keeper`, handed these steps ([`crate::keeper`]), or else a fork of the
//!   auditing process that takes them between `fork` and `exec`. It resets every signal to
//!   its default, sets the limits, asks to be killed when the thread that spawned it ends,
//!   takes the run's identity (nobody, as root), makes a user namespace with mount, IPC and
//!   PID namespaces, maps the
//!   identity in it, bounds the processes and mounts the run's scratch (a tmpfs); then it forks
//!   the init, writes the init's process id on the report pipe, closes every other descriptor
//!   and waits for the init to end, which happens only once every process of the namespace has
//!   ended (the kernel ends them all when the init ends).
//! - The **init** is the first process of the namespace. It asks to be killed when the keeper
//!   ends (so nothing of a run outlives the audit, even one killed at once), forks the program,
//!   closes every descriptor but the report pipe, and reaps: every process of the namespace
//!   becomes its child when its parent ends. When the program ends it kills every other process
//!   of the namespace (`kill(-1)`, which in a PID namespace reaches only its own), reaps them
//!   all, and writes the end record: the program's wait status, the CPU time of everything it
//!   reaped (every thread of every process of the run, the kernel's own count) and the largest
//!   resident set among them.
//! - The **program**, PID 2, calls `setsid` (a process group of its own, no terminal), moves
//!   to its scratch, marks every descriptor but its standard input, output and error to close
//!   on `exec`, enforces the Landlock ruleset and installs the seccomp filter, whose listener
//!   it sends back over the descriptor channel; then the caller `exec`s it.
//!
//! A step that fails makes the spawn fail with its error (the keeper program reports it on
//! the report pipe instead, and so the program's failed `exec`); [`Step`] numbers them so that
//! the sandbox's probe can tell which mechanism is missing.

use std::ffi::CString;
use std::io;
use std::os::fd::RawFd;

/// The steps, in order; a run takes them up to one ([`Steps::last`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Step {
    /// The resource limits.
    Limits,
    /// The control groups joined (when there are), uid and gid 65534 (as root only).
    Identity,
    /// The user, mount, IPC and PID namespaces, and the process limit in them.
    Namespaces,
    /// The scratch mounted, the keeper, the init and the program's process.
    Processes,
    /// Landlock.
    Landlock,
    /// The seccomp filter.
    Seccomp,
}

impl Step {
    /// The step of index `index` (its place in the order, from 0).
    pub(crate) fn from_index(index: u64) -> Option<Step> {
        [
            Step::Limits,
            Step::Identity,
            Step::Namespaces,
            Step::Processes,
            Step::Landlock,
            Step::Seccomp,
        ]
        .get(usize::try_from(index).ok()?)
        .copied()
    }
}

/// Everything the run's processes need, prepared before the fork.
pub(crate) struct Steps {
    /// The resource limits set first: `(resource, value)`.
    pub(crate) limits: Vec<(libc::__rlimit_resource_t, u64)>,
    /// The auditing process: the keeper's parent.
    pub(crate) auditor: libc::pid_t,
    /// Drop to uid and gid [`crate::NOBODY`].
    pub(crate) as_nobody: bool,
    /// `RLIMIT_NPROC`, set in the new user namespace.
    pub(crate) processes: u64,
    /// The new user namespace's `uid_map` and `gid_map`: the run's ids mapped to themselves.
    pub(crate) uid_map: CString,
    pub(crate) gid_map: CString,
    /// The empty directory the scratch's tmpfs is mounted on, and the mount's options.
    pub(crate) scratch: CString,
    pub(crate) scratch_options: CString,
    /// Whether a descriptor of the scratch goes back over the channel (a build's, whose files
    /// are copied out once it has ended).
    pub(crate) send_scratch: bool,
    /// The Landlock ruleset (the parent's descriptor).
    pub(crate) ruleset: RawFd,
    /// The Landlock rights on the scratch.
    pub(crate) scratch_rights: u64,
    /// The seccomp filter's program.
    pub(crate) filter: &'static [libc::sock_filter],
    /// The channel descriptors go back on.
    pub(crate) channel: RawFd,
    /// The write end of the report pipe.
    pub(crate) report: RawFd,
    /// The last step taken (the probe stops early).
    pub(crate) last: Step,
}

/// `LANDLOCK_RULE_PATH_BENEATH`.
const RULE_PATH_BENEATH: libc::c_long = 1;

/// `struct landlock_path_beneath_attr`.
#[repr(C, packed)]
struct PathBeneath {
    allowed_access: u64,
    parent_fd: i32,
}

/// A record on the report pipe: 32 bytes, written at once (less than `PIPE_BUF`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[repr(C)]
pub(crate) struct Record {
    /// [`Record::INIT`], [`Record::END`] or [`Record::FAILED`].
    pub(crate) tag: u32,
    /// The init's process id (in the auditing process's namespace), the program's wait
    /// status, or the error number of what failed.
    pub(crate) value: i32,
    /// The end: the CPU time of everything the init reaped, in microseconds.
    pub(crate) cpu_micros: u64,
    /// The end: the largest high-water mark of a resident set among them, in KiB.
    pub(crate) peak_kib: u64,
    /// Reserved (zero).
    pub(crate) spare: u64,
}

impl Record {
    /// The init started.
    pub(crate) const INIT: u32 = 0x1417;
    /// The program ended, and every process of the run with it.
    pub(crate) const END: u32 = 0x1e4d;
    /// A step, or the program's `exec`, failed (told by a keeper program, see
    /// [`crate::keeper`]).
    pub(crate) const FAILED: u32 = 0xfa11;
    /// The size of a record.
    pub(crate) const SIZE: usize = std::mem::size_of::<Record>();

    /// The record in `bytes` (exactly [`Record::SIZE`] of them).
    pub(crate) fn read(bytes: &[u8; Record::SIZE]) -> Record {
        // SAFETY: `Record` is plain data of this size, read unaligned.
        unsafe { std::ptr::read_unaligned(bytes.as_ptr().cast::<Record>()) }
    }
}

fn check(result: libc::c_long) -> io::Result<libc::c_long> {
    if result < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(result)
    }
}

/// Sets `resource` to `value` (soft and hard); where the hard limit is lower and cannot be
/// raised, both to the hard limit.
pub(crate) fn limit(resource: libc::__rlimit_resource_t, value: u64) -> io::Result<()> {
    let wanted = libc::rlimit {
        rlim_cur: value,
        rlim_max: value,
    };
    // SAFETY: a plain system call on a stack value.
    if unsafe { libc::setrlimit(resource, &wanted) } == 0 {
        return Ok(());
    }
    let mut current = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: as above.
    check(unsafe { libc::getrlimit(resource, &mut current) }.into())?;
    let lowered = libc::rlimit {
        rlim_cur: value.min(current.rlim_max),
        rlim_max: value.min(current.rlim_max),
    };
    // SAFETY: as above.
    check(unsafe { libc::setrlimit(resource, &lowered) }.into()).map(drop)
}

impl Steps {
    /// Takes every step up to [`last`](Self::last). Called in the keeper (the keeper program,
    /// or a fork of the auditing process between `fork` and `exec`): system calls only. Returns in the program's process only (or in the keeper
    /// itself, when the probe stops before [`Step::Processes`]).
    pub(crate) fn take(&self) -> io::Result<()> {
        // SAFETY (this block and the steps'): system calls on descriptors and buffers prepared
        // by the parent, which outlive the spawn.
        unsafe {
            default_signals();
            for &(resource, value) in &self.limits {
                limit(resource, value)?;
            }
            if self.last == Step::Limits {
                return Ok(());
            }
            check(libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0).into())?;
            if libc::getppid() != self.auditor {
                // The auditing thread is already gone.
                libc::_exit(1);
            }
            if self.as_nobody {
                check(libc::setgroups(0, std::ptr::null()).into())?;
                check(libc::setresgid(crate::NOBODY, crate::NOBODY, crate::NOBODY).into())?;
                check(libc::setresuid(crate::NOBODY, crate::NOBODY, crate::NOBODY).into())?;
            }
            if self.last == Step::Identity {
                return Ok(());
            }
            self.namespaces()?;
            if self.last == Step::Namespaces {
                return Ok(());
            }
            self.scratch()?;
            self.keep()?;
            // The program's process from here on.
            check(libc::setsid().into())?;
            check(libc::chdir(self.scratch.as_ptr()).into())?;
            check(libc::syscall(
                libc::SYS_close_range,
                3u32,
                u32::MAX,
                libc::CLOSE_RANGE_CLOEXEC,
            ))?;
            if self.last == Step::Processes {
                return Ok(());
            }
            self.landlock()?;
            if self.last == Step::Landlock {
                return Ok(());
            }
            self.filters()
        }
    }

    /// New user, mount, IPC and PID namespaces, the run's ids mapped, and the process limit.
    ///
    /// # Safety
    /// In the keeper between `fork` and `exec`, as [`take`](Self::take).
    unsafe fn namespaces(&self) -> io::Result<()> {
        check(
            libc::unshare(
                libc::CLONE_NEWUSER | libc::CLONE_NEWNS | libc::CLONE_NEWIPC | libc::CLONE_NEWPID,
            )
            .into(),
        )?;
        // A process that changed its uid is not dumpable, and may not open its own
        // `/proc/self` files; it has done so on purpose.
        check(libc::prctl(libc::PR_SET_DUMPABLE, 1, 0, 0, 0).into())?;
        write_file(b"/proc/self/setgroups\0", b"deny")?;
        write_file(b"/proc/self/uid_map\0", self.uid_map.as_bytes())?;
        write_file(b"/proc/self/gid_map\0", self.gid_map.as_bytes())?;
        limit(libc::RLIMIT_NPROC, self.processes)
    }

    /// The mounts made private and the scratch's tmpfs mounted; a descriptor of it sent back
    /// when asked.
    ///
    /// # Safety
    /// In the keeper between `fork` and `exec`, as [`take`](Self::take).
    unsafe fn scratch(&self) -> io::Result<()> {
        let root = b"/\0";
        check(
            libc::mount(
                std::ptr::null(),
                root.as_ptr().cast(),
                std::ptr::null(),
                libc::MS_REC | libc::MS_PRIVATE,
                std::ptr::null(),
            )
            .into(),
        )?;
        let tmpfs = b"tmpfs\0";
        check(
            libc::mount(
                tmpfs.as_ptr().cast(),
                self.scratch.as_ptr(),
                tmpfs.as_ptr().cast(),
                libc::MS_NOSUID | libc::MS_NODEV,
                self.scratch_options.as_ptr().cast(),
            )
            .into(),
        )?;
        if self.send_scratch {
            let fd = check(
                libc::open(
                    self.scratch.as_ptr(),
                    libc::O_PATH | libc::O_DIRECTORY | libc::O_CLOEXEC,
                )
                .into(),
            )? as RawFd;
            let sent = send_descriptor(self.channel, fd);
            libc::close(fd);
            sent?;
        }
        Ok(())
    }

    /// Forks the init, which forks the program; returns in the program's process only. The
    /// keeper and the init never return: each waits for what it waits for, then exits.
    ///
    /// # Safety
    /// In the keeper between `fork` and `exec`, as [`take`](Self::take).
    unsafe fn keep(&self) -> io::Result<()> {
        let mut life = [0 as RawFd; 2];
        check(libc::pipe2(life.as_mut_ptr(), libc::O_CLOEXEC).into())?;
        let init = check(libc::fork().into())? as libc::pid_t;
        if init > 0 {
            libc::close(life[0]);
            let record = Record {
                tag: Record::INIT,
                value: init,
                ..Record::default()
            };
            write_record(self.report, &record);
            close_all_but(life[1]);
            libc::_exit(wait_for(init));
        }
        // The init: killed with the keeper, and gone at once if the keeper already is.
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
        libc::close(life[1]);
        let mut alive = libc::pollfd {
            fd: life[0],
            events: libc::POLLIN,
            revents: 0,
        };
        if libc::poll(&mut alive, 1, 0) != 0 {
            libc::_exit(1);
        }
        libc::close(life[0]);
        let program = check(libc::fork().into())? as libc::pid_t;
        if program > 0 {
            close_all_but(self.report);
            let (status, cpu_micros, peak_kib) = reap(program);
            let record = Record {
                tag: Record::END,
                value: status,
                cpu_micros,
                peak_kib,
                spare: 0,
            };
            write_record(self.report, &record);
            libc::_exit(exit_code(status));
        }
        Ok(())
    }

    /// The Landlock ruleset, with the scratch's rights added, enforced (after `no_new_privs`).
    ///
    /// # Safety
    /// In the program's process between `fork` and `exec`, as [`take`](Self::take).
    unsafe fn landlock(&self) -> io::Result<()> {
        let scratch = check(
            libc::open(
                self.scratch.as_ptr(),
                libc::O_PATH | libc::O_CLOEXEC | libc::O_DIRECTORY,
            )
            .into(),
        )? as RawFd;
        let rule = PathBeneath {
            allowed_access: self.scratch_rights,
            parent_fd: scratch,
        };
        check(libc::syscall(
            libc::SYS_landlock_add_rule,
            self.ruleset,
            RULE_PATH_BENEATH,
            &rule as *const PathBeneath,
            0,
        ))?;
        libc::close(scratch);
        check(libc::prctl(libc::PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0).into())?;
        check(libc::syscall(
            libc::SYS_landlock_restrict_self,
            self.ruleset,
            0,
        ))
        .map(drop)
    }

    /// The seccomp filter, whose listener is sent to the parent over the channel.
    ///
    /// # Safety
    /// In the program's process between `fork` and `exec`, as [`take`](Self::take).
    unsafe fn filters(&self) -> io::Result<()> {
        let listener = install(self.filter, libc::SECCOMP_FILTER_FLAG_NEW_LISTENER)? as RawFd;
        let sent = send_descriptor(self.channel, listener);
        libc::close(listener);
        sent
    }
}

/// Every signal's action back to its default and none blocked, so that the init, the first
/// process of its namespace, ignores every signal its own namespace sends it (the kernel
/// delivers only those it has a handler for), and the program starts as a program does.
///
/// # Safety
/// Between `fork` and `exec`: system calls only.
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

/// Waits for child `pid`: the exit code to end with (its own, or 128 and its signal).
///
/// # Safety
/// System calls only.
unsafe fn wait_for(pid: libc::pid_t) -> i32 {
    let mut status = 0;
    loop {
        let reaped = libc::waitpid(pid, &mut status, libc::__WALL);
        if reaped == pid {
            return exit_code(status);
        }
        if *libc::__errno_location() != libc::EINTR {
            return 127;
        }
    }
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
    let mut micros = 0u64;
    let mut peak = 0u64;
    loop {
        let mut status = 0;
        let mut usage: libc::rusage = std::mem::zeroed();
        let reaped = libc::wait4(-1, &mut status, libc::__WALL, &mut usage);
        if reaped < 0 {
            if *libc::__errno_location() == libc::EINTR {
                continue;
            }
            // No child left.
            break;
        }
        let time = |t: libc::timeval| t.tv_sec as u64 * 1_000_000 + t.tv_usec as u64;
        micros += time(usage.ru_utime) + time(usage.ru_stime);
        peak = peak.max(usage.ru_maxrss.max(0) as u64);
        if reaped == program {
            program_status = status;
            libc::kill(-1, libc::SIGKILL);
        }
    }
    (program_status, micros, peak)
}

/// Writes `record` to `fd` in one write (a failure means the auditing process is gone).
///
/// # Safety
/// A system call on a value on the stack.
unsafe fn write_record(fd: RawFd, record: &Record) {
    libc::write(fd, (record as *const Record).cast(), Record::SIZE);
}

/// [`write_record`], for a process that may allocate.
pub(crate) fn write_record_to(fd: RawFd, record: &Record) {
    // SAFETY: as `write_record`.
    unsafe { write_record(fd, record) }
}

/// Writes `bytes` to the file `path` (NUL-terminated), as one write.
///
/// # Safety
/// System calls on buffers the caller owns.
unsafe fn write_file(path: &[u8], bytes: &[u8]) -> io::Result<()> {
    let fd =
        check(libc::open(path.as_ptr().cast(), libc::O_WRONLY | libc::O_CLOEXEC).into())? as RawFd;
    let written = libc::write(fd, bytes.as_ptr().cast(), bytes.len());
    libc::close(fd);
    check(written as libc::c_long).map(drop)
}

/// Installs a filter: its listener's descriptor with `SECCOMP_FILTER_FLAG_NEW_LISTENER`.
///
/// # Safety
/// A system call on `program`, which lives as long as the call.
unsafe fn install(program: &[libc::sock_filter], flags: libc::c_ulong) -> io::Result<libc::c_long> {
    let fprog = libc::sock_fprog {
        len: program.len() as libc::c_ushort,
        filter: program.as_ptr().cast_mut(),
    };
    check(libc::syscall(
        libc::SYS_seccomp,
        libc::SECCOMP_SET_MODE_FILTER,
        flags,
        &fprog as *const libc::sock_fprog,
    ))
}

/// Room for one descriptor's control message, aligned as `cmsghdr` wants.
#[repr(C, align(8))]
struct Control([u8; 32]);

/// Sends descriptor `fd` over the UNIX socket `socket` (one byte of data with it).
///
/// # Safety
/// System calls on descriptors the caller owns, with buffers on the stack.
unsafe fn send_descriptor(socket: RawFd, fd: RawFd) -> io::Result<()> {
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
    check(libc::sendmsg(socket, &message, 0) as libc::c_long).map(drop)
}

/// Receives the descriptor [`send_descriptor`] sent on `socket`, if one is waiting.
pub(crate) fn receive_descriptor(socket: RawFd) -> io::Result<Option<std::os::fd::OwnedFd>> {
    use std::os::fd::FromRawFd;
    let mut control = Control([0; 32]);
    let mut byte = [0u8; 1];
    let mut iov = libc::iovec {
        iov_base: byte.as_mut_ptr().cast(),
        iov_len: 1,
    };
    // SAFETY: a message header over buffers on the stack, read back within their lifetime.
    unsafe {
        let mut message: libc::msghdr = std::mem::zeroed();
        message.msg_iov = &mut iov;
        message.msg_iovlen = 1;
        message.msg_control = control.0.as_mut_ptr().cast();
        message.msg_controllen = control.0.len() as _;
        let received = libc::recvmsg(
            socket,
            &mut message,
            libc::MSG_DONTWAIT | libc::MSG_CMSG_CLOEXEC,
        );
        if received < 0 {
            let e = io::Error::last_os_error();
            return if e.kind() == io::ErrorKind::WouldBlock {
                Ok(None)
            } else {
                Err(e)
            };
        }
        let header = libc::CMSG_FIRSTHDR(&message);
        if header.is_null()
            || (*header).cmsg_level != libc::SOL_SOCKET
            || (*header).cmsg_type != libc::SCM_RIGHTS
        {
            return Ok(None);
        }
        let fd = std::ptr::read_unaligned(libc::CMSG_DATA(header).cast::<RawFd>());
        Ok(Some(std::os::fd::OwnedFd::from_raw_fd(fd)))
    }
}
