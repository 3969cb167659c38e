//! The keeper program, `referee-keeper`: a small process, installed beside the auditing
//! program, that starts the runs of a sandbox (of a cgroup v1 slot, one keeper per slot) from
//! its own small image. Started once, it lives as long as the sandbox.
//!
//! The auditing process has many threads and a large memory; a `fork` of it copies its page
//! tables and write-protects all its memory, so that each of its threads then pays a fault, a
//! copy and a TLB flush on every other CPU for each page it writes while the copy lives, and
//! an `exec` of a program per run costs a millisecond here. The keeper is `exec`ed once; each
//! run's init is a copy of its few pages (`start.rs`).
//!
//! The protocol: the keeper's standard input is a sequenced-packet socket. Each request is one
//! packet: a run's steps, encoded as below, with five or six descriptors (the program's
//! standard input, output and error, the report pipe's write end, the run's end of its
//! channel, and the run's cgroup v2 directory when it has one). The reply goes on the run's
//! channel: one datagram of 24 bytes (the init's process id or -1, the error's number, the
//! failed step's index, the keeper's CPU time for the run in nanoseconds, each
//! little-endian: 4, 4, 8, 8 bytes), with a process descriptor of the init when it started.
//! The end of the socket ends the keeper. The keeper asks to be killed when the thread that
//! started it ends (so that it, and every run it started, ends with the auditing process).
//! Started, it checks that it is of the same build as the library that started it (the
//! encoding is the build's) and says so with one packet: `R`, ready, or `B`, another build.
//!
//! The encoding: unsigned integers as 8 bytes, little-endian; a byte string as its length then
//! its bytes; a list as its length then its items.

use std::borrow::Cow;
use std::ffi::CString;
use std::io;
use std::os::fd::{AsFd, AsRawFd, BorrowedFd, FromRawFd, OwnedFd, RawFd};
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::child::{Op, Rules, Step, Steps};
use crate::start::{self, RunEnds, StartError, Started};

/// The keeper program's file name, looked for beside the auditing program's.
pub const KEEPER: &str = "referee-keeper";

/// The keeper program beside the running program's file (or, for a test binary in
/// `target/*/deps`, in the directory above), if there is one.
pub(crate) fn beside_this_program() -> Option<PathBuf> {
    let this = std::env::current_exe().ok()?;
    let dir = this.parent()?;
    [dir.join(KEEPER), dir.parent()?.join(KEEPER)]
        .into_iter()
        .find(|keeper| keeper.is_file())
}

/// The largest request a keeper takes.
const LARGEST: usize = 256 << 10;

/// The most descriptors a request carries.
const CARRIED: usize = 6;

/// The size of a reply.
const REPLY: usize = 24;

/// This build of the crate (see its build script).
const BUILD: &str = env!("REFEREE_SANDBOX_BUILD");

/// How long a keeper program may take to say it is ready.
const READY_WITHIN: Duration = Duration::from_secs(10);

/// Writes encodings.
#[derive(Default)]
struct Encoder(Vec<u8>);

impl Encoder {
    fn number(&mut self, n: u64) {
        self.0.extend_from_slice(&n.to_le_bytes());
    }

    fn string(&mut self, bytes: &[u8]) {
        self.number(bytes.len() as u64);
        self.0.extend_from_slice(bytes);
    }

    fn strings(&mut self, strings: &[CString]) {
        self.number(strings.len() as u64);
        for s in strings {
            self.string(s.as_bytes());
        }
    }
}

/// The bytes of `steps`.
pub(crate) fn encode(steps: &Steps) -> Vec<u8> {
    let mut e = Encoder(Vec::with_capacity(4096 + steps.filter.len() * 8));
    e.number(u64::from(steps.as_root));
    e.number(steps.limits.len() as u64);
    for &(resource, value) in &steps.limits {
        e.number(u64::from(resource));
        e.number(value);
    }
    e.number(steps.processes);
    e.string(steps.root.as_bytes());
    e.string(steps.root_options.as_bytes());
    e.number(steps.ops.len() as u64);
    for op in &steps.ops {
        match op {
            Op::Dir(path) => {
                e.number(0);
                e.string(path.as_bytes());
            }
            Op::File(path) => {
                e.number(1);
                e.string(path.as_bytes());
            }
            Op::Link(target, path) => {
                e.number(2);
                e.string(target.as_bytes());
                e.string(path.as_bytes());
            }
            Op::Bind {
                source,
                target,
                device,
            } => {
                e.number(3);
                e.string(source.as_bytes());
                e.string(target.as_bytes());
                e.number(u64::from(*device));
            }
            Op::Proc(path) => {
                e.number(4);
                e.string(path.as_bytes());
            }
        }
    }
    e.string(steps.scratch.as_bytes());
    e.string(steps.scratch_at.as_bytes());
    e.string(steps.scratch_options.as_bytes());
    e.number(u64::from(steps.send_scratch));
    match &steps.rules {
        None => e.number(0),
        Some(rules) => {
            e.number(1);
            e.number(rules.handled_fs);
            e.number(rules.handled_net);
            e.number(rules.scoped);
            e.number(rules.paths.len() as u64);
            for (path, rights) in &rules.paths {
                e.string(path.as_bytes());
                e.number(*rights);
            }
            e.number(rules.scratch);
            e.number(rules.proc);
            e.number(rules.root);
        }
    }
    e.number(steps.filter.len() as u64);
    for instruction in steps.filter.iter() {
        e.number(
            u64::from(instruction.code)
                | u64::from(instruction.jt) << 16
                | u64::from(instruction.jf) << 24
                | u64::from(instruction.k) << 32,
        );
    }
    e.string(steps.program.as_bytes());
    e.strings(&steps.argv);
    e.strings(&steps.env);
    e.0
}

/// Reads an encoding back.
struct Decoder<'a> {
    bytes: &'a [u8],
}

fn malformed() -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, "a malformed request")
}

impl Decoder<'_> {
    fn number(&mut self) -> io::Result<u64> {
        let (head, rest) = self.bytes.split_first_chunk::<8>().ok_or_else(malformed)?;
        self.bytes = rest;
        Ok(u64::from_le_bytes(*head))
    }

    /// A count of items, each at least 8 bytes long: no more than the bytes left can hold.
    fn count(&mut self) -> io::Result<usize> {
        let n = usize::try_from(self.number()?).map_err(|_| malformed())?;
        (n <= self.bytes.len() / 8)
            .then_some(n)
            .ok_or_else(malformed)
    }

    fn string(&mut self) -> io::Result<CString> {
        let length = usize::try_from(self.number()?).map_err(|_| malformed())?;
        if length > self.bytes.len() {
            return Err(malformed());
        }
        let (head, rest) = self.bytes.split_at(length);
        self.bytes = rest;
        CString::new(head).map_err(|_| malformed())
    }

    fn strings(&mut self) -> io::Result<Vec<CString>> {
        (0..self.count()?).map(|_| self.string()).collect()
    }

    fn flag(&mut self) -> io::Result<bool> {
        match self.number()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(malformed()),
        }
    }
}

/// The steps of `bytes`.
pub(crate) fn decode(bytes: &[u8]) -> io::Result<Steps> {
    let mut d = Decoder { bytes };
    let as_root = d.flag()?;
    let mut limits = Vec::new();
    for _ in 0..d.count()? {
        let resource = u32::try_from(d.number()?).map_err(|_| malformed())?;
        limits.push((resource, d.number()?));
    }
    let processes = d.number()?;
    let root = d.string()?;
    let root_options = d.string()?;
    let ops = decode_ops(&mut d)?;
    let scratch = d.string()?;
    let scratch_at = d.string()?;
    let scratch_options = d.string()?;
    let send_scratch = d.flag()?;
    let rules = decode_rules(&mut d)?;
    let mut filter = Vec::new();
    for _ in 0..d.count()? {
        let packed = d.number()?;
        filter.push(libc::sock_filter {
            code: packed as u16,
            jt: (packed >> 16) as u8,
            jf: (packed >> 24) as u8,
            k: (packed >> 32) as u32,
        });
    }
    if filter.len() > 4096 {
        return Err(malformed());
    }
    let program = d.string()?;
    let argv = d.strings()?;
    let env = d.strings()?;
    if !d.bytes.is_empty() || argv.is_empty() {
        return Err(malformed());
    }
    Ok(Steps {
        as_root,
        limits,
        processes,
        root,
        root_options,
        ops,
        scratch,
        scratch_at,
        scratch_options,
        send_scratch,
        rules,
        filter: Cow::Owned(filter),
        program,
        argv,
        env,
    })
}

/// The operations that build a run's root.
fn decode_ops(d: &mut Decoder) -> io::Result<Vec<Op>> {
    let mut ops = Vec::new();
    for _ in 0..d.count()? {
        ops.push(match d.number()? {
            0 => Op::Dir(d.string()?),
            1 => Op::File(d.string()?),
            2 => Op::Link(d.string()?, d.string()?),
            3 => Op::Bind {
                source: d.string()?,
                target: d.string()?,
                device: d.flag()?,
            },
            4 => Op::Proc(d.string()?),
            _ => return Err(malformed()),
        });
    }
    Ok(ops)
}

/// Landlock's rules of a run, if it has them.
fn decode_rules(d: &mut Decoder) -> io::Result<Option<Rules>> {
    if !d.flag()? {
        return Ok(None);
    }
    let (handled_fs, handled_net, scoped) = (d.number()?, d.number()?, d.number()?);
    let mut paths = Vec::new();
    for _ in 0..d.count()? {
        paths.push((d.string()?, d.number()?));
    }
    Ok(Some(Rules {
        handled_fs,
        handled_net,
        scoped,
        paths,
        scratch: d.number()?,
        proc: d.number()?,
        root: d.number()?,
    }))
}

/// Room for the control message of up to [`CARRIED`] descriptors, aligned as `cmsghdr`
/// wants.
type Control = [u64; 8];

/// A message header of one buffer, `iov`, and `control`, of which `room` bytes are used.
fn message(iov: &mut libc::iovec, control: &mut Control, room: usize) -> libc::msghdr {
    // SAFETY: `msghdr` is plain data, zero a valid value of it.
    let mut message: libc::msghdr = unsafe { std::mem::zeroed() };
    message.msg_iov = iov;
    message.msg_iovlen = 1;
    message.msg_control = control.as_mut_ptr().cast();
    message.msg_controllen = room as _;
    message
}

/// Sends `bytes` with `descriptors` (at most [`CARRIED`]) on `socket`, in one message.
fn send(socket: RawFd, bytes: &[u8], descriptors: &[RawFd]) -> io::Result<()> {
    assert!(descriptors.len() <= CARRIED);
    let space = std::mem::size_of_val(descriptors);
    let mut control: Control = [0; 8];
    let mut iov = libc::iovec {
        iov_base: bytes.as_ptr().cast_mut().cast(),
        iov_len: bytes.len(),
    };
    // SAFETY: a message header over buffers that outlive the call; the control message fits
    // (CMSG_SPACE of 24 bytes is 40, the buffer 64).
    unsafe {
        let room = if descriptors.is_empty() {
            0
        } else {
            libc::CMSG_SPACE(space as u32) as usize
        };
        let message = message(&mut iov, &mut control, room);
        if !descriptors.is_empty() {
            let header = libc::CMSG_FIRSTHDR(&message);
            (*header).cmsg_level = libc::SOL_SOCKET;
            (*header).cmsg_type = libc::SCM_RIGHTS;
            (*header).cmsg_len = libc::CMSG_LEN(space as u32) as _;
            std::ptr::copy_nonoverlapping(
                descriptors.as_ptr(),
                libc::CMSG_DATA(header).cast::<RawFd>(),
                descriptors.len(),
            );
        }
        loop {
            if libc::sendmsg(socket, &message, libc::MSG_NOSIGNAL) >= 0 {
                return Ok(());
            }
            let e = io::Error::last_os_error();
            if e.kind() != io::ErrorKind::Interrupted {
                return Err(e);
            }
        }
    }
}

/// Receives a request on `socket`, waiting for it: its bytes and descriptors; `None` at the
/// socket's end.
fn receive_request(socket: RawFd) -> io::Result<Option<(Vec<u8>, Vec<OwnedFd>)>> {
    let mut bytes = vec![0u8; LARGEST];
    let mut control: Control = [0; 8];
    let mut iov = libc::iovec {
        iov_base: bytes.as_mut_ptr().cast(),
        iov_len: bytes.len(),
    };
    let room = std::mem::size_of_val(&control);
    let mut message = message(&mut iov, &mut control, room);
    // SAFETY: a message header over buffers that outlive the call, read back after it.
    unsafe {
        let received = loop {
            let n = libc::recvmsg(socket, &mut message, libc::MSG_CMSG_CLOEXEC);
            if n >= 0 {
                break n as usize;
            }
            let e = io::Error::last_os_error();
            if e.kind() != io::ErrorKind::Interrupted {
                return Err(e);
            }
        };
        let mut fds = Vec::new();
        let header = libc::CMSG_FIRSTHDR(&message);
        if !header.is_null()
            && (*header).cmsg_level == libc::SOL_SOCKET
            && (*header).cmsg_type == libc::SCM_RIGHTS
        {
            let data = (*header).cmsg_len as usize - libc::CMSG_LEN(0) as usize;
            let count = data / std::mem::size_of::<RawFd>();
            let first = libc::CMSG_DATA(header).cast::<RawFd>();
            for i in 0..count {
                fds.push(OwnedFd::from_raw_fd(std::ptr::read_unaligned(first.add(i))));
            }
        }
        if received == 0 && fds.is_empty() {
            return Ok(None);
        }
        if message.msg_flags & (libc::MSG_TRUNC | libc::MSG_CTRUNC) != 0 {
            return Err(malformed());
        }
        bytes.truncate(received);
        Ok(Some((bytes, fds)))
    }
}

/// A reply's bytes.
fn reply(pid: i32, errno: i32, step: Step, setup: Duration) -> [u8; REPLY] {
    let mut out = [0u8; REPLY];
    out[..4].copy_from_slice(&pid.to_le_bytes());
    out[4..8].copy_from_slice(&errno.to_le_bytes());
    out[8..16].copy_from_slice(&(step as u64).to_le_bytes());
    out[16..].copy_from_slice(&(setup.as_nanos() as u64).to_le_bytes());
    out
}

/// A keeper program serving a sandbox, seen from the auditing process.
#[derive(Debug)]
pub(crate) struct Keeper {
    socket: OwnedFd,
    child: std::process::Child,
}

impl Keeper {
    /// Starts the keeper program at `path`, from this thread (which must live as long as the
    /// keeper: the keeper ends with it).
    pub(crate) fn spawn(path: &Path) -> io::Result<Keeper> {
        use rustix::net::{socketpair, AddressFamily, SocketFlags, SocketType};
        let (ours, theirs) = socketpair(
            AddressFamily::UNIX,
            SocketType::SEQPACKET,
            SocketFlags::CLOEXEC,
            None,
        )?;
        let mut child = std::process::Command::new(path)
            .arg("--serve")
            .arg(std::process::id().to_string())
            .arg(BUILD)
            .stdin(std::process::Stdio::from(theirs))
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .env_clear()
            .spawn()
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", path.display())))?;
        let said = said_ready(&ours);
        let mut refused = |why: &str| {
            let _ = child.kill();
            let _ = child.wait();
            io::Error::other(format!("{}: {why}", path.display()))
        };
        match said {
            Ok(b'R') => Ok(Keeper {
                socket: ours,
                child,
            }),
            Ok(b'B') => Err(refused(
                "of another build than this program: build and install them together (cargo \
                 build, cargo install)",
            )),
            Ok(_) => Err(refused("not the keeper program of this sandbox")),
            Err(e) => Err(refused(&e.to_string())),
        }
    }

    /// The keeper's process id.
    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Starts a run taking `steps` with `ends`, in cgroup v2 directory `cgroup` when given;
    /// `channel` is this process's end of the run's channel, on which the reply comes.
    pub(crate) fn start(
        &self,
        steps: &Steps,
        ends: RunEnds,
        cgroup: Option<BorrowedFd>,
        channel: &OwnedFd,
    ) -> Result<Started, StartError> {
        let failed = |step, source| StartError { step, source };
        let mut fds = vec![
            ends.stdin.as_raw_fd(),
            ends.stdout.as_raw_fd(),
            ends.stderr.as_raw_fd(),
            ends.report.as_raw_fd(),
            ends.channel.as_raw_fd(),
        ];
        fds.extend(cgroup.map(|c| c.as_raw_fd()));
        send(self.socket.as_raw_fd(), &encode(steps), &fds)
            .map_err(|e| failed(Step::Namespaces, keeper_error(e)))?;
        // The keeper holds copies now; the run's ends are its.
        drop(ends);
        let mut bytes = [0u8; REPLY];
        let (n, pidfd) = loop {
            match start::receive(channel.as_raw_fd(), &mut bytes)
                .map_err(|e| failed(Step::Namespaces, e))?
            {
                Some(received) => break received,
                None => self
                    .wait(channel.as_fd())
                    .map_err(|e| failed(Step::Namespaces, e))?,
            }
        };
        if n != REPLY {
            return Err(failed(Step::Namespaces, keeper_error(malformed())));
        }
        let pid = i32::from_le_bytes(bytes[..4].try_into().expect("4 bytes"));
        let errno = i32::from_le_bytes(bytes[4..8].try_into().expect("4 bytes"));
        let step = u64::from_le_bytes(bytes[8..16].try_into().expect("8 bytes"));
        let setup =
            Duration::from_nanos(u64::from_le_bytes(bytes[16..].try_into().expect("8 bytes")));
        match pidfd {
            Some(pidfd) if pid > 0 => Ok(Started {
                pid,
                pidfd,
                child: false,
                setup,
            }),
            _ => Err(failed(
                Step::from_index(step).unwrap_or(Step::Namespaces),
                io::Error::from_raw_os_error(errno),
            )),
        }
    }

    /// Waits until `channel` has a message, or the keeper's end (an error).
    fn wait(&self, channel: BorrowedFd) -> io::Result<()> {
        use rustix::event::{poll, PollFd, PollFlags};
        let mut fds = [
            PollFd::new(&channel, PollFlags::IN),
            PollFd::new(&self.socket, PollFlags::empty()),
        ];
        match poll(&mut fds, None) {
            Ok(_) | Err(rustix::io::Errno::INTR) => {}
            Err(e) => return Err(e.into()),
        }
        if fds[0].revents().is_empty() && !fds[1].revents().is_empty() {
            return Err(keeper_error(io::Error::other("it ended")));
        }
        Ok(())
    }
}

/// The first packet a keeper program sends on `socket`, waited for [`READY_WITHIN`].
fn said_ready(socket: &OwnedFd) -> io::Result<u8> {
    use rustix::event::{poll, PollFd, PollFlags, Timespec};
    let deadline = std::time::Instant::now() + READY_WITHIN;
    loop {
        let left = deadline.saturating_duration_since(std::time::Instant::now());
        if left.is_zero() {
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!("no answer within {} s", READY_WITHIN.as_secs()),
            ));
        }
        let mut fds = [PollFd::new(socket, PollFlags::IN)];
        let timeout = Timespec::try_from(left).unwrap_or(Timespec {
            tv_sec: 1,
            tv_nsec: 0,
        });
        match poll(&mut fds, Some(&timeout)) {
            Ok(0) | Err(rustix::io::Errno::INTR) => continue,
            Ok(_) => {}
            Err(e) => return Err(e.into()),
        }
        let mut byte = [0u8; 1];
        return match rustix::io::read(socket, &mut byte) {
            Ok(1) => Ok(byte[0]),
            Ok(_) => Err(io::Error::other("it ended at once")),
            Err(e) => Err(e.into()),
        };
    }
}

/// An error of the keeper program, said as such.
fn keeper_error(e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("the keeper program ({KEEPER}): {e}"))
}

impl Drop for Keeper {
    fn drop(&mut self) {
        // The socket's end ends it.
        let _ = rustix::net::shutdown(&self.socket, rustix::net::Shutdown::Both);
        let _ = self.child.wait();
    }
}

/// The keeper program: with `--serve PID`, serves requests on its standard input (see the
/// module's documentation) for the auditing process `PID`. Never returns.
pub fn main() -> ! {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let code = match args.as_slice() {
        [serve, parent, build] if serve == "--serve" => match parent.parse() {
            Ok(_) if build != BUILD => {
                let _ = rustix::io::write(rustix::stdio::stdin(), b"B");
                3
            }
            Ok(parent) => serve_requests(parent).map_or(1, |()| 0),
            Err(_) => 2,
        },
        _ => {
            eprintln!(
                "{KEEPER}: the process that starts the confined runs of the referee-sandbox crate; \
                 not for running by hand"
            );
            2
        }
    };
    // SAFETY: a plain system call.
    unsafe { libc::_exit(code) }
}

/// Serves requests until the socket's end.
fn serve_requests(parent: i32) -> io::Result<()> {
    // SAFETY: plain system calls.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL, 0, 0, 0);
        if libc::getppid() != parent {
            // The auditing process is already gone.
            return Err(io::Error::other("the auditing process is gone"));
        }
        if libc::geteuid() == 0 && libc::setgroups(0, std::ptr::null()) != 0 {
            return Err(io::Error::last_os_error());
        }
        // The inits are reaped by the kernel; the auditing process waits on their process
        // descriptors.
        libc::signal(libc::SIGCHLD, libc::SIG_IGN);
    }
    // Held for the keeper's life: the inits see its end should it die before they asked for
    // their parent-death signal.
    let (alive, _alive_write) = rustix::pipe::pipe_with(rustix::pipe::PipeFlags::CLOEXEC)?;
    rustix::io::write(rustix::stdio::stdin(), b"R")?;
    while let Some((bytes, fds)) = receive_request(0)? {
        let before = start::thread_cpu();
        let mut fds = fds.into_iter();
        let (Some(stdin), Some(stdout), Some(stderr), Some(report), Some(channel)) =
            (fds.next(), fds.next(), fds.next(), fds.next(), fds.next())
        else {
            continue;
        };
        let cgroup = fds.next();
        let ends = RunEnds {
            stdin,
            stdout,
            stderr,
            report,
            channel,
        };
        let channel = ends.channel.as_raw_fd();
        let started = decode(&bytes)
            .map_err(|source| StartError {
                step: Step::Namespaces,
                source,
            })
            .and_then(|steps| {
                start::start(
                    &steps,
                    &ends,
                    cgroup.as_ref().map(|c| c.as_fd()),
                    alive.as_fd(),
                    |pid, pidfd| {
                        let setup = start::thread_cpu().saturating_sub(before);
                        let answer = reply(pid, 0, Step::Namespaces, setup);
                        send(channel, &answer, &[pidfd.as_raw_fd()])
                    },
                )
            });
        if let Err(e) = started {
            let errno = e.source.raw_os_error().unwrap_or(libc::EIO);
            let _ = send(channel, &reply(-1, errno, e.step, Duration::ZERO), &[]);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(text: &str) -> CString {
        CString::new(text).unwrap()
    }

    #[test]
    fn steps_come_back_as_they_were_encoded() {
        let steps = Steps {
            as_root: true,
            limits: vec![(libc::RLIMIT_CORE, 0), (libc::RLIMIT_STACK, u64::MAX)],
            processes: 64,
            root: c("/tmp/referee-runs-x/root"),
            root_options: c("size=1m"),
            ops: vec![
                Op::Dir(c("/r/usr")),
                Op::File(c("/r/dev/null")),
                Op::Link(c("usr/bin"), c("/r/bin")),
                Op::Bind {
                    source: c("/usr"),
                    target: c("/r/usr"),
                    device: false,
                },
                Op::Proc(c("/r/proc")),
            ],
            scratch: c("/tmp/referee-runs-x/scratch"),
            scratch_at: c("/r/tmp/referee-runs-x/scratch"),
            scratch_options: c("size=4096,mode=0700"),
            send_scratch: false,
            rules: Some(Rules {
                handled_fs: 0x7fff,
                handled_net: 3,
                scoped: 3,
                paths: vec![(c("/usr"), 7), (c("/dev/null"), 6)],
                scratch: 0x7fff,
                proc: 7,
                root: 8,
            }),
            filter: Cow::Owned(vec![
                libc::sock_filter {
                    code: 0x20,
                    jt: 0,
                    jf: 0,
                    k: 4,
                },
                libc::sock_filter {
                    code: 0x15,
                    jt: 3,
                    jf: 250,
                    k: 0xc000_003e,
                },
            ]),
            program: c("/usr/bin/true"),
            argv: vec![c("true"), c("an argument")],
            env: vec![c("PATH=/usr/bin")],
        };
        let bytes = encode(&steps);
        let back = decode(&bytes).unwrap();
        let fields = |f: &[libc::sock_filter]| -> Vec<(u16, u8, u8, u32)> {
            f.iter().map(|i| (i.code, i.jt, i.jf, i.k)).collect()
        };
        assert_eq!(fields(&back.filter), fields(&steps.filter));
        let without_filter = |s: &Steps| Steps {
            filter: Cow::Owned(Vec::new()),
            ..s.clone()
        };
        assert_eq!(without_filter(&back), without_filter(&steps));
        // Every shorter prefix, and one byte more, is refused.
        for cut in 0..bytes.len() {
            assert!(decode(&bytes[..cut]).is_err(), "cut at {cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(decode(&longer).is_err());
        // A count larger than what follows could hold is refused before any allocation.
        let mut huge = bytes.clone();
        huge[8..16].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(decode(&huge).is_err());
    }
}
