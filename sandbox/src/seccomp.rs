//! The system-call filters of a confined run, and the notifications they send.
//!
//! Three kinds of call are told apart, each by a part of the one filter a run installs: the
//! quiet parts first, then the notifying one; a part that allows a call hands it to the next
//! part, any other answer is the filter's (so an error comes before a notification before an
//! allowed call, as seccomp ranks the answers of filters installed one by one, at the cost of
//! one filter for the kernel to check and compile):
//!
//! - **Forbidden** calls end the run as a crash whose detail names the call (`forbidden:
//!   connect`): what reaches the network (`connect`, `bind`, `listen`, `accept`, `accept4`,
//!   `sendto` to an address, `sendmsg` and `sendmmsg` opening a TCP connection with
//!   `MSG_FASTOPEN`), another process's memory (`ptrace`, `process_vm_readv`,
//!   `process_vm_writev`), new namespaces (`unshare`, `setns`, `clone` with a namespace flag),
//!   and, where the run's memory is counted from its processes rather than by the kernel's
//!   memory controller ([`Memory::Uncounted`]), the memory no count of them shows
//!   (`memfd_create`, `shmget`, `msgget`, `vmsplice`, `mmap` of huge pages, `fcntl`'s
//!   `F_SETPIPE_SZ`), as DMOJ's judge forbids them; and where a run is held to one process
//!   ([`Processes::One`]), every call that makes another (`fork`, `vfork`, `clone` without
//!   `CLONE_THREAD`: threads are allowed). Their filter answers `SECCOMP_RET_USER_NOTIF`:
//!   the call waits while the run's watch reads which one it was from the filter's listener,
//!   then ends the run.
//! - **Refused** calls fail quietly, as on a system without them, and the program goes on:
//!   sockets other than IPv4 and IPv6 stream sockets, and every socket pair but a UNIX stream
//!   pair (`EACCES`: no UNIX socket with a name or an address exists in a run, so none reaches
//!   the auditor's agents, buses or any socket path, the C library's name-service lookups fall
//!   back to files and no datagram leaves; an IPv4 or IPv6 stream socket may be made, as Java's
//!   runtime makes one, but never connected); a socket's buffers made larger (`setsockopt`'s
//!   `SO_SNDBUF`, `SO_RCVBUF` and their `FORCE` forms: `EPERM`, so a pair's ends queue at most
//!   the system's default, `net.core.wmem_default`, in memory no control group counts); a lower priority
//!   or another scheduling policy (`setpriority`, `sched_setscheduler`, `sched_setattr`,
//!   `sched_setparam`: `EPERM`, so that no thread of a run waits for a CPU by its own choice,
//!   which the wall-clock cap does not count); the user's keyrings and kernel interfaces a
//!   contest program has no use for (`EPERM`); `clone3`, io_uring and `memfd_secret`
//!   (`ENOSYS`: `clone3` passes its flags in memory a filter cannot read, so the C library
//!   falls back to `clone`, whose flags it can; io_uring does its work without system calls).
//! - **Counted** calls notify and go on while the run has made fewer than [`MAX_PAIRS`] of
//!   them, and fail with `EACCES` after: UNIX stream pairs (`socketpair`; Java's runtime makes
//!   one as it starts), so that what their buffers hold outside every count stays below
//!   `MAX_PAIRS` x 2 x `net.core.wmem_default` (some 1.6 MiB at Linux's default).
//! - Everything else is allowed; while the run is watched for the files it opens
//!   ([`Watching::Opens`]), the calls that open a path notify too, and go on once their path
//!   is read.
//!
//! Each part first ends the process on a call of another architecture's numbering (the x32
//! ABI's numbers, and any architecture but this one), so that no call slips past by another
//! number. seccompiler 0.5 compiles the parts; it has no notification action, so the
//! notifying part is compiled with `SECCOMP_RET_TRAP` and its trap returns turned into
//! notifications ([`notifying_filter`]).

use std::collections::BTreeMap;
use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::sync::OnceLock;

use seccompiler::{
    BackendError, SeccompAction, SeccompCmpArgLen, SeccompCmpOp, SeccompCondition, SeccompFilter,
    SeccompRule,
};

/// A compiled filter, as `seccomp(2)` takes it.
pub(crate) type Program = Vec<libc::sock_filter>;

/// The filter of a confined run: its [`Parts`] chained ([`chained`]); its listener receives
/// the notifications.
pub(crate) struct Filters {
    pub(crate) whole: Program,
}

/// The parts of a run's filter, in order: the quiet ones, then the one that notifies.
struct Parts {
    /// Calls that fail with `EACCES`, `EPERM` or `ENOSYS`.
    quiet: Vec<Program>,
    /// Forbidden calls, and the watched ones: a notification to the listener.
    notifying: Program,
    /// The numbers of the calls some part does not always allow, in order.
    calls: Vec<u32>,
}

/// The calls forbidden in every confined run, by name.
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

/// The calls that make memory no count of a run's processes shows: forbidden where the
/// run's memory is counted from its processes ([`Memory::Uncounted`]). Some only with certain
/// arguments ([`forbidden_when`]).
const UNCOUNTED_MEMORY: [(i64, &str); 6] = [
    (libc::SYS_memfd_create, "memfd_create"),
    (libc::SYS_shmget, "shmget"),
    (libc::SYS_msgget, "msgget"),
    (libc::SYS_vmsplice, "vmsplice"),
    (libc::SYS_mmap, "mmap of huge pages (MAP_HUGETLB)"),
    (libc::SYS_fcntl, "fcntl F_SETPIPE_SZ"),
];

/// The calls that make a process: forbidden where a run is held to one ([`Processes::One`]);
/// `clone` only without `CLONE_THREAD`.
const NEW_PROCESS: [(i64, &str); 3] = [
    (libc::SYS_fork, "fork"),
    (libc::SYS_vfork, "fork"),
    (libc::SYS_clone, "fork"),
];

/// `F_SETPIPE_SZ`: a pipe's buffer grown, in memory no count shows.
const F_SETPIPE_SZ: u64 = 1031;

/// The calls that open or look up a path, watched while a run is diagnosed
/// ([`Watching::Opens`]): the argument of their directory descriptor (none: the working
/// directory) and of their path. (Not `execve`: the program's own `exec`, which follows the
/// filters, would wait for a watch that waits for it to start.)
pub(crate) const OPENS: [(i64, Option<usize>, usize); 10] = [
    (libc::SYS_open, None, 0),
    (libc::SYS_openat, Some(0), 1),
    (libc::SYS_openat2, Some(0), 1),
    (libc::SYS_stat, None, 0),
    (libc::SYS_lstat, None, 0),
    (libc::SYS_newfstatat, Some(0), 1),
    (libc::SYS_statx, Some(0), 1),
    (libc::SYS_access, None, 0),
    (libc::SYS_faccessat, Some(0), 1),
    (libc::SYS_faccessat2, Some(0), 1),
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

/// Calls refused with `EPERM`: a lower priority or another scheduling policy, the user's
/// keyrings, and kernel interfaces that load programs into the kernel, watch other processes
/// or page faults.
const REFUSED_EPERM: [i64; 10] = [
    libc::SYS_setpriority,
    libc::SYS_sched_setscheduler,
    libc::SYS_sched_setattr,
    libc::SYS_sched_setparam,
    libc::SYS_keyctl,
    libc::SYS_add_key,
    libc::SYS_request_key,
    libc::SYS_bpf,
    libc::SYS_perf_event_open,
    libc::SYS_userfaultfd,
];

/// The UNIX stream pairs (`socketpair`) a run may make; more fail with `EACCES`.
pub(crate) const MAX_PAIRS: u32 = 4;

/// The `SOL_SOCKET` options that make a socket's buffers larger: `SO_SNDBUF`, `SO_RCVBUF`,
/// `SO_SNDBUFFORCE`, `SO_RCVBUFFORCE`, refused with `EPERM`.
const BUFFER_SIZES: [u64; 4] = [7, 8, 32, 33];

/// Calls refused with `ENOSYS`.
const REFUSED_ENOSYS: [i64; 5] = [
    libc::SYS_clone3,
    libc::SYS_io_uring_setup,
    libc::SYS_io_uring_enter,
    libc::SYS_io_uring_register,
    libc::SYS_memfd_secret,
];

/// Whether the kernel's memory controller counts all the memory of a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Memory {
    /// Yes: every call that makes memory is allowed.
    Counted,
    /// No, its processes are counted: the calls that make memory no count of them shows are
    /// forbidden, the run ends on them.
    Uncounted,
}

/// How many processes a run may have.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum Processes {
    /// As many as its limit: the kernel counts them all.
    Many,
    /// One (and its threads): no control group counts another, which a kernel that reaps it
    /// itself would hide.
    One,
}

/// What a run's filter holds it to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Policy {
    pub(crate) memory: Memory,
    pub(crate) processes: Processes,
    pub(crate) watching: Watching,
}

/// Whether the calls that open a path notify too.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Watching {
    /// No: only the forbidden calls notify.
    Forbidden,
    /// Yes: a diagnosing run, whose opens are read and then go on.
    Opens,
}

/// A call the sandbox forbade: the run ended on it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Refusal {
    /// The call's name (`connect`).
    pub call: &'static str,
}

impl Refusal {
    /// The name of call number `number` with arguments `args`, when it is one of the forbidden
    /// calls: a `clone` that makes no namespace makes a process.
    fn of(number: i64, args: [u64; 6]) -> Option<Refusal> {
        if number == libc::SYS_clone
            && !NAMESPACE_FLAGS
                .iter()
                .any(|&flag| args[0] & flag as u64 != 0)
        {
            return Some(Refusal { call: "fork" });
        }
        FORBIDDEN
            .iter()
            .chain(&UNCOUNTED_MEMORY)
            .chain(&NEW_PROCESS)
            .find(|(n, _)| *n == number)
            .map(|&(_, call)| Refusal { call })
    }
}

/// The filter of runs held to `policy`, compiled once.
pub(crate) fn filters(policy: Policy) -> io::Result<&'static Filters> {
    type Compiled = OnceLock<Result<Filters, BackendError>>;
    static FILTERS: [Compiled; 8] = [const { OnceLock::new() }; 8];
    let slot = usize::from(policy.memory == Memory::Uncounted) * 4
        + usize::from(policy.processes == Processes::One) * 2
        + usize::from(policy.watching == Watching::Opens);
    FILTERS[slot]
        .get_or_init(|| compile(policy))
        .as_ref()
        .map_err(|e| io::Error::other(format!("the seccomp filter does not compile: {e}")))
}

/// The filter of runs held to `policy`.
fn compile(policy: Policy) -> Result<Filters, BackendError> {
    let parts = parts(policy)?;
    let chain = chained(parts.quiet.iter().chain([&parts.notifying]));
    Ok(Filters {
        whole: dispatched(&parts.calls, chain),
    })
}

/// The quiet parts (refused calls given an error number) and the notifying one.
fn parts(policy: Policy) -> Result<Parts, BackendError> {
    let whole = |calls: &[i64]| -> Vec<(i64, Vec<SeccompRule>)> {
        calls.iter().map(|&c| (c, Vec::new())).collect()
    };
    let (eacces, not_stream) = socket_filters()?;
    let mut refused_eperm = whole(&REFUSED_EPERM);
    refused_eperm.push((libc::SYS_setsockopt, buffer_sizes()?));
    let eperm = filter(refused_eperm, SeccompAction::Errno(libc::EPERM as u32))?;
    let enosys = filter(
        whole(&REFUSED_ENOSYS),
        SeccompAction::Errno(libc::ENOSYS as u32),
    )?;
    let mut forbidden: Vec<i64> = FORBIDDEN.iter().map(|&(call, _)| call).collect();
    if policy.memory == Memory::Uncounted {
        forbidden.extend(UNCOUNTED_MEMORY.iter().map(|&(call, _)| call));
    }
    if policy.processes == Processes::One {
        forbidden.extend(NEW_PROCESS.iter().map(|&(call, _)| call));
    }
    forbidden.sort_unstable();
    forbidden.dedup();
    let mut notifying = forbidden
        .into_iter()
        .map(|call| Ok((call, forbidden_when(call, policy)?)))
        .collect::<Result<Vec<_>, BackendError>>()?;
    notifying.push((libc::SYS_socketpair, Vec::new()));
    if policy.watching == Watching::Opens {
        notifying.extend(OPENS.iter().map(|&(call, _, _)| (call, Vec::new())));
    }
    let mut calls: Vec<u32> = [libc::SYS_socket, libc::SYS_socketpair, libc::SYS_setsockopt]
        .iter()
        .chain(&REFUSED_EPERM)
        .chain(&REFUSED_ENOSYS)
        .chain(notifying.iter().map(|(call, _)| call))
        .map(|&call| call as u32)
        .collect();
    calls.sort_unstable();
    calls.dedup();
    Ok(Parts {
        quiet: vec![eacces, not_stream, eperm, enosys],
        notifying: notifying_filter(filter(notifying, SeccompAction::Trap)?),
        calls,
    })
}

/// `AUDIT_ARCH_*` of this architecture: `struct seccomp_data`'s `arch`.
#[cfg(target_arch = "x86_64")]
const AUDIT_ARCH: u32 = 0xc000_003e;
#[cfg(target_arch = "aarch64")]
const AUDIT_ARCH: u32 = 0xc000_00b7;

/// An instruction of [`dispatched`]'s search, before the chain's place is known.
enum Emitted {
    Plain(libc::sock_filter),
    /// A jump to the chain's first instruction.
    ToChain,
}

fn instruction(code: u32, jt: u8, jf: u8, k: u32) -> Emitted {
    Emitted::Plain(libc::sock_filter {
        code: code as u16,
        jt,
        jf,
        k,
    })
}

/// Bit 30 of a call's number: the x32 ABI's numbering.
const X32: u32 = 0x4000_0000;

const LOAD: u32 = libc::BPF_LD | libc::BPF_W | libc::BPF_ABS;
const JEQ: u32 = libc::BPF_JMP | libc::BPF_JEQ | libc::BPF_K;
const JGE: u32 = libc::BPF_JMP | libc::BPF_JGE | libc::BPF_K;
const JA: u32 = libc::BPF_JMP | libc::BPF_JA;

/// `chain` behind a search of the call's number among `calls` (in order): a call of another
/// number, in this architecture's numbering, is allowed after a few comparisons rather than
/// after every part's. The kernel runs a new filter on every call number when it is installed,
/// to learn which ones it always allows (under a lock, with interrupts off); through the chain
/// alone, that check would be most of what the filter costs a run.
fn dispatched(calls: &[u32], chain: Program) -> Program {
    let mut emitted = vec![
        instruction(LOAD, 0, 0, 4),
        instruction(JEQ, 1, 0, AUDIT_ARCH),
        Emitted::ToChain,
        instruction(LOAD, 0, 0, 0),
        instruction(JGE, 0, 1, X32),
        Emitted::ToChain,
    ];
    search(calls, &mut emitted);
    let start = emitted.len();
    let mut whole: Program = emitted
        .into_iter()
        .enumerate()
        .map(|(at, e)| match e {
            Emitted::Plain(i) => i,
            Emitted::ToChain => libc::sock_filter {
                code: JA as u16,
                jt: 0,
                jf: 0,
                k: (start - at - 1) as u32,
            },
        })
        .collect();
    whole.extend(chain);
    whole
}

/// The search of the loaded call number among `calls`: into the chain when it is one of
/// them, else allowed. Halves by `>=` down to three numbers, compared one by one.
fn search(calls: &[u32], out: &mut Vec<Emitted>) {
    if calls.len() <= 3 {
        for &call in calls {
            out.push(instruction(JEQ, 0, 1, call));
            out.push(Emitted::ToChain);
        }
        out.push(instruction(libc::BPF_RET | libc::BPF_K, 0, 0, ALLOW));
        return;
    }
    let middle = calls.len() / 2;
    let mut below = Vec::new();
    search(&calls[..middle], &mut below);
    out.push(instruction(JGE, 0, 1, calls[middle]));
    out.push(instruction(JA, 0, 0, below.len() as u32));
    out.extend(below);
    search(&calls[middle..], out);
}

/// The answer that lets a call through.
const ALLOW: u32 = libc::SECCOMP_RET_ALLOW;

/// One program of `parts`, in order: in each part but the last, a return that allows the call
/// becomes a jump to the next part's first instruction, so the first answer but "allowed" is
/// the program's, and "allowed" only when every part allows.
fn chained<'a>(parts: impl Iterator<Item = &'a Program>) -> Program {
    let parts: Vec<&Program> = parts.collect();
    let mut whole = Program::new();
    for (n, part) in parts.iter().enumerate() {
        let next = whole.len() + part.len();
        for instruction in part.iter() {
            let mut instruction = *instruction;
            if n + 1 < parts.len() && instruction.code == RETURN && instruction.k == ALLOW {
                let here = whole.len();
                instruction = libc::sock_filter {
                    code: JA as u16,
                    jt: 0,
                    jf: 0,
                    k: (next - here - 1) as u32,
                };
            }
            whole.push(instruction);
        }
    }
    whole
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

/// The rules of a `setsockopt` that makes a socket's buffers larger ([`BUFFER_SIZES`]).
fn buffer_sizes() -> Result<Vec<SeccompRule>, BackendError> {
    BUFFER_SIZES
        .iter()
        .map(|&option| {
            SeccompRule::new(vec![
                condition(
                    1,
                    SeccompCmpArgLen::Dword,
                    SeccompCmpOp::Eq,
                    libc::SOL_SOCKET as u64,
                )?,
                condition(2, SeccompCmpArgLen::Dword, SeccompCmpOp::Eq, option)?,
            ])
        })
        .collect()
}

/// Sockets but IPv4 and IPv6 stream ones, and pairs but UNIX stream ones, refused with
/// `EACCES`: a socket or pair of another family (the first filter), or of another type (the
/// second: the low bits of the type; the high ones are SOCK_NONBLOCK and SOCK_CLOEXEC). A
/// datagram pair could send to any socket path (`sendmsg` names its destination in memory no
/// filter reads); a stream pair's ends reach only each other, and how many a run makes is
/// counted ([`MAX_PAIRS`]), since what they queue is memory no count shows (cgroup v2 charges
/// no AF_UNIX buffer to the run's group).
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
    let not_unix = SeccompRule::new(vec![condition(
        0,
        SeccompCmpArgLen::Dword,
        SeccompCmpOp::Ne,
        libc::AF_UNIX as u64,
    )?])?;
    let eacces = filter(
        vec![
            (libc::SYS_socket, vec![other_family]),
            (libc::SYS_socketpair, vec![not_unix]),
        ],
        SeccompAction::Errno(libc::EACCES as u32),
    )?;
    let not_stream = filter(
        vec![
            (libc::SYS_socket, other_types.clone()),
            (libc::SYS_socketpair, other_types),
        ],
        SeccompAction::Errno(libc::EACCES as u32),
    )?;
    Ok((eacces, not_stream))
}

/// The rules under which the forbidden call `call` ends a run held to `policy` (none: always).
fn forbidden_when(call: i64, policy: Policy) -> Result<Vec<SeccompRule>, BackendError> {
    let masked = |arg: u8, mask: u64, value: u64| -> Result<SeccompRule, BackendError> {
        SeccompRule::new(vec![condition(
            arg,
            SeccompCmpArgLen::Dword,
            SeccompCmpOp::MaskedEq(mask),
            value,
        )?])
    };
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
        // to a connected socket, and no socket can be connected nor paired (the sandbox's own
        // processes send the listener back on a pair made before they were confined).
        libc::SYS_sendmsg | libc::SYS_sendmmsg => {
            let flags = if call == libc::SYS_sendmsg { 2 } else { 3 };
            vec![SeccompRule::new(vec![condition(
                flags,
                SeccompCmpArgLen::Dword,
                SeccompCmpOp::MaskedEq(libc::MSG_FASTOPEN as u64),
                libc::MSG_FASTOPEN as u64,
            )?])?]
        }
        // `clone` making a namespace; threads and processes are the limits', but where a run
        // is held to one process: then a `clone` that makes no thread.
        libc::SYS_clone => {
            let mut rules = NAMESPACE_FLAGS
                .iter()
                .map(|&flag| masked(0, flag as u64, flag as u64))
                .collect::<Result<Vec<_>, _>>()?;
            if policy.processes == Processes::One {
                rules.push(masked(0, libc::CLONE_THREAD as u64, 0)?);
            }
            rules
        }
        // `mmap` of huge pages, which no resident set shows.
        libc::SYS_mmap => vec![masked(
            3,
            libc::MAP_HUGETLB as u64,
            libc::MAP_HUGETLB as u64,
        )?],
        // `fcntl` growing a pipe's buffer.
        libc::SYS_fcntl => vec![SeccompRule::new(vec![condition(
            1,
            SeccompCmpArgLen::Dword,
            SeccompCmpOp::Eq,
            F_SETPIPE_SZ,
        )?])?],
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
fn notifying_filter(mut program: Program) -> Program {
    for instruction in &mut program {
        if instruction.code == RETURN && instruction.k == libc::SECCOMP_RET_TRAP {
            instruction.k = libc::SECCOMP_RET_USER_NOTIF;
        }
    }
    program
}

/// A notification from a run's listener.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Notice {
    /// A forbidden call: it waits until the run is ended.
    Forbidden(Refusal),
    /// A watched call, waiting for [`go_on`]: its id, its process (in the audit's PID
    /// namespace, as the listener reports it), its directory argument (`AT_FDCWD` for a
    /// path relative to the working directory, or a call without one) and the address of its
    /// path.
    Opens {
        id: u64,
        pid: u32,
        directory: i32,
        path: u64,
    },
    /// A counted call (a UNIX stream pair), waiting for [`go_on`] or [`refuse`]: its id.
    Pair { id: u64 },
}

/// Reads the notification waiting on `listener`. `None` when it is gone (its process died).
pub(crate) fn receive(listener: &OwnedFd) -> Option<Notice> {
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
    let number = i64::from(notification.data.nr);
    if let Some(refusal) = Refusal::of(number, notification.data.args) {
        return Some(Notice::Forbidden(refusal));
    }
    if number == libc::SYS_socketpair {
        return Some(Notice::Pair {
            id: notification.id,
        });
    }
    let &(_, directory, at) = OPENS.iter().find(|(n, _, _)| *n == number)?;
    let args = notification.data.args;
    let directory = directory.map_or(libc::AT_FDCWD, |d| args[d] as i32);
    Some(Notice::Opens {
        id: notification.id,
        pid: notification.pid,
        directory,
        path: args[at],
    })
}

/// Lets the watched call `id` go on as the kernel would have it (the sandbox's Landlock rules
/// still decide whether it may open its file).
pub(crate) fn go_on(listener: &OwnedFd, id: u64) {
    respond(
        listener,
        id,
        0,
        libc::SECCOMP_USER_NOTIF_FLAG_CONTINUE as u32,
    );
}

/// Fails the waiting call `id` with error number `errno`, as a filter's error would.
pub(crate) fn refuse(listener: &OwnedFd, id: u64, errno: i32) {
    respond(listener, id, -errno, 0);
}

/// Answers the waiting call `id`: `error` (a negative error number, or 0) under `flags`.
fn respond(listener: &OwnedFd, id: u64, error: i32, flags: u32) {
    let mut response = libc::seccomp_notif_resp {
        id,
        val: 0,
        error,
        flags,
    };
    // SAFETY: a valid listener descriptor and a response of the size the request names. A
    // failure means the process is gone.
    unsafe {
        libc::ioctl(
            listener.as_raw_fd(),
            libc::SECCOMP_IOCTL_NOTIF_SEND,
            &mut response,
        );
    }
}

/// Whether notification `id` is still waiting (its process has not died meanwhile): what was
/// read of its process since is its own.
pub(crate) fn still_waiting(listener: &OwnedFd, id: u64) -> bool {
    let mut id = id;
    // SAFETY: a valid listener descriptor and a u64, as the request names.
    unsafe {
        libc::ioctl(
            listener.as_raw_fd(),
            libc::SECCOMP_IOCTL_NOTIF_ID_VALID,
            &mut id,
        ) == 0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every policy a run may be held to.
    fn policies() -> Vec<Policy> {
        let mut all = Vec::new();
        for memory in [Memory::Counted, Memory::Uncounted] {
            for processes in [Processes::Many, Processes::One] {
                for watching in [Watching::Forbidden, Watching::Opens] {
                    all.push(Policy {
                        memory,
                        processes,
                        watching,
                    });
                }
            }
        }
        all
    }

    fn policy(memory: Memory, processes: Processes, watching: Watching) -> Policy {
        Policy {
            memory,
            processes,
            watching,
        }
    }

    #[test]
    fn the_filters_compile_and_the_notifying_one_notifies() {
        {
            for policy in policies() {
                let filters = parts(policy).unwrap();
                assert_eq!(filters.quiet.len(), 4);
                let returns =
                    |p: &Program, k: u32| p.iter().filter(|i| i.code == RETURN && i.k == k).count();
                assert!(returns(&filters.notifying, libc::SECCOMP_RET_USER_NOTIF) > 0);
                assert_eq!(returns(&filters.notifying, libc::SECCOMP_RET_TRAP), 0);
                for program in filters.quiet.iter().chain([&filters.notifying]) {
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
            }
        }
        // More calls notify when memory is uncounted, when a run is held to one process and
        // when opens are watched.
        let size = |m, p, w| parts(policy(m, p, w)).unwrap().notifying.len();
        let (c, u, many, one, f, o) = (
            Memory::Counted,
            Memory::Uncounted,
            Processes::Many,
            Processes::One,
            Watching::Forbidden,
            Watching::Opens,
        );
        assert!(size(u, many, f) > size(c, many, f));
        assert!(size(c, one, f) > size(c, many, f));
        assert!(size(c, many, o) > size(c, many, f));
        let args = [0u64; 6];
        assert_eq!(
            Refusal::of(libc::SYS_connect, args),
            Some(Refusal { call: "connect" })
        );
        assert_eq!(
            Refusal::of(libc::SYS_memfd_create, args),
            Some(Refusal {
                call: "memfd_create"
            })
        );
        // A clone without a namespace flag made a process; with one, a namespace.
        assert_eq!(
            Refusal::of(libc::SYS_clone, args),
            Some(Refusal { call: "fork" })
        );
        let mut namespace = args;
        namespace[0] = libc::CLONE_NEWUSER as u64;
        assert_eq!(
            Refusal::of(libc::SYS_clone, namespace),
            Some(Refusal { call: "clone" })
        );
        assert_eq!(Refusal::of(libc::SYS_read, args), None);
    }

    /// What classic BPF program `program` answers for a call of number `nr` on this
    /// architecture with arguments `args` (the instructions seccompiler and [`chained`] emit).
    fn answer(program: &Program, arch: u32, nr: u32, args: [u64; 6]) -> u32 {
        let word = |offset: u32| -> u32 {
            match offset {
                0 => nr,
                4 => arch,
                16..=63 => {
                    let arg = args[(offset as usize - 16) / 8];
                    if offset.is_multiple_of(8) {
                        arg as u32
                    } else {
                        (arg >> 32) as u32
                    }
                }
                _ => panic!("a load at offset {offset}"),
            }
        };
        let (mut pc, mut a) = (0usize, 0u32);
        loop {
            let i = program[pc];
            let code = u32::from(i.code);
            pc += 1;
            match code {
                c if c == libc::BPF_LD | libc::BPF_W | libc::BPF_ABS => a = word(i.k),
                c if c == libc::BPF_ALU | libc::BPF_AND | libc::BPF_K => a &= i.k,
                c if c == libc::BPF_RET | libc::BPF_K => return i.k,
                c if c == libc::BPF_JMP | libc::BPF_JA => pc += i.k as usize,
                c if c & 0x07 == libc::BPF_JMP && c & 0x08 == libc::BPF_K => {
                    let taken = match c & 0xf0 {
                        op if op == libc::BPF_JEQ => a == i.k,
                        op if op == libc::BPF_JGT => a > i.k,
                        op if op == libc::BPF_JGE => a >= i.k,
                        op if op == libc::BPF_JSET => a & i.k != 0,
                        op => panic!("jump {op:#x}"),
                    };
                    pc += usize::from(if taken { i.jt } else { i.jf });
                }
                c => panic!("instruction {c:#x}"),
            }
        }
    }

    #[test]
    fn the_filter_answers_as_its_parts_installed_one_by_one_would() {
        // seccomp ranks answers by their action as a signed number: the lowest wins.
        let rank = |k: u32| (k & libc::SECCOMP_RET_ACTION_FULL) as i32;
        let arch = 0xc000_003e; // AUDIT_ARCH_X86_64
        let values = [
            0,
            1,
            2,
            3,
            5,
            10,
            0x4000,
            0x2000_0000,
            0x8000_0000,
            u64::MAX,
        ];
        {
            for policy in policies() {
                let whole = &filters(policy).unwrap().whole;
                let parts = parts(policy).unwrap();
                assert!(
                    whole.len() < 4096,
                    "seccomp takes at most 4096 instructions"
                );
                let parts: Vec<&Program> = parts.quiet.iter().chain([&parts.notifying]).collect();
                let mut answers = std::collections::BTreeSet::new();
                for (arch, nr) in (0..1100)
                    .map(|n| (arch, n))
                    .chain([(arch, 0x4000_0001), (0x4000_0003, 2)])
                {
                    for (k, &v) in values.iter().enumerate() {
                        let mut args = [values[(k + 3) % values.len()]; 6];
                        args[k % 6] = v;
                        args[(k + 1) % 6] = v;
                        let one_by_one = parts
                            .iter()
                            .rev()
                            .map(|p| answer(p, arch, nr, args))
                            .min_by_key(|&k| rank(k))
                            .unwrap();
                        assert_eq!(
                            answer(whole, arch, nr, args),
                            one_by_one,
                            "call {nr:#x} arch {arch:#x} arguments {args:x?}"
                        );
                        answers.insert(one_by_one);
                    }
                }
                // Every kind of answer was met.
                for k in [
                    ALLOW,
                    libc::SECCOMP_RET_USER_NOTIF,
                    libc::SECCOMP_RET_ERRNO | libc::EACCES as u32,
                    libc::SECCOMP_RET_ERRNO | libc::EPERM as u32,
                    libc::SECCOMP_RET_ERRNO | libc::ENOSYS as u32,
                    libc::SECCOMP_RET_KILL_PROCESS,
                ] {
                    assert!(answers.contains(&k), "no call answered {k:#x}");
                }
            }
        }
    }
}
