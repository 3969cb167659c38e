//! The system-call filters of a confined run, and the refusals they report.
//!
//! Three kinds of call are told apart, each by a filter of its own (seccomp keeps, of every
//! filter's answer, the most severe: an error before a notification before an allowed call):
//!
//! - **Forbidden** calls end the run as a crash whose detail names the call (`forbidden:
//!   connect`): what reaches the network (`connect`, `bind`, `listen`, `accept`, `accept4`,
//!   `sendto` to an address, `sendmsg` and `sendmmsg` opening a TCP connection with
//!   `MSG_FASTOPEN`), another process's memory (`ptrace`, `process_vm_readv`,
//!   `process_vm_writev`) and new namespaces (`unshare`, `setns`, `clone` with a namespace
//!   flag). Their filter answers `SECCOMP_RET_USER_NOTIF`: the call waits
//!   while the run's watch reads which one it was from the filter's listener, then ends the
//!   run.
//! - **Refused** calls fail quietly, as on a system without them, and the program goes on:
//!   sockets other than IPv4 and IPv6 stream sockets (`EACCES`: no UNIX socket reaches the
//!   auditor's agents or buses, and the C library's name-service lookups fall back to files; no
//!   datagram leaves; a stream socket may be made, as Java's runtime makes one, but never
//!   connected), the user's keyrings and kernel
//!   interfaces a contest program has no use for (`EPERM`), `clone3` and io_uring (`ENOSYS`:
//!   `clone3` passes its flags in memory a filter cannot read, so the C library falls back to
//!   `clone`, whose flags it can; io_uring does its work without system calls).
//! - Everything else is allowed.
//!
//! Each filter first ends the process on a call of another architecture's numbering (the x32
//! ABI's numbers, and any architecture but this one), so that no call slips past by another
//! number. seccompiler 0.5 compiles the filters; it has no notification action, so the
//! forbidden filter is compiled with `SECCOMP_RET_TRAP` and its trap returns turned into
//! notifications ([`notifying`]).

use std::collections::BTreeMap;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::sync::OnceLock;

use seccompiler::{
    BackendError, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule,
};

/// A compiled filter, as `seccomp(2)` takes it.
pub(super) type Program = Vec<libc::sock_filter>;

/// The filters of every confined run, in the order they are installed: the quiet ones, then
/// the one whose listener reports forbidden calls.
pub(super) struct Filters {
    /// Calls that fail with `EACCES`, `EPERM` or `ENOSYS`.
    pub(super) quiet: Vec<Program>,
    /// Forbidden calls: a notification to the listener.
    pub(super) forbidden: Program,
}

/// The forbidden calls, by name.
const FORBIDDEN: [(i64, &str); 14] = [
    (libc::SYS_connect, "connect"),
    (libc::SYS_bind, "bind"),
    (libc::SYS_listen, "listen"),
    (libc::SYS_accept, "accept"),
    (libc::SYS_accept4, "accept4"),
    (libc::SYS_sendto, "sendto"),
    (libc::SYS_sendmsg, "sendmsg"),
    (libc::SYS_sendmmsg, "sendmmsg"),
    (libc::SYS_ptrace, "ptrace"),
    (libc::SYS_process_vm_readv, "process_vm_readv"),
    (libc::SYS_process_vm_writev, "process_vm_writev"),
    (libc::SYS_unshare, "unshare"),
    (libc::SYS_setns, "setns"),
    (libc::SYS_clone, "clone"),
];

/// The namespace flags of `clone`, each of which makes its call forbidden.
const NAMESPACE_FLAGS: [i32; 8] = [
    libc::CLONE_NEWNS,
    libc::CLONE_NEWUSER,
    libc::CLONE_NEWPID,
    libc::CLONE_NEWNET,
    libc::CLONE_NEWIPC,
    libc::CLONE_NEWUTS,
    libc::CLONE_NEWCGROUP,
    0x80, // CLONE_NEWTIME
];

/// Calls refused with `EPERM`: the user's keyrings, and kernel interfaces that load programs
/// into the kernel, watch other processes or page faults.
const REFUSED_EPERM: [i64; 6] = [
    libc::SYS_keyctl,
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_bpf,
    libc::SYS_perf_event_open,
    libc::SYS_userfaultfd,
];

/// Calls refused with `ENOSYS`.
const REFUSED_ENOSYS: [i64; 4] = [
    libc::SYS_clone3,
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
];

/// A call the sandbox forbade: the run ended on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refusal {
    /// The call's name (`connect`).
    pub call: &'static str,
}

impl Refusal {
    /// The name of call number `number`, when it is one of the forbidden calls.
    fn of(number: i64) -> Option<Refusal> {
        FORBIDDEN
            .iter()
            .find(|(n, _)| *n == number)
            .map(|&(_, call)| Refusal { call })
    }
}

/// The filters, compiled once.
pub(super) fn filters() -> io::Result<&'static Filters> {
    static FILTERS: OnceLock<Result<Filters, BackendError>> = OnceLock::new();
    FILTERS
        .get_or_init(compile)
        .as_ref()
        .map_err(|e| io::Error::other(format!("the seccomp filters do not compile: {e}")))
}

/// The quiet filters (refused calls given an error number) and the forbidden calls' filter.
fn compile() -> Result<Filters, BackendError> {
    let whole = |calls: &[i64]| -> Vec<(i64, Vec<SeccompRule>)> {
        calls.iter().map(|&c| (c, Vec::new())).collect()
    };
    let (eacces, not_stream) = socket_filters()?;
    let eperm = filter(
        whole(&REFUSED_EPERM),
        SeccompAction::Errno(libc::EPERM as u32),
    )?;
    let enosys = filter(
        whole(&REFUSED_ENOSYS),
        SeccompAction::Errno(libc::ENOSYS as u32),
    )?;
    let forbidden = FORBIDDEN
        .iter()
        .map(|&(call, _)| Ok((call, forbidden_when(call)?)))
        .collect::<Result<Vec<_>, BackendError>>()?;
    Ok(Filters {
        quiet: vec![eacces, not_stream, eperm, enosys],
        forbidden: notifying(filter(forbidden, SeccompAction::Trap)?),
    })
}

/// A condition on argument `arg`.
fn condition(
    arg: u8,
    len: SeccompCmpArgLen,
    op: SeccompCmpOp,
    value: u64,
) -> Result<SeccompCondition, BackendError> {
    SeccompCondition::new(arg, len, op, value)
}

/// Sockets but IPv4 and IPv6 stream ones refused with `EACCES`: another family (the first
/// filter), or another type (the second: the low bits of the type; the high ones are
/// SOCK_NONBLOCK and SOCK_CLOEXEC).
fn socket_filters() -> Result<(Program, Program), BackendError> {
    let other_family = SeccompRule::new(vec![
        condition(
            0,
            SeccompCmpArgLen::Dword,
            SeccompCmpOp::Ne,
            libc::AF_INET as u64,
        )?,
        condition(
            0,
            SeccompCmpArgLen::Dword,
            SeccompCmpOp::Ne,
            libc::AF_INET6 as u64,
        )?,
    ])?;
    let other_types = (0..16u64)
        .filter(|&t| t != libc::SOCK_STREAM as u64)
        .map(|t| {
            SeccompRule::new(vec![condition(
                1,
                SeccompCmpArgLen::Dword,
                SeccompCmpOp::MaskedEq(0xf),
                t,
            )?])
        })
        .collect::<Result<Vec<_>, _>>()?;
    let eacces = filter(
        vec![(libc::SYS_socket, vec![other_family])],
        SeccompAction::Errno(libc::EACCES as u32),
    )?;
    let not_stream = filter(
        vec![(libc::SYS_socket, other_types)],
        SeccompAction::Errno(libc::EACCES as u32),
    )?;
    Ok((eacces, not_stream))
}

/// The rules under which the forbidden call `call` ends the run (none: always).
fn forbidden_when(call: i64) -> Result<Vec<SeccompRule>, BackendError> {
    Ok(match call {
        // `sendto` to an address (without one it only writes to a connected socket, and
        // no socket can be connected).
        libc::SYS_sendto => vec![SeccompRule::new(vec![condition(
            4,
            SeccompCmpArgLen::Qword,
            SeccompCmpOp::Ne,
            0,
        )?])?],
        // `sendmsg` and `sendmmsg` opening a connection (TCP Fast Open); others only write
        // to a connected socket (and no socket can be connected), or to one of a pair. The
        // sandbox's own child sends the filter's listener back so.
        libc::SYS_sendmsg | libc::SYS_sendmmsg => {
            let flags = if call == libc::SYS_sendmsg { 2 } else { 3 };
            vec![SeccompRule::new(vec![condition(
                flags,
                SeccompCmpArgLen::Dword,
                SeccompCmpOp::MaskedEq(libc::MSG_FASTOPEN as u64),
                libc::MSG_FASTOPEN as u64,
            )?])?]
        }
        // `clone` making a namespace; threads and processes are the rlimit's.
        libc::SYS_clone => NAMESPACE_FLAGS
            .iter()
            .map(|&flag| {
                SeccompRule::new(vec![condition(
                    0,
                    SeccompCmpArgLen::Dword,
                    SeccompCmpOp::MaskedEq(flag as u64),
                    flag as u64,
                )?])
            })
            .collect::<Result<_, _>>()?,
        _ => Vec::new(),
    })
}

/// One filter: `action` on the calls and conditions of `rules`, every other call allowed,
/// preceded by the architecture check.
fn filter(
    rules: Vec<(i64, Vec<SeccompRule>)>,
    action: SeccompAction,
) -> Result<Program, BackendError> {
    let rules: BTreeMap<i64, Vec<SeccompRule>> = rules.into_iter().collect();
    let arch = std::env::consts::ARCH.try_into()?;
    let compiled: seccompiler::BpfProgram =
        SeccompFilter::new(rules, SeccompAction::Allow, action, arch)
            .and_then(TryInto::try_into)?;
    let mut program = other_numbering();
    program.extend(compiled.into_iter().map(|i| libc::sock_filter {
        code: i.code,
        jt: i.jt,
        jf: i.jf,
        k: i.k,
    }));
    Ok(program)
}

/// The instruction that returns `k`.
const RETURN: u16 = (libc::BPF_RET | libc::BPF_K) as u16;

/// Three instructions that end the process on a call of the x32 ABI's numbering (bit 30 set),
/// which the rules by number would not see; seccompiler's own check of the architecture
/// follows them.
fn other_numbering() -> Program {
    const X32: u32 = 0x4000_0000;
    vec![
        // The call's number (offset 0 of `struct seccomp_data`).
        libc::sock_filter {
            code: (libc::BPF_LD | libc::BPF_W | libc::BPF_ABS) as u16,
            jt: 0,
            jf: 0,
            k: 0,
        },
        libc::sock_filter {
            code: (libc::BPF_JMP | libc::BPF_JGE | libc::BPF_K) as u16,
            jt: 0,
            jf: 1,
            k: X32,
        },
        libc::sock_filter {
            code: RETURN,
            jt: 0,
            jf: 0,
            k: libc::SECCOMP_RET_KILL_PROCESS,
        },
    ]
}

/// `program` with its `SECCOMP_RET_TRAP` returns turned into `SECCOMP_RET_USER_NOTIF`.
fn notifying(mut program: Program) -> Program {
    for instruction in &mut program {
        if instruction.code == RETURN && instruction.k == libc::SECCOMP_RET_TRAP {
            instruction.k = libc::SECCOMP_RET_USER_NOTIF;
        }
    }
    program
}

/// Reads the notification waiting on `listener`: the forbidden call a process of the run
/// made, which waits until the run is ended. `None` when the notification is gone (its
/// process died) or names another call.
pub fn receive(listener: &OwnedFd) -> Option<Refusal> {
    // SAFETY: `seccomp_notif` is plain data; the kernel wants it zeroed, and fills it.
    let mut notification: libc::seccomp_notif = unsafe { std::mem::zeroed() };
    // SAFETY: a valid listener descriptor and a buffer of the size the request names.
    let received = unsafe {
        libc::ioctl(
            listener.as_raw_fd(),
            libc::SECCOMP_IOCTL_NOTIF_RECV,
            &mut notification,
        )
    };
    if received != 0 {
        return None;
    }
    Refusal::of(i64::from(notification.data.nr))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_filters_compile_and_the_forbidden_one_notifies() {
        let filters = filters().unwrap();
        assert_eq!(filters.quiet.len(), 4);
        let returns =
            |p: &Program, k: u32| p.iter().filter(|i| i.code == RETURN && i.k == k).count();
        assert!(returns(&filters.forbidden, libc::SECCOMP_RET_USER_NOTIF) > 0);
        assert_eq!(returns(&filters.forbidden, libc::SECCOMP_RET_TRAP), 0);
        for program in filters.quiet.iter().chain([&filters.forbidden]) {
            let fields = |p: &[libc::sock_filter]| -> Vec<(u16, u8, u8, u32)> {
                p.iter().map(|i| (i.code, i.jt, i.jf, i.k)).collect()
            };
            assert_eq!(
                fields(&program[..3]),
                fields(&other_numbering()),
                "the x32 check comes first"
            );
            assert!(
                program.len() < 4096,
                "seccomp takes at most 4096 instructions"
            );
        }
        assert_eq!(
            Refusal::of(libc::SYS_connect),
            Some(Refusal { call: "connect" })
        );
        assert_eq!(Refusal::of(libc::SYS_read), None);
    }
}
