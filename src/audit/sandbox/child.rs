//! What the child of a confined run does between `fork` and `exec`, in order, with nothing but
//! system calls on data prepared before the fork (the parent has other threads, so the child
//! may not allocate nor take a lock), and the descriptor passing it ends with.
//!
//! 1. **Limits** (`setrlimit`): no core dumps, the stack as large as the memory limit, open
//!    files and file sizes bounded.
//! 2. **Identity**: when the audit runs as root, uid and gid [`super::NOBODY`] with no
//!    supplementary groups.
//! 3. **User namespace** of its own, with a mount namespace and an IPC namespace, its uid and
//!    gid mapped to themselves (so that it owns the files of its scratch): the program gets no
//!    capability in any namespace it can reach (its uid is not 0 there, so `exec` clears the
//!    capabilities the new namespace gave), its processes are counted apart from every other
//!    run's, and its mounts are its own.
//! 4. **Processes**: `RLIMIT_NPROC`, counted in that namespace (threads included).
//! 5. **Scratch**: a tmpfs of the output limit's size mounted on the run's empty directory
//!    (a run's), or the directory given (a build's); the working directory.
//! 6. **Landlock**: the scratch's rule added to the ruleset the parent made, `no_new_privs`,
//!    the ruleset enforced.
//! 7. **seccomp**: the quiet filters, then the forbidden one, whose listener goes back to the
//!    parent over a socket ([`send_descriptor`]).
//!
//! A step that fails makes the spawn fail with its error; [`Step`] numbers them so that the
//! sandbox's probe can tell which mechanism is missing.

use std::ffi::CString;
use std::io;
use std::os::fd::RawFd;

use super::seccomp::Filters;

/// The steps, in order; a run takes them up to one ([`Steps::last`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Step {
    /// The resource limits.
    Limits,
    /// Uid and gid 65534 (as root only).
    Identity,
    /// The user, mount and IPC namespaces, and the process limit in them.
    Namespaces,
    /// The scratch mounted, the working directory.
    Scratch,
    /// Landlock.
    Landlock,
    /// The seccomp filters.
    Seccomp,
}

/// Where the run writes.
pub(super) enum Scratch {
    /// A tmpfs mounted on this empty directory, with these mount options (`size=...`).
    Tmpfs(CString, CString),
    /// A directory of the parent's (a build's).
    Directory(CString),
}

/// Everything the child needs, prepared before the fork.
pub(super) struct Steps {
    /// The resource limits set first: `(resource, value)`.
    pub(super) limits: Vec<(libc::__rlimit_resource_t, u64)>,
    /// Drop to uid and gid [`super::NOBODY`].
    pub(super) as_nobody: bool,
    /// `RLIMIT_NPROC`, set in the new user namespace.
    pub(super) processes: u64,
    /// The new user namespace's `uid_map` and `gid_map`: the run's ids mapped to themselves.
    pub(super) uid_map: CString,
    pub(super) gid_map: CString,
    /// Where the run writes.
    pub(super) scratch: Scratch,
    /// The Landlock ruleset (the parent's descriptor).
    pub(super) ruleset: RawFd,
    /// The Landlock rights on the scratch.
    pub(super) scratch_rights: u64,
    /// The filters.
    pub(super) filters: &'static Filters,
    /// The child's end of the socket the listener goes back on.
    pub(super) channel: RawFd,
    /// The last step taken (the probe stops early).
    pub(super) last: Step,
}

/// `LANDLOCK_RULE_PATH_BENEATH`.
const RULE_PATH_BENEATH: libc::c_long = 1;

/// `struct landlock_path_beneath_attr`.
#[repr(C, packed)]
struct PathBeneath {
    allowed_access: u64,
    parent_fd: i32,
}

fn check(result: libc::c_long) -> io::Result<libc::c_long> {
    if result < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(result)
    }
}

pub(super) fn limit(resource: libc::__rlimit_resource_t, value: u64) -> io::Result<()> {
    let wanted = libc::rlimit {
        rlim_cur: value,
        rlim_max: value,
    };
    // SAFETY: a plain system call on a stack value.
    if unsafe { libc::setrlimit(resource, &wanted) } == 0 {
        return Ok(());
    }
    // The hard limit cannot be raised without privilege: keep it, and the soft one below it.
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
    /// Takes every step up to [`last`](Self::last). Called in the child between `fork` and
    /// `exec`: system calls only.
    pub(super) fn take(&self) -> io::Result<()> {
        for &(resource, value) in &self.limits {
            limit(resource, value)?;
        }
        if self.last == Step::Limits {
            return Ok(());
        }
        // SAFETY (this block and the steps'): system calls on descriptors and buffers prepared
        // by the parent, which outlive the spawn.
        unsafe {
            if self.as_nobody {
                check(libc::setgroups(0, std::ptr::null()).into())?;
                check(libc::setresgid(super::NOBODY, super::NOBODY, super::NOBODY).into())?;
                check(libc::setresuid(super::NOBODY, super::NOBODY, super::NOBODY).into())?;
            }
            if self.last == Step::Identity {
                return Ok(());
            }
            self.namespaces()?;
            if self.last == Step::Namespaces {
                return Ok(());
            }
            let directory = self.scratch()?;
            if self.last == Step::Scratch {
                return Ok(());
            }
            self.landlock(directory)?;
            if self.last == Step::Landlock {
                return Ok(());
            }
            self.filters()
        }
    }

    /// New user, mount and IPC namespaces, the user's ids mapped, and the process limit.
    ///
    /// # Safety
    /// In the child between `fork` and `exec`, as [`take`](Self::take).
    unsafe fn namespaces(&self) -> io::Result<()> {
        check(libc::unshare(libc::CLONE_NEWUSER | libc::CLONE_NEWNS | libc::CLONE_NEWIPC).into())?;
        // A process that changed its uid is not dumpable, and may not open its own
        // `/proc/self` files; it has done so on purpose.
        check(libc::prctl(libc::PR_SET_DUMPABLE, 1, 0, 0, 0).into())?;
        write_file(b"/proc/self/setgroups\0", b"deny")?;
        write_file(b"/proc/self/uid_map\0", self.uid_map.as_bytes())?;
        write_file(b"/proc/self/gid_map\0", self.gid_map.as_bytes())?;
        limit(libc::RLIMIT_NPROC, self.processes)
    }

    /// The mounts made private, the scratch directory (a tmpfs mounted there, or the directory
    /// itself) made the working directory; returns its path.
    ///
    /// # Safety
    /// In the child between `fork` and `exec`, as [`take`](Self::take).
    unsafe fn scratch(&self) -> io::Result<*const libc::c_char> {
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
        let directory = match &self.scratch {
            Scratch::Tmpfs(path, options) => {
                let tmpfs = b"tmpfs\0";
                check(
                    libc::mount(
                        tmpfs.as_ptr().cast(),
                        path.as_ptr(),
                        tmpfs.as_ptr().cast(),
                        libc::MS_NOSUID | libc::MS_NODEV,
                        options.as_ptr().cast(),
                    )
                    .into(),
                )?;
                path.as_ptr()
            }
            Scratch::Directory(path) => path.as_ptr(),
        };
        check(libc::chdir(directory).into())?;
        Ok(directory)
    }

    /// The Landlock ruleset, with the scratch `directory`'s rights added, enforced (after
    /// `no_new_privs`).
    ///
    /// # Safety
    /// In the child between `fork` and `exec`, as [`take`](Self::take); `directory` a
    /// NUL-terminated path.
    unsafe fn landlock(&self, directory: *const libc::c_char) -> io::Result<()> {
        let scratch = check(
            libc::open(
                directory,
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

    /// The seccomp filters: the quiet ones, then the forbidden calls' filter, whose listener
    /// is sent to the parent over the channel.
    ///
    /// # Safety
    /// In the child between `fork` and `exec`, as [`take`](Self::take).
    unsafe fn filters(&self) -> io::Result<()> {
        for program in &self.filters.quiet {
            install(program, 0)?;
        }
        let listener = install(
            &self.filters.forbidden,
            libc::SECCOMP_FILTER_FLAG_NEW_LISTENER,
        )? as RawFd;
        let sent = send_descriptor(self.channel, listener);
        libc::close(listener);
        sent
    }
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
pub(super) fn receive_descriptor(socket: RawFd) -> io::Result<Option<std::os::fd::OwnedFd>> {
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
