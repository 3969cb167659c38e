//! Running someone else's program on one input, so that nothing it does can hang the caller,
//! grow its memory, reach outside its run, or outlive it.
//!
//! The program is executed directly (no shell), with the input on its standard input, confined
//! by its [`Jail`] unless it runs unconfined. One thread watches it ([`crate::watch`]): it
//! feeds standard input as the program reads it, keeps standard output up to a cap (beyond
//! it the run ends: `output-limit`) and the last bytes of standard error, ends the run on a
//! forbidden call ([`Ending::Forbidden`]), and holds the run to its limits as judge systems
//! do: the **CPU time** of every thread of every process of the run (past the limit, the run
//! ends as [`Ending::TimedOut`]), the **memory** the run holds ([`Ending::MemoryLimit`]), and a
//! **wall-clock cap** of [`WALL_FACTOR`] times the CPU limit, not counting the time the
//! program waited for a CPU (nor the time the watch did, during which its input is not fed),
//! for a program that sleeps or blocks ([`Ending::WallCap`]).
//!
//! A confined run is its own PID namespace ([`crate::child`]): when the program ends, or the
//! run is ended, every process of it ends, and the CPU time and memory of the run are those
//! of all of them, counted by the kernel ([`crate::cgroup`]) where the machine allows it, else
//! read from `/proc` ([`crate::proc`]) and, once it has ended, from what its init reaped. An
//! unconfined run is the program's process group, killed when it ends; what leaves the group is
//! left to [`crate::Reaper`].

use std::io;
use std::os::fd::{AsRawFd, OwnedFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal};

use crate::child::Record;
use crate::interrupt::{kill_group, past, Registered};
use crate::sandbox::{self, copy_tree, Jail, Sandbox, Workspace};
use crate::seccomp::{Refusal, Watching};
use crate::watch::{Meter, Watch};

/// How many times the CPU time limit a run's wall-clock time may reach, not counting the time
/// its processes waited for a CPU, before the run is stopped: the cap for programs that sleep
/// or block (as DMOJ's `wall_time_factor`, 3 by default).
pub const WALL_FACTOR: u32 = 3;

/// The wall-clock cap of a run held to `cpu_limit` of CPU time.
pub fn wall_cap(cpu_limit: Duration) -> Duration {
    cpu_limit * WALL_FACTOR
}

/// How a run is bounded.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    /// The CPU time the run may take (every thread of every process of it): the time limit.
    /// Its wall-clock time is capped at [`wall_cap`] of it.
    pub cpu: Duration,
    /// The bytes of memory the run may hold; more ends the run ([`Ending::MemoryLimit`]). The
    /// stack may grow as large.
    pub memory: u64,
    /// The most bytes of standard output kept; more ends the run. Confined, also the size of
    /// its scratch and of the largest file it writes.
    pub max_output: usize,
    /// How many of the last bytes of standard error are kept.
    pub stderr_tail: usize,
    /// Bytes of environment the run gets beyond its own (variable [`PADDING_VARIABLE`]): a case
    /// that crashes past a buffer's end on the stack must crash with more environment above
    /// the stack too.
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
    /// It held more memory than the limit.
    MemoryLimit,
    /// It wrote more than the output cap.
    OutputLimit,
    /// It made a call the sandbox forbids, and was ended on it.
    Forbidden(Refusal),
    /// The caller cut it short (its deadline passed, or it was interrupted): the run says
    /// nothing about the program.
    Cut,
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
    /// CPU time: every thread of every process of the run.
    pub cpu: Duration,
    /// The CPU time the run cost: `cpu`, and where the kernel accounts the run (control
    /// groups), the sandbox's own work for it too (the run's first processes before the
    /// program's `exec`, as its groups were charged), at least `cpu`.
    pub cost: Duration,
    /// The most memory the run held, in bytes.
    pub memory: u64,
    /// A build's files ([`Workspace::Build`]), to copy out.
    pub kept: Option<Arc<Kept>>,
    /// The paths the program asked to open that its sandbox hides, when its opens were
    /// watched ([`Program::run_watched`]), in the order asked.
    pub hidden: Vec<PathBuf>,
}

impl Run {
    /// The run whose watch gave `watched`, ended as `ending` after `cpu` and `memory`.
    fn watched(
        watched: crate::watch::Watched,
        ending: Ending,
        cpu: Duration,
        memory: u64,
        started: Instant,
        kept: Option<Arc<Kept>>,
    ) -> Run {
        Run {
            ending,
            stdout: watched.stdout,
            stderr_tail: watched.stderr_tail,
            elapsed: started.elapsed(),
            cpu,
            cost: cpu,
            memory,
            kept,
            hidden: watched.hidden,
        }
    }

    /// A run cut before it started.
    fn cut() -> Run {
        Run::ended(Ending::Cut, b"")
    }

    /// A run that ended as `ending` having printed `stdout`, and used no time or memory.
    pub fn ended(ending: Ending, stdout: &[u8]) -> Run {
        Run {
            ending,
            stdout: stdout.to_vec(),
            stderr_tail: Vec::new(),
            elapsed: Duration::ZERO,
            cpu: Duration::ZERO,
            cost: Duration::ZERO,
            memory: 0,
            kept: None,
            hidden: Vec::new(),
        }
    }

    /// How a run that a limit stopped was stopped, in words: `killed after 2.00 s of CPU
    /// time`, or `stopped by the wall-clock cap after 6.0 s, having used 0.01 s of CPU time`;
    /// empty for other runs.
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

/// The files a build wrote in its scratch, held after the run (the scratch's tmpfs lives while
/// this does).
#[derive(Debug)]
pub struct Kept(OwnedFd);

impl Kept {
    /// Whether the build filled its scratch (less than a page free).
    pub fn full(&self) -> bool {
        rustix::fs::fstatvfs(&self.0).is_ok_and(|s| s.f_bavail.saturating_mul(s.f_frsize) < 4096)
    }

    /// Copies every regular file and directory of the scratch into `dir` (made), files readable
    /// by all; symbolic links and special files are left out.
    pub fn copy_into(&self, dir: &Path) -> io::Result<()> {
        let root = PathBuf::from(format!("/proc/self/fd/{}/.", self.0.as_raw_fd()));
        let mut budget = sandbox::BUILD_WRITES;
        std::fs::create_dir_all(dir)?;
        for entry in std::fs::read_dir(&root)? {
            let entry = entry?;
            copy_tree(
                &entry.path(),
                &dir.join(entry.file_name()),
                &mut budget,
                false,
            )?;
        }
        Ok(())
    }
}

/// The result of a confined run: its status and own CPU time and peak from the init's `record`
/// (when the program ended on its own), what its control `groups` were charged, and what the
/// watch saw; `kept` what it wrote, when kept.
fn accounted(
    watched: crate::watch::Watched,
    record: Option<Record>,
    groups: Option<&crate::cgroup::RunGroups>,
    limits: &Limits,
    started: Instant,
    kept: Option<OwnedFd>,
) -> Run {
    let (status, own_cpu, own_peak) = match record {
        Some(r) => (
            Some(std::process::ExitStatus::from_raw(r.value)),
            Duration::from_micros(r.cpu_micros),
            r.peak_kib.saturating_mul(1024),
        ),
        None => (None, Duration::ZERO, 0),
    };
    let (charged_cpu, charged_peak, out_of_memory) = match groups {
        Some(groups) => (
            groups.charged().cpu,
            groups.peak_memory(),
            groups.out_of_memory(),
        ),
        None => (Duration::ZERO, 0, false),
    };
    // The init's count when the program ended on its own (the keeper's and the init's own
    // setup aside), else what the run was charged.
    let cpu = if record.is_some() {
        own_cpu
    } else {
        charged_cpu.max(watched.usage.cpu)
    };
    let memory = watched.peak.max(own_peak).max(charged_peak);
    let ending = classify(watched.ending, status, cpu, memory, out_of_memory, limits);
    let kept = kept.map(|fd| Arc::new(Kept(fd)));
    Run {
        cost: charged_cpu.max(cpu),
        ..Run::watched(watched, ending, cpu, memory, started, kept)
    }
}

/// A program to run: its command line, split into words as a shell would, run directly, and
/// its confinement (none when unconfined).
#[derive(Debug, Clone)]
pub struct Program {
    /// The words run.
    argv: Vec<String>,
    /// The words as given (shown in reports and reproducing commands).
    shown: Vec<String>,
    jail: Option<Arc<Jail>>,
}

/// Whether word `i` of a command names one of the program's files: an existing path, and for
/// the first word, one with a `/` (a bare name is a command looked up on `PATH`).
fn names_a_file(i: usize, word: &str) -> bool {
    !word.is_empty() && (i > 0 || word.contains('/')) && Path::new(word).exists()
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
    /// in its scratch; one its user cannot read where it is (as root, under a directory only
    /// root may enter) is copied into the sandbox first ([`Sandbox::stage`]). When the program
    /// is a script (`#!`), its directory is its own too: a wrapper that runs files beside it.
    /// The first word, when it has no `/`, is a command looked up on the sandbox's `PATH`.
    pub fn confined(&self, sandbox: &Arc<Sandbox>) -> io::Result<Program> {
        let mut argv = Vec::with_capacity(self.argv.len());
        let mut reads = Vec::new();
        for (i, word) in self.argv.iter().enumerate() {
            match std::path::absolute(word) {
                Ok(absolute) if names_a_file(i, word) => {
                    let mut own = sandbox.stage(&absolute)?;
                    if i == 0 && is_script(&absolute) {
                        if let Some(dir) = absolute.parent() {
                            let dir = sandbox.stage(dir)?;
                            own = dir.join(absolute.file_name().unwrap_or_default());
                            reads.push(dir);
                        }
                    }
                    argv.push(own.display().to_string());
                    reads.push(own);
                }
                _ => argv.push(word.clone()),
            }
        }
        Ok(Program {
            argv,
            shown: self.shown.clone(),
            jail: Some(Arc::new(Jail::new(sandbox, reads, Workspace::Scratch))),
        })
    }

    /// The existing files and directories its command names, as [`confined`](Self::confined)
    /// counts them its own (the first word only when it has a `/`): what nothing may write.
    pub fn files(&self) -> Vec<PathBuf> {
        (self.argv.iter().enumerate())
            .filter(|(i, word)| names_a_file(*i, word))
            .map(|(_, word)| PathBuf::from(word))
            .collect()
    }

    /// The program of `argv` confined in `sandbox`, reading `reads`, writing in `workspace`;
    /// shown as `shown`.
    pub fn in_jail(
        argv: Vec<String>,
        shown: Vec<String>,
        sandbox: &Arc<Sandbox>,
        reads: Vec<PathBuf>,
        workspace: Workspace,
    ) -> Program {
        Program {
            argv,
            shown,
            jail: Some(Arc::new(Jail::new(sandbox, reads, workspace))),
        }
    }

    /// The same program, confined as it is but reading `more` besides (unconfined, itself).
    pub fn reading(&self, more: &[PathBuf]) -> Program {
        let jail = self.jail.as_ref().map(|jail| {
            let mut reads = jail.reads().to_vec();
            reads.extend(more.iter().cloned());
            Arc::new(Jail::new(jail.sandbox(), reads, jail.workspace()))
        });
        Program {
            jail,
            ..self.clone()
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

    /// Its confinement, if it is confined.
    pub fn jail(&self) -> Option<&Jail> {
        self.jail.as_deref()
    }

    /// Runs the program on `input` within `limits`, cut at `deadline` if it is still running
    /// then ([`Ending::Cut`]; also after [`crate::interrupt()`]). An error means it could not be
    /// started (not found, not executable, not confined).
    pub fn run(&self, input: &[u8], limits: &Limits, deadline: Option<Instant>) -> io::Result<Run> {
        self.run_as(input, limits, deadline, Watching::Forbidden)
    }

    /// [`run`](Self::run), every path the program opens read as it asks: the run's
    /// [`Run::hidden`] are those its sandbox hides from it (outside the system's directories,
    /// its own files and its scratch). Slower (each open waits for the watch): a run to tell a
    /// program that fails for a file it may not read from a wrong one. Unconfined, a plain run.
    pub fn run_watched(
        &self,
        input: &[u8],
        limits: &Limits,
        deadline: Option<Instant>,
    ) -> io::Result<Run> {
        self.run_as(input, limits, deadline, Watching::Opens)
    }

    fn run_as(
        &self,
        input: &[u8],
        limits: &Limits,
        deadline: Option<Instant>,
        watching: Watching,
    ) -> io::Result<Run> {
        let started = Instant::now();
        if past(deadline) {
            return Ok(Run::cut());
        }
        match &self.jail {
            Some(jail) => self.run_confined(jail, input, limits, deadline, watching, started),
            None => self.run_unconfined(input, limits, deadline, started),
        }
    }

    /// The command of the program, unconfined.
    fn command(&self) -> Command {
        let mut command = Command::new(&self.argv[0]);
        command.args(&self.argv[1..]);
        Self::piped(&mut command);
        command
    }

    /// `command`'s standard input, output and error piped, in a process group of its own.
    fn piped(command: &mut Command) {
        command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(0);
    }

    fn padded(command: &mut Command, limits: &Limits) {
        if limits.padding > 0 {
            command.env(PADDING_VARIABLE, "x".repeat(limits.padding));
        }
    }

    fn run_confined(
        &self,
        jail: &Jail,
        input: &[u8],
        limits: &Limits,
        deadline: Option<Instant>,
        watching: Watching,
        started: Instant,
    ) -> io::Result<Run> {
        let bounds = sandbox::Limits {
            memory: limits.memory,
            output: limits.max_output as u64,
        };
        let (mut command, mut cell) = jail.prepare(&self.argv, &bounds, watching)?;
        Self::piped(&mut command);
        Self::padded(&mut command, limits);
        let spawned = cell.spawn(command);
        cell.started();
        let mut child = spawned.map_err(|e| self.explained(e))?;
        let keeper = Pid::from_child(&child).as_raw_nonzero().get();
        let _registered = Registered::new(keeper);
        let (kept, listener) = match cell.descriptors(keeper) {
            Ok(received) => received,
            Err(e) => {
                kill_group(keeper);
                let _ = child.wait();
                return Err(self.explained(e));
            }
        };
        let Some(listener) = listener else {
            kill_group(keeper);
            let _ = child.wait();
            return Err(io::Error::other(
                "the sandbox's listener of forbidden calls did not come back",
            ));
        };
        let meter = match &cell.groups {
            Some(groups) => Meter::Groups(groups),
            None => Meter::Keeper(keeper),
        };
        let watched = Watch::new(
            &mut child,
            input,
            limits,
            Some(listener),
            Some(&cell.report),
            meter,
            started,
            deadline,
        )
        .and_then(|w| w.run(Some(jail)));
        let (init, record, failed) = reported(&watched, &cell.report);
        // However the run went, its PID namespace ends with it: the init killed (the kernel
        // then ends every process of the namespace), and the keeper, which waits for that,
        // reaped.
        let ended = end_confined(&mut child, keeper, init, record.is_some());
        if let Some(errno) = failed {
            // The program's `exec` failed (a keeper program tells it here).
            return Err(self.explained(io::Error::from_raw_os_error(errno)));
        }
        let watched = watched?;
        ended?;
        Ok(accounted(
            watched,
            record,
            cell.groups.as_ref(),
            limits,
            started,
            kept,
        ))
    }

    fn run_unconfined(
        &self,
        input: &[u8],
        limits: &Limits,
        deadline: Option<Instant>,
        started: Instant,
    ) -> io::Result<Run> {
        let mut command = self.command();
        sandbox::limit_unconfined(&mut command, limits.memory);
        Self::padded(&mut command, limits);
        let mut child = command.spawn()?;
        let group = Pid::from_child(&child).as_raw_nonzero().get();
        let _registered = Registered::new(group);
        let watched = Watch::new(
            &mut child,
            input,
            limits,
            None,
            None,
            Meter::Group(group),
            started,
            deadline,
        )
        .and_then(|w| w.run(None));
        // However the run went, nothing of the program's process group survives it.
        kill_group(group);
        let reaped = reap(group);
        let watched = watched?;
        let (status, own_cpu, high_water) = reaped?;
        let cpu = own_cpu.max(watched.usage.cpu);
        let memory = watched.peak.max(high_water);
        let ending = classify(watched.ending, Some(status), cpu, memory, false, limits);
        Ok(Run::watched(watched, ending, cpu, memory, started, None))
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
}

/// Whether the file at `path` starts with `#!`.
fn is_script(path: &Path) -> bool {
    use std::io::Read;
    let mut start = [0u8; 2];
    std::fs::File::open(path)
        .and_then(|mut f| f.read_exact(&mut start))
        .is_ok_and(|()| &start == b"#!")
}

/// How the run ended: the watch's ending, else the limits the final figures pass, else how the
/// program exited (`status`, none when its end was not reported).
fn classify(
    watched: Option<Ending>,
    status: Option<std::process::ExitStatus>,
    cpu: Duration,
    memory: u64,
    out_of_memory: bool,
    limits: &Limits,
) -> Ending {
    match watched {
        Some(Ending::Cut) => Ending::Cut,
        Some(ending @ (Ending::MemoryLimit | Ending::Forbidden(_))) => ending,
        _ if out_of_memory => Ending::MemoryLimit,
        None if memory > limits.memory => Ending::MemoryLimit,
        _ if cpu > limits.cpu => Ending::TimedOut,
        Some(ending) => ending,
        None => match status.map(|s| (s.code(), s.signal())) {
            Some((Some(code), _)) => Ending::Exited(code),
            Some((None, Some(signal))) => Ending::Signalled(signal),
            _ => Ending::Signalled(libc::SIGKILL),
        },
    }
}

/// What the run's processes reported, the watch's records and those left on `report`: the
/// init's process id, the end record, the error number of a failed `exec`.
fn reported(
    watched: &io::Result<crate::watch::Watched>,
    report: &OwnedFd,
) -> (Option<i32>, Option<Record>, Option<i32>) {
    let (mut init, mut record, mut failed) = match watched {
        Ok(w) => (w.init, w.record, w.failed),
        Err(_) => (None, None, None),
    };
    for r in crate::watch::read_records(report).0 {
        match r.tag {
            Record::INIT => init = Some(r.value),
            Record::END => record = Some(r),
            Record::FAILED => failed = Some(r.value),
            _ => {}
        }
    }
    (init, record, failed)
}

/// Ends a confined run whose keeper is `keeper`: unless the program `ended` on its own, kills
/// its `init` (whose end ends every process of the namespace), else the keeper's group; then
/// reaps the keeper, which exits once the namespace is empty.
fn end_confined(child: &mut Child, keeper: i32, init: Option<i32>, ended: bool) -> io::Result<()> {
    if !ended {
        match init.and_then(|pid| init_handle(pid, keeper)) {
            Some(pidfd) => {
                let _ = rustix::process::pidfd_send_signal(&pidfd, Signal::KILL);
            }
            None => kill_group(keeper),
        }
    }
    let status = child.wait();
    kill_group(keeper);
    status.map(drop)
}

/// A pidfd of process `pid` if it is the init of the run whose keeper is `keeper`.
fn init_handle(pid: i32, keeper: i32) -> Option<OwnedFd> {
    let pidfd =
        rustix::process::pidfd_open(Pid::from_raw(pid)?, rustix::process::PidfdFlags::empty())
            .ok()?;
    crate::proc::stat(pid)
        .is_some_and(|s| s.parent == keeper)
        .then_some(pidfd)
}

/// Reaps process `pid`: its exit status, the CPU time of it and the children it waited for,
/// and the high-water mark of the resident set of the largest of them, in bytes.
fn reap(pid: i32) -> io::Result<(std::process::ExitStatus, Duration, u64)> {
    let mut status = 0;
    // SAFETY: `rusage` is plain data the kernel fills.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: pointers to locals that outlive the call.
        let reaped = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
        if reaped == pid {
            let time = |t: libc::timeval| {
                Duration::new(t.tv_sec.max(0) as u64, (t.tv_usec.max(0) as u32) * 1000)
            };
            let kib = u64::try_from(usage.ru_maxrss).unwrap_or(0);
            return Ok((
                std::process::ExitStatus::from_raw(status),
                time(usage.ru_utime) + time(usage.ru_stime),
                kib * 1024,
            ));
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

/// The CPU time the calling thread has used.
pub fn thread_cpu() -> Duration {
    let now = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
    Duration::new(now.tv_sec.max(0) as u64, now.tv_nsec.max(0) as u32)
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

    fn sandbox() -> Arc<Sandbox> {
        Sandbox::probe(&[]).expect("the sandbox works on the test machine")
    }

    /// `sh -c SCRIPT`, unconfined and confined.
    fn both(sandbox: &Arc<Sandbox>, script: &str) -> [Program; 2] {
        let plain = sh(script);
        let confined = plain.confined(sandbox).unwrap();
        [plain, confined]
    }

    #[test]
    fn a_program_reads_its_input_and_exits() {
        let sandbox = sandbox();
        for program in both(&sandbox, "cat; echo done >&2; exit 3") {
            let run = program.run(b"hello\n", &limits(5000), None).unwrap();
            assert_eq!(run.ending, Ending::Exited(3), "{run:?}");
            assert_eq!(run.stdout, b"hello\n");
            assert_eq!(run.stderr_tail, b"done\n");
        }
    }

    #[test]
    fn hostile_programs_are_ended() {
        let sandbox = sandbox();
        for [program] in both(&sandbox, "yes").map(|p| [p]) {
            // Endless output: ended at the cap.
            let run = program.run(b"", &limits(5000), None).unwrap();
            assert_eq!(run.ending, Ending::OutputLimit);
            assert_eq!(run.stdout.len(), 1 << 16);
        }
        // A child left sleeping with the pipes open: the run still ends with the program.
        for program in both(&sandbox, "sleep 30 & echo ok") {
            let run = program.run(b"", &limits(5000), None).unwrap();
            assert_eq!(
                (run.ending, run.stdout.as_slice()),
                (Ending::Exited(0), &b"ok\n"[..]),
                "{run:?}"
            );
        }
        // Standard input closed at once, a large input unread.
        for program in both(&sandbox, "exec 0<&-; echo closed") {
            let run = program
                .run(&vec![b'x'; 1 << 22], &limits(5000), None)
                .unwrap();
            assert_eq!(run.stdout, b"closed\n");
        }
        // A signal.
        for program in both(&sandbox, "kill -SEGV $$") {
            let run = program.run(b"", &limits(5000), None).unwrap();
            assert_eq!(run.ending, Ending::Signalled(11), "{run:?}");
        }
        // More environment, when asked.
        let padded = Limits {
            padding: 1000,
            ..limits(5000)
        };
        for program in both(&sandbox, "printf %s \"$REFEREE_PADDING\" | wc -c") {
            let run = program.run(b"", &padded, None).unwrap();
            assert_eq!(String::from_utf8_lossy(&run.stdout).trim(), "1000");
        }
        // Standard error of any length: its end is kept.
        for program in both(&sandbox, "yes e | head -c 100000 >&2") {
            let run = program.run(b"", &limits(5000), None).unwrap();
            assert_eq!(run.stderr_tail.len(), 64);
        }
    }

    #[test]
    fn cpu_time_is_the_limit_and_wall_time_only_caps() {
        let sandbox = sandbox();
        // Burning CPU, in the program or in a child it has not waited for yet: past the limit
        // of CPU time, whatever else runs on the machine.
        for burner in [
            "while :; do :; done",
            "sh -c 'while :; do :; done'; echo never",
        ] {
            for program in both(&sandbox, burner) {
                let run = program.run(b"", &limits(300), None).unwrap();
                assert_eq!(run.ending, Ending::TimedOut, "{burner}: {run:?}");
                assert!(run.cpu > Duration::from_millis(300), "{burner}: {run:?}");
                assert!(
                    run.stopped().starts_with("killed after"),
                    "{}",
                    run.stopped()
                );
            }
        }
        // Sleeping: no CPU time used; stopped by the wall-clock cap (three times the limit).
        for program in both(&sandbox, "sleep 30") {
            let run = program.run(b"", &limits(200), None).unwrap();
            assert_eq!(run.ending, Ending::WallCap, "{run:?}");
            assert!(run.elapsed >= Duration::from_millis(600), "{run:?}");
            assert!(run.cpu < Duration::from_millis(200), "{run:?}");
            assert!(
                run.stopped().contains("wall-clock cap"),
                "{}",
                run.stopped()
            );
        }
        // A program that finishes over its CPU time is over the limit all the same.
        for program in both(
            &sandbox,
            "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; echo late",
        ) {
            let run = program.run(b"", &limits(1), None).unwrap();
            assert_eq!(run.ending, Ending::TimedOut, "{run:?}");
        }
    }

    #[test]
    fn every_thread_of_every_process_is_counted() {
        let sandbox = sandbox();
        // Four threads burn 0.5 s each while the main thread waits for them: 2 s of CPU time,
        // under a limit of 1 s a timeout (reported at its end, or killed on the way).
        let threads = "import threading, time\n\
             def burn():\n    end = time.thread_time() + 0.5\n    while time.thread_time() < end: pass\n\
             ts = [threading.Thread(target=burn) for _ in range(4)]\n\
             [t.start() for t in ts]\n[t.join() for t in ts]\nprint('done')";
        let plain = Program::from_argv(vec!["python3".into(), "-c".into(), threads.into()]);
        for program in [plain.clone(), plain.confined(&sandbox).unwrap()] {
            let run = program.run(b"", &limits(1000), None).unwrap();
            assert_eq!(run.ending, Ending::TimedOut, "{run:?}");
            // Under a limit of 10 s, the time of all four.
            let run = program.run(b"", &limits(10_000), None).unwrap();
            assert_eq!(run.ending, Ending::Exited(0), "{run:?}");
            assert!(run.cpu >= Duration::from_millis(1900), "{run:?}");
        }
    }

    #[test]
    fn a_deadline_cuts_a_run_without_blaming_the_program() {
        let sandbox = sandbox();
        for program in both(&sandbox, "sleep 30") {
            let at = Instant::now() + Duration::from_millis(200);
            let run = program.run(b"", &limits(20_000), Some(at)).unwrap();
            assert_eq!(run.ending, Ending::Cut);
            // A deadline already passed: the program is not started.
            let run = program.run(b"", &limits(5000), Some(at)).unwrap();
            assert_eq!((run.ending, run.stdout.len()), (Ending::Cut, 0));
            // A cap before the deadline is still the program's.
            let far = Instant::now() + Duration::from_secs(60);
            let run = program.run(b"", &limits(200), Some(far)).unwrap();
            assert_eq!(run.ending, Ending::WallCap);
        }
    }

    #[test]
    fn memory_over_the_limit_ends_the_run() {
        let sandbox = sandbox();
        let hog =
            |script: &str| Program::from_argv(vec!["python3".into(), "-c".into(), script.into()]);
        let limits = Limits {
            memory: 100 << 20,
            ..limits(30_000)
        };
        // 400 MiB written under a 100 MiB limit: the run ends there.
        let over = hog("x = b'x' * (400 << 20)\nimport time\ntime.sleep(30)");
        for program in [over.clone(), over.confined(&sandbox).unwrap()] {
            let run = program.run(b"", &limits, None).unwrap();
            assert_eq!(run.ending, Ending::MemoryLimit, "{run:?}");
            assert!(run.memory >= 100 << 20, "{run:?}");
            assert!(
                run.stopped().contains("over the limit"),
                "{}",
                run.stopped()
            );
        }
        // Under it, the run is the program's and its memory is measured.
        let under = hog("x = b'x' * (20 << 20)\nprint(len(x))");
        for program in [under.clone(), under.confined(&sandbox).unwrap()] {
            let run = program.run(b"", &limits, None).unwrap();
            assert_eq!(run.ending, Ending::Exited(0), "{run:?}");
            assert!(run.memory > 20 << 20 && run.memory < 100 << 20, "{run:?}");
        }
    }

    #[test]
    fn runs_one_after_another_are_each_counted_alone() {
        // Confined runs one after another share their control groups (as root): what one run
        // used, and its end at the memory ceiling, must not be the next one's.
        let dir = tempfile::tempdir().unwrap();
        let data = dir.path().join("data");
        std::fs::write(&data, vec![7u8; 96 << 20]).unwrap();
        std::fs::File::open(&data).unwrap().sync_all().unwrap();
        set_readable(dir.path());
        let sandbox = Sandbox::probe(&[dir.path().to_path_buf()]).unwrap();
        let python = |script: String| {
            Program::from_argv(vec!["python3".into(), "-c".into(), script])
                .confined(&sandbox)
                .unwrap()
        };
        let limits = Limits {
            memory: 64 << 20,
            ..limits(20_000)
        };
        // CPU time, file pages of a file nobody has read since it was dropped from the cache,
        // then 200 MiB under 64 MiB.
        let heavy = python(format!(
            "import os\nsum(range(10**7))\nf = os.open({data:?}, os.O_RDONLY)\n\
             os.posix_fadvise(f, 0, 0, os.POSIX_FADV_DONTNEED)\n\
             while os.read(f, 1 << 20): pass\nx = b'x' * (200 << 20)",
            data = data.display().to_string()
        ));
        let light = python("print(1)".to_string());
        for _ in 0..2 {
            let run = heavy.run(b"", &limits, None).unwrap();
            assert_eq!(run.ending, Ending::MemoryLimit, "{run:?}");
            let run = light.run(b"", &limits, None).unwrap();
            assert_eq!(run.ending, Ending::Exited(0), "{run:?}");
            assert!(run.cpu < Duration::from_millis(300), "{run:?}");
            assert!(run.memory < 32 << 20, "{run:?}");
            // What the run cost counts the sandbox's work for it when the kernel accounts it.
            match sandbox.accounting() {
                crate::Accounting::Cgroups => assert!(run.cost > run.cpu, "{run:?}"),
                crate::Accounting::Processes => assert_eq!(run.cost, run.cpu, "{run:?}"),
            }
        }
    }

    /// Makes `dir` and what is in it readable by everyone (as root, the runs are nobody's).
    fn set_readable(dir: &Path) {
        use std::os::unix::fs::PermissionsExt;
        for entry in std::fs::read_dir(dir).unwrap().flatten() {
            let mode = if entry.path().is_dir() { 0o755 } else { 0o644 };
            std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(mode)).unwrap();
        }
        std::fs::set_permissions(dir, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[test]
    fn a_confined_run_is_held_to_its_sandbox() {
        let sandbox = sandbox();
        let confined = |script: &str| sh(script).confined(&sandbox).unwrap();
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
        // the caller's environment; it is the second process of a PID namespace of its own, in
        // a process group of its own (`setsid`); it has no descriptor but its standard ones.
        let run = confined(
            "echo kept > here && cat here; touch /etc/referee-test 2>/dev/null || echo refused; \
             [ \"$HOME\" = \"$(pwd)\" ] && echo home; echo \"${CARGO:-none}\"; echo $$; \
             ps -o sid= -p $$ 2>/dev/null | tr -d ' ' || echo 2; ls /proc/self/fd | wc -l",
        )
        .run(b"", &limits(10_000), None)
        .unwrap();
        let text = String::from_utf8_lossy(&run.stdout).to_string();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[..5],
            ["kept", "refused", "home", "none", "2"],
            "{run:?}"
        );
        assert!(!Path::new("/etc/referee-test").exists());
    }

    #[test]
    fn programs_that_cannot_start_are_errors() {
        let sandbox = sandbox();
        let missing = Program::parse("/nonexistent/judge --flag").unwrap();
        assert!(missing.run(b"", &limits(1000), None).is_err());
        let confined = Program::from_argv(vec!["no-such-program-here".into()])
            .confined(&sandbox)
            .unwrap();
        assert!(confined.run(b"", &limits(1000), None).is_err());
        assert_eq!(
            Program::parse("a 'b c' \"d\"").unwrap().argv,
            ["a", "b c", "d"]
        );
        assert!(Program::parse("a 'b").is_err());
        assert!(Program::parse("  ").is_err());
    }
}
