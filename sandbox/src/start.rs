//! Starting a confined run: its init made by `clone3` in new user, mount, PID, IPC, network
//! and UTS namespaces (and, where the accounting is cgroup v2's, born in the run's control
//! group), its identity mapped, then let go ([`crate::child`] takes it from there).
//!
//! The starter is the keeper program ([`crate::keeper`]), a small process that starts every
//! run of a sandbox (or of a cgroup v1 slot), or else the auditing process itself: `clone3`
//! here has `fork`'s semantics, so the init is a copy of the starter's image, and a copy of a
//! small program costs far less than a copy of the auditing process.
//!
//! The maps: as a normal user, the user's own uid and gid, mapped to themselves (what an
//! unprivileged process may map); as root, 0 and 65534, each to itself: the init builds the
//! run's root as root of its namespace, then becomes 65534 (nobody).

use std::ffi::CString;
use std::io;
use std::os::fd::{AsRawFd, BorrowedFd, FromRawFd, OwnedFd, RawFd};
use std::time::Duration;

use crate::child::{self, Exec, Step, Steps};

/// The run's ends of its pipes and channel, handed to its init.
#[derive(Debug)]
pub(crate) struct RunEnds {
    /// The program's standard input (a pipe's read end), output and error (write ends).
    pub(crate) stdin: OwnedFd,
    pub(crate) stdout: OwnedFd,
    pub(crate) stderr: OwnedFd,
    /// The report pipe's write end.
    pub(crate) report: OwnedFd,
    /// The run's end of the channel descriptors go back on.
    pub(crate) channel: OwnedFd,
}

/// A run's init, started.
#[derive(Debug)]
pub(crate) struct Started {
    /// Its process id, in the auditing process's PID namespace.
    pub(crate) pid: i32,
    /// A process descriptor of it.
    pub(crate) pidfd: OwnedFd,
    /// Whether it is a child of the auditing process, to be reaped by it.
    pub(crate) child: bool,
    /// The CPU time the starter took for it.
    pub(crate) setup: Duration,
}

/// A failure to start a run: the step and why.
#[derive(Debug)]
pub(crate) struct StartError {
    pub(crate) step: Step,
    pub(crate) source: io::Error,
}

impl From<StartError> for io::Error {
    fn from(e: StartError) -> io::Error {
        io::Error::new(
            e.source.kind(),
            format!("{} failed: {}", e.step.needs(), e.source),
        )
    }
}

/// `struct clone_args` of `clone3`, as far as `cgroup` (Linux 5.7).
#[repr(C)]
#[derive(Default)]
struct CloneArgs {
    flags: u64,
    pidfd: u64,
    child_tid: u64,
    parent_tid: u64,
    exit_signal: u64,
    stack: u64,
    stack_size: u64,
    tls: u64,
    set_tid: u64,
    set_tid_size: u64,
    cgroup: u64,
}

const CLONE_INTO_CGROUP: u64 = 0x2_0000_0000;

/// The namespaces of a run.
const NAMESPACES: libc::c_int = libc::CLONE_NEWUSER
    | libc::CLONE_NEWNS
    | libc::CLONE_NEWPID
    | libc::CLONE_NEWIPC
    | libc::CLONE_NEWNET
    | libc::CLONE_NEWUTS;

/// The CPU time the calling thread has used.
pub fn thread_cpu() -> Duration {
    let now = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(now.tv_sec.max(0) as u64, now.tv_nsec.max(0) as u32)
}

/// Starts the init of a run taking `steps` with `ends`, in control group `cgroup` (a cgroup v2
/// directory) when given. `alive` is the read end of a pipe whose write end this process holds
/// for as long as it starts runs: the init ends at once should the starter be gone before it
/// asked for its parent-death signal. `before_go` runs once the init exists and its identity
/// is mapped, before it goes on.
pub(crate) fn start(
    steps: &Steps,
    ends: &RunEnds,
    cgroup: Option<BorrowedFd>,
    alive: BorrowedFd,
    before_go: impl FnOnce(i32, &OwnedFd) -> io::Result<()>,
) -> Result<(i32, OwnedFd), StartError> {
    let namespaces = |source| StartError {
        step: Step::Namespaces,
        source,
    };
    let exec = Exec::of(steps);
    let (go_read, go_write) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)
        .map_err(|e| namespaces(e.into()))?;
    let fds = [
        ends.stdin.as_raw_fd(),
        ends.stdout.as_raw_fd(),
        ends.stderr.as_raw_fd(),
        ends.report.as_raw_fd(),
        ends.channel.as_raw_fd(),
        go_read.as_raw_fd(),
        alive.as_raw_fd(),
    ];
    let mut pidfd: RawFd = -1;
    let mut args = CloneArgs {
        flags: (NAMESPACES | libc::CLONE_PIDFD) as u64,
        pidfd: &mut pidfd as *mut RawFd as u64,
        exit_signal: libc::SIGCHLD as u64,
        ..CloneArgs::default()
    };
    if let Some(group) = cgroup {
        args.flags |= CLONE_INTO_CGROUP;
        args.cgroup = group.as_raw_fd() as u64;
    }
    // SAFETY: `clone3` without `CLONE_VM` has `fork`'s semantics; the child only makes system
    // calls on its copies of `steps`, `exec` and `fds`, and never returns.
    let pid = unsafe {
        libc::syscall(
            libc::SYS_clone3,
            &args as *const CloneArgs,
            std::mem::size_of::<CloneArgs>(),
        )
    };
    if pid == 0 {
        // SAFETY: in the new process, as above.
        unsafe { child::init(steps, &exec, fds) }
    }
    if pid < 0 {
        return Err(namespaces(io::Error::last_os_error()));
    }
    let pid = pid as i32;
    // SAFETY: the kernel returned a new descriptor, which is this process's own.
    let pidfd = unsafe { OwnedFd::from_raw_fd(pidfd) };
    drop(go_read);
    let kill = |pidfd: &OwnedFd| {
        let _ = rustix::process::pidfd_send_signal(pidfd, rustix::process::Signal::KILL);
    };
    if let Err(e) = map_identity(pid).and_then(|()| before_go(pid, &pidfd)) {
        kill(&pidfd);
        return Err(namespaces(e));
    }
    if let Err(e) = rustix::io::write(&go_write, &[1]) {
        kill(&pidfd);
        return Err(namespaces(e.into()));
    }
    Ok((pid, pidfd))
}

/// Writes the uid and gid maps of the new init `pid` (see the module's documentation), and as
/// root its OOM score adjustment.
fn map_identity(pid: i32) -> io::Result<()> {
    // SAFETY: plain system calls.
    let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
    let write = |file: &str, text: &str| -> io::Result<()> {
        std::fs::write(format!("/proc/{pid}/{file}"), text)
            .map_err(|e| io::Error::new(e.kind(), format!("/proc/{pid}/{file}: {e}")))
    };
    if uid == 0 {
        // The run's processes are the OOM killer's first choice (a cgroup v1 slot's starter
        // shares the slot's memory group with them); raising it needs no privilege, and the
        // run's `/proc` is read-only, so it cannot lower it.
        write("oom_score_adj", "1000")?;
        let map = format!("0 0 1\n{n} {n} 1\n", n = crate::NOBODY);
        write("uid_map", &map)?;
        write("gid_map", &map)
    } else {
        write("setgroups", "deny")?;
        write("uid_map", &format!("{uid} {uid} 1\n"))?;
        write("gid_map", &format!("{gid} {gid} 1\n"))
    }
}

/// Starts a run from this process (the auditing process, without a keeper program): the init
/// is its child.
pub(crate) fn start_here(
    steps: &Steps,
    ends: RunEnds,
    cgroup: Option<BorrowedFd>,
    alive: BorrowedFd,
) -> Result<Started, StartError> {
    let before = thread_cpu();
    let (pid, pidfd) = start(steps, &ends, cgroup, alive, |_, _| Ok(()))?;
    Ok(Started {
        pid,
        pidfd,
        child: true,
        setup: thread_cpu().saturating_sub(before),
    })
}

/// A string for a step, checked for the NUL byte a C string cannot hold.
pub(crate) fn cstring(text: impl Into<Vec<u8>>) -> io::Result<CString> {
    CString::new(text).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("a NUL byte in {:?}", String::from_utf8_lossy(&e.into_vec())),
        )
    })
}

/// Receives a descriptor sent on `socket` with a message of at most `bytes.len()` bytes, if one
/// is waiting: the bytes read, and the descriptor if one came.
pub(crate) fn receive(
    socket: RawFd,
    bytes: &mut [u8],
) -> io::Result<Option<(usize, Option<OwnedFd>)>> {
    #[repr(C, align(8))]
    struct Control([u8; 32]);
    let mut control = Control([0; 32]);
    let mut iov = libc::iovec {
        iov_base: bytes.as_mut_ptr().cast(),
        iov_len: bytes.len(),
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
            return match e.kind() {
                io::ErrorKind::WouldBlock => Ok(None),
                io::ErrorKind::Interrupted => Ok(None),
                _ => Err(e),
            };
        }
        let header = libc::CMSG_FIRSTHDR(&message);
        let fd = if header.is_null()
            || (*header).cmsg_level != libc::SOL_SOCKET
            || (*header).cmsg_type != libc::SCM_RIGHTS
        {
            None
        } else {
            let fd = std::ptr::read_unaligned(libc::CMSG_DATA(header).cast::<RawFd>());
            Some(OwnedFd::from_raw_fd(fd))
        };
        Ok(Some((received as usize, fd)))
    }
}

/// Why a confined run could not be made.
#[derive(Debug)]
pub(crate) enum Failure {
    /// The program is not there to run: no such file, or no such command on the sandbox's
    /// `PATH`.
    Program(io::Error),
    /// A step of the sandbox's failed (the program's `exec` among them).
    Step(StartError),
    /// Something else: the pipes, the groups, the watch.
    Io(io::Error),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Io(e)
    }
}

impl From<StartError> for Failure {
    fn from(e: StartError) -> Failure {
        Failure::Step(e)
    }
}

impl From<Failure> for io::Error {
    fn from(f: Failure) -> io::Error {
        match f {
            Failure::Program(e) | Failure::Io(e) => e,
            Failure::Step(e) => e.into(),
        }
    }
}
