//! Command-line parsing and dispatch: parse the arguments, run the library's driver, map the
//! outcome to an exit code; one file per subcommand. Exit codes follow the contract in
//! `docs/cli.md`: 0 done and all agreed, 1 something disagreed or was invalid, 2 could not run.

mod audit;
mod audit_summary;
mod generate;
mod grade;
mod judge;
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

use std::process::ExitCode;
use std::time::Duration;

use clap::{Parser, Subcommand};

use crate::error::RunError;
use crate::game::AnyGame;
use crate::game::{rules_from_flag, RulesError};
use crate::games::{self, GameName, Visitor};
use crate::report::merge::ShardMerge;
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

/// A count of steps or bytes, written as a whole number (`2000000000`, `2_000_000_000`) or in
/// exponent notation (`2e9`).
fn amount(text: &str) -> Result<u64, NotAnAmount> {
    crate::text::whole_number(text).ok_or_else(|| NotAnAmount(text.to_string()))
}

/// A flag's value that is not a count of steps or bytes.
#[derive(Debug, thiserror::Error)]
#[error("'{0}' is not a whole number (like 2000000000 or 2e9)")]
struct NotAnAmount(String);

/// A throughput for summaries: `1234 cases/s`, `2.5 cases/s`, or for runs slower than one case
/// in ten seconds `12.3 s per case` (never a rounded `0 cases/s`); `no cases` for none.
fn rate(cases: u64, time: Duration) -> String {
    let secs = time.as_secs_f64();
    if cases == 0 {
        return "no cases".to_string();
    }
    let per_second = cases as f64 / secs.max(1e-9);
    if per_second >= 100.0 {
        format!("{per_second:.0} cases/s")
    } else if per_second >= 0.1 {
        format!("{per_second:.2} cases/s")
    } else {
        format!("{:.1} s per case", secs / cases as f64)
    }
}

/// The help of every `--rules` flag: each game's rule sets and default.
fn rules_help() -> String {
    format!(
        "Rule set, for the games that have them ({})",
        games::rule_sets_help()
    )
}

/// Runs the command line and returns the process exit code.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    // The commands that stage reports leave no staging directory behind when a signal ends
    // them (audit, interrupted, writes what it found instead).
    let _cleaning = matches!(
        cli.command,
        Command::Verify(_) | Command::Merge(_) | Command::Grade(_) | Command::Stress(_)
    )
    .then(crate::report::write::clean_up_on_signals);
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

/// Where a run writes, and what it reads, checked before any work.
struct Destinations<'a> {
    /// The report directory, `--out`.
    out: &'a std::path::Path,
    /// The files and trees the run reads, each with its flag or role.
    reads: Vec<(&'static str, &'a std::path::Path)>,
    /// The names the run's reports take in `out`.
    reports: &'a [&'a str],
}

impl Destinations<'_> {
    /// Checks, before any work, that `--out` holds nothing the run reads, and that each output
    /// file (`--junit`, `--html`, `$GITHUB_STEP_SUMMARY`) can be written where asked without
    /// replacing anything the run reads or writes: not a directory, in a directory that exists
    /// (or `--out`, which the run makes), not inside what the run reads, not one of the run's
    /// reports, and no two of them the same file.
    fn check(&self, ci: &CiArgs, html: Option<&HtmlArgs>) -> Result<(), RunError> {
        out_apart(self.out, self.reads.iter().copied())?;
        let mut files: Vec<(&'static str, &std::path::Path)> = Vec::new();
        if let Some(junit) = &ci.junit {
            files.push(("--junit", junit));
        }
        if let Some(page) = html.and_then(|h| h.html.as_deref()) {
            files.push(("--html", page));
        }
        let answers = self.answers();
        for (flag, path) in &files {
            check_output_file(flag, path, Some(self.out))?;
            self.apart(flag, path, &answers)?;
        }
        if let [(a, first), (b, second)] = files[..] {
            use crate::report::write::real_path;
            if real_path(first) == real_path(second) {
                return Err(UsageError::SameFile {
                    a,
                    first: first.to_path_buf(),
                    b,
                    second: second.to_path_buf(),
                }
                .into());
            }
        }
        ci.check_step_summary()?;
        if let Some(summary) = CiArgs::step_summary() {
            self.apart("$GITHUB_STEP_SUMMARY", &summary, &answers)?;
        }
        Ok(())
    }

    /// The answers read beside the input files named alone: `X.ans` beside each input `X.*`,
    /// whatever its extension (as the run reads them).
    fn answers(&self) -> Vec<std::path::PathBuf> {
        (self.reads.iter())
            .filter(|(_, path)| path.is_file() && path.extension().is_none_or(|e| e != "ans"))
            .map(|(_, path)| path.with_extension("ans"))
            .collect()
    }

    /// Refuses the output file `path` (the value of `flag`) when it is, or lies inside, what the
    /// run reads (`answers` besides [`Self::reads`]: [`Self::answers`]), or is one of the
    /// reports the run writes in `--out`.
    fn apart(
        &self,
        flag: &'static str,
        path: &std::path::Path,
        answers: &[std::path::PathBuf],
    ) -> Result<(), RunError> {
        use crate::report::write::real_path;
        let answers = answers.iter().map(|a| ("the answer", a.as_path()));
        not_inside(flag, path, self.reads.iter().copied().chain(answers))?;
        let real = real_path(path);
        if let Ok(rest) = real.strip_prefix(real_path(self.out)) {
            if let Some(first) = rest.components().next() {
                let name = first.as_os_str().to_string_lossy();
                if self.reports.contains(&name.as_ref()) {
                    return Err(UsageError::OneOfTheReports {
                        flag,
                        path: path.to_path_buf(),
                        name: name.into_owned(),
                        out: self.out.to_path_buf(),
                    }
                    .into());
                }
            }
        }
        Ok(())
    }
}

/// Refuses a directory of saved runs (`--save-runs`) inside what the run reads (`reads`, each
/// with its flag or role), where the next run would read them as data, or inside the report
/// directory `out`, which the reports replace as a whole.
fn saved_runs_apart(
    saved: &std::path::Path,
    out: &std::path::Path,
    reads: &[(&'static str, &std::path::Path)],
) -> Result<(), RunError> {
    use crate::report::write::inside;
    if inside(saved, out) {
        return Err(UsageError::SavedRunsInOut {
            saved: saved.to_path_buf(),
            out: out.to_path_buf(),
        }
        .into());
    }
    not_inside("--save-runs", saved, reads.iter().copied())
}

/// Refuses the output `path` (the value of `flag`) when it is, or lies inside, one of the files
/// or trees a command reads (`reads`, each with its flag or role).
fn not_inside<'a>(
    flag: &'static str,
    path: &std::path::Path,
    reads: impl IntoIterator<Item = (&'static str, &'a std::path::Path)>,
) -> Result<(), RunError> {
    for (what, tree) in reads {
        if crate::report::write::inside(path, tree) {
            return Err(UsageError::InsideWhatIsRead {
                flag,
                path: path.to_path_buf(),
                what,
                tree: tree.to_path_buf(),
            }
            .into());
        }
    }
    Ok(())
}

/// Refuses a report directory `out` that holds one of the files or trees a command reads
/// (`trees`, each with its flag or role): its reports would be written among the data.
fn out_apart<'a>(
    out: &std::path::Path,
    trees: impl IntoIterator<Item = (&'static str, &'a std::path::Path)>,
) -> Result<(), RunError> {
    for (what, tree) in trees {
        if crate::report::write::inside(tree, out) {
            return Err(UsageError::OutHoldsWhatIsRead {
                out: out.to_path_buf(),
                what,
                tree: tree.to_path_buf(),
            }
            .into());
        }
    }
    Ok(())
}

/// A `--rules` value checked against `game` when one is named, else against every game.
fn check_rules(game: Option<GameName>, rules: Option<&str>) -> Result<(), RunError> {
    struct Check<'a>(Option<&'a str>);
    impl Visitor for Check<'_> {
        type Output = Result<(), RulesError>;
        fn visit<G: AnyGame>(self) -> Result<(), RulesError> {
            rules_from_flag::<G>(self.0).map(|_| ())
        }
    }
    match (game, rules) {
        (Some(g), _) => Ok(g.visit(Check(rules))?),
        (None, Some(name)) => Ok(games::check_rule_set_name(name)?),
        (None, None) => Ok(()),
    }
}

fn seconds(flag: &'static str, value: f64) -> Result<Duration, RunError> {
    Duration::try_from_secs_f64(value).map_err(|_| {
        if value.is_finite() && value > 0.0 {
            UsageError::TooManySeconds { flag, value }.into()
        } else {
            UsageError::NotSeconds { flag, value }.into()
        }
    })
}

/// The least a limit of time may be: below it, every run or case would be over it.
const LEAST_SECONDS: Duration = Duration::from_millis(1);

/// A limit of time, which must be at least [`LEAST_SECONDS`]: zero would put every program or
/// case over it, and report that as their fault.
fn limit_seconds(flag: &'static str, value: f64) -> Result<Duration, RunError> {
    let limit = seconds(flag, value)?;
    if limit < LEAST_SECONDS {
        return Err(UsageError::BelowLeastSeconds { flag, value }.into());
    }
    Ok(limit)
}

/// When to print GitHub Actions annotations.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Annotations {
    /// When `GITHUB_ACTIONS=true`.
    Auto,
    /// Always.
    Github,
    /// Never.
    None,
}

/// The CI outputs of `verify`, `grade`, `stress` and `audit`.
#[derive(Debug, Clone, clap::Args)]
struct CiArgs {
    /// Also write the results as JUnit XML to FILE: one testsuite per game (per submission for
    /// grade), one testcase per case, failures for problems (replaced atomically).
    #[arg(long, value_name = "FILE")]
    junit: Option<std::path::PathBuf>,
    /// Print a GitHub Actions `::error file=...,line=...,col=...::` annotation per problem
    /// (at most 10, then a notice); `auto` does when GITHUB_ACTIONS=true. A Markdown summary
    /// is appended to $GITHUB_STEP_SUMMARY whenever it is set.
    #[arg(long, value_enum, default_value_t = Annotations::Auto)]
    annotations: Annotations,
}

impl CiArgs {
    /// Checks, before any work, that the step summary ($GITHUB_STEP_SUMMARY) can be written
    /// where asked (the JUnit file is checked with the run's [`Destinations`]).
    fn check_step_summary(&self) -> Result<(), RunError> {
        if let Some(path) = Self::step_summary() {
            check_output_file("$GITHUB_STEP_SUMMARY", &path, None)?;
        }
        Ok(())
    }

    /// The file `$GITHUB_STEP_SUMMARY` names, when set.
    fn step_summary() -> Option<std::path::PathBuf> {
        std::env::var_os("GITHUB_STEP_SUMMARY")
            .filter(|v| !v.is_empty())
            .map(std::path::PathBuf::from)
    }

    /// Where the CI outputs of a run writing its reports into `reports` go. Annotations go to
    /// standard error when standard output holds JSON (`json`).
    fn output(&self, reports: &std::path::Path, json: bool) -> crate::report::publish::CiOutput {
        let github = std::env::var("GITHUB_ACTIONS").is_ok_and(|v| v == "true");
        crate::report::publish::CiOutput {
            junit: self.junit.clone(),
            annotations: match self.annotations {
                Annotations::Auto => github,
                Annotations::Github => true,
                Annotations::None => false,
            },
            annotations_on_stderr: json,
            step_summary: Self::step_summary(),
            reports: Some(reports.to_path_buf()),
        }
    }
}

/// `--html FILE` of `verify`, `stress` and `audit`.
#[derive(Debug, Clone, clap::Args)]
struct HtmlArgs {
    /// Also write a self-contained HTML report to FILE: the summary, every row (filter by
    /// status and game) and a board view of each problem (a replay for Pousse); replaced
    /// atomically.
    #[arg(long, value_name = "FILE")]
    html: Option<std::path::PathBuf>,
}

impl HtmlArgs {
    /// Writes the page `page()` when asked.
    fn write(
        &self,
        page: impl FnOnce() -> crate::report::html::Page,
        suites: &[crate::report::ci::Suite],
    ) -> Result<(), RunError> {
        match &self.html {
            Some(path) => page()
                .write(path, suites)
                .map_err(|e| RunError::io(path, e)),
            None => Ok(()),
        }
    }
}

/// An output file's path (the value of `flag`) must name a file, not a directory, in a
/// directory that exists or is the run's report directory `out` (which the run makes):
/// checked before any work, and no other directory is ever made for it.
fn check_output_file(
    flag: &'static str,
    path: &std::path::Path,
    out: Option<&std::path::Path>,
) -> Result<(), RunError> {
    let parent = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => std::path::Path::new("."),
    };
    let lexical = |p: &std::path::Path| -> std::path::PathBuf {
        p.components()
            .filter(|c| *c != std::path::Component::CurDir)
            .collect()
    };
    let in_out = out.is_some_and(|out| lexical(out) == lexical(parent));
    if path.is_dir() || path.file_name().is_none() {
        return Err(UsageError::IsDirectory {
            flag,
            path: path.to_path_buf(),
        }
        .into());
    }
    if !parent.is_dir() && !in_out {
        return Err(UsageError::NoDirectory {
            flag,
            path: path.to_path_buf(),
            parent: parent.to_path_buf(),
        }
        .into());
    }
    Ok(())
}

/// The slice of a run spread over machines.
#[derive(Debug, Clone, clap::Args)]
struct ShardArgs {
    /// Run only the K-th of N disjoint slices (1-based), e.g. `2/4`; `referee merge` combines
    /// the slices' reports. `auto` reads the slice from the scheduler: REFEREE_SHARD, a Slurm
    /// job array (SLURM_ARRAY_TASK_ID, _MIN, _COUNT) or a Kubernetes Indexed Job
    /// (JOB_COMPLETION_INDEX with --shards).
    #[arg(long, value_name = "K/N|auto")]
    shard: Option<crate::shard::ShardSpec>,
    /// The number of slices, for `--shard auto` in a Kubernetes Indexed Job (else
    /// REFEREE_SHARDS).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    shards: Option<u64>,
}

impl ShardArgs {
    /// The slice asked for, if any.
    fn slice(&self) -> Result<Option<crate::shard::Shard>, RunError> {
        match (self.shard, self.shards) {
            (None, None) => Ok(None),
            (None, Some(_)) => Err(crate::shard::ShardError::ShardsWithoutAuto.into()),
            (Some(spec), shards) => spec
                .resolve(shards, |name| std::env::var(name).ok())
                .map(Some)
                .map_err(RunError::from),
        }
    }
}

/// A run's CI outputs (`--junit`, annotations, the step summary) and its HTML report
/// (`--html`, the page `page()` over the same suites), each when asked.
fn publish_all(
    title: &str,
    suites: &[crate::report::ci::Suite],
    output: &crate::report::publish::CiOutput,
    html: &HtmlArgs,
    page: impl FnOnce() -> crate::report::html::Page,
) -> Result<(), RunError> {
    publish(title, suites, output)?;
    html.write(page, suites)
}

/// Publishes a run's CI outputs (`--junit`, annotations, the step summary), if any is wanted.
fn publish(
    title: &str,
    suites: &[crate::report::ci::Suite],
    output: &crate::report::publish::CiOutput,
) -> Result<(), RunError> {
    if !output.wanted() {
        return Ok(());
    }
    crate::report::publish::publish(title, suites, output).map_err(|e| {
        if e.kind() == std::io::ErrorKind::BrokenPipe {
            return RunError::ClosedPipe;
        }
        RunError::Publish {
            junit: output.junit.clone(),
            source: e,
        }
    })
}
