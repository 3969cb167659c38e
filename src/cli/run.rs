//! `referee run`: one program on one input, confined and held to its limits as `audit` runs
//! each of its runs, and its verdict, CPU time and memory: the command a finding's
//! `reproduce:` line gives.

use std::io::{IsTerminal, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use super::{amount, limit_seconds};
use crate::util::error::RunError;

/// `referee run`'s flags.
#[derive(Debug, clap::Args)]
pub struct RunArgs {
    /// The CPU time the run may take, in seconds: every thread of every process of it (its
    /// wall-clock time capped at three times that).
    #[arg(long, value_name = "SECONDS", default_value_t = 2.0)]
    timeout: f64,
    /// The memory the run may hold, in MiB.
    #[arg(long, value_name = "MIB", default_value_t = 2048,
          value_parser = clap::value_parser!(u64).range(1..=1 << 30))]
    memory: u64,
    /// The most bytes of standard output the run may write (also its scratch's size and its
    /// largest file); more is `output-limit`.
    #[arg(long, value_parser = amount, default_value = "16777216")]
    max_output: u64,
    /// A file or directory the program may read, besides the system's directories and its own
    /// files (the paths its command names); repeatable.
    #[arg(long, value_name = "PATH")]
    allow_read: Vec<PathBuf>,
    /// A cgroup v2 directory you may manage, under which the run's control group is made
    /// (as `audit --cgroup`).
    #[arg(
        long,
        value_name = "DIR",
        env = "REFEREE_CGROUP",
        conflicts_with = "unconfined"
    )]
    cgroup: Option<PathBuf>,
    /// Run the program with your rights, outside the sandbox (its limits still hold).
    #[arg(long, conflicts_with = "allow_read")]
    unconfined: bool,
    /// The bytes of standard input read for the program: more is refused.
    #[arg(long, value_parser = amount, default_value = "1073741824")]
    max_input_bytes: u64,
    /// The program and its arguments (after `--`).
    #[arg(required = true, trailing_var_arg = true, value_name = "COMMAND")]
    command: Vec<String>,
}

/// Why the program cannot be run on its input.
#[derive(Debug, thiserror::Error)]
pub enum NotRun {
    /// Standard input is longer than `--max-input-bytes`.
    #[error("standard input is longer than {0} bytes (--max-input-bytes)")]
    TooLong(u64),
    /// Standard input cannot be read.
    #[error("reading standard input: {0}")]
    Stdin(std::io::Error),
    /// The program cannot be started (not found, not executable, its files not copied into the
    /// sandbox).
    #[error("{command}: cannot be run: {source}")]
    Program {
        /// The command, as given.
        command: String,
        /// Why.
        source: std::io::Error,
    },
    /// The sandbox itself failed to make or watch the run: nothing is known of the program.
    #[error("{command}: not run: the sandbox failed: {source}")]
    Sandbox {
        /// The command, as given.
        command: String,
        /// Why.
        source: std::io::Error,
    },
}

impl crate::util::error::RunRefusal for NotRun {}

/// Runs the program on standard input; its output on standard output, the end of its standard
/// error then the verdict line on standard error. Exit 0 when it exited 0 within its limits,
/// 1 otherwise, 2 when it cannot be started, 128 + N when signal N interrupted it.
pub(super) fn run(args: RunArgs) -> Result<ExitCode, RunError> {
    let cpu = limit_seconds("--timeout", args.timeout)?;
    let limits = referee_sandbox::Limits {
        cpu,
        memory: args.memory << 20,
        max_output: args.max_output.min(usize::MAX as u64) as usize,
        stderr_tail: 64 << 10,
        ..referee_sandbox::Limits::default()
    };
    let input = standard_input(args.max_input_bytes)?;
    let program = referee_sandbox::Program::from_argv(args.command);
    let shown = program.display();
    let not_run = |source| NotRun::Program {
        command: shown.clone(),
        source,
    };
    let interrupt = referee_sandbox::Interrupt::new();
    // Unconfined, a descendant that leaves the program's process group (a daemon) is adopted
    // and ended with the run; confined, nothing outlives the run's PID namespace.
    let _reaper = args.unconfined.then(referee_sandbox::Reaper::adopt);
    let (program, confinement) = if args.unconfined {
        (
            program.ended_by(&interrupt),
            referee_sandbox::Confinement::Unconfined,
        )
    } else {
        let sandbox = referee_sandbox::Sandbox::new(&referee_sandbox::Options {
            allow_read: args.allow_read.clone(),
            cgroup: args.cgroup.clone(),
            interrupt: interrupt.clone(),
        })
        .map_err(super::refused::NoSandbox)?;
        let confined = program.confined(&sandbox).map_err(not_run)?;
        (confined, sandbox.confinement(&limits))
    };
    let _listening = interrupt.on_signals().map_err(RunError::Signals)?;
    let run = program.run(&input, &limits, None).map_err(|e| match e {
        referee_sandbox::RunError::NotStarted(source) => not_run(source),
        referee_sandbox::RunError::Sandbox(source) => NotRun::Sandbox {
            command: shown.clone(),
            source,
        },
    })?;
    let out = std::io::stdout();
    let mut out = out.lock();
    // To a terminal, the program's bytes are shown escaped (none of them drives the terminal);
    // to a pipe or a file, as it wrote them.
    let shown_out = if out.is_terminal() {
        for_a_terminal(&run.stdout).into_bytes()
    } else {
        run.stdout.clone()
    };
    out.write_all(&shown_out)
        .and_then(|()| out.flush())
        .map_err(|e| RunError::stdout("the program's output", e))?;
    // Its standard error always escaped, and referee's verdict the last line, on a line of its
    // own: nothing the program writes passes for it.
    let err = std::io::stderr();
    let mut err = err.lock();
    let _ = err.write_all(for_a_terminal(&run.stderr_tail).as_bytes());
    let _ = writeln!(err, "{}", verdict_line(&run, &limits, &confinement));
    if let Some(signal) = interrupt.signal() {
        // Said after the verdict line, which the program's bytes never follow.
        let _ = writeln!(
            err,
            "referee run: interrupted by signal {signal}: the program's processes ended (exit {})",
            128 + signal
        );
        return Ok(ExitCode::from(128 + signal as u8));
    }
    Ok(match run.ending {
        referee_sandbox::Ending::Exited(0) => ExitCode::SUCCESS,
        _ => ExitCode::from(1),
    })
}

/// Standard input, whole, when it is at most `most` bytes long.
fn standard_input(most: u64) -> Result<Vec<u8>, NotRun> {
    let mut input = Vec::new();
    std::io::stdin()
        .take(most + 1)
        .read_to_end(&mut input)
        .map_err(NotRun::Stdin)?;
    if input.len() as u64 > most {
        return Err(NotRun::TooLong(most));
    }
    Ok(input)
}

/// A program's bytes for a terminal: lines as lines, every control byte, invisible character
/// and byte that is not UTF-8 escaped (`\xHH`), ending with a newline unless empty.
fn for_a_terminal(bytes: &[u8]) -> String {
    let mut text = crate::util::answer::as_lines(&crate::util::answer::escape(bytes, usize::MAX));
    if !text.is_empty() && !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

/// `referee run: exited 0; 0.013 s of CPU time, 1.2 MiB, 0.02 s (limits 2.00 s, 2048 MiB;
/// confined, accounting cgroups)`.
fn verdict_line(
    run: &referee_sandbox::Run,
    limits: &referee_sandbox::Limits,
    confinement: &referee_sandbox::Confinement,
) -> String {
    use crate::util::text::mebibytes;
    use referee_sandbox::{Confinement, Ending};
    let ended = match run.ending {
        Ending::Exited(code) => format!("exited {code}"),
        Ending::Signalled(signal) => format!("killed by signal {signal}"),
        Ending::TimedOut | Ending::AnswerLate => format!("timeout: {}", run.stopped()),
        Ending::WallCap => format!("timeout: {}", run.stopped()),
        Ending::MemoryLimit => format!("memory-limit: {}", run.stopped()),
        Ending::OutputLimit => "output-limit: more standard output than --max-output".to_string(),
        Ending::Forbidden(refusal) => format!("forbidden: {}", refusal.call),
        Ending::Cut => "interrupted".to_string(),
    };
    let how = match confinement {
        Confinement::Confined { accounting, .. } => format!(
            "confined, accounting {}",
            serde_json::to_value(accounting)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default()
        ),
        Confinement::Unconfined => "unconfined".to_string(),
    };
    format!(
        "referee run: {ended}; {:.3} s of CPU time, {} of memory, {:.2} s (limits {:.2} s, {}; \
         {how})",
        run.cpu.as_secs_f64(),
        mebibytes(run.memory),
        run.elapsed.as_secs_f64(),
        limits.cpu.as_secs_f64(),
        mebibytes(limits.memory),
    )
}
