//! Watching one run: one thread polls its three pipes, a process descriptor of its first process, the
//! listener of its notifications and its report pipe; it feeds standard input as the program
//! reads it (a program that closes it early, or reads nothing, just stops the feeding), keeps
//! standard output up to a cap and the last bytes of standard error, answers the notifications
//! (a forbidden call ends the run; a watched open is read, then goes on), and reads what the run
//! has used when due ([`Meter`]), ending it past a limit.

use std::fs::File;
use std::io::{self, Read, Write};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use rustix::event::{poll, PollFd, PollFlags, Timespec};

use crate::cgroup::RunGroups;
use crate::child::Record;
use crate::interrupt::{kill_group, Interrupt};
use crate::limits::{Ending, Limits};
use crate::proc::{self, thread_waited, Usage};
use crate::sandbox::Jail;
use crate::seccomp::{self, Notice};

/// Where a run's usage is read from.
pub(crate) enum Meter<'a> {
    /// The run's control groups (the kernel's count), and `/proc` for the waits.
    Groups(&'a RunGroups),
    /// `/proc`: the processes below the run's init with this process id.
    Init(i32),
    /// `/proc`: the processes of this process group (an unconfined run).
    Group(i32),
}

/// A run's pipes, seen from the caller: the program's standard input (while there is input to
/// feed), output and error.
pub(crate) struct Pipes {
    pub(crate) stdin: Option<File>,
    pub(crate) stdout: Option<File>,
    pub(crate) stderr: Option<File>,
}

impl Pipes {
    /// The pipes of an unconfined `child`.
    pub(crate) fn of(child: &mut std::process::Child) -> Pipes {
        let file = |fd: Option<OwnedFd>| fd.map(File::from);
        Pipes {
            stdin: file(child.stdin.take().map(OwnedFd::from)),
            stdout: file(child.stdout.take().map(OwnedFd::from)),
            stderr: file(child.stderr.take().map(OwnedFd::from)),
        }
    }
}

impl Meter<'_> {
    /// What the run has used so far.
    fn sample(&self) -> Usage {
        match self {
            Meter::Groups(groups) => {
                let charged = groups.charged();
                Usage {
                    cpu: charged.cpu,
                    waited: proc::longest_wait(&groups.processes()),
                    memory: charged.memory,
                }
            }
            Meter::Init(init) => proc::run_usage(*init),
            Meter::Group(group) => proc::group_usage(*group),
        }
    }

    /// Whether the run is over its memory limit of `limit` bytes: the kernel's control group
    /// holds the run to it itself (counting pages it may reclaim, and ending a process past
    /// it); the watch holds the resident sets read from `/proc` to it.
    fn over_memory(&self, usage: &Usage, limit: u64) -> bool {
        match self {
            Meter::Groups(groups) => groups.out_of_memory(),
            Meter::Init(_) | Meter::Group(_) => usage.memory > limit,
        }
    }

    /// The process group to kill when the run's pipes outlive it (an unconfined run's: a
    /// confined run's processes all end with its init).
    fn group(&self) -> Option<i32> {
        match self {
            Meter::Groups(_) | Meter::Init(_) => None,
            Meter::Group(group) => Some(*group),
        }
    }
}

/// What the watch saw: `ending` when the watch ended the run, the outputs, the last usage read
/// and the most memory read, the run's reports, the paths asked for that its sandbox hides.
pub(crate) struct Watched {
    pub(crate) ending: Option<Ending>,
    pub(crate) stdout: Vec<u8>,
    pub(crate) stderr_tail: Vec<u8>,
    pub(crate) usage: Usage,
    pub(crate) peak: u64,
    pub(crate) record: Option<Record>,
    /// The init's ready record.
    pub(crate) ready: Option<Record>,
    /// The failure record of a step, if one failed.
    pub(crate) failed: Option<Record>,
    pub(crate) hidden: Vec<PathBuf>,
}

/// The end of standard error: the last `cap` bytes.
struct Tail {
    bytes: Vec<u8>,
    cap: usize,
}

impl Tail {
    fn push(&mut self, chunk: &[u8]) {
        self.bytes.extend_from_slice(chunk);
        if self.bytes.len() > 2 * self.cap {
            let cut = self.bytes.len() - self.cap;
            self.bytes.drain(..cut);
        }
    }

    fn finish(mut self) -> Vec<u8> {
        if self.bytes.len() > self.cap {
            let cut = self.bytes.len() - self.cap;
            self.bytes.drain(..cut);
        }
        self.bytes
    }
}

/// The most bytes one [`drain`] reads: a writer faster than the watch never keeps it from its
/// limits.
const DRAIN_AT_ONCE: usize = 1 << 20;

/// Reads what is available from a non-blocking pipe, [`DRAIN_AT_ONCE`] bytes at most, until
/// `take` says it wants no more (returns `false`): `Ok(true)` at its end.
fn drain(
    pipe: &mut impl Read,
    buf: &mut [u8],
    mut take: impl FnMut(&[u8]) -> bool,
) -> io::Result<bool> {
    let mut read = 0;
    while read < DRAIN_AT_ONCE {
        match pipe.read(buf) {
            Ok(0) => return Ok(true),
            Ok(n) => {
                read += n;
                if !take(&buf[..n]) {
                    return Ok(false);
                }
            }
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(false),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(false)
}

/// The records waiting on the report pipe `report` (non-blocking), and whether it is at its
/// end.
pub(crate) fn read_records(report: &OwnedFd) -> (Vec<Record>, bool) {
    let mut records = Vec::new();
    let mut bytes = [0u8; Record::SIZE];
    loop {
        match rustix::io::read(report, &mut bytes) {
            Ok(n) if n == Record::SIZE => records.push(Record::read(&bytes)),
            Ok(0) => return (records, true),
            // A record is written at once: a short read is a broken pipe's.
            Ok(_) => return (records, true),
            Err(rustix::io::Errno::INTR) => {}
            Err(_) => return (records, false),
        }
    }
}

/// What the watch polls.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Slot {
    /// Standard input, while there is input left to feed.
    Stdin,
    /// Standard output, until its end.
    Stdout,
    /// Standard error, until its end.
    Stderr,
    /// The process descriptor of the run's first process, until it exits.
    Exit,
    /// The listener of the notifications, while the run is confined.
    Notices,
    /// The report pipe, while the run is confined and until its end.
    Report,
}

/// Once the program has exited, what still holds its pipes open gets this long, then the
/// group is killed; after ten times as long, the pipes are no longer listened to.
const GRACE: Duration = Duration::from_millis(20);

/// The longest the watch sleeps, so that it notices an interruption.
const WAKE: Duration = Duration::from_millis(50);

/// How often a run's usage is read: a twentieth of its CPU limit, between 5 and 50 ms (a run
/// that ends sooner is never read while it runs).
pub fn sample_every(cpu_limit: Duration) -> Duration {
    (cpu_limit / 20).clamp(Duration::from_millis(5), Duration::from_millis(50))
}

/// Watching one run: feeding its input, collecting its outputs, holding it to its limits.
pub(crate) struct Watch<'a> {
    pidfd: BorrowedFd<'a>,
    input: &'a [u8],
    fed: usize,
    stdin: Option<File>,
    stdout: Option<File>,
    stderr: Option<File>,
    listener: Option<OwnedFd>,
    report: Option<&'a OwnedFd>,
    out: Vec<u8>,
    /// The lines of standard output written so far ([`Limits::per_answer`]).
    answers: usize,
    tail: Tail,
    buf: Vec<u8>,
    limits: &'a Limits,
    meter: Meter<'a>,
    started: Instant,
    /// The caller's deadline.
    cut_at: Option<Instant>,
    /// What cuts the run before it (the program's [`Interrupt`]).
    interrupt: &'a Interrupt,
    exited_at: Option<Instant>,
    usage: Usage,
    peak: u64,
    next_sample: Instant,
    /// How long this thread had waited for a CPU when the run started: a program whose input
    /// or output waits on a busy caller is not blamed for that wait either.
    watch_waited: Duration,
    record: Option<Record>,
    ready: Option<Record>,
    /// When the init said it was ready: the program's wall-clock time counts from then (the
    /// sandbox's setup is not the program's).
    ready_at: Option<Instant>,
    failed: Option<Record>,
    hidden: Vec<PathBuf>,
    /// The UNIX stream pairs the run has asked for ([`seccomp::MAX_PAIRS`] may be made).
    pairs: u32,
}

impl<'a> Watch<'a> {
    /// The watch of the run whose first process is `pidfd`, with `pipes`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn new(
        pidfd: BorrowedFd<'a>,
        pipes: Pipes,
        input: &'a [u8],
        limits: &'a Limits,
        listener: Option<OwnedFd>,
        report: Option<&'a OwnedFd>,
        meter: Meter<'a>,
        started: Instant,
        (cut_at, interrupt): (Option<Instant>, &'a Interrupt),
    ) -> io::Result<Watch<'a>> {
        let stdin = pipes.stdin.filter(|_| !input.is_empty());
        let stdout = pipes.stdout;
        let stderr = pipes.stderr;
        let fds = [
            stdin.as_ref().map(|p| p.as_fd()),
            stdout.as_ref().map(|p| p.as_fd()),
            stderr.as_ref().map(|p| p.as_fd()),
        ];
        for fd in fds.into_iter().flatten() {
            rustix::io::ioctl_fionbio(fd, true)?;
        }
        Ok(Watch {
            pidfd,
            input,
            fed: 0,
            stdin,
            stdout,
            stderr,
            listener,
            report,
            out: Vec::new(),
            answers: 0,
            tail: Tail {
                bytes: Vec::new(),
                cap: limits.stderr_tail,
            },
            buf: vec![0u8; 64 << 10],
            limits,
            meter,
            started,
            cut_at,
            interrupt,
            exited_at: None,
            usage: Usage::default(),
            peak: 0,
            next_sample: started + sample_every(limits.cpu),
            watch_waited: thread_waited(),
            record: None,
            ready: None,
            ready_at: None,
            failed: None,
            hidden: Vec::new(),
            pairs: 0,
        })
    }

    /// Watches until the program exits and its pipes close, or the watch ends the run; the
    /// watched opens are judged against `jail`.
    pub(crate) fn run(mut self, jail: Option<&Jail>) -> io::Result<Watched> {
        loop {
            if self.stdout.is_none() && self.stderr.is_none() && self.exited_at.is_some() {
                return Ok(self.done(None));
            }
            let now = Instant::now();
            if let Some(ending) = self.limit_reached(now) {
                return Ok(self.done(Some(ending)));
            }
            if let Some(at) = self.exited_at {
                if now >= at + GRACE {
                    if let Some(group) = self.meter.group() {
                        kill_group(group);
                    }
                }
                if now >= at + 10 * GRACE {
                    // Something outside the run holds them: stop listening.
                    return Ok(self.done(None));
                }
            }
            for (slot, revents) in self.ready(self.wait(now))? {
                if let Some(ending) = self.serve(slot, revents, jail)? {
                    return Ok(self.done(Some(ending)));
                }
            }
        }
    }

    fn done(mut self, ending: Option<Ending>) -> Watched {
        if let Some(report) = self.report {
            self.take_records(report);
        }
        Watched {
            ending,
            stdout: self.out,
            stderr_tail: self.tail.finish(),
            usage: self.usage,
            peak: self.peak,
            record: self.record,
            ready: self.ready,
            failed: self.failed,
            hidden: self.hidden,
        }
    }

    /// Reads the report pipe's records: whether it is at its end.
    fn take_records(&mut self, report: &OwnedFd) -> bool {
        let (records, ended) = read_records(report);
        for record in records {
            match record.tag {
                Record::READY => {
                    self.ready = Some(record);
                    self.ready_at = Some(Instant::now());
                }
                Record::END => {
                    self.record = Some(record);
                    self.exited();
                }
                Record::FAILED => self.failed = Some(record),
                _ => {}
            }
        }
        ended
    }

    /// The program has exited: it no longer reads its input.
    fn exited(&mut self) {
        if self.exited_at.is_none() {
            self.exited_at = Some(Instant::now());
        }
        self.stdin = None;
    }

    /// The ending the limits give the run now, if any: cut by the caller, over its memory,
    /// over its CPU time, or over its wall-clock cap (the run's usage read when due).
    fn limit_reached(&mut self, now: Instant) -> Option<Ending> {
        if self.interrupt.past(self.cut_at) {
            return Some(Ending::Cut);
        }
        if now < self.next_sample || self.record.is_some() {
            return None;
        }
        self.usage = self.meter.sample();
        self.next_sample = now + sample_every(self.limits.cpu);
        self.peak = self.peak.max(self.usage.memory);
        if self.meter.over_memory(&self.usage, self.limits.memory) {
            return Some(Ending::MemoryLimit);
        }
        if self.usage.cpu > self.limits.cpu {
            return Some(Ending::TimedOut);
        }
        if let Some(each) = self.limits.per_answer {
            let allowed = each.saturating_mul(u32::try_from(self.answers + 1).unwrap_or(u32::MAX));
            if self.usage.cpu > allowed {
                return Some(Ending::AnswerLate);
            }
        }
        // Not counted: the program's waits for a CPU, and this watch's (while it waits, the
        // program's input is not fed nor its output read).
        let watch_waited = thread_waited().saturating_sub(self.watch_waited);
        let counted = now
            .saturating_duration_since(self.ready_at.unwrap_or(self.started))
            .saturating_sub(self.usage.waited.max(watch_waited));
        (counted >= self.limits.wall_cap()).then_some(Ending::WallCap)
    }

    /// How long to wait for the pipes now.
    fn wait(&self, now: Instant) -> Duration {
        let mut wait = WAKE.min(self.next_sample.saturating_duration_since(now));
        if let Some(cut) = self.cut_at {
            wait = wait.min(cut.saturating_duration_since(now));
        }
        if self.exited_at.is_some() {
            wait = wait.min(GRACE);
        }
        wait
    }

    /// The slots ready within `wait`, and what each is ready for.
    fn ready(&self, wait: Duration) -> io::Result<Vec<(Slot, PollFlags)>> {
        let slots = [
            self.stdin
                .as_ref()
                .map(|p| (Slot::Stdin, p.as_fd(), PollFlags::OUT)),
            self.stdout
                .as_ref()
                .map(|p| (Slot::Stdout, p.as_fd(), PollFlags::IN)),
            self.stderr
                .as_ref()
                .map(|p| (Slot::Stderr, p.as_fd(), PollFlags::IN)),
            (self.exited_at.is_none() || self.report.is_some()).then_some((
                Slot::Exit,
                self.pidfd,
                PollFlags::IN,
            )),
            self.listener
                .as_ref()
                .map(|l| (Slot::Notices, l.as_fd(), PollFlags::IN)),
            self.report
                .map(|r| (Slot::Report, r.as_fd(), PollFlags::IN)),
        ];
        let polled: Vec<_> = slots.into_iter().flatten().collect();
        let mut fds: Vec<PollFd> = polled
            .iter()
            .map(|(_, fd, flags)| PollFd::from_borrowed_fd(*fd, *flags))
            .collect();
        let timeout = Timespec::try_from(wait).unwrap_or(Timespec {
            tv_sec: 1,
            tv_nsec: 0,
        });
        match poll(&mut fds, Some(&timeout)) {
            Ok(_) => {}
            Err(rustix::io::Errno::INTR) => return Ok(Vec::new()),
            Err(e) => return Err(e.into()),
        }
        Ok(polled
            .iter()
            .zip(&fds)
            .map(|((slot, _, _), fd)| (*slot, fd.revents()))
            .filter(|(_, r)| !r.is_empty())
            .collect())
    }

    /// Serves one ready slot: `Some(ending)` when that ends the run.
    fn serve(
        &mut self,
        slot: Slot,
        revents: PollFlags,
        jail: Option<&Jail>,
    ) -> io::Result<Option<Ending>> {
        match slot {
            Slot::Stdin => self.feed(revents),
            Slot::Stdout => {
                let pipe = self.stdout.as_mut().expect("polled");
                let (out, cap) = (&mut self.out, self.limits.max_output);
                let mut over = false;
                let answers = &mut self.answers;
                let ended = drain(pipe, &mut self.buf, |chunk| {
                    let room = cap.saturating_sub(out.len());
                    let kept = &chunk[..chunk.len().min(room)];
                    *answers += kept.iter().filter(|&&b| b == b'\n').count();
                    out.extend_from_slice(kept);
                    over |= chunk.len() > room;
                    !over
                })?;
                if over {
                    return Ok(Some(Ending::OutputLimit));
                }
                if ended {
                    self.stdout = None;
                }
            }
            Slot::Stderr => {
                let pipe = self.stderr.as_mut().expect("polled");
                let tail = &mut self.tail;
                if drain(pipe, &mut self.buf, |chunk| {
                    tail.push(chunk);
                    true
                })? {
                    self.stderr = None;
                }
            }
            Slot::Exit => {
                // The run's first process is gone: everything of the run with it.
                self.exited();
                if let Some(report) = self.report.take() {
                    self.take_records(report);
                }
            }
            Slot::Report => {
                // The exit, served first, may have read the pipe to its end.
                let Some(report) = self.report else {
                    return Ok(None);
                };
                if self.take_records(report) {
                    self.report = None;
                }
            }
            Slot::Notices => return Ok(self.notice(revents, jail)),
        }
        Ok(None)
    }

    /// Serves a notice of the sandbox's listener of calls: a forbidden call ends the run; an
    /// `open` of a file the jail hides is noted (for the run's findings) and let go on; a
    /// UNIX stream pair goes on while the run has made fewer than the most it may.
    fn notice(&mut self, revents: PollFlags, jail: Option<&Jail>) -> Option<Ending> {
        let listener = self.listener.as_ref().expect("polled");
        if !revents.contains(PollFlags::IN) {
            // Every process of the run is gone.
            self.listener = None;
            return None;
        }
        match seccomp::receive(listener) {
            Some(Notice::Forbidden(refusal)) => return Some(Ending::Forbidden(refusal)),
            Some(Notice::Opens {
                id,
                pid,
                directory,
                path,
            }) => {
                let asked = crate::opens::asked(pid, directory, path);
                if seccomp::still_waiting(listener, id) {
                    if let (Some(asked), Some(jail)) = (asked, jail) {
                        if crate::opens::hidden(jail, &asked) && !self.hidden.contains(&asked) {
                            self.hidden.push(asked);
                        }
                    }
                }
                seccomp::go_on(listener, id);
            }
            Some(Notice::Pair { id }) => {
                self.pairs += 1;
                if self.pairs <= seccomp::MAX_PAIRS {
                    seccomp::go_on(listener, id);
                } else {
                    seccomp::refuse(listener, id, libc::EACCES);
                }
            }
            None => {}
        }
        None
    }

    /// Writes what the program's standard input takes; closes it when all is fed, or when the
    /// program closed its end (it reads no more).
    fn feed(&mut self, revents: PollFlags) {
        let pipe = self.stdin.as_mut().expect("polled");
        let done = if revents.intersects(PollFlags::ERR | PollFlags::HUP) {
            true
        } else {
            match pipe.write(&self.input[self.fed..]) {
                Ok(n) => {
                    self.fed += n;
                    self.fed == self.input.len()
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => false,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => false,
                Err(_) => true,
            }
        };
        if done {
            self.stdin = None;
        }
    }
}
