//! Command-line parsing and dispatch: parse the arguments, run the library's driver, map the
//! outcome to an exit code; one file per subcommand. Exit codes follow the contract in
//! `docs/cli.md`: 0 done and all agreed, 1 something disagreed or was invalid, 2 could not run.

mod audit;
mod audit_summary;
mod flags;
mod generate;
mod grade;
mod judge;
mod outputs;
mod package;
mod refused;
#[cfg(target_os = "linux")]
mod run;
#[cfg(target_os = "linux")]
mod sandbox_check;
mod show;
mod stress;
mod validators;
mod verify;

use flags::*;
use outputs::*;

use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};

use crate::formats::merge::ShardMerge;
use crate::game::AnyGame;
use crate::game::{rules_from_flag, RulesError};
use crate::games::{self, GameName, Visitor};
use crate::util::error::RunError;
use refused::UsageError;

/// The commands whose sharded runs `referee merge` combines, each merged by its own module.
pub const SHARDED: &[&dyn ShardMerge] = &[
    &crate::verify::merge::VerifyMerge,
    &crate::grade::merge::GradeMerge,
    &crate::stress::merge::StressMerge,
    #[cfg(target_os = "linux")]
    &crate::audit::merge::AuditMerge,
];

/// Decides who won: Pousse, LittleSquares and Some Game judged by an optimized engine and
/// cross-examined by an independent reference implementation.
#[derive(Debug, Parser)]
#[command(name = "referee", version, about, after_help = TOP_EXIT)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

/// What exit code 2 means, for every subcommand but `validate` and `check`.
macro_rules! exit_codes {
    ($one:literal) => {
        concat!(
            "Exit codes: 0 done",
            $one,
            "; 2 could not run (bad flags, unreadable paths, unwritable output)."
        )
    };
}

/// The exit codes in the top-level `--help`.
const TOP_EXIT: &str = "Exit codes: 0 done; 1 done, with what the subcommand reports as a \
    problem (see its --help: a mismatch, a judge error, a divergence, a finding); 2 could not \
    run; validate and check follow the judge systems' protocols.";

/// The exit codes of each subcommand, in its `--help` (docs/cli.md says the same).
const JUDGE_EXIT: &str = exit_codes!("; 1 the input is invalid (one error line)");
const VERIFY_EXIT: &str =
    exit_codes!(" and everything agreed; 1 a mismatch, an invalid input or an unreadable file");
const GRADE_EXIT: &str = exit_codes!(
    ", whatever the submissions' grades (WA, NO are results, not failures); 1 a case is a \
     judge error (its .ans disagrees with the engine, or it cannot be judged)"
);
const GEN_EXIT: &str = exit_codes!("");
const STRESS_EXIT: &str = exit_codes!(", no divergence; 1 a divergence was found and saved");
const AUDIT_EXIT: &str = exit_codes!(
    ", no finding; 1 the program was proved wrong (a finding; flaky ones only with --strict), \
     or with several programs the package's verdict lists one (an accepted program proved \
     wrong, a wrong one the existing data accepts, a class that does not match); 128 + N \
     interrupted by signal N, reports written"
);
const SHOW_EXIT: &str = exit_codes!("; 1 the input is invalid");
const RUN_EXIT: &str = exit_codes!(
    " and the program exited 0 within its limits; 1 it did not (an exit code, a signal, a \
     timeout, memory-limit, output-limit, a call the sandbox forbids)"
);
const PACKAGE_EXIT: &str = exit_codes!(" (the package is written)");

#[derive(Debug, Subcommand)]
enum Command {
    /// Judge one input in the game's contest format and print the contest's expected output.
    #[command(after_help = JUDGE_EXIT)]
    Judge(judge::JudgeArgs),
    /// Judge every `*.in` file under the paths with the engine and the reference, compare
    /// with each other and with sibling `.ans` answers, and write CSV reports.
    #[command(after_help = VERIFY_EXIT)]
    Verify(verify::VerifyArgs),
    /// Combine the report directories of the shards of one run (`verify`, `grade`, `stress` or
    /// `audit` with `--shard K/N`) into the reports of one run.
    #[command(after_help = VERIFY_EXIT)]
    Merge(verify::MergeArgs),
    /// Grade submissions' output files against the engine's verdicts.
    #[command(after_help = GRADE_EXIT)]
    Grade(grade::GradeArgs),
    /// Write seeded random inputs from the game's generator to a directory.
    #[command(after_help = GEN_EXIT)]
    Gen(generate::GenArgs),
    /// Hunt for divergences between engine and reference on seeded random cases; shrink and
    /// save the first one found (exit 1).
    #[command(after_help = STRESS_EXIT)]
    Stress(stress::StressArgs),
    /// Cross-examine someone else's judge program: run it on input files and seeded random
    /// cases, compare its output with the engine's, and shrink where it is wrong.
    #[command(after_help = AUDIT_EXIT)]
    Audit(Box<audit::AuditArgs>),
    /// Run one program on standard input as `audit` runs it: confined, held to its limits;
    /// its output, then its verdict, CPU time and memory on standard error.
    #[cfg(target_os = "linux")]
    #[command(after_help = RUN_EXIT)]
    Run(run::RunArgs),
    /// Say what the sandbox of `audit` and `run` gets on this machine (the kernel, Landlock,
    /// user namespaces, seccomp, control groups), try a confined run, and say what would give
    /// more. Exit 0 when confined runs work, 1 when they do not.
    #[cfg(target_os = "linux")]
    SandboxCheck(sandbox_check::SandboxCheckArgs),
    /// Draw one case: the Pousse board after a move (as in the problem statement, with the
    /// straights and any repetition), the LittleSquares decomposition, the Some Game line.
    #[command(after_help = SHOW_EXIT)]
    Show(show::ShowArgs),
    /// Input validator for judge systems: exit 42 when the input is valid, 43 (with
    /// FILE:LINE:COL: expected ..., found ...) when not.
    #[command(after_help = VALIDATOR_EXIT_CODES)]
    Validate(validators::ValidateArgs),
    /// Output validator for judge systems: the engine judges INPUT, ANSWER must agree, the
    /// team's output is compared verdict by verdict (flags go before the files).
    #[command(after_help = VALIDATOR_EXIT_CODES)]
    Check(validators::CheckArgs),
    /// Write a problem package for Kattis, DOMjudge and BAPCtools (problemtools' formats), or a
    /// DMOJ problem with `--system dmoj`: statement, sample and secret data with the engine's
    /// answers, validators running referee, submissions.
    #[command(after_help = PACKAGE_EXIT)]
    Package(package::PackageArgs),
}

/// The exit codes of `validate` and `check`, which follow the judge systems' protocols.
const VALIDATOR_EXIT_CODES: &str = "Exit codes: validate: 42 valid, 43 invalid. check: Kattis \
    42 accepted, 43 rejected, 1 judge error (judgeerror.txt); testlib 0 OK, 1 WA, 2 PE, 3 FAIL; \
    CMS 0 with the score on standard output, 1 judge error. 2 bad flags.";

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    // The commands that stage reports leave no staging directory behind when a signal ends
    // them (audit, interrupted, writes what it found instead).
    let _cleaning = matches!(
        cli.command,
        Command::Verify(_) | Command::Merge(_) | Command::Grade(_) | Command::Stress(_)
    )
    .then(crate::formats::write::clean_up_on_signals);
    let outcome = match cli.command {
        Command::Judge(args) => judge::judge(args),
        Command::Verify(args) => verify::verify(args),
        Command::Merge(args) => verify::merge(args),
        Command::Grade(args) => grade::grade(args),
        Command::Gen(args) => generate::generate(args),
        Command::Stress(args) => stress::stress(args),
        Command::Audit(args) => audit::audit(*args),
        #[cfg(target_os = "linux")]
        Command::Run(args) => run::run(args),
        #[cfg(target_os = "linux")]
        Command::SandboxCheck(args) => sandbox_check::sandbox_check(args),
        Command::Show(args) => show::show(args),
        Command::Validate(args) => validators::validate_input(args),
        Command::Check(args) => validators::check_output(args),
        Command::Package(args) => package::package(args),
    };
    match outcome {
        Ok(code) => code,
        // As ripgrep does: the reader has all it wanted.
        Err(RunError::ClosedPipe) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// Writes `text` (`what`, for the error message) to standard output and flushes it.
fn print_out(what: &str, text: &str) -> Result<(), RunError> {
    use std::io::Write;
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .map_err(|e| RunError::stdout(what, e))
}

/// The input named on the command line, and its name for messages: standard input when the
/// file is absent or `-`.
fn open_input(
    file: Option<&std::path::Path>,
) -> Result<(String, Box<dyn std::io::Read>), RunError> {
    match file {
        Some(p) if p.as_os_str() != "-" => {
            let file = std::fs::File::open(p).map_err(|e| RunError::io(p, e))?;
            Ok((p.display().to_string(), Box::new(file)))
        }
        _ => Ok(("<stdin>".into(), Box::new(std::io::stdin().lock()))),
    }
}

/// Exit code 1 when `problems`, else 0.
fn done(problems: bool) -> ExitCode {
    if problems {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    }
}
