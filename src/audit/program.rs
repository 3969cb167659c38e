//! Running someone else's program on one input, so that nothing it does can hang the audit,
//! grow its memory, reach outside its run, or outlive it.
//!
//! The program runs in a process group of its own, executed directly (no shell), with the input
//! on its standard input, confined by its [`Jail`] ([`super::sandbox`]) unless the audit runs
//! `--unconfined`. One thread watches it with `poll` on its three pipes, a pidfd and the
//! listener of its forbidden calls: it feeds standard input as the program reads it (a program
//! that closes it early, or reads nothing, just stops the feeding), keeps standard output up to
//! a cap (beyond it the run ends: `output-limit`), keeps the last bytes of standard error, ends
//! the run on a forbidden call ([`Ending::Forbidden`]), and holds the run to its limits as judge
//! systems do ([`super::usage`]): the **CPU time** of the process group (past it, the run ends
//! as [`Ending::TimedOut`]), the **memory** its processes hold together (past the limit,
//! [`Ending::MemoryLimit`]), and a **wall-clock cap** of [`super::usage::WALL_FACTOR`] times the
//! CPU limit, not counting the time the program waited for a CPU (nor the time the watch did,
//! during which its input is not fed), for a program that sleeps or blocks
//! ([`Ending::WallCap`]). A run that ended on its own is held to its CPU time and its
//! memory's high-water mark too, read from its process once it has exited. However the run
//! ends, the whole process group is killed, so a forked child that sleeps on, or keeps the
//! pipes open, goes with it; a descendant that left the group is reaped by [`Reaper`], the audit
//! being their subreaper.
//!
//! Every process group alive is registered, so that an interrupted audit ends them all
//! ([`interrupt`]): the runs in progress then end as [`Ending::Cut`], and no run starts after.

use std::collections::BTreeSet;
use std::io::{self, Read, Write};
use std::os::fd::{AsFd, OwnedFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rustix::event::{poll, PollFd, PollFlags, Timespec};
use rustix::process::{Pid, Signal};

use super::sandbox::{self, Jail, Refusal, Sandbox, Workspace};
use super::usage::{
    group_usage, process_usage, reap, sample_every, thread_waited, wall_cap, Usage,
};

/// How a run is bounded.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The CPU time the run may take (its process group's user and system time): the time
    /// limit. Its wall-clock time is capped at [`super::usage::wall_cap`] of it.
    pub cpu: Duration,
    /// The bytes of memory the run's processes may hold together (their resident sets); more
    /// ends the run ([`Ending::MemoryLimit`]). The stack may grow as large.
    pub memory: u64,
    /// The most bytes of standard output kept; more ends the run. Confined, also the size of
    /// its scratch and of the largest file it writes.
    pub max_output: usize,
    /// How many of the last bytes of standard error are kept.
    pub stderr_tail: usize,
    /// Bytes of environment the run gets beyond the audit's own (variable
    /// [`PADDING_VARIABLE`]): a case that crashes past a buffer's end on the stack must crash
    /// with more environment above the stack too.
    pub padding: usize,
}

/// The environment variable that carries a run's [`Limits::padding`].
pub const PADDING_VARIABLE: &str = "REFEREE_PADDING";

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The program exited with this code.
    Exited(i32),
    /// A signal ended it.
    Signalled(i32),
    /// Its CPU time passed the limit.
    TimedOut,
    /// Its wall-clock time passed the cap, not counting its waits for a CPU, before its CPU
    /// time reached the limit: it sleeps or blocks.
    WallCap,
    /// Its processes held more memory than the limit.
    MemoryLimit,
    /// It wrote more than the output cap.
    OutputLimit,
    /// It made a call the sandbox forbids, and was ended on it.
    Forbidden(Refusal),
    /// The audit cut it short (its deadline passed, or it was interrupted): the run says
    /// nothing about the program.
    Cut,
}

/// The process groups of the runs in progress.
static GROUPS: Mutex<BTreeSet<i32>> = Mutex::new(BTreeSet::new());

/// Set once the audit is interrupted: no run starts after, and the runs in progress are cut.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Whether the audit was interrupted ([`interrupt`]).
pub fn interrupted() -> bool {
    INTERRUPTED.load(Ordering::SeqCst)
}

/// Whether the audit takes no more runs: it was interrupted, or `deadline` has passed.
pub fn past(deadline: Option<Instant>) -> bool {
    interrupted() || deadline.is_some_and(|d| Instant::now() >= d)
}

/// Ends every run in progress (their whole process groups) and refuses new ones; what escaped
/// the groups is left to [`Reaper`].
pub fn interrupt() {
    INTERRUPTED.store(true, Ordering::SeqCst);
    let groups = GROUPS.lock().unwrap_or_else(|e| e.into_inner());
    for &group in groups.iter() {
        if let Some(pid) = Pid::from_raw(group) {
            let _ = rustix::process::kill_process_group(pid, Signal::KILL);
        }
    }
}

/// What one run did.
#[derive(Debug, Clone)]
pub struct Run {
    /// How it ended.
    pub ending: Ending,
    /// Its standard output (at most the cap).
    pub stdout: Vec<u8>,
    /// The end of its standard error.
    pub stderr_tail: Vec<u8>,
    /// Wall-clock time, start to end.
    pub elapsed: Duration,
    /// CPU time: user and system time of its processes and of the children they waited for.
    pub cpu: Duration,
    /// The most memory its processes held together, in bytes: the highest reading while it
    /// ran, or its largest process's high-water mark when that is more.
    pub memory: u64,
}

impl Run {
    /// A run the audit cut before it started.
    fn cut() -> Run {
        Run::ended(Ending::Cut, b"")
    }

    /// A run that ended as `ending` having printed `stdout`, and used no time or memory.
    pub(crate) fn ended(ending: Ending, stdout: &[u8]) -> Run {
        Run {
            ending,
            stdout: stdout.to_vec(),
            stderr_tail: Vec::new(),
            elapsed: Duration::ZERO,
            cpu: Duration::ZERO,
            memory: 0,
        }
    }

    /// How a run that timed out was stopped, in words: `killed after 2.00 s of CPU time`, or
    /// `stopped by the wall-clock cap after 6.0 s, having used 0.01 s of CPU time`; empty for
    /// other runs.
    pub fn stopped(&self) -> String {
        match self.ending {
            Ending::TimedOut => format!("killed after {:.2} s of CPU time", self.cpu.as_secs_f64()),
            Ending::WallCap => format!(
                "stopped by the wall-clock cap after {:.1} s, having used {:.2} s of CPU time \
                 (it sleeps or blocks)",
                self.elapsed.as_secs_f64(),
                self.cpu.as_secs_f64()
            ),
            Ending::MemoryLimit => format!(
                "killed holding {} of memory, over the limit",
                mebibytes(self.memory)
            ),
            Ending::Forbidden(refusal) => {
                format!("ended on a call the sandbox forbids: {}", refusal.call)
            }
            _ => String::new(),
        }
    }
}

/// `bytes` in MiB, in words (`2048.0 MiB`).
pub fn mebibytes(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / f64::from(1 << 20))
}

/// A program to run: its command line, split into words as a shell would, run directly, and
/// its confinement (none with `--unconfined`).
#[derive(Debug, Clone)]
pub struct Program {
    /// The words run.
    argv: Vec<String>,
    /// The words as given (shown in reports and reproducing commands).
    shown: Vec<String>,
    jail: Option<Arc<Jail>>,
}

/// A command line that names no program.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// Quotes that do not close.
    #[error("cannot split the command '{command}' into words (unbalanced quotes?)")]
    Unbalanced {
        /// The command line.
        command: String,
    },
    /// No word at all.
    #[error("the command is empty")]
    Empty,
}

impl Program {
    /// The program of a command line (`PROGRAM [ARGS...]`, quotes honoured), unconfined.
    pub fn parse(command: &str) -> Result<Program, CommandError> {
        let argv = shlex::split(command).ok_or_else(|| CommandError::Unbalanced {
            command: command.into(),
        })?;
        if argv.is_empty() {
            return Err(CommandError::Empty);
        }
        Ok(Program::from_argv(argv))
    }

    /// The program of `argv` (at least one word), unconfined.
    pub fn from_argv(argv: Vec<String>) -> Program {
        assert!(!argv.is_empty(), "a program has a name");
        Program {
            shown: argv.clone(),
            argv,
            jail: None,
        }
    }

    /// This program confined in `sandbox`, writing in a scratch of its own each run. The words
    /// of its command that name an existing file or directory are its own files (whoever wrote
    /// the command named them): it reads them, and gets them as absolute paths, since it runs
    /// in its scratch. The first word, when it has no `/`, is a command looked up on the
    /// sandbox's `PATH`.
    pub fn confined(&self, sandbox: &Arc<Sandbox>) -> Program {
        let mut argv = Vec::with_capacity(self.argv.len());
        let mut reads = Vec::new();
        for (i, word) in self.argv.iter().enumerate() {
            let path = Path::new(word);
            let looked_up = i == 0 && !word.contains('/');
            match std::path::absolute(path) {
                Ok(absolute) if !looked_up && !word.is_empty() && path.exists() => {
                    argv.push(absolute.display().to_string());
                    reads.push(absolute);
                }
                _ => argv.push(word.clone()),
            }
        }
        Program {
            argv,
            shown: self.shown.clone(),
            jail: Some(Arc::new(Jail::new(sandbox, reads, Workspace::Tmpfs))),
        }
    }

    /// The program of `argv` confined in `sandbox`, reading `reads`, writing in `workspace`.
    pub fn in_jail(
        argv: Vec<String>,
        sandbox: &Arc<Sandbox>,
        reads: Vec<PathBuf>,
        workspace: Workspace,
    ) -> Program {
        Program {
            jail: Some(Arc::new(Jail::new(sandbox, reads, workspace))),
            ..Program::from_argv(argv)
        }
    }

    /// The command line as given, quoted back for a shell (for reproducing commands).
    pub fn display(&self) -> String {
        shlex::try_join(self.shown.iter().map(String::as_str))
            .unwrap_or_else(|_| self.shown.join(" "))
    }

    /// Its words, as given.
    pub fn words(&self) -> &[String] {
        &self.shown
    }

    /// Starts the program within `limits`: the child, and when it is confined the listener of
    /// its forbidden calls and its cell (to keep until the run has ended).
    fn spawn(&self, limits: &Limits) -> io::Result<(Child, Option<(OwnedFd, sandbox::Cell)>)> {
        let mut command = Command::new(&self.argv[0]);
        command
            .args(&self.argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
        let bounds = sandbox::Limits {
            memory: limits.memory,
            output: limits.max_output as u64,
        };
        let mut cell = match &self.jail {
            Some(jail) => Some(jail.prepare(&mut command, &bounds)?),
            None => {
                sandbox::limit_unconfined(&mut command, &bounds);
                None
            }
        };
        if limits.padding > 0 {
            command.env(PADDING_VARIABLE, "x".repeat(limits.padding));
        }
        let child = command.spawn().map_err(|e| self.explained(e))?;
        let confined = match cell.take() {
            Some(mut cell) => {
                let listener = cell.listener()?.ok_or_else(|| {
                    io::Error::other("the sandbox's listener of forbidden calls did not come back")
                })?;
                Some((listener, cell))
            }
            None => None,
        };
        Ok((child, confined))
    }

    /// `e`, with what the sandbox's identity means for it when it is a refusal to run.
    fn explained(&self, e: io::Error) -> io::Error {
        match &self.jail {
            Some(jail)
                if jail.sandbox().as_nobody() && e.kind() == io::ErrorKind::PermissionDenied =>
            {
                io::Error::new(
                    e.kind(),
                    format!(
                        "{e}: as root, programs run as nobody (uid {}), so the program and the \
                         directories above it must be readable by all",
                        sandbox::NOBODY
                    ),
                )
            }
            _ => e,
        }
    }

    /// Runs the program on `input` within `limits`, cut at `deadline` if it is still running
    /// then ([`Ending::Cut`]; also after [`interrupt`]). An error means it could not be
    /// started (not found, not executable, not confined).
    pub fn run(&self, input: &[u8], limits: &Limits, deadline: Option<Instant>) -> io::Result<Run> {
        let started = Instant::now();
        if past(deadline) {
            return Ok(Run::cut());
        }
        let (mut child, confined) = self.spawn(limits)?;
        let (refusals, _cell) = confined.map_or((None, None), |(l, c)| (Some(l), Some(c)));
        let pid = Pid::from_child(&child);
        let group = pid.as_raw_nonzero().get();
        GROUPS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(group);
        // An interruption that came before the group was registered did not see it: the run
        // ends its own group (the watch below then cuts it).
        if interrupted() {
            let _ = rustix::process::kill_process_group(pid, Signal::KILL);
        }
        let watched = Watch::new(&mut child, pid, input, limits, refusals, started, deadline)
            .and_then(Watch::run);
        // However the run went, nothing of the program's process group survives it.
        let _ = rustix::process::kill_process_group(pid, Signal::KILL);
        // Its CPU time is read once it has exited, before it is reaped.
        let exited = rustix::process::waitid(
            rustix::process::WaitId::Pid(pid),
            rustix::process::WaitIdOptions::EXITED | rustix::process::WaitIdOptions::NOWAIT,
        );
        let own = process_usage(group);
        let reaped = reap(group);
        GROUPS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&group);
        exited?;
        let (status, high_water) = reaped?;
        let watched = watched?;
        let cpu = own.cpu.max(watched.usage.cpu);
        let memory = watched.peak.max(high_water);
        let ending = match watched.ending {
            Some(Ending::Cut) => Ending::Cut,
            Some(ending @ (Ending::MemoryLimit | Ending::Forbidden(_))) => ending,
            None if memory > limits.memory => Ending::MemoryLimit,
            _ if cpu > limits.cpu => Ending::TimedOut,
            Some(ending) => ending,
            None => match (status.code(), status.signal()) {
                (Some(code), _) => Ending::Exited(code),
                (None, Some(signal)) => Ending::Signalled(signal),
                (None, None) => Ending::Exited(-1),
            },
        };
        Ok(Run {
            ending,
            stdout: watched.stdout,
            stderr_tail: watched.stderr_tail,
            elapsed: started.elapsed(),
            cpu,
            memory,
        })
    }
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

/// Reads what is available from a non-blocking pipe: `Ok(true)` at its end.
fn drain(pipe: &mut impl Read, buf: &mut [u8], mut take: impl FnMut(&[u8])) -> io::Result<bool> {
    loop {
        match pipe.read(buf) {
            Ok(0) => return Ok(true),
            Ok(n) => take(&buf[..n]),
            Err(e) if e.kind() == io::ErrorKind::WouldBlock => return Ok(false),
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
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
    /// The pidfd, until the program exits.
    Exit,
    /// The listener of the forbidden calls, while the run is confined.
    Refusals,
}

/// What the watch saw: `ending` when the watch ended the run, the outputs, the group's last
/// usage read and the most memory read.
struct Watched {
    ending: Option<Ending>,
    stdout: Vec<u8>,
    stderr_tail: Vec<u8>,
    usage: Usage,
    peak: u64,
}

/// Watching one run: feeding its input, collecting its outputs, holding it to its limits.
struct Watch<'a> {
    group: i32,
    pidfd: OwnedFd,
    input: &'a [u8],
    fed: usize,
    stdin: Option<ChildStdin>,
    stdout: Option<ChildStdout>,
    stderr: Option<ChildStderr>,
    refusals: Option<OwnedFd>,
    out: Vec<u8>,
    tail: Tail,
    buf: Vec<u8>,
    limits: &'a Limits,
    started: Instant,
    /// The audit's deadline.
    cut_at: Option<Instant>,
    exited_at: Option<Instant>,
    usage: Usage,
    peak: u64,
    next_sample: Instant,
    /// How long this thread had waited for a CPU when the run started: a program whose input
    /// or output waits on a busy audit is not blamed for that wait either.
    watch_waited: Duration,
}

/// Once the program has exited, what still holds its pipes open (a forked child) gets this
/// long, then the group is killed; after ten times as long, the pipes are no longer listened to.
const GRACE: Duration = Duration::from_millis(20);

/// The longest the watch sleeps, so that it notices an interruption.
const WAKE: Duration = Duration::from_millis(50);

impl<'a> Watch<'a> {
    fn new(
        child: &mut Child,
        pid: Pid,
        input: &'a [u8],
        limits: &'a Limits,
        refusals: Option<OwnedFd>,
        started: Instant,
        cut_at: Option<Instant>,
    ) -> io::Result<Watch<'a>> {
        let pidfd = rustix::process::pidfd_open(pid, rustix::process::PidfdFlags::empty())?;
        let stdin = child.stdin.take().filter(|_| !input.is_empty());
        let stdout = child.stdout.take();
        let stderr = child.stderr.take();
        let fds = [
            stdin.as_ref().map(|p| p.as_fd()),
            stdout.as_ref().map(|p| p.as_fd()),
            stderr.as_ref().map(|p| p.as_fd()),
        ];
        for fd in fds.into_iter().flatten() {
            rustix::io::ioctl_fionbio(fd, true)?;
        }
        Ok(Watch {
            group: pid.as_raw_nonzero().get(),
            pidfd,
            input,
            fed: 0,
            stdin,
            stdout,
            stderr,
            refusals,
            out: Vec::new(),
            tail: Tail {
                bytes: Vec::new(),
                cap: limits.stderr_tail,
            },
            buf: vec![0u8; 64 << 10],
            limits,
            started,
            cut_at,
            exited_at: None,
            usage: Usage::default(),
            peak: 0,
            next_sample: started + sample_every(limits.cpu),
            watch_waited: thread_waited(),
        })
    }

    /// Watches until the program exits and its pipes close, or the watch ends the run.
    fn run(mut self) -> io::Result<Watched> {
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
                    let _ = rustix::process::kill_process_group(
                        Pid::from_raw(self.group).expect("a process group"),
                        Signal::KILL,
                    );
                }
                if now >= at + 10 * GRACE {
                    // Something outside the group holds them: stop listening.
                    return Ok(self.done(None));
                }
            }
            for (slot, revents) in self.ready(self.wait(now))? {
                if let Some(ending) = self.serve(slot, revents)? {
                    return Ok(self.done(Some(ending)));
                }
            }
        }
    }

    fn done(self, ending: Option<Ending>) -> Watched {
        Watched {
            ending,
            stdout: self.out,
            stderr_tail: self.tail.finish(),
            usage: self.usage,
            peak: self.peak,
        }
    }

    /// The ending the limits give the run now, if any: cut by the audit, over its memory, over
    /// its CPU time, or over its wall-clock cap (the group's usage read when due).
    fn limit_reached(&mut self, now: Instant) -> Option<Ending> {
        if past(self.cut_at) {
            return Some(Ending::Cut);
        }
        if now < self.next_sample {
            return None;
        }
        self.usage = group_usage(self.group);
        self.next_sample = now + sample_every(self.limits.cpu);
        self.peak = self.peak.max(self.usage.memory);
        if self.usage.memory > self.limits.memory {
            return Some(Ending::MemoryLimit);
        }
        if self.usage.cpu > self.limits.cpu {
            return Some(Ending::TimedOut);
        }
        // Not counted: the program's waits for a CPU, and this watch's (while it waits, the
        // program's input is not fed nor its output read).
        let watch_waited = thread_waited().saturating_sub(self.watch_waited);
        let counted = now
            .saturating_duration_since(self.started)
            .saturating_sub(self.usage.waited.max(watch_waited));
        (counted >= wall_cap(self.limits.cpu)).then_some(Ending::WallCap)
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
            self.exited_at
                .is_none()
                .then(|| (Slot::Exit, self.pidfd.as_fd(), PollFlags::IN)),
            self.refusals
                .as_ref()
                .map(|l| (Slot::Refusals, l.as_fd(), PollFlags::IN)),
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
    fn serve(&mut self, slot: Slot, revents: PollFlags) -> io::Result<Option<Ending>> {
        match slot {
            Slot::Stdin => self.feed(revents),
            Slot::Stdout => {
                let pipe = self.stdout.as_mut().expect("polled");
                let (out, cap) = (&mut self.out, self.limits.max_output);
                let mut over = false;
                let ended = drain(pipe, &mut self.buf, |chunk| {
                    let room = cap.saturating_sub(out.len());
                    out.extend_from_slice(&chunk[..chunk.len().min(room)]);
                    over |= chunk.len() > room;
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
                if drain(pipe, &mut self.buf, |chunk| tail.push(chunk))? {
                    self.stderr = None;
                }
            }
            Slot::Exit => {
                self.exited_at = Some(Instant::now());
                // It no longer reads its input.
                self.stdin = None;
            }
            Slot::Refusals => {
                let listener = self.refusals.as_ref().expect("polled");
                if revents.contains(PollFlags::IN) {
                    if let Some(refusal) = sandbox::seccomp::receive(listener) {
                        return Ok(Some(Ending::Forbidden(refusal)));
                    }
                } else {
                    // Every process of the run is gone.
                    self.refusals = None;
                }
            }
        }
        Ok(None)
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

/// While it lives, this process is the subreaper of its descendants (Linux): a program's
/// descendant that leaves its process group and outlives it becomes a child of the audit. When
/// it is dropped, however the audit ends (its work done, an error, an interruption), every
/// such descendant is ended. The caller's own children are not the audit's: those
/// alive when it was made, and any in the caller's process group (where a program's never is:
/// each runs in a group of its own), are left alone.
#[derive(Debug)]
pub struct Reaper {
    /// The children this process had when the audit began.
    before: BTreeSet<i32>,
}

impl Reaper {
    /// Adopts the orphans of the programs run from now on.
    pub fn adopt() -> Reaper {
        let _ = rustix::process::set_child_subreaper(Some(rustix::process::getpid()));
        Reaper {
            before: children().into_iter().map(|c| c.pid).collect(),
        }
    }

    /// Kills and reaps every child that is an orphan of the audited programs: not one the
    /// caller had before, not in the caller's process group. Each death may hand the audit
    /// more orphans (a double fork), so it scans again until a scan finds none (at most 100
    /// scans).
    fn sweep(&self) {
        // Read from /proc: in a PID namespace whose process group leader lies outside it, the
        // group shows as 0 (which `getpgrp` does not expect).
        let own_group = stat_fields(Path::new("/proc/self/stat")).map_or(0, |(_, group)| group);
        for _ in 0..100 {
            let orphans: Vec<i32> = children()
                .into_iter()
                .filter(|c| c.group != own_group && !self.before.contains(&c.pid))
                .map(|c| c.pid)
                .collect();
            if orphans.is_empty() {
                return;
            }
            for pid in orphans.into_iter().filter_map(Pid::from_raw) {
                let _ = rustix::process::kill_process(pid, Signal::KILL);
                let _ = rustix::process::waitpid(Some(pid), rustix::process::WaitOptions::empty());
            }
        }
    }
}

impl Drop for Reaper {
    fn drop(&mut self) {
        self.sweep();
    }
}

/// A child process of this one.
struct Descendant {
    pid: i32,
    /// Its process group.
    group: i32,
}

/// The children of this process, read from `/proc`.
fn children() -> Vec<Descendant> {
    let me = rustix::process::getpid().as_raw_nonzero().get();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    let mut children = Vec::new();
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<i32>().ok())
        else {
            continue;
        };
        if let Some((parent, group)) = stat_fields(&entry.path().join("stat")) {
            if parent == me {
                children.push(Descendant { pid, group });
            }
        }
    }
    children
}

/// The parent and the process group of the process whose `/proc/PID/stat` is at `path` (0 for
/// one outside this PID namespace).
fn stat_fields(path: &Path) -> Option<(i32, i32)> {
    let stat = std::fs::read_to_string(path).ok()?;
    // The fields after the command name (which may hold spaces, in parentheses): state,
    // parent, process group, ...
    let rest = stat.rsplit_once(") ").map(|(_, r)| r)?;
    let mut fields = rest.split(' ').skip(1).map(|f| f.parse::<i32>().ok());
    Some((fields.next()??, fields.next()??))
}

/// The signal that interrupted the audit (0: none).
static SIGNALLED: std::sync::atomic::AtomicI32 = std::sync::atomic::AtomicI32::new(0);

/// The signal that interrupted the audit, if one did.
pub fn interrupted_by() -> Option<i32> {
    Some(SIGNALLED.load(Ordering::SeqCst)).filter(|&s| s != 0)
}

/// Listens for SIGINT, SIGTERM and SIGHUP while the returned handle lives: the first one
/// [`interrupt`]s the audit (every program's process group killed, no run started after; the
/// audit then writes what it found and returns); a second one ends the process at once.
pub fn interrupt_on_signals() -> io::Result<signal_hook::iterator::Handle> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP])?;
    let handle = signals.handle();
    std::thread::spawn(move || {
        for signal in signals.forever() {
            if SIGNALLED.swap(signal, Ordering::SeqCst) != 0 {
                interrupt();
                std::process::exit(128 + signal);
            }
            interrupt();
        }
    });
    Ok(handle)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits(cpu_ms: u64) -> Limits {
        Limits {
            cpu: Duration::from_millis(cpu_ms),
            memory: 1 << 30,
            max_output: 1 << 16,
            stderr_tail: 64,
            padding: 0,
        }
    }

    fn sh(script: &str) -> Program {
        Program::from_argv(vec!["sh".into(), "-c".into(), script.into()])
    }

    #[test]
    fn a_program_reads_its_input_and_exits() {
        let run = sh("cat; echo done >&2; exit 3")
            .run(b"hello\n", &limits(5000), None)
            .unwrap();
        assert_eq!(run.ending, Ending::Exited(3));
        assert_eq!(run.stdout, b"hello\n");
        assert_eq!(run.stderr_tail, b"done\n");
    }

    #[test]
    fn hostile_programs_are_ended() {
        // Endless output: ended at the cap.
        let run = sh("yes").run(b"", &limits(5000), None).unwrap();
        assert_eq!(run.ending, Ending::OutputLimit);
        assert_eq!(run.stdout.len(), 1 << 16);
        // A child left sleeping with the pipes open: the run still ends with the program.
        let run = sh("sleep 30 & echo ok")
            .run(b"", &limits(5000), None)
            .unwrap();
        assert_eq!(
            (run.ending, run.stdout.as_slice()),
            (Ending::Exited(0), &b"ok\n"[..])
        );
        // Standard input closed at once, a large input unread.
        let run = sh("exec 0<&-; echo closed")
            .run(&vec![b'x'; 1 << 22], &limits(5000), None)
            .unwrap();
        assert_eq!(run.stdout, b"closed\n");
        // A signal.
        let run = sh("kill -SEGV $$").run(b"", &limits(5000), None).unwrap();
        assert_eq!(run.ending, Ending::Signalled(11));
        // More environment, when asked.
        let padded = Limits {
            padding: 1000,
            ..limits(5000)
        };
        let run = sh("printf %s \"$REFEREE_PADDING\" | wc -c")
            .run(b"", &padded, None)
            .unwrap();
        assert_eq!(String::from_utf8_lossy(&run.stdout).trim(), "1000");
        // Standard error of any length: its end is kept.
        let run = sh("yes e | head -c 100000 >&2")
            .run(b"", &limits(5000), None)
            .unwrap();
        assert_eq!(run.stderr_tail.len(), 64);
    }

    #[test]
    fn cpu_time_is_the_limit_and_wall_time_only_caps() {
        // Burning CPU, in the program or in a child it has not waited for yet: past the limit
        // of CPU time, whatever else runs on the machine.
        for burner in [
            "while :; do :; done",
            "sh -c 'while :; do :; done'; echo never",
        ] {
            let run = sh(burner).run(b"", &limits(300), None).unwrap();
            assert_eq!(run.ending, Ending::TimedOut, "{burner}");
            assert!(run.cpu > Duration::from_millis(300), "{burner}: {run:?}");
            assert!(
                run.stopped().starts_with("killed after"),
                "{}",
                run.stopped()
            );
        }
        // Sleeping: no CPU time used; stopped by the wall-clock cap (three times the limit).
        let run = sh("sleep 30").run(b"", &limits(200), None).unwrap();
        assert_eq!(run.ending, Ending::WallCap);
        assert!(run.elapsed >= Duration::from_millis(600), "{run:?}");
        assert!(run.cpu < Duration::from_millis(200), "{run:?}");
        assert!(
            run.stopped().contains("wall-clock cap"),
            "{}",
            run.stopped()
        );
        // A program that finishes over its CPU time is over the limit all the same.
        let run = sh("i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; echo late")
            .run(b"", &limits(1), None)
            .unwrap();
        assert_eq!(run.ending, Ending::TimedOut, "{run:?}");
    }

    #[test]
    fn a_deadline_cuts_a_run_without_blaming_the_program() {
        let at = Instant::now() + Duration::from_millis(200);
        let run = sh("sleep 30").run(b"", &limits(20_000), Some(at)).unwrap();
        assert_eq!(run.ending, Ending::Cut);
        // A deadline already passed: the program is not started.
        let run = sh("echo late").run(b"", &limits(5000), Some(at)).unwrap();
        assert_eq!((run.ending, run.stdout.len()), (Ending::Cut, 0));
        // A cap before the deadline is still the program's.
        let far = Instant::now() + Duration::from_secs(60);
        let run = sh("sleep 30").run(b"", &limits(200), Some(far)).unwrap();
        assert_eq!(run.ending, Ending::WallCap);
    }

    #[test]
    fn memory_over_the_limit_ends_the_run() {
        // 400 MiB written under a 100 MiB limit: read while it runs, the run ends there.
        let hog =
            |script: &str| Program::from_argv(vec!["python3".into(), "-c".into(), script.into()]);
        let limits = Limits {
            memory: 100 << 20,
            ..limits(30_000)
        };
        let run = hog("x = b'x' * (400 << 20)\nimport time\ntime.sleep(30)")
            .run(b"", &limits, None)
            .unwrap();
        assert_eq!(run.ending, Ending::MemoryLimit, "{run:?}");
        assert!(run.memory > 100 << 20, "{run:?}");
        assert!(
            run.stopped().contains("over the limit"),
            "{}",
            run.stopped()
        );
        // Under it, the run is the program's and its memory is measured.
        let run = hog("x = b'x' * (20 << 20)\nprint(len(x))")
            .run(b"", &limits, None)
            .unwrap();
        assert_eq!(run.ending, Ending::Exited(0), "{run:?}");
        assert!(run.memory > 20 << 20 && run.memory < 100 << 20, "{run:?}");
    }

    #[test]
    fn a_confined_run_is_held_to_its_sandbox() {
        let sandbox = Sandbox::probe(&[]).expect("the sandbox works on the test machine");
        let confined = |script: &str| sh(script).confined(&sandbox);
        // A forbidden call ends the run, named.
        let run = confined(
            "exec python3 -c 'import socket; socket.socket().connect((\"127.0.0.1\", 9))'",
        )
        .run(b"", &limits(10_000), None)
        .unwrap();
        assert_eq!(
            run.ending,
            Ending::Forbidden(Refusal { call: "connect" }),
            "{run:?}"
        );
        assert!(run.stopped().contains("connect"), "{}", run.stopped());
        // It writes in its scratch, its working directory, and nowhere else; it sees none of
        // the auditor's environment.
        let run = confined(
            "echo kept > here && cat here; touch /etc/referee-test 2>/dev/null || echo refused; \
             [ \"$HOME\" = \"$(pwd)\" ] && echo home; echo \"${CARGO:-none}\"",
        )
        .run(b"", &limits(10_000), None)
        .unwrap();
        assert_eq!(
            String::from_utf8_lossy(&run.stdout),
            "kept\nrefused\nhome\nnone\n",
            "{run:?}"
        );
        assert!(!Path::new("/etc/referee-test").exists());
    }

    #[test]
    fn programs_that_cannot_start_are_errors() {
        let missing = Program::parse("/nonexistent/judge --flag").unwrap();
        assert!(missing.run(b"", &limits(1000), None).is_err());
        assert_eq!(
            Program::parse("a 'b c' \"d\"").unwrap().argv,
            ["a", "b c", "d"]
        );
        assert!(Program::parse("a 'b").is_err());
        assert!(Program::parse("  ").is_err());
    }
}
