//! Running someone else's program on one input, so that nothing it does can hang the audit,
//! grow its memory, or outlive it.
//!
//! The program runs in a process group of its own, executed directly (no shell), with the input
//! on its standard input. One thread watches it with `poll` on its three pipes and a pidfd: it
//! feeds standard input as the program reads it (a program that closes it early, or reads
//! nothing, just stops the feeding), keeps standard output up to a cap (beyond it the run ends:
//! `output-limit`), keeps the last bytes of standard error, and ends the run at the wall-clock
//! timeout. However the run ends, the whole process group is killed, so a forked child that
//! sleeps on, or keeps the pipes open, goes with it; a descendant that left the group is reaped
//! by [`sweep`], the audit being their subreaper.
//!
//! Every process group alive is registered, so that an interrupted audit ends them all
//! ([`interrupt`]): the runs in progress then end as [`Ending::Cut`], and no run starts after.

use std::collections::BTreeSet;
use std::io::{self, Read, Write};
use std::os::fd::AsFd;
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use rustix::event::{poll, PollFd, PollFlags, Timespec};
use rustix::process::{Pid, Signal};

/// How a run is bounded.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// Wall-clock time before the run is ended.
    pub timeout: Duration,
    /// The most bytes of standard output kept; more ends the run.
    pub max_output: usize,
    /// How many of the last bytes of standard error are kept.
    pub stderr_tail: usize,
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ending {
    /// The program exited with this code.
    Exited(i32),
    /// A signal ended it.
    Signalled(i32),
    /// It ran past the timeout.
    TimedOut,
    /// It wrote more than the output cap.
    OutputLimit,
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

/// Ends every run in progress (their whole process groups) and refuses new ones; what escaped
/// the groups is left to [`sweep`].
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
}

/// A program to run: its command line, split into words as a shell would, run directly.
#[derive(Debug, Clone)]
pub struct Program {
    argv: Vec<String>,
}

impl Program {
    /// The program of a command line (`PROGRAM [ARGS...]`, quotes honoured).
    pub fn parse(command: &str) -> Result<Program, String> {
        let argv = shlex::split(command).ok_or_else(|| {
            format!("cannot split the command '{command}' into words (unbalanced quotes?)")
        })?;
        if argv.is_empty() {
            return Err("the command is empty".into());
        }
        Ok(Program { argv })
    }

    /// The program of `argv` (at least one word).
    pub fn from_argv(argv: Vec<String>) -> Program {
        assert!(!argv.is_empty(), "a program has a name");
        Program { argv }
    }

    /// The command line, quoted back for a shell (for reproducing commands).
    pub fn display(&self) -> String {
        shlex::try_join(self.argv.iter().map(String::as_str))
            .unwrap_or_else(|_| self.argv.join(" "))
    }

    fn spawn(&self) -> io::Result<Child> {
        Command::new(&self.argv[0])
            .args(&self.argv[1..])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0)
            .spawn()
    }

    /// Runs the program on `input` within `limits`, cut at `deadline` if it is still running
    /// then ([`Ending::Cut`]; also after [`interrupt`]). An error means it could not be
    /// started (not found, not executable).
    pub fn run(&self, input: &[u8], limits: &Limits, deadline: Option<Instant>) -> io::Result<Run> {
        let started = Instant::now();
        let cut = || Run {
            ending: Ending::Cut,
            stdout: Vec::new(),
            stderr_tail: Vec::new(),
            elapsed: Duration::ZERO,
        };
        if interrupted() || deadline.is_some_and(|d| started >= d) {
            return Ok(cut());
        }
        let mut child = self.spawn()?;
        let pid = Pid::from_child(&child);
        GROUPS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(pid.as_raw_nonzero().get());
        // An interruption that came before the group was registered did not see it: the run
        // ends its own group (the watch below then cuts it).
        if interrupted() {
            let _ = rustix::process::kill_process_group(pid, Signal::KILL);
        }
        let watched = watch(&mut child, pid, input, limits, started, deadline);
        // However the run went, nothing of the program's process group survives it.
        let _ = rustix::process::kill_process_group(pid, Signal::KILL);
        let status = child.wait();
        GROUPS
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(&pid.as_raw_nonzero().get());
        let status = status?;
        let (mut ending, stdout, stderr_tail) = watched?;
        if ending.is_none() {
            ending = Some(match (status.code(), status.signal()) {
                (Some(code), _) => Ending::Exited(code),
                (None, Some(signal)) => Ending::Signalled(signal),
                (None, None) => Ending::Exited(-1),
            });
        }
        Ok(Run {
            ending: ending.expect("set above"),
            stdout,
            stderr_tail,
            elapsed: started.elapsed(),
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

type Watched = (Option<Ending>, Vec<u8>, Vec<u8>);

/// Feeds the input, collects the outputs and waits for the program, until it exits and its
/// pipes close, the timeout passes, or the output cap is passed. `Some(ending)` when the run
/// was ended by the watch.
fn watch(
    child: &mut Child,
    pid: Pid,
    input: &[u8],
    limits: &Limits,
    started: Instant,
    cut_at: Option<Instant>,
) -> io::Result<Watched> {
    let pidfd = rustix::process::pidfd_open(pid, rustix::process::PidfdFlags::empty())?;
    let mut stdin = child.stdin.take();
    let mut stdout = child.stdout.take();
    let mut stderr = child.stderr.take();
    for fd in [
        stdin.as_ref().map(|p| p.as_fd()),
        stdout.as_ref().map(|p| p.as_fd()),
        stderr.as_ref().map(|p| p.as_fd()),
    ]
    .into_iter()
    .flatten()
    {
        rustix::io::ioctl_fionbio(fd, true)?;
    }
    let mut fed = 0;
    if input.is_empty() {
        stdin = None;
    }
    let mut out = Vec::new();
    let mut tail = Tail {
        bytes: Vec::new(),
        cap: limits.stderr_tail,
    };
    let mut buf = vec![0u8; 64 << 10];
    let mut exited_at: Option<Instant> = None;
    let timeout_at = started + limits.timeout;
    let deadline = cut_at.map_or(timeout_at, |c| c.min(timeout_at));
    loop {
        if stdout.is_none() && stderr.is_none() && exited_at.is_some() {
            return Ok((None, out, tail.finish()));
        }
        let now = Instant::now();
        if interrupted() || (now >= deadline && deadline < timeout_at) {
            return Ok((Some(Ending::Cut), out, tail.finish()));
        }
        if now >= deadline {
            return Ok((Some(Ending::TimedOut), out, tail.finish()));
        }
        // Once the program has exited, what still holds its pipes open (a forked child) gets a
        // moment, then the group is killed; the pipes then close.
        // Woken at least every 50 ms to notice an interruption.
        let mut wait = (deadline - now).min(Duration::from_millis(50));
        if let Some(at) = exited_at {
            let grace = Duration::from_millis(20);
            if now >= at + grace {
                let _ = rustix::process::kill_process_group(pid, Signal::KILL);
                if now >= at + 10 * grace {
                    // Something outside the group holds them: stop listening.
                    return Ok((None, out, tail.finish()));
                }
            }
            wait = wait.min(grace);
        }
        let mut fds: Vec<PollFd> = Vec::with_capacity(4);
        let slots = [
            stdin.as_ref().map(|p| (p.as_fd(), PollFlags::OUT)),
            stdout.as_ref().map(|p| (p.as_fd(), PollFlags::IN)),
            stderr.as_ref().map(|p| (p.as_fd(), PollFlags::IN)),
            exited_at.is_none().then(|| (pidfd.as_fd(), PollFlags::IN)),
        ];
        let mut which = Vec::with_capacity(4);
        for (i, slot) in slots.iter().enumerate() {
            if let Some((fd, flags)) = slot {
                fds.push(PollFd::from_borrowed_fd(*fd, *flags));
                which.push(i);
            }
        }
        let timeout = Timespec::try_from(wait).unwrap_or(Timespec {
            tv_sec: 1,
            tv_nsec: 0,
        });
        match poll(&mut fds, Some(&timeout)) {
            Ok(_) => {}
            Err(rustix::io::Errno::INTR) => continue,
            Err(e) => return Err(e.into()),
        }
        let ready: Vec<(usize, PollFlags)> = which
            .iter()
            .zip(&fds)
            .map(|(&i, fd)| (i, fd.revents()))
            .filter(|(_, r)| !r.is_empty())
            .collect();
        drop(fds);
        for (i, revents) in ready {
            match i {
                0 => {
                    let pipe = stdin.as_mut().expect("polled");
                    let done = if revents.intersects(PollFlags::ERR | PollFlags::HUP) {
                        true
                    } else {
                        match pipe.write(&input[fed..]) {
                            Ok(n) => {
                                fed += n;
                                fed == input.len()
                            }
                            Err(e) if e.kind() == io::ErrorKind::WouldBlock => false,
                            Err(e) if e.kind() == io::ErrorKind::Interrupted => false,
                            // The program closed its standard input: it reads no more.
                            Err(_) => true,
                        }
                    };
                    if done {
                        stdin = None;
                    }
                }
                1 => {
                    let pipe = stdout.as_mut().expect("polled");
                    let mut over = false;
                    let ended = drain(pipe, &mut buf, |chunk| {
                        let room = limits.max_output.saturating_sub(out.len());
                        out.extend_from_slice(&chunk[..chunk.len().min(room)]);
                        over |= chunk.len() > room;
                    })?;
                    if over {
                        return Ok((Some(Ending::OutputLimit), out, tail.finish()));
                    }
                    if ended {
                        stdout = None;
                    }
                }
                2 => {
                    let pipe = stderr.as_mut().expect("polled");
                    if drain(pipe, &mut buf, |chunk| tail.push(chunk))? {
                        stderr = None;
                    }
                }
                _ => {
                    exited_at = Some(Instant::now());
                    // It no longer reads its input.
                    stdin = None;
                }
            }
        }
    }
}

/// While it lives, this process is the subreaper of its descendants (Linux): a program's
/// descendant that leaves its process group and outlives it becomes a child of the audit. When
/// it is dropped, however the audit ends (its work done, an error, an interruption), every
/// such descendant is ended ([`sweep`]).
#[derive(Debug)]
pub struct Reaper(());

impl Reaper {
    /// Adopts the orphans of the programs run from now on.
    pub fn adopt() -> Reaper {
        let _ = rustix::process::set_child_subreaper(Some(rustix::process::getpid()));
        Reaper(())
    }
}

impl Drop for Reaper {
    fn drop(&mut self) {
        sweep();
    }
}

/// Kills and reaps every process whose parent is this one: the descendants of audited programs
/// that escaped their process group, and came to the audit, their subreaper, when their
/// parents died. Called when no program is running. Each death may hand the audit more
/// orphans (a double fork), so it scans again until a scan finds none (at most 100 scans).
pub fn sweep() {
    for _ in 0..100 {
        if sweep_once() == 0 {
            return;
        }
    }
}

/// One scan of [`sweep`]: the children killed.
fn sweep_once() -> usize {
    let me = rustix::process::getpid().as_raw_nonzero().get();
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    let mut killed = 0;
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|s| s.parse::<i32>().ok())
        else {
            continue;
        };
        let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
            continue;
        };
        // The fields after the command name (which may hold spaces, in parentheses).
        let Some(rest) = stat.rsplit_once(") ").map(|(_, r)| r) else {
            continue;
        };
        let parent: Option<i32> = rest.split(' ').nth(1).and_then(|p| p.parse().ok());
        if parent == Some(me) {
            if let Some(pid) = Pid::from_raw(pid) {
                let _ = rustix::process::kill_process(pid, Signal::KILL);
                let _ = rustix::process::waitpid(Some(pid), rustix::process::WaitOptions::empty());
                killed += 1;
            }
        }
    }
    killed
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

    fn limits(timeout_ms: u64) -> Limits {
        Limits {
            timeout: Duration::from_millis(timeout_ms),
            max_output: 1 << 16,
            stderr_tail: 64,
        }
    }

    fn sh(script: &str) -> Program {
        Program {
            argv: vec!["sh".into(), "-c".into(), script.into()],
        }
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
        // Endless sleep: ended at the timeout.
        let run = sh("sleep 30").run(b"", &limits(200), None).unwrap();
        assert_eq!(run.ending, Ending::TimedOut);
        assert!(run.elapsed < Duration::from_secs(5));
        // A child left sleeping with the pipes open: the run still ends with the program.
        let run = sh("sleep 30 & echo ok")
            .run(b"", &limits(5000), None)
            .unwrap();
        assert_eq!(
            (run.ending, run.stdout.as_slice()),
            (Ending::Exited(0), &b"ok\n"[..])
        );
        assert!(run.elapsed < Duration::from_secs(2), "{:?}", run.elapsed);
        // Standard input closed at once, a large input unread.
        let run = sh("exec 0<&-; echo closed")
            .run(&vec![b'x'; 1 << 22], &limits(5000), None)
            .unwrap();
        assert_eq!(run.stdout, b"closed\n");
        // A signal.
        let run = sh("kill -SEGV $$").run(b"", &limits(5000), None).unwrap();
        assert_eq!(run.ending, Ending::Signalled(11));
        // Standard error of any length: its end is kept.
        let run = sh("yes e | head -c 100000 >&2")
            .run(b"", &limits(5000), None)
            .unwrap();
        assert_eq!(run.stderr_tail.len(), 64);
    }

    #[test]
    fn a_deadline_cuts_a_run_without_blaming_the_program() {
        let at = Instant::now() + Duration::from_millis(200);
        let run = sh("sleep 30").run(b"", &limits(20_000), Some(at)).unwrap();
        assert_eq!(run.ending, Ending::Cut);
        // A deadline already passed: the program is not started.
        let run = sh("echo late").run(b"", &limits(5000), Some(at)).unwrap();
        assert_eq!((run.ending, run.stdout.len()), (Ending::Cut, 0));
        // A timeout before the deadline is still the program's timeout.
        let far = Instant::now() + Duration::from_secs(60);
        let run = sh("sleep 30").run(b"", &limits(200), Some(far)).unwrap();
        assert_eq!(run.ending, Ending::TimedOut);
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
