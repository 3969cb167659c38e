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
//! **wall-clock cap** ([`Limits::wall_cap`]) of a multiple of the CPU limit, not counting the time the
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
use std::os::fd::{AsFd, AsRawFd, OwnedFd};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rustix::process::{Pid, Signal};

use crate::cgroup::RunGroups;
use crate::child::Record;
use crate::interrupt::{kill_group, Interrupt};
use crate::limits::{Ending, Limits, PADDING_VARIABLE};
use crate::sandbox::{self, copy_tree, Jail, Sandbox, Workspace};
use crate::seccomp::Watching;
use crate::start::{Failure, RunEnds, StartError, Started};
use crate::watch::{Meter, Pipes, Watch};

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
            Ending::AnswerLate => format!(
                "killed after {:.2} s of CPU time, more than its answers so far allow",
                self.cpu.as_secs_f64()
            ),
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

/// Why [`Program::run`] made no run. Either way the program was not judged: no run, no
/// verdict.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    /// The program could not be started: its file or command is missing, is not executable,
    /// or cannot be read by the user the runs have. The caller's to fix.
    #[error("{0}")]
    NotStarted(io::Error),
    /// The sandbox itself failed to make or watch the run (isolate's `XX`): its namespaces,
    /// mounts, control groups or pipes. The machine's to fix, never the program's doing.
    #[error("the sandbox failed: {0}")]
    Sandbox(io::Error),
}

impl RunError {
    /// A failure of a confined run: the program's absence or its `exec`'s failure is its
    /// not starting; any other step's, the sandbox's.
    fn of_confined(failure: Failure) -> RunError {
        match failure {
            Failure::Program(e) => RunError::NotStarted(e),
            Failure::Step(e) if e.step == crate::child::Step::Exec => {
                RunError::NotStarted(e.into())
            }
            other => RunError::Sandbox(other.into()),
        }
    }
}

impl From<RunError> for io::Error {
    fn from(e: RunError) -> io::Error {
        match e {
            RunError::NotStarted(e) => e,
            RunError::Sandbox(e) => io::Error::new(e.kind(), format!("the sandbox failed: {e}")),
        }
    }
}

/// `bytes` in MiB, in words (`2048.0 MiB`).
pub(crate) fn mebibytes(bytes: u64) -> String {
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

/// The result of a confined run: its status, the CPU time of what its init reaped and their
/// peak from the init's end record (when the program ended on its own), the init's own CPU
/// time (its end or ready record), what its control `groups` were charged (less the
/// starter's `setup` when the starter is in them, a cgroup v1 slot's), and what the watch saw;
/// `kept` what it wrote, when kept.
fn accounted(
    watched: crate::watch::Watched,
    groups: Option<&RunGroups>,
    setup: Duration,
    limits: &Limits,
    started: Instant,
    kept: Option<OwnedFd>,
) -> Run {
    let record = watched.record;
    let (status, reaped, own_peak) = match record {
        Some(r) => (
            Some(std::process::ExitStatus::from_raw(r.value)),
            Duration::from_micros(r.cpu_micros),
            r.peak_kib.saturating_mul(1024),
        ),
        None => (None, Duration::ZERO, 0),
    };
    let init_own = Duration::from_micros(record.or(watched.ready).map_or(0, |r| r.extra));
    let (charged, charged_peak, out_of_memory) = match groups {
        Some(groups) => {
            let setup = match groups {
                RunGroups::V1(_) => setup,
                RunGroups::V2(_) => Duration::ZERO,
            };
            (
                Some((groups.charged().cpu, setup)),
                groups.peak_memory(),
                groups.out_of_memory(),
            )
        }
        None => (None, 0, false),
    };
    // The kernel's count, less the sandbox's own work for the run (at least what the init
    // reaped); else what the init reaped, or what the watch last read.
    let (cpu, cost) = match charged {
        Some((charged, setup)) => {
            let cpu = charged.saturating_sub(setup + init_own).max(reaped);
            (cpu, charged.max(cpu))
        }
        None if record.is_some() => (reaped, reaped),
        None => (watched.usage.cpu, watched.usage.cpu),
    };
    let memory = watched.peak.max(own_peak).max(charged_peak);
    let ending = classify(watched.ending, status, cpu, memory, out_of_memory, limits);
    let kept = kept.map(|fd| Arc::new(Kept(fd)));
    Run {
        cost,
        ..Run::watched(watched, ending, cpu, memory, started, kept)
    }
}

/// This process's ends of a confined run's pipes and channel, and the run's own.
struct Plumbing {
    pipes: Pipes,
    report: OwnedFd,
    channel: OwnedFd,
    theirs: RunEnds,
}

impl Plumbing {
    fn new() -> io::Result<Plumbing> {
        use rustix::pipe::{pipe_with, PipeFlags};
        let pipe = || pipe_with(PipeFlags::CLOEXEC);
        let (stdin_read, stdin_write) = pipe()?;
        let (stdout_read, stdout_write) = pipe()?;
        let (stderr_read, stderr_write) = pipe()?;
        let (report, their_report) = pipe()?;
        rustix::io::ioctl_fionbio(&report, true)?;
        let (channel, their_channel) = std::os::unix::net::UnixDatagram::pair()?;
        Ok(Plumbing {
            pipes: Pipes {
                stdin: Some(stdin_write.into()),
                stdout: Some(stdout_read.into()),
                stderr: Some(stderr_read.into()),
            },
            report,
            channel: channel.into(),
            theirs: RunEnds {
                stdin: stdin_read,
                stdout: stdout_write,
                stderr: stderr_write,
                report: their_report,
                channel: their_channel.into(),
            },
        })
    }
}

/// How long a run's first processes may take to reach its program's `exec` (milliseconds
/// here, a second under emulation): past it, the start is the sandbox's failure, never a wait
/// for ever.
const START_WITHIN: Duration = Duration::from_secs(60);

/// The next descriptor sent on `channel` by the run whose init is `pidfd`: waits for it, or
/// for the init's end (`None`), at most [`START_WITHIN`].
fn next_descriptor(channel: &OwnedFd, pidfd: &OwnedFd) -> io::Result<Option<OwnedFd>> {
    use rustix::event::{poll, PollFd, PollFlags, Timespec};
    let deadline = Instant::now() + START_WITHIN;
    loop {
        let mut byte = [0u8; 1];
        if let Some((_, fd)) = crate::start::receive(channel.as_raw_fd(), &mut byte)? {
            if fd.is_some() {
                return Ok(fd);
            }
            continue;
        }
        let mut fds = [
            PollFd::new(channel, PollFlags::IN),
            PollFd::new(pidfd, PollFlags::IN),
        ];
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            return Err(io::Error::new(
                io::ErrorKind::TimedOut,
                format!(
                    "the run's first process did not reach its program within {} s",
                    START_WITHIN.as_secs()
                ),
            ));
        }
        let timeout = Timespec::try_from(left).unwrap_or(Timespec {
            tv_sec: 1,
            tv_nsec: 0,
        });
        match poll(&mut fds, Some(&timeout)) {
            Ok(_) | Err(rustix::io::Errno::INTR) => {}
            Err(e) => return Err(e.into()),
        }
        if fds[0].revents().is_empty() && !fds[1].revents().is_empty() {
            let mut byte = [0u8; 1];
            return Ok(
                crate::start::receive(channel.as_raw_fd(), &mut byte)?.and_then(|(_, fd)| fd)
            );
        }
    }
}

/// The step the run's report pipe says failed, if one did.
fn failure(report: &OwnedFd) -> Option<StartError> {
    crate::watch::read_records(report)
        .0
        .into_iter()
        .find_map(failed_step)
}

/// The failure a record tells, if it is a failure record.
fn failed_step(record: Record) -> Option<StartError> {
    Some(StartError {
        step: record.step()?,
        source: io::Error::from_raw_os_error(record.value),
    })
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
    /// What ends its runs at once ([`Program::interrupt`]).
    interrupt: Interrupt,
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
            interrupt: Interrupt::new(),
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
                            // A script that had to be copied runs from a copy of its directory.
                            let dir = match own == absolute {
                                true => sandbox.stage(dir)?,
                                false => sandbox.copy(dir)?,
                            };
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
            interrupt: sandbox.interrupt().clone(),
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

    /// What [`confined`](Self::confined) makes its own files, as absolute paths: the existing
    /// files and directories its command names and, when it is a script (`#!`), the directory
    /// it lies in. A caller keeping paths from it checks them against these first.
    pub fn own_files(&self) -> Vec<PathBuf> {
        let mut own = Vec::new();
        for (i, word) in self.argv.iter().enumerate() {
            match std::path::absolute(word) {
                Ok(absolute) if names_a_file(i, word) => {
                    if i == 0 && is_script(&absolute) {
                        own.extend(absolute.parent().map(Path::to_path_buf));
                    }
                    own.push(absolute);
                }
                _ => {}
            }
        }
        own
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
            interrupt: sandbox.interrupt().clone(),
        }
    }

    /// This program, its runs ended by `interrupt` (a confined program's is its sandbox's).
    pub fn ended_by(mut self, interrupt: &Interrupt) -> Program {
        self.interrupt = interrupt.clone();
        self
    }

    /// What ends this program's runs at once, and refuses new ones.
    pub fn interrupt(&self) -> &Interrupt {
        &self.interrupt
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
    /// then ([`Ending::Cut`]; also once its [`Program::interrupt`] is interrupted). An error
    /// means there was no run: the program could not be started ([`RunError::NotStarted`]), or
    /// the sandbox failed ([`RunError::Sandbox`]).
    pub fn run(
        &self,
        input: &[u8],
        limits: &Limits,
        deadline: Option<Instant>,
    ) -> Result<Run, RunError> {
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
    ) -> Result<Run, RunError> {
        self.run_as(input, limits, deadline, Watching::Opens)
    }

    fn run_as(
        &self,
        input: &[u8],
        limits: &Limits,
        deadline: Option<Instant>,
        watching: Watching,
    ) -> Result<Run, RunError> {
        let started = Instant::now();
        if self.interrupt.past(deadline) {
            return Ok(Run::cut());
        }
        let mut run = match &self.jail {
            Some(jail) => self.run_confined(jail, input, limits, deadline, watching, started),
            None => self.run_unconfined(input, limits, deadline, started),
        }?;
        // Killed by its interrupt before the watch saw it raised (the kill and the watch
        // race): cut, as a run the watch ended on it is.
        if run.ending == Ending::Signalled(libc::SIGKILL) && self.interrupt.interrupted() {
            run.ending = Ending::Cut;
        }
        Ok(run)
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
    ) -> Result<Run, RunError> {
        self.launch(jail, input, limits, deadline, watching, started)
            .map_err(|f| match RunError::of_confined(f) {
                RunError::NotStarted(e) => RunError::NotStarted(self.explained(e)),
                RunError::Sandbox(e) => RunError::Sandbox(self.explained(e)),
            })
    }

    /// [`run`](Self::run) of a confined program, a failure of the sandbox's own told by its
    /// step: the sandbox's probe.
    pub(crate) fn run_probing(&self, limits: &Limits) -> Result<Run, Failure> {
        let jail = self.jail.as_ref().expect("a confined program");
        self.launch(jail, b"", limits, None, Watching::Forbidden, Instant::now())
    }

    /// A confined run: its plumbing and groups made, its init started, its descriptors back
    /// (a build's scratch, the listener of its forbidden calls), watched to its end.
    fn launch(
        &self,
        jail: &Jail,
        input: &[u8],
        limits: &Limits,
        deadline: Option<Instant>,
        watching: Watching,
        started: Instant,
    ) -> Result<Run, Failure> {
        let sandbox = jail.sandbox();
        let bounds = sandbox::Bounds {
            memory: limits.memory,
            output: limits.max_output as u64,
            processes: limits.processes,
            open_files: limits.open_files,
        };
        let padding: Vec<(String, String)> = (limits.padding > 0)
            .then(|| (PADDING_VARIABLE.to_string(), "x".repeat(limits.padding)))
            .into_iter()
            .collect();
        let steps = jail.steps(&self.argv, &padding, &bounds, watching)?;
        let Plumbing {
            pipes,
            report,
            channel,
            theirs,
        } = Plumbing::new()?;
        let groups = sandbox.groups(limits.memory, limits.processes)?;
        let init = sandbox.start(steps, theirs, groups.as_ref(), &channel)?;
        let _registered = self.interrupt.register_process(&init.pidfd)?;
        let (kept, listener) =
            match descriptors(jail.workspace(), &channel, &init, &report, groups.as_ref()) {
                Ok(received) => received,
                Err(e) => {
                    end(&init, groups.as_ref())?;
                    return Err(e);
                }
            };
        let meter = match &groups {
            Some(groups) => Meter::Groups(groups),
            None => Meter::Init(init.pid),
        };
        let watched = Watch::new(
            init.pidfd.as_fd(),
            pipes,
            input,
            limits,
            Some(listener),
            Some(&report),
            meter,
            started,
            (deadline, &self.interrupt),
        )
        .and_then(|w| w.run(Some(jail)))
        .map(|w| with_records(w, &report));
        // However the run went, its PID namespace ends with it: its init killed, whose end
        // the kernel makes every process of the namespace's.
        let finished = matches!(&watched, Ok(w) if w.record.is_some());
        if finished {
            wait_for(&init)?;
        } else {
            end(&init, groups.as_ref())?;
        }
        let watched = watched?;
        if let Some(failed) = watched.failed.and_then(failed_step) {
            // The program's `exec`, or a step after the listener, failed.
            return Err(failed.into());
        }
        if let Some(ready) = watched.ready {
            sandbox.saw_procfs(ready.value & Record::PROC != 0);
        }
        Ok(accounted(
            watched,
            groups.as_ref(),
            init.setup,
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
    ) -> Result<Run, RunError> {
        let mut command = self.command();
        sandbox::limit_unconfined(&mut command, limits.memory);
        Self::padded(&mut command, limits);
        let mut child = command.spawn().map_err(RunError::NotStarted)?;
        let group = Pid::from_child(&child).as_raw_nonzero().get();
        let _registered = self.interrupt.register_group(group);
        let pidfd = rustix::process::pidfd_open(
            Pid::from_child(&child),
            rustix::process::PidfdFlags::empty(),
        )
        .map_err(|e| RunError::Sandbox(e.into()))?;
        let watched = Watch::new(
            pidfd.as_fd(),
            Pipes::of(&mut child),
            input,
            limits,
            None,
            None,
            Meter::Group(group),
            started,
            (deadline, &self.interrupt),
        )
        .and_then(|w| w.run(None));
        // However the run went, nothing of the program's process group survives it.
        kill_group(group);
        let reaped = reap(group);
        let watched = watched.map_err(RunError::Sandbox)?;
        let (status, own_cpu, high_water) = reaped.map_err(RunError::Sandbox)?;
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

/// The descriptors a confined run sends back once its program is about to `exec`: a build's
/// scratch (for a build, `workspace`), and the listener of its forbidden calls; else why not
/// (the step that failed, when its report says).
fn descriptors(
    workspace: Workspace,
    channel: &OwnedFd,
    init: &Started,
    report: &OwnedFd,
    groups: Option<&RunGroups>,
) -> Result<(Option<OwnedFd>, OwnedFd), Failure> {
    let kept = if workspace == Workspace::Build {
        next_descriptor(channel, &init.pidfd)?
    } else {
        None
    };
    match next_descriptor(channel, &init.pidfd) {
        Ok(Some(listener)) => Ok((kept, listener)),
        gone => {
            end(init, groups)?;
            if let Some(failed) = failure(report) {
                return Err(failed.into());
            }
            gone?;
            Err(
                io::Error::other("the sandbox's listener of forbidden calls did not come back")
                    .into(),
            )
        }
    }
}

/// `watched` with the records still waiting on `report`.
fn with_records(mut watched: crate::watch::Watched, report: &OwnedFd) -> crate::watch::Watched {
    let (records, _) = crate::watch::read_records(report);
    for r in records {
        match r.tag {
            Record::READY => watched.ready = Some(r),
            Record::END => watched.record = Some(r),
            Record::FAILED => watched.failed = Some(r),
            _ => {}
        }
    }
    watched
}

/// Ends the run whose init is `init` at once (its groups' `cgroup.kill` where the kernel has
/// it, and the init killed, whose end ends every process of its namespace), and waits for it.
fn end(init: &Started, groups: Option<&RunGroups>) -> io::Result<()> {
    if let Some(groups) = groups {
        groups.kill();
    }
    let _ = rustix::process::pidfd_send_signal(&init.pidfd, Signal::KILL);
    wait_for(init)
}

/// Waits until the run's init `init` has ended (and with it every process of its namespace),
/// and reaps it when it is this process's child.
fn wait_for(init: &Started) -> io::Result<()> {
    use rustix::event::{poll, PollFd, PollFlags};
    loop {
        let mut fds = [PollFd::new(&init.pidfd, PollFlags::IN)];
        match poll(&mut fds, None) {
            Ok(_) if !fds[0].revents().is_empty() => break,
            Ok(_) | Err(rustix::io::Errno::INTR) => {}
            Err(e) => return Err(e.into()),
        }
    }
    if init.child {
        while let Err(rustix::io::Errno::INTR) = rustix::process::waitid(
            rustix::process::WaitId::PidFd(init.pidfd.as_fd()),
            rustix::process::WaitIdOptions::EXITED,
        ) {}
    }
    Ok(())
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
