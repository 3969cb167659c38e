//! The keeper as a program of its own, `referee-keeper`, installed beside the auditing
//! program: what the auditing process hands it, and its `main`.
//!
//! The auditing process has many threads and a large memory; a `fork` of it copies its page
//! tables and write-protects all its memory, so that each of its threads then pays a fault, a
//! copy and a TLB flush on every other CPU for each page it writes while the run's processes
//! hold the copy: for the whole run. Spawned as a program of its own (`posix_spawn`, which
//! shares the auditing process's memory until the `exec`), the keeper starts from an image of
//! a few pages and forks the init and the program from that. It takes the same steps
//! (`child::Steps`) as a forked keeper does.
//!
//! The hand-off: the keeper's standard input is its end of the run's descriptor channel, on
//! which one datagram waits for it: the steps, encoded as below, with three descriptors (the
//! program's standard input, the Landlock ruleset, the write end of the report pipe). Its
//! arguments are `--` and the program's; its environment is the program's. A step that fails,
//! or the program's `exec`, writes a failure record (`Record::FAILED`) with the error's number
//! on the report pipe, and that process exits with 127.
//!
//! The encoding: unsigned integers as 8 bytes, little-endian; a byte string as its length then
//! its bytes; a list as its length then its items.

use std::convert::Infallible;
use std::ffi::{CString, OsString};
use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;

use crate::child::{Record, Step, Steps};

/// The keeper program's file name, looked for beside the auditing program's.
pub const KEEPER: &str = "referee-keeper";

/// The keeper program beside the running program's file, if there is one.
pub(crate) fn beside_this_program() -> Option<PathBuf> {
    let this = std::env::current_exe().ok()?;
    let keeper = this.parent()?.join(KEEPER);
    keeper.is_file().then_some(keeper)
}

/// The largest hand-off a keeper takes (a filter of the kernel's 4,096 instructions is
/// 32 KiB).
const LARGEST: usize = 256 << 10;

/// The descriptors a hand-off carries, in order.
const CARRIED: usize = 3;

/// The bytes of `steps` (whose descriptors go beside them, in the control message).
pub(crate) fn encode(steps: &Steps) -> Vec<u8> {
    let mut out = Vec::with_capacity(1024 + steps.filter.len() * 8);
    let number = |out: &mut Vec<u8>, n: u64| out.extend_from_slice(&n.to_le_bytes());
    let string = |out: &mut Vec<u8>, bytes: &[u8]| {
        number(out, bytes.len() as u64);
        out.extend_from_slice(bytes);
    };
    number(&mut out, steps.limits.len() as u64);
    for &(resource, value) in &steps.limits {
        number(&mut out, u64::from(resource));
        number(&mut out, value);
    }
    number(&mut out, steps.auditor as u64);
    number(&mut out, u64::from(steps.as_nobody));
    number(&mut out, steps.processes);
    string(&mut out, steps.uid_map.as_bytes());
    string(&mut out, steps.gid_map.as_bytes());
    string(&mut out, steps.scratch.as_bytes());
    string(&mut out, steps.scratch_options.as_bytes());
    number(&mut out, u64::from(steps.send_scratch));
    number(&mut out, steps.scratch_rights);
    number(&mut out, steps.filter.len() as u64);
    for instruction in steps.filter {
        let packed = u64::from(instruction.code)
            | u64::from(instruction.jt) << 16
            | u64::from(instruction.jf) << 24
            | u64::from(instruction.k) << 32;
        number(&mut out, packed);
    }
    number(&mut out, steps.last as u64);
    out
}

/// Reads an encoding back.
struct Decoder<'a> {
    bytes: &'a [u8],
}

impl<'a> Decoder<'a> {
    fn malformed() -> io::Error {
        io::Error::new(io::ErrorKind::InvalidData, "a malformed hand-off")
    }

    fn number(&mut self) -> io::Result<u64> {
        let (head, rest) = self
            .bytes
            .split_first_chunk::<8>()
            .ok_or_else(Self::malformed)?;
        self.bytes = rest;
        Ok(u64::from_le_bytes(*head))
    }

    fn small(&mut self) -> io::Result<u32> {
        u32::try_from(self.number()?).map_err(|_| Self::malformed())
    }

    fn string(&mut self) -> io::Result<CString> {
        let length = usize::try_from(self.number()?).map_err(|_| Self::malformed())?;
        if length > self.bytes.len() {
            return Err(Self::malformed());
        }
        let (head, rest) = self.bytes.split_at(length);
        self.bytes = rest;
        CString::new(head).map_err(|_| Self::malformed())
    }

    fn flag(&mut self) -> io::Result<bool> {
        match self.number()? {
            0 => Ok(false),
            1 => Ok(true),
            _ => Err(Self::malformed()),
        }
    }
}

/// The steps of `bytes`, taken with descriptors `channel`, `ruleset` and `report`. The filter
/// lives as long as the keeper.
fn decode(bytes: &[u8], channel: RawFd, ruleset: RawFd, report: RawFd) -> io::Result<Steps> {
    let mut d = Decoder { bytes };
    let count = d.number()?;
    if count > 64 {
        return Err(Decoder::malformed());
    }
    let mut limits = Vec::new();
    for _ in 0..count {
        limits.push((d.small()?, d.number()?));
    }
    let auditor = libc::pid_t::try_from(d.number()?).map_err(|_| Decoder::malformed())?;
    let as_nobody = d.flag()?;
    let processes = d.number()?;
    let uid_map = d.string()?;
    let gid_map = d.string()?;
    let scratch = d.string()?;
    let scratch_options = d.string()?;
    let send_scratch = d.flag()?;
    let scratch_rights = d.number()?;
    let length = d.number()?;
    if length > 4096 {
        return Err(Decoder::malformed());
    }
    let mut filter = Vec::new();
    for _ in 0..length {
        let packed = d.number()?;
        filter.push(libc::sock_filter {
            code: packed as u16,
            jt: (packed >> 16) as u8,
            jf: (packed >> 24) as u8,
            k: (packed >> 32) as u32,
        });
    }
    let last = Step::from_index(d.number()?).ok_or_else(Decoder::malformed)?;
    if !d.bytes.is_empty() {
        return Err(Decoder::malformed());
    }
    Ok(Steps {
        limits,
        auditor,
        as_nobody,
        processes,
        uid_map,
        gid_map,
        scratch,
        scratch_options,
        send_scratch,
        ruleset,
        scratch_rights,
        filter: Vec::leak(filter),
        channel,
        report,
        last,
    })
}

/// The room for the control message of a hand-off: `CMSG_SPACE` of its descriptors, 32 bytes,
/// aligned as `cmsghdr` wants.
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

/// Sends the hand-off `bytes` with `descriptors` on `socket`, in one datagram.
pub(crate) fn send(socket: RawFd, bytes: &[u8], descriptors: [RawFd; CARRIED]) -> io::Result<()> {
    let space = CARRIED * std::mem::size_of::<RawFd>();
    let mut control: Control = [0; 8];
    let mut iov = libc::iovec {
        iov_base: bytes.as_ptr().cast_mut().cast(),
        iov_len: bytes.len(),
    };
    // SAFETY: a message header over buffers that outlive the call; the control message fits
    // (CMSG_SPACE of 12 bytes is 32, the buffer 64).
    unsafe {
        let message = message(
            &mut iov,
            &mut control,
            libc::CMSG_SPACE(space as u32) as usize,
        );
        let header = libc::CMSG_FIRSTHDR(&message);
        (*header).cmsg_level = libc::SOL_SOCKET;
        (*header).cmsg_type = libc::SCM_RIGHTS;
        (*header).cmsg_len = libc::CMSG_LEN(space as u32) as _;
        std::ptr::copy_nonoverlapping(
            descriptors.as_ptr(),
            libc::CMSG_DATA(header).cast::<RawFd>(),
            CARRIED,
        );
        if libc::sendmsg(socket, &message, 0) < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Receives the hand-off on `socket`, waiting for it: its bytes and descriptors.
fn receive(socket: RawFd) -> io::Result<(Vec<u8>, [OwnedFd; CARRIED])> {
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
        let header = libc::CMSG_FIRSTHDR(&message);
        let space = CARRIED * std::mem::size_of::<RawFd>();
        if message.msg_flags & (libc::MSG_TRUNC | libc::MSG_CTRUNC) != 0
            || header.is_null()
            || (*header).cmsg_level != libc::SOL_SOCKET
            || (*header).cmsg_type != libc::SCM_RIGHTS
            || (*header).cmsg_len as usize != libc::CMSG_LEN(space as u32) as usize
        {
            return Err(Decoder::malformed());
        }
        let mut fds = [0 as RawFd; CARRIED];
        std::ptr::copy_nonoverlapping(
            libc::CMSG_DATA(header).cast::<RawFd>(),
            fds.as_mut_ptr(),
            CARRIED,
        );
        bytes.truncate(received);
        Ok((bytes, fds.map(|fd| OwnedFd::from_raw_fd(fd))))
    }
}

/// The keeper program: takes the hand-off on its standard input, then the steps, then `exec`s
/// the program of its arguments (after `--`). Never returns.
pub fn main() -> ! {
    // A failure before the report pipe is known cannot be told: the auditing process sees the
    // keeper end before the program started.
    let _ = keep();
    // SAFETY: a plain system call.
    unsafe { libc::_exit(127) }
}

fn keep() -> io::Result<Infallible> {
    let args: Vec<OsString> = std::env::args_os().skip(1).collect();
    let [dash, program, rest @ ..] = args.as_slice() else {
        return Err(io::Error::other(
            "usage: referee-keeper -- PROGRAM [ARGUMENT]...",
        ));
    };
    if dash != "--" {
        return Err(io::Error::other(
            "usage: referee-keeper -- PROGRAM [ARGUMENT]...",
        ));
    }
    let (bytes, [stdin, ruleset, report]) = receive(0)?;
    // The channel moves off standard input, which becomes the program's.
    // SAFETY: plain system calls on descriptors this process owns.
    let channel = unsafe {
        let channel = libc::fcntl(0, libc::F_DUPFD_CLOEXEC, 3);
        if channel < 0 || libc::dup2(stdin.as_raw_fd(), 0) < 0 {
            return Err(io::Error::last_os_error());
        }
        OwnedFd::from_raw_fd(channel)
    };
    drop(stdin);
    let steps = decode(
        &bytes,
        channel.as_raw_fd(),
        ruleset.as_raw_fd(),
        report.as_raw_fd(),
    )?;
    drop(bytes);
    let error = match steps.take() {
        Ok(()) => std::process::Command::new(program).args(rest).exec(),
        Err(e) => e,
    };
    failed(report.as_raw_fd(), &error)
}

/// Tells the auditing process on `report` that `error` stopped this process, and exits.
fn failed(report: RawFd, error: &io::Error) -> ! {
    let record = Record {
        tag: Record::FAILED,
        value: error.raw_os_error().unwrap_or(libc::EIO),
        ..Record::default()
    };
    crate::child::write_record_to(report, &record);
    // SAFETY: a plain system call.
    unsafe { libc::_exit(127) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn steps_come_back_as_they_were_encoded() {
        let filter: &'static [libc::sock_filter] = Vec::leak(vec![
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
            libc::sock_filter {
                code: 0x06,
                jt: 0,
                jf: 0,
                k: 0x7fff_0000,
            },
        ]);
        let steps = Steps {
            limits: vec![(libc::RLIMIT_CORE, 0), (libc::RLIMIT_STACK, u64::MAX)],
            auditor: 4242,
            as_nobody: true,
            processes: 64,
            uid_map: CString::new("65534 65534 1").unwrap(),
            gid_map: CString::new("1000 1000 1").unwrap(),
            scratch: CString::new("/tmp/referee-runs-x/scratch").unwrap(),
            scratch_options: CString::new("size=4096,mode=0700").unwrap(),
            send_scratch: false,
            ruleset: 7,
            scratch_rights: 0x7fff,
            filter,
            channel: 8,
            report: 9,
            last: Step::Landlock,
        };
        let bytes = encode(&steps);
        let back = decode(&bytes, 8, 7, 9).unwrap();
        assert_eq!(back.limits, steps.limits);
        assert_eq!(
            (back.auditor, back.as_nobody, back.processes),
            (4242, true, 64)
        );
        assert_eq!(
            [
                &back.uid_map,
                &back.gid_map,
                &back.scratch,
                &back.scratch_options
            ],
            [
                &steps.uid_map,
                &steps.gid_map,
                &steps.scratch,
                &steps.scratch_options
            ]
        );
        assert_eq!(
            (back.send_scratch, back.scratch_rights, back.last),
            (false, 0x7fff, Step::Landlock)
        );
        let fields = |f: &[libc::sock_filter]| -> Vec<(u16, u8, u8, u32)> {
            f.iter().map(|i| (i.code, i.jt, i.jf, i.k)).collect()
        };
        assert_eq!(fields(back.filter), fields(filter));
        // Every shorter prefix, and one byte more, is refused.
        for cut in 0..bytes.len() {
            assert!(decode(&bytes[..cut], 8, 7, 9).is_err(), "cut at {cut}");
        }
        let mut longer = bytes.clone();
        longer.push(0);
        assert!(decode(&longer, 8, 7, 9).is_err());
    }
}
